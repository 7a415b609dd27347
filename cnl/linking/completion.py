"""Completion against a knowledge graph: the grammar's slot at the cursor, filled and ranked.

:func:`cnl.dialects.squall.completion.expect` says what the grammar accepts at the cursor
(fixed words, and which kinds of term); this module fills the term slots from the KG:

* properties (after ``has``, ``the``, ``at``…): first those the KG has around the entities
  already written in the query — their own statements in both directions, their statements'
  qualifiers and, for a class, the statements of a sample of its instances — most used first;
  then the property index, by how well a name matches what is typed;
* entities and classes (after ``[``, or a word where one may stand): the question's linked
  candidates first, then the entity index (prefix keywords, ranked by match and popularity).

Every insert text is a term the compiler reads back as the same ID: a label where the
resolver maps it to that ID, else the ID with its label (``<Q25188:Inception>``), escaped by the
notation's rules. One :class:`Completer` per KG keeps the properties found around each entity.
"""
from __future__ import annotations

import re
import threading
from collections import OrderedDict
from dataclasses import dataclass, field

from cnl.dialects.notation import escape
from cnl.dialects.squall.completion import Slot, expect, terms_in
from cnl.errors import CNLError
from cnl.linking.text import normalize
from cnl.sparql.namespaces import P, PQ, PREFIXES, PS, WD, WDT

KINDS = ("keyword", "property", "entity", "value")
_PROPERTY_NAMESPACES = (WDT, PQ, PS, P)
_CURIE = re.compile(r"^([A-Za-z][\w-]*):([\w-]+)$")


@dataclass(frozen=True)
class Completion:
    """One suggestion: what it is (``kind``: keyword, property, entity), what a person reads
    (``label``, ``detail``), the ID it stands for, and the text that replaces the slot."""

    kind: str
    label: str
    insert: str
    id: str | None = None
    detail: str = ""

    def to_json(self) -> dict:
        out = {"kind": self.kind, "label": self.label, "insert": self.insert}
        if self.id:
            out["id"] = self.id
        if self.detail:
            out["detail"] = self.detail
        return out


@dataclass
class Completions:
    """The suggestions for one cursor: they replace ``text[start:end]``."""

    start: int
    end: int
    items: list[Completion] = field(default_factory=list)
    hints: tuple[str, ...] = ()   # open values the grammar also accepts here ("a number")
    may_end: bool = False         # the text parses as a whole query up to here
    parses: bool = True           # False: the text before the cursor is already wrong

    def to_json(self) -> dict:
        return {"from": self.start, "to": self.end, "items": [c.to_json() for c in self.items],
                "hints": list(self.hints), "may_end": self.may_end, "parses": self.parses}


