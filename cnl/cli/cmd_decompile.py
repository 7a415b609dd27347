"""``cnl2sparql decompile``: SPARQL -> CNL (SQUALL or Sparklis) in a chosen notation."""
from __future__ import annotations

import json
import sys

from cnl.dialects import dialect_names


def register(sub) -> None:
    p = sub.add_parser(
        "decompile",
        help="turn SPARQL back into CNL",
        description="Decompile a SPARQL query into CNL. SPARQL '-' reads the whole query from standard input.",
    )
    p.add_argument("sparql", metavar="SPARQL", help="the SPARQL query, or - to read it from stdin")
    p.add_argument("--to", default="squall", choices=dialect_names(), help="CNL dialect (default squall)")
    p.add_argument("--notation", default="id", choices=["id", "label", "ecai"],
                   help="term notation (default id); label and ecai need --lexicon for names")
    p.add_argument("--lexicon", metavar="FILE", help="IDs -> labels: .json, .tsv, or an RDF file (.nt/.ttl, .gz)")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--store", metavar="DIR", help="name the query's items by this embedded store's labels "
                                                       "(after --lexicon)")
    where.add_argument("--endpoint", metavar="URL", help="name the query's items by this endpoint's labels")
    p.add_argument("--options", action="store_true",
                   help="also print the profile options that recompile the CNL to an equivalent query (JSON)")
    p.set_defaults(func=run)


def run(args) -> int:
    import cnl

    sparql = sys.stdin.read() if args.sparql == "-" else args.sparql
    lexicon = args.lexicon
    if args.store or args.endpoint:
        lexicon = kg_names(sparql, args)
    print(cnl.decompile(sparql, dialect=args.to, notation=args.notation, lexicon=lexicon))
    if args.options:
        from cnl.sparql.decompile import decompile_to_ir

        print(json.dumps(decompile_to_ir(sparql)[1], sort_keys=True))
    return 0


def kg_names(sparql: str, args):
    """A lexicon of the labels the KG (--store/--endpoint) gives the Wikidata items and
    properties the query names, after --lexicon's."""
    import re

    from cnl.cli.cmd_compile import load_lexicon
    from cnl.linking.lexicon import Lexicon
    from cnl.sparql.namespaces import WD

    lexicon = load_lexicon(args.lexicon) or Lexicon()
    ids = set(re.findall(r"(?:wd:|wdt:|p:|ps:|pq:|/entity/|/direct/|/prop/|/statement/|/qualifier/)([PQ][1-9][0-9]*)\b",
                         sparql))
    if not ids:
        return lexicon
    with _open(args) as kg:
        names = kg.labels(WD + ident for ident in ids)
    for iri, label in names.items():
        ident = iri[len(WD):]
        if lexicon.name(ident) is None:
            lexicon.add(label, ident, kind="property" if ident[0] == "P" else "entity")
    return lexicon


def _open(args):
    if args.store:
        from cnl.kg.embedded import EmbeddedKG

        return EmbeddedKG(args.store, read_only=True, isolate=False, timeout=None)  # our own label lookup
    from cnl.kg import open_kg

    return open_kg(endpoint=args.endpoint)
