"""Stage (after flatten): a value computed from values of named things, ``SELECT ?v WHERE {
wd:Q1 wdt:P569 ?a . wd:Q2 wdt:P569 ?b . BIND(YEAR(?a) - YEAR(?b) AS ?v) }`` ("how many years
between"), ``BIND(?population / ?area AS ?density)`` of one city: each input the value of one
statement of a named thing, said ``the <P> of X``, and the expression over them the answer,
``Give me the year of (the <P569> of <Q1>) - the year of (the <P569> of <Q2>).`` The tree reading
(:mod:`build`) says one variable's values, so a BIND over two is read here, before it."""
from __future__ import annotations

from rdflib import URIRef, Variable

from cnl import ir
from cnl.sparql.decompile.binds import bind_np
from cnl.sparql.decompile.expressions import variables
from cnl.sparql.decompile.state import Decompilation
from cnl.sparql.decompile.terms import ir_term
from cnl.sparql.namespaces import WD, WDT


def read_named_values(state: Decompilation) -> bool:
    """Set ``state.query`` and ``state.options`` and return True when the query is such a value."""
    top = state.top
    if (state.form != "SelectQuery" or len(top.binds) != 1 or state.counted is not None
            or state.aggregated is not None or state.order_conditions or state.group_keys is not None
            or state.limit is not None or state.offset or top.filters or top.optionals or top.unions or top.minus or top.values or top.counts or top.ranked):
        return False
    var, expr = top.binds[0]
    if getattr(expr, "name", None) == "Builtin_IF":
        return False  # a choice (choice.py)
    inputs = variables(expr)
    if state.select_vars != [var] or len(inputs) < 2 or len(top.triples) != len(inputs):
        return False
    nps = {}
    for s, p, o in top.triples:
        if not (isinstance(s, URIRef) and str(s).startswith(WD) and isinstance(p, URIRef)
                and str(p).startswith(WDT) and isinstance(o, Variable) and o in inputs and o not in nps):
            return False
        nps[o] = ir.Quant("the", ir.RelNoun(ir.Property(id=str(p)[len(WDT):]), ir.Ref(ir_term(s))))
    casts: set = set()
    state.query = ir.Query(bind_np(expr, None, nps, casts), None)
    state.options = {"statements": "qualified", "projection": "focus", "duplicates": state.duplicates}
    if casts == {True}:
        state.options["year_cast"] = True
    return True
