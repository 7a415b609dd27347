"""The one rule for ``[Label]`` and ``<label>`` terms of hand-written CNL given a knowledge graph:
they resolve through that KG (a store or an endpoint), after the user's own lexicon.

Every command and API call that is given a KG uses it — ``compile --store/--endpoint``, ``run``,
``cnl.compile(..., store=...)`` — as the HTTP server's ``/compile`` and ``/run`` do with their
dataset's labels. The rule is the lexicon's (:class:`cnl.linking.lexicon.Lexicon`): a label names
exactly one item, or the one item whose primary label (``rdfs:label``) it is when others only
have it as an alias (``skos:altLabel``); any other tie is an error listing the candidates with
their descriptions, and an unknown label is an error with the closest labels the KG has —
never a silently chosen IRI. Matching ignores case and ``_``/space differences as far as
SPARQL can look them up: the label as written, lower-case, capitalized and title-cased.

Properties: the KG's own property labels (``wikibase:propertyType`` declarations, or labelled
predicates), then, for Wikidata profiles, Wikidata's names shipped with the package; for a
plain RDF graph without property labels, the predicates whose local name reads as the label
(``<birth place>`` is ``ex:birthPlace``). (The learned parser's output is resolved more
leniently — the question's linked candidates first, then the most used item of a name: see
:meth:`cnl.learn.inference.Translator.resolver`.)
"""
from __future__ import annotations

import re
from contextlib import contextmanager

from cnl.errors import CNLError, LexiconError
from cnl.linking.lexicon import Lexicon, normalize_label
from cnl.sparql.namespaces import WD
from cnl.sparql.syntax import sparql_string

_LABEL_PREDICATES = ("rdfs:label", "skos:altLabel")
_WIKIDATA_ID = re.compile(r"^[PQ][1-9][0-9]*$")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
MAX_CANDIDATES = 50


def spellings(label: str) -> list[str]:
    """The spellings of a label a KG is asked for (SPARQL matches literals exactly)."""
    text = " ".join(label.replace("_", " ").split())
    out = [text, text.lower(), text[:1].upper() + text[1:], text.title()]
    return list(dict.fromkeys(s for s in out if s))


def short_id(iri: str) -> str:
    """``Q42`` for a Wikidata entity IRI, the IRI itself otherwise."""
    local = iri[len(WD):] if iri.startswith(WD) else None
    return local if local and _WIKIDATA_ID.match(local) else iri


def _is_property(ident: str) -> bool:
    return bool(re.match(r"^P[0-9]+$", ident))


