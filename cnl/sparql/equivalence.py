"""Equivalence of two SPARQL queries by a canonical form of their algebra.

Both queries are parsed with rdflib and turned into a small tree in which the order-free
parts (triples of a group, UNION operands, ``&&``/``||``/``=`` operands, GROUP BY keys, the
projection) are bags, and variables are placeholders. Variables and blank nodes are then named
canonically by colour refinement (Weisfeiler-Lehman style) with individualisation: a name
never depends on how the query spelled its variables or ordered its triples, and two queries
get the same canonical text exactly when one is a renaming of the other (modulo the listed
normalisations).

Normalisations (deliberate choices, see cnl-reference §6):
- blank nodes (``[ ps:P ?o ]``) are variables that are not projected;
- adjacent groups / BGPs are merged (``{ a } { b }`` == ``{ a b }``), joins are unordered;
- DISTINCT / REDUCED are ignored (answers compared as sets), unless ``distinct=True`` (the
  round trip's strict check): then SELECT, SELECT DISTINCT and SELECT REDUCED differ, except
  where duplicates cannot occur (an ASK; an aggregate whose GROUP BY keys are all projected,
  one row per group; a SELECT of every variable of one group of plain triples and FILTERs,
  whose solutions are distinct mappings);
- an aggregate's alias is a new variable even when it reuses the name of a pattern variable
  that is not a group key (``SELECT (COUNT(?x) AS ?x)``: after grouping, ?x is not in scope);
- ``COUNT(*)`` is ``COUNT(?x)`` when ``?x`` is the one variable in scope of a pattern of triples
  and FILTERs only (every solution binds it), with or without DISTINCT;
- ``LIMIT default_limit`` (200) is dropped on a SELECT without ORDER BY and OFFSET; ASK ignores
  any LIMIT >= 1;
- projection order is ignored; ``SELECT *`` is the in-scope variables;
- ``a > b`` is ``b < a``; numbers written ``2004`` and ``"2004"^^xsd:integer`` are one literal;
- ``FILTER(?u = <iri>)`` on a variable read only in one triple beside it is that triple with
  ``<iri>`` in its place (an IRI equals only itself);
- ``wdt:P`` and ``p:P/ps:P`` stay different (different graph paths).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from rdflib import BNode, Literal, URIRef, Variable
from rdflib.namespace import XSD
from rdflib.plugins.sparql.parserutils import CompValue

from cnl.sparql.algebra import parse_algebra
from cnl.sparql.namespaces import PREFIXES
from cnl.sparql.syntax import regex_literal
from cnl.errors import SPARQLParseError
from cnl.sparql.equivalence_rewrites import (  # noqa: F401 — Var and Bag are part of this module's API
    Bag, Var, aggregate_aliases, certain, chained_binds, constant_binds, duplicates_unseen, exists_as_joins, filtered, in_scope, inline_binds, inline_order_binds, is_pattern, minus_is_not_exists, named_item_tests, only_variable, rows_distinct, rows_unique, subquery_locals, union_locals, values_test, walk)

DEFAULT_LIMIT = 200
_MAX_BRANCHES = 64  # individualisation leaves tried before settling for the first (symmetric BGPs)

# IRI base -> "prefix:", longest first so that .../prop/direct/ wins over .../prop/.
_PREFIXES = {iri: f"{short}:" for short, iri in sorted(PREFIXES.items(), key=lambda kv: -len(kv[1]))}


# ---------------------------------------------------------------------------------------
# the intermediate tree

def _iri(iri: str) -> str:
    for base, short in _PREFIXES.items():
        if iri.startswith(base) and iri[len(base):].replace("_", "").isalnum():
            return short + iri[len(base):]
    return f"<{iri}>"


_NUMERIC = {XSD.integer, XSD.int, XSD.long, XSD.short, XSD.nonNegativeInteger}


def _term(term) -> str:
    if isinstance(term, URIRef):
        return _iri(str(term))
    if isinstance(term, Literal):
        if term.datatype in _NUMERIC:
            try:
                return str(int(str(term)))
            except ValueError:
                pass
        if term.datatype is not None and term.datatype != XSD.string:
            return f'"{term}"^^{_iri(str(term.datatype))}'
        if term.language:
            return f'"{term}"@{term.language.lower()}'
        return f'"{term}"'
    return str(term)


def _render(node, naming) -> str:
    """Text of ``node`` with each Var written as ``naming[var]``; bags sorted."""
    if isinstance(node, Var):
        return naming[node]
    if isinstance(node, Bag):
        return "{" + " ; ".join(sorted(_render(i, naming) for i in node.items)) + "}"
    if isinstance(node, tuple):
        if node and isinstance(node[0], str) and node[0].isupper():  # ("KIND", *children)
            return node[0] + "(" + ", ".join(_render(c, naming) for c in node[1:]) + ")"
        return "[" + ", ".join(_render(c, naming) for c in node) + "]"
    if node is None:
        return "_"
    if isinstance(node, (URIRef, Literal, BNode)):
        return _term(node)
    return str(node)


# ---------------------------------------------------------------------------------------
# algebra -> tree

class _Converter:
    def __init__(self, drop_label_service: bool = False) -> None:
        self.drop_label_service = drop_label_service
        self.dropped_service = False
        self.bnodes: dict = {}
        # aggregate aliases named like a pattern variable (see aggregate_aliases): renamed
        # outside the grouped pattern
        self.aliases: dict = {}
        self.star = None  # the variable COUNT(*) counts, inside an AggregateJoin

    def term(self, t):
        if isinstance(t, Variable):
            if t in self.aliases:
                return self.aliases[t]
            return Var("?" + str(t))
        if isinstance(t, BNode):
            return self.bnodes.setdefault(t, Var(f"_:b{len(self.bnodes)}", bnode=True))
        return t

    def _expand_sequences(self, triples):
        """``s p1/p2 o`` is ``s p1 _:m . _:m p2 o`` and ``s ^p o`` is ``o p s`` (SPARQL 1.1
        §18.2.2.4 translates sequence and inverse paths this way), so both spellings compare equal."""
        from rdflib.paths import InvPath, SequencePath

        out = []
        for s, p, o in triples:
            while isinstance(p, InvPath):
                s, p, o = o, p.arg, s
            if isinstance(p, SequencePath):
                steps = []
                subject = s
                for step in p.args[:-1]:
                    middle = BNode()
                    steps.append((subject, step, middle))
                    subject = middle
                steps.append((subject, p.args[-1], o))
                out.extend(self._expand_sequences(steps))
            else:
                out.append((s, p, o))
        return out

    def triple(self, t):
        return ("T", self.term(t[0]), self.path(t[1]), self.term(t[2]))

    def path(self, p):
        if isinstance(p, (URIRef, Variable, BNode)):
            return self.term(p)
        return ("PATH", str(p))  # property paths: compared by their n3-ish text

    # -- graph patterns
    def pattern(self, node):
        name = node.name
        if name == "BGP":
            return ("BGP", Bag(tuple(self.triple(t) for t in self._expand_sequences(node.triples))))
        if name == "Join":
            return self._join([node])
        if name == "LeftJoin":
            expr = node.expr
            cond = None if getattr(expr, "name", None) == "TrueFilter" else self.expr(expr)
            return ("OPTIONAL", self.pattern(node.p1), self.pattern(node.p2), cond)
        if name == "Minus":
            left, right = self.pattern(node.p1), self.pattern(node.p2)
            if minus_is_not_exists(left, right):
                return filtered([("NOTEXISTS", right)], left)
            return ("MINUS", left, right)
        if name == "Union":
            return ("UNION", Bag(tuple(self.pattern(o) for o in self._flatten(node, "Union"))))
        if name == "Filter":
            conds, inner = [self.expr(node.expr)], node.p
            while getattr(inner, "name", None) == "Filter":
                conds.append(self.expr(inner.expr))
                inner = inner.p
            return filtered(conds, self.pattern(inner))
        if name == "Extend":
            return _bind_under_filter(self.term(node.var), self.expr(node.expr), self.pattern(node.p))
        if name == "ToMultiSet":
            return self.pattern(node.p)
        if name == "ServiceGraphPattern" and self.drop_label_service and _presentation_only(node):
            self.dropped_service = True
            return ("BGP", Bag(()))
        if name == "values":
            rows = tuple(
                Bag(tuple(("ROW", self.term(k), self.term(v)) for k, v in row.items()))
                for row in node.res
            )
            return ("VALUES", Bag(rows))
        if name in ("Group", "AggregateJoin"):
            aliases, star, self.aliases = self.aliases, self.star, {}  # inside: the pattern's own
            try:
                if name == "Group":
                    keys = Bag(tuple(self.expr(e) for e in (node.expr or [])))
                    return ("GROUP", keys, self.pattern(node.p))
                inner = self.pattern(node.p)
                self.star = only_variable(inner)
                return ("AGGREGATE", Bag(tuple(self.expr(a) for a in node.A)), inner)
            finally:
                self.aliases, self.star = aliases, star
        if name in ("Project", "Distinct", "Reduced", "Slice", "OrderBy"):  # sub-SELECT
            # its variables are placeholders like any other (a dict's text would show their names)
            mods = self._modifiers(node)
            return ("SUBQUERY", Bag(tuple(mods["pv"] or ())), mods["distinct"] or "all", mods["order"],
                    mods["offset"], mods["limit"], mods["pattern"])
        return self._generic(node)

    @staticmethod
    def _flatten(node, name):
        out, stack = [], [node]
        while stack:
            n = stack.pop()
            if getattr(n, "name", None) == name:
                stack += [n.p2, n.p1]
            else:
                out.append(n)
        return out

    def _join(self, nodes):
        parts = [self.pattern(n) for n in self._flatten(nodes[0], "Join")]
        triples, others = [], []
        for part in parts:
            if part[0] == "BGP":
                triples += part[1].items
            elif part[0] == "JOIN":
                others += part[1].items
            else:
                others.append(part)
        if triples or not others:
            others.append(("BGP", Bag(tuple(triples))))
        # VALUES ?x { <a> <b> } joined where ?x is bound anyway: FILTER(?x IN (<a>, <b>))
        tests = []
        for part in list(others):
            found = values_test(part)
            rest = [p for p in others if p is not part]
            if found is not None and rest and found[1] in certain(rest[0] if len(rest) == 1 else ("JOIN", Bag(tuple(rest)))):
                others = rest
                tests.append(found[0])
        joined = others[0] if len(others) == 1 else ("JOIN", Bag(tuple(others)))
        return filtered(tests, joined) if tests else joined

    # -- expressions
    def _and(self, conds):
        flat = []
        for c in conds:
            flat += c[1].items if isinstance(c, tuple) and c and c[0] == "AND" else [c]
        return flat[0] if len(flat) == 1 else ("AND", Bag(tuple(flat)))

    def expr(self, e):
        if isinstance(e, (Variable, BNode, URIRef, Literal)):
            return self.term(e)
        if isinstance(e, list):
            return tuple(self.expr(x) for x in e)
        if not isinstance(e, CompValue):
            return str(e)
        name = e.name
        if name == "RelationalExpression" and e.op in ("IN", "NOT IN"):
            left, items = self.expr(e.expr), [self.expr(x) for x in e.other]
            if len(items) == 1:  # x IN (a) is x = a; x NOT IN (a) is x != a (SPARQL 1.1 §17.4.1.9)
                return ("REL", "=" if e.op == "IN" else "!=", Bag((left, items[0])))
            if e.op == "NOT IN":  # (x != a) && (x != b), as §17.4.1.10 defines it
                return ("AND", Bag(tuple(("REL", "!=", Bag((left, i))) for i in items)))
            return ("IN", left, Bag(tuple(items)))
        if name == "RelationalExpression":
            op, left, right = e.op, self.expr(e.expr), self.expr(e.other)
            if op in (">", ">="):  # a > b  is  b < a
                op, left, right = op.replace(">", "<"), right, left
            if op in ("=", "!="):
                return ("REL", op, Bag((left, right)))
            return ("REL", op, left, right)
        if name in ("ConditionalAndExpression", "ConditionalOrExpression"):
            kind = "AND" if name.startswith("ConditionalAnd") else "OR"
            flat = []
            for operand in [e.expr] + list(e.other or []):
                c = self.expr(operand)
                flat += c[1].items if isinstance(c, tuple) and c and c[0] == kind else [c]
            return flat[0] if len(flat) == 1 else (kind, Bag(tuple(flat)))
        if name in ("AdditiveExpression", "MultiplicativeExpression"):
            ops = list(e.op or [])
            others = [self.expr(o) for o in (e.other or [])]
            if not ops:
                return self.expr(e.expr)
            first, steps = self.expr(e.expr), tuple(("OP", o, x) for o, x in zip(ops, others))
            if (getattr(e.expr, "name", None) == name and isinstance(first, tuple) and first[:1] == ("ARITH",)):
                # (a * b) / c is a * b / c: SPARQL applies operators of one level left to right
                first, steps = first[1], first[2] + steps
            return ("ARITH", first, steps)
        if name == "UnaryNot":
            inner = self.expr(e.expr)
            if isinstance(inner, tuple) and inner[:2] == ("REL", "="):
                return ("REL", "!=", inner[2])  # !(a = b)  is  a != b
            if isinstance(inner, tuple) and inner[:2] == ("REL", "!="):
                return ("REL", "=", inner[2])
            if isinstance(inner, tuple) and inner[:1] == ("OR",) and all(
                    isinstance(c, tuple) and c[:2] == ("REL", "=") for c in inner[1].items):
                # !(a = b || a = c) is a != b && a != c (De Morgan holds in SPARQL's
                # three-valued logic: an error stays an error either way)
                return ("AND", Bag(tuple(("REL", "!=", c[2]) for c in inner[1].items)))
            return ("NOT", inner)
        if name in ("Builtin_NOTEXISTS", "Builtin_EXISTS"):
            from rdflib.plugins.sparql.algebra import translateGroupGraphPattern

            graph = e.graph
            if getattr(graph, "name", None) not in (None,) and graph.name.startswith("GroupGraph"):
                graph = translateGroupGraphPattern(graph)
            return ("NOTEXISTS" if name == "Builtin_NOTEXISTS" else "EXISTS", self.pattern(graph))
        if name == "Function":
            return ("FN", _iri(str(e.iri)), bool(e.distinct), self.expr(list(e.expr or [])))
        if (name == "Builtin_STRENDS" and isinstance(e.arg2, Literal) and not e.arg2.language
                and e.arg2.datatype in (None, XSD.string)):
            # STRENDS(a, "v") is REGEX(a, "v$") with v's special characters escaped: the same test
            return ("BUILTIN_REGEX", ("KV", "pattern", Literal(regex_literal(str(e.arg2)) + "$")),
                    ("KV", "text", self.expr(e.arg1)))
        if name == "Builtin_LANGMATCHES" and isinstance(e.arg2, Literal) and not e.arg2.language:
            # a language range matches case-insensitively (RFC 4647): "EN" is "en"
            return ("LANGMATCHES", self.expr(e.arg1), Literal(str(e.arg2).lower()))
        if name.startswith("Aggregate_"):
            counted = e.vars
            if counted == "*" and self.star is not None:
                counted = self.star
            elif counted is not None and counted != "*":
                counted = self.expr(counted)
            return (
                "AGG_" + name[len("Aggregate_"):].upper(),
                # DISTINCT changes no minimum, maximum or sample (any one of the values)
                bool(e.distinct) and name not in ("Aggregate_Min", "Aggregate_Max", "Aggregate_Sample"),
                counted if counted is not None else "*",
                self.term(e.res),
                str(e.separator) if e.get("separator") is not None else None,
            )
        return self._generic(e)

    def _generic(self, node):
        items = tuple(
            ("KV", k, self.expr(v) if not is_pattern(v) else self.pattern(v))
            for k, v in sorted(node.items())
            if not k.startswith("_")
        )
        return (node.name.upper(),) + items

    # -- query modifiers
    def _modifiers(self, node) -> dict:
        mods = {"limit": None, "offset": 0, "distinct": False, "order": None, "pv": None}
        while isinstance(node, CompValue):
            if node.name == "Slice":
                mods["offset"] = node.start or 0
                mods["limit"] = node.length
            elif node.name == "Distinct":
                mods["distinct"] = "distinct"
            elif node.name == "Reduced":
                mods["distinct"] = "reduced"
            elif node.name == "Project":
                mods["pv"] = [self.term(v) for v in node.PV]
            elif node.name == "OrderBy":
                mods["order"] = tuple(
                    ("ORDER", getattr(c, "order", None) or "ASC",
                     self.expr(c.expr if isinstance(c, CompValue) and c.name == "OrderCondition" else c))
                    for c in node.expr
                )
            else:
                break
            node = node.p
        mods["pattern"] = self.pattern(node)
        return mods


_LABEL_SERVICE = "http://wikiba.se/ontology#label"
_SERVICE_PARAM = "http://www.bigdata.com/rdf#serviceParam"


def _bind_under_filter(var, expr, inner):
    """``BIND(expr AS var)`` over ``inner``, with a FILTER on top of ``inner`` that does not read
    ``var`` moved above the BIND: a FILTER applies to its whole group, so ``{ P BIND(e AS ?v)
    FILTER(c) }`` and a projected ``(e AS ?v)`` over ``{ P FILTER(c) }`` are one query where
    ``c`` does not read ``?v`` (inside, ``?v`` is not bound yet)."""
    if inner[0] == "FILTER" and not any(node == var for node in walk(inner[1])):
        return filtered([inner[1]], ("BIND", var, expr, inner[2]))
    return ("BIND", var, expr, inner)


def _presentation_only(node) -> bool:
    """``SERVICE wikibase:label { bd:serviceParam ... }``: WDQS's label columns (``?xLabel``),
    nothing else: it removes no answer and adds only columns it alone binds."""
    if str(node.term) != _LABEL_SERVICE:
        return False
    parts = getattr(node.graph, "part", None) or []
    if not all(getattr(part, "name", None) == "TriplesBlock" for part in parts):
        return False
    return all(str(t[0]) == _SERVICE_PARAM for part in parts for t in part.triples)


@dataclass
class _Query:
    form: str
    projection: tuple  # Vars, in written order
    order: tuple | None
    offset: int
    limit: int | None
    pattern: tuple
    tree: tuple  # everything compared
    set_rows: bool = False  # a SELECT whose rows cannot repeat, with or without DISTINCT

    @property
    def all_vars(self) -> list[Var]:
        seen: dict[Var, None] = {}
        for n in walk(self.tree):
            if isinstance(n, Var):
                seen.setdefault(n, None)
        return list(seen)


def _parse(sparql: str, default_limit: int | None, distinct: bool = False,
           drop_label_service: bool = False) -> _Query:
    algebra = parse_algebra(sparql)
    conv = _Converter(drop_label_service)
    conv.aliases = aggregate_aliases(algebra.p)
    form = {"SelectQuery": "SELECT", "AskQuery": "ASK"}.get(algebra.name)
    if form is None:
        raise SPARQLParseError(f"unsupported query form {algebra.name}", text=sparql)
    mods = conv._modifiers(algebra.p)
    pattern, limit, offset, order = mods["pattern"], mods["limit"], mods["offset"], mods["order"]
    if form == "ASK":
        projection = ()
        order = None
        if limit is not None and limit >= 1 and not offset:
            limit = None
    else:
        pv = mods["pv"] or [conv.term(v) for v in algebra.PV]
        if algebra.get("PV") is None or (_is_star(sparql) and "_unwrapped" not in algebra):
            pv = list(dict.fromkeys(in_scope(pattern)))
        projection = tuple(v for v in pv if not v.name.startswith("?__"))
        if conv.dropped_service:
            # the label service's columns (?xLabel): bound by nothing else once it is dropped
            scope = set(in_scope(pattern))
            projection = tuple(v for v in projection if v in scope)
        if limit == default_limit and not order and not offset:
            limit = None
    pattern = chained_binds(subquery_locals(pattern))
    total = Counter(n for n in walk((projection, order, pattern)) if isinstance(n, Var))
    pattern = union_locals(pattern, total)
    pattern = constant_binds(pattern, total)
    pattern = inline_binds(pattern, total)
    pattern = named_item_tests(pattern, Counter(n for n in walk((projection, order, pattern)) if isinstance(n, Var)))
    order, pattern = inline_order_binds(order, pattern, total)
    set_rows = form == "SELECT" and rows_distinct(pattern, projection)  # without DISTINCT, too
    if set_rows or duplicates_unseen(form, mods["distinct"], pattern, distinct):
        total = Counter(n for n in walk((projection, order, pattern)) if isinstance(n, Var))
        pattern = exists_as_joins(pattern, total)
    else:
        pattern = exists_as_joins(pattern, None)  # only what a solution matches once
    rows = None  # duplicates: ignored
    if distinct and form == "SELECT":
        rows = "distinct" if set_rows or rows_unique(pattern, projection) else (mods["distinct"] or "all")
    tree = ("QUERY", form, Bag(projection), order, offset or 0, limit, pattern, rows)
    return _Query(form, projection, order, offset or 0, limit, pattern, tree, set_rows)


def rows_are_distinct(sparql: str) -> bool:
    """Whether a SELECT's rows cannot repeat, with or without DISTINCT (see
    :func:`~cnl.sparql.equivalence_rewrites.rows_distinct`): a FILTER EXISTS of such a query may be
    said as a join of one that removes duplicates."""
    return _parse(sparql, None, True).set_rows


def _is_star(sparql: str) -> bool:
    import re

    return re.search(r"SELECT\s+(DISTINCT\s+|REDUCED\s+)?\*", sparql, re.I) is not None


# ---------------------------------------------------------------------------------------
# canonical naming

def _refine(tree, variables, colours: dict) -> dict:
    """Split colour classes until stable: a variable's new colour is its old colour plus the
    whole query rendered with it marked and every other variable written as its colour."""
    while True:
        signatures = {}
        for v in variables:
            naming = {u: colours[u] for u in variables}
            naming[v] = "@"
            signatures[v] = (colours[v], _render(tree, naming))
        ranks = {sig: f"?c{i}" for i, sig in enumerate(sorted(set(signatures.values())))}
        new = {v: ranks[signatures[v]] for v in variables}
        if len(set(new.values())) == len(set(colours.values())):
            return new
        colours = new


def _canonical_text(tree, variables) -> str:
    if not variables:
        return _render(tree, {})
    best: list[str] = []
    leaves = [0]

    def search(colours):
        colours = _refine(tree, variables, colours)
        cells: dict[str, list] = {}
        for v in variables:
            cells.setdefault(colours[v], []).append(v)
        ambiguous = sorted((c for c, vs in cells.items() if len(vs) > 1))
        if not ambiguous:
            order = sorted(variables, key=lambda v: colours[v])
            naming = {v: f"?v{i + 1}" for i, v in enumerate(order)}
            text = _render(tree, naming)
            if not best or text < best[0]:
                best[:] = [text]
            leaves[0] += 1
            return
        for v in cells[ambiguous[0]]:
            if leaves[0] >= _MAX_BRANCHES:  # symmetric pattern: the first leaf found stands
                return
            split = dict(colours)
            split[v] = colours[v] + "!"  # individualise v, then refine again
            search(split)

    search({v: "?c" for v in variables})
    return best[0]


def _canonical(query: _Query) -> str:
    text = _canonical_text(query.tree, query.all_vars)
    return text


# ---------------------------------------------------------------------------------------
# public API

def canonical_form(sparql: str, default_limit: int | None = DEFAULT_LIMIT, *, distinct: bool = False,
                   drop_label_service: bool = False) -> str:
    """Deterministic text of the query's normalised algebra; equal for equivalent queries.
    ``distinct``: SELECT, SELECT DISTINCT and SELECT REDUCED are told apart (see the module).
    ``drop_label_service``: ``SERVICE wikibase:label { bd:serviceParam ... }`` and the label
    columns only it binds are presentation, left out (as the decompiler reads them)."""
    return _canonical(_parse(sparql, default_limit, distinct, drop_label_service))


def equivalent(a: str, b: str, default_limit: int | None = DEFAULT_LIMIT, *, distinct: bool = False,
               drop_label_service: bool = False) -> bool:
    """Whether ``a`` and ``b`` have the same canonical form; ``distinct``: also the same
    duplicates (SELECT vs SELECT DISTINCT vs SELECT REDUCED), where they can differ;
    ``drop_label_service``: WDQS's label service columns left out (see :func:`canonical_form`)."""
    return (canonical_form(a, default_limit, distinct=distinct, drop_label_service=drop_label_service)
            == canonical_form(b, default_limit, distinct=distinct, drop_label_service=drop_label_service))


