"""Load test of the HTTP API on 127.0.0.1: 1, 8 and 32 concurrent clients on /compile and /run.

Starts `cnl2sparql serve` as a child process (loopback only, the query workers and limits of
a real deployment) over an embedded store — ``--store DIR``, else the Nolan slice of
../shared/data when present, else a tiny built-in graph — then, for each endpoint and each
client count, runs CLIENTS threads that each send REQUESTS requests back to back (keep-alive),
and stops by itself after the count or --max-seconds. Prints a table of p50/p99/max latency,
throughput and errors; exits 1 when any request failed.

``--heavy N`` adds, for each endpoint and client count, a run with N heavy queries in the
background (a three-way product counted to the server's deadline, sent again as soon as each
ends): the latency of the small requests while the long-query slots are busy (issue 30's fast
lane). The run starts once /health shows the N heavy queries running.

    python benchmarks/load_test.py [--clients 1,8,32] [--requests 100] [--endpoints compile,run]
                                   [--store DIR] [--max-seconds 120] [--heavy 2]
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

QUESTIONS = [
    "What has <P57> <Q25191>?",
    "Who is the <P57> of <Q25188>?",
    "What has <director> [Christopher Nolan]?",
    "How many <P166> of <Q25191> are there?",
    "Has <Q25188> a <P57> <Q25191>?",
    "What has <P57:director> <Q25191:Christopher_Nolan> and has <P161> <Q38111>?",
]
# counted to the deadline on any store of more than a few hundred triples
HEAVY = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"


def build_store(folder: Path) -> tuple[Path, str]:
    from cnl.datasets.paths import data_dir
    from cnl.kg.embedded import EmbeddedKG

    shared = data_dir(required=False)
    if shared is not None:
        from cnl.agent.slices import write_slice

        rdf, what = folder / "nolan.nt", "Nolan slice of the shared Wikidata file"
        write_slice(shared / "wikidata" / "wikidata-slice.nt.gz", rdf)
    else:
        from tests.test_agent_server import TTL

        rdf, what = folder / "g.ttl", "built-in test graph"
        rdf.write_text(TTL)
    with EmbeddedKG(folder / "store") as kg:
        n = kg.load(rdf, progress=False)
    return folder / "store", f"{what}, {n:,} triples"


def start_server(store: Path, cache: Path) -> tuple[subprocess.Popen, str]:
    import httpx

    port = _free_port()
    env = dict(os.environ, CNL_CACHE_DIR=str(cache), PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "cnl", "serve", "--store", str(store), "--port", str(port),
                             "--log-level", "warning"], env=env, stdout=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the server exited with status {proc.returncode}")
        try:
            if httpx.get(f"{base}/health", timeout=1).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit("the server did not start within 300 s")


def request(http, endpoint: str, question: str) -> str | None:
    """None when the answer is right, else what was wrong."""
    import httpx

    try:
        if endpoint == "compile":
            response = http.post("/compile", json={"cnl": question})
            ok = response.status_code == 200 and "sparql" in response.json()
        else:
            response = http.post("/run", json={"cnl": question})
            ok = response.status_code == 200 and ("results" in response.json() or "boolean" in response.json())
        return None if ok else f"/{endpoint} HTTP {response.status_code}: {response.text[:200]}"
    except httpx.HTTPError as err:
        return f"/{endpoint}: {err!r}"


def start_heavy(base: str, n: int, max_seconds: float) -> threading.Event:
    """``n`` threads that keep a heavy query running until the returned event is set; returns
    once /health shows them all past the fast lane."""
    import httpx

    stop = threading.Event()

    def heavy() -> None:
        with httpx.Client(base_url=base, timeout=120) as http:
            while not stop.is_set():
                try:
                    http.post("/run", json={"sparql": HEAVY})  # 504 at the deadline (503 when slots are full)
                except httpx.HTTPError:
                    time.sleep(0.1)

    for _ in range(n):
        threading.Thread(target=heavy, daemon=True).start()
    deadline = time.monotonic() + max_seconds
    while time.monotonic() < deadline:
        workers = next(iter(httpx.get(f"{base}/health", timeout=10).json()["query_workers"].values()))
        if workers.get("long_running", 0) >= n:
            return stop
        if "long_running" not in workers:  # a server without lanes (before issue 30): give them a moment
            time.sleep(2.0)
            return stop
        time.sleep(0.2)
    stop.set()
    raise SystemExit(f"the {n} heavy queries did not reach the long-query slots")


def run_level(base: str, endpoint: str, clients: int, requests: int, max_seconds: float, heavy: int = 0) -> dict:
    """One level; ``heavy`` only labels it (the caller keeps the heavy queries running)."""
    import httpx

    latencies: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()
    deadline = time.monotonic() + max_seconds
    start_together = threading.Barrier(clients)

    def client(index: int) -> None:
        with httpx.Client(base_url=base, timeout=60) as http:
            request(http, endpoint, QUESTIONS[index % len(QUESTIONS)])  # connect + warm up, not timed
            start_together.wait()
            for i in range(requests):
                if time.monotonic() > deadline:
                    return
                started = time.perf_counter()
                problem = request(http, endpoint, QUESTIONS[(index + i) % len(QUESTIONS)])
                elapsed = time.perf_counter() - started
                with lock:
                    latencies.append(elapsed)
                    if problem:
                        errors.append(problem)

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - started
    q = statistics.quantiles(latencies, n=100, method="inclusive") if len(latencies) > 1 else [latencies[0]] * 99
    label = f"/{endpoint}" + (f" ({heavy} heavy running)" if heavy else "")
    return {"endpoint": label, "clients": clients, "n": len(latencies), "errors": errors,
            "p50": q[49] * 1000, "p99": q[98] * 1000, "max": max(latencies) * 1000, "rps": len(latencies) / wall,
            "expected": clients * requests}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", default="1,8,32", help="client counts, comma-separated (default 1,8,32)")
    parser.add_argument("--requests", type=int, default=100, help="requests per client (default 100)")
    parser.add_argument("--endpoints", default="compile,run", help="compile and/or run (default both)")
    parser.add_argument("--store", help="an existing store (default: built from the shared data or a tiny graph)")
    parser.add_argument("--max-seconds", type=float, default=120.0, help="stop each level after this long")
    parser.add_argument("--heavy", type=int, default=0,
                        help="also measure each level with this many heavy queries running (e.g. 2)")
    args = parser.parse_args()
    levels = [int(c) for c in args.clients.split(",")]
    endpoints = [e.strip() for e in args.endpoints.split(",")]

    with tempfile.TemporaryDirectory() as tmp:
        if args.store:
            store, what = Path(args.store), f"store {args.store}"
        else:
            store, what = build_store(Path(tmp))
        proc, base = start_server(store, Path(tmp) / "cache")
        try:
            results = [run_level(base, endpoint, clients, args.requests, args.max_seconds)
                       for endpoint in endpoints for clients in levels]
            if args.heavy:
                stop_heavy = start_heavy(base, args.heavy, args.max_seconds)
                try:
                    results += [run_level(base, endpoint, clients, args.requests, args.max_seconds, args.heavy)
                                for endpoint in endpoints for clients in levels]
                finally:
                    stop_heavy.set()
        finally:
            proc.terminate()
            proc.wait(timeout=30)

    load = " / ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"graph: {what}; server: cnl2sparql serve (defaults) on 127.0.0.1; {os.cpu_count()} CPUs; "
          f"load average at the end {load}")
    print("| endpoint | clients | requests | p50 ms | p99 ms | max ms | req/s | errors |")
    print("|---|---|---|---|---|---|---|---|")
    failed = False
    for r in results:
        print(f"| {r['endpoint']} | {r['clients']} | {r['n']} | {r['p50']:.1f} | {r['p99']:.1f} | {r['max']:.1f} | "
              f"{r['rps']:.0f} | {len(r['errors'])} |")
        failed |= bool(r["errors"]) or r["n"] < r["expected"]
    for r in results:
        for problem in r["errors"][:3]:
            print(f"  error ({r['endpoint']}, {r['clients']} clients): {problem}")
    return 1 if failed else 0


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


if __name__ == "__main__":
    sys.exit(main())
