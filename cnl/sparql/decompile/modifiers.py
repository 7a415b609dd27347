"""Stages: the query's head and solution modifiers.

:func:`read_modifiers` unwraps what rdflib's algebra puts around the WHERE clause (LIMIT and
OFFSET, DISTINCT, the SELECT list, ORDER BY, the aggregates and GROUP BY); :func:`read_columns`
tells the answer columns from a ``COUNT(DISTINCT ?x)``; :func:`read_orders` turns ORDER BY with
LIMIT/OFFSET into the IR's orderings ("highest", "3rd to 5th lowest", "the most").
"""
from __future__ import annotations

import re

from rdflib import Literal, Variable
from rdflib.namespace import XSD
from rdflib.plugins.sparql.parserutils import CompValue

from cnl import ir
from cnl.errors import UnsupportedSPARQLError
from cnl.sparql.decompile.expressions import variables
from cnl.sparql.decompile.flatten import flatten
from cnl.sparql.decompile.state import Decompilation
from cnl.sparql.decompile.ties import tied_count
from cnl.sparql.profiles import ORDER_CASTS


def read_modifiers(state: Decompilation) -> None:
    node = state.algebra.p
    having = []
    while isinstance(node, CompValue):
        if node.name == "Slice":
            state.offset, state.limit = node.start or None, node.length
        elif node.name in ("Distinct", "Reduced"):
            state.duplicates = "removed" if node.name == "Distinct" else "reduced"
        elif node.name == "Project":
            state.projected = _written_order(list(node.PV), state.sparql, node.p)
        elif node.name == "OrderBy":
            state.order_conditions = node.expr
        elif node.name == "Extend" and _is_aggregate(node.expr):
            state.aggregates[node.var] = node.expr
        elif node.name == "Filter" and any(_is_aggregate(v) for v in _operands(node.expr)):
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
    state.having = having


def _written_order(columns: list, sparql: str, pattern) -> list:
    """``SELECT *``'s columns (rdflib lists them in no fixed order) in the order the query first
    names them, so that a reading never depends on the process's hash seed; an explicit
    SELECT list is kept as written. rdflib's list for ``*`` also has the variables only a
    FILTER (NOT) EXISTS or a MINUS names, which SPARQL does not put in scope: they are left out."""
    if not re.search(r"SELECT\s+(?:DISTINCT\s+|REDUCED\s+)?\*", sparql, re.I):
        return columns
    in_scope = _bound_outside_tests(pattern)
    columns = [v for v in columns if v in in_scope]

    def first_use(v):
        found = re.search(r"[?$]" + re.escape(str(v)) + r"(?![A-Za-z0-9_])", sparql)
        return (found.start() if found else len(sparql), str(v))

    return sorted(columns, key=first_use)


def _bound_outside_tests(pattern) -> set:
    """The variables a pattern names outside its FILTER expressions and MINUS right sides."""
    out, stack = set(), [pattern]
    while stack:
        node = stack.pop()
        if isinstance(node, Variable):
            out.add(node)
        elif isinstance(node, CompValue):
            skip = {"expr"} if node.name == "Filter" else {"p2"} if node.name == "Minus" else set()
            stack.extend(v for k, v in node.items() if not k.startswith("_") and k not in skip)
        elif isinstance(node, (list, tuple)):
            stack.extend(node)
    return out


# SPARQL's aggregates of values and the IR's names for them (ir.Aggregate.op)
_AGGREGATES = {"Aggregate_Sum": "sum", "Aggregate_Avg": "avg", "Aggregate_Min": "min", "Aggregate_Max": "max",
               "Aggregate_Sample": "sample", "Aggregate_GroupConcat": "group_concat"}


