"""A small, self-contained slice of the Wikidata N-Triples file around one entity.

Used by the agent tests, the servers' demos and the load test: a few thousand triples about a
person and the works pointing at them (Christopher Nolan and his films by default), with the
labels, descriptions and aliases of everything mentioned and the declarations of the
properties used, so that the search indices and the compiler work on it as on the full slice.
"""
from __future__ import annotations

import gzip
from pathlib import Path

WD = "<http://www.wikidata.org/entity/"
STATEMENT = "<http://www.wikidata.org/entity/statement/"
WDT = "<http://www.wikidata.org/prop/direct/"
DESCRIBING = ("<http://www.w3.org/2000/01/rdf-schema#label>", "<http://schema.org/description>",
              "<http://www.w3.org/2004/02/skos/core#altLabel>")
WIKIBASE = "<http://wikiba.se/ontology#"


def _split(line: str) -> tuple[str, str, str] | None:
    parts = line.split(" ", 2)
    return (parts[0], parts[1], parts[2]) if len(parts) == 3 else None


def _entity_id(term: str) -> str | None:
    """`Q25191` for `<http://www.wikidata.org/entity/Q25191>`; None for other terms."""
    if term.startswith(WD) and not term.startswith(STATEMENT):
        return term[len(WD):-1]
    return None


def _ids_in(line: str) -> set[str]:
    """Entity and property IDs named anywhere in a line (wd:, wdt:, p:, ps:, pq: IRIs)."""
    found = set()
    for term in line.split(" "):
        if term.startswith("<http://www.wikidata.org/") and not term.startswith(STATEMENT):
            local = term.rstrip(">").rsplit("/", 1)[-1]
            if local[:1] in "QP" and local[1:].isdigit():
                found.add(local)
    return found


def write_slice(source: str | Path, target: str | Path, *, center: str | tuple[str, ...] = "Q25191",
                incoming: tuple[str, ...] = ("P57",)) -> int:
    """Write the triples about ``center`` (one ID, or several) and the subjects linked to it by
    ``incoming`` properties (e.g. films whose director is Nolan) to ``target``; returns the
    triple count."""
    centers = (center,) if isinstance(center, str) else tuple(center)
    center_iris = tuple(f"{WD}{c}>" for c in centers)
    incoming_iris = {f"{WDT}{p}>" for p in incoming}
    core = set(centers)
    describing: dict[str, list[str]] = {}
    with gzip.open(source, "rt", encoding="utf-8") as lines:
        for line in lines:
            parts = _split(line)
            if parts is None:
                continue
            s, p, o = parts
            if p in incoming_iris and o.startswith(center_iris):
                core.add(_entity_id(s))
            elif p in DESCRIBING or p.startswith(WIKIBASE):
                ident = _entity_id(s)
                if ident:
                    describing.setdefault(ident, []).append(line)
    kept: list[str] = []
    mentioned: set[str] = set()
    statement_prefixes = tuple(f"{STATEMENT}{c}-" for c in core)
    with gzip.open(source, "rt", encoding="utf-8") as lines:
        for line in lines:
            parts = _split(line)
            if parts is None:
                continue
            s, p, _ = parts
            if p in DESCRIBING or p.startswith(WIKIBASE):
                continue  # added below for every mentioned ID
            if _entity_id(s) in core or s.startswith(statement_prefixes):
                kept.append(line)
                mentioned |= _ids_in(line)
    mentioned |= core
    for ident in sorted(mentioned):
        kept.extend(describing.get(ident, ()))
    Path(target).write_text("".join(kept), encoding="utf-8")
    return len(kept)
