"""Stages: the query's head and solution modifiers.

:func:`read_modifiers` unwraps what rdflib's algebra puts around the WHERE clause (LIMIT and
OFFSET, DISTINCT, the SELECT list, ORDER BY, the aggregates and GROUP BY); :func:`read_columns`
tells the answer columns from a ``COUNT(DISTINCT ?x)``; :func:`read_orders` turns ORDER BY with
LIMIT/OFFSET into the IR's orderings ("highest", "3rd to 5th lowest", "the most").
"""
from __future__ import annotations

from rdflib import Variable
from rdflib.plugins.sparql.parserutils import CompValue

from cnl import ir
from cnl.errors import UnsupportedSPARQLError
from cnl.sparql.decompile.expressions import variables
from cnl.sparql.decompile.state import Decompilation


def read_modifiers(state: Decompilation) -> None:
    node = state.algebra.p
    having = []
    while isinstance(node, CompValue):
        if node.name == "Slice":
            state.offset, state.limit = node.start or None, node.length
        elif node.name in ("Distinct", "Reduced"):
            pass
        elif node.name == "Project":
            state.projected = list(node.PV)
        elif node.name == "OrderBy":
            state.order_conditions = node.expr
        elif node.name == "Extend" and _is_aggregate(node.expr):
            state.aggregates[node.var] = node.expr
        elif node.name == "Filter" and any(_is_aggregate(v) for v in variables(node.expr)):
            having.append(node.expr)
        elif node.name == "AggregateJoin":
            state.aggregate_calls = {a.res: a for a in node.A}
            group = node.p
            state.group_keys = list(group.expr or [])
            node = group.p
            break
        else:
            break
        node = node.p
    state.pattern = node
    if having:
        raise UnsupportedSPARQLError("HAVING")


def _is_aggregate(term) -> bool:
    """rdflib's variable for an aggregate (``__agg_1``)."""
    return str(term).startswith("__agg_") or (isinstance(term, Variable) and str(term).startswith("__agg"))


def read_columns(state: Decompilation) -> None:
    if state.form != "SelectQuery":
        return
    for v in state.projected or state.algebra.PV:
        call = state.aggregate_calls.get(state.aggregates.get(v))
        if call is not None and call.name == "Aggregate_Sample" and call.vars == v:
            state.select_vars.append(v)  # a projected GROUP BY key
        elif v in state.aggregates:
            if call is None or call.name != "Aggregate_Count":
                raise UnsupportedSPARQLError(f"the aggregate {call.name[len('Aggregate_'):].upper() if call else '?'}")
            if state.counted is not None or not isinstance(call.vars, Variable):
                raise UnsupportedSPARQLError("COUNT(*) or several counts")
            if not call.distinct:
                # "how many" counts distinct things; COUNT(?x) also counts repeats
                raise UnsupportedSPARQLError("COUNT without DISTINCT", f"COUNT({call.vars.n3()})")
            if call.vars == v:
                raise UnsupportedSPARQLError("COUNT(?x) AS ?x (the count named as the counted variable)")
            state.counted, state.count_alias = call.vars, v
        else:
            state.select_vars.append(v)
    if state.group_keys is not None:
        if state.counted is None:
            raise UnsupportedSPARQLError("GROUP BY without COUNT")
        if set(state.group_keys) != set(state.select_vars):
            raise UnsupportedSPARQLError("GROUP BY keys other than the projected variables")


def read_orders(state: Decompilation) -> None:
    for i, condition in enumerate(state.order_conditions or []):
        key, word = _order_key(state, condition, first=i == 0)
        # LIMIT and OFFSET belong to the first key
        order = _limited(state, word) if i == 0 else ir.Order(word, limit=False)
        if key in state.orders:
            raise UnsupportedSPARQLError("ORDER BY the same variable twice")
        if key not in variables(state.pattern) and key not in state.aggregates and key not in state.select_vars:
            # e.g. ORDER BY ?P585 where the pattern binds ?P585_17: no order, only the LIMIT
            raise UnsupportedSPARQLError("ORDER BY a variable the query never binds", key.n3())
        state.orders[key] = order
    if state.counted_order is not None:
        if not state.select_vars:
            raise UnsupportedSPARQLError("ORDER BY a count without grouping")
        state.counted = None  # the groups are the answers, ranked by their count


def _order_key(state: Decompilation, condition, first: bool):
    """(the variable ordered by, its superlative)."""
    key = condition.expr if isinstance(condition, CompValue) and condition.name == "OrderCondition" else condition
    desc = isinstance(condition, CompValue) and getattr(condition, "order", None) == "DESC"
    if not isinstance(key, Variable):
        raise UnsupportedSPARQLError("ORDER BY an expression")
    if key in state.aggregates and key == state.count_alias and first:
        # ORDER BY DESC(?count) over groups: "the most <C>" on the counted variable.
        state.counted_order = state.counted
        return state.counted, "most" if desc else "least"
    if key in state.aggregates:
        raise UnsupportedSPARQLError("ORDER BY an aggregate other than the count")
    return key, "highest" if desc else "lowest"


def _limited(state: Decompilation, word: str) -> ir.Order:
    limit, offset = state.limit, state.offset
    if limit is None:
        if offset:
            raise UnsupportedSPARQLError("OFFSET without LIMIT")
        return ir.Order(word, limit=False)
    if offset:
        return ir.Order(word, rank=offset + 1, to_rank=offset + limit) if limit > 1 else ir.Order(word, rank=offset + 1)
    if limit > 1:
        return ir.Order(word, count=limit)
    return ir.Order(word)
