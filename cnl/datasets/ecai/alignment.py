"""Align the labels of a SQUALL string with the IDs of its gold SPARQL query.

The SQUALL is compiled with placeholder IDs (one per distinct label), both queries are read
into triple patterns, and a backtracking search finds the mapping placeholder -> gold ID that
makes the most compiled triples match gold triples (variables map freely). Labels the gold
does not mention fall back to the prompt's entity candidates with the same label. This is
how the paper's EntityMap (label -> QID) is built from the data itself.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from rdflib import BNode, Literal, URIRef, Variable
from rdflib.plugins.sparql.parser import parseQuery
from rdflib.plugins.sparql.algebra import translateQuery

from cnl.sparql.namespaces import PREFIXES, declare_missing
from cnl.datasets.ecai.preset import ECAI_PROFILE
from cnl.sparql.compiler import SparqlCompiler
from cnl.errors import CNLError
from cnl import ir

WD = PREFIXES["wd"]
_PRED_NS = {PREFIXES[k]: k for k in ("p", "ps", "pq", "wdt")}
_PLACEHOLDER_BASE = 99990000
_ID_NUM = re.compile(r"([PQ])(\d+)$")



@dataclass(frozen=True)
class Alignment:
    """label (by kind) -> ID for one record; ``unmatched`` lists labels found nowhere."""

    mapping: dict
    unmatched: tuple
    source: dict  # (kind, label) -> "gold" | "candidates"


class _Placeholders:
    """A resolver that hands out one fake ID per distinct (kind, label); properties listed in
    ``inverse`` get an inverse ID (``^P…``), for labels like "member" (= ^P463 "member of")."""

    def __init__(self, inverse=frozenset()):
        self.ids: dict[tuple[str, str], str] = {}
        self.back: dict[str, tuple[str, str]] = {}
        self.inverse = inverse

    def resolve(self, label, kind, span=None):
        key = (kind, label)
        if key not in self.ids:
            prefix = "P" if kind == "property" else "Q"
            ident = f"{prefix}{_PLACEHOLDER_BASE + len(self.ids) + 1}"
            self.ids[key] = ident
            self.back[ident] = key
        ident = self.ids[key]
        return "^" + ident if key in self.inverse else ident


def query_triples(sparql: str) -> list[tuple]:
    """All triple patterns of a query (in BGPs at any depth, including FILTER EXISTS)."""
    algebra = translateQuery(parseQuery(declare_missing(sparql))).algebra
    found: list[tuple] = []
    seen: set[int] = set()

    def walk(node):
        if id(node) in seen:
            return
        seen.add(id(node))
        if hasattr(node, "name") and node.name == "BGP":
            found.extend(tuple(t) for t in node.get("triples", []))
        if isinstance(node, dict):
            for value in node.values():
                walk(value)
        elif isinstance(node, (list, tuple)):
            for value in node:
                walk(value)

    walk(algebra)
    return found


def _ident(term) -> tuple[str, str] | None:
    """(namespace key, ID) of a Wikidata entity or property IRI."""
    if not isinstance(term, URIRef):
        return None
    text = str(term)
    if text.startswith(WD):
        return ("wd", text[len(WD):])
    for ns, key in _PRED_NS.items():
        if text.startswith(ns):
            return (key, text[len(ns):])
    return None


def _is_var(term) -> bool:
    return isinstance(term, (Variable, BNode))


def _match(c, g, mapping: dict, placeholders: set[str]):
    """Extend ``mapping`` so compiled term ``c`` matches gold term ``g``; None if it cannot."""
    if _is_var(c):
        bound = mapping.get(("var", c))
        if bound is None:
            new = dict(mapping)
            new[("var", c)] = g
            return new
        return mapping if bound == g else None
    ci = _ident(c)
    if ci is not None and ci[1] in placeholders:
        gi = _ident(g)
        if gi is None or gi[0] != ci[0] or _ID_NUM.match(gi[1]) is None or gi[1][0] != ci[1][0]:
            return None
        bound = mapping.get(("id", ci[1]))
        if bound is None:
            new = dict(mapping)
            new[("id", ci[1])] = gi[1]
            return new
        return mapping if bound == gi[1] else None
    if isinstance(c, Literal) and isinstance(g, Literal):
        return mapping if str(c) == str(g) else None
    return mapping if c == g else None


def _order_key(triple) -> tuple:
    """A sort key that ignores variable and blank-node names: rdflib names blank nodes at
    random, and the alignment must not depend on that order (nor on the hash seed)."""
    return tuple(("", "") if _is_var(t) else (type(t).__name__, str(t)) for t in triple)


def _words(label: str) -> set:
    return set(label.replace("_", " ").casefold().split())


def _best_mappings(compiled: list[tuple], gold: list[tuple], placeholders: set[str]) -> list[dict]:
    """Every mapping that matches the most compiled triples to gold triples. Two placeholders
    never take the same gold ID: two labels of one query name two things."""
    best = {"score": -1, "mappings": []}
    order = sorted(compiled, key=lambda t: (-sum(1 for x in t if not _is_var(x)), _order_key(t)))
    gold = sorted(gold, key=_order_key)

    def injective(mapping):
        ids = [v for k, v in mapping.items() if k[0] == "id"]
        return len(ids) == len(set(ids))

    def search(i, mapping, score):
        if score + (len(order) - i) < best["score"]:
            return
        if i == len(order):
            if score > best["score"]:
                best["score"], best["mappings"] = score, []
            if mapping not in best["mappings"]:
                best["mappings"].append(mapping)
            return
        c = order[i]
        for g in gold:
            m = mapping
            for ct, gt in zip(c, g):
                m = _match(ct, gt, m, placeholders)
                if m is None:
                    break
            if m is not None and injective(m):
                search(i + 1, m, score + 1)
        search(i + 1, mapping, score)  # leave this triple unmatched

    search(0, {}, 0)
    return best["mappings"]


def _gold_mapping(query, gold_sparql, inverse=frozenset(), candidates=()):
    holders = _Placeholders(inverse)
    compiled = SparqlCompiler(ECAI_PROFILE, holders).compile(query)
    mapping: dict[tuple[str, str], str] = {}
    if gold_sparql:
        try:
            gold = query_triples(gold_sparql)
            found_all = _best_mappings(query_triples(compiled), gold, set(holders.back))
        except Exception:  # an unparseable gold query aligns nothing
            found_all = []
        # Ties (e.g. two entities of the same property) go to the mapping whose IDs' EL
        # candidates share most words with the labels, then to the first in a fixed order.
        cand_words: dict[str, set] = {}
        for cand in candidates:
            cand_words.setdefault(cand.id, set()).update(_words(cand.label))

        def ids_only(found):
            return {holders.back[ident]: gold_id for (kind, ident), gold_id in found.items() if kind == "id"}

        def rank(found):
            ids = ids_only(found)
            # shared words between a label and the candidates' labels of the ID it takes
            agree = sum(len(_words(label) & cand_words.get(gid, set())) for (_, label), gid in ids.items())
            return -agree, repr(sorted(ids.items()))

        found = min(found_all, key=rank, default={})
        for key, gold_id in ids_only(found).items():
            mapping[key] = ("^" + gold_id) if key in inverse else gold_id
    return holders, mapping


def align(query: ir.Query, gold_sparql: str, candidates=()) -> Alignment:
    """Map every label of ``query`` to an ID, from the gold query first, then the candidates."""
    holders, mapping = _gold_mapping(query, gold_sparql, candidates=candidates)
    qualifiers = {("property", n.prop.label) for n in ir.walk(query) if isinstance(n, (ir.Qual, ir.QualifierOf))}
    unmatched_props = frozenset(k for k in holders.ids if k[0] == "property" and k not in mapping
                                and k not in qualifiers)
    if unmatched_props and gold_sparql:
        # A property label may name the inverse of the gold's property ("member" / P463).
        holders2, mapping2 = _gold_mapping(query, gold_sparql, unmatched_props, candidates)
        if len(mapping2) > len(mapping):
            holders, mapping = holders2, mapping2
    source = {key: "gold" for key in mapping}
    by_label = {}
    for cand in candidates:
        by_label.setdefault(cand.label.casefold(), cand.id)
    for key in holders.ids:
        if key in mapping:
            continue
        kind, label = key
        if kind != "property" and label.casefold() in by_label:
            mapping[key] = by_label[label.casefold()]
            source[key] = "candidates"
    unmatched = tuple(k for k in holders.ids if k not in mapping)
    return Alignment(mapping, unmatched, source)


class MappingResolver:
    """A resolver over an alignment's mapping (kind, label) -> ID."""

    def __init__(self, mapping: dict):
        self.mapping = mapping

    def resolve(self, label, kind, span=None):
        try:
            return self.mapping[(kind, label)]
        except KeyError:
            from cnl.errors import LexiconError

            raise LexiconError(f"unknown {kind} label {label!r}", label=label, kind=kind,
                               position=span[0] if span else None) from None


__all__ = ["Alignment", "align", "query_triples", "MappingResolver", "CNLError"]
