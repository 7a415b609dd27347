"""Load the Wikidata slice into a fresh embedded store; print wall time and peak memory,
then answer "films directed by Christopher Nolan" (film Q11424, director P57, Nolan Q25191).

    PYTHONPATH=. python benchmarks/bench_kg_load.py [--slice PATH] [--keep DIR]
"""
from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
from pathlib import Path

from cnl.datasets.paths import data_file
from cnl.kg.embedded import EmbeddedKG

# The slice keeps no `wdt:P31 wd:Q11424` (instance of: film) for Nolan's films, so the strict
# query is empty there; the director triples exist both as truthy `wdt:` and as `p:/ps:`
# statements, and every item Nolan directed in the slice is a film.
STRICT = "SELECT ?film WHERE { ?film wdt:P31 wd:Q11424 ; wdt:P57 wd:Q25191 }"
TRUTHY = "SELECT ?film WHERE { ?film wdt:P57 wd:Q25191 } ORDER BY ?film"
STATEMENTS = "SELECT ?film WHERE { ?film p:P57 ?st . ?st ps:P57 wd:Q25191 } ORDER BY ?film"
# Nolan's feature films up to 2020 that the slice holds (Following, Memento, Batman Begins,
# The Prestige, The Dark Knight, Inception, The Dark Knight Rises).
EXPECTED = {"Q429969", "Q190525", "Q166262", "Q46551", "Q163872", "Q25188", "Q189330"}
WD = "http://www.wikidata.org/entity/"


def peak_rss_mib() -> float:
    # ru_maxrss is KiB on Linux; the store's RocksDB threads live in this process too.
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--slice", type=Path, default=None, help="RDF file (default: the shared Wikidata slice)")
    ap.add_argument("--keep", type=Path, default=None, help="store folder to keep (default: a temp folder)")
    args = ap.parse_args()
    source = args.slice or data_file("wikidata", "wikidata-slice.nt.gz")

    with tempfile.TemporaryDirectory(prefix="cnl-store-") as tmp:
        store_dir = args.keep or Path(tmp) / "store"
        start = time.perf_counter()
        kg = EmbeddedKG(store_dir)
        added = kg.load(source, progress=sys.stderr.isatty())
        load_s = time.perf_counter() - start
        print(f"loaded {added:,} triples from {source.name} in {load_s:.1f} s "
              f"({added / load_s:,.0f} triples/s); peak RSS {peak_rss_mib():,.0f} MiB")

        strict = len(kg.select(STRICT))
        start = time.perf_counter()
        table = kg.add_labels(kg.select(TRUTHY))
        query_ms = (time.perf_counter() - start) * 1000
        via_statements = {r[0] for r in kg.select(STATEMENTS).values()}
        answers = {r[0] for r in table.values()}
        print(f"strict query (P31 film + P57 Nolan): {strict} answers (the slice has no P31 for these films)")
        print(f"films directed by Christopher Nolan ({len(table)} answers, {query_ms:.0f} ms incl. labels):")
        print(table.to_text())
        print("wdt: and p:/ps: paths agree:", answers == via_statements)
        print("matches the expected films:", answers == {WD + q for q in EXPECTED})
        print(f"peak RSS at exit {peak_rss_mib():,.0f} MiB")
        kg.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
