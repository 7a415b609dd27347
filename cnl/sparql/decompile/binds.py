"""Stage: the top group's BINDs, each read as something CNL can say, else refused.

Two years BIND'd and compared by one FILTER are one comparison, "whose year is greater than
the year of ..."; a year BIND'd and only tested is a test of the year, "whose year is ...";
what is left must be one BIND whose value is an answer column (``YEAR(?d)``,
``2023 - YEAR(?d)``), said as the answer's NP by :func:`bind_np`. The compiler writes each of
these with the same BINDs.
"""
from __future__ import annotations

from rdflib import Literal, URIRef, Variable
from rdflib.plugins.sparql.parserutils import CompValue

from cnl import ir
from cnl.errors import UnsupportedSPARQLError
from cnl.sparql.decompile.expressions import FLIP, var_comparison, variables, year_arg
from cnl.sparql.decompile.flatten import Group
from cnl.sparql.decompile.state import AnswerBind, Decompilation
from cnl.sparql.decompile.terms import ir_term
from cnl.sparql.namespaces import PREFIXES


def read_binds(state: Decompilation) -> None:
    top, ordered = state.top, variables(state.order_conditions or [])
    years = {v: e for v, e in top.binds if getattr(e, "name", None) == "Builtin_YEAR" and v not in state.select_vars
             and isinstance(year_arg(e, set()), Variable)}
    state.first_year = _compare_years(top, years, ordered)
    _test_years(top, years, ordered)
    _inline_unread_binds(state)
    if top.binds:
        state.answer_bind = _answer_bind(state)


def _compare_years(top: Group, years: dict, ordered: set):
    """``BIND(YEAR(?d) AS ?y) BIND(YEAR(?e) AS ?z) FILTER(?y > ?z)``, the years used nowhere
    else: one FILTER comparing the two years. Returns the input of the first such BIND (the
    compiler BINDs the subject's year first)."""
    first_year = None
    for i, f in enumerate(top.filters):
        pair = var_comparison(f)
        if pair and all(v in years for v in pair) and f.op in FLIP and all(
                sum(v in variables(g) for g in top.filters) == 1 and v not in ordered for v in pair):
            top.filters[i] = CompValue("YearComparison", expr=years[pair[0]], op=f.op, other=years[pair[1]])
            first = next(v for v, _ in top.binds if v in pair)
            first_year = first_year or year_arg(years[first], set())
            top.binds = [(v, e) for v, e in top.binds if v not in pair]
    return first_year


def _test_years(top: Group, years: dict, ordered: set) -> None:
    """``BIND(YEAR(?d) AS ?y) FILTER(?y > 1950)``, ?y not an answer: one test of the year."""
    for v, e in list(top.binds):
        tests = [f for f in top.filters if v in variables(f)]
        if (v in years and tests and all(variables(f) == {v} for f in tests) and v not in ordered
                and not any(v in variables(other) for u, other in top.binds if u != v)):
            top.filters = [f for f in top.filters if v not in variables(f)]
            top.filters.append(CompValue("YearTest", expr=e, year=v, tests=tests))
            top.binds = [(u, x) for u, x in top.binds if u != v]


def _inline_unread_binds(state: Decompilation) -> None:
    """``BIND(?p / ?a AS ?d)`` whose value is no answer column and only FILTERs or ORDER BY
    read: those read the expression itself (``FILTER(?p / ?a > 100)``, ``ORDER BY DESC(?p /
    ?a)``), which "such that S" says (sentence_filters). The same query where every solution
    binds the expression's inputs (the equivalence checker inlines them back the same way)."""
    top = state.top
    # what the aggregates, the groups and HAVING read (MIN(?year) over BIND(YEAR(?d) AS ?year))
    aggregated = variables([list(state.aggregate_calls.values()), state.group_keys or [], state.having,
                            state.aggregated[1] if state.aggregated else [], state.counted or []])
    for var, expr in list(top.binds):
        if (var in state.select_vars or var in aggregated
                or any(var in variables(e) for v, e in top.binds if v != var)
                or var in variables([top.optionals, top.unions, top.minus, top.values, top.counts, top.ranked])):
            continue
        top.filters = [substitute(f, var, expr) for f in top.filters]
        if state.order_conditions:
            state.order_conditions = [substitute(c, var, expr) for c in state.order_conditions]
        top.binds = [(v, e) for v, e in top.binds if v != var]


def substitute(expr, var, value):
    """``expr`` with ``value`` wherever it names ``var`` (rdflib's CompValue trees)."""
    if isinstance(expr, Variable):
        return value if expr == var else expr
    if isinstance(expr, CompValue):
        copy = CompValue(expr.name, **{k: substitute(v, var, value) for k, v in expr.items()})
        return copy
    if isinstance(expr, list):
        return [substitute(v, var, value) for v in expr]
    return expr


