"""Cold `cnl2sparql link` calls: each question in a fresh process, as a person runs the command.

For each question: the wall-clock seconds of the whole call (interpreter start, imports, reading
the cached entity index, linking, printing) and its CPU seconds (user + system, which a machine
shared with other work inflates less than the wall clock). Prints the median, the 90th
percentile and the maximum of both, and the load average before and after.

``--first-ever``: before the cold calls, one call with a fresh ``CNL_CACHE_DIR``, which builds
the store's search index (once per store; its progress on standard error is shown), timed on
its own; the cold calls then use that cache. Without it they use the user's cache
(``CNL_CACHE_DIR`` or ~/.cache/cnl2sparql), building it first if needed (not counted).

    PYTHONPATH=. python benchmarks/bench_link_cold.py --store .cache/slice [-n 20] [--first-ever]
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

# everyday questions, used when Mintaka (../shared/data) is absent
QUESTIONS = [
    "Who directed Inception?", "How many members are in NSYNC?", "What is the capital of the U.S.?",
    "Which books did Philip Pullman write?", "who was the vice president when bill clinton was in office?",
    "Where does the Shannon River end?", "When was Barack Obama born?", "What cars does GM make?",
    "Who is Darwin and what is his theory?", "Which films did Christopher Nolan direct?",
]


def questions(n: int) -> list[str]:
    try:
        from cnl.datasets.paths import data_file

        with open(data_file("mintaka", "mintaka_dev_part1.json")) as f:
            return [q["question"] for q in json.load(f)[:n]]
    except Exception:  # no shared data: the everyday questions above
        return (QUESTIONS * (n // len(QUESTIONS) + 1))[:n]


def call(question: str, store: str, env: dict) -> tuple[float, float, int]:
    """One fresh `cnl2sparql link` process: wall seconds, CPU seconds, exit status."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "cnl", "link", question, "--store", store],
                          env=env, stdout=subprocess.DEVNULL, stderr=None)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, proc.returncode


def summary(name: str, values: list[float]) -> str:
    values = sorted(values)
    p90 = values[min(len(values) - 1, round(0.9 * (len(values) - 1)))]
    return f"{name}: median {statistics.median(values):.2f} s, p90 {p90:.2f} s, max {values[-1]:.2f} s"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--store", required=True)
    ap.add_argument("-n", type=int, default=20, help="questions (default 20: Mintaka dev's first)")
    ap.add_argument("--first-ever", action="store_true", help="first time a fresh cache's first call")
    args = ap.parse_args()
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    if args.first_ever:
        env["CNL_CACHE_DIR"] = tempfile.mkdtemp(prefix="cnl-link-cache-")
        wall, cpu, code = call(QUESTIONS[0], args.store, env)
        print(f"first-ever call (fresh CNL_CACHE_DIR={env['CNL_CACHE_DIR']}, builds the index): "
              f"{wall:.1f} s wall, {cpu:.1f} s CPU, exit {code}")
    else:
        call(QUESTIONS[0], args.store, env)  # builds the cache if needed; not counted
    walls, cpus = [], []
    for question in questions(args.n):
        wall, cpu, code = call(question, args.store, env)
        if code:
            print(f"exit {code} for {question!r}")
        walls.append(wall)
        cpus.append(cpu)
    print(f"{len(walls)} cold calls (a fresh process each, cached index)")
    print(summary("wall", walls))
    print(summary("CPU (user + system)", cpus))
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
