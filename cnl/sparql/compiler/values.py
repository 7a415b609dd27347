"""Values computed from the query's values (issue 29): a choice between two values
(``Give me <A> if S VP, else <B>``: ``BIND(IF(test, A, B) AS ?x)``) and a count used as a value
(``the number of <P37> of <Q258>`` compared with another: a counting sub-query without a
``GROUP BY`` of its own, ``{ SELECT (COUNT(DISTINCT ?v) AS ?n) WHERE { ... } }``).

Separate because both turn what the rest of the compiler writes as patterns and FILTERs into
an expression: the test of a choice is compiled like a yes/no question, and its FILTER becomes
the IF's condition."""
from __future__ import annotations

import re

from cnl import ir
from cnl.errors import CompileError
from cnl.sparql.compiler.modifiers import aggregate_call
from cnl.sparql.compiler.terms import each_as_a, noun_hint


_VALUES_ONE = re.compile(r"VALUES (\?\w+) \{ (\S+) \}")


def _named_value_test(block: list[str]) -> str | None:
    """``?u = wd:Q11573`` for the block ``VALUES ?u { wd:Q11573 }`` (one value of one IRI), else None."""
    found = _VALUES_ONE.fullmatch(block[0]) if len(block) == 1 else None
    return f"{found.group(1)} = {found.group(2)}" if found else None