def _operands(expr) -> set:
    """The variables of an expression outside its EXISTS / NOT EXISTS patterns (a HAVING
    names an aggregate itself; a sub-query's count inside NOT EXISTS is no HAVING)."""
    out, stack = set(), [expr]
    while stack:
        e = stack.pop()
        if isinstance(e, Variable):
            out.add(e)
        elif isinstance(e, CompValue) and e.name not in ("Builtin_NOTEXISTS", "Builtin_EXISTS"):
            stack.extend(v for k, v in e.items() if not k.startswith("_"))
        elif isinstance(e, (list, tuple)):
            stack.extend(e)
    return out


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
        elif v in state.aggregates and call is not None and call.name in _AGGREGATES:
            name = call.name[len("Aggregate_"):].upper()
            if state.aggregated is not None or state.counted is not None:
                raise UnsupportedSPARQLError("several aggregates")
            if not isinstance(call.vars, Variable):
                raise UnsupportedSPARQLError(f"the aggregate {name} of an expression")
            if call.distinct and call.name not in ("Aggregate_Min", "Aggregate_Max", "Aggregate_Sample"):
                raise UnsupportedSPARQLError(f"{name}(DISTINCT ...)", "an aggregate of distinct values")
            state.aggregated = (_AGGREGATES[call.name], call.vars)
            # (rdflib's CompValue.get gives the key's name for a key it lacks)
            state.aggregate_separator = str(call.separator) if "separator" in call else None
        elif v in state.aggregates:
            if call is None or call.name != "Aggregate_Count":
                raise UnsupportedSPARQLError(f"the aggregate {call.name[len('Aggregate_'):].upper() if call else '?'}")
            if state.aggregated is not None:
                raise UnsupportedSPARQLError("several aggregates")
            if state.counted is not None:
                raise UnsupportedSPARQLError("several counts")
            counted = call.vars if isinstance(call.vars, Variable) else _star_variable(state)
            # "how many" counts distinct things; COUNT(?x) counts solutions: the profile's
            # count_distinct. The alias may reuse the counted variable's name (COUNT(?x) AS
            # ?x): after grouping, ?x is not in scope, so it names a new value.
            state.count_distinct = bool(call.distinct)
            state.counted, state.count_alias = counted, v
        else:
            state.select_vars.append(v)
    for condition in state.having:
        call = state.aggregate_calls.get(getattr(condition, "expr", None))
        if (call is not None and call.name == "Aggregate_Sample" and state.count_alias is not None
                and call.vars == state.count_alias):
            # HAVING(?c > 3), ?c the SELECT's count: SPARQL evaluates HAVING before the SELECT
            # names ?c (unbound there: no group passes), where some engines read the count
            raise UnsupportedSPARQLError("HAVING on the alias of a projected count",
                                         "engines differ on whether HAVING sees a SELECT alias")
        if state.counted is not None and _tests_the_count(state, condition):
            # "how many" asks for the count, "more than 3" tests it: no English form reads as both
            raise UnsupportedSPARQLError("a count both asked for and tested (a projected COUNT and HAVING)",
                                         "the CNL says 'how many' or 'more than N', not both at once")
        if not tied_count(state, condition):  # "the joint most": the count equal to the best
            _having_count(state, condition)
    if state.group_keys is not None:
        if state.counted is None and state.aggregated is None and not state.numbers:
            _ranking_count(state)
        if state.counted is None and state.aggregated is None and not state.numbers:
            raise UnsupportedSPARQLError("GROUP BY without COUNT")
        if set(state.group_keys) != set(state.select_vars):
            raise UnsupportedSPARQLError("GROUP BY keys other than the projected variables")


# HAVING(COUNT(?v) op N): the numeric determiner of ?v ("that has more than 2 <P37>")
_COUNT_DETS = {">=": "at_least", ">": "more_than", "=": "exactly"}


def _having_count(state: Decompilation, condition) -> None:
    """One HAVING condition, a count of a variable compared with a whole number, as that
    variable's determiner; the profile's having option. Anything else is refused."""
    call = state.aggregate_calls.get(getattr(condition, "expr", None))
    other = getattr(condition, "other", None)
    if not (getattr(condition, "name", None) == "RelationalExpression" and call is not None
            and call.name == "Aggregate_Count" and isinstance(call.vars, Variable)
            and isinstance(other, Literal) and str(other).isdigit()):
        raise UnsupportedSPARQLError("HAVING", "only HAVING(COUNT(?x) >= N), > N or = N has a CNL form")
    if condition.op not in _COUNT_DETS:
        # a count below N misses the things with none (they form no group)
        raise UnsupportedSPARQLError(f"HAVING(COUNT(...) {condition.op} N)", "a count that cannot be zero")
    if state.count_distinct is not None and state.count_distinct != bool(call.distinct):
        raise UnsupportedSPARQLError("counts with and without DISTINCT")
    if call.vars in state.numbers:
        raise UnsupportedSPARQLError("HAVING", "two conditions on one count")
    state.count_distinct = bool(call.distinct)
    state.numbers[call.vars] = (_COUNT_DETS[condition.op], int(str(other)))


def _tests_the_count(state: Decompilation, condition) -> bool:
    """Whether a HAVING condition compares the projected count (by its alias or as COUNT(...) again)."""
    side = getattr(condition, "expr", None)
    call = state.aggregate_calls.get(side)
    return side == state.count_alias or (call is not None and call.name == "Aggregate_Count"
                                         and call.vars == state.counted)


