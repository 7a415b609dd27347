"""How a group's patterns join the tree the :class:`~cnl.sparql.decompile.build.Builder` builds:
a ``FILTER EXISTS`` joined to the group as statements, a ``FILTER NOT EXISTS`` read as a qualifier
a statement must not have (``at no <Q>``), whether an EXISTS join repeats no answer, the variables
reached from an anchor through triple patterns and the parts joined to it only through a constant."""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from rdflib import Literal, URIRef, Variable
from rdflib.plugins.sparql.algebra import translateGroupGraphPattern

from cnl.sparql.decompile.expressions import variables
from cnl.sparql.decompile.flatten import Group, flatten
from cnl.sparql.decompile.fold import namespace_of
from cnl.sparql.decompile.terms import is_node, same
from cnl.sparql.namespaces import PQ, P


@dataclass
class Absent:
    """A qualifier the statement must not have: ``FILTER NOT EXISTS { ?st pq:Q ?v . rest }``."""

    var: object
    rest: Group
    scope: set = field(default_factory=set)


def _exists_pattern(expr, name: str) -> Group | None:
    """The flattened pattern of a ``FILTER EXISTS``/``NOT EXISTS`` (``name`` is rdflib's
    ``Builtin_EXISTS`` or ``Builtin_NOTEXISTS``), or None when ``expr`` is another filter."""
    if getattr(expr, "name", None) != name:
        return None
    graph = expr.graph
    if graph.name.startswith("GroupGraph"):
        graph = translateGroupGraphPattern(graph)
    return flatten(graph)


def absent_qualifiers(group: Group):
    """(the group without them, {statement node: [(PID, Absent)]}) for each ``FILTER NOT EXISTS``
    that only says a statement node of the group has no qualifier ``pq:Q`` (with a value that
    the rest of the NOT EXISTS may describe): ``at no <Q>``, said of that statement."""
    heads = {o for s, p, o in group.triples if isinstance(p, URIRef) and namespace_of(p) == P and is_node(o)}
    if not heads:
        return group, {}
    outer = {t for s, _, o in group.triples for t in (s, o) if is_node(t)}
    found, left = {}, []
    for expr in group.filters:
        missing = None
        inner = _exists_pattern(expr, "Builtin_NOTEXISTS")
        if inner is not None:
            if not (inner.optionals or inner.unions or inner.minus or inner.values or inner.binds):
                # the qualifier's value a variable of its own, or a constant ("at no <Q> that is X")
                qual = [t for t in inner.triples if t[0] in heads and isinstance(t[1], URIRef)
                        and namespace_of(t[1]) == PQ and t[2] not in outer
                        # a named value ("at no <Q> that is <Q76>"); a literal would be compared
                        # by value (FILTER(?v = "1")), another test than the triple's
                        and (is_node(t[2]) or (isinstance(t[2], URIRef) and len(inner.triples) == 1
                                                and not inner.filters))]
                if len(qual) == 1:
                    st, pred, value = qual[0]
                    rest = [t for t in inner.triples if t is not qual[0]]
                    if all(st not in (t[0], t[2]) for t in rest) and st not in variables(inner.filters) \
                            and re.fullmatch(r"P[1-9][0-9]*", str(pred)[len(PQ):]):
                        missing = st, str(pred)[len(PQ):], Absent(value, Group(triples=rest, filters=inner.filters))
        if missing is None:
            left.append(expr)
        else:
            found.setdefault(missing[0], []).append(missing[1:])
    return (replace(group, filters=left) if found else group), found


def exists_joined(group: Group) -> Group:
    """The top group's ``FILTER EXISTS { triples }`` joined to it: what it tests hangs on the
    tree like any statement (a qualifier of a statement node: ``at a <P582>``)."""
    left, triples, filters = [], [], []
    for expr in group.filters:
        inner = _exists_pattern(expr, "Builtin_EXISTS")
        if inner is not None and inner.triples and not (
                inner.optionals or inner.unions or inner.minus or inner.values or inner.binds
                or inner.counts or inner.ranked or any(getattr(f, "name", "").endswith("EXISTS") for f in inner.filters)):
            # its FILTERs too (FILTER EXISTS { ?st pq:P580 ?d FILTER(YEAR(?d) > 2000) }): in one
            # group they test the same solutions
            triples += inner.triples
            filters += inner.filters
        else:
            left.append(expr)
    return replace(group, filters=left + filters, triples=group.triples + triples) if triples else group


