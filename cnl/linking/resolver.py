"""Resolving labels through several label -> ID tables in order (a predicted CNL's labels:
the question's own terms, its entity candidates, wider tables)."""
from __future__ import annotations

import re

from cnl.errors import CNLError, LexiconError
from cnl.linking.lexicon import normalize_label


class ChainResolver:
    """Resolve a label through several sources in order: (kind, normalized label) -> ID maps,
    or resolvers (a Lexicon, an :class:`IndexResolver`) that raise LexiconError when they do not
    know a label. With ``cross_kinds`` an entity label may also be found as a class and vice
    versa (a model mixes them up), after every source was asked under the label's own kind."""

    def __init__(self, *maps, cross_kinds: bool = True):
        self.maps = maps
        self.cross_kinds = cross_kinds

    @staticmethod
    def key(kind: str, label: str) -> tuple:
        return kind, normalize_label(label)

    @classmethod
    def table(cls, pairs) -> dict:
        """A map for the chain from (kind, label, ID) triples; the first ID of a key wins."""
        out: dict = {}
        for kind, label, ident in pairs:
            if label:
                out.setdefault(cls.key(kind, label), ident)
        return out

    def resolve(self, label, kind, span=None):
        key = normalize_label(label)
        other = {"entity": "class", "class": "entity"}.get(kind) if self.cross_kinds else None
        for wanted in (kind, other) if other else (kind,):
            for source in self.maps:
                if isinstance(source, dict):
                    if (wanted, key) in source:
                        return source[(wanted, key)]
                    continue
                try:
                    return source.resolve(label, wanted, span)
                except LexiconError:
                    continue
        raise LexiconError(f"unknown {kind} label {label!r}", label=label, kind=kind,
                           position=span[0] if span else None)


class IndexResolver:
    """Entity and class labels by exact (normalized) name in a KG's entity index: the label
    first, then aliases, the most used entity of a name first."""

    def __init__(self, index):
        self.index = index

    def resolve(self, label, kind, span=None):
        if kind in ("entity", "class"):
            found = self.index.lookup(label)
            if found is not None:
                return found.id
        raise LexiconError(f"no {kind} named {label!r} in the knowledge graph", label=label, kind=kind,
                           position=span[0] if span else None)


def property_table() -> dict:
    """(property, normalized label or alias) -> PID for Wikidata's properties (the shipped list).
    A property's own label beats another's alias: "height" is P2048's label and an alias of
    P2044 (elevation above sea level), "developer" P178's and an alias of P61 (discoverer or
    inventor), "member of" P463's and an alias of P31; among aliases the first property wins."""
    from cnl.sparql.wikidata_properties import wikidata_properties

    properties = wikidata_properties()
    labels = [("property", prop.label, prop.id) for prop in properties if prop.label]
    aliases = [("property", alias, prop.id) for prop in properties for alias in prop.aliases]
    # last, the forms writers use for a label no property has: "part(s)" for "has part(s)" (as
    # Sparklis shows it), and the noun of an "X of" label for its inverse ("a <member> of Y":
    # what Y has as a member, i.e. ^P463 "member of")
    shorter = [("property", prop.label[len("has "):], prop.id) for prop in properties
               if prop.label.lower().startswith("has ")]
    shorter += [("property", prop.label[:-len(" of")], "^" + prop.id) for prop in properties
                if prop.label.lower().endswith(" of") and prop.datatype == "WikibaseItem"]
    return ChainResolver.table(labels + aliases + shorter)


class KGLabelResolver:
    """Entity and class labels by exact English ``rdfs:label`` (then ``skos:altLabel``) in any
    KG, an endpoint included: one query per label, remembered."""

    def __init__(self, kg):
        self.kg = kg
        self._found: dict = {}

    def resolve(self, label, kind, span=None):
        if kind in ("entity", "class"):
            if label not in self._found:
                self._found[label] = self._lookup(label)
            if self._found[label] is not None:
                return self._found[label]
        raise LexiconError(f"no {kind} named {label!r} in the knowledge graph", label=label, kind=kind,
                           position=span[0] if span else None)

    def _lookup(self, label: str):
        from cnl.linking.entity_index import short_id
        from cnl.sparql.namespaces import RDFS_LABEL, SKOS_ALT_LABEL

        literal = '"' + label.replace("\\", "\\\\").replace('"', '\\"') + '"@en'
        for predicate in (RDFS_LABEL, SKOS_ALT_LABEL):
            try:
                rows = self.kg.select(f"SELECT ?e WHERE {{ ?e <{predicate}> {literal} }} LIMIT 5").rows
            except CNLError:
                return None
            ids = sorted((short_id(getattr(e, "value", str(e))) for (e,) in rows), key=_item_order)
            if ids:
                return ids[0]
        return None


def _item_order(ident: str):
    """Wikidata items first, the oldest (smallest number) first: usually the most known."""
    return (0, int(ident[1:])) if ident[:1] == "Q" and ident[1:].isdigit() else (1, 0)


def pin_terms(text: str, meant, here) -> str:
    """``text`` with each label that resolver ``here`` does not resolve to the ID resolver
    ``meant`` gives written with that ID (``[Paris]`` -> ``<Q90:Paris>``), so that ``text`` means
    under ``here`` what it meant under ``meant``: the parser resolves a label through the
    question's candidates first, a person's command (``run --store``, the playground's editor)
    through the KG's names, where "Paris" or "Avatar" names several items."""
    from cnl.dialects.notation import escape
    from cnl.dialects.squall.completion import terms_in

    out, last = [], 0
    for term in terms_in(text):
        if term.id or not term.label:
            continue
        try:
            wanted = meant.resolve(term.label, term.kind)
        except CNLError:
            continue
        try:
            found = here.resolve(term.label, term.kind) if here is not None else None
        except CNLError:
            found = None
        if wanted and found != wanted and re.match(r"^[PQ][0-9]+$", wanted):
            out += [text[last:term.start], f"<{wanted}:{escape(term.label, '>')}>"]
            last = term.end
    return "".join(out) + text[last:]
