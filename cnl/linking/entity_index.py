"""GRASP-style entity search: a prefix-keyword index over English labels and aliases.

Names are ranked by match quality (exact keyword matches, then prefix matches, then how much
of the name the query covers) and then by popularity, the entity's statement count (as
subject or object of a truthy `wdt:` triple).

The index is kept in flat tables (strings in UTF-8 blobs with offsets, integers in arrays, each
lookup a sorted key list with offsets into one array of name numbers), so a cached index is read
back without making a Python object per string: a cold ``cnl2sparql link`` decodes only the
strings it reads (a few thousand of the slice's 600,000) and spends no second rebuilding them.
"""
from __future__ import annotations

import bisect
import json
import math
import sys
from array import array
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path

from cnl.errors import LinkingError
from cnl.sparql.namespaces import WD
from cnl.linking.text import normalize

INDEX_VERSION = 3
# the cached file's first line; the second is a JSON header naming the sections that follow
MAGIC = b"cnl2sparql entity index\n"

LABELS = """SELECT ?e ?label WHERE { ?e rdfs:label ?label FILTER(LANGMATCHES(LANG(?label), "en")) }"""
ALIASES = """SELECT ?e ?alias WHERE { ?e skos:altLabel ?alias FILTER(LANGMATCHES(LANG(?alias), "en")) }"""
DESCRIPTIONS = """SELECT ?e ?d WHERE { ?e schema:description ?d FILTER(LANGMATCHES(LANG(?d), "en")) }"""
# Joining on wikibase:directClaim avoids a string filter over every predicate (2x faster).
POPULARITY = """SELECT ?e (COUNT(*) AS ?n) WHERE {
  ?prop wikibase:directClaim ?p . { ?e ?p ?o } UNION { ?o ?p ?e } FILTER(isIRI(?e)) } GROUP BY ?e"""
# What an entity is: Wikidata's instance of, or rdf:type in a graph of another kind.
TYPES = """SELECT ?e ?t WHERE { { ?e wdt:P31 ?t } UNION { ?e rdf:type ?t } FILTER(isIRI(?t)) }"""


@dataclass(frozen=True)
class Entity:
    id: str  # QID ("Q25191") for Wikidata IRIs, the full IRI otherwise
    label: str
    aliases: tuple[str, ...]
    description: str
    popularity: int
    types: tuple[str, ...] = ()  # its classes (instance of), as IDs


def short_id(iri: str) -> str:
    return iri[len(WD):] if iri.startswith(WD) else iri


def is_item(entity_id: str) -> bool:
    return entity_id.startswith("Q") and entity_id[1:].isdigit()


ARTICLES = ("the ", "a ", "an ")
_ACRONYM_SKIP = {"of", "the", "and", "for", "a", "an", "in", "de", "s"}


def _variants(key: str) -> list[str]:
    out = []
    for article in ARTICLES:
        if key.startswith(article) and len(key) > len(article) + 2:
            out.append(key[len(article):])
    words = [w for w in key.split() if w not in _ACRONYM_SKIP]
    if len(words) >= 2 and all(w.isalpha() for w in words):
        out.append("".join(w[0] for w in words))
    return out


class TextColumn:
    """A read-only list of strings kept as one UTF-8 blob and the byte offsets between them:
    ``column[i]`` decodes one string when it is read (a list of 600,000 strings takes longer to
    make than a question takes to link)."""

    __slots__ = ("data", "offsets")

    def __init__(self, data, offsets: array) -> None:
        self.data, self.offsets = data, offsets

    @classmethod
    def of(cls, strings) -> "TextColumn":
        offsets, parts, end = array("Q", [0]), [], 0
        for text in strings:
            raw = text.encode("utf-8")
            parts.append(raw)
            end += len(raw)
            offsets.append(end)
        return cls(b"".join(parts), offsets)

    def __len__(self) -> int:
        return len(self.offsets) - 1

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self.offsets) - 1:
            raise IndexError("text column index out of range")
        return str(self.data[self.offsets[i]:self.offsets[i + 1]], "utf-8")

    def __iter__(self):
        return (self[i] for i in range(len(self)))


