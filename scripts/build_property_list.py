"""Build the property list shipped in the package (cnl/linking/data/wikidata_properties.json.gz)
from ../shared/data/wikidata/properties.json (wvanderp/wikidata-properties, MIT; Wikidata CC0).

The library reads only the shipped file, so compiling, translating and serving behave the same
with or without the shared data folder.

    python scripts/build_property_list.py
"""
from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cnl.datasets.paths import data_file  # noqa: E402
from cnl.sparql.wikidata_properties import SHIPPED  # noqa: E402


def main() -> int:
    rows = json.loads(data_file("wikidata", "properties.json").read_text("utf-8"))
    compact = [[r["id"], r["label"], r.get("aliases") or [], r.get("description") or "", r.get("dataType") or ""]
               for r in rows]  # the file's order: where two share a label, the later one wins, as before
    text = json.dumps(compact, ensure_ascii=False, separators=(",", ":"))
    # mtime=0: the same input gives the same bytes
    SHIPPED.write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))
    print(f"{len(compact)} properties -> {SHIPPED} ({SHIPPED.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
