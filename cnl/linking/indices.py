"""Building the search indices from a store once and reusing them from the cache.

A cached index is keyed by the store's files as they lie on disk (names, sizes, modification
times: RocksDB writes new files rather than changing old ones, and a read-only open changes
none), so a warm cache is used without opening the store at all. When the files differ (the
store was opened for writing, compacted, loaded into) the store's triple count decides, as it
did before: the same count keeps the index and records the new file list.
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from pathlib import Path

from cnl.linking.cache import cache_dir_for
from cnl.linking.entity_index import INDEX_VERSION, EntityIndex, read_header
from cnl.linking.property_index import PropertyIndex
from cnl.progress import step

# Each format version gets a file name of its own: a process running older code may share the cache.
ENTITY_FILE = f"entities-v{INDEX_VERSION}.idx"
PROPERTY_FILE = "properties-v2.json"
# files RocksDB rewrites without a change of content (its info log) or that say nothing
_UNSIGNED = ("LOG", "LOCK")


def store_signature(store_dir) -> str:
    """A digest of the store folder's file list (name, size, modification time)."""
    rows = []
    with os.scandir(store_dir) as entries:
        for entry in entries:
            if entry.name.startswith(_UNSIGNED) or not entry.is_file():
                continue
            info = entry.stat()
            rows.append(f"{entry.name}\t{info.st_size}\t{info.st_mtime_ns}")
    return hashlib.sha1("\n".join(sorted(rows)).encode()).hexdigest()


def _fingerprint(kg) -> int:
    # the triple count changes with every load (about a second for 3 M triples)
    return len(kg) if hasattr(kg, "__len__") else 0


def entity_index_for_store(store_dir, *, rebuild: bool = False, verbose: bool = True) -> EntityIndex:
    """The entity index of an embedded store, built on first use and cached."""
    folder = cache_dir_for(str(store_dir))
    if not rebuild and _current(folder, store_dir):
        return EntityIndex.load(folder / ENTITY_FILE)
    return _build(folder, store_dir, rebuild, verbose)[0]


def indices_for_store(store_dir, *, rebuild: bool = False, verbose: bool = True) -> tuple[EntityIndex, PropertyIndex]:
    """The entity and property indices of an embedded store, built on first use and cached."""
    folder = cache_dir_for(str(store_dir))
    vectors = folder / "property-vectors.npy"
    if not rebuild and _current(folder, store_dir) and (folder / PROPERTY_FILE).exists():
        return EntityIndex.load(folder / ENTITY_FILE), PropertyIndex.load(folder / PROPERTY_FILE, vectors)
    return _build(folder, store_dir, rebuild, verbose)


def is_indexed(store_dir) -> bool:
    """Whether the cache holds the store's entity and property indices as it is on disk now
    (cheap: a file list and one header line)."""
    folder = cache_dir_for(str(store_dir))
    return _current(folder, store_dir) and (folder / PROPERTY_FILE).exists()


def _current(folder: Path, store_dir) -> bool:
    """Whether the cached index was built from the store as it is on disk now."""
    head = read_header(folder / ENTITY_FILE)
    if head is None or head.get("version") != INDEX_VERSION:
        return False
    signature = store_signature(store_dir) if Path(store_dir).is_dir() else None
    return signature is not None and head.get("signature") == signature


def _build(folder: Path, store_dir, rebuild: bool, verbose: bool) -> tuple[EntityIndex, PropertyIndex]:
    from cnl.kg.embedded import EmbeddedKG

    entity_file, property_file, vectors = folder / ENTITY_FILE, folder / PROPERTY_FILE, folder / "property-vectors.npy"
    # our own fixed queries over every label: trusted, so in this process and without a deadline
    with EmbeddedKG(store_dir, read_only=True, isolate=False, timeout=None) as kg:
        kg.max_rows = None
        signature = store_signature(store_dir)  # after opening: a bad store has failed by now
        triples = _fingerprint(kg)
        head = read_header(entity_file) or {}
        if (not rebuild and head.get("version") == INDEX_VERSION and head.get("triples") == triples
                and property_file.exists()):
            # the files changed but not the content: keep the index, remember the files
            entities = EntityIndex.load(entity_file)
            entities.save(entity_file, signature=signature, triples=triples, store=head.get("store"))
            return entities, PropertyIndex.load(property_file, vectors)
        start = time.perf_counter()
        if verbose:
            print(f"building the search index of {store_dir}, once (cached in {folder})", file=sys.stderr)
        entities = EntityIndex.from_kg(kg, stage=lambda what: step(f"  reading the entities' {what}", quiet=not verbose))
        with step("  reading the properties", quiet=not verbose):
            try:
                properties = PropertyIndex.from_kg(kg, vectors)
            except Exception:  # a graph without property declarations still gets entity search
                properties = PropertyIndex([], vectors)
    tmp = property_file.with_name(property_file.name + ".tmp")
    properties.save(tmp)
    tmp.replace(property_file)
    # the entity file last: its header says the pair is complete
    entities.save(entity_file, signature=signature, triples=triples, store=str(Path(store_dir).resolve()))
    if verbose:
        print(f"indexed {len(entities):,} entities and {len(properties):,} properties "
              f"in {time.perf_counter() - start:.1f} s", file=sys.stderr)
    return entities, properties
