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

import bisect
import heapq
import re
import threading
from array import array
from collections import OrderedDict
from dataclasses import dataclass, field

from cnl.dialects.notation import escape
from cnl.dialects.squall.completion import Slot, expect, terms_in
from cnl.errors import CNLError
from cnl.linking.text import STOPWORDS, normalize
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


class NameIndex:
    """Names by what they start with, for completion as a person types: a name matches a typed
    text when the name, or one of its later words, starts with it. ``find`` gives the best
    items: a primary name's start before an alias's start before a later word's start, then by
    weight (an entity's popularity), then the shorter name."""

    def __init__(self, entries) -> None:
        """``entries``: (name, item, is_primary, weight) rows; ``item`` is any int the caller maps."""
        rows = []
        for name, item, primary, weight in entries:
            key = normalize(name)
            if not key:
                continue
            position = 0
            for i, word in enumerate(key.split(" ")):
                if i == 0 or (len(word) > 1 and word not in STOPWORDS):
                    tier = (2 if primary else 1) if i == 0 else 0
                    rows.append((key[position:], tier, weight, -len(key), item))
                position += len(word) + 1
        rows.sort(key=lambda r: r[0])
        self.keys = [r[0] for r in rows]
        self.ranks = [(r[1], r[2], r[3]) for r in rows]
        self.items = array("l", (r[4] for r in rows))
        self._short: OrderedDict[str, list[int]] = OrderedDict()  # answers for one- and two-letter texts

    def __len__(self) -> int:
        return len(self.keys)

    def find(self, typed: str, k: int = 40) -> list[int]:
        """The ``k`` best items whose names match ``typed`` (normalized)."""
        if not typed:
            return []
        cached = len(typed) <= 2 and self._short.get(typed)
        if cached:
            return cached[:k]
        lo = bisect.bisect_left(self.keys, typed)
        hi = bisect.bisect_left(self.keys, typed + "\U0010ffff")
        best: dict[int, tuple] = {}
        items, ranks = self.items, self.ranks
        for i in range(lo, hi):
            item, rank = items[i], ranks[i]
            if item not in best or rank > best[item]:
                best[item] = rank
        found = [item for item, _ in heapq.nlargest(max(k, 40), best.items(), key=lambda kv: kv[1])]
        if len(typed) <= 2:
            self._short[typed] = found
            while len(self._short) > 2048:
                self._short.popitem(last=False)
        return found[:k]


