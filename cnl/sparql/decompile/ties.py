"""Stage: superlatives that keep ties, "the joint highest <P>" / "the joint most <P>".

SPARQL says "every answer whose value is the best one" with the query's own pattern a second
time, in a sub-query that computes the best value: ``{ SELECT (MAX(?v2) AS ?best) WHERE { P' } }``
with ``FILTER(?v = ?best)``, or for a count per answer, the counts in a sub-query of their own
and ``GROUP BY ?x HAVING(COUNT(?y) = MAX(?best))`` (``?best`` is one value, but not a group
key, hence the MAX). The reading holds only where P' is the query's pattern again, variables
renamed (else the best is over other things: refused); :func:`tied_count` reads the HAVING
among the query's modifiers, :func:`read_ties` the sub-query once the pattern is flattened.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import replace

from rdflib import BNode, Variable
from rdflib.plugins.sparql.parserutils import CompValue

from cnl import ir
from cnl.errors import UnsupportedSPARQLError
from cnl.sparql.decompile.expressions import variables
from cnl.sparql.decompile.flatten import BEST_AGGREGATES, Group
from cnl.sparql.decompile.state import Decompilation

TIES = "a best value compared in a sub-query (ties kept)"


def tied_count(state: Decompilation, condition) -> bool:
    """``HAVING(COUNT(?y) = MAX(?best))``: records it as the count that ranks the answers (what
    ``ORDER BY DESC(COUNT(?y))`` would be) and returns True; False for any other condition."""
    if getattr(condition, "name", None) != "RelationalExpression" or condition.op != "=":
        return False
    left, right = state.aggregate_calls.get(condition.expr), state.aggregate_calls.get(condition.other)
    if left is not None and right is not None and left.name in BEST_AGGREGATES:
        left, right = right, left
    if left is None or right is None or left.name != "Aggregate_Count" or right.name not in BEST_AGGREGATES:
        return False
    if not isinstance(left.vars, Variable) or not isinstance(right.vars, Variable) or right.distinct:
        return False
    if state.tied_count is not None or state.counted is not None:
        raise UnsupportedSPARQLError(TIES, "beside another count")
    state.tied_count = (left.vars, BEST_AGGREGATES[right.name], right.vars)
    state.counted, state.count_hidden, state.count_distinct = left.vars, True, bool(left.distinct)
    return True


def read_ties(state: Decompilation) -> None:
    top = state.top
    _refuse_nested(top, top)
    if not top.bests:
        if state.tied_count is not None:
            raise UnsupportedSPARQLError(TIES, "HAVING(COUNT(...) = MAX(...)) without the sub-query of the best count")
        return
    if len(top.bests) > 1 or state.order_conditions or state.limit is not None or state.offset:
        raise UnsupportedSPARQLError(TIES, "beside another ordering, LIMIT or best value")
    (best,) = top.bests
    rest = replace(top, bests=[])
    if state.tied_count is not None:
        counted, op, alias = state.tied_count
        inner = best.inner
        if alias != best.alias or len(inner.counts) != 1 or _has_more_than(inner, "counts"):
            raise UnsupportedSPARQLError(TIES, "the best of something else than the counts per answer")
        count = inner.counts[0]
        renaming = _same_pattern(rest, count.inner, {count.counted: counted})
        if count.alias != best.value or renaming is None \
                or {renaming.get(k) for k in count.keys} != set(state.group_keys or ()):
            raise UnsupportedSPARQLError(TIES, "the best count of another pattern than the query's own")
        state.counted_order = counted
        state.orders[counted] = ir.Order("most" if op == "max" else "fewest", ties=True)
    else:
        found = [f for f in top.filters if _compares_with(f, best.alias)]
        if len(found) == 1 and best.op in ("max", "min"):
            (test,) = found
            value = test.other if test.expr == best.alias else test.expr
            tied = replace(rest, filters=[f for f in top.filters if f is not test])
            if _same_pattern(tied, best.inner, {best.value: value}) is not None:
                state.orders[value] = ir.Order("highest" if best.op == "max" else "lowest", ties=True)
                state.top = tied
                return
        if best.alias in state.select_vars:
            raise UnsupportedSPARQLError("a sub-query's aggregate as an answer column",
                                         "compared, it is said 'greater than the average <P> of ...'")
        if not _compared_once(top.filters, best.alias):
            raise UnsupportedSPARQLError(TIES, "a best value that no FILTER(?v = ?best) compares with")
        # a value of another pattern compared ("greater than the average <P> of ..."): the
        # builder says it as the aggregate of that pattern's values
        state.aggregate_values[best.alias] = best
    state.top = rest


def _compared_once(filters, alias) -> bool:
    """Whether one FILTER compares a variable with ``alias`` and no other FILTER names it."""
    naming = [f for f in filters if alias in variables(f)]
    return (len(naming) == 1 and getattr(naming[0], "name", None) == "RelationalExpression"
            and naming[0].op in ("=", "!=", "<", ">", "<=", ">=") and alias in (naming[0].expr, naming[0].other)
            and all(isinstance(t, Variable) for t in (naming[0].expr, naming[0].other)))


def _compares_with(expr, alias) -> bool:
    return (getattr(expr, "name", None) == "RelationalExpression" and expr.op == "="
            and alias in (expr.expr, expr.other) and all(isinstance(t, Variable) for t in (expr.expr, expr.other)))


def _refuse_nested(group: Group, top: Group) -> None:
    """A best value's sub-query anywhere but at the top has no reading."""
    if group is not top and group.bests:
        raise UnsupportedSPARQLError(TIES, "inside another group")
    inner = [*group.optionals, *group.minus, *(b for branches in group.unions for b in branches),
             *(c.inner for c in group.counts), *(r.inner for r in group.ranked)]
    for sub in inner:
        _refuse_nested(sub, top)


