"""Stage: the profile options under which the IR compiles back to an equivalent query.

Read from what the query writes: ``wdt:`` shortcuts or ``p:/ps:`` statements (``statements``),
Sparklis' ``xsd:double(STR(?x))`` comparisons (``numeric_cast``), ``YEAR(xsd:dateTime(?x))``
(``year_cast``), ``wdt:P31/wdt:P279*`` class tests (``subclasses``), a LIMIT on a plain select
(``default_limit``), and whether it projects every variable in scope or only the question's
focus (``projection``, ``order_columns``). ``statements`` and ``projection`` (and, with an
ordering, ``order_columns``) are always stated, so that recompiling does not depend on the
profile's defaults. A query that mixes two ways of
writing one of these has no single option and is refused.
"""
from __future__ import annotations

from cnl.errors import UnsupportedSPARQLError
from cnl.sparql.decompile.state import Decompilation


def profile_options(state: Decompilation) -> dict:
    builder = state.builder
    options: dict = {}
    if state.default_limit is not None:
        options["default_limit"] = state.default_limit
    options["statements"] = _statements(builder.forms)
    for option, written, mix in (
            ("numeric_cast", builder.casts, "a mix of xsd:double(STR(?x)) and plain numeric comparisons"),
            ("year_cast", builder.year_casts, "a mix of YEAR(xsd:dateTime(?x)) and YEAR(?x)"),
            ("subclasses", builder.subclasses, "a mix of wdt:P31 and wdt:P31/wdt:P279* class tests")):
        # written: True for each test written the option's way, False for each written plainly
        if written == {True, False}:
            raise UnsupportedSPARQLError(mix)
        if written == {True}:
            options[option] = True
    if state.form == "SelectQuery" and state.counted is None:
        answer = {state.answer_bind.var} if state.answer_bind else set()
        visible = (set(builder.all_nodes) | {state.root} | answer) - {state.counted_order}
        options["projection"] = "all" if set(state.select_vars) == visible else "focus"
        if options["projection"] == "focus" and state.orders:
            options["order_columns"] = all(v in state.select_vars for v in state.orders)
    else:
        # an ASK or a count shows no variable of the tree: either value compiles the same
        options["projection"] = "all"
    return options


def _statements(forms: set) -> str:
    if "wdt" in forms and "p_plain" in forms:
        raise UnsupportedSPARQLError("a mix of wdt: shortcuts and p:/ps: statements without qualifiers")
    return "qualified" if "wdt" in forms else "always"
