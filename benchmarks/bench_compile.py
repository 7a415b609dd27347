"""Compile benchmark over the 550 ECAI SQUALL strings.

    python benchmarks/bench_compile.py [--repeat 5]

Labels are resolved from the gold alignment beforehand (not timed), so the figure is the
compiler itself: parse + compile per query, median µs. In the same run it times rdflib
parsing the SPARQL we emit, as a yardstick. Runs in one process on one core. Beside the wall
time it prints the CPU time the process used (less sensitive to other processes on a shared
machine) and the load average, so that figures taken on a busy machine can be told apart.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rdflib.plugins.sparql.parser import parseQuery  # noqa: E402

from cnl.sparql.compiler import SparqlCompiler  # noqa: E402
from cnl.sparql.profiles import WikidataProfile  # noqa: E402
from cnl.datasets.ecai.alignment import MappingResolver, align  # noqa: E402
from cnl.datasets.ecai.loader import load_all, normalize_gold_sparql  # noqa: E402
from cnl.errors import CNLError  # noqa: E402
from cnl.dialects.squall.parser import parse_squall  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core

    items = []
    for record in load_all():
        try:
            query = parse_squall(record.squall)
            gold = normalize_gold_sparql(record.sparql_raw) if record.sparql_raw else ""
            mapping = align(query, gold, record.candidates).mapping
        except CNLError:
            continue
        items.append((record.squall, MappingResolver(mapping)))
    profile = WikidataProfile()

    load_before = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    compile_times, cpu_times, parse_times, rdflib_times, outputs = [], [], [], [], []
    for _ in range(args.repeat):
        for text, resolver in items:
            cpu_start = time.process_time_ns()
            start = time.perf_counter_ns()
            query = parse_squall(text)
            middle = time.perf_counter_ns()
            try:
                sparql = SparqlCompiler(profile, resolver).compile(query)
            except CNLError:
                continue
            end = time.perf_counter_ns()
            cpu_times.append(time.process_time_ns() - cpu_start)
            compile_times.append(end - start)
            parse_times.append(middle - start)
            outputs.append(sparql)
    for sparql in outputs[: len(outputs) // args.repeat]:
        start = time.perf_counter_ns()
        parseQuery(sparql)
        rdflib_times.append(time.perf_counter_ns() - start)

    median = statistics.median(compile_times) / 1000
    print(f"queries: {len(items)} of 550 (the rest are malformed SQUALL or do not compile), repeats: {args.repeat}")
    print(f"parse + compile, median: {median:.0f} µs per query "
          f"(p90 {statistics.quantiles(compile_times, n=10)[-1] / 1000:.0f} µs; parse alone median "
          f"{statistics.median(parse_times) / 1000:.0f} µs)")
    rd = statistics.median(rdflib_times) / 1000
    print(f"parse + compile, CPU time median: {statistics.median(cpu_times) / 1000:.0f} µs per query "
          f"(load average {_load(load_before)} before, {_load(os.getloadavg()[0] if hasattr(os, 'getloadavg') else None)} "
          f"after)")
    print(f"rdflib parsing the emitted SPARQL, median: {rd:.0f} µs per query")
    print(f"ratio rdflib-parse / our parse+compile: {rd / median:.1f}x")
    print(f"target ≤ 200 µs: {'met' if median <= 200 else 'NOT met'}")
    return 0


def _load(value) -> str:
    return "unknown" if value is None else f"{value:.2f}"


if __name__ == "__main__":
    sys.exit(main())
