"""`cnl2sparql kg load FILE --store DIR` and `cnl2sparql query "SPARQL" (--store DIR | --endpoint URL)`."""
from __future__ import annotations

import argparse
import sys
import time

from cnl.dialects import dialect_names


def register(subparsers) -> None:
    kg = subparsers.add_parser("kg", help="manage the embedded knowledge-graph store")
    kg_sub = kg.add_subparsers(dest="kg_command", metavar="KG_COMMAND")
    kg_sub.required = True
    load = kg_sub.add_parser("load", help="bulk-load an RDF file (N-Triples, Turtle…, .gz too) into a store")
    load.add_argument("file", help="RDF file to load")
    load.add_argument("--store", required=True, help="store folder (created when missing)")
    load.add_argument("--quiet", action="store_true", help="no progress bar")
    load.add_argument("--force", action="store_true",
                      help="replace the store's content with this file, even if it is already loaded "
                           "(refused when the store also holds other files)")
    load.set_defaults(func=run_load)

    query = subparsers.add_parser("query", help="run a SPARQL query on a store or an endpoint")
    query.add_argument("sparql", help="the SPARQL query ('-' reads it from standard input)")
    add_kg_options(query)
    query.set_defaults(func=run_query)

    run = subparsers.add_parser("run", help="compile CNL to SPARQL and run it")
    run.add_argument("cnl", help="the CNL question")
    run.add_argument("--dialect", default="squall", choices=dialect_names(), help="CNL dialect (default: squall)")
    run.add_argument("--kg", default="wikidata",
                     help="KG profile: wikidata (default), rdf, a preset such as wikidata-ecai, or a profile file")
    run.add_argument("--lexicon", default=None, help="label → ID lexicon file for labels written without IDs")
    run.add_argument("--show-sparql", action="store_true", help="print the compiled SPARQL to stderr")
    add_kg_options(run)
    run.set_defaults(func=run_cnl)


def add_kg_options(parser: argparse.ArgumentParser) -> None:
    """The options shared by every command that runs queries (`query`, `run`)."""
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--store", help="embedded store folder (see `kg load`)")
    where.add_argument("--endpoint", help="SPARQL endpoint URL, e.g. https://query.wikidata.org/sparql")
    parser.add_argument("--format", choices=["table", "json", "csv"], default="table")
    parser.add_argument("--timeout", type=positive_float, default=30.0,
                        help="seconds a query may run, on a store or an endpoint (default 30); exit 12 past it")
    parser.add_argument("--max-rows", type=positive_int, default=10_000,
                        help="truncate results after this many rows (the output says so)")
    parser.add_argument("--no-labels", action="store_true", help="do not look up labels for IRIs")
    parser.add_argument("--no-explain", action="store_true",
                        help="on an empty answer, do not check the query's items and properties against the KG "
                             "(by default: which fact is missing, whether the other direction exists)")
    parser.add_argument("--allow-updates", action="store_true", help="allow SPARQL Update (refused by default)")
    add_allow_service(parser)


def add_allow_service(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--allow-service", action="append", default=[], metavar="IRI",
                        help="allow SERVICE (and LOAD) to this exact endpoint IRI; repeatable. Federation is "
                             "refused by default (exit 13)")


def positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, not {text!r}")
    return value


def positive_int(text: str) -> int:
    if not text.strip().isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, not {text!r}")
    return int(text)


def open_from_args(args):
    from cnl.kg import open_kg

    return open_kg(store=args.store, endpoint=args.endpoint, timeout=args.timeout,
                   allow_updates=args.allow_updates, max_rows=args.max_rows, allow_service=args.allow_service)


def execute_and_print(kg, sparql: str, args, *, hints=(), stages=None, headers=None) -> int:
    """Run a query and print its result in the chosen format; shared with `run` and `ask`. An
    empty answer is explained on standard error (:func:`explain_empty`), ``hints`` after it
    (`ask` has printed the CNL the query was compiled from before the answer); ``stages``: a
    :class:`cnl.progress.Stages` that times the query, the labels and the explanation;
    ``headers``: a column's header in the table, by its variable's name."""
    import json

    from cnl.errors import QueryRejected
    from cnl.progress import Stages

    stages = stages or Stages(live=False)
    try:
        with stages.stage("querying the knowledge graph"):
            result = kg.query(sparql)
    except QueryRejected as err:
        if err.update:
            raise QueryRejected(f"{err}; pass --allow-updates to allow it", update=True) from None
        raise
    if isinstance(result, bool):
        print({"json": json.dumps({"head": {}, "boolean": result}), "csv": f"boolean\n{str(result).lower()}"}
              .get(args.format, "yes" if result else "no"))
    elif result is None:
        print("update applied", file=sys.stderr)
    else:
        result.headers.update(headers or {})
        if not args.no_labels:
            with stages.stage("looking up labels"):
                kg.add_labels(result)
        print(result.render(args.format).rstrip("\n"))
        if result.truncated and args.format != "table":  # the table says so in its footer
            print(f"warning: the result was truncated at {len(result)} rows (--max-rows)", file=sys.stderr)
        if not len(result) and not getattr(args, "no_explain", False):
            sys.stdout.flush()
            with stages.stage("explaining the empty answer"):
                lines = explanation(kg, sparql, hints)
            for line in lines:
                print(line, file=sys.stderr)
    return 0


def explanation(kg, sparql: str, hints=()) -> list[str]:
    """The lines that say why ``sparql`` found nothing in ``kg`` (``why:``), before ``hints``
    (``hint:``)."""
    from cnl.kg.explain import explain_empty

    findings = explain_empty(sparql, kg)
    lines = [f"why: {finding.message}" for finding in findings]
    if not findings:
        lines.append("why: the knowledge graph has the query's items and properties; nothing more could be learned")
    return lines + [f"hint: {hint}" for hint in hints]


def run_query(args) -> int:
    sparql = sys.stdin.read() if args.sparql == "-" else args.sparql
    with open_from_args(args) as kg:
        return execute_and_print(kg, sparql, args)


def run_load(args) -> int:
    from cnl.kg.embedded import EmbeddedKG

    start = time.perf_counter()
    with EmbeddedKG(args.store) as kg:
        try:
            added = kg.load(args.file, progress=not args.quiet, force=args.force)
        except KeyboardInterrupt:
            print(f"interrupted: the store at {args.store} is incomplete and will be refused until the load "
                  f"finishes; run the same command again to complete it", file=sys.stderr)
            return 130
        total = len(kg)
    if added < 0:
        print(f"{args.file} is already loaded in {args.store} ({total:,} triples); nothing done "
              f"(--force loads it again)", file=sys.stderr)
        return 0
    print(f"loaded {added:,} triples into {args.store} in {time.perf_counter() - start:.1f} s "
          f"({total:,} in the store; complete)", file=sys.stderr)
    return 0


def run_cnl(args) -> int:
    from cnl.cli.cmd_compile import label_resolver, load_lexicon
    from cnl.sparql.compiler import compile_cnl

    lexicon = load_lexicon(args.lexicon)
    with open_from_args(args) as kg:
        with label_resolver(args, lexicon, kg) as resolver:  # [labels] through --lexicon, then this KG
            sparql = compile_cnl(args.cnl, dialect=args.dialect, kg=args.kg, resolver=resolver)
        if args.show_sparql:
            print(sparql, file=sys.stderr)
        return execute_and_print(kg, sparql, args)
