"""Seconds per question of `cnl2sparql ask --batch` over the first N questions of the
WikiWebQuestions dev split (seeded, never trained on), run as a user runs it:

    python benchmarks/bench_ask_batch.py --store .cache/slice [--questions 100] [-- more ask options]

Prints the median and p90 of each row's own `seconds` (its share of the batch's generation, its
compile and its query on the store), the wall time of the whole command (model load included)
and the rows whose query failed or was cut at its deadline.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def _has_answer(answers) -> bool:
    """A yes/no answer, or a SPARQL JSON result with at least one row."""
    if isinstance(answers, bool):
        return True
    return bool(isinstance(answers, dict) and answers.get("results", {}).get("bindings"))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--store", required=True, help="embedded store of the Wikidata slice")
    ap.add_argument("--questions", type=int, default=100)
    ap.add_argument("ask_options", nargs="*", help="more options for cnl2sparql ask (after --)")
    args = ap.parse_args(argv)

    from cnl.datasets.wwq.loader import load_wwq

    records = load_wwq("dev")[: args.questions]
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as handle:
        for record in records:
            handle.write(json.dumps({"question": record.question}) + "\n")
    command = [str(Path(sys.executable).with_name("cnl2sparql")), "ask", "--batch", handle.name,
               "--store", args.store, *args.ask_options]
    print("$ " + " ".join(command), file=sys.stderr)
    started = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.PIPE, text=True, check=True)
    wall = time.perf_counter() - started
    rows = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    seconds = sorted(row["seconds"] for row in rows)
    p90 = seconds[min(len(seconds) - 1, int(round(0.9 * (len(seconds) - 1))))]
    answered = sum(1 for row in rows if _has_answer(row.get("answers")))
    errors = [row for row in rows if row.get("error")]
    print(f"ask --batch, {len(rows)} WikiWebQuestions dev questions: median {statistics.median(seconds):.2f} s, "
          f"p90 {p90:.2f} s, mean {statistics.mean(seconds):.2f} s per question; whole command {wall:.1f} s "
          f"({wall / len(rows):.2f} s per question, model load included); {answered} with an answer, "
          f"{len(errors)} with an error")
    for row in errors[:5]:
        print(f"  error: {row['question']!r}: {row['error']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