def _names(vs) -> str:
    return " ".join(v.name for v in vs) or "(none)"


def _shape(node) -> str:
    """Text with variables abstracted (``?``, blank nodes ``[]``): what a pattern says
    without how it is wired."""
    naming = _AnyVar()
    return _render(node, naming)


class _AnyVar(dict):
    def __missing__(self, v):
        return "?"


def _triples(node) -> list:
    return [n for n in walk(node) if isinstance(n, tuple) and n and n[0] == "T"]


def _kinds(node) -> Counter:
    wanted = {"OPTIONAL", "MINUS", "UNION", "FILTER", "BIND", "VALUES", "GROUP", "AGGREGATE",
              "NOTEXISTS", "EXISTS", "SUBQUERY"}
    return Counter(n[0] for n in walk(node) if isinstance(n, tuple) and n and n[0] in wanted)


def _triple_text(t) -> str:
    return " ".join(_render(x, {v: (v.name if not v.bnode else "[]") for v in walk(t)
                                if isinstance(v, Var)}) for x in t[1:])


def _expressions(node, kind) -> Counter:
    return Counter(_shape(n[1]) for n in walk(node) if isinstance(n, tuple) and n and n[0] == kind)


def _diff(first: Counter, second: Counter, show) -> str:
    only1 = list((first - second).elements())
    only2 = list((second - first).elements())
    fmt = lambda xs: ", ".join(show(x) for x in xs[:3]) + (" …" if len(xs) > 3 else "") or "-"
    return f"only in first: {fmt(only1)}; only in second: {fmt(only2)}"


