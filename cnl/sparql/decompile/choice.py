"""Stage (after flatten): ``BIND(IF(test, A, B) AS ?x)``, ``?x`` the one answer, is the choice
``Give me <A> if S VP, else <B>`` (``ir.Choice``). The test joins the group as the FILTER it
would be in a yes/no question, and the query is read as that question (its root, its tree);
``write_query`` then puts the question's sentence in the choice."""
from __future__ import annotations

from rdflib import Literal, URIRef

from cnl import ir
from cnl.errors import UnsupportedSPARQLError
from cnl.sparql.decompile.expressions import variables
from cnl.sparql.decompile.state import Decompilation
from cnl.sparql.decompile.terms import ir_term


def read_choice(state: Decompilation) -> None:
    top = state.top
    ifs = [(v, e) for v, e in top.binds if getattr(e, "name", None) == "Builtin_IF"]
    if not ifs:
        return
    var, expr = ifs[0]
    then, otherwise, test = expr.arg2, expr.arg3, expr.arg1
    named = all(isinstance(t, (URIRef, Literal)) for t in (then, otherwise))
    if var not in state.select_vars or (len(state.select_vars) > 1 and named and len(variables(test)) == 1):
        # a value the query reads (ORDER BY a unit conversion), or a column beside the one
        # value its test reads ('"big" if the <P1082> of which <Q515> is greater than 1000000,
        # else "small"'): an expression (binds.bind_np) said of the query's root
        return
    if (state.form != "SelectQuery" or len(top.binds) != 1 or state.select_vars != [var] or state.counted is not None
            or state.aggregated is not None or state.order_conditions or state.group_keys is not None):
        raise UnsupportedSPARQLError("BIND(IF(...)) other than the one answer of a plain SELECT")
    if not named:
        raise UnsupportedSPARQLError("BIND(IF(...)) choosing between computed values", "only named values are chosen")
    if getattr(test, "name", None) in ("Builtin_EXISTS", "Builtin_NOTEXISTS"):
        # the test's pattern would be said as the query's own values (a join), not tested apart
        raise UnsupportedSPARQLError("BIND(IF(EXISTS ...))", "a choice on a pattern tested apart from the query")
    if not variables(test):
        raise UnsupportedSPARQLError("BIND(IF(...)) on constants only")
    top.binds = []
    top.filters.append(test)
    state.choice = (var, ir.Ref(ir_term(then)), ir.Ref(ir_term(otherwise)))
