"""``cnl2sparql compile``: CNL -> SPARQL (or the IR as JSON, or CNL in another notation)."""
from __future__ import annotations

import json
import sys

from cnl.errors import CNLError
from cnl.dialects import dialect_names


def register(sub) -> None:
    p = sub.add_parser(
        "compile",
        help="compile CNL to SPARQL",
        description="Compile CNL to SPARQL. TEXT '-' reads standard input, one query per line.",
    )
    p.add_argument("text", metavar="TEXT", help="the CNL query, or - for one query per line on stdin")
    p.add_argument("--dialect", default="squall", choices=dialect_names(), help="CNL dialect (default squall)")
    p.add_argument("--notation", default="auto", choices=["auto", "ecai", "id", "label"],
                   help="term notation of the input (default: detected)")
    p.add_argument("--kg", default="wikidata", help="KG profile: wikidata (default), rdf, a preset such as wikidata-ecai, or a profile file")
    p.add_argument("--lexicon", metavar="FILE", help="labels -> IDs: .json, .tsv, or an RDF file (.nt/.ttl, .gz)")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--store", metavar="DIR", help="resolve [labels] through this embedded store (after --lexicon)")
    where.add_argument("--endpoint", metavar="URL", help="resolve [labels] through this SPARQL endpoint (after --lexicon)")
    p.add_argument("--format", default="sparql", choices=["sparql", "ir-json", "cnl"],
                   help="output: SPARQL (default), the IR as JSON, or the query re-printed as CNL")
    p.add_argument("--to-notation", default="label", choices=["ecai", "id", "label"],
                   help="notation for --format cnl (default label)")
    p.add_argument("--to-dialect", choices=dialect_names(),
                   help="dialect for --format cnl (default: the input's)")
    p.add_argument("--statements", choices=["always", "qualified"],
                   help="Wikidata: wdt: unless a qualifier needs a statement (qualified, default) or p:/ps: always")
    p.add_argument("--subclasses", action="store_true", help="class tests include subclasses (wdt:P31/wdt:P279*)")
    p.add_argument("--labels", action="store_true", help="add a label column for every answer column")
    p.add_argument("--projection", choices=["all", "focus"], help="answer columns: the question's focus (default) or every variable")
    p.add_argument("--limit", type=int, metavar="N", help="LIMIT for plain selects")
    p.set_defaults(func=run)


def profile_options(args) -> dict:
    options = {}
    if getattr(args, "statements", None):
        options["statements"] = args.statements
    if getattr(args, "subclasses", False):
        options["subclasses"] = True
    if getattr(args, "labels", False):
        options["label_columns"] = True
    if getattr(args, "projection", None):
        options["projection"] = args.projection
    if getattr(args, "limit", None) is not None:
        if args.limit < 1:
            raise CNLError("--limit must be a positive number")
        options["default_limit"] = args.limit
    return options


def load_lexicon(path):
    if not path:
        return None
    from cnl.linking.lexicon import Lexicon

    return Lexicon.from_file(path)


def label_resolver(args, lexicon, kg=None):
    """What resolves the labels of ``args``' CNL: the lexicon, then the KG given (--store,
    --endpoint, or the open ``kg`` of a command that runs queries), by the one rule of
    :mod:`cnl.linking.kg_labels`; a context manager."""
    import contextlib

    store, endpoint = getattr(args, "store", None), getattr(args, "endpoint", None)
    if kg is None and store is None and endpoint is None:
        return contextlib.nullcontext(lexicon)
    from cnl.linking.kg_labels import labels_through

    return labels_through(store=store, endpoint=endpoint, kg=kg, lexicon=lexicon, profile=args.kg,
                          timeout=getattr(args, "timeout", 30.0))


def run(args) -> int:
    with label_resolver(args, load_lexicon(args.lexicon)) as resolver:
        return compile_all(args, resolver)


def compile_all(args, resolver) -> int:
    import cnl
    from cnl import ir
    from cnl.sparql.compiler import compile_cnl, parse_cnl

    notation = None if args.notation == "auto" else args.notation
    options = profile_options(args)

    def one(text: str) -> str:
        query = parse_cnl(text, dialect=args.dialect, kg=args.kg, resolver=resolver, notation=notation)
        if args.format == "ir-json":
            return json.dumps(ir.to_json(query), ensure_ascii=False)
        if args.format == "cnl":
            return cnl.to_cnl(query, args.to_notation, dialect=args.to_dialect or args.dialect)
        return compile_cnl(query, kg=args.kg, resolver=resolver, **options).rstrip("\n")

    if args.text != "-":
        print(one(args.text))
        return 0
    failures = 0
    outputs = []
    for n, line in enumerate(sys.stdin, 1):
        text = line.strip()
        if not text:
            continue
        try:
            outputs.append(one(text))
        except CNLError as err:
            failures += 1
            print(f"error: line {n}: {err}", file=sys.stderr)
            continue
        print(outputs[-1] + ("\n" if args.format == "sparql" else ""), flush=True)
    return 2 if failures else 0