class Completer:
    """Completion over one KG: ``entities``/``properties`` are its search indices (either may be
    None), ``resolver`` the lexicon the compiler resolves labels with, ``class_predicate`` the
    profile's class test (``wdt:P31``, ``rdf:type``) as a CURIE or an IRI in ``<…>``."""

    def __init__(self, kg=None, *, entities=None, properties=None, resolver=None,
                 class_predicate: str | None = "wdt:P31", prefixes: dict | None = None,
                 notation: str = "label", around_timeout: float = 5.0, cache_size: int = 4096) -> None:
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
        self._entity_names: NameIndex | None = None
        self._property_index: NameIndex | None = None
        self._classes: list | None = None

    # -- the entry point -----------------------------------------------------------------
    def complete(self, text: str, cursor: int | None = None, *, limit: int = 40, candidates=(),
                 question: str | None = None) -> Completions:
        """Suggestions at ``cursor`` (default: the end of ``text``); ``candidates``: entity IDs
        linked from the question, offered first where an entity may stand; ``question``: the
        question the query answers, whose words rank the properties that name them first."""
        slot = expect(text, cursor, notation=self.notation)
        out = Completions(slot.start, slot.end, hints=slot.values, may_end=slot.may_end, parses=slot.parses)
        opened = slot.term_typed
        wants_property = bool(slot.terms & {"property", "verb"}) and opened in (None, "property", "verb")
        wants_entity = "entity" in slot.terms and opened in (None, "entity")
        query = slot.label_typed if opened else slot.typed
        around, indexed = ([], []) if not wants_property else self._property_items(slot, text, query, limit,
                                                                                   question_words(question or ""))
        # a bare word looks entities up from its third letter ("wh" is a question word being typed)
        search = bool(query.strip()) and (opened == "entity" or len(query.strip()) >= 3)
        linked, found = ([], []) if not wants_entity else self._entity_items(query, candidates, limit, search=search)
        if wants_entity and opened == "entity" and not query.strip():
            # "[" and nothing typed yet: the store's most used classes ("which [" wants one)
            found = [self._entity_completion(c, f"a class of {n:,} items") for c, n in self.popular_classes()[:limit]]
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
    def _property_items(self, slot: Slot, text: str, typed: str, limit: int, asked: frozenset = frozenset()):
        verb = "verb" in slot.terms and "property" not in slot.terms or slot.term_typed == "verb"
        verb_prefix = re.match(r"(?i)(is|are|was|were|has|have)-", slot.typed)
        prefix = (verb_prefix.group(1).lower() if verb_prefix else "is") + "-" if verb else ""
        wanted = normalize(typed)
        counts: dict[str, int] = {}
        around_of: dict[str, list[str]] = {}

        def add_around(near) -> None:
            for entity_id, name in near:
                for pid, n in self.properties_around(entity_id).items():
                    counts[pid] = counts.get(pid, 0) + n
                    around_of.setdefault(pid, []).append(name)

        add_around(self._entities_in(text, slot))
        if not counts and not wanted:
            # nothing to go by ("What is the <", or entities the KG has no statement about):
            # the properties of the store's most used classes
            add_around((c.id, c.label) for c, _ in self.popular_classes()[:3])
        names_of = self._property_names()
        named = {pid: _named_by(asked, names_of[pid][1:]) for pid in counts if pid in names_of} if asked else {}
        around = []
        for pid in sorted(counts, key=lambda p: (-named.get(p, 0.0), -counts[p])):
            prop = self._property(pid)
            if prop is None or (wanted and not any(_word_prefix(wanted, n) for n in names_of[pid][1:])):
                continue
            names = ", ".join(dict.fromkeys(around_of[pid]))
            around.append(self._property_completion(prop, prefix, f"{pid} · around {names} ({counts[pid]})"))
            if len(around) >= limit:
                break
        indexed = []
        if wanted:
            properties = self._all_properties()
            found = [properties[i] for i in self.property_names().find(wanted, 4 * limit)]
            if asked:  # among equally good matches, those the question names first
                rank = {p.id: n for n, p in enumerate(found)}
                found.sort(key=lambda p: (-_named_by(asked, names_of[p.id][1:]), rank[p.id]))
            for prop in found:
                if prop.id not in counts and len(indexed) < limit:
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

    def property_names(self) -> NameIndex:
        """The property labels and aliases by what they start with (built on first use)."""
        if self._property_index is None:
            properties = self._all_properties()
            self._property_index = NameIndex(
                (name, i, primary, 0) for i, p in enumerate(properties)
                for name, primary in [(p.label, True)] + [(a, False) for a in p.aliases])
        return self._property_index

    def entity_names(self) -> NameIndex | None:
        """The entity index's labels and aliases by what they start with, weighted by popularity
        (built on first use; :meth:`warm` builds it ahead)."""
        if self._entity_names is None and self.entities is not None:
            with self._lock:
                if self._entity_names is None:
                    self._entity_names = NameIndex(
                        (name, i, primary, e.popularity) for i, e in enumerate(self.entities.entities)
                        for name, primary in [(e.label, True)] + [(a, False) for a in e.aliases])
        return self._entity_names

    def warm(self) -> None:
        """Build the name indices now (a server calls this in the background at start-up)."""
        self.entity_names()
        self.property_names()
        for entity, _ in self.popular_classes()[:3]:
            self.properties_around(entity.id)

    def popular_classes(self, k: int = 40) -> list:
        """(entity, instance count) for the ``k`` classes with the most instances in the KG,
        those the entity index knows; asked once (1.5 s on the 3.16 M-triple slice), [] without
        a KG or when it fails (asked again next time)."""
        if self._classes is not None:
            return self._classes
        if self.kg is None or self.entities is None or not self.class_predicate:
            return []
        from cnl.kg.limits import query_limits

        sparql = (f"SELECT ?c (COUNT(?x) AS ?n) WHERE {{ ?x {self.class_predicate} ?c }} "
                  f"GROUP BY ?c ORDER BY DESC(?n) LIMIT {4 * k}")
        try:
            with query_limits(timeout=self.around_timeout):
                rows = self.kg.select(sparql).rows
        except CNLError:
            return []
        found = []
        for c, n in rows:
            value = getattr(c, "value", str(c))
            entity = self.entities.get(value[len(WD):] if value.startswith(WD) else value)
            if entity is not None:
                found.append((entity, int(getattr(n, "value", n))))
        self._classes = found[:k]
        return self._classes

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
        if found is None:
            return {}  # the KG failed or timed out: ask again next time
        with self._lock:
            self._around[entity_id] = found
            while len(self._around) > self._cache_size:
                self._around.popitem(last=False)
        return found

    def _query_around(self, entity_id: str) -> dict[str, int] | None:
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
            return None  # ranking is a courtesy: completion still works without it
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
        names = self.entity_names() if search and wanted else None
        if names is not None:
            entities = self.entities.entities
            found = [self._entity_completion(entities[i]) for i in names.find(wanted, limit)]
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


def question_words(question: str) -> frozenset:
    """The content words of a question: normalized, stop words dropped."""
    return frozenset(w for w in normalize(question).split() if w not in STOPWORDS)


def _same_stem(a: str, b: str) -> bool:
    """Two words that share a long start ("filmed"/"filming", "produced"/"production",
    "directed"/"director"): at least four letters and 60 % of the shorter word."""
    shortest = min(len(a), len(b))
    if shortest < 4:
        return False
    common = 0
    while common < shortest and a[common] == b[common]:
        common += 1
    return common >= 4 and common >= 0.6 * shortest


def _named_by(asked: frozenset, names) -> float:
    """How well the question's words name a property (its normalized label and aliases): the
    best share of a name's content words found in the question, a word of the same stem
    counting half."""
    best = 0.0
    for name in names:
        words = [w for w in name.split() if w not in STOPWORDS]
        if not words:
            continue
        hits = sum(1.0 if w in asked else 0.5 if any(_same_stem(w, q) for q in asked) else 0.0 for w in words)
        best = max(best, hits / len(words))
    return best


__all__ = ["Completer", "Completion", "Completions", "KINDS", "NameIndex", "question_words"]
