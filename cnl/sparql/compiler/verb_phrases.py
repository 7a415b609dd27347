"""Verb phrases: what is said of a term. ``has <P> X`` (a statement), ``is X`` (equality,
membership, a class test), comparisons, string and language tests, negation, conjunction and
disjunction, the year of a date, and ``at which <Q>`` qualifier questions.

The tests on values end up as ``FILTER`` expressions; the rest as patterns through the noun
phrases and statements they contain."""
from __future__ import annotations

import re

from cnl import ir
from cnl.errors import CompileError, LexiconError
from cnl.sparql.compiler.groups import not_exists
from cnl.sparql.compiler.noun_phrases import named_value
from cnl.sparql.compiler.terms import DECIMAL_FORM, INTEGER_FORM, prop_hint
from cnl.sparql.profiles import as_date_time
from cnl.sparql.syntax import LANGUAGE_TAG, sparql_string

_YEAR = re.compile(r"^[0-9]{3,4}$")


class VerbPhrasesMixin:
    """SparqlCompiler's verb phrases (``vp``), ``be`` (``_be``) and comparisons (``_compare``)."""

    def vp(self, vp, x: str) -> None:
        if isinstance(vp, ir.Stmt):
            if vp.order is not None:
                raise CompileError("a superlative over a statement ('has the highest <P> X') is not supported")
            hint = prop_hint(vp.prop)
            # an "at which <Q>" qualifier belongs to this statement, not to the first one its
            # object's relative clauses emit
            claimed = self.pending_quals.pop() if self.pending_quals else []

            def link(o):
                self.statement(x, vp.prop, o, vp.quals, vp.inverse, extra=claimed, any_rank=vp.any_rank,
                               normalized=vp.normalized, unit=vp.unit)

            self.owners.append(x)  # "its <Q>" in the object means x's <Q>

            obj = self.as_value_test(vp.prop, vp.obj)
            named = named_value(obj)
            if isinstance(obj, ir.AnyValue):
                link(None)  # "has a <P> statement": no value said
            elif named is not None:
                # "whose <P> is <X>" / "has a <P> that is <X>": the value is X itself.
                term, rest = named
                t = self.term(term)
                for rel in rest:
                    self.vp(rel, t)
                link(t)
            elif isinstance(obj, ir.Quant) and obj.noun is None and obj.var is None:
                # "has a <P> that ...": name the value after the property.
                v = self.fresh(hint)
                self.value_of[v] = vp.prop
                self.quant(obj, link, v)
            else:
                self.np(obj, link)
            self.owners.pop()
        elif isinstance(vp, ir.Be):
            self._be(vp.np, x)
        elif isinstance(vp, ir.Compare):
            self._compare(vp, x)
        elif (isinstance(vp, ir.Not) and isinstance(vp.vp, ir.Be) and isinstance(vp.vp.np, ir.Ref)
              and isinstance(vp.vp.np.term, ir.Entity) and x.startswith("?")):
            # "that not is Hawaii", "except <Hawaii>": a plain inequality
            self.group.filters.append(f"FILTER({x} != {self.term(vp.vp.np.term)})")
        elif isinstance(vp, ir.Not):
            with self.subgroup(hidden=True) as g:
                self.vp(vp.vp, x)
            tests = [f[len("FILTER("):-1] for f in g.filters if f.startswith("FILTER(")]
            if not (g.triples or g.blocks or g.binds) and tests and len(tests) == len(g.filters):
                # a negated test on a value ("is not between 1970 and 1979"): FILTER(!(...))
                self.group.filters.append(f"FILTER(!({' && '.join(tests)}))")
            else:
                self.group.filters.append(not_exists(g))
        elif isinstance(vp, ir.And):
            for item in vp.items:
                self.vp(item, x)
        elif isinstance(vp, ir.Or):
            self._union([lambda item=item: self.vp(item, x) for item in vp.items])
        elif isinstance(vp, ir.StrTest):
            self.group.filters.append(_str_test(vp, x))
        elif isinstance(vp, ir.LangIs):
            if not (LANGUAGE_TAG.fullmatch(vp.lang) or (vp.range and vp.lang == "*")):
                raise CompileError(f"invalid language tag {vp.lang!r}")
            if vp.range:  # a language range: en, en-GB, ... (SPARQL's LANGMATCHES)
                self.group.filters.append(f"FILTER(LANGMATCHES(LANG({x}), {sparql_string(vp.lang)}))")
            else:
                self.group.filters.append(f"FILTER(LANG({x}) = {sparql_string(vp.lang)})")
        elif isinstance(vp, ir.Exists):
            pass
        elif isinstance(vp, ir.YearIs):
            if _is_value_test(vp.vp):
                # "whose year is 2004": test YEAR(x) inline, no extra column
                self.vp(vp.vp, self._year(x))
                return
            year = self.fresh("year")
            self.year_vars.add(year)
            if year in self.visible_vars:
                self.visible_vars.remove(year)  # a test on the year, not an answer column
            self.group.binds.append(f"BIND({self._year(x)} AS {year})")
            self.vp(vp.vp, year)
        elif isinstance(vp, ir.TextIs):
            if _is_value_test(vp.vp):
                # "whose text is "08"": test STR(x) inline, no extra column
                self.vp(vp.vp, f"STR({x})")
                return
            text = self.fresh("text")
            if text in self.visible_vars:
                self.visible_vars.remove(text)  # a test on the text, not an answer column
            self.group.binds.append(f"BIND(STR({x}) AS {text})")
            self.vp(vp.vp, text)
        elif isinstance(vp, ir.QualifierOf):
            def with_subject(s):
                self.pending_quals.append([(self._id(vp.prop), x)])
                self.vp(vp.vp, s)
                if self.pending_quals and self.pending_quals[-1] == [(self._id(vp.prop), x)]:
                    raise CompileError("'at which <Q> ...' needs a statement to qualify")
            self.np(vp.subject, with_subject)
        elif isinstance(vp, ir.TermKind):
            if vp.kind not in ir.TermKind.KINDS:
                raise CompileError(f"unknown kind of term {vp.kind!r} (a literal, an IRI or a number)")
            self.group.filters.append(f"FILTER({ir.TermKind.FUNCTIONS[vp.kind]}({x}))")
        elif isinstance(vp, ir.SuchThat):
            # a sentence of its own: what it names joins the group, its test a FILTER; "its <P>"
            # in it is a value of the thing the clause is about ("has the <P2048> * the <P2049>
            # equal to 100": such that (its <P2048> * its <P2049>) is equal to 100)
            self.owners.append(x)
            self.value_np(vp.subject, lambda s: self.vp(vp.vp, s))
            self.owners.pop()
        elif isinstance(vp, ir.CountComparison):
            self.count_comparison(vp, x)
        elif isinstance(vp, ir.BelongsTo):
            # "belongs to NP": the profile's class test, with the class a term of the query
            if vp.inverse:
                self.np(vp.np, lambda member: self.group.triples.append(self.profile.class_test(member, x)))
            else:
                self.np(vp.np, lambda cls: self.group.triples.append(self.profile.class_test(x, cls)))
        else:
            raise CompileError(f"not a verb phrase: {type(vp).__name__}")

    def _be(self, np, x: str) -> None:
        stored_form = self._stored_form_test(np, x)
        if stored_form is not None:
            self.group.filters.append(f"FILTER({stored_form})")
        elif isinstance(np, ir.Coord) and np.op == "or" and all(isinstance(i, ir.Ref) for i in np.items):
            terms = " ".join(self.term(i.term) for i in np.items)
            if x.startswith("?"):
                self.group.blocks.append([f"VALUES {x} {{ {terms} }}"])
            else:
                self.group.filters.append(f"FILTER({x} IN ({', '.join(self.term(i.term) for i in np.items)}))")
        elif isinstance(np, ir.Coord):
            if np.op == "and":
                for item in np.items:
                    self._be(item, x)
            else:
                self._union([lambda item=item: self._be(item, x) for item in np.items])
        elif (isinstance(np, ir.Quant) and np.det == "which" and np.noun is None and not np.rels
              and np.var is None and x.startswith("?")):
            # "is what" (Sparklis' "give me the year of the <P>"): the subject is an answer
            if x not in self.focus:
                self.focus.append(x)
            if not self.group.hidden and x not in self.visible_vars:
                self.visible_vars.append(x)
            if np.order is not None:
                # "... with the lowest-to-highest <P585> and give me lowest-to-highest the year
                # of the <P585>": this column is sorted after the orderings said before it
                if self.group.hidden:
                    raise CompileError("a superlative inside a negation or universal cannot be compiled")
                self.late_orders.append((np, x))
        elif isinstance(np, ir.Quant) and np.det in ("a", "the") and np.var is None and (
                x.startswith("?") or (np.noun is not None and np.order is None)):
            # on a constant too: "<Q1> is a <P> of <Q2>" is the triple <Q2> P <Q1>
            self.quant(np, lambda t: None, x)
        elif isinstance(np, ir.Ref):
            self._unify(x, self.term(np.term)) if x.startswith("?") else self.group.filters.append(
                f"FILTER({x} = {self.term(np.term)})"
            )
        else:
            self.np(np, lambda t: self._unify(x, t) if x.startswith("?") else self.group.filters.append(
                f"FILTER({x} = {t})"))

    def as_value_test(self, prop, value):
        """``value``, or the test it stands for where the KG stores the property's values in
        another form than the one written: a bare year given for a date-valued property (``has
        <P577> 2002``, ``at <P585> 2016``) is the value whose year that is (``has a <P577> whose
        year is 2002``: Wikidata stores a date, which no integer equals); a plain string given for
        a label or a language-tagged text (``has <label> "Inception"``, ``has <P1476> "Inception"``)
        the value whose text that is (``whose text is "Inception"``: "Inception"@en is no
        "Inception")."""
        items = _literals(value)
        if items is None:
            return value
        if (all(i.term.datatype == "integer" and _YEAR.match(i.term.value) for i in items)
                and self._time_valued(prop)):
            return ir.Quant("a", None, (ir.YearIs(ir.Be(value)),))  # "2002 or 2003": either year
        if all(i.term.datatype == "string" and i.term.lang is None for i in items) and self._language_tagged(prop):
            return ir.Quant("a", None, (ir.TextIs(ir.Be(value)),))
        return value

    def _stored_form_test(self, np, x: str) -> str | None:
        """``x = v`` (or ``x IN (...)``) in the form the KG stores ``x``'s values, where the
        values written are in another (see ``as_value_test``): "a <P569> that is 1961" is
        ``YEAR(x) = 1961``, "... that is 1961-08-04" the dateTime of that day, "a <P1476> that
        is "Inception" or "Heat"" ``STR(x) IN ("Inception", "Heat")``; None elsewhere."""
        items = _literals(np)
        if items is None:
            return None
        kinds = {i.term.datatype for i in items}
        if kinds <= {"integer", "date"} and x not in self.year_vars and self._date_valued(x):
            if kinds == {"integer"} and all(_YEAR.match(i.term.value) for i in items):
                left, values = f"YEAR({x})", [self.term(i.term) for i in items]
            elif kinds == {"date"}:
                left, values = x, [as_date_time(self.term(i.term)) for i in items]
            else:
                return None
        elif (kinds == {"string"} and all(i.term.lang is None for i in items)
              and self._language_tagged(self.value_of.get(x))):
            left, values = f"STR({x})", [self.term(i.term) for i in items]
        else:
            return None
        return f"{left} = {values[0]}" if len(values) == 1 else f"{left} IN ({', '.join(values)})"

    def _language_tagged(self, prop) -> bool:
        """Whether the property's values carry a language tag: a label, a description, an alias,
        or (the profile knows) a monolingual text such as a title."""
        if isinstance(prop, ir.Property) and self._is_label(prop):
            return (prop.label or "").strip().lower() in ("label", "description", "alias")
        pid = self._kg_property_id(prop)
        return pid is not None and self.profile.language_tagged(pid)

    def _date_valued(self, x: str) -> bool:
        """Whether ``x`` is a value of a property whose values are dates (the profile knows)."""
        return self._time_valued(self.value_of.get(x))

    def _time_valued(self, prop) -> bool:
        pid = self._kg_property_id(prop)
        return pid is not None and self.profile.time_valued(pid)

    def _kg_property_id(self, prop) -> str | None:
        """The ID of a property of the KG (forwards), None for a path, a pseudo-property or a
        label no lexicon resolves (<sitelinks>, or one the writer is told about later)."""
        if not isinstance(prop, ir.Property) or self._is_label(prop):
            return None
        try:
            return self._id(prop).lstrip("^")
        except LexiconError:
            return None

    def _compare(self, cmp: ir.Compare, x: str) -> None:
        def cast(a):
            # the profile's numeric comparison form (see KGProfile.numeric_cast)
            # (a variable only: Sparklis' "where the year of the <P> < 1955" tests YEAR(x) as is)
            if (self.profile.numeric_cast and cmp.op not in ("=", "!=") and x.startswith("?")
                    and (INTEGER_FORM.match(a) or DECIMAL_FORM.match(a))):
                return f"xsd:double(STR({x}))"
            return x

        arg = cmp.args[0]
        if cmp.op == "=" and isinstance(arg, ir.Coord) and arg.op == "or" and all(isinstance(i, ir.Ref) for i in arg.items):
            # "equal to (A or B)": one test, x = A || x = B
            self.group.filters.append("FILTER(" + " || ".join(f"{x} = {self.term(i.term)}" for i in arg.items) + ")")
            return

        def dated() -> bool:  # asked only of a year or a day (the profile's lookup)
            return (cmp.temporal or self._date_valued(x)) and x not in self.year_vars and not x.startswith("YEAR(")
        if cmp.op == "between":
            low, high = cmp.args

            def between(lo, hi):
                if _YEAR.match(lo) and _YEAR.match(hi) and dated():
                    # "between 1990 and 2000" on a date: from the start of 1990 to the end of 2000
                    self.group.filters.append(f"FILTER({x} >= {_year_start(int(lo))} && {x} < {_year_start(int(hi) + 1)})")
                else:
                    self.group.filters.append(f"FILTER({cast(lo)} >= {lo} && {cast(hi)} <= {hi})")

            self.np(low, lambda lo: self.np(high, lambda hi: between(lo, hi)))
            return

        def test(a):
            op = cmp.op
            is_year = _YEAR.match(a) and dated()
            if is_year and op in ("=", "!="):
                # "equal to 1990" on a date: its year
                self.group.filters.append(f"FILTER(YEAR({x}) {op} {a})")
                return
            if a.endswith('"^^xsd:date') and self._date_valued(x):
                a = as_date_time(a)  # a day as Wikidata stores a date
            if is_year:
                # "earlier than 2000" on a date: compare with the start of that year (or the
                # next one, for "later than").
                year = int(a) + (1 if op in (">", "<=") else 0)
                op = {">": ">=", "<=": "<"}.get(op, op)
                a = _year_start(year)
            self.group.filters.append(f"FILTER({cast(a)} {op} {a})")

        self.value_np(cmp.args[0], test)