def is_ground(tested: list, triples: list) -> bool:
    """Whether the triples an EXISTS tests name only variables the group's own triples bind (and
    no property path): each solution matches them once or not at all (a graph is a set of
    triples), so the join repeats no answer, duplicates kept or not (``FILTER EXISTS { ?st
    pq:P1686 wd:Q1 }`` on the statement node ``?st``: "at <P1686> <Q1>")."""
    bound = {t for triple in triples for t in triple if isinstance(t, Variable)}
    return all(isinstance(p, URIRef) for _, p, _ in tested) and all(
        t in bound for triple in tested for t in (triple[0], triple[2]) if not isinstance(t, (URIRef, Literal)))


def _joined_ends(e, anchor) -> set:
    """The values an edge joins: its variables (subject, value, unit, qualifier values) and the
    anchor where it is one of them."""
    return {t for t in (e.subject, e.obj, e.unit, *(v for _, v in e.quals)) if is_node(t) or same(t, anchor)}


def reachable(edges, anchor, scope) -> set:
    """The variables joined to ``anchor`` through triple patterns."""
    reached = {anchor} | set(scope)
    changed = True
    while changed:
        changed = False
        for e in edges:
            ends = _joined_ends(e, anchor)
            if ends & reached and not ends <= reached:
                reached |= ends
                changed = True
    return reached


def nearest(edges, anchor, candidates):
    """The one of ``candidates`` the fewest triple patterns away from ``anchor`` (ties: the
    first in the variables' order), or None where the patterns join none of them to it."""
    frontier, seen = {anchor}, {anchor}
    while frontier:
        hits = sorted((v for v in frontier if v in candidates), key=str)
        if hits:
            return hits[0]
        step = set()
        for e in edges:
            ends = _joined_ends(e, anchor)
            if ends & frontier:
                step |= ends - seen
        seen |= step
        frontier = step
    return None


def constant_components(edges, anchor, scope) -> dict:
    """Edges not reachable from ``anchor`` through variables, grouped into connected parts,
    each keyed by a constant it shares with the reachable part (``wd:Q1 p:P31 wd:Q5 .
    wd:Q1 p:P527 ?x``: the first triple is a condition on wd:Q1). Parts sharing none are left
    out (a real cross product)."""
    def key(t):
        return (type(t), t)

    def node_ends(e):
        return [key(t) for t in (e.subject, e.obj, *(v for _, v in e.quals)) if is_node(t) or same(t, anchor)]

    reached = {key(anchor)} | {key(n) for n in scope}
    main, changed = set(), True
    while changed:
        changed = False
        for e in edges:
            if id(e) not in main and any(k in reached for k in node_ends(e)):
                main.add(id(e))
                reached |= set(node_ends(e))
                changed = True
    constants = {t for e in edges if id(e) in main for t in (e.subject, e.obj) if isinstance(t, URIRef)}
    if isinstance(anchor, URIRef):
        constants.add(anchor)
    parts: list = []   # [(node keys, edges)]
    for e in edges:
        if id(e) in main:
            continue
        ends = set(node_ends(e))
        joined = [p for p in parts if p[0] & ends]
        merged = (ends.union(*(p[0] for p in joined)), [x for p in joined for x in p[1]] + [e])
        parts = [p for p in parts if all(p is not j for j in joined)] + [merged]
    out: dict = {}
    for _, part in parts:
        shared = [t for e in part for t in (e.subject, e.obj) if isinstance(t, URIRef) and t in constants]
        if shared:
            out.setdefault(shared[0], []).extend(part)
    return out
