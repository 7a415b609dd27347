"""The figures behind issue 30's acceptance, measured against a real `cnl2sparql serve`.

Starts the server (loopback, ``--timeout 3 --query-memory 256``) over the films test graph plus
20,000 filler triples (a product of two patterns is 4e8 rows), or over ``--store DIR``, and
measures, each ``--repeat`` times:

- memory: the issue's 90-byte ``ORDER BY`` over a product — status, seconds, the worker's peak
  resident size against the ceiling (from /health);
- connections: with 300 idle connections open (half of them a request head that never ends),
  the latency of /health and of a small /compile from a new client;
- work after a request: the CPU of the server and its workers in the three seconds after two
  concurrent 504s (/run and /tools/execute_sparql);
- a 15,000-term ``FILTER(1 + 1 + …)``: status, seconds, server CPU;
- amplification: a 208-byte /run whose answer would be tens of MB — status, response bytes,
  growth of the server's resident size (one request, then four at once).

    python benchmarks/hardening_figures.py [--store DIR] [--repeat 3]
"""
from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PRODUCT = "SELECT ?a ?d WHERE { ?a ?b ?c . ?d ?e ?f } ORDER BY ?c ?f LIMIT 1"
HEAVY = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"
MEMORY_MB = 256


def build_store(folder: Path) -> Path:
    from cnl.kg.embedded import EmbeddedKG
    from tests.test_agent_server import TTL

    filler = "".join(f'<http://example.org/f{i}> <http://example.org/p> "{i}" .\n' for i in range(20_000))
    (folder / "g.ttl").write_text(TTL + filler)
    with EmbeddedKG(folder / "store") as kg:
        kg.load(folder / "g.ttl", progress=False)
    return folder / "store"


def start(store: Path, cache: Path) -> tuple[subprocess.Popen, int]:
    import httpx

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = dict(os.environ, CNL_CACHE_DIR=str(cache), PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "cnl", "serve", "--store", str(store), "--port", str(port),
                             "--timeout", "3", "--query-memory", str(MEMORY_MB), "--log-level", "warning"],
                            env=env, stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health", timeout=1).status_code == 200:
                return proc, port
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit("the server did not start")


def tree_cpu(pid: int) -> float:
    pids = [pid] + [int(e.name) for e in Path("/proc").iterdir() if e.name.isdigit() and _parent(e) == pid]
    total = 0.0
    for p in pids:
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except OSError:
            pass
    return total


def _parent(entry: Path) -> int | None:
    try:
        return int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return None


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def measure(proc: subprocess.Popen, port: int) -> dict:
    import httpx

    url = f"http://127.0.0.1:{port}"
    out = {}
    started = time.perf_counter()
    response = httpx.post(f"{url}/run", json={"sparql": PRODUCT}, timeout=60)
    stop = next(iter(httpx.get(f"{url}/health").json()["query_workers"].values())).get("last_memory_stop") or {}
    out["memory"] = (response.status_code, time.perf_counter() - started, (stop.get("peak_rss_bytes") or 0) / 2**20)

    idle = []
    for i in range(300):
        sock = socket.create_connection(("127.0.0.1", port))
        if i % 2:
            sock.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n")
        idle.append(sock)
    time.sleep(0.3)
    health, compile_ = [], []
    for _ in range(10):
        t = time.perf_counter()
        assert httpx.get(f"{url}/health", timeout=5).status_code == 200
        health.append(time.perf_counter() - t)
        t = time.perf_counter()
        assert httpx.post(f"{url}/compile", json={"cnl": "What has <P57> <Q25191>?"}, timeout=5).status_code == 200
        compile_.append(time.perf_counter() - t)
    for sock in idle:
        sock.close()
    out["idle"] = (max(health), max(compile_))

    codes = []
    threads = [threading.Thread(target=lambda p=p: codes.append(
        httpx.post(f"{url}{p}", json={"sparql": HEAVY}, timeout=60).status_code)) for p in ("/run", "/tools/execute_sparql")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    windows = []
    last = tree_cpu(proc.pid)
    for _ in range(3):
        time.sleep(1.0)
        now = tree_cpu(proc.pid)
        windows.append(now - last)
        last = now
    out["after_504"] = (sorted(codes), windows)

    query = "SELECT * WHERE { FILTER(" + " + ".join(["1"] * 15_000) + " > 0) }"
    cpu = tree_cpu(proc.pid)
    t = time.perf_counter()
    response = httpx.post(f"{url}/run", json={"sparql": query}, timeout=60)
    out["long_expression"] = (response.status_code, time.perf_counter() - t, tree_cpu(proc.pid) - cpu)

    grow = "STR(?o)"
    for _ in range(3):
        grow = f'REPLACE({grow}, ".", "..........")'
    body = json.dumps({"sparql": f"SELECT ?x WHERE {{ ?s ?p ?o BIND({grow} AS ?y) "
                                 f"BIND(CONCAT(?y, ?y, ?y, ?y, ?y) AS ?x) }} LIMIT 1000"})
    before = rss_mb(proc.pid)
    response = httpx.post(f"{url}/run", content=body, headers={"Content-Type": "application/json"}, timeout=120)
    one = rss_mb(proc.pid) - before
    answers = []
    threads = [threading.Thread(target=lambda: answers.append(httpx.post(
        f"{url}/run", content=body, headers={"Content-Type": "application/json"}, timeout=120).status_code))
        for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    out["amplification"] = (len(body), response.status_code, len(response.content), one, rss_mb(proc.pid) - before,
                            sorted(answers))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", help="an existing store (default: the films graph plus 20,000 filler triples)")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        store = Path(args.store) if args.store else build_store(Path(tmp))
        proc, port = start(store, Path(tmp) / "cache")
        try:
            runs = [measure(proc, port) for _ in range(args.repeat)]
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    load = " / ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"cnl2sparql serve --timeout 3 --query-memory {MEMORY_MB} on 127.0.0.1; {os.cpu_count()} CPUs; "
          f"load average at the end {load}; {args.repeat} runs")
    for i, run in enumerate(runs, 1):
        status, seconds, peak = run["memory"]
        print(f"run {i}: memory query -> {status} in {seconds:.2f} s, worker peak RSS {peak:.0f} MiB "
              f"(ceiling {MEMORY_MB} MiB)")
        print(f"run {i}: 300 idle connections -> /health max {run['idle'][0] * 1000:.0f} ms, "
              f"/compile max {run['idle'][1] * 1000:.0f} ms (10 each, new connections)")
        codes, windows = run["after_504"]
        print(f"run {i}: two heavy queries -> {codes}; CPU of server + workers in the 1st/2nd/3rd second after: "
              + " / ".join(f"{w:.2f} s" for w in windows))
        status, seconds, cpu = run["long_expression"]
        print(f"run {i}: 15,000-term FILTER -> {status} in {seconds:.2f} s, {cpu:.2f} s of server CPU")
        size, status, nbytes, one, four, answers = run["amplification"]
        print(f"run {i}: {size}-byte /run with a huge answer -> {status}, {nbytes} response bytes, server RSS "
              f"+{one:.0f} MB; four at once {answers}, +{four:.0f} MB in all")
    print(f"mean memory-query seconds {statistics.mean(r['memory'][1] for r in runs):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
