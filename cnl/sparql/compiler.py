"""IR -> SPARQL text through a KG profile.

The compilation follows SQUALL's semantics: a noun phrase is compiled with a continuation
``k(term)`` that receives the term it denotes (a variable, an IRI or a literal), so
quantifiers decide *where* the rest of the sentence goes (inside ``FILTER NOT EXISTS`` for
``no``/``every``, ``OPTIONAL`` for ``maybe``, a counting sub-query for ``at least 3``...).

Every IRI comes from a validated ID and every literal is escaped, so nothing a user writes
can change the query's structure.
"""
from __future__ import annotations

import re
from contextlib import contextmanager
from dataclasses import replace
from typing import Callable, Protocol

from cnl import ir
from cnl.dialects import get_dialect
from cnl.errors import CompileError, LexiconError
from cnl.sparql.profiles import KGProfile, get_profile
from cnl.sparql.syntax import LANGUAGE_TAG, sparql_string  # noqa: F401 (sparql_string: re-exported)

_VAR_SAFE = re.compile(r"[^A-Za-z0-9_]+")
_PREFIX_USE = re.compile(r"(?<![\w?])([A-Za-z][\w-]*):")
_KINDS = {ir.Entity: "entity", ir.Class: "class", ir.Property: "property"}
_ID_IN_TEXT = re.compile(r"^[PQ][1-9][0-9]*$")


class Resolver(Protocol):
    """What the compiler needs from a lexicon: a label (with its role) -> an ID or IRI."""

    def resolve(self, label: str, kind: str, span: tuple[int, int] | None = None) -> str: ...


# ------------------------------------------------------------------------------ resolution


def resolve_query(query: ir.Query, resolver: Resolver | None) -> ir.Query:
    """Fill in the ID of every term written by label; raise LexiconError when one cannot be.
    The same rules as the compiler's (``SparqlCompiler._id``, and a class noun written as a
    property names the class its label names, if any), with its per-label cache."""
    ids = SparqlCompiler(KGProfile(), resolver)

    def fix(term):
        if isinstance(term, ir.Class) and (term.id or "").startswith("P") and term.label:
            try:
                return replace(term, id=ids._id(replace(term, id=None)))
            except LexiconError:
                return term  # the property's values (see SparqlCompiler.noun)
        ident = ids._id(term)
        return term if ident == term.id else replace(term, id=ident)

    return ir.map_terms(query, fix)


_INT = re.compile(r"^[0-9]+$")
_YEAR = re.compile(r"^[0-9]{3,4}$")
_DEC = re.compile(r"^[0-9]+\.[0-9]+$")
_DATE = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")
_DATETIME = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$")


def sparql_literal(lit: ir.Literal) -> str:
    if lit.datatype == "integer" and _INT.match(lit.value):
        return lit.value
    if lit.datatype == "decimal" and _DEC.match(lit.value):
        return lit.value
    if lit.datatype == "date" and _DATE.match(lit.value):
        return f'"{lit.value}"^^xsd:date'
    if lit.datatype == "dateTime" and _DATETIME.match(lit.value):
        return f'"{lit.value}"^^xsd:dateTime'
    if lit.datatype == "string" and lit.lang is None:
        return sparql_string(lit.value)
    if lit.datatype == "string" and LANGUAGE_TAG.fullmatch(lit.lang):
        return sparql_string(lit.value) + "@" + lit.lang
    raise CompileError(f"invalid {lit.datatype} literal {lit.value!r}")


# ------------------------------------------------------------------------------ groups


class _YearExpr:
    """Compiler-internal NP: the year of ``arg`` as an inline expression."""

    __slots__ = ("arg",)

    def __init__(self, arg):
        self.arg = arg


class _Group:
    """One ``{ ... }`` group pattern; BINDs and FILTERs go last so their inputs are bound."""

    __slots__ = ("triples", "blocks", "binds", "filters", "hidden")

    def __init__(self, hidden: bool):
        self.triples: list[str] = []
        self.blocks: list[list[str]] = []
        self.binds: list[str] = []
        self.filters: list[str] = []
        self.hidden = hidden

    def lines(self) -> list[str]:
        out = list(self.triples)
        for block in self.blocks:
            out.extend(block)
        out.extend(self.binds)
        out.extend(self.filters)
        return out

    def empty(self) -> bool:
        return not (self.triples or self.blocks or self.binds or self.filters)


def _indent(lines: list[str]) -> list[str]:
    return ["  " + part for line in lines for part in line.split("\n")]