def _literals(np) -> tuple | None:
    """The literals a noun phrase names (``1961``, ``"A" or "B"``), else None: the values a
    stored-form test (years, days, texts) may apply to. Returns at once for an item, the common
    case, since it runs for every statement and every "is X"."""
    if isinstance(np, ir.Ref):
        return (np,) if isinstance(np.term, ir.Literal) else None
    if isinstance(np, ir.Coord) and np.op == "or" and all(
            isinstance(i, ir.Ref) and isinstance(i.term, ir.Literal) for i in np.items):
        return np.items
    return None


def _year_start(year: int) -> str:
    return f'"{year:04d}-01-01T00:00:00Z"^^xsd:dateTime'


def _is_value_test(vp) -> bool:
    """A VP that only compares its subject with values (compilable on an expression)."""
    if isinstance(vp, ir.Compare):
        return all(isinstance(a, ir.Ref) and isinstance(a.term, ir.Literal) for a in vp.args)
    if isinstance(vp, ir.Be):
        # "is 2002", "is 2002 or 2003" (a VALUES block could not share its group with the BIND of
        # the value it lists: the test is written on the expression, YEAR(x) IN (2002, 2003))
        items = vp.np.items if isinstance(vp.np, ir.Coord) and vp.np.op == "or" else (vp.np,)
        return all(isinstance(i, ir.Ref) and isinstance(i.term, ir.Literal) for i in items)
    if isinstance(vp, (ir.And, ir.Or)):
        return all(_is_value_test(i) for i in vp.items)
    return False


def _str_test(test: ir.StrTest, x: str) -> str:
    value = sparql_string(test.value)
    if test.case_sensitive:
        call = {"matches": "REGEX", "contains": "CONTAINS", "starts": "STRSTARTS"}[test.op]
        return f"FILTER({call}(STR({x}), {value}))"
    if test.op == "matches":
        return f'FILTER(REGEX(STR({x}), {value}, "i"))'
    if test.op == "contains":
        return f"FILTER(CONTAINS(LCASE(STR({x})), LCASE({value})))"
    return f"FILTER(STRSTARTS(LCASE(STR({x})), LCASE({value})))"
