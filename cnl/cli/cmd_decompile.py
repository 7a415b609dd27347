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
    p.add_argument("--options", action="store_true",
                   help="also print the profile options that recompile the CNL to an equivalent query (JSON)")
    p.set_defaults(func=run)


def run(args) -> int:
    import cnl

    sparql = sys.stdin.read() if args.sparql == "-" else args.sparql
    print(cnl.decompile(sparql, dialect=args.to, notation=args.notation, lexicon=args.lexicon))
    if args.options:
        from cnl.sparql.decompile import decompile_to_ir

        print(json.dumps(decompile_to_ir(sparql)[1], sort_keys=True))
    return 0