class SparqlCompiler:
    """Compiles one resolved IR query. Create one per query (it holds the query's state)."""

    def __init__(self, profile: KGProfile, resolver: Resolver | None = None):
        self.profile = profile
        self.resolver = resolver
        self.resolved: dict[tuple[str, str | None], str] = {}
        self.group = _Group(hidden=False)
        self.var_names: set[str] = set()
        self.visible_vars: list[str] = []   # variables in scope at the top, in creation order
        self.var_order: dict[str, int] = {}
        self.focus: list[str] = []          # which / what / give me
        self.counted: list[str] = []        # how many
        self.order_keys: list[tuple[str, bool]] = []  # (expression, descending)
        self.limit: int | None = None
        self.offset: int | None = None
        self.coref: dict[str, str] = {}
        self.pending_quals: list[list[tuple[str, str]]] = []
        self.count_order_var: str | None = None
        self.year_vars: set[str] = set()    # bound to YEAR(...): compared with plain years
        self.late_orders: list = []         # (Quant, var): orderings applied after the rest
        self.aggregates: list = []          # (op, value variable, alias): "the average <P> of ..."
        self.having: list = []              # (condition, outer variables): count tests as HAVING
        self.top = self.group
        self.owners: list[str] = []         # subjects of the statements being compiled ("its <P>")
        self.nested_orders = False          # superlatives rank their own NP in a sub-query (ASK)

    # ---------------------------------------------------------------- variables
    def fresh(self, hint: str | None) -> str:
        base = _VAR_SAFE.sub("_", (hint or "x").lower()).strip("_")[:30] or "x"
        if base[0].isdigit():
            base = "v" + base
        name, n = base, 1
        while name in self.var_names:
            n += 1
            name = f"{base}{n}"
        self.var_names.add(name)
        var = "?" + name
        self.var_order[var] = len(self.var_order)
        if not self.group.hidden:
            self.visible_vars.append(var)
        return var

    @contextmanager
    def subgroup(self, hidden: bool | None = None):
        outer = self.group
        inner = _Group(hidden=outer.hidden if hidden is None else hidden)
        self.group = inner
        try:
            yield inner
        finally:
            self.group = outer

    # ---------------------------------------------------------------- terms
    def term(self, term) -> str:
        if isinstance(term, ir.Literal):
            return sparql_literal(term)
        if isinstance(term, ir.Var):
            return self.coref_var(term.name, None)
        if isinstance(term, ir.Entity):
            return self.profile.iri(self._id(term), "entity")
        if isinstance(term, ir.Class):
            return self.profile.iri(self._id(term), "class")
        raise CompileError(f"cannot use {type(term).__name__} as a value")

    def _id(self, term) -> str:
        """The term's ID; a label is resolved through the resolver (once per label)."""
        ident = term.id
        if ident:
            return ident
        kind = _KINDS[type(term)]
        key = (kind, term.label)
        found = self.resolved.get(key)
        if found is None:
            if self.resolver is None:
                raise LexiconError(
                    f"{kind} label {term.label!r} has no ID: pass a lexicon, or write it by ID (<Q…>/<P…>)",
                    label=term.label, kind=kind, position=term.span[0] if term.span else None,
                )
            found = self.resolved[key] = self.resolver.resolve(term.label, kind, term.span)
        return found

    def _is_label(self, prop: ir.Property) -> bool:
        """The pseudo-property "label", unless the lexicon gives it an ID."""
        if isinstance(prop, ir.PropPath) or prop.id is not None or (prop.label or "").strip().lower() != "label":
            return False
        if self.resolver is None:
            return True
        try:
            self._id(prop)
        except LexiconError:
            return True
        return False

    def coref_var(self, name: str, hint: str | None) -> str:
        if name not in self.coref:
            self.coref[name] = self.fresh(hint or name)
        return self.coref[name]

    # ---------------------------------------------------------------- query
    def compile(self, query: ir.Query) -> str:
        subject, vp = query.subject, query.vp
        # a yes/no question has no answers to rank: a superlative in it ranks its own noun
        # phrase, in a sub-query ("Has <Q79> <P36> the <Q515> that has the highest <P1082>?")
        self.nested_orders = vp is not None and not ir.asks_for_values(query)
        if vp is None and isinstance(subject, ir.Aggregate):
            self._aggregate(subject)
        elif vp is None:
            self._give_me(subject)
        elif (isinstance(vp, ir.Be) and isinstance(vp.np, ir.Aggregate) and isinstance(subject, ir.Quant)
              and subject.det == "which" and subject.noun is None and not subject.rels and subject.order is None):
            self._aggregate(vp.np)  # "What is the average <P> of ...?"
        elif self._is_what_is(subject, vp):
            # "What is the <P> of X?": the NP after "is" is the answer itself.
            inner = vp.np
            self.np(replace(inner, det=subject.det), lambda t: None)
        else:
            self.np(subject, lambda s: self.vp(vp, s))
        for q, v in self.late_orders:
            self._order(q, v)
        return self._render()

    @staticmethod
    def _is_what_is(subject, vp) -> bool:
        return (
            isinstance(subject, ir.Quant) and subject.det in ("which", "how_many") and subject.noun is None
            and not subject.rels and subject.order is None and isinstance(vp, ir.Be)
            and isinstance(vp.np, ir.Quant) and vp.np.det in ("a", "the") and vp.np.var is None
        )

    def _aggregate(self, agg: ir.Aggregate) -> None:
        """The answer is one value computed from the NP's values (one per group of the
        question words inside it): SELECT ?key (AVG(?v) AS ?avg) ... GROUP BY ?key."""
        if agg.op not in ir.Aggregate.OPS:
            raise CompileError(f"unknown aggregate {agg.op!r}")
        values: list[str] = []
        self.np(agg.np, values.append)
        if len(values) != 1 or not values[0].startswith("?"):
            raise CompileError("an aggregate needs the values of one noun phrase (a variable)")
        self.aggregates.append((agg.op, values[0], self.fresh(agg.op)))

    def _give_me(self, np) -> None:
        if isinstance(np, ir.Quant) and np.det == "a" and any(
                isinstance(n, ir.Quant) and n.det == "how_many" for n in ir.walk(np.rels)):
            # "give me everything that is the <P179> of a literary work and give me the number
            # of literary work": the count is the answer
            self.np(np, lambda t: None)
            return
        if isinstance(np, ir.Quant) and np.det in ("a", "the", "every"):
            # "give me every film that ...": list them (Sparklis' reading), not a universal.
            np = replace(np, det="which")
            self.np(np, lambda t: None)
            return

        def project(term):
            if term.startswith("?") and term not in self.focus:
                self.focus.append(term)

        self.np(np, project)
        if not self.focus and not self.counted:
            raise CompileError("'give me' needs something to list (a noun phrase with a variable)")

    # ---------------------------------------------------------------- noun phrases
    def np(self, np, k: Callable[[str], None], var: str | None = None) -> None:
        named = _named_value(np) if var is None else None
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
            k("NOW()")
        elif isinstance(np, ir.AnyValue):
            raise CompileError("'a <P> statement' only follows 'has': a statement whose value is not said")
        elif isinstance(np, ir.Its):
            if not self.owners:
                raise CompileError("'its <P>' needs a statement about something: 'has a <P> later than its <Q>'")
            value = self.fresh(np.prop.label or np.prop.id)
            self.statement(self.owners[-1], np.prop, value, np.quals)
            k(value)
        elif isinstance(np, ir.Aggregate):
            raise CompileError("an aggregate (total, average, minimum, maximum) can only be the answer: "
                               "'Give me the average <P> of ...' or 'What is the average <P> of ...?'")
        elif isinstance(np, ir.Arith):
            left_year, right_year = _year_operand(np.left), _year_operand(np.right)
            if left_year is not None or right_year is not None:
                # "2023 - the year of X": use YEAR(x) inline, as one expression.
                np = ir.Arith(np.op, left_year or np.left, right_year or np.right)

            def with_left(left):
                def with_right(right):
                    result = var or self.fresh("value")
                    self.group.binds.append(f"BIND(({left} {np.op} {right}) AS {result})")
                    k(result)
                self.np(np.right, with_right)
            self.np(np.left, with_left)
        else:
            raise CompileError(f"not a noun phrase: {type(np).__name__}")

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
        for branch in branches:
            with self.subgroup() as g:
                branch()
            groups.append(g)
        block: list[str] = []
        for i, g in enumerate(groups):
            block.append(("UNION {" if i else "{"))
            block.extend(_indent(g.lines()))
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
        hint = _noun_hint(q.noun)
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
                outer.filters.append(_not_exists(inner))
            self.group.filters.append(_not_exists(outer))
        elif det == "no":
            with self.subgroup(hidden=True) as g:
                body()
                k(v)
            self.group.filters.append(_not_exists(g))
        elif det == "maybe":
            with self.subgroup() as g:
                body()
                k(v)
            self.group.blocks.append(["OPTIONAL {", *_indent(g.lines()), "}"])
        elif det in _COUNT_TESTS:
            self._numeric(q, v, body, k)
        else:
            raise CompileError(f"unknown determiner {det!r}")
        if (det in ("every", "no") or det in _COUNT_TESTS) and v in self.visible_vars:
            self.visible_vars.remove(v)  # only bound inside a negation or a sub-query
        if q.order is not None and det not in ("a", "the", "which", "how_many", "number_of"):
            raise CompileError(f"a superlative cannot be combined with {det!r}")

    def _ranked(self, q: ir.Quant, v: str, body) -> None:
        """A noun phrase with a superlative inside, where no answer is ranked: a sub-query
        ``{ SELECT ?v WHERE { ... } ORDER BY ... LIMIT n }`` (SQUALL's nested modifier)."""
        saved = (self.order_keys, self.limit, self.offset, self.nested_orders)
        self.order_keys, self.limit, self.offset, self.nested_orders = [], None, None, False
        try:
            inner = v if v.startswith("?") else self.fresh(_noun_hint(q.noun))  # "Is <Q90> the ...?"
            with self.subgroup() as g:
                body(inner)
                if q.order is not None:
                    self._order(q, inner)
            if self.count_order_var is not None:
                raise CompileError("a count ranking ('the most') inside a yes/no question is not supported")
            block = ["{", f"  SELECT {inner} WHERE {{", *_indent(_indent(g.lines())), "  }"]
            block.append("  ORDER BY " + " ".join(f"{'DESC' if d else 'ASC'}({key})" for key, d in self.order_keys))
            if self.offset:
                block.append(f"  OFFSET {self.offset}")
            if self.limit is not None:
                block.append(f"  LIMIT {self.limit}")
            block.append("}")
            self.group.blocks.append(block)
            if inner != v:
                self._unify(inner, v)
        finally:
            self.order_keys, self.limit, self.offset, self.nested_orders = saved

    def _order(self, q: ir.Quant, v: str) -> None:
        if self.group.hidden:
            raise CompileError("a superlative inside a negation or universal cannot be compiled")
        order = q.order
        if order.word in ("most", "least", "fewest") and not isinstance(q.noun, ir.YearOf):
            # "the most <song>", "has the most <P>", "the most things": rank the other
            # variables by how many they have (SQUALL's count determiner; a value is ranked
            # with "highest"/"lowest").
            if self.count_order_var is not None:
                raise CompileError("only one 'most'/'least' per query is supported")
            self.count_order_var = v
            self.order_keys.append(("?count", order.word == "most"))
        else:
            self.order_keys.append((v, order.descending))
        if len(self.order_keys) > 1:
            return  # the first superlative decides the limit; later ones break ties
        if not order.limit:
            return  # an ordering only (Sparklis' highest-to-lowest): every answer, sorted
        if order.to_rank is not None:
            if order.to_rank < order.rank:
                raise CompileError(f"empty rank range {order.rank} to {order.to_rank}")
            self.offset = order.rank - 1 or None
            self.limit = order.to_rank - order.rank + 1
        elif order.count is not None:
            self.limit = order.count
        else:
            self.offset = order.rank - 1 or None
            self.limit = 1

    def _numeric(self, q, v, body, k) -> None:
        if q.det in ("at_most", "fewer_than"):
            words = q.det.replace("_", " ")
            raise CompileError(f"'{words} N' needs a count that can be zero; write 'not at least N'")
        before = set(self.var_order)
        with self.subgroup(hidden=True) as g:
            body()
            k(v)
        text = "\n".join(g.lines())
        outer = [x for x in sorted(before, key=self.var_order.get)
                 if x != v and re.search(re.escape(x) + r"\b", text)]
        op = _COUNT_TESTS[q.det]
        if self.profile.having:
            # the profile's HAVING form: the counted pattern joins the query, the answers are
            # grouped, HAVING(COUNT(?v) op N) (checked in _render: only on the answers)
            if self.group is not self.top or self.group.hidden:
                raise CompileError("a count condition inside another construct cannot be written as HAVING")
            self.group.triples.extend(g.triples)
            self.group.blocks.extend(g.blocks)
            self.group.binds.extend(g.binds)
            self.group.filters.extend(g.filters)
            self.having.append((f"{self._count(v)} {op} {q.number}", outer))
            return
        count = self.fresh("n")
        keys = " ".join(outer)
        head = f"SELECT {keys + ' ' if keys else ''}({self._count(v)} AS {count}) WHERE {{"
        block = ["{", "  " + head, *_indent(_indent(g.lines())), "  }"]
        if keys:
            block.append(f"  GROUP BY {keys}")
        block.append("}")
        self.group.blocks.append(block)
        self.group.filters.append(f"FILTER({count} {op} {q.number})")

    def _order_expr(self, key: str) -> str:
        """An ORDER BY key; the count of "the most" is written in place when it is not a column
        (order_columns False: ``ORDER BY DESC(COUNT(?x))``, as hand-written queries rank)."""
        if key == "?count" and self.count_order_var and not self.profile.order_columns:
            return self._count(self.count_order_var)
        return key

    def _count(self, v: str) -> str:
        """COUNT of ``v``: of distinct values unless the profile counts solutions."""
        return f"COUNT(DISTINCT {v})" if self.profile.count_distinct else f"COUNT({v})"

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
            if noun.of is None:
                subject = self.fresh("subject")
                self.statement(subject, noun.prop, v, noun.quals, any_rank=noun.any_rank)
            else:
                self.np(noun.of, lambda s: self.statement(s, noun.prop, v, noun.quals, any_rank=noun.any_rank))
        elif isinstance(noun, ir.DatePart):
            if noun.part not in ir.DatePart.PARTS:
                raise CompileError(f"unknown part of a date {noun.part!r}")
            self.np(noun.arg, lambda t: self.group.binds.append(f"BIND({noun.part.upper()}({t}) AS {v})"))
        elif isinstance(noun, ir.YearOf):
            self.year_vars.add(v)
            self.np(noun.arg, lambda t: self.group.binds.append(f"BIND({self._year(t)} AS {v})"))
        else:
            raise CompileError(f"not a noun: {type(noun).__name__}")

    # ---------------------------------------------------------------- statements
    def statement(self, subject: str, prop: ir.Property, obj: str | None, quals, inverse: bool = False,
                  extra: list | None = None, any_rank: bool = False) -> None:
        """``subject prop obj`` with qualifiers; ``obj`` None: a statement said without its value
        (``has a <P> statement``); ``any_rank``: a statement of any rank (``at any rank``)."""
        if obj is None and (inverse or isinstance(prop, ir.PropPath)):
            raise CompileError("'a <P> statement' needs one property read forwards")
        if self._is_label(prop) and (obj is None or any_rank):
            raise CompileError("a label is no statement: it has no rank and always a value")
        if self._is_label(prop) and not quals and not extra:
            # "has a <label> matching ..." / Sparklis' "that matches ...": the profile's label
            # predicate, no statement model
            subject, obj = (obj, subject) if inverse else (subject, obj)
            self.group.triples.append(f"{subject} {self.profile.label_predicate} {obj} .")
            return
        if isinstance(prop, ir.PropPath):
            # "<P22> or <P25>": one statement of any of them (the profile's statement form);
            # any other path is written with the KG's direct properties and takes no qualifier
            pid = self._alternative(prop)
        else:
            pid = self._id(prop)
            if pid.startswith("^"):  # an inverse property: "member" = ^P463 "member of"
                pid = pid[1:]
                inverse = not inverse
        if inverse:
            subject, obj = obj, subject
        if subject.startswith('"') or subject[0].isdigit() or subject.startswith(("YEAR(", "(")):
            raise CompileError(f"a value ({subject}) cannot be the subject of a statement")
        pending = extra if extra is not None else self.pending_quals.pop() if self.pending_quals else []
        if isinstance(prop, ir.PropPath) and pid is None:
            if quals or pending or any_rank:
                raise CompileError("a property path takes no qualifiers or rank (only an alternative of properties "
                                   "does)")
            self.group.triples.append(f"{subject} {self._path(prop)} {obj} .")
            return

        def emit(values, i, absent=()):
            if i == len(quals):
                if isinstance(pid, tuple):
                    if absent:
                        raise CompileError("'at no <Q>' needs one property, not an alternative")
                    self.group.triples.append(
                        self.profile.alternative_statement(subject, pid, obj, values + pending, any_rank))
                elif absent:
                    self._statement_without(subject, pid, obj, values + pending, absent)
                else:
                    self.group.triples.append(self.profile.statement(subject, pid, obj, values + pending,
                                                                     any_rank=any_rank))
                return
            qual = quals[i]
            qid = self._id(qual.prop)
            value = qual.value
            if isinstance(value, ir.Quant) and value.det == "no" and value.var is None and value.order is None:
                # "at no <P582>": this statement has no such qualifier (the statement, not the
                # triple, is what the negation keeps: a NOT EXISTS on the statement node)
                emit(values, i + 1, absent + ((qid, qual),))
            elif isinstance(value, ir.Quant) and value.noun is None and value.var is None:
                # "at the earliest <P580>": name the value after the qualifier.
                self.quant(value, lambda t: emit(values + [(qid, t)], i + 1, absent), self.fresh(qual.prop.label or qid))
            else:
                self.np(value, lambda t: emit(values + [(qid, t)], i + 1, absent))

        emit([], 0)

    def _statement_without(self, subject: str, pid: str, obj: str, values, absent) -> None:
        """A statement through a named node, with ``FILTER NOT EXISTS { node pq:Q ?v ... }``
        for each qualifier it must not have (``at no <P582>``, ``at no <P582> that ...``)."""
        node = self.fresh("statement")
        if node in self.visible_vars:
            self.visible_vars.remove(node)  # the statement itself is no answer
        self.group.triples.append(self.profile.statement(subject, pid, obj, values, node=node))
        for qid, qual in absent:
            value = qual.value
            with self.subgroup(hidden=True) as g:
                v = self.fresh(qual.prop.label or qid)
                g.triples.append(self.profile.qualifier(node, qid, v))
                self.noun(value.noun, v)
                for rel in value.rels:
                    self.vp(rel, v)
            self.group.filters.append(_not_exists(g))

    # ---------------------------------------------------------------- property paths
    def _alternative(self, path: ir.PropPath) -> tuple[str, ...] | None:
        """The IDs of an alternative of plain (forward, non-label) properties, else None."""
        if path.op != "|" or not all(isinstance(i, ir.Property) and not self._is_label(i) for i in path.items):
            return None
        ids = tuple(self._id(i) for i in path.items)
        return None if any(i.startswith("^") for i in ids) else ids

    def _path(self, path, within: str = "") -> str:
        """SPARQL property path text. ``within``: the operator around it ("" at the top, "|" or
        "/" for an item of a list, "1" for the operand of ^ or of a suffix); what binds less
        tightly than that is parenthesized."""
        if isinstance(path, ir.Property):
            if self._is_label(path):
                return self.profile.label_predicate
            pid = self._id(path)
            if pid.startswith("^"):
                text = "^" + self.profile.path_predicate(pid[1:])
                return f"({text})" if within == "1" else text
            return self.profile.path_predicate(pid)
        if not isinstance(path, ir.PropPath) or path.op not in ir.PropPath.OPS or not path.items:
            raise CompileError(f"not a property path: {path!r}")
        op, items = path.op, path.items
        if op in "|/":
            if len(items) < 2:
                raise CompileError(f"a property path {op!r} needs two items or more")
            text = op.join(self._path(i, op) for i in items)
            return f"({text})" if within else text
        if len(items) != 1:
            raise CompileError(f"a property path {op!r} takes one item")
        text = "^" + self._path(items[0], "1") if op == "^" else self._path(items[0], "1") + op
        return f"({text})" if within == "1" else text

    # ---------------------------------------------------------------- verb phrases
    def vp(self, vp, x: str) -> None:
        if isinstance(vp, ir.Stmt):
            if vp.order is not None:
                raise CompileError("a superlative over a statement ('has the highest <P> X') is not supported")
            hint = _prop_hint(vp.prop)
            # an "at which <Q>" qualifier belongs to this statement, not to the first one its
            # object's relative clauses emit
            claimed = self.pending_quals.pop() if self.pending_quals else []

            def link(o):
                self.statement(x, vp.prop, o, vp.quals, vp.inverse, extra=claimed, any_rank=vp.any_rank)

            self.owners.append(x)  # "its <Q>" in the object means x's <Q>

            obj = vp.obj
            named = _named_value(obj)
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
                self.group.filters.append(_not_exists(g))
        elif isinstance(vp, ir.And):
            for item in vp.items:
                self.vp(item, x)
        elif isinstance(vp, ir.Or):
            self._union([lambda item=item: self.vp(item, x) for item in vp.items])
        elif isinstance(vp, ir.StrTest):
            self.group.filters.append(_str_test(vp, x))
        elif isinstance(vp, ir.LangIs):
            if not LANGUAGE_TAG.fullmatch(vp.lang):
                raise CompileError(f"invalid language tag {vp.lang!r}")
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
        elif isinstance(vp, ir.QualifierOf):
            def with_subject(s):
                self.pending_quals.append([(self._id(vp.prop), x)])
                self.vp(vp.vp, s)
                if self.pending_quals and self.pending_quals[-1] == [(self._id(vp.prop), x)]:
                    raise CompileError("'at which <Q> ...' needs a statement to qualify")
            self.np(vp.subject, with_subject)
        else:
            raise CompileError(f"not a verb phrase: {type(vp).__name__}")

    def _year(self, t: str) -> str:
        # the profile's year form (see KGProfile.year_cast)
        return f"YEAR(xsd:dateTime({t}))" if self.profile.year_cast else f"YEAR({t})"

    def _be(self, np, x: str) -> None:
        if isinstance(np, ir.Coord) and np.op == "or" and all(isinstance(i, ir.Ref) for i in np.items):
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

    def _compare(self, cmp: ir.Compare, x: str) -> None:
        def cast(a):
            # the profile's numeric comparison form (see KGProfile.numeric_cast)
            # (a variable only: Sparklis' "where the year of the <P> < 1955" tests YEAR(x) as is)
            if (self.profile.numeric_cast and cmp.op not in ("=", "!=") and x.startswith("?")
                    and (_INT.match(a) or _DEC.match(a))):
                return f"xsd:double(STR({x}))"
            return x

        arg = cmp.args[0]
        if cmp.op == "=" and isinstance(arg, ir.Coord) and arg.op == "or" and all(isinstance(i, ir.Ref) for i in arg.items):
            # "equal to (A or B)": one test, x = A || x = B
            self.group.filters.append("FILTER(" + " || ".join(f"{x} = {self.term(i.term)}" for i in arg.items) + ")")
            return
        if cmp.op == "between":
            low, high = cmp.args
            self.np(low, lambda lo: self.np(high, lambda hi: self.group.filters.append(
                f"FILTER({cast(lo)} >= {lo} && {cast(hi)} <= {hi})")))
            return

        def test(a):
            op = cmp.op
            if cmp.temporal and _YEAR.match(a) and x not in self.year_vars and not x.startswith("YEAR("):
                # "earlier than 2000" on a date: compare with the start of that year (or the
                # next one, for "later than").
                year = int(a) + (1 if op in (">", "<=") else 0)
                op = {">": ">=", "<=": "<"}.get(op, op)
                a = f'"{year:04d}-01-01T00:00:00Z"^^xsd:dateTime'
            self.group.filters.append(f"FILTER({cast(a)} {op} {a})")

        self.np(cmp.args[0], test)

    # ---------------------------------------------------------------- output
    def _render(self) -> str:
        profile = self.profile
        where = self.group.lines()
        if self.having and (self.aggregates or self.counted or self.count_order_var or not self.focus):
            raise CompileError("a count condition written as HAVING needs a question that lists answers "
                               "(no other count or aggregate)")
        if self.aggregates:
            if self.counted or self.count_order_var or self.order_keys:
                raise CompileError("an aggregate cannot be combined with a count or an ordering")
            op, value, alias = self.aggregates[0]
            keys = [v for v in self.focus if v != value]
            head = "SELECT " + " ".join(keys + [f"({op.upper()}({value}) AS {alias})"])
            group_by = keys
        elif self.counted:
            keys = [v for v in self.focus if v not in self.counted]
            counted = self.counted[0]
            head = "SELECT " + " ".join(keys + [f"({self._count(counted)} AS ?count)"])
            group_by = keys
        elif self.focus or self.order_keys:
            cols = list(self.visible_vars) if profile.projection == "all" else list(self.focus)
            if profile.projection == "focus" and profile.order_columns:
                for key, _ in self.order_keys:
                    if key.startswith("?") and key not in cols:
                        cols.append(key)
            if self.count_order_var:
                cols = [c for c in cols if c != self.count_order_var and c != "?count"]
            if not cols:
                cols = list(self.focus)
            group_by = cols if self.count_order_var or self.having else []
            for _, outer in self.having:
                if not set(outer) <= set(cols):
                    raise CompileError("a count condition written as HAVING must be about the answers")
            if self.count_order_var and profile.order_columns:
                cols = cols + [f"({self._count(self.count_order_var)} AS ?count)"]
            if profile.label_columns and not self.count_order_var and not self.having:
                for col in list(cols):
                    label = f"{col}Label"
                    where.append(f"OPTIONAL {{ {col} {profile.label_predicate} {label} . "
                                 + (f'FILTER(LANG({label}) = "{profile.label_language}") ' if profile.label_language else "")
                                 + "}")
                    cols.append(label)
            head = _SELECT[profile.duplicates] + " ".join(cols)
        else:
            head = "ASK"
            group_by = []
        lines = []
        body = "\n".join(where)
        used = set(_PREFIX_USE.findall(_strip_strings(body + "\n" + head)))
        used_prefixes = [p for p in profile.prefixes if p in used]
        for prefix in used_prefixes:
            lines.append(f"PREFIX {prefix}: <{profile.prefixes[prefix]}>")
        lines.append(f"{head} WHERE {{")
        lines.extend(_indent(where))
        lines.append("}")
        if group_by:
            lines.append("GROUP BY " + " ".join(group_by))
        for condition, _ in self.having:
            lines.append(f"HAVING({condition})")
        if head != "ASK":
            if self.order_keys:
                lines.append("ORDER BY " + " ".join(
                    f"{'DESC' if desc else 'ASC'}({self._order_expr(key)})" for key, desc in self.order_keys))
            if self.offset:
                lines.append(f"OFFSET {self.offset}")
            if self.limit is not None:
                lines.append(f"LIMIT {self.limit}")
            elif profile.default_limit and not self.counted:
                lines.append(f"LIMIT {profile.default_limit}")
        return "\n".join(lines) + "\n"


