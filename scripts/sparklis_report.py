"""The Sparklis figures on the ECAI data: how many of the 550 Sparklis strings parse, and how
many compile to SPARQL equivalent to their gold query (same alignment, profile and checker as
the SQUALL report). ``--mismatches`` lists every rejected string and mismatch with its cause.

    python scripts/sparklis_report.py [--mismatches]
"""
from __future__ import annotations

import argparse
import collections
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cnl.datasets.ecai.squall_check import check_all as check_all_squall, other_annotation_verdicts  # noqa: E402
from cnl.datasets.ecai.sparklis_check import check_all, gold_usable  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mismatches", action="store_true", help="list every rejection and mismatch with its cause")
    args = ap.parse_args()
    start = time.perf_counter()
    results = check_all()
    elapsed = time.perf_counter() - start
    total = len(results)
    rejected = [r for r in results if r.status == "rejected"]
    malformed = [r for r in rejected if r.kind == "malformed"]
    parsed = total - len(rejected)
    well_formed = total - len(malformed)
    equivalent = sum(r.status == "equivalent" for r in results)
    usable = sum(r.status in ("equivalent", "mismatch") for r in results)
    kinds = collections.Counter(r.kind for r in results if r.status == "mismatch")
    convention = kinds["gold convention"]
    agreeing = equivalent + convention + kinds["compiler gap"]
    print(f"Sparklis strings: {total}  ({elapsed:.1f} s)")
    print(f"parsed: {parsed}/{total} = {parsed / total:.1%}; of the well-formed: {parsed}/{well_formed} = "
          f"{parsed / well_formed:.1%}  (malformed: {len(malformed)}, parser gaps: {len(rejected) - len(malformed)})")
    print(f"equivalent to the gold (strict): {equivalent}/{total} = {equivalent / total:.1%}; "
          f"{equivalent}/{usable} = {equivalent / usable:.1%} of the parsed strings with a usable gold")
    print(f"mismatches: {dict(kinds)}; no usable gold: {sum(r.status == 'no-gold' for r in results)}")
    print(f"where the gold says what the Sparklis says (no gold error): strict {equivalent}/{agreeing} = "
          f"{equivalent / agreeing:.1%}; counting gold conventions (LIMIT 1 on an ordering, answer columns) "
          f"as equal: {equivalent + convention}/{agreeing} = {(equivalent + convention) / agreeing:.1%}")
    comparable = usable + sum(r.status == "rejected" and r.kind == "parser gap" and gold_usable(r.record)
                              for r in results)
    errors = kinds["gold error"]
    print(f"of the {comparable} well-formed strings with a usable gold: strict {equivalent}/{comparable} = "
          f"{equivalent / comparable:.1%}; counting gold conventions {equivalent + convention}/{comparable} = "
          f"{(equivalent + convention) / comparable:.1%}; with this gold no compiler can be strictly equivalent "
          f"on more than {comparable - convention - errors}/{comparable} = "
          f"{(comparable - convention - errors) / comparable:.1%} ({convention} conventions, {errors} gold errors)")
    verdicts = other_annotation_verdicts(results, check_all_squall())
    print(f"the data's ceiling (gold conventions counted, parser and compiler gaps closed): "
          f"{agreeing + len(rejected) - len(malformed)}/{well_formed} = "
          f"{(agreeing + len(rejected) - len(malformed)) / well_formed:.1%} of the well-formed strings")
    print(f"of the {kinds['gold error']} gold errors, the same question's SQUALL annotation compiles to the gold "
          f"for {verdicts['equivalent']} (+{verdicts['gold convention']} up to LIMIT 1/answer columns): "
          f"those golds were written for the SQUALL, not for the Sparklis")
    if args.mismatches:
        for r in results:
            if r.status == "equivalent":
                continue
            why = r.extra.get("malformed") if r.status == "rejected" else None
            print(f"\n[{r.record.split} {r.record.index}] {r.status} ({r.kind}): {r.cause}"
                  + (f" -- malformed: {why}" if why else ""))
            print(f"  {r.record.sparklis.strip()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
