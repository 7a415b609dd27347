"""The compiler's real-data figure: the 550 ECAI SQUALL strings against their gold SPARQL.

    python scripts/ecai_compile_report.py [--json out.json] [--mismatches]

For each string: parse (rejections listed with their reason), align its labels with the
gold query's IDs, compile with the ECAI-compatible Wikidata profile (p:/ps: statements, all
variables projected), normalize the gold, and compare with the canonical-algebra
equivalence checker. Every mismatch gets a one-line cause and a class:
  gold error       the gold query says something else than the SQUALL (other IDs, another
                   question form or ordering), or is missing/unusable;
  gold convention  same graph pattern, other answer columns / LIMIT / COUNT DISTINCT;
  compiler gap     the rest — what the compiler could still learn.
"""
from __future__ import annotations

import argparse
import collections
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cnl.datasets.ecai.squall_check import check_all, other_annotation_verdicts  # noqa: E402
from cnl.datasets.ecai.sparklis_check import check_all as check_all_sparklis  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--json", metavar="FILE", help="write every record's result as JSON")
    ap.add_argument("--mismatches", action="store_true", help="list every mismatch (default: compiler gaps only)")
    args = ap.parse_args(argv)

    start = time.perf_counter()
    results = check_all()
    elapsed = time.perf_counter() - start
    total = len(results)
    by_status = collections.Counter(r.status for r in results)
    by_kind = collections.Counter(r.kind for r in results if r.status == "mismatch")
    parsed = total - by_status["rejected"]
    with_gold = sum(1 for r in results if r.status in ("equivalent", "mismatch"))
    equivalent = by_status["equivalent"]
    convention = sum(1 for r in results if r.kind == "gold convention")
    gaps = sum(1 for r in results if r.kind == "compiler gap")
    agreeing = equivalent + convention + gaps  # gold says what the SQUALL says

    print(f"ECAI SQUALL strings: {total}  (checked in {elapsed:.1f} s)")
    print(f"parsed: {parsed}/{total} ({parsed / total:.1%}); rejected as malformed: {by_status['rejected']}")
    print(f"no usable gold SPARQL: {by_status['no-gold']}")
    print()
    print(f"equivalent to the normalized gold (strict):        {equivalent}/{total} = {equivalent / total:.1%}")
    print(f"  of the parsed strings with a usable gold:         {equivalent}/{with_gold} = {equivalent / with_gold:.1%}")
    print(f"  equivalent up to answer columns/LIMIT convention: {equivalent + convention}/{with_gold} "
          f"= {(equivalent + convention) / with_gold:.1%}")
    print(f"  where the gold agrees with the SQUALL:            {equivalent + convention}/{agreeing} "
          f"= {(equivalent + convention) / agreeing:.1%}  (strict: {equivalent / agreeing:.1%})")
    verdicts = other_annotation_verdicts(results, check_all_sparklis())
    print(f"  the data's ceiling (every compiler gap closed):  {agreeing}/{total} = {agreeing / total:.1%}")
    print(f"  even if every parsed string with a usable gold matched: {with_gold}/{total} = {with_gold / total:.1%} "
          f"({by_status['rejected']} malformed strings, {by_status['no-gold']} unusable golds)")
    print(f"  of the {by_kind['gold error']} gold errors, the same question's Sparklis annotation compiles to the gold "
          f"for {verdicts['equivalent']} (+{verdicts['gold convention']} up to LIMIT 1/answer columns): "
          f"those golds were written for the Sparklis, not for the SQUALL")
    print()
    print("mismatches by class:", dict(by_kind))
    causes = collections.Counter(
        (r.kind, r.cause.split(":")[0].split("(")[0].strip()) for r in results if r.status == "mismatch")
    for (kind, cause), n in causes.most_common():
        print(f"  {n:4d}  {kind:16s} {cause}")

    print("\nrejected strings (malformed SQUALL):")
    for r in results:
        if r.status == "rejected":
            print(f"  {r.record.split}#{r.record.index}: {r.record.squall.strip()[:90]!r}\n      -> {r.cause}")
    print("\nmismatches:" if args.mismatches else "\ncompiler gaps:")
    for r in results:
        if r.status == "mismatch" and (args.mismatches or r.kind == "compiler gap"):
            print(f"  [{r.kind}] {r.record.split}#{r.record.index}: {r.record.squall.strip()[:100]}\n      -> {r.cause[:240]}")
    if args.json:
        rows = [
            {"split": r.record.split, "index": r.record.index, "question": r.record.question,
             "squall": r.record.squall, "status": r.status, "kind": r.kind, "cause": r.cause,
             "sparql": r.sparql, "gold": r.gold}
            for r in results
        ]
        Path(args.json).write_text(json.dumps(rows, indent=1, ensure_ascii=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
