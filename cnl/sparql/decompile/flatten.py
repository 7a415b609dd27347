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
    counts: list = field(default_factory=list)  # CountQuery: counting sub-queries joined here
    ranked: list = field(default_factory=list)  # RankedQuery: superlatives' sub-queries joined here
    bests: list = field(default_factory=list)  # BestQuery: "the joint highest"'s sub-queries (ties)


@dataclass
class RankedQuery:
    """``{ SELECT ?v WHERE { P } ORDER BY DESC(?k) LIMIT 1 }``: a superlative that ranks its own
    noun phrase (in a yes/no question)."""

    var: object
    inner: "Group"
    orders: list      # (key variable, descending)
    limit: int | None
    offset: int | None


@dataclass
class BestQuery:
    """``{ SELECT (MAX(?v) AS ?best) WHERE { P } }``: the best value of the query's own pattern
    again, which a FILTER or HAVING compares with (``joint highest``: every answer that ties)."""

    alias: object     # ?best
    op: str           # "max" or "min" (also "avg", "sum": a value compared, not a best)
    value: object     # ?v
    inner: "Group"    # P (its counting sub-query, for "the joint most")


@dataclass
class CountQuery:
    """``{ SELECT ?k (COUNT(DISTINCT ?v) AS ?n) WHERE { P } GROUP BY ?k }``: the counting
    sub-query of a numeric determiner ("that has at least 3 <P166>"), FILTER'd on ?n."""

    counted: object   # ?v
    alias: object     # ?n
    distinct: bool
    keys: list        # ?k: the variables it shares with the query
    inner: "Group"    # P


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
    elif name in ("Slice", "Project") and _ranked_query(node) is not None:
        group.ranked.append(_ranked_query(node))
    elif name == "Project" and _count_query(node) is not None:
        group.counts.append(_count_query(node))
    elif name == "Project" and _best_query(node) is not None:
        group.bests.append(_best_query(node))
    elif name in ("Project", "Slice", "Distinct", "Reduced", "OrderBy", "Group", "AggregateJoin"):
        raise UnsupportedSPARQLError("a sub-query (nested SELECT)")
    elif name == "Graph":
        raise UnsupportedSPARQLError("GRAPH")
    else:
        raise UnsupportedSPARQLError(f"the pattern {name}")


def _ranked_query(node):
    """The RankedQuery of ``[Slice] Project(one variable) OrderBy(variables) pattern``, else None."""
    limit = offset = None
    if node.name == "Slice":
        offset, limit, node = node.start or None, node.length, node.p
    if getattr(node, "name", None) != "Project" or len(node.PV) != 1 or getattr(node.p, "name", None) != "OrderBy":
        return None
    orders = []
    for condition in node.p.expr:
        key = condition.expr if getattr(condition, "name", None) == "OrderCondition" else condition
        if not isinstance(key, Variable):
            return None
        orders.append((key, getattr(condition, "order", None) == "DESC"))
    return RankedQuery(node.PV[0], flatten(node.p.p), orders, limit, offset)


def _count_query(node):
    """The CountQuery of a sub-SELECT shaped as the compiler writes a numeric determiner's
    count (keys, one COUNT of a variable, GROUP BY the keys), else None."""
    aliases, inner = {}, node.p
    while getattr(inner, "name", None) == "Extend":
        aliases[inner.expr] = inner.var
        inner = inner.p
    if getattr(inner, "name", None) != "AggregateJoin":
        return None
    counts = [a for a in inner.A if a.name == "Aggregate_Count"]
    samples = [a for a in inner.A if a.name == "Aggregate_Sample"]
    if len(counts) != 1 or len(counts) + len(samples) != len(inner.A) or not isinstance(counts[0].vars, Variable):
        return None
    keys = list(inner.p.expr or [])
    alias = aliases.get(counts[0].res)
    if alias is None or set(node.PV) != set(keys) | {alias} or not all(isinstance(k, Variable) for k in keys):
        return None
    return CountQuery(counts[0].vars, alias, bool(counts[0].distinct), keys, flatten(inner.p.p))


# the aggregates a best value is (ties.tied_count reads a HAVING's the same way)
BEST_AGGREGATES = {"Aggregate_Max": "max", "Aggregate_Min": "min"}
# ... and the values a sub-query computes that a FILTER compares with ("greater than the average
# <P> of ...": ties.read_ties leaves them to the builder)
VALUE_AGGREGATES = {**BEST_AGGREGATES, "Aggregate_Avg": "avg", "Aggregate_Sum": "sum"}


def _best_query(node):
    """The BestQuery of ``Project(?best) Extend(?best = MAX(?v)) AggregateJoin`` with no GROUP BY,
    else None."""
    inner = node.p
    if len(node.PV) != 1 or getattr(inner, "name", None) != "Extend" or inner.var != node.PV[0]:
        return None
    join = inner.p
    if getattr(join, "name", None) != "AggregateJoin" or len(join.A) != 1 or join.p.expr:
        return None
    (call,) = join.A
    if call.name not in VALUE_AGGREGATES or call.distinct or not isinstance(call.vars, Variable) \
            or call.res != inner.expr:
        return None
    return BestQuery(inner.var, VALUE_AGGREGATES[call.name], call.vars, flatten(join.p.p))


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
    for count in group.counts:
        out |= set(count.keys) | {count.alias}
    for ranked in group.ranked:
        out.add(ranked.var)
    for f in group.filters:
        out |= variables(f)
    return out
