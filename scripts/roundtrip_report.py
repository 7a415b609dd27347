"""Round trip SPARQL -> CNL -> SPARQL on real queries (issue 3, part 2 acceptance).

(a) the 550 ECAI gold queries (normalized): decompile to SQUALL in the ID notation, print,
parse the text back, compile under the returned profile options, and check equivalence with
the gold. Refusals that are not the decompiler's to fix are classed with a one-line reason:
a malformed gold (MALFORMED) or a construct the CNL has no form for (NO_CNL_FORM); the figure
is given raw, over the usable golds and over the expressible ones. (b) QALD-9-plus train
(371 hand-written Wikidata queries) and (d) WikiWebQuestions train (2,431): the same, plus a
table of refused constructs by count.

    python scripts/roundtrip_report.py [--failures] [--sparklis] [--only ecai|qald|wwq ...]
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cnl.sparql.decompile import check_says, decompile_to_ir  # noqa: E402
from cnl.sparql.equivalence import equivalent  # noqa: E402
from cnl.sparql.compiler import compile_query  # noqa: E402
from cnl.datasets.paths import data_file  # noqa: E402
from cnl.errors import CNLError, UnsupportedSPARQLError  # noqa: E402
from cnl.dialects import get_dialect  # noqa: E402


def round_trip(sparql: str, dialect: str = "squall") -> tuple[str, str, str]:
    """(outcome, detail, cnl): outcome is equivalent / different / refused / error."""
    try:
        query, options = decompile_to_ir(sparql)
    except UnsupportedSPARQLError as err:
        return "refused", err.construct, ""
    except CNLError as err:
        return "error", f"decompile: {str(err).splitlines()[0]}", ""
    speaker = get_dialect(dialect)
    try:
        check_says(speaker, query, options)
    except UnsupportedSPARQLError as err:
        return "refused", err.construct, ""
    try:
        text = speaker.print(speaker.printable(query), "id", id_labels=False)
    except Exception as err:  # noqa: BLE001 — a printer gap is reported, not fatal
        return "error", f"print: {err}", ""
    try:
        back = speaker.parse(text, notation="id")
        compiled = compile_query(back, "wikidata", None, **options)
    except CNLError as err:
        return "error", f"reparse/compile: {str(err).splitlines()[0]}", text
    if equivalent(compiled, sparql):
        return "equivalent", "", text
    return "different", compiled, text


# Refusals of ECAI golds that are not the decompiler's to fix, each with its one-line reason.
# The gold is malformed: it does not say what it was written to say.
MALFORMED = {
    "a FILTER over constants only (always true or always false)":
        "compares two constants (FILTER(1975 < 1980)): the FILTER never looks at the data",
    "an ill-formed xsd:dateTime literal (a date without a time)":
        '"2000-01-01"^^xsd:dateTime is not a valid xsd:dateTime (no time part)',
    "ORDER BY a variable the query never binds":
        "orders by ?P585 where the pattern binds ?P585_17: only LIMIT 1 applies, an arbitrary answer",
}
# Well-formed, but outside what the CNL can say (by design, not a decompiler gap).
NO_CNL_FORM = {
    "COUNT without DISTINCT": "'how many' counts distinct things; COUNT(?x) counts a value once per statement",
    "BIND of ABS()": "no absolute value in the CNL (|year(start) - year(end)|)",
    "BIND of STR()": "no string conversion as an answer column (BIND(STR(?x)) then a REGEX on it)",
    "BIND of a comparison (a true/false answer)": "a true/false value as an answer column",
    "a FILTER on an expression": 'a string comparison of a date (STR(?d) <= "2005")',
    "a predicate outside Wikidata's wdt:/p:/ps:/pq: namespaces": "rdfs:label is presentation, not a CNL property",
    "the aggregate MIN": "no MIN/MAX aggregate in the CNL (only orderings with a limit)",
    "ORDER BY an expression": "an ordering by a cast value (xsd:integer(?x))",
    "a FILTER on isLITERAL()": "no test of a term's kind in the CNL",
}


def ecai(show: bool) -> float:
    from cnl.datasets.ecai.loader import load_all, normalize_gold_sparql

    outcomes, unusable, refused = Counter(), Counter(), Counter()
    for record in load_all():
        try:
            gold = normalize_gold_sparql(record.sparql_raw)
        except CNLError as err:
            outcomes["unusable gold"] += 1
            unusable[str(err).split(" (")[0]] += 1
            if show:
                print(f"  {record.split}#{record.index} unusable gold: {err}")
            continue
        outcome, detail, text = round_trip(gold)
        outcomes[outcome] += 1
        if outcome == "refused":
            refused[detail] += 1
        if show and outcome != "equivalent":
            print(f"  {record.split}#{record.index} {outcome}: {detail.strip()[:300]!r}\n    cnl: {text}\n    gold: {' '.join(gold.split()[-40:])}")
    total = sum(outcomes.values())
    share = outcomes["equivalent"] / total
    print(f"(a) ECAI gold round trip: {outcomes['equivalent']}/{total} = {100 * share:.1f} % equivalent "
          f"({', '.join(f'{k} {v}' for k, v in sorted(outcomes.items()))})")
    usable = total - outcomes["unusable gold"]
    print(f"    of the {usable} usable golds: {outcomes['equivalent']}/{usable} = "
          f"{100 * outcomes['equivalent'] / usable:.1f} %")
    print("    unusable golds (counted as failures above): "
          + "; ".join(f"{n} {reason}" for reason, n in unusable.most_common()))
    malformed = sum(n for c, n in refused.items() if c in MALFORMED)
    no_form = sum(n for c, n in refused.items() if c in NO_CNL_FORM)
    expressible = usable - malformed - no_form
    print(f"    of the {expressible} expressible golds (usable, well-formed, with a CNL form): "
          f"{outcomes['equivalent']}/{expressible} = {100 * outcomes['equivalent'] / expressible:.1f} %")
    print("    refused constructs:")
    for construct, n in refused.most_common():
        why = (f"  [malformed gold: {MALFORMED[construct]}]" if construct in MALFORMED else
               f"  [no CNL form: {NO_CNL_FORM[construct]}]" if construct in NO_CNL_FORM else "  [decompiler gap]")
        print(f"    {n:5d}  {construct}{why}")
    return share


def ecai_sparklis() -> float:
    """The same round trip through the Sparklis dialect (printed and parsed as Sparklis)."""
    from cnl.datasets.ecai.loader import load_all, normalize_gold_sparql

    outcomes = Counter()
    for record in load_all():
        try:
            gold = normalize_gold_sparql(record.sparql_raw)
        except CNLError:
            outcomes["unusable gold"] += 1
            continue
        outcomes[round_trip(gold, "sparklis")[0]] += 1
    total = sum(outcomes.values())
    print(f"(c) ECAI gold round trip through Sparklis text: {outcomes['equivalent']}/{total} = "
          f"{100 * outcomes['equivalent'] / total:.1f} % equivalent "
          f"({', '.join(f'{k} {v}' for k, v in sorted(outcomes.items()))})")
    return outcomes["equivalent"] / total


def hand_written(name: str, label: str, path: tuple[str, ...], show: bool) -> float:
    """Round trip of a data set of hand-written Wikidata queries (a JSON list of {id, sparql})."""
    data = json.loads(data_file(*path).read_text("utf-8"))
    outcomes, refused = Counter(), Counter()
    for item in data:
        outcome, detail, text = round_trip(item["sparql"])
        outcomes[outcome] += 1
        if outcome == "refused":
            refused[detail] += 1
        if show and outcome in ("different", "error"):
            print(f"  {name} {item['id']} {outcome}: {detail.strip()[:300]!r}\n    cnl: {text}\n"
                  f"    sparql: {' '.join(item['sparql'].split())}")
    total = len(data)
    share = outcomes["equivalent"] / total
    print(f"{label}: {outcomes['equivalent']}/{total} = {100 * share:.1f} % decompiled and "
          f"recompiled to an equivalent query ({', '.join(f'{k} {v}' for k, v in sorted(outcomes.items()))})")
    print("    refused constructs:")
    for construct, n in refused.most_common():
        print(f"    {n:5d}  {construct}")
    return share


def qald(show: bool) -> float:
    return hand_written("qald", "(b) QALD-9-plus train", ("benchmarks", "qald9plus_train.json"), show)


def wwq(show: bool) -> float:
    return hand_written("wwq", "(d) WikiWebQuestions train", ("wikiwebquestions", "train.json"), show)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--failures", action="store_true", help="list every query that is not equivalent")
    parser.add_argument("--sparklis", action="store_true", help="also round-trip the ECAI golds through Sparklis text")
    parser.add_argument("--only", choices=("ecai", "qald", "wwq"), action="append",
                        help="report only these data sets (repeatable; default: all three)")
    args = parser.parse_args()
    chosen = args.only or ("ecai", "qald", "wwq")
    if "ecai" in chosen:
        ecai(args.failures)
    if "qald" in chosen:
        qald(args.failures)
    if "wwq" in chosen:
        wwq(args.failures)
    if args.sparklis:
        ecai_sparklis()


if __name__ == "__main__":
    main()
