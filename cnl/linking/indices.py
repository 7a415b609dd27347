"""Building the search indices from a store once and reusing them from the cache."""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from cnl.linking.cache import cache_dir_for
from cnl.linking.entity_index import EntityIndex
from cnl.linking.property_index import PropertyIndex


def _fingerprint(kg) -> int:
    # the triple count changes with every load; cheap enough (≈0.5 s for 1.5 M triples)
    return len(kg) if hasattr(kg, "__len__") else 0


def indices_for_store(store_dir, *, rebuild: bool = False, verbose: bool = True) -> tuple[EntityIndex, PropertyIndex]:
    """The entity and property indices of an embedded store, built on first use and cached."""
    from cnl.kg.embedded import EmbeddedKG

    folder = cache_dir_for(str(store_dir))
    entity_file, property_file, meta_file = folder / "entities.json", folder / "properties.json", folder / "meta.json"
    # our own fixed queries over every label: trusted, so in this process and without a deadline
    with EmbeddedKG(store_dir, read_only=True, isolate=False, timeout=None) as kg:
        kg.max_rows = None
        fingerprint = _fingerprint(kg)
        meta = json.loads(meta_file.read_text()) if meta_file.exists() else {}
        if rebuild or meta.get("triples") != fingerprint or not entity_file.exists() or not property_file.exists():
            start = time.perf_counter()
            if verbose:
                print(f"building search indices for {store_dir} (cached in {folder})…", file=sys.stderr)
            entities = EntityIndex.from_kg(kg)
            entities.save(entity_file)
            try:
                properties = PropertyIndex.from_kg(kg, folder / "property-vectors.npy")
            except Exception:  # a graph without property declarations still gets entity search
                properties = PropertyIndex([], folder / "property-vectors.npy")
            properties.save(property_file)
            meta_file.write_text(json.dumps({"triples": fingerprint, "store": str(Path(store_dir).resolve())}))
            if verbose:
                print(f"indexed {len(entities):,} entities and {len(properties):,} properties "
                      f"in {time.perf_counter() - start:.1f} s", file=sys.stderr)
            return entities, properties
    return EntityIndex.load(entity_file), PropertyIndex.load(property_file, folder / "property-vectors.npy")
