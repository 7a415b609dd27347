"""Load test of the HTTP API on 127.0.0.1: 1, 8 and 32 concurrent clients on /compile and /run.

Starts `cnl2sparql serve` as a child process (loopback only, the query workers and limits of
a real deployment) over an embedded store — ``--store DIR``, else the Nolan slice of
../shared/data when present, else a tiny built-in graph — then, for each endpoint and each
client count, runs CLIENTS threads that each send REQUESTS requests back to back (keep-alive),
and stops by itself after the count or --max-seconds. Prints a table of p50/p99/max latency,
throughput and errors; exits 1 when any request failed.

    python benchmarks/load_test.py [--clients 1,8,32] [--requests 100] [--endpoints compile,run]
                                   [--store DIR] [--max-seconds 120]
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


def run_level(base: str, endpoint: str, clients: int, requests: int, max_seconds: float) -> dict:
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
    return {"endpoint": f"/{endpoint}", "clients": clients, "n": len(latencies), "errors": errors,
            "p50": q[49] * 1000, "p99": q[98] * 1000, "max": max(latencies) * 1000, "rps": len(latencies) / wall,
            "expected": clients * requests}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", default="1,8,32", help="client counts, comma-separated (default 1,8,32)")
    parser.add_argument("--requests", type=int, default=100, help="requests per client (default 100)")
    parser.add_argument("--endpoints", default="compile,run", help="compile and/or run (default both)")
    parser.add_argument("--store", help="an existing store (default: built from the shared data or a tiny graph)")
    parser.add_argument("--max-seconds", type=float, default=120.0, help="stop each level after this long")
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
        finally:
            proc.terminate()
            proc.wait(timeout=30)

    print(f"graph: {what}; server: cnl2sparql serve (defaults) on 127.0.0.1; {os.cpu_count()} CPUs")
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