def explain_difference(a: str, b: str, default_limit: int | None = DEFAULT_LIMIT, *,
                       distinct: bool = False, drop_label_service: bool = False) -> str | None:
    """None when the queries are equivalent, else a one-line cause of the first difference."""
    qa = _parse(a, default_limit, distinct, drop_label_service)
    qb = _parse(b, default_limit, distinct, drop_label_service)
    if _canonical(qa) == _canonical(qb):
        return None
    if qa.tree[-1] != qb.tree[-1]:
        return f"duplicates differ: {qa.tree[-1]} vs {qb.tree[-1]} (SELECT / DISTINCT / REDUCED)"
    if qa.form != qb.form:
        return f"query form differs: {qa.form} vs {qb.form}"
    if len(qa.projection) != len(qb.projection):
        return f"projection differs: {_names(qa.projection)} vs {_names(qb.projection)}"
    ta, tb = _triples(qa.pattern), _triples(qb.pattern)
    shapes_a, shapes_b = Counter(map(_shape, ta)), Counter(map(_shape, tb))
    if shapes_a != shapes_b:
        text_of = {}
        for t in ta + tb:
            text_of.setdefault(_shape(t), _triple_text(t))
        return "triple patterns differ: " + _diff(shapes_a, shapes_b, lambda s: text_of[s])
    ka, kb = _kinds(qa.pattern), _kinds(qb.pattern)
    if ka != kb:
        return "pattern structure differs: " + _diff(ka, kb, str)
    if (qa.order is None) != (qb.order is None) or (
        qa.order and _shape(qa.order) != _shape(qb.order)
    ):
        show = lambda o: _render(o, {v: v.name for v in walk(o) if isinstance(v, Var)}) if o else "none"
        return f"ORDER BY differs: {show(qa.order)} vs {show(qb.order)}"
    if qa.limit != qb.limit:
        return f"LIMIT differs: {qa.limit} vs {qb.limit} (LIMIT {default_limit} without ORDER BY ignored)"
    if qa.offset != qb.offset:
        return f"OFFSET differs: {qa.offset} vs {qb.offset}"
    for kind, label in (("FILTER", "FILTER"), ("BIND", "BIND"), ("GROUP", "GROUP BY")):
        ea, eb = _expressions(qa.pattern, kind), _expressions(qb.pattern, kind)
        if ea != eb:
            return f"{label} differs: " + _diff(ea, eb, str)
    if _shape(qa.tree) == _shape(qb.tree):
        pa, pb = _projection_roles(qa), _projection_roles(qb)
        if pa != pb:
            return (f"projection differs: {_names(qa.projection)} vs {_names(qb.projection)} "
                    "select variables in different roles")
        return "variables are wired differently (same triple shapes, different joins)"
    return "algebra differs: " + _first_difference(_shape(qa.tree), _shape(qb.tree))


def _projection_roles(q: _Query) -> list[str]:
    names = {v: f"?v{i}" for i, v in enumerate(sorted(q.all_vars, key=lambda v: v.name))}
    return sorted(_render(t, {v: ("@" if v in q.projection else "?") for v in names})
                  for t in _triples(q.pattern))


def _first_difference(x: str, y: str) -> str:
    i = next((k for k, (c, d) in enumerate(zip(x, y)) if c != d), min(len(x), len(y)))
    start = max(0, i - 30)
    return f"…{x[start:i + 40]}… vs …{y[start:i + 40]}…"
