"""Noun phrases and nouns: SQUALL's quantifiers and determiners.

A noun phrase is compiled with a continuation ``k(term)`` that receives the term it denotes, so
the determiner decides where the rest of the sentence goes (inside ``FILTER NOT EXISTS`` for
``no``/``every``, ``OPTIONAL`` for ``maybe``, a counting sub-query for ``at least 3``); a noun
is a class test, a relational noun's statement, or a part of a date."""
from __future__ import annotations

import re
from dataclasses import replace
from typing import Callable

from cnl import ir
from cnl.errors import CompileError, LexiconError
from cnl.sparql.compiler.groups import indent, not_exists
from cnl.sparql.compiler.terms import noun_hint


class _YearExpr:
    """Compiler-internal NP: the year of ``arg`` as an inline expression."""

    __slots__ = ("arg",)

    def __init__(self, arg):
        self.arg = arg


class NounPhrasesMixin:
    """SparqlCompiler's noun phrases (``np``, ``quant``), nouns (``noun``), and the two ways
    a term joins a pattern: unified with a variable (``_unify``) or one of several (``_union``)."""

    def np(self, np, k: Callable[[str], None], var: str | None = None) -> None:
        np = _function_distributed(np)
        named = named_value(np) if var is None else None
        if named is not None:
            # "the thing that is <X> and that has ...": X itself, with the clauses said of it
            term, rest = named
            t = self.term(term)
            for rel in rest:
                self.vp(rel, t)
            k(t)
            return
        if isinstance(np, ir.Ref):
            term = self.term(np.term)
            if var is not None:
                self._unify(var, term)
                k(var)
            else:
                k(term)
        elif isinstance(np, ir.Quant):
            self.quant(np, k, var)
        elif isinstance(np, _YearExpr):
            self.np(np.arg, lambda t: k(self._year(t)))
        elif isinstance(np, ir.Coord):
            if var is not None:
                raise CompileError("cannot equate a variable with a coordination here")
            if np.op == "and":
                for item in np.items:
                    self.np(item, k)
            else:
                self._union([lambda item=item: self.np(item, k) for item in np.items])
        elif isinstance(np, ir.Now):
            k(self._now())
        elif isinstance(np, ir.AnyValue):
            raise CompileError("'a <P> statement' only follows 'has': a statement whose value is not said")
        elif isinstance(np, ir.Its):
            if not self.owners:
                raise CompileError("'its <P>' needs a statement about something: 'has a <P> later than its <Q>'")
            value = self.fresh(np.prop.label or np.prop.id)
            self.statement(self.owners[-1], np.prop, value, np.quals)
            k(value)
        elif isinstance(np, ir.Aggregate):
            # a value computed in a sub-query ("greater than the average <P1082> of the <Q6256>-s");
            # as the answer it is the query's own aggregate (driver)
            self.aggregate_value(np, k)
        elif isinstance(np, (ir.Arith, ir.Choice, ir.StringCall)):
            # one BIND of the whole expression ("2023 - the year of X": YEAR(x) inline; a choice
            # or arithmetic inside arithmetic nested, as a writer of SPARQL nests them)
            def bind(expression):
                result = var or self.fresh("value")
                self.group.binds.append(f"BIND({expression} AS {result})")
                k(result)
            self.expression(np, bind)
        else:
            raise CompileError(f"not a noun phrase: {type(np).__name__}")

    def expression(self, np, k: Callable[[str], None]) -> None:
        """``np`` as one SPARQL expression for ``k``: arithmetic and choices inline (``ABS((?p -
        ?a))``, ``IF(?u = wd:Q11573, ?h, (?h * 0.3048))``, as a writer of SPARQL nests them, where
        ``np`` would BIND each step), a year operand as ``YEAR(...)``; anything else the term its
        noun phrase denotes."""
        if isinstance(np, ir.Choice):
            condition = self.choice_condition(np)
            self.expression(np.then, lambda a: self.expression(
                np.otherwise, lambda b: k(f"IF({condition}, {a}, {b})")))
        elif isinstance(np, ir.Arith):
            left, right = (_year_operand(side) or side for side in (np.left, np.right))
            self.expression(left, lambda a: self.expression(right, lambda b: k(f"({a} {np.op} {b})")))
        elif isinstance(np, ir.StringCall):
            self._string_call(np, k)
        else:
            self.np(np, k)

    def _string_call(self, call: ir.StringCall, k: Callable[[str], None]) -> None:
        """``concat(A, B)``: CONCAT(STR(a), STR(b)) (a name or a number joins as its text), ``substr(A,
        1, 3)``: SUBSTR(STR(a), 1, 3); each argument's values one after the other."""
        if call.name not in ir.StringCall.FUNCTIONS:
            raise CompileError(f"unknown string function {call.name!r} (concat or substr)")
        fewest, most = ir.StringCall.ARITY[call.name]
        if len(call.args) < fewest or (most is not None and len(call.args) > most):
            raise CompileError(f"{call.name}() takes {fewest} to {most or 'any number of'} values")
        texts: list[str] = []

        def argument(i: int) -> None:
            if i == len(call.args):
                k(f"{ir.StringCall.FUNCTIONS[call.name]}({', '.join(texts)})")
                return
            as_text = call.name == "concat" or i == 0

            def take(t: str) -> None:
                plain_string = t.startswith('"') and t.endswith('"')  # a literal written as a string
                texts.append(f"STR({t})" if as_text and not plain_string else t)
                argument(i + 1)
                texts.pop()
            self.expression(call.args[i], take)
        argument(0)

    def _unify(self, var: str, term: str) -> None:
        if var == term:
            return
        if var.startswith("?") and (term.startswith("<") or _is_curie(term)):
            self.group.blocks.append([f"VALUES {var} {{ {term} }}"])
        else:
            # literals: compare by value (VALUES would demand the same datatype and lexical form)
            self.group.filters.append(f"FILTER({var} = {term})")

    def _union(self, branches: list[Callable[[], None]]) -> None:
        groups = []
        shown = list(self.visible_vars), list(self.focus)
        for branch in branches:
            with self.subgroup() as g:
                branch()
            groups.append(g)
        tests_only = [bool(g.filters) and not (g.triples or g.blocks or g.binds) for g in groups]
        # tests of values only ("contains "a" or contains "b""): one FILTER(a || b). A FILTER
        # alone in a UNION branch would see none of the values it tests.
        one_filter = all(only and all(f.startswith("FILTER(") for f in g.filters) for g, only in zip(groups, tests_only))
        if not one_filter and any(tests_only) and not all(tests_only):
            # "has <P161> X or has not <P57> Y": the same for a branch of tests only beside
            # patterns, each pattern an EXISTS, where no branch gives an answer column and each
            # tests-only branch tests a value bound before (the subject; what else it names is
            # local to its EXISTS patterns)
            columns_unchanged = self.focus == shown[1] and (
                self.profile.projection != "all" or self.visible_vars == shown[0])
            bound = set(_VARIABLE.findall(" ".join(
                self.group.triples + [line for b in self.group.blocks for line in b] + self.group.binds)))
            one_filter = columns_unchanged and all(
                set(_VARIABLE.findall(" ".join(g.filters))) & bound for g, only in zip(groups, tests_only) if only)
        if one_filter:
            tests = [_as_test(g) for g in groups]
            self.group.filters.append("FILTER(" + " || ".join(f"({t})" for t in tests) + ")")
            return
        block: list[str] = []
        for i, g in enumerate(groups):
            block.append(("UNION {" if i else "{"))
            block.extend(indent(g.lines()))
            block.append("}")
        # "{ a } UNION { b }" on one logical block; fold the UNION keyword onto the brace line.
        merged: list[str] = []
        for line in block:
            if line == "UNION {":
                merged[-1] = "} UNION {"
            else:
                merged.append(line)
        self.group.blocks.append(merged)

    def quant(self, q: ir.Quant, k: Callable[[str], None], var: str | None) -> None:
        hint = noun_hint(q.noun)
        if var is not None and q.var is None and isinstance(q.noun, _FUNCTION_NOUNS + (ir.Distance,)):
            # a function's value said to be a variable's ("whose year is the year of X"): its own
            # variable, compared (a BIND to the other variable would bind it twice)
            self.quant(q, lambda t: (self._unify(var, t), k(var)), None)
            return
        if var is not None:
            v = var
            if q.var is not None:
                self.coref[q.var] = v
        elif q.var is not None:
            v = self.coref_var(q.var, hint)
        else:
            v = self.fresh(hint)

        def body(w: str | None = None):
            self.noun(q.noun, w or v)
            for rel in q.rels:
                self.vp(rel, w or v)

        det = q.det
        if (self.nested_orders and det in ("a", "the") and not self.group.hidden and q.noun is not None
                and any(isinstance(n, ir.Order) for n in ir.walk(q))):
            self._ranked(q, v, body)
            k(v)
            return
        if det in ("a", "the", "which", "how_many", "number_of"):
            body()
            if det == "which":
                if v.startswith("?") and v not in self.focus:
                    self.focus.append(v)
            elif det in ("how_many", "number_of"):
                self.counted.append(v)
            k(v)
            if q.order is not None:
                self._order(q, v)
        elif det == "every":
            # every X has P  ==  no X lacks P
            with self.subgroup(hidden=True) as outer:
                body()
                with self.subgroup(hidden=True) as inner:
                    k(v)
                outer.filters.append(not_exists(inner))
            self.group.filters.append(not_exists(outer))
        elif det == "no":
            with self.subgroup(hidden=True) as g:
                body()
                k(v)
            self.group.filters.append(not_exists(g))
        elif det == "maybe":
            with self.subgroup() as g:
                body()
                k(v)
            self.group.blocks.append(["OPTIONAL {", *indent(g.lines()), "}"])
        elif det in COUNT_TESTS:
            self._numeric(q, v, body, k)
        else:
            raise CompileError(f"unknown determiner {det!r}")
        if (det in ("every", "no") or det in COUNT_TESTS) and v in self.visible_vars:
            self.visible_vars.remove(v)  # only bound inside a negation or a sub-query
        if q.order is not None and det not in ("a", "the", "which", "how_many", "number_of"):
            raise CompileError(f"a superlative cannot be combined with {det!r}")

    def noun(self, noun, v: str) -> None:
        if noun is None:
            return
        if isinstance(noun, ir.ClassNoun) and (noun.cls.id or "").startswith("P"):
            # A noun written as a property (<P17:country>): its label names a class when the
            # lexicon knows one (writers give the property whose values are the class); else it
            # is the property's values, a relational noun without "of".
            try:
                cls = self.term(ir.Class(None, noun.cls.label, noun.cls.span)) if noun.cls.label else None
            except LexiconError:
                cls = None
            if cls is None:
                self.noun(ir.RelNoun(ir.Property(noun.cls.id, noun.cls.label, noun.cls.span)), v)
            else:
                self.group.triples.append(self.profile.class_test(v, cls))
        elif isinstance(noun, ir.ClassNoun):
            self.group.triples.append(self.profile.class_test(v, self.term(noun.cls)))
        elif isinstance(noun, ir.RelNoun):
            self.value_of[v] = noun.prop
            if noun.of is None:
                subject = self.fresh("subject")
                self.statement(subject, noun.prop, v, noun.quals, any_rank=noun.any_rank, normalized=noun.normalized,
                               unit=noun.unit)
            else:
                self.np(noun.of, lambda s: self.statement(s, noun.prop, v, noun.quals, any_rank=noun.any_rank,
                                                          normalized=noun.normalized, unit=noun.unit))
        elif isinstance(noun, ir.DatePart):
            if noun.part not in ir.DatePart.PARTS:
                raise CompileError(f"unknown part of a date {noun.part!r}")
            self.np(noun.arg, lambda t: self.group.binds.append(f"BIND({noun.part.upper()}({t}) AS {v})"))
        elif isinstance(noun, ir.Measure):
            if noun.kind not in ir.Measure.FUNCTIONS:
                raise CompileError(f"unknown measure {noun.kind!r}")
            function = ir.Measure.FUNCTIONS[noun.kind]
            # arithmetic inline ("the absolute value of (?p - ?a)": ABS((?p - ?a)), one BIND)
            self.expression(noun.arg, lambda t: self.group.binds.append(f"BIND({function}({t}) AS {v})"))
        elif isinstance(noun, ir.Distance):
            self.np(noun.left, lambda a: self.np(noun.right, lambda b: self.group.binds.append(
                f"BIND({ir.Distance.FUNCTION}({a}, {b}) AS {v})")))
        elif isinstance(noun, ir.YearOf):
            self.year_vars.add(v)
            self.np(noun.arg, lambda t: self.group.binds.append(f"BIND({self._year(t)} AS {v})"))
        else:
            raise CompileError(f"not a noun: {type(noun).__name__}")

    def _now(self) -> str:
        """Now: the profile's day (KGProfile.today) at midnight, else the query's own NOW()."""
        today = self.profile.today
        return f'"{today}T00:00:00Z"^^xsd:dateTime' if today else "NOW()"

    def _year(self, t: str) -> str:
        if self.profile.today and t == self._now():  # the profile's year, as the number it is
            return str(int(self.profile.today[:4]))
        # the profile's year form (see KGProfile.year_cast)
        return f"YEAR(xsd:dateTime({t}))" if self.profile.year_cast else f"YEAR({t})"


