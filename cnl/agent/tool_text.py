"""How tool results read: bounded text tables whose IRI cells are ``label (wd:Q…)``."""
from __future__ import annotations

import re

from cnl.sparql.namespaces import PREFIXES

WD = PREFIXES["wd"]
WIKIDATA_NAMESPACES = {name: PREFIXES[name] for name in ("wd", "wdt", "p", "ps", "pq")}
ID_PATTERN = re.compile(r"^[PQ][0-9]+$")


def format_table(columns: list[str], rows: list[list[str]], *, max_rows: int = 10, max_cols: int = 10,
                 max_cell: int = 80, total: int | None = None) -> str:
    """A plain-text table; more than ``max_rows`` rows (columns) show the first and last half."""
    def clip(cells: list, limit: int, filler):
        if len(cells) <= limit:
            return list(cells)
        half = limit // 2
        return list(cells[:half]) + [filler] + list(cells[-half:])

    n_rows = len(rows) if total is None else total
    cols = clip(columns, max_cols, "…")
    shown = clip([clip(r, max_cols, "…") for r in rows], max_rows, None)
    cell = lambda v: (v if len(v) <= max_cell else v[:max_cell - 1] + "…").replace("\n", " ")
    lines = [" | ".join(cols)]
    for row in shown:
        lines.append("…" if row is None else " | ".join(cell(v) for v in row))
    footer = f"({n_rows} row{'s' if n_rows != 1 else ''}"
    if len(rows) > max_rows:
        footer += f", showing the first {max_rows // 2} and last {max_rows // 2}"
    if len(columns) > max_cols:
        footer += f", {len(columns)} columns"
    return "\n".join(lines + [footer + ")"])


def compact(iri: str) -> str:
    """``wd:Q25191``, ``wdt:P57``… for Wikidata IRIs; ``<iri>`` otherwise."""
    for prefix, base in WIKIDATA_NAMESPACES.items():
        if iri.startswith(base) and ID_PATTERN.match(iri[len(base):]):
            return f"{prefix}:{iri[len(base):]}"
    from cnl.kg.results import compact_iri

    return compact_iri(iri)


def known_key(iri: str) -> str:
    """What know-before-use remembers of an IRI: the Q/P ID for Wikidata, else the IRI."""
    for base in WIKIDATA_NAMESPACES.values():
        if iri.startswith(base) and ID_PATTERN.match(iri[len(base):]):
            return iri[len(base):]
    return iri
