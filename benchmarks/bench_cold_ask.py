"""Cold `ask`: each question in a new process, as a person runs it after the first command.

    python benchmarks/bench_cold_ask.py --store .cache/slice [--questions 3] [--threads N] [--cache DIR]

Runs ``cnl2sparql ask QUESTION --store DIR -v`` once per question (the preparations done
already: run ``cnl2sparql prepare --store DIR`` first), and prints per run its wall seconds, the
stages ``-v`` reports (loading the model, the store's search index, linking, writing the query,
querying, labels), what is left (Python and torch start-up, imports, exit), the CPU seconds the
process and its query worker used (on a busy machine the wall time is several times that) and
the 1-minute load average before it, then the medians. ``--threads`` sets ``CNL_THREADS`` (default: the cores the
load average leaves free, cnl/cpu.py). On a shared machine, say how loaded it was.
"""
from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

QUESTIONS = ["Which films did Christopher Nolan direct?", "When was Peter Jackson born?",
             "Who is the mother of Barack Obama?", "What is the capital of France?", "Who directed Inception?"]
STAGE = re.compile(r"^([a-z][a-z' ]+): ([0-9.]+) s", re.M)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--store", required=True)
    ap.add_argument("--questions", type=int, default=3)
    ap.add_argument("--threads", type=int, default=None, help="CNL_THREADS for the runs")
    ap.add_argument("--command", default=None, help="the cnl2sparql executable (default: the one beside python)")
    args = ap.parse_args(argv)
    command = args.command or str(Path(sys.executable).with_name("cnl2sparql"))
    env = dict(os.environ, HF_HUB_OFFLINE="1")
    if args.threads:
        env["CNL_THREADS"] = str(args.threads)
    walls, cpus = [], []
    for question in QUESTIONS[:args.questions]:
        load = os.getloadavg()[0]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        proc = subprocess.run([command, "ask", question, "--store", args.store, "-v"], capture_output=True,
                              text=True, env=env)
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)  # the ask and its query worker
        walls.append(wall)
        cpus.append(cpu)
        stages = {name: float(seconds) for name, seconds in STAGE.findall(proc.stderr)}
        rest = wall - sum(stages.values())
        answer = " / ".join(line for line in proc.stdout.splitlines()[2:5])
        print(f"{wall:6.2f} s  (CPU {cpu:5.2f} s, load {load:4.1f}, exit {proc.returncode})  {question}  ->  {answer[:80]}")
        for name, seconds in stages.items():
            print(f"           {seconds:6.2f} s  {name}")
        print(f"           {rest:6.2f} s  start-up, imports, exit (the rest)")
    print(f"median {statistics.median(walls):.2f} s wall, {statistics.median(cpus):.2f} s CPU over {len(walls)} cold asks")
    return 0


if __name__ == "__main__":
    sys.exit(main())
