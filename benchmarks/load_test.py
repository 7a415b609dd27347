"""Bounded load test of the HTTP API on 127.0.0.1: concurrent clients on /compile and /text2sparql.

Starts `cnl2sparql serve` in-process (uvicorn in a thread, loopback only) over an embedded
store — the Nolan slice of ../shared/data when present, else a tiny built-in graph — then runs
CLIENTS threads × REQUESTS requests each, alternating POST /compile and GET /text2sparql with
CNL questions, and stops by itself after the count or --max-seconds. Prints errors, p50/p99
latency and throughput; exits 1 when any request failed.

    python benchmarks/load_test.py [--clients 8] [--requests 200] [--max-seconds 120]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

QUESTIONS = [
    "What has <P57> <Q25191>?",
    "Who is the <P57> of <Q25188>?",
    "What has <director> [Christopher Nolan]?",
    "How many <P166> of <Q25191> are there?",
    "Has <Q25188> a <P57> <Q25191>?",
    "What has <P57:director> <Q25191:Christopher_Nolan> and has <P161> <Q38111>?",
]
DATASET = "http://www.wikidata.org/"


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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--requests", type=int, default=200, help="requests per client")
    parser.add_argument("--max-seconds", type=float, default=120.0, help="stop sending after this long")
    args = parser.parse_args()

    import os

    import httpx
    import uvicorn

    from cnl.agent.server import ServerConfig, create_app

    with tempfile.TemporaryDirectory() as tmp:
        os.environ["CNL_CACHE_DIR"] = str(Path(tmp) / "cache")
        store, what = build_store(Path(tmp))
        config = ServerConfig.from_dict({"datasets": {DATASET: {"store": str(store)}}, "use_translator": False})
        sock_port = _free_port()
        server = uvicorn.Server(uvicorn.Config(create_app(config), host="127.0.0.1", port=sock_port,
                                               log_level="warning"))
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        while not server.started:
            time.sleep(0.05)
        base = f"http://127.0.0.1:{sock_port}"

        latencies: dict[str, list[float]] = {"/compile": [], "/text2sparql": []}
        errors: list[str] = []
        lock = threading.Lock()
        deadline = time.monotonic() + args.max_seconds

        def client(index: int) -> None:
            with httpx.Client(base_url=base, timeout=30) as http:
                for i in range(args.requests):
                    if time.monotonic() > deadline:
                        return
                    question = QUESTIONS[(index + i) % len(QUESTIONS)]
                    path = "/compile" if i % 2 == 0 else "/text2sparql"
                    start = time.perf_counter()
                    try:
                        if path == "/compile":
                            response = http.post(path, json={"cnl": question})
                            ok = response.status_code == 200 and "sparql" in response.json()
                        else:
                            response = http.get(path, params={"question": question, "dataset": DATASET})
                            ok = response.status_code == 200 and response.json()["query"].strip()
                        problem = None if ok else f"{path} HTTP {response.status_code}: {response.text[:200]}"
                    except httpx.HTTPError as err:
                        problem = f"{path}: {err!r}"
                    elapsed = time.perf_counter() - start
                    with lock:
                        latencies[path].append(elapsed)
                        if problem:
                            errors.append(problem)

        started = time.perf_counter()
        threads = [threading.Thread(target=client, args=(i,)) for i in range(args.clients)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        wall = time.perf_counter() - started
        server.should_exit = True
        thread.join(timeout=10)

    total = sum(len(v) for v in latencies.values())
    print(f"graph: {what}")
    print(f"{args.clients} clients x {args.requests} requests on 127.0.0.1 (limit {args.max_seconds:g} s): "
          f"{total} requests in {wall:.2f} s = {total / wall:.1f} req/s, errors: {len(errors)}")
    everything = [x for v in latencies.values() for x in v]
    for name, values in list(latencies.items()) + [("all", everything)]:
        if values:
            q = statistics.quantiles(values, n=100)
            print(f"  {name:13s} n={len(values):4d}  p50 {q[49] * 1000:7.2f} ms  p99 {q[98] * 1000:7.2f} ms  "
                  f"max {max(values) * 1000:7.2f} ms")
    for problem in errors[:5]:
        print("  error:", problem)
    return 1 if errors or total < args.clients * args.requests else 0


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


if __name__ == "__main__":
    sys.exit(main())
