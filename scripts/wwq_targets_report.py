"""How many of the 2,431 WikiWebQuestions questions become CNL targets, and why the rest do not.

Decompiles every gold query, labels its terms (the store's rdfs:label, the data's entity
labels and names, Wikidata's property labels), prints it, reads it back and checks that it is
equivalent to the gold (see cnl/datasets/wwq/targets.py). Figures per split (train / the
seeded dev split) and the reasons, each with one example id.

    python scripts/wwq_targets_report.py --store .cache/slice [--dialect squall] [--notation label] [--show 5]
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--store", default=None, help="embedded store of the Wikidata slice (its labels first)")
    ap.add_argument("--dialect", default="squall", choices=["squall", "sparklis"])
    ap.add_argument("--notation", default="label", choices=["label", "id"])
    ap.add_argument("--show", type=int, default=0, help="print that many targets per split")
    args = ap.parse_args(argv)

    from cnl.datasets.wwq.loader import load_wwq
    from cnl.datasets.wwq.targets import TargetReport, wwq_targets
    from cnl.kg import open_kg

    started = time.perf_counter()
    kg = open_kg(store=args.store) if args.store else None
    reports = {}
    try:
        for split in ("train", "dev"):
            report = reports[split] = TargetReport()
            targets = wwq_targets(load_wwq(split), kg, dialect=args.dialect, notation=args.notation, report=report)
            for t in targets[: args.show]:
                print(f"  {t.source}: {t.question}\n    {t.cnl}")
    finally:
        if kg is not None:
            kg.close()
    total = TargetReport()
    for report in reports.values():
        total.records += report.records
        total.targets += report.targets
        total.preset_equivalent += report.preset_equivalent
        total.reasons.update(report.reasons)
        for reason, example in report.examples.items():
            total.examples.setdefault(reason, example)
    print(f"WikiWebQuestions -> {args.dialect}/{args.notation} targets (labels: "
          f"{'the store, then ' if args.store else ''}the data's names, Wikidata's property labels)")
    for name, report in (*reports.items(), ("all", total)):
        print(f"  {name:5}: {report.targets:5d} of {report.records:5d} = {report.targets / max(report.records, 1):.1%}"
              f" targets; {report.preset_equivalent} = {report.preset_equivalent / max(report.records, 1):.1%}"
              f" also equivalent under wikidata-wwq")
    print("why the others are not targets:")
    for reason, n in total.reasons.most_common():
        print(f"  {n:4d}  {reason}  (e.g. {total.examples[reason]})")
    print(f"({time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
