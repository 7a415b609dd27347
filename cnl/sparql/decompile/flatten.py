"""Stage: the WHERE clause's algebra -> nested groups.

rdflib's algebra nests every join; a :class:`Group` is one group graph pattern with its joins
merged: triples, FILTERs (a group's ``&&`` split again), OPTIONALs, UNIONs, MINUS, VALUES and
BINDs, the inner groups flattened the same way. ``SERVICE wikibase:label`` only adds label
columns and is dropped; anything else that CNL has no form for is refused here.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from rdflib import Variable, URIRef

from cnl.errors import UnsupportedSPARQLError
from cnl.sparql.decompile.expressions import variables
from cnl.sparql.decompile.terms import short
from cnl.sparql.namespaces import WIKIBASE

_PRESENTATION_SERVICE = URIRef(WIKIBASE + "label")


@dataclass
class Group:
    """One group graph pattern, flattened (joins merged)."""

    triples: list = field(default_factory=list)
    filters: list = field(default_factory=list)
    optionals: list = field(default_factory=list)
    unions: list = field(default_factory=list)  # list of lists of Group
    minus: list = field(default_factory=list)
    values: list = field(default_factory=list)  # (var, [terms])
    binds: list = field(default_factory=list)  # (var, expression)


def flatten(node) -> Group:
    group = Group()
    _flatten_into(node, group)
    return group


def _flatten_into(node, group: Group) -> None:
    name = getattr(node, "name", None)
    if name == "BGP":
        group.triples.extend(node.triples)
    elif name == "Join":
        _flatten_into(node.p1, group)
        _flatten_into(node.p2, group)
    elif name == "LeftJoin":
        _flatten_into(node.p1, group)
        inner = flatten(node.p2)
        if getattr(node.expr, "name", None) != "TrueFilter":
            inner.filters.append(node.expr)
        group.optionals.append(inner)
    elif name == "Filter":
        _flatten_into(node.p, group)
        # rdflib joins a group's FILTERs with &&: split them again, each may be about another variable
        stack = [node.expr]
        while stack:
            expr = stack.pop(0)
            if getattr(expr, "name", None) == "ConditionalAndExpression":
                stack[:0] = [expr.expr, *expr.other]
            else:
                group.filters.append(expr)
    elif name == "Union":
        branches, stack = [], [node]
        while stack:
            n = stack.pop()
            if getattr(n, "name", None) == "Union":
                stack += [n.p2, n.p1]
            else:
                branches.append(flatten(n))
        group.unions.append(branches)
    elif name == "Minus":
        _flatten_into(node.p1, group)
        group.minus.append(flatten(node.p2))
    elif name == "ToMultiSet":
        _flatten_into(node.p, group)
    elif name == "values":
        columns = {k for row in node.res for k in row}
        if len(columns) != 1:
            raise UnsupportedSPARQLError("VALUES over several variables")
        (var,) = columns
        group.values.append((var, [row[var] for row in node.res]))
    elif name == "Extend":
        _flatten_into(node.p, group)
        group.binds.append((node.var, node.expr))
    elif name == "ServiceGraphPattern":
        if node.term != _PRESENTATION_SERVICE:
            raise UnsupportedSPARQLError("SERVICE", short(node.term))
        # SERVICE wikibase:label only adds label columns: presentation, dropped.
    elif name in ("Project", "Slice", "Distinct", "Reduced", "OrderBy", "Group", "AggregateJoin"):
        raise UnsupportedSPARQLError("a sub-query (nested SELECT)")
    elif name == "Graph":
        raise UnsupportedSPARQLError("GRAPH")
    else:
        raise UnsupportedSPARQLError(f"the pattern {name}")


def group_vars(group: Group) -> set:
    """The variables a group and the groups inside it name (triples, VALUES, FILTERs)."""
    out = set()
    for s, _, o in group.triples:
        out |= {t for t in (s, o) if isinstance(t, Variable)}
    for sub in group.optionals + group.minus:
        out |= group_vars(sub)
    for branches in group.unions:
        for b in branches:
            out |= group_vars(b)
    out |= {v for v, _ in group.values}
    for f in group.filters:
        out |= variables(f)
    return out
