"""TA-offline of the learned parser on the 150 ECAI-2023 test questions, through the command a
user runs, with run-time linking (not the data's recorded candidates):

    cnl2sparql translate --batch - --kg wikidata-ecai --store SLICE [options]

The questions go to its standard input, one per line; each output row's SPARQL is compared
with the test question's normalized gold SPARQL (`cnl.datasets.ecai.loader.normalize_gold_sparql`)
by the project's equivalence checker (`cnl.sparql.equivalence`). A question whose gold cannot be
normalized counts as a miss (the figure is over all 150, as `scripts/eval_translate.py` reports
it). `scripts/eval_translate.py` measures the same adapter with the examples' own resolver (the
data's recorded entity candidates); this script measures what a user gets.

    python scripts/eval_ecai_translate.py --store .cache/slice [--adapter DIR] [--limit N]
        [--out FILE.json] [-- extra translate options, e.g. --beams 4]
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--store", required=True)
    ap.add_argument("--adapter", default=None)
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("translate_options", nargs="*", help="more options for cnl2sparql translate (after --)")
    args = ap.parse_args(argv)

    from cnl.datasets.ecai.loader import load_ecai, normalize_gold_sparql
    from cnl.errors import DataError
    from cnl.sparql.equivalence import equivalent

    records = load_ecai("test")[: args.limit]
    golds = []
    for record in records:
        try:
            golds.append(normalize_gold_sparql(record.sparql_raw))
        except DataError:
            golds.append(None)
    command = [str(Path(sys.executable).with_name("cnl2sparql")), "translate", "--batch", "-",
               "--kg", "wikidata-ecai", "--store", args.store,
               *(["--adapter", args.adapter] if args.adapter else []), *args.translate_options]
    print("$ " + " ".join(command) + " < questions", file=sys.stderr)
    started = time.perf_counter()
    questions = "".join(" ".join(r.question.split()) + "\n" for r in records)
    done = subprocess.run(command, input=questions, stdout=subprocess.PIPE, text=True, check=True)
    wall = time.perf_counter() - started
    rows = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    assert len(rows) == len(records), (len(rows), len(records))
    hits, compiled, abstained, results = 0, 0, 0, []
    for record, gold, row in zip(records, golds, rows):
        ok = False
        if row.get("sparql"):
            compiled += 1
            try:
                ok = gold is not None and bool(equivalent(row["sparql"], gold))
            except Exception:  # noqa: BLE001 - an unreadable prediction is a miss
                ok = False
        abstained += bool(row.get("abstained"))
        hits += ok
        results.append({"index": record.index, "question": record.question, "cnl": row.get("cnl"),
                        "gold_squall": record.squall, "ta_offline": ok, "abstained": row.get("abstained"),
                        "sparql": row.get("sparql"),
                        "candidates": [c.get("label") for c in row.get("candidates", [])][:5],
                        "candidate_ids": [c.get("id") for c in row.get("candidates", [])],
                        "recorded_candidates": [c.label for c in record.candidates][:5]})
    n = len(records)
    usable = sum(g is not None for g in golds)
    figures = {"n": n, "ta_offline": hits / n, "hits": hits, "compiles": compiled / n, "abstained": abstained,
               "usable_gold": usable, "wall_s": round(wall, 1), "options": args.translate_options}
    print(f"ECAI test through translate --kg wikidata-ecai --store: {n} questions; TA-offline {hits}/{n} = "
          f"{hits / n:.3f}; SPARQL for {compiled / n:.3f}; {abstained} abstained; {usable} golds usable; "
          f"{wall:.0f} s (model load included)")
    if args.out:
        args.out.write_text(json.dumps({"figures": figures, "predictions": results}, indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
