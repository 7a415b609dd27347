"""Load the Wikidata slice into a fresh embedded store twice in one run, each in a process of
its own: with `cnl2sparql kg load` (EmbeddedKG.load: the file's hash, the load record, the
triple count) and with pyoxigraph's own ``Store.bulk_load`` of the same file (decompressed the
same way, then flushed). Print each one's wall time and peak memory (the process's peak RSS,
RocksDB's threads included), then answer "films directed by Christopher Nolan" (film Q11424,
director P57, Nolan Q25191) from the first store.

    PYTHONPATH=. python benchmarks/bench_kg_load.py [--slice PATH] [--keep DIR] [--only cnl|pyoxigraph]
"""
from __future__ import annotations

import argparse
import gzip
import multiprocessing
import resource
import sys
import tempfile
import time
from pathlib import Path

from cnl.datasets.paths import data_file
from cnl.kg.embedded import EmbeddedKG, rdf_format

STRICT = "SELECT ?film WHERE { ?film wdt:P31 wd:Q11424 ; wdt:P57 wd:Q25191 } ORDER BY ?film"
TRUTHY = "SELECT ?film WHERE { ?film wdt:P57 wd:Q25191 } ORDER BY ?film"
STATEMENTS = "SELECT ?film WHERE { ?film p:P57 ?st . ?st ps:P57 wd:Q25191 } ORDER BY ?film"
# Nolan's feature films up to 2020 that the slice holds (Following, Memento, Batman Begins,
# The Prestige, The Dark Knight, Inception, The Dark Knight Rises).
EXPECTED = {"Q429969", "Q190525", "Q166262", "Q46551", "Q163872", "Q25188", "Q189330"}
WD = "http://www.wikidata.org/entity/"


def peak_rss_mib() -> float:
    # ru_maxrss is KiB on Linux; the store's RocksDB threads live in this process too.
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def load_with_cnl(source: str, store_dir: str, progress: bool) -> dict:
    """`cnl2sparql kg load` as a function (in a child process)."""
    start = time.perf_counter()
    with EmbeddedKG(store_dir) as kg:
        added = kg.load(source, progress=progress)
    return {"seconds": time.perf_counter() - start, "triples": added, "peak_mib": peak_rss_mib()}


def load_with_pyoxigraph(source: str, store_dir: str, progress: bool) -> dict:
    """pyoxigraph's bulk loader alone, on the same file (in a child process)."""
    import pyoxigraph

    path = Path(source)
    start = time.perf_counter()
    store = pyoxigraph.Store(store_dir)
    with open(path, "rb") as raw:
        reader = gzip.GzipFile(fileobj=raw) if path.suffix.lower() == ".gz" else raw
        store.bulk_load(reader, rdf_format(path))
    store.flush()
    seconds = time.perf_counter() - start
    return {"seconds": seconds, "triples": len(store), "peak_mib": peak_rss_mib()}


def _child(conn, function, args) -> None:
    conn.send(function(*args))
    conn.close()


def in_child(function, *args) -> dict:
    """Run ``function`` in a fresh process: each loader's peak memory is its own."""
    context = multiprocessing.get_context("spawn")
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(target=_child, args=(sender, function, args))
    process.start()
    sender.close()
    try:
        return receiver.recv()
    except EOFError:
        process.join()
        raise SystemExit(f"{function.__name__} failed (exit code {process.exitcode})") from None
    finally:
        process.join()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--slice", type=Path, default=None, help="RDF file (default: the shared Wikidata slice)")
    ap.add_argument("--keep", type=Path, default=None, help="folder for the `kg load` store, kept (default: temporary)")
    ap.add_argument("--only", choices=["cnl", "pyoxigraph"], default=None, help="run one of the two loads")
    args = ap.parse_args()
    source = args.slice or data_file("wikidata", "wikidata-slice.nt.gz")
    progress = sys.stderr.isatty()

    with tempfile.TemporaryDirectory(prefix="cnl-store-") as tmp:
        store_dir = args.keep or Path(tmp) / "store"
        results = {}
        if args.only in (None, "pyoxigraph"):
            results["pyoxigraph Store.bulk_load"] = in_child(load_with_pyoxigraph, str(source),
                                                             str(Path(tmp) / "plain"), progress)
        if args.only in (None, "cnl"):
            results["cnl2sparql kg load"] = in_child(load_with_cnl, str(source), str(store_dir), progress)
        for name, r in results.items():
            print(f"{name:<28} {r['triples']:>10,} triples from {source.name} in {r['seconds']:6.1f} s "
                  f"({r['triples'] / r['seconds']:,.0f} triples/s); peak RSS {r['peak_mib']:,.0f} MiB")
        if len(results) == 2:
            ours, theirs = results["cnl2sparql kg load"], results["pyoxigraph Store.bulk_load"]
            print(f"kg load / bulk_load: {ours['seconds'] / theirs['seconds']:.2f}x the time, "
                  f"{ours['peak_mib'] / theirs['peak_mib']:.2f}x the peak memory")
        if "cnl2sparql kg load" not in results:
            return 0

        with EmbeddedKG(store_dir, read_only=True) as kg:
            strict = {r[0] for r in kg.select(STRICT).values()}
            start = time.perf_counter()
            table = kg.add_labels(kg.select(TRUTHY))
            query_ms = (time.perf_counter() - start) * 1000
            via_statements = {r[0] for r in kg.select(STATEMENTS).values()}
        answers = {r[0] for r in table.values()}
        print(f"films directed by Christopher Nolan ({len(table)} answers, {query_ms:.0f} ms incl. labels):")
        print(table.to_text())
        print(f"typed as films (wdt:P31 wd:Q11424) among them: {len(strict & answers)} of {len(answers)}")
        print("wdt: and p:/ps: paths agree:", answers == via_statements)
        print("matches the expected films:", answers == {WD + q for q in EXPECTED})
    return 0


if __name__ == "__main__":
    sys.exit(main())