class KeyTable:
    """A map from sorted string keys to runs of name numbers (compressed sparse rows):
    ``get(key)`` finds the key by bisection and returns its run, an array slice."""

    __slots__ = ("keys", "offsets", "values")

    def __init__(self, keys: list[str], offsets: array, values: array) -> None:
        self.keys, self.offsets, self.values = keys, offsets, values

    @classmethod
    def from_dict(cls, table: dict[str, list[int]]) -> "KeyTable":
        keys = sorted(table)
        offsets, values = array("I", [0]), array("I")
        for key in keys:
            values.extend(table[key])
            offsets.append(len(values))
        return cls(keys, offsets, values)

    def _find(self, key: str) -> int:
        i = bisect.bisect_left(self.keys, key)
        return i if i < len(self.keys) and self.keys[i] == key else -1

    def get(self, key: str, default=()):
        i = self._find(key)
        return default if i < 0 else self.values[self.offsets[i]:self.offsets[i + 1]]

    def __getitem__(self, key: str):
        i = self._find(key)
        if i < 0:
            raise KeyError(key)
        return self.values[self.offsets[i]:self.offsets[i + 1]]

    def __contains__(self, key: str) -> bool:
        return self._find(key) >= 0

    def __len__(self) -> int:
        return len(self.keys)

    def starting_with(self, prefix: str, limit: int) -> list[str]:
        start = bisect.bisect_left(self.keys, prefix)
        out = []
        for key in self.keys[start:start + limit]:
            if not key.startswith(prefix):
                break
            out.append(key)
        return out


class NameTable:
    """One row per indexed name: ``names[ni]`` is (entity number, normalised name, is an alias)."""

    __slots__ = ("entity", "keys", "alias")

    def __init__(self, entity: array, keys: list[str], alias: bytes) -> None:
        self.entity, self.keys, self.alias = entity, keys, alias

    def __getitem__(self, ni: int) -> tuple[int, str, bool]:
        return self.entity[ni], self.keys[ni], bool(self.alias[ni])

    def __len__(self) -> int:
        return len(self.keys)

    def __iter__(self):
        return zip(self.entity, self.keys, map(bool, self.alias))


class EntityTable:
    """The entities as columns; ``entities[ei]`` makes the :class:`Entity` on demand."""

    __slots__ = ("ids", "labels", "aliases", "descriptions", "popularity", "types")

    def __init__(self, ids: list[str], labels: list[str], aliases: list[str], descriptions: list[str],
                 popularity: array, types: list[str]) -> None:
        # aliases: one string per entity, its aliases joined by US; types: IDs joined by spaces
        self.ids, self.labels, self.aliases, self.descriptions = ids, labels, aliases, descriptions
        self.popularity, self.types = popularity, types

    def __getitem__(self, ei: int) -> Entity:
        aliases, types = self.aliases[ei], self.types[ei]
        return Entity(self.ids[ei], self.labels[ei], tuple(aliases.split(_US)) if aliases else (),
                      self.descriptions[ei], self.popularity[ei], tuple(types.split()) if types else ())

    def __len__(self) -> int:
        return len(self.ids)

    def __iter__(self):
        return (self[ei] for ei in range(len(self.ids)))


_US = "\x1f"  # between the aliases of one entity


def _clean(text: str) -> str:
    return text.replace(_US, " ")