class Completer:
    """Completion over one KG: ``entities``/``properties`` are its search indices (either may be
    None), ``resolver`` the lexicon the compiler resolves labels with, ``class_predicate`` the
    profile's class test (``wdt:P31``, ``rdf:type``) as a CURIE or an IRI in ``<…>``."""

    def __init__(self, kg=None, *, entities=None, properties=None, resolver=None,
                 class_predicate: str | None = "wdt:P31", prefixes: dict | None = None,
                 notation: str = "label", around_timeout: float = 3.0, cache_size: int = 4096) -> None:
        self.kg = kg
        self.entities = entities
        self.properties = properties
        self.resolver = resolver
        self.notation = notation
        self.class_predicate = _full_iri(class_predicate, prefixes or PREFIXES) if class_predicate else None
        self.around_timeout = around_timeout
        self._around: OrderedDict[str, dict[str, int]] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()
        self._property_list = None
        self._names = None

    # -- the entry point -----------------------------------------------------------------
    def complete(self, text: str, cursor: int | None = None, *, limit: int = 40, candidates=()) -> Completions:
        """Suggestions at ``cursor`` (default: the end of ``text``); ``candidates``: entity IDs
        linked from the question, offered first where an entity may stand."""
        slot = expect(text, cursor, notation=self.notation)
        out = Completions(slot.start, slot.end, hints=slot.values, may_end=slot.may_end, parses=slot.parses)
        opened = slot.term_typed
        wants_property = bool(slot.terms & {"property", "verb"}) and opened in (None, "property", "verb")
        wants_entity = "entity" in slot.terms and opened in (None, "entity")
        query = slot.label_typed if opened else slot.typed
        around, indexed = ([], []) if not wants_property else self._property_items(slot, text, query, limit)
        linked, found = ([], []) if not wants_entity else self._entity_items(query, candidates, limit,
                                                                                  search=bool(query.strip()))
        keywords = [Completion("keyword", word, word) for word in slot.keywords] if opened is None else []
        if opened is not None or not query.strip():
            ordered = around + linked + keywords + indexed + found
        else:
            ordered = keywords + around + linked + indexed + found
        seen, items = set(), []
        for item in ordered:
            if item.insert not in seen:
                seen.add(item.insert)
                items.append(item)
        out.items = items[:limit]
        return out

    # -- properties ----------------------------------------------------------------------
    def _property_items(self, slot: Slot, text: str, typed: str, limit: int):
        verb = "verb" in slot.terms and "property" not in slot.terms or slot.term_typed == "verb"
        verb_prefix = re.match(r"(?i)(is|are|was|were|has|have)-", slot.typed)
        prefix = (verb_prefix.group(1).lower() if verb_prefix else "is") + "-" if verb else ""
        wanted = normalize(typed)
        counts: dict[str, int] = {}
        around_of: dict[str, list[str]] = {}
        for entity_id, name in self._entities_in(text, slot):
            for pid, n in self.properties_around(entity_id).items():
                counts[pid] = counts.get(pid, 0) + n
                around_of.setdefault(pid, []).append(name)
        names_of = self._property_names()
        around = []
        for pid in sorted(counts, key=lambda p: -counts[p]):
            prop = self._property(pid)
            if prop is None or (wanted and not any(_word_prefix(wanted, n) for n in names_of[pid][1:])):
                continue
            names = ", ".join(dict.fromkeys(around_of[pid]))
            around.append(self._property_completion(prop, prefix, f"{pid} · around {names} ({counts[pid]})"))
            if len(around) >= limit:
                break
        indexed = []
        if wanted:
            scored = [(score, prop) for prop, label, *aliases in names_of.values()
                      if (score := _match_score(wanted, label, aliases))]
            scored.sort(key=lambda sp: (-sp[0], len(sp[1].label), sp[1].label))
            for _score, prop in scored[:limit]:
                if prop.id not in counts:
                    indexed.append(self._property_completion(prop, prefix, f"{prop.id} · {prop.description}".rstrip(" ·")))
        return around, indexed

    def _property_completion(self, prop, prefix: str, detail: str) -> Completion:
        label = prop.label
        resolved = self._resolves(label, "property")
        term = f"<{escape(label, '>')}>" if resolved in (None, prop.id) else f"<{prop.id}:{escape(label, '>')}>"
        return Completion("property", label, prefix + term, prop.id, detail)

    def _property(self, pid: str):
        entry = self._property_names().get(pid)
        return entry[0] if entry else None

    def _property_names(self) -> dict[str, tuple]:
        """Property ID -> (property, its normalized label, its normalized aliases…), built once."""
        if self._names is None:
            self._names = {p.id: (p, normalize(p.label), *(normalize(a) for a in p.aliases))
                           for p in self._all_properties() if p.label}
        return self._names

    def _all_properties(self):
        if self._property_list is None:
            if self.properties is not None and len(self.properties):
                self._property_list = list(self.properties.properties)
            else:  # no store index: Wikidata's shipped property list
                from cnl.sparql.wikidata_properties import wikidata_properties

                self._property_list = list(wikidata_properties())
        return self._property_list

    def properties_around(self, entity_id: str) -> dict[str, int]:
        """Property ID -> how many statements use it around ``entity_id``: as subject, as object
        (the first 5,000), as qualifiers of its statements, and as subject for up to 50 of its
        instances when it is a class. Cached; {} without a KG or when the KG fails."""
        with self._lock:
            hit = self._around.get(entity_id)
            if hit is not None:
                self._around.move_to_end(entity_id)
                return hit
        found = self._query_around(entity_id)
        with self._lock:
            self._around[entity_id] = found
            while len(self._around) > self._cache_size:
                self._around.popitem(last=False)
        return found

    def _query_around(self, entity_id: str) -> dict[str, int]:
        if self.kg is None:
            return {}
        iri = WD + entity_id if re.fullmatch(r"Q[0-9]+", entity_id) else entity_id
        if not re.fullmatch(r"https?://[^\s<>\"{}|\\^`]+", iri):
            return {}
        branches = [f"{{ <{iri}> ?p ?o }}",
                    f"{{ SELECT ?p WHERE {{ ?s ?p <{iri}> }} LIMIT 5000 }}",
                    f"{{ <{iri}> ?x ?st . ?st ?p ?v FILTER(STRSTARTS(STR(?p), \"{PQ}\")) }}"]
        if self.class_predicate:
            branches.append(f"{{ {{ SELECT ?s WHERE {{ ?s {self.class_predicate} <{iri}> }} LIMIT 50 }} ?s ?p ?o }}")
        sparql = f"SELECT ?p (COUNT(*) AS ?n) WHERE {{ {' UNION '.join(branches)} }} GROUP BY ?p"
        from cnl.kg.limits import query_limits

        try:
            with query_limits(timeout=self.around_timeout):
                rows = self.kg.select(sparql).rows
        except CNLError:
            return {}  # ranking is a courtesy: completion still works without it
        found: dict[str, int] = {}
        for p, n in rows:
            value = getattr(p, "value", str(p))
            for namespace in _PROPERTY_NAMESPACES:
                if value.startswith(namespace) and value[len(namespace):][1:].isdigit():
                    pid = value[len(namespace):]
                    found[pid] = found.get(pid, 0) + int(getattr(n, "value", n))
                    break
        return found

    def _entities_in(self, text: str, slot: Slot) -> list[tuple[str, str]]:
        """(ID, name) of the entities and classes written in ``text`` outside the slot."""
        out = []
        for term in terms_in(text, notation=self.notation):
            if term.kind != "entity" or (term.start < slot.end and term.end > slot.start):
                continue
            ident = term.id or (self._resolves(term.label, "entity") if term.label else None)
            if ident is None and term.label and self.entities is not None:
                entity = self.entities.lookup(term.label)
                ident = entity.id if entity is not None else None
            if ident and ident not in (i for i, _ in out):
                out.append((ident, term.label or ident))
        return out

    # -- entities ------------------------------------------------------------------------
    def _entity_items(self, typed: str, candidates, limit: int, search: bool):
        wanted = normalize(typed)
        linked = []
        for ident in candidates or ():
            entity = self.entities.get(ident) if self.entities is not None else None
            if entity is None:
                continue
            names = [normalize(n) for n in (entity.label, *entity.aliases)]
            if wanted and not any(_word_prefix(wanted, n) for n in names):
                continue
            linked.append(self._entity_completion(entity, "linked from the question"))
        found = []
        if search and self.entities is not None and wanted:
            for entity, _score in self.entities.search(typed, k=limit):
                found.append(self._entity_completion(entity))
        return linked, found

    def _entity_completion(self, entity, why: str = "") -> Completion:
        label = entity.label
        resolved = self._resolves(label, "entity")
        term = f"[{escape(label, ']')}]" if resolved in (None, entity.id) else f"<{entity.id}:{escape(label, '>')}>"
        detail = " · ".join(part for part in (entity.id, entity.description, why) if part)
        return Completion("entity", label, term, entity.id, detail)

    def _resolves(self, label: str, kind: str) -> str | None:
        """The ID the compiler's resolver gives ``label`` (None: no resolver, or not resolvable)."""
        if self.resolver is None:
            return None
        try:
            return self.resolver.resolve(label, kind)
        except CNLError:
            return ""  # unknown or ambiguous: write the ID
        except Exception:  # noqa: BLE001 - a resolver that cannot answer: write the ID
            return ""


def _full_iri(term: str, prefixes: dict) -> str | None:
    """``<iri>`` for a CURIE (``wdt:P31``) or an IRI; a path of CURIEs (``wdt:P31/wdt:P279*``)
    keeps only its first step (a sample of instances needs no closure)."""
    term = term.strip().split("/")[0].rstrip("*+?")
    if term.startswith("<") and term.endswith(">"):
        return term
    match = _CURIE.match(term)
    if match and match.group(1) in prefixes:
        return f"<{prefixes[match.group(1)]}{match.group(2)}>"
    return None


def _word_prefix(wanted: str, name: str) -> bool:
    return name.startswith(wanted) or f" {wanted}" in f" {name}"


def _match_score(wanted: str, label: str, aliases) -> int:
    """3 the label starts with what is typed, 2 an alias does, 1 a later word of either; 0 none
    (names normalized)."""
    if label.startswith(wanted):
        return 3
    if any(a.startswith(wanted) for a in aliases):
        return 2
    return 1 if any(f" {wanted}" in f" {n}" for n in (label, *aliases)) else 0


__all__ = ["Completer", "Completion", "Completions", "KINDS"]
