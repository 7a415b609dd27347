"""A newcomer's everyday questions, asked as a user asks them, scored by their answers.

``examples/everyday/questions.tsv`` holds questions a person new to the tool asks first (who
directed, where born, capital, spouse, teams, genres, borders, ...), each with a reference CNL
written by hand whose answer on the slice is the right one (every reference has an answer there:
this measures the parser and the chooser, not the slice's gaps). The questions go through

    cnl2sparql ask --batch FILE --store STORE --format json [options]

and the references through ``cnl2sparql run REFERENCE --store STORE --format json``. A question
is right when its answer matches the reference's by SPINACH's row-major F1 = 1 (each reference row
found in one answer row; extra columns cost nothing). Prints each question, the CNL the parser
wrote, right or not, and the total.

    python scripts/everyday_report.py --store .cache/slice [--questions FILE] [--out FILE.json] [-- ask options]
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--store", required=True)
    ap.add_argument("--questions", type=Path, default=ROOT / "examples" / "everyday" / "questions.tsv")
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("ask_options", nargs="*", help="more options for cnl2sparql ask (after --)")
    args = ap.parse_args(argv)

    from cnl.eval.metrics import row_major_f1

    rows = [line.rstrip("\n").split("\t") for line in args.questions.read_text().splitlines()
            if line.strip() and not line.startswith("#")]
    cli = str(Path(sys.executable).with_name("cnl2sparql"))
    references = {}
    for question, reference in rows:
        done = subprocess.run([cli, "run", reference, "--store", args.store, "--format", "json", "--no-explain"],
                              capture_output=True, text=True)
        if done.returncode != 0:
            print(f"reference fails for {question!r}: {done.stderr.strip().splitlines()[0]}", file=sys.stderr)
            return 2
        references[question] = answers_of({"answers": json.loads(done.stdout)})
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as handle:
        handle.write("".join(question + "\n" for question, _ in rows))
    command = [cli, "ask", "--batch", handle.name, "--store", args.store, "--format", "json", *args.ask_options]
    print("$ " + " ".join(command), file=sys.stderr)
    started = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.PIPE, text=True, check=True)
    wall = time.perf_counter() - started
    answered = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    assert len(answered) == len(rows), (len(answered), len(rows))
    results, right = [], 0
    for (question, reference), row in zip(rows, answered):
        f1 = float(row_major_f1(answers_of(row), references[question]))
        right += f1 == 1.0
        results.append({"question": question, "cnl": row.get("cnl"), "reference": reference, "f1": f1,
                        "right": f1 == 1.0})
        print(f"{'right' if f1 == 1.0 else 'wrong'}  {question}  ->  {row.get('cnl') or row.get('error')}")
    n = len(rows)
    mean_f1 = sum(r["f1"] for r in results) / n
    print(f"everyday questions: {right}/{n} right = {right / n:.3f}; mean answer F1 {mean_f1:.3f}; "
          f"{wall:.0f} s ({wall / n:.2f} s per question, model load included)")
    if args.out:
        figures = {"n": n, "right": right, "mean_f1": mean_f1, "wall_s": round(wall, 1), "options": args.ask_options}
        args.out.write_text(json.dumps({"figures": figures, "questions": results}, indent=1, ensure_ascii=False))
    return 0


def answers_of(row: dict):
    """An answer in the SPARQL JSON results format as rows of plain values, a bool for ASK,
    None without any."""
    answers = row.get("answers")
    if answers is None or isinstance(answers, bool):
        return answers
    if "boolean" in answers:
        return answers["boolean"]
    columns = answers.get("head", {}).get("vars", [])
    return [tuple((b.get(c) or {}).get("value") for c in columns)
            for b in answers.get("results", {}).get("bindings", [])]


if __name__ == "__main__":
    sys.exit(main())