# numeric determiners: the count's test
COUNT_TESTS = {"at_least": ">=", "at_most": "<=", "exactly": "=", "more_than": ">", "fewer_than": "<"}


def _is_curie(term: str) -> bool:
    return bool(re.match(r"^[A-Za-z][\w-]*:[\w.-]*$", term)) and not term.startswith(("?", '"'))


# nouns that are a function of one value ("the year of X", "the month of X", "the absolute value
# of X"): each binds one variable to the function of its argument
_FUNCTION_NOUNS = (ir.YearOf, ir.DatePart, ir.Measure)


def _function_distributed(np):
    """``the year of (A and B)`` as ``the year of A and the year of B``: a function noun of a
    coordination is a coordination of the function of each item (it bound the same variable
    once per item, which SPARQL refuses). An item that is itself a function of something stays
    as it is: "the year of (A) and the year of (B)" reads its second conjunct inside the first's
    argument, where English repeats the head. Said with clauses, an order or a number, the
    function of several values is refused (which value they would be said of is not clear)."""
    if not (isinstance(np, ir.Quant) and isinstance(np.noun, _FUNCTION_NOUNS) and isinstance(np.noun.arg, ir.Coord)):
        return np
    if np.rels or np.order is not None or np.number is not None or np.var is not None:
        raise CompileError(f"the {noun_hint(np.noun) or 'function'} of several values can take no clause, "
                           f"order or number: say it of each value ('the year of A and the year of B')")
    return ir.Coord(np.noun.arg.op, tuple(
        replace(item, det=np.det) if isinstance(item, ir.Quant) and isinstance(item.noun, _FUNCTION_NOUNS)
        else replace(np, noun=replace(np.noun, arg=item)) for item in np.noun.arg.items))