def _has_more_than(group: Group, *allowed: str) -> bool:
    parts = ("triples", "filters", "optionals", "unions", "minus", "values", "binds", "counts", "ranked", "bests")
    return any(getattr(group, name) for name in parts if name not in allowed)


def _is_var(term) -> bool:
    return isinstance(term, (Variable, BNode))


def _same_pattern(outer: Group, inner: Group, fixed: dict) -> dict | None:
    """The renaming (inner -> outer variables, a bijection that extends ``fixed``) that makes
    ``inner`` ``outer``: the same triples, the same FILTERs; None where none does. Only triples
    and FILTERs are compared; a group with more is not read as the same pattern."""
    if _has_more_than(outer, "triples", "filters") or _has_more_than(inner, "triples", "filters"):
        return None
    if len(outer.triples) != len(inner.triples) or len(outer.filters) != len(inner.filters):
        return None
    mapping = dict(fixed)

    def match(i: int, used: frozenset) -> bool:
        if i == len(inner.triples):
            return Counter(_expr_text(f, mapping) for f in inner.filters) == Counter(
                _expr_text(f, {}) for f in outer.filters)
        for j, candidate in enumerate(outer.triples):
            if j in used:
                continue
            added = _extend(mapping, inner.triples[i], candidate)
            if added is None:
                continue
            if match(i + 1, used | {j}):
                return True
            for key in added:
                del mapping[key]
        return False

    return mapping if match(0, frozenset()) else None


def _extend(mapping: dict, inner_triple, outer_triple):
    """The variables newly mapped to make ``inner_triple`` ``outer_triple`` (None: it cannot)."""
    added = []
    for a, b in zip(inner_triple, outer_triple):
        if _is_var(a) != _is_var(b):
            ok = False
        elif not _is_var(a):
            ok = a == b
        elif a in mapping:
            ok = mapping[a] == b
        else:
            ok = b not in mapping.values()
            if ok:
                mapping[a] = b
                added.append(a)
        if not ok:
            for key in added:
                del mapping[key]
            return None
    return added


def _expr_text(expr, mapping: dict) -> str:
    """A FILTER's text with ``mapping``'s variables renamed (order-free only where rdflib is)."""
    if isinstance(expr, (Variable, BNode)):
        return "?" + str(mapping.get(expr, expr))
    if isinstance(expr, CompValue):
        parts = ", ".join(f"{k}={_expr_text(v, mapping)}" for k, v in sorted(expr.items()) if not k.startswith("_"))
        return f"{expr.name}({parts})"
    if isinstance(expr, (list, tuple)):
        return "[" + ", ".join(_expr_text(e, mapping) for e in expr) + "]"
    return repr(expr)
