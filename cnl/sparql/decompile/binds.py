"""Stage: the top group's BINDs, each read as something CNL can say, else refused.

Two years BIND'd and compared by one FILTER are one comparison, "whose year is greater than
the year of ..."; a year BIND'd and only tested is a test of the year, "whose year is ...";
what is left must be BINDs whose values are answer columns (``YEAR(?d)``,
``2023 - YEAR(?d)``), each said as an answer's NP by :func:`bind_np` ("Give me A and B" for
several). A BIND that reads another's value (``BIND(YEAR(?s) AS ?y) BIND(?y - YEAR(?e) AS ?d)``)
reads its expression instead, which names the same value. The compiler writes each of these with
the same BINDs.
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
    _named_values(state)
    _inline_chained_binds(top)
    years = {v: e for v, e in top.binds if getattr(e, "name", None) == "Builtin_YEAR" and v not in state.select_vars
             and isinstance(year_arg(e, set()), Variable)}
    state.first_year = _compare_years(top, years, ordered)
    _test_years(top, years, ordered)
    _shown_ordering_value(state)
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


# expressions with no "the <measure> of" NP to order ("the highest year of ..."): said as a sentence
_ARITHMETIC = ("AdditiveExpression", "MultiplicativeExpression", "Builtin_IF")


def _shown_ordering_value(state: Decompilation) -> None:
    """``SELECT ?x ?years { ... BIND(YEAR(?e) - YEAR(?b) AS ?years) } ORDER BY DESC(?years)``:
    the answers are ?x, ranked by an arithmetic value that is shown beside them, "... such that
    ((the year of ?e) - the year of ?b) is the highest" with the ordering value a column (the
    profile's order_columns, as for "the highest <P>"). Only where the one ordering key is that
    value and nothing else reads it, and another column is left to be the answer."""
    top = state.top
    conditions = state.order_conditions or []
    if state.form != "SelectQuery" or len(conditions) != 1 or state.counted is not None or state.aggregated is not None:
        return
    key = conditions[0].expr if getattr(conditions[0], "name", None) == "OrderCondition" else conditions[0]
    bound = dict(top.binds)
    if (not isinstance(key, Variable) or key not in bound or key not in state.select_vars
            or getattr(bound[key], "name", None) not in _ARITHMETIC or len(state.select_vars) < 2
            or any(key in variables(f) for f in top.filters)
            or any(key in variables(e) for v, e in top.binds if v != key)):
        return
    state.order_conditions = [substitute(c, key, bound[key]) for c in conditions]
    top.binds = [(v, e) for v, e in top.binds if v != key]
    state.select_vars = [v for v in state.select_vars if v != key]
    state.order_value_shown = True


def _inline_unread_binds(state: Decompilation) -> None:
    """``BIND(?p / ?a AS ?d)`` whose value is no answer column and only FILTERs or ORDER BY
    read: those read the expression itself (``FILTER(?p / ?a > 100)``, ``ORDER BY DESC(?p /
    ?a)``), which "such that S" says (sentence_filters). The same query where every solution
    binds the expression's inputs (the equivalence checker inlines them back the same way)."""
    top = state.top
    # what the aggregates, the groups and HAVING read (MIN(?year) over BIND(YEAR(?d) AS ?year))
    aggregated = variables([list(state.aggregate_calls.values()), state.group_keys or [], state.having,
                            state.aggregated[1] if state.aggregated else [], state.counted or []])
    in_triples = {t for triple in top.triples for t in triple}
    for var, expr in list(top.binds):
        if (var in state.select_vars or var in aggregated or var in in_triples  # the pattern reads it
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


def _named_values(state: Decompilation) -> None:
    """``BIND(wd:Q64 AS ?c) ?x wdt:P131 ?c``: a named value BIND'd to a variable that only the
    group's triples read is that value in the triples (every solution binds ?c, to wd:Q64;
    equivalence_rewrites.constant_binds reads it the same way). Not an answer column, nor
    read by a FILTER, an ordering or anything else (those are refused below, by name)."""
    top = state.top
    in_triples = {t for triple in top.triples for t in triple}
    elsewhere = variables([top.filters, top.optionals, top.unions, top.minus, top.values, top.counts, top.ranked,
                           [e for _, e in top.binds], state.order_conditions or [], state.group_keys or [],
                           state.having])
    for var, expr in list(top.binds):
        if (isinstance(expr, (URIRef, Literal)) and var in in_triples and var not in elsewhere
                and var not in state.select_vars and var not in state.aggregates and var != state.counted):
            top.triples = [tuple(expr if t == var else t for t in triple) for triple in top.triples]
            top.binds = [(v, e) for v, e in top.binds if v != var]


def _inline_chained_binds(top: Group) -> None:
    """``BIND(YEAR(?s) AS ?y) BIND(ABS(?y - YEAR(?e)) AS ?d)``: the second reads the first's
    expression in place of ``?y`` (``ABS(YEAR(?s) - YEAR(?e))``), the value ``?y`` has there (an
    error in ``YEAR(?s)`` leaves ``?y`` unbound and fails the second either way), so that each
    answer is said from the tree's values; the equivalence checker reads chained BINDs the same
    way (``equivalence_rewrites.chained_binds``). A BIND that tests whether a value is bound,
    or an earlier one that gives a new value at each call, is left as written (refused below)."""
    bound: dict = {}
    for i, (var, expr) in enumerate(top.binds):
        read = {v: bound[v] for v in variables(expr) if v in bound}
        if read and not _calls(expr, _UNBOUND_AWARE) and not any(_calls(e, _FRESH_EACH_CALL) for e in read.values()):
            for v, value in read.items():
                expr = substitute(expr, v, value)
            top.binds[i] = (var, expr)
        bound[var] = expr


_UNBOUND_AWARE = {"Builtin_BOUND"}  # tells an unbound variable from an error
_FRESH_EACH_CALL = {"Builtin_RAND", "Builtin_BNODE", "Builtin_UUID", "Builtin_STRUUID"}


def _calls(expr, names: set) -> bool:
    if isinstance(expr, CompValue):
        return expr.name in names or any(_calls(v, names) for k, v in expr.items() if not k.startswith("_"))
    if isinstance(expr, (list, tuple)):
        return any(_calls(v, names) for v in expr)
    return False


def _answer_bind(state: Decompilation) -> AnswerBind:
    """The first answer BIND (the tree hangs from its first input); the others, if any, go to
    ``state.more_answers``, their inputs said by co-reference variables."""
    top = state.top
    answers = [_one_answer(state, var, expr) for var, expr in top.binds]
    if len(answers) > 1 and state.aggregated is not None:
        raise UnsupportedSPARQLError("several BINDs", "several computed answers beside an aggregate")
    top.binds = []
    first, *more = answers
    state.more_answers = [AnswerBind(a.var, a.expr, None, a.filters, (a.input,) + a.others) for a in more]
    return first


def _one_answer(state: Decompilation, var, expr) -> AnswerBind:
    aggregated = state.aggregated is not None and state.aggregated[1] == var  # MIN(YEAR(...))
    if state.form != "SelectQuery" or state.counted is not None or (var not in state.select_vars and not aggregated):
        raise UnsupportedSPARQLError("BIND", "only a BIND whose value is an answer column is supported")
    inputs = ordered_variables(expr)
    if not inputs:
        raise UnsupportedSPARQLError("BIND of a constant")
    if getattr(expr, "name", None) in _ARITHMETIC:
        # an arithmetic answer takes no relative clause: a FILTER on its value tests the
        # expression itself, "such that (E) is greater than 100" (the same value)
        state.top.filters = [substitute(f, var, expr) if variables(f) == {var} else f for f in state.top.filters]
        return AnswerBind(var, expr, inputs[0], [], tuple(inputs[1:]))
    # FILTERs on the BIND's value ("... that is less than 1950") go on the answer NP
    filters = [f for f in state.top.filters if variables(f) == {var}]
    state.top.filters = [f for f in state.top.filters if variables(f) != {var}]
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
MEASURES = {"Builtin_STRLEN": "length", "Builtin_ABS": "absolute value", "Builtin_STR": "text",
            "Builtin_UCASE": "uppercase", "Builtin_LCASE": "lowercase"}


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
    if name in ("Builtin_CONCAT", "Builtin_SUBSTR"):
        return string_call(expr, lambda e: bind_np(e, var, root_np, casts))
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


def string_call(expr, np_of):
    """``CONCAT(STR(?a), " ", STR(?b))``, ``SUBSTR(STR(?t), 1, 3)`` as ``concat(...)``/``substr(...)``
    (ir.StringCall): the compiler writes each value's STR(), so a value without it (whose text
    could differ: a language tag kept, a number refused) is no argument the CNL says."""
    def text(e):
        if isinstance(e, Literal) and e.datatype is None and not e.language:
            return ir.Ref(ir_term(e))
        if getattr(e, "name", None) != "Builtin_STR":
            raise UnsupportedSPARQLError(f"{expr.name[len('Builtin_'):]}() of a value without STR()",
                                         "the CNL's concat()/substr() take each value's text: STR(?x)")
        return np_of(e.arg)
    if expr.name == "Builtin_CONCAT":
        return ir.StringCall("concat", tuple(text(e) for e in expr.arg))
    numbers = tuple(np_of(expr[key]) for key in ("start", "length") if key in expr)
    return ir.StringCall("substr", (text(expr.arg), *numbers))
