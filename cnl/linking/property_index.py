"""Property search: exact label/alias match first, then embedding similarity (all-MiniLM-L6-v2)."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from cnl.errors import LinkingError
from cnl.sparql.namespaces import WD
from cnl.linking.text import normalize

PROPERTIES = """SELECT ?p ?label WHERE { ?p wikibase:propertyType ?type ; rdfs:label ?label
  FILTER(LANGMATCHES(LANG(?label), "en")) }"""
ALIASES = """SELECT ?p ?alias WHERE { ?p wikibase:propertyType ?type ; skos:altLabel ?alias
  FILTER(LANGMATCHES(LANG(?alias), "en")) }"""
DESCRIPTIONS = """SELECT ?p ?d WHERE { ?p wikibase:propertyType ?type ; schema:description ?d
  FILTER(LANGMATCHES(LANG(?d), "en")) }"""


@dataclass(frozen=True)
class Property:
    id: str
    label: str
    aliases: tuple[str, ...] = ()
    description: str = ""


class PropertyIndex:
    """Properties searchable by name; embeddings are computed on first semantic search and
    cached as .npy next to ``cache_file`` (when given)."""

    def __init__(self, properties: list[Property], cache_file: Path | None = None) -> None:
        self.properties = properties
        self.cache_file = cache_file
        self.exact: dict[str, list[tuple[int, bool]]] = {}
        for i, p in enumerate(properties):
            for text, alias in [(p.label, False)] + [(a, True) for a in p.aliases]:
                self.exact.setdefault(normalize(text), []).append((i, alias))
        self._vectors = None

    def __len__(self) -> int:
        return len(self.properties)

    def _texts(self) -> list[str]:
        # the label carries the meaning; aliases widen it without the description's noise
        return [p.label + (" (" + ", ".join(p.aliases[:5]) + ")" if p.aliases else "") for p in self.properties]

    def vectors(self):
        if self._vectors is None:
            from cnl.linking.embeddings import embed_cached

            self._vectors = embed_cached(self._texts(), self.cache_file)
        return self._vectors

    def search(self, query: str, k: int = 10, *, semantic: bool = True) -> list[tuple[Property, float]]:
        """Exact label (1.0) and alias (0.95) matches, then the most cosine-similar properties."""
        hits: dict[int, float] = {}
        for i, alias in self.exact.get(normalize(query), ()):
            hits[i] = max(hits.get(i, 0.0), 0.95 if alias else 1.0)
        if semantic and len(hits) < k:
            from cnl.linking.embeddings import embed

            sims = self.vectors() @ embed([query])[0]
            for i in sims.argsort()[::-1][: k]:
                hits.setdefault(int(i), round(float(sims[i]) * 0.9, 4))  # below any exact match
        ranked = sorted(hits.items(), key=lambda kv: kv[1], reverse=True)[:k]
        return [(self.properties[i], s) for i, s in ranked]

    @classmethod
    def from_kg(cls, kg, cache_file: Path | None = None) -> "PropertyIndex":
        labels = {r[0].value[len(WD):]: r[1].value for r in kg.select(PROPERTIES).rows}
        aliases: dict[str, list[str]] = {}
        for p, a in kg.select(ALIASES).rows:
            aliases.setdefault(p.value[len(WD):], []).append(a.value)
        descriptions = {r[0].value[len(WD):]: r[1].value for r in kg.select(DESCRIPTIONS).rows}
        props = [Property(pid, label, tuple(aliases.get(pid, ())), descriptions.get(pid, ""))
                 for pid, label in sorted(labels.items(), key=lambda kv: int(kv[0][1:]) if kv[0][1:].isdigit() else 0)]
        if not props:
            raise LinkingError("the knowledge graph declares no properties (wikibase:propertyType) with English labels")
        return cls(props, cache_file)

    @classmethod
    def from_properties_json(cls, path: Path, cache_file: Path | None = None) -> "PropertyIndex":
        """The shared data's properties.json (id, label, description, aliases)."""
        rows = json.loads(Path(path).read_text())
        return cls([Property(r["id"], r["label"], tuple(r.get("aliases") or ()), r.get("description") or "")
                    for r in rows if r.get("label")], cache_file)

    def save(self, path: Path) -> None:
        path.write_text(json.dumps([[p.id, p.label, list(p.aliases), p.description] for p in self.properties]))

    @classmethod
    def load(cls, path: Path, cache_file: Path | None = None) -> "PropertyIndex":
        return cls([Property(i, l, tuple(a), d) for i, l, a, d in json.loads(path.read_text())], cache_file)