class ValuesMixin:
    """SparqlCompiler's choices (``_choice``; as a value, ``NounPhrasesMixin.expression``) and count
    values (``count_value``)."""

    def _choice(self, choice: ir.Choice) -> None:
        """``Give me A if S VP, else B``: the choice is the answer (A and B any values)."""
        def answer(expression):
            column = self.fresh("answer")
            self.group.binds.append(f"BIND({expression} AS {column})")
            self.focus.append(column)
        self.expression(choice, answer)

    def choice_condition(self, choice: ir.Choice) -> str:
        """The test of a choice as the IF's condition: compiled like a yes/no question, what it
        names joins the query and its one comparison is the condition. ``?u is <Q11573>``,
        which elsewhere is ``VALUES ?u { wd:Q11573 }``, is the comparison ``?u = wd:Q11573``
        (the same for an IRI; inside an IF a VALUES could not be)."""
        with self.subgroup() as test:
            self.value_np(choice.subject, lambda s: self.vp(choice.test, s))
        conditions = [f[len("FILTER("):-1] for f in test.filters if f.startswith("FILTER(")]
        named = [_named_value_test(b) for b in test.blocks]
        if not test.filters and len(named) == 1 and named[0] is not None:
            conditions, test.blocks = [named[0]], []
        elif len(conditions) != 1 or len(conditions) != len(test.filters):
            raise CompileError("the test of 'A if ..., else B' must be one comparison of values "
                               "('if <A> has a <P> earlier than the <P> of <B>', 'if ?u is <Q11573>')")
        # what the test names joins the query; its comparison is the IF's condition
        self.group.triples.extend(test.triples)
        self.group.blocks.extend(test.blocks)
        self.group.binds.extend(test.binds)
        return conditions[0]

    def value_np(self, np, k) -> None:
        """``np`` as a value: ``the number of ...`` is a count (a sub-query), anything else its
        referents (``np``)."""
        if isinstance(np, ir.Quant) and np.det == "number_of":
            self.count_value(np, k)
        else:
            self.np(np, k)

    def count_value(self, q: ir.Quant, k) -> None:
        """``the number of NP`` as a value: a sub-query counting NP's referents (per value of
        the query's variables it names, its GROUP BY keys), whose count ``k`` receives."""
        if q.order is not None or q.var is not None:
            raise CompileError("'the number of' counts a plain noun phrase (no superlative, no variable)")

        def referents(v: str) -> None:
            self.noun(q.noun, v)
            for rel in q.rels:
                self.vp(rel, v)
        self._count_of(noun_hint(q.noun), referents, k)

    def aggregate_value(self, agg: ir.Aggregate, k) -> None:
        """``the average <P1082> of the <Q6256>-s`` as a value (compared: "a <P1082> greater than
        the average <P1082> of the <Q6256>-s"): a sub-query computing it over the noun phrase's
        referents, per value of the query's variables it names (its GROUP BY keys), whose
        result ``k`` receives."""
        if agg.op not in ir.Aggregate.OPS:
            raise CompileError(f"unknown aggregate {agg.op!r}")
        values: list[str] = []
        before = set(self.var_order)
        with self.subgroup(hidden=True) as g:
            # "of every <Q6256>" is of each, as in an answer's aggregate (each_as_a)
            self.np(each_as_a(agg.np), values.append)
        if len(values) != 1:
            raise CompileError("an aggregate used as a value computes one value of one noun phrase")
        outer = self._keys_named_in(g, before)
        alias = self.fresh(agg.op)
        self._add_value_subquery(aggregate_call(agg, values[0]), outer, g, alias)
        k(alias)

    def count_comparison(self, vp: ir.CountComparison, subject: str) -> None:
        """``has more <P> than X``: the subject's count of ``<P>`` values (per subject, where it
        is a variable) against X's, each a counting sub-query, compared by a FILTER. For
        "fewer" and "as many", a subject with no value at all may hold too, but a grouped count
        has no row for it: its sub-query is OPTIONAL and a missing count is 0."""
        if vp.op not in ir.CountComparison.OPS:
            raise CompileError(f"unknown comparison of counts {vp.op!r}")
        hint = vp.prop.label or vp.prop.id
        if isinstance(vp.other, ir.Its):
            return self._own_count_comparison(vp, subject)
        theirs = ir.Quant("number_of", ir.RelNoun(vp.prop, vp.other))

        may_be_zero = vp.op in ("<", "=")

        def compare(mine: str) -> None:
            mine = f"COALESCE({mine}, 0)" if may_be_zero else mine
            self.count_value(theirs, lambda other: self.group.filters.append(f"FILTER({mine} {vp.op} {other})"))
        self._count_of(hint, lambda v: self.statement(subject, vp.prop, v, ()), compare, optional=may_be_zero)

    def _own_count_comparison(self, vp: ir.CountComparison, subject: str) -> None:
        """``has more <P40> than its <P3373>``: two counts of the subject's own values, each a
        grouped sub-query; the count that may be 0 where the comparison holds ("more": the
        other; "fewer": the subject's; "as many": both, where the subject is bound elsewhere)
        is OPTIONAL, its missing row 0."""
        own = vp.other
        if own.quals:
            raise CompileError("'than its <P>' counts the values of a plain property (no qualifier)")
        mine_zero, theirs_zero = vp.op in ("<", "="), vp.op in (">", "=")

        def compare(mine: str) -> None:
            mine = f"COALESCE({mine}, 0)" if mine_zero else mine

            def against(theirs: str) -> None:
                theirs = f"COALESCE({theirs}, 0)" if theirs_zero else theirs
                self.group.filters.append(f"FILTER({mine} {vp.op} {theirs})")
            self._count_of(own.prop.label or own.prop.id, lambda v: self.statement(subject, own.prop, v, ()), against,
                           optional=theirs_zero)
        self._count_of(vp.prop.label or vp.prop.id, lambda v: self.statement(subject, vp.prop, v, ()), compare,
                       optional=mine_zero)

    def _count_of(self, hint, referents, k, optional: bool = False) -> None:
        """A sub-query counting what ``referents(v)`` binds ``v`` to, grouped by the query's
        variables it names (``optional``: joined by OPTIONAL); ``k`` receives the count's variable."""
        v = self.fresh(hint)
        before = set(self.var_order)
        with self.subgroup(hidden=True) as g:
            referents(v)
        outer = self._keys_named_in(g, before, but=v)
        if v in self.visible_vars:
            self.visible_vars.remove(v)  # only in scope inside the sub-query
        count = self.fresh("count")
        self._add_count_subquery(v, outer, g, count, optional=optional)
        k(count)
