"""``cnl2sparql grammar-test``: run a KG's CNL <-> SPARQL test cases against a profile."""
from __future__ import annotations

from cnl.dialects import dialect_names


def register(sub) -> None:
    p = sub.add_parser(
        "grammar-test",
        help="check a KG profile and lexicon against CNL test cases",
        description="Compile each case's CNL with PROFILE and check it against the expected SPARQL "
                    "and, with --data, the expected answers. Exits non-zero when any case fails.",
    )
    p.add_argument("profile", metavar="PROFILE", help="a profile name (wikidata, rdf) or a profile file (.toml)")
    p.add_argument("cases", metavar="CASES", help="cases file: TOML ([[case]]) or JSON list of {cnl, sparql?, answers?}")
    p.add_argument("--data", metavar="FILE", help="an RDF file (.ttl, .nt, .gz) to check the answers on")
    p.add_argument("--lexicon", metavar="FILE", help="labels -> IDs: .json, .tsv, or an RDF file")
    p.add_argument("--dialect", default="squall", choices=dialect_names(), help="CNL dialect of the cases")
    p.add_argument("--verbose", action="store_true", help="print the compiled SPARQL of failing cases")
    p.set_defaults(func=run)


def run(args) -> int:
    from cnl.sparql.profiles import get_profile
    from cnl.errors import GrammarTestFailed
    from cnl.eval.grammar_test import load_cases, run_cases
    from cnl.linking.lexicon import as_lexicon

    profile = get_profile(args.profile)
    cases = load_cases(args.cases)
    lexicon = as_lexicon(args.lexicon) if args.lexicon else None
    results = run_cases(cases, profile, lexicon=lexicon, data=args.data, dialect=args.dialect)
    for r in results:
        label = r.case.name or r.case.cnl
        if r.ok:
            print(f"PASS {r.index:3d}  {label}")
        else:
            print(f"FAIL {r.index:3d}  {label}")
            for failure in r.failures:
                print(f"          {failure}")
            if args.verbose and r.compiled:
                print("          compiled:\n" + "\n".join("            " + line for line in r.compiled.splitlines()))
    failed = sum(not r.ok for r in results)
    print(f"{len(results) - failed}/{len(results)} cases pass (profile {profile.name})")
    if failed:
        raise GrammarTestFailed(f"{failed} of {len(results)} grammar-test cases failed")
    return 0