class EntityIndex:
    """Entities plus lookups: exact normalised name → names, article-less and acronym forms →
    names, and keyword → names (``postings``, with ``keywords`` sorted for prefix search)."""

    def __init__(self, entities: list[Entity]) -> None:
        names: list[tuple[int, str, bool]] = []
        exact: dict[str, list[int]] = {}
        variants: dict[str, list[int]] = {}  # article-less and acronym forms of names
        joined: dict[str, list[int]] = {}  # names of several words written as one ("n sync": "nsync")
        postings: dict[str, list[int]] = {}
        for ei, entity in enumerate(entities):
            seen = set()
            for text, alias in [(entity.label, False)] + [(a, True) for a in entity.aliases]:
                key = normalize(text)
                if not key or key in seen:
                    continue
                seen.add(key)
                ni = len(names)
                names.append((ei, key, alias))
                exact.setdefault(key, []).append(ni)
                for word in set(key.split()):
                    postings.setdefault(word, []).append(ni)
                # "The Matrix" is asked about as "Matrix"; "National Basketball Association" as "NBA"
                for variant in _variants(key):
                    if variant not in seen:
                        variants.setdefault(variant, []).append(ni)
                if " " in key:
                    joined.setdefault(key.replace(" ", ""), []).append(ni)
        table = EntityTable([e.id for e in entities], [_clean(e.label) for e in entities],
                            [_US.join(_clean(a) for a in e.aliases) for e in entities],
                            [_clean(e.description) for e in entities], array("Q", (e.popularity for e in entities)),
                            [" ".join(e.types) for e in entities])
        self._set(table, NameTable(array("I", (n[0] for n in names)), [n[1] for n in names],
                                   bytes(n[2] for n in names)),
                  KeyTable.from_dict(exact), KeyTable.from_dict(variants), KeyTable.from_dict(joined),
                  KeyTable.from_dict(postings))

    def _set(self, entities: EntityTable, names: NameTable, exact: KeyTable, variants: KeyTable,
             joined: KeyTable, postings: KeyTable) -> None:
        self.entities, self.names, self.exact, self.variants = entities, names, exact, variants
        self.joined, self.postings = joined, postings
        self.popularity = entities.popularity  # per entity number: statements about it
        self.keywords = postings.keys
        self.log_pop_max = math.log1p(max(entities.popularity, default=0))
        self._by_id: dict[str, int] | None = None

    def __len__(self) -> int:
        return len(self.entities)

    @property
    def by_id(self) -> dict[str, int]:
        if self._by_id is None:  # built on first use: linking never needs it
            self._by_id = {eid: i for i, eid in enumerate(self.entities.ids)}
        return self._by_id

    def get(self, entity_id: str) -> Entity | None:
        i = self.by_id.get(entity_id)
        return None if i is None else self.entities[i]

    def lookup(self, name: str) -> Entity | None:
        """The entity called exactly ``name`` (normalized): one whose label it is before one whose
        alias it is, the most used first; None when no entity has that name."""
        rows = [self.names[ni] for ni in self.exact.get(normalize(name), ())]
        if not rows:
            return None
        ei, _key, _alias = max(rows, key=lambda row: (not row[2], self.popularity[row[0]]))
        return self.entities[ei]

    def prefix_keywords(self, prefix: str, limit: int = 200) -> list[str]:
        return self.postings.starting_with(prefix, limit)

    def search(self, query: str, k: int = 10) -> list[tuple[Entity, float]]:
        """Top-k entities for a keyword query; each query word matches exactly or as a prefix."""
        words = normalize(query).split()
        if not words:
            return []
        exact_hits: dict[int, int] = {}
        prefix_hits: dict[int, int] = {}
        for word in words:
            for ni in self.postings.get(word, ()):
                exact_hits[ni] = exact_hits.get(ni, 0) + 1
            if len(word) >= 2 or word is words[-1]:  # the last word is the one being typed
                for kw in self.prefix_keywords(word):
                    if kw != word:
                        for ni in self.postings[kw]:
                            prefix_hits[ni] = prefix_hits.get(ni, 0) + 1
        best: dict[int, tuple] = {}
        for ni in set(exact_hits) | set(prefix_hits):
            ei, key, alias = self.names[ni]
            n_words = len(key.split())
            matched = exact_hits.get(ni, 0) + prefix_hits.get(ni, 0)
            rank = (matched, exact_hits.get(ni, 0), min(matched, n_words) / n_words,
                    not alias, self.popularity[ei])
            if ei not in best or rank > best[ei]:
                best[ei] = rank  # a label and its aliases are ranked separately; the best counts
        top = sorted(best.items(), key=lambda kv: kv[1], reverse=True)[:k]
        n = len(words)
        # score: share of query words matched (prefix matches count half), times name coverage
        return [(self.entities[ei], round((r[1] + 0.5 * (r[0] - r[1])) / n * (0.5 + 0.5 * r[2]), 3))
                for ei, r in top]

    # --- building and caching ---------------------------------------------------------------

    @classmethod
    def from_kg(cls, kg, *, items_only: bool = True, stage=None) -> "EntityIndex":
        """Read labels, aliases, descriptions, types and statement counts from a knowledge graph.
        ``stage``: a context manager factory shown around each query (``stage("labels")``); on
        the 3.16 M-triple slice they take minutes together, and a person should see which runs."""
        stage = stage or (lambda _name: nullcontext())
        labels: dict[str, str] = {}
        with stage("labels"):
            for e, label in kg.select(LABELS).rows:
                if e.is_iri:
                    labels.setdefault(short_id(e.value), label.value)
        if items_only:  # properties get their own index
            labels = {k: v for k, v in labels.items() if is_item(k)}
        aliases: dict[str, list[str]] = {}
        with stage("aliases"):
            for e, alias in kg.select(ALIASES).rows:
                eid = short_id(e.value)
                if eid in labels:
                    aliases.setdefault(eid, []).append(alias.value)
        with stage("descriptions"):
            descriptions = {short_id(e.value): d.value for e, d in kg.select(DESCRIPTIONS).rows}
        with stage("statement counts (popularity)"):
            popularity = {short_id(e.value): int(n.value) for e, n in kg.select(POPULARITY).rows}
        types: dict[str, list[str]] = {}
        with stage("types (instance of)"):
            for e, t in kg.select(TYPES).rows:
                eid = short_id(e.value)
                if eid in labels and short_id(t.value) not in types.get(eid, ()):
                    types.setdefault(eid, []).append(short_id(t.value))
        entities = [Entity(eid, label, tuple(aliases.get(eid, ())), descriptions.get(eid, ""),
                           popularity.get(eid, 0), tuple(types.get(eid, ()))) for eid, label in labels.items()]
        if not entities:
            raise LinkingError("the knowledge graph has no English rdfs:label to index")
        return cls(entities)

    def save(self, path: Path, **header) -> None:
        """Write the index as one file: a header line, then its columns as raw sections (text as
        a UTF-8 blob and its offsets, integers as machine arrays). ``header``: extra keys (what it was built
        from) that :func:`read_header` gives back without reading the rest. Atomic: a reader
        sees the old file or the new one."""
        e, n = self.entities, self.names
        sections = {"popularity": e.popularity.tobytes(), "name_entity": n.entity.tobytes(), "name_alias": n.alias}
        texts = {"ids": e.ids, "labels": e.labels, "aliases": e.aliases, "descriptions": e.descriptions,
                 "types": e.types, "name_keys": n.keys}
        for name, table in (("exact", self.exact), ("variants", self.variants), ("joined", self.joined),
                            ("postings", self.postings)):
            texts[f"{name}_keys"] = table.keys
            sections.update({f"{name}_offsets": table.offsets.tobytes(), f"{name}_values": table.values.tobytes()})
        for name, strings in texts.items():
            column = strings if isinstance(strings, TextColumn) else TextColumn.of(strings)
            sections.update({name: bytes(column.data), f"{name}_at": column.offsets.tobytes()})
        head = {**header, "version": INDEX_VERSION, "byteorder": sys.byteorder, "rows": len(e),
                "sections": [[name, len(data)] for name, data in sections.items()]}
        tmp = path.with_name(path.name + ".tmp")
        with open(tmp, "wb") as out:
            out.write(MAGIC + json.dumps(head).encode() + b"\n")
            for data in sections.values():
                out.write(data)
        tmp.replace(path)

    @classmethod
    def load(cls, path: Path) -> "EntityIndex":
        try:
            data = Path(path).read_bytes()
            head, body = _split_header(data)
        except (OSError, ValueError) as err:
            raise LinkingError(f"cannot read the entity index {path}: {err}") from None
        if head.get("version") != INDEX_VERSION or head.get("byteorder") != sys.byteorder:
            raise LinkingError(f"entity index {path} has an old format; rebuild it")
        parts, view = {}, memoryview(data)
        for name, size in head["sections"]:
            parts[name] = view[body:body + size]
            body += size

        def text(name: str) -> TextColumn:
            return TextColumn(parts[name], numbers(f"{name}_at", "Q"))

        def numbers(name: str, code: str = "I") -> array:
            out = array(code)
            out.frombytes(parts[name])
            return out

        index = cls.__new__(cls)
        index._set(EntityTable(text("ids"), text("labels"), text("aliases"), text("descriptions"),
                               numbers("popularity", "Q"), text("types")),
                   NameTable(numbers("name_entity"), text("name_keys"), bytes(parts["name_alias"])),
                   *(KeyTable(text(f"{t}_keys"), numbers(f"{t}_offsets"), numbers(f"{t}_values"))
                     for t in ("exact", "variants", "joined", "postings")))
        return index


def _split_header(data: bytes) -> tuple[dict, int]:
    """The header of an index file and where its sections begin."""
    if not data.startswith(MAGIC):
        raise ValueError("not an entity index file")
    end = data.index(b"\n", len(MAGIC))
    return json.loads(data[len(MAGIC):end]), end + 1


def read_header(path: Path) -> dict | None:
    """The header of a cached index file (None when absent or unreadable), without its body."""
    try:
        with open(path, "rb") as handle:
            return _split_header(handle.read(len(MAGIC)) + handle.readline())[0]
    except (OSError, ValueError):
        return None