def _ranking_count(state: Decompilation) -> None:
    """``GROUP BY ?k ORDER BY DESC(COUNT(?x))``: a count that is no column, only ranks the
    groups ("the most"); the profile's order_columns False."""
    for condition in state.order_conditions or []:
        key = condition.expr if isinstance(condition, CompValue) and condition.name == "OrderCondition" else condition
        call = state.aggregate_calls.get(key)
        if call is not None and call.name == "Aggregate_Count":
            counted = call.vars if isinstance(call.vars, Variable) else _star_variable(state)
            state.count_distinct = bool(call.distinct)
            state.counted, state.count_alias, state.count_hidden = counted, key, True
            return


def _star_variable(state: Decompilation):
    """What COUNT(*) counts: the one variable in scope of a WHERE clause of triples and
    FILTERs (every solution binds it), else refused."""
    group = flatten(state.pattern)
    names = {t for s, _, o in group.triples for t in (s, o) if isinstance(t, Variable)}
    if group.optionals or group.unions or group.minus or group.values or group.binds or len(names) != 1:
        raise UnsupportedSPARQLError("COUNT(*) over several variables")
    return next(iter(names))


def read_orders(state: Decompilation) -> None:
    _order_casts(state)
    for i, condition in enumerate(state.order_conditions or []):
        key = condition.expr if isinstance(condition, CompValue) and condition.name == "OrderCondition" else condition
        if not isinstance(key, Variable):
            # ORDER BY DESC(?p / ?a): "such that (?p / ?a) is the highest" (sentence_filters)
            if len(state.order_conditions) != 1:
                raise UnsupportedSPARQLError("ORDER BY an expression beside other keys")
            desc = getattr(condition, "order", None) == "DESC"
            state.order_expr = CompValue("OrderedExpression", expr=key, order=_limited(state, "highest" if desc else "lowest"))
            continue
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


def _order_casts(state: Decompilation) -> None:
    """``ORDER BY ASC(xsd:integer(?o))``, every key so cast: the keys themselves, and the profile
    option ``order_cast`` that writes the cast back (numbers written as strings, ordered as
    numbers: the query's own reading, which the CNL's superlative keeps)."""
    conditions = state.order_conditions or []
    casts = set()
    for condition in conditions:
        key = condition.expr if isinstance(condition, CompValue) and condition.name == "OrderCondition" else condition
        casts.add(_cast_of_variable(key))
    if len(casts) != 1 or None in casts:
        return
    (cast,) = casts
    for i, condition in enumerate(conditions):
        if isinstance(condition, CompValue) and condition.name == "OrderCondition":
            conditions[i] = CompValue("OrderCondition", expr=condition.expr.expr[0], order=condition.order)
        else:
            conditions[i] = condition.expr[0]
    state.order_cast = cast


def _cast_of_variable(key):
    """The XSD number type of ``xsd:T(?v)`` (T one of ORDER_CASTS), else None."""
    if getattr(key, "name", None) == "Function" and len(key.expr or []) == 1 and isinstance(key.expr[0], Variable):
        iri = str(key.iri)
        if iri.startswith(str(XSD)) and iri[len(str(XSD)):] in ORDER_CASTS:
            return iri[len(str(XSD)):]
    return None


def _order_key(state: Decompilation, condition, first: bool):
    """(the variable ordered by, its superlative)."""
    key = condition.expr if isinstance(condition, CompValue) and condition.name == "OrderCondition" else condition
    desc = isinstance(condition, CompValue) and getattr(condition, "order", None) == "DESC"
    if not isinstance(key, Variable):
        raise UnsupportedSPARQLError("ORDER BY an expression")
    if (key in state.aggregates or state.count_hidden) and key == state.count_alias and first:
        # ORDER BY DESC(?count) over groups: "the most <C>" on the counted variable.
        state.counted_order = state.counted
        return state.counted, "most" if desc else "least"
    if key in state.aggregates:
        raise UnsupportedSPARQLError("ORDER BY an aggregate other than the count")
    return key, "highest" if desc else "lowest"


def _limited(state: Decompilation, word: str) -> ir.Order:
    return limited_order(word, state.limit, state.offset)


def limited_order(word: str, limit: int | None, offset: int | None) -> ir.Order:
    """The superlative of ORDER BY with LIMIT and OFFSET: ``the highest``, ``the 10 highest``,
    ``the 3rd to 5th highest``, ``highest-to-lowest`` (no LIMIT)."""
    if limit is None:
        if offset:
            raise UnsupportedSPARQLError("OFFSET without LIMIT")
        return ir.Order(word, limit=False)
    if offset:
        return ir.Order(word, rank=offset + 1, to_rank=offset + limit) if limit > 1 else ir.Order(word, rank=offset + 1)
    if limit > 1:
        return ir.Order(word, count=limit)
    return ir.Order(word)
