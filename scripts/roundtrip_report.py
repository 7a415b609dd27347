"""Round trip SPARQL -> CNL -> SPARQL on real queries (issue 3, part 2 acceptance).

(a) the 550 ECAI gold queries (normalized): decompile to SQUALL in the ID notation, print,
parse the text back, compile under the returned profile options, and check equivalence with
the gold; (b) QALD-9-plus train (371 hand-written Wikidata queries): the same, plus a table
of refused constructs by count.

    python scripts/roundtrip_report.py [--failures] [--sparklis]
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cnl.compiler.decompile import decompile_to_ir  # noqa: E402
from cnl.compiler.equivalence import equivalent  # noqa: E402
from cnl.compiler.sparql import compile_query  # noqa: E402
from cnl.data.paths import data_file  # noqa: E402
from cnl.errors import CNLError, UnsupportedSPARQLError  # noqa: E402
from cnl.parser.printer import print_squall  # noqa: E402
from cnl.parser.squall import parse_squall  # noqa: E402


def round_trip(sparql: str, dialect: str = "squall") -> tuple[str, str, str]:
    """(outcome, detail, cnl): outcome is equivalent / different / refused / error."""
    try:
        query, options = decompile_to_ir(sparql)
    except UnsupportedSPARQLError as err:
        return "refused", err.construct, ""
    except CNLError as err:
        return "error", f"decompile: {str(err).splitlines()[0]}", ""
    try:
        if dialect == "sparklis":
            from cnl.compiler.decompile import sparklis_form
            from cnl.parser.sparklis_printer import print_sparklis

            text = print_sparklis(sparklis_form(query), "id", id_labels=False)
        else:
            text = print_squall(query, "id", id_labels=False)
    except Exception as err:  # noqa: BLE001 — a printer gap is reported, not fatal
        return "error", f"print: {err}", ""
    try:
        if dialect == "sparklis":
            from cnl.parser.sparklis import parse_sparklis

            back = parse_sparklis(text, notation="id")
        else:
            back = parse_squall(text, notation="id")
        compiled = compile_query(back, "wikidata", None, **options)
    except CNLError as err:
        return "error", f"reparse/compile: {str(err).splitlines()[0]}", text
    if equivalent(compiled, sparql):
        return "equivalent", "", text
    return "different", compiled, text


def ecai(show: bool) -> float:
    from cnl.data.ecai import load_all, normalize_gold_sparql

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
    print("    refused constructs:")
    for construct, n in refused.most_common():
        print(f"    {n:5d}  {construct}")
    return share


def ecai_sparklis() -> float:
    """The same round trip through the Sparklis dialect (printed and parsed as Sparklis)."""
    from cnl.data.ecai import load_all, normalize_gold_sparql

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


def qald(show: bool) -> float:
    data = json.loads(data_file("benchmarks", "qald9plus_train.json").read_text("utf-8"))
    outcomes, refused = Counter(), Counter()
    for item in data:
        outcome, detail, text = round_trip(item["sparql"])
        outcomes[outcome] += 1
        if outcome == "refused":
            refused[detail] += 1
        if show and outcome in ("different", "error"):
            print(f"  qald {item['id']} {outcome}: {detail.strip()[:300]!r}\n    cnl: {text}\n    sparql: {' '.join(item['sparql'].split())}")
    total = len(data)
    share = outcomes["equivalent"] / total
    print(f"(b) QALD-9-plus train: {outcomes['equivalent']}/{total} = {100 * share:.1f} % decompiled and "
          f"recompiled to an equivalent query ({', '.join(f'{k} {v}' for k, v in sorted(outcomes.items()))})")
    print("    refused constructs:")
    for construct, n in refused.most_common():
        print(f"    {n:5d}  {construct}")
    return share


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--failures", action="store_true", help="list every query that is not equivalent")
    parser.add_argument("--sparklis", action="store_true", help="also round-trip the ECAI golds through Sparklis text")
    args = parser.parse_args()
    ecai(args.failures)
    qald(args.failures)
    if args.sparklis:
        ecai_sparklis()


if __name__ == "__main__":
    main()