def _answer_bind(state: Decompilation) -> AnswerBind:
    top = state.top
    if len(top.binds) > 1:
        raise UnsupportedSPARQLError("several BINDs")
    var, expr = top.binds[0]
    aggregated = state.aggregated is not None and state.aggregated[1] == var  # MIN(YEAR(...))
    if state.form != "SelectQuery" or state.counted is not None or (var not in state.select_vars and not aggregated):
        raise UnsupportedSPARQLError("BIND", "only a BIND whose value is an answer column is supported")
    inputs = ordered_variables(expr)
    if not inputs:
        raise UnsupportedSPARQLError("BIND of a constant")
    top.binds = []
    # FILTERs on the BIND's value ("... that is less than 1950") go on the answer NP
    filters = [f for f in top.filters if variables(f) == {var}]
    top.filters = [f for f in top.filters if variables(f) != {var}]
    # over several variables, the first (as written) is the tree's root, the others values
    # the tree reaches, said by their co-reference variables
    return AnswerBind(var, expr, inputs[0], filters, tuple(inputs[1:]))


def choice_test(condition, say):
    """(subject, VP) of an IF's condition, one comparison of values: ``?u = wd:Q11573`` is "?u is
    <Q11573>", ``?x < 3`` "?x is less than 3"; ``say`` gives each side's NP."""
    if getattr(condition, "name", None) != "RelationalExpression" or condition.op not in FLIP:
        raise UnsupportedSPARQLError("IF(...) on a test other than one comparison of values",
                                     "a choice is said 'A if S VP, else B'")
    subject, other = say(condition.expr), condition.other
    if condition.op == "=" and isinstance(other, URIRef):
        return subject, ir.Be(ir.Ref(ir_term(other)))
    return subject, ir.Compare(condition.op, (say(other),))


def ordered_variables(expr) -> list:
    """The variables of an expression, each once, in the order they are written."""
    found: list = []

    def walk(e):
        if isinstance(e, Variable):
            if e not in found:
                found.append(e)
        elif isinstance(e, CompValue):
            for k, v in e.items():
                if not k.startswith("_"):
                    walk(v)
        elif isinstance(e, (list, tuple)):
            for v in e:
                walk(v)
    walk(expr)
    return found


# GeoSPARQL's coordinate functions (Wikidata's query service) -> the CNL's measure
GEO_MEASURES = {PREFIXES["geof"] + "latitude": "latitude", PREFIXES["geof"] + "longitude": "longitude"}
GEO_DISTANCE = PREFIXES["geof"] + "distance"
# SPARQL's functions of one value said "the <measure> of X" (ir.Measure)
MEASURES = {"Builtin_STRLEN": "length", "Builtin_ABS": "absolute value", "Builtin_STR": "text"}


def bind_np(expr, var, root_np, casts: set):
    """The NP of a BIND expression over one variable (the query's root)."""
    if isinstance(expr, Variable):
        # root_np: the NP of the one input, or {variable: NP} for several (named_values)
        return root_np[expr] if isinstance(root_np, dict) else root_np
    if isinstance(expr, (Literal, URIRef)):
        return ir.Ref(ir_term(expr))
    name = getattr(expr, "name", None)
    if name == "Builtin_YEAR":
        return ir.Quant("the", ir.YearOf(bind_np(year_arg(expr, casts), var, root_np, casts)))
    if name in ("Builtin_MONTH", "Builtin_DAY"):
        return ir.Quant("the", ir.DatePart(name[len("Builtin_"):].lower(), bind_np(expr.arg, var, root_np, casts)))
    if name in ("AdditiveExpression", "MultiplicativeExpression"):
        left = bind_np(expr.expr, var, root_np, casts)
        for op, other in zip(expr.op or [], expr.other or []):
            left = ir.Arith(op, left, bind_np(other, var, root_np, casts))
        return left
    if name in MEASURES:
        return ir.Quant("the", ir.Measure(MEASURES[name], bind_np(expr.arg, var, root_np, casts)))
    if name == "Function" and str(expr.iri) in GEO_MEASURES and len(expr.expr or []) == 1:
        return ir.Quant("the", ir.Measure(GEO_MEASURES[str(expr.iri)], bind_np(expr.expr[0], var, root_np, casts)))
    if name == "Function" and str(expr.iri) == GEO_DISTANCE and len(expr.expr or []) == 2:
        left, right = (bind_np(e, var, root_np, casts) for e in expr.expr)
        return ir.Quant("the", ir.Distance(left, right))
    if name == "Builtin_NOW":
        return ir.Now()  # "the year of now - the year of ..."
    if name == "Builtin_IF":
        # "(?l if ?u is <Q11573>, else ?l * 0.3048)": a value chosen by a test of values
        subject, test = choice_test(expr.arg1, lambda e: bind_np(e, var, root_np, casts))
        return ir.Choice(subject, test, bind_np(expr.arg2, var, root_np, casts), bind_np(expr.arg3, var, root_np, casts))
    if name == "RelationalExpression":
        raise UnsupportedSPARQLError("BIND of a comparison (a true/false answer)")
    if name and name.startswith("Builtin_"):
        raise UnsupportedSPARQLError(f"BIND of {name[len('Builtin_'):]}()", "the function has no CNL form")
    raise UnsupportedSPARQLError("BIND", f"the expression {name or expr} has no CNL form")
