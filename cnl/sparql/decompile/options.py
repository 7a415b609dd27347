"""Stage: the profile options under which the IR compiles back to an equivalent query.

Read from what the query writes: ``wdt:`` shortcuts or ``p:/ps:`` statements (``statements``),
Sparklis' ``xsd:double(STR(?x))`` comparisons (``numeric_cast``), ``YEAR(xsd:dateTime(?x))``
(``year_cast``), ``wdt:P31/wdt:P279*`` class tests (``subclasses``), a LIMIT on a plain select
(``default_limit``), and whether it projects every variable in scope or only the question's
focus (``projection``, ``order_columns``). ``statements`` and ``projection`` (and, with an
ordering, ``order_columns``) are always stated, so that recompiling does not depend on the
profile's defaults. A query that mixes two ways of
writing one of these has no single option and is refused, except statements: ``p:/ps:``
statements without qualifiers beside ``wdt:`` shortcuts are said ``at any rank``.
"""
from __future__ import annotations

from dataclasses import replace

from cnl import ir
from cnl.errors import UnsupportedSPARQLError
from cnl.sparql.decompile.state import Decompilation


MIXED_CLASS_TESTS = "a mix of wdt:P31 and wdt:P31/wdt:P279* class tests"


def profile_options(state: Decompilation) -> dict:
    builder = state.builder
    options: dict = {}
    if state.default_limit is not None:
        options["default_limit"] = state.default_limit
    options["statements"] = _statements(builder.forms)
    for option, written, mix in (
            ("numeric_cast", builder.casts, "a mix of xsd:double(STR(?x)) and plain numeric comparisons"),
            ("year_cast", builder.year_casts, "a mix of YEAR(xsd:dateTime(?x)) and YEAR(?x)"),
            ("subclasses", builder.subclasses, MIXED_CLASS_TESTS)):
        # written: True for each test written the option's way, False for each written plainly
        if written == {True, False}:
            raise UnsupportedSPARQLError(mix)
        if written == {True}:
            options[option] = True
    if state.order_cast is not None:
        options["order_cast"] = state.order_cast
    if state.form == "SelectQuery":
        # a FILTER EXISTS said as a join repeats an answer the query gave once: its rows were
        # distinct anyway (build's set answers), so the query that removes duplicates is the same
        options["duplicates"] = "removed" if builder.exists_joined else state.duplicates
    if state.form == "SelectQuery" and state.counted is None and state.aggregated is None:
        answer = {b.var for b in state.answer_binds()}
        visible = (set(builder.all_nodes) | {state.root} | answer) - {state.counted_order} - builder.hidden
        # a FILTER EXISTS said as a join puts its values in scope, but the query never showed them
        all_shown = set(state.select_vars) == visible and not builder.exists_joined
        if state.order_expr is not None and not state.order_value_shown:
            # "such that E is the highest" BINDs E's value, which "all" would show as a column
            all_shown = False
        options["projection"] = "all" if all_shown else "focus"
        values = [v for v in state.orders if v != state.counted_order]  # a ranking count: below
        if options["projection"] == "focus" and values:
            options["order_columns"] = all(v in state.select_vars for v in values)
        if options["projection"] == "focus" and state.order_expr is not None:
            # "such that E is the highest": E's value a column only where the query shows it
            options["order_columns"] = state.order_value_shown
    else:
        # an ASK or a count shows no variable of the tree: either value compiles the same
        options["projection"] = "all"
    distincts = builder.count_distincts | ({state.count_distinct} if state.count_distinct is not None else set())
    if len(distincts) > 1:
        raise UnsupportedSPARQLError("counts with and without DISTINCT")
    if distincts == {False}:
        options["count_distinct"] = False
    if state.numbers or state.having:
        if state.builder.numbers:
            raise UnsupportedSPARQLError("HAVING", "a count of a variable that is not a noun phrase of its own")
        options["having"] = True
    if state.counted_order is not None:
        # "the most <C>": order_columns also says whether the count is a column
        if not state.count_hidden and options.get("order_columns") is False:
            raise UnsupportedSPARQLError("a count column beside an ordering value that is not one")
        options["order_columns"] = not state.count_hidden
    return options


def _statements(forms: set) -> str:
    # A mix of wdt: shortcuts and p:/ps: statements without qualifiers is "qualified", the
    # latter said "at any rank" (build marks them; drop_ranks removes the marks otherwise).
    return "qualified" if "wdt" in forms else "always"


def drop_ranks(state: Decompilation) -> None:
    """Under ``statements="always"`` every statement is one of any rank: the ``at any rank``
    marks the build stage put on ``p:/ps:`` statements without qualifiers say nothing there,
    so the query is written without them."""
    if state.options["statements"] == "always":
        state.query = _without_ranks(state.query)


def _without_ranks(node):
    node = ir.map_children(node, _without_ranks)
    if isinstance(node, (ir.Stmt, ir.RelNoun)) and node.any_rank:
        return replace(node, any_rank=False)
    return node
