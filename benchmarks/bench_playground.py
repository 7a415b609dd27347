"""Latency of the playground on a store: POST /complete as a person types, and GET / (the page).

Starts `cnl2sparql serve --store DIR` as a child process on 127.0.0.1 (its query workers and
limits as deployed; benchmarks/load_test.py's start-up), waits for /health, then:

* /complete: for each query of a fixed list of label-notation SQUALL queries about the store
  (films, people, places), one request per character typed (the text up to the cursor, the
  cursor at its end: completion as you type) and one with the cursor inside each term (editing
  a term); the first request that names an entity also finds the properties around it in the
  KG (no warm-up: those cold requests are counted);
* GET /: --page-requests sequential requests for the page, then for the page and its assets.

Prints p50/p95/p99/max per endpoint and exits 1 when any request failed or p95 is over the
issue's targets (/complete 50 ms, GET / 100 ms).

    python benchmarks/bench_playground.py --store .cache/slice [--queries 20] [--page-requests 200]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

QUERIES = [
    "which [film] has <director> [Christopher Nolan]?",
    "What is the <director> of [Inception]?",
    "Who is the <composer> of [Inception]?",
    "which [film] has <cast member> [Tom Hanks] and has <director> [Steven Spielberg]?",
    "What is the <place of birth> of [Barack Obama]?",
    "What is the <capital> of [France]?",
    "How many [film] has <director> [Stanley Kubrick]?",
    "which [human] has <country of citizenship> [Canada] and has <occupation> [actor]?",
    "What is the <population> of [Germany]?",
    "Which [city] has <country> [Italy] and has the highest <population>?",
    "What is the <spouse> of [Barack Obama]?",
    "Which [country] has <official language> [French]?",
    "What is the <publication date> of [The Matrix]?",
    "Who is the <author> of [The Hobbit]?",
    "which [film] has <genre> [science fiction film] and has <publication date> later than 2010?",
    "What is the <member of sports team> of [Lionel Messi]?",
    "Which [human] has <award received> [Nobel Prize in Physics]?",
    "What is the <head of government> of [United Kingdom]?",
    "Has [Inception] a <cast member> [Leonardo DiCaprio]?",
    "Which [album] has <performer> [The Beatles]?",
]
TARGETS_MS = {"complete": 50.0, "page": 100.0}


def typing_requests(query: str) -> list[tuple[str, int]]:
    """(text, cursor) pairs: every prefix of the query as typed, then the cursor inside each term."""
    from cnl.dialects.squall.completion import terms_in

    out = [(query[:i], i) for i in range(len(query) + 1)]
    out += [(query, term.start + 1) for term in terms_in(query)]
    return out


def percentiles(values: list[float]) -> dict:
    ordered = sorted(values)
    pick = lambda q: ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]
    return {"n": len(ordered), "p50": statistics.median(ordered), "p95": pick(0.95), "p99": pick(0.99),
            "max": ordered[-1]}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--store", required=True, help="the embedded store (e.g. .cache/slice)")
    parser.add_argument("--queries", type=int, default=len(QUERIES), help="how many of the queries to type")
    parser.add_argument("--page-requests", type=int, default=200)
    parser.add_argument("--fresh-cache", action="store_true",
                        help="a new cache folder (the search indices are built first: minutes on the slice)")
    args = parser.parse_args(argv)
    import httpx

    from benchmarks.load_test import start_server
    from cnl.linking.cache import cache_root

    cache = Path(tempfile.mkdtemp(prefix="cnl-bench-cache-")) if args.fresh_cache else cache_root()
    started = time.perf_counter()
    proc, base = start_server(Path(args.store), cache)
    print(f"server up in {time.perf_counter() - started:.1f} s (store {args.store})", file=sys.stderr)
    failures: list[str] = []
    try:
        with httpx.Client(base_url=base, timeout=30) as http:
            not_compiled = [q for q in QUERIES[:args.queries] if not http.post("/analyze", json={"cnl": q}).json().get("ok")]
            compiled = args.queries - len(not_compiled)
            times, cold, empty = [], [], []
            for query in QUERIES[:args.queries]:
                seen_first = False
                for text, cursor in typing_requests(query):
                    t0 = time.perf_counter()
                    response = http.post("/complete", json={"cnl": text, "cursor": cursor})
                    elapsed = (time.perf_counter() - t0) * 1000
                    if response.status_code != 200:
                        failures.append(f"/complete {text!r}@{cursor}: HTTP {response.status_code}")
                        continue
                    times.append(elapsed)
                    if not response.json()["items"]:
                        empty.append(f"{text[:cursor]}|{text[cursor:]}")
                    if "]" in text and not seen_first:  # the first request after an entity is written
                        cold.append(elapsed)
                        seen_first = True
            page, with_assets = [], []
            assets = ["/static/playground.js", "/static/playground.css", "/static/favicon.svg"]
            for _ in range(args.page_requests):
                t0 = time.perf_counter()
                response = http.get("/")
                page.append((time.perf_counter() - t0) * 1000)
                if response.status_code != 200:
                    failures.append(f"GET /: HTTP {response.status_code}")
                for asset in assets:
                    if http.get(asset).status_code != 200:
                        failures.append(f"GET {asset}")
                with_assets.append((time.perf_counter() - t0) * 1000)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    stats = {"complete": percentiles(times), "page": percentiles(page)}
    print(f"{compiled}/{args.queries} of the typed queries compile on this store"
          + "".join(f"\n  does not compile: {q}" for q in not_compiled))
    print(f"{len(empty)} of {len(times)} /complete answers offered nothing, e.g. (| is the cursor):"
          + "".join(f"\n  {e!r}" for e in empty[::max(1, len(empty) // 8)][:8]))
    print(f"| request | n | p50 ms | p95 ms | p99 ms | max ms |\n|---|---|---|---|---|---|")
    for name, label in (("complete", "POST /complete (typing, cold entities included)"), ("page", "GET /")):
        s = stats[name]
        print(f"| {label} | {s['n']} | {s['p50']:.1f} | {s['p95']:.1f} | {s['p99']:.1f} | {s['max']:.1f} |")
    for label, values in (("POST /complete, first request after an entity (cold)", cold),
                          ("GET / and its 3 assets", with_assets)):
        s = percentiles(values)
        print(f"| {label} | {s['n']} | {s['p50']:.1f} | {s['p95']:.1f} | {s['p99']:.1f} | {s['max']:.1f} |")
    over = [f"{name} p95 {stats[name]['p95']:.1f} ms > {TARGETS_MS[name]:g} ms" for name in TARGETS_MS
            if stats[name]["p95"] > TARGETS_MS[name]]
    for problem in failures[:10] + over:
        print("FAIL:", problem, file=sys.stderr)
    return 1 if failures or over else 0


if __name__ == "__main__":
    sys.exit(main())