# numeric determiners: the count's test
_COUNT_TESTS = {"at_least": ">=", "at_most": "<=", "exactly": "=", "more_than": ">", "fewer_than": "<"}

_SELECT = {"removed": "SELECT DISTINCT ", "kept": "SELECT ", "reduced": "SELECT REDUCED "}

_STRING_LITERAL = re.compile(r'"(?:[^"\\]|\\.)*"')


def _strip_strings(text: str) -> str:
    return _STRING_LITERAL.sub('""', text) if '"' in text else text


def _is_value_test(vp) -> bool:
    """A VP that only compares its subject with values (compilable on an expression)."""
    if isinstance(vp, ir.Compare):
        return all(isinstance(a, ir.Ref) and isinstance(a.term, ir.Literal) for a in vp.args)
    if isinstance(vp, ir.Be):
        return isinstance(vp.np, ir.Ref) and isinstance(vp.np.term, ir.Literal)
    if isinstance(vp, (ir.And, ir.Or)):
        return all(_is_value_test(i) for i in vp.items)
    return False


def _is_curie(term: str) -> bool:
    return bool(re.match(r"^[A-Za-z][\w-]*:[\w.-]*$", term)) and not term.startswith(("?", '"'))


def _year_operand(np):
    """``the year of X`` as an operand: ``ir.Ref`` of nothing; returns a marker NP or None."""
    if (isinstance(np, ir.Quant) and np.det in ("a", "the") and isinstance(np.noun, ir.YearOf)
            and not np.rels and np.order is None and np.var is None):
        return _YearExpr(np.noun.arg)
    return None