def _year_operand(np):
    """``the year of X`` as an operand: ``ir.Ref`` of nothing; returns a marker NP or None."""
    if (isinstance(np, ir.Quant) and np.det in ("a", "the") and isinstance(np.noun, ir.YearOf)
            and not np.rels and np.order is None and np.var is None):
        return _YearExpr(np.noun.arg)
    return None


def named_value(obj):
    """(term, other relative clauses) when a value NP names one entity: ``a <P> that is <X>``."""
    if not (isinstance(obj, ir.Quant) and obj.det in ("a", "the") and obj.noun is None
            and obj.order is None and obj.var is None):
        return None
    for i, rel in enumerate(obj.rels):
        if isinstance(rel, ir.Be) and isinstance(rel.np, ir.Ref) and isinstance(rel.np.term, ir.Entity):
            return rel.np.term, obj.rels[:i] + obj.rels[i + 1:]
    return None


_VARIABLE = re.compile(r"\?\w+")


def _as_test(group) -> str:
    """A group as one boolean expression: its FILTERs joined by ``&&`` where it has only tests,
    else ``EXISTS { ... }`` around it."""
    if not (group.triples or group.blocks or group.binds) and all(f.startswith("FILTER(") for f in group.filters):
        return " && ".join(f[len("FILTER("):-1] for f in group.filters)
    if not (group.triples or group.blocks or group.binds):
        # FILTER NOT EXISTS { ... } and the like: the expression after FILTER
        return " && ".join(f[len("FILTER "):] if f.startswith("FILTER ") else f[len("FILTER"):] for f in group.filters)
    return "EXISTS {\n" + "\n".join(indent(group.lines())) + "\n}"