class KGLabels:
    """Resolves labels through ``kg`` (any :class:`cnl.kg.KnowledgeGraph`), after ``lexicon``;
    ``wikidata``: properties also by Wikidata's shipped names. Answers are remembered."""

    def __init__(self, kg, *, lexicon=None, wikidata: bool = True) -> None:
        self.kg = kg
        self.lexicon = lexicon
        self.wikidata = wikidata
        self._found: dict[tuple[str, str], Lexicon] = {}
        self._local_names: dict[str, list[str]] | None = None
        self._names: dict[str, str | None] = {}

    # -- the rule ------------------------------------------------------------------------
    def resolve(self, label, kind: str = "entity", span=None) -> str:
        position = span[0] if span else None
        if self.lexicon is not None:
            try:
                return self.lexicon.resolve(label, kind, span)
            except LexiconError as err:
                if err.candidates:  # ambiguous in the user's own lexicon: theirs to settle
                    raise
        group = "property" if kind == "property" else "item"
        found = self._lookup(label, group)
        if group == "property" and not found.lookup(label, "property"):
            found = self._property_fallbacks(label)
        if found.lookup(label, "property" if group == "property" else "entity"):
            try:
                return found.resolve(label, kind, span)
            except LexiconError as err:  # ambiguous: say how to pick one
                raise LexiconError(
                    f"ambiguous {kind} label {label!r}: several items of the knowledge graph have it; write the one "
                    f"you mean by ID ({self._example(err.candidates, label)}) or use a more specific label",
                    label=label, kind=kind, position=position, candidates=err.candidates) from None
        raise LexiconError(f"no {'property' if group == 'property' else 'item'} labelled {label!r} in the "
                           f"knowledge graph{' or the lexicon' if self.lexicon is not None else ''}",
                           label=label, kind=kind, position=position, suggestions=self.closest(label, group))

    def name(self, ident: str) -> str | None:
        """The label the lexicon or the KG gives an ID (the compiler names columns with it)."""
        if self.lexicon is not None and callable(getattr(self.lexicon, "name", None)) and self.lexicon.name(ident):
            return self.lexicon.name(ident)
        if ident not in self._names:
            iri = WD + ident if _WIKIDATA_ID.match(ident) else ident
            try:
                self._names[ident] = self.kg.labels([iri]).get(iri)
            except CNLError:
                self._names[ident] = None
        return self._names[ident]

    @staticmethod
    def _example(candidates, label: str) -> str:
        first = (candidates[0].split(" ", 1)[0] if candidates else "Q…")
        return f"<{first}:{label}>" if _WIKIDATA_ID.match(first) else f"<{first}>"

    # -- lookups -------------------------------------------------------------------------
    def _lookup(self, label: str, group: str) -> Lexicon:
        """The KG's items (or properties) having ``label`` as a label or an alias, as a small
        lexicon (primary flags and descriptions kept)."""
        key = (group, normalize_label(label))
        if key in self._found:
            return self._found[key]
        literals = " ".join(f"{sparql_string(s)}@en {sparql_string(s)}" for s in spellings(label))
        declared = "?e wikibase:propertyType ?type ." if group == "property" and self.wikidata else ""
        sparql = (f"SELECT DISTINCT ?e ?primary ?d WHERE {{ VALUES ?l {{ {literals} }} "
                  f"{{ ?e rdfs:label ?l BIND(true AS ?primary) }} UNION {{ ?e skos:altLabel ?l BIND(false AS ?primary) }} "
                  f"{declared} OPTIONAL {{ ?e schema:description ?d FILTER(LANGMATCHES(LANG(?d), \"en\")) }} "
                  f"}} LIMIT {MAX_CANDIDATES}")
        lexicon = Lexicon()
        try:
            rows = self.kg.select(sparql).rows
        except CNLError:
            rows = []
        for entity, primary, description in rows:
            if not entity.is_iri:
                continue
            ident = short_id(entity.value)
            if (group == "property") != _is_property(ident) and _WIKIDATA_ID.match(ident):
                continue  # a Wikidata property is no item, and an item no property
            lexicon.add(label, ident, kind="property" if group == "property" else "entity",
                        primary=primary.value == "true", description=description.value if description else None)
        self._found[key] = lexicon
        return lexicon

    def _property_fallbacks(self, label: str) -> Lexicon:
        """Wikidata's shipped property names (Wikidata profiles), else predicates of the KG whose
        local name reads as the label."""
        lexicon = Lexicon()
        if self.wikidata:
            shipped = wikidata_property_lexicon()
            if shipped.lookup(label, "property"):
                return shipped
            return lexicon
        for iri in self.local_names().get(normalize_label(label), ()):
            lexicon.add(label, iri, kind="property")
        return lexicon

    def local_names(self) -> dict[str, list[str]]:
        """Normalized local name (``birthPlace`` → ``birth place``) → predicate IRIs of the KG."""
        if self._local_names is None:
            self._local_names = {}
            try:
                rows = self.kg.select("SELECT DISTINCT ?p WHERE { ?s ?p ?o } LIMIT 10000").rows
            except CNLError:
                rows = []
            for (predicate,) in rows:
                local = re.split(r"[/#]", predicate.value.rstrip("/#"))[-1]
                name = normalize_label(_CAMEL.sub(" ", local).replace("-", " "))
                if name:
                    self._local_names.setdefault(name, []).append(predicate.value)
        return self._local_names

    def closest(self, label: str, group: str, limit: int = 3) -> tuple[str, ...]:
        """Labels of the KG close to ``label`` (sharing its longest word), best first."""
        from rapidfuzz import fuzz, process

        words = sorted((w for w in re.findall(r"\w+", label.lower()) if len(w) >= 3), key=len, reverse=True)
        names: set[str] = set()
        if self.lexicon is not None and hasattr(self.lexicon, "closest"):
            names.update(self.lexicon.closest(label, "property" if group == "property" else "entity", limit))
        if group == "property" and self.wikidata:
            names.update(wikidata_property_lexicon().closest(label, "property", limit))
        for word in words[:2]:
            sparql = (f"SELECT DISTINCT ?l WHERE {{ ?e rdfs:label ?l "
                      f"FILTER(CONTAINS(LCASE(STR(?l)), {sparql_string(word)})) }} LIMIT 200")
            try:
                names.update(row[0].value for row in self.kg.select(sparql).rows)
            except CNLError:
                break
        if not names:
            return ()
        found = process.extract(label, sorted(names), scorer=fuzz.WRatio, limit=limit, score_cutoff=60)
        return tuple(name for name, _score, _ in found)


_SHIPPED: list = []


def wikidata_property_lexicon() -> Lexicon:
    """Wikidata's property labels (primary) and aliases, from the list shipped with the package."""
    if not _SHIPPED:
        from cnl.sparql.wikidata_properties import wikidata_properties

        lexicon = Lexicon()
        for prop in wikidata_properties():
            lexicon.add(prop.label, prop.id, kind="property", description=prop.description or None)
            for alias in prop.aliases:
                lexicon.add(alias, prop.id, kind="property", primary=False)
        _SHIPPED.append(lexicon)
    return _SHIPPED[0]


def is_wikidata_profile(profile) -> bool:
    """Whether a compiler profile (a name, a file or an instance) reads Wikidata's model."""
    from cnl.sparql.profiles import WikidataProfile, get_profile

    try:
        return isinstance(get_profile(profile), WikidataProfile)
    except CNLError:
        return False


@contextmanager
def labels_through(*, store=None, endpoint=None, kg=None, lexicon=None, profile="wikidata", timeout: float = 30.0):
    """A :class:`KGLabels` over a store folder (opened read-only in this process: the lookups
    are our own fixed queries), an endpoint URL, or an open ``kg``; closed on leaving (an open
    ``kg`` stays open)."""
    wikidata = is_wikidata_profile(profile)
    if kg is not None:
        yield KGLabels(kg, lexicon=lexicon, wikidata=wikidata)
        return
    if store is not None:
        from cnl.kg.embedded import EmbeddedKG

        opened = EmbeddedKG(store, read_only=True, isolate=False, timeout=None)
    else:
        from cnl.kg import open_kg

        opened = open_kg(endpoint=endpoint, timeout=timeout)
    with opened:
        yield KGLabels(opened, lexicon=lexicon, wikidata=wikidata)


__all__ = ["KGLabels", "labels_through", "spellings", "wikidata_property_lexicon", "is_wikidata_profile"]