def _named_value(obj):
    """(term, other relative clauses) when a value NP names one entity: ``a <P> that is <X>``."""
    if not (isinstance(obj, ir.Quant) and obj.det in ("a", "the") and obj.noun is None
            and obj.order is None and obj.var is None):
        return None
    for i, rel in enumerate(obj.rels):
        if isinstance(rel, ir.Be) and isinstance(rel.np, ir.Ref) and isinstance(rel.np.term, ir.Entity):
            return rel.np.term, obj.rels[:i] + obj.rels[i + 1:]
    return None


def _not_exists(group: _Group) -> str:
    inner = group.lines()
    return "FILTER NOT EXISTS {\n" + "\n".join(_indent(inner)) + "\n}"


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


def _noun_hint(noun) -> str | None:
    if isinstance(noun, ir.ClassNoun):
        return noun.cls.label or noun.cls.id
    if isinstance(noun, ir.RelNoun):
        return _prop_hint(noun.prop)
    if isinstance(noun, ir.YearOf):
        return "year"
    if isinstance(noun, ir.DatePart):
        return noun.part
    return None


def _prop_hint(prop) -> str | None:
    """A variable name for a property's values: its label or ID (a path's first property's)."""
    while isinstance(prop, ir.PropPath):
        prop = prop.items[0]
    return prop.label or prop.id


def compile_query(query: ir.Query, kg="wikidata", resolver: Resolver | None = None, **profile_options) -> str:
    """Resolve labels (through ``resolver``) and compile an IR query to SPARQL text."""
    profile = get_profile(kg, **profile_options)
    return SparqlCompiler(profile, resolver).compile(query)


def parse_cnl(text: str, *, dialect="squall", kg="wikidata", resolver: Resolver | None = None,
              notation: str | None = None) -> ir.Query:
    """CNL text in ``dialect`` -> IR, for compiling with ``kg``. A ``resolver`` with
    ``labels(kind)`` (a lexicon) tells dialects that write terms without brackets which labels
    exist; without one, the profile's own property vocabulary does (Wikidata's property labels)."""
    known = callable(getattr(resolver, "labels", None))
    properties = resolver if known else get_profile(kg).property_labels()
    return get_dialect(dialect).parse(text, notation=notation, entities=resolver, properties=properties)


def compile_cnl(text, *, dialect="squall", kg="wikidata", resolver: Resolver | None = None,
                notation: str | None = None, **profile_options) -> str:
    """CNL text in ``dialect`` (or an IR query) -> SPARQL (see :func:`parse_cnl`)."""
    profile = get_profile(kg, **profile_options)
    query = text if isinstance(text, ir.Query) else parse_cnl(text, dialect=dialect, kg=profile, resolver=resolver,
                                                             notation=notation)
    return compile_query(query, kg=profile, resolver=resolver)
