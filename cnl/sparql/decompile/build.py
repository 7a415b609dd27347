"""Stage: edges and FILTERs -> the IR's noun phrases and verb phrases.

The triple graph must be a tree rooted at the query's root: each variable becomes a quantified
noun phrase (``a <P>``, a class noun for ``wdt:P31 wd:C``), each edge a statement with its
qualifiers, each constant a ``Ref``; OPTIONAL, UNION, MINUS, VALUES and FILTERs hang on the one
variable that joins them to the tree. The :class:`Builder` records along the way what the
profile options are read from (statement forms, casts, subclass tests, the variables in scope).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from rdflib import Literal, URIRef, Variable
from rdflib.namespace import XSD
from rdflib.plugins.sparql.algebra import translateGroupGraphPattern

from cnl import ir
from cnl.errors import UnsupportedSPARQLError
from cnl.sparql.equivalence import rows_are_distinct
from cnl.sparql.syntax import regex_literal
from cnl.sparql.decompile.binds import bind_np
from cnl.sparql.decompile.count_values import count_np, count_sentence
from cnl.sparql.decompile.expressions import (
    FLIP, comparison_of_vars, has_cast, is_call, is_subject, string_arg, subexpressions, unwrap_str, variables,
    year_arg)
from cnl.sparql.decompile.flatten import Group, flatten, group_vars
from cnl.sparql.decompile.fold import VALUE_UNSAID, fold, prop_term
from cnl.sparql.decompile.joins import (
    Absent, absent_qualifiers, constant_components, exists_joined, is_ground, nearest, reachable)
from cnl.sparql.decompile.modifiers import limited_order
from cnl.sparql.decompile.sentence_filters import (
    constant_sayable, is_computed_test, is_sayable_comparison, is_sayable_disjunction, needs_introduction, such_that)
from cnl.sparql.decompile.state import Decompilation
from cnl.sparql.decompile.terms import NUMERIC_TYPES, class_noun, ir_term, is_node, node_text, same

# a count's test: the numeric determiner (a count below N would miss the things with none)
_COUNT_DETS = {">=": "at_least", ">": "more_than", "=": "exactly"}

_VAR_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_YEAR_START = re.compile(r"^(-?[0-9]{1,4})-01-01T00:00:00Z$")

# SPARQL's tests of a term's kind -> ir.TermKind
_TERM_KINDS = {"Builtin_isLITERAL": "literal", "Builtin_isIRI": "iri", "Builtin_isURI": "iri", "Builtin_isNUMERIC": "number"}


def build(state: Decompilation) -> None:
    """The VPs the query says about its root."""
    builder = state.builder = Builder(state.which, state.orders)
    builder.numbers = state.numbers
    builder.ask = state.form == "AskQuery"
    builder.set_answers = _set_answers(state)
    builder.sparql = state.sparql
    builder.keeps_duplicates = state.form == "SelectQuery" and state.duplicates != "removed"
    builder.order_expr = state.order_expr
    builder.aggregate_values = state.aggregate_values
    builder.projected = set(state.select_vars) - {b.var for b in state.answer_binds()}
    if state.count_test is not None:
        state.count_subject, state.vps = count_sentence(builder, state.count_test)
        return
    if state.counts_aggregated is not None:
        state.count_subject = count_np(builder, state.counts_aggregated, per_group=True)
        return
    for bind in state.answer_binds():
        for other in bind.others:  # named where the tree reaches them (name_corefs)
            builder.coref_name(other)
    if is_node(state.root):
        builder.visited.add(state.root)
        classes: dict = {}
        # The root's class (first wdt:P31 test) becomes its noun.
        fold(state.top.triples, classes, set())
        state.root_classes = classes.get(state.root, [])
        state.vps = builder.group_vps(state.top, state.root, {state.root}, top=True)
    else:
        state.vps = builder.group_vps(state.top, state.root, set(), top=True)
    state.vps += builder.sentences


class Builder:
    """Builds the VPs of a group about its anchor, node by node from the edges not yet used."""

    def __init__(self, which: set, orders: dict):
        self.visited: set = set()
        self.corefs: dict = {}      # node reached a second time -> its co-reference variable's name
        self.first_nps: dict = {}   # node -> the NP of its first mention (its description)
        self.named_by_sentence: set = set()  # nodes introduced by "such that ?v is <description>"
        self.shared_unreached: set = set()   # values off the tree that several FILTERs test
        self.which = which          # variables written "which" (answer columns)
        self.projected: set = set()
        self.orders = orders        # variable -> ir.Order
        self.numbers: dict = {}     # variable -> (det, N): HAVING(COUNT(?v) >= N) or a counting sub-query
        self.count_distincts: set = set()  # the counting sub-queries' DISTINCT
        self.hidden: set = set()    # variables only in scope inside a counting sub-query
        self.ask = False            # a yes/no question: a ranked sub-query is a nested superlative
        self.set_answers = False    # the answers are a set: how often a solution repeats is unseen
        self.exists_joined = False  # a FILTER EXISTS said as a join (the answers then drop duplicates)
        self.sparql = ""            # the query read, and whether it is a SELECT without DISTINCT
        self.keeps_duplicates = False
        self.forms: set = set()
        self.subclasses: set = set()
        self.all_nodes: list = []   # variables in scope at the top (for projection "all")
        self.casts: set = set()     # numeric comparisons: True written xsd:double(STR(?x)), False plain
        self.year_casts: set = set()  # YEAR(...): True written YEAR(xsd:dateTime(?x)), False plain
        self.sentences: list = []   # the top group's "such that S" clauses (sentence_filters)
        self.order_expr = None      # ORDER BY an expression, said "such that E is the highest"
        self.aggregate_values: dict = {}  # ?avg -> the BestQuery computing it (a value compared)

    def note_forms(self, edges):
        for e in edges:
            if e.form not in ("path", "label") and not e.normalized and e.unit is None:  # written so under every profile
                self.forms.add("wdt" if e.form == "wdt" else "p_plain" if _any_rank(e) else "p_qual")

    # A "scope" is the group being read plus the nodes of the groups around it.
    def group_vps(self, group: Group, anchor, scope: set, det: str = "a", top: bool = False,
                  visible: bool | None = None):
        """The VPs saying what ``group`` says about ``anchor`` (already in scope)."""
        for ranked in group.ranked:
            self._inline_ranked(group, ranked, top)
        group.ranked = []
        for count in group.counts:
            self._inline_count(group, count)
            if visible if visible is not None else top:
                self.all_nodes.append(count.alias)  # the compiler names the count in scope
        group.counts = []
        if group.binds:
            raise UnsupportedSPARQLError("BIND", _bind_detail(group.binds[0][1]) + " (only a projected BIND is supported)")
        classes: dict = {}
        if top and any(getattr(f, "name", None) == "Builtin_EXISTS" for f in group.filters):
            joined = exists_joined(group)
            if joined is not group:
                if not is_ground(joined.triples[len(group.triples):], group.triples):
                    self.exists_as_join()
                group = joined
        group, absent = absent_qualifiers(group)
        reserved = variables(group.filters) | {v for v, _ in group.values} | self.projected
        edges = fold(group.triples, classes, reserved)
        for e in edges:
            for missing in absent.pop(e.node, []) if e.node is not None else ():
                e.quals.append(missing)
        if absent:
            raise UnsupportedSPARQLError("a statement node used outside p:/ps:/pq:", next(iter(absent)).n3())
        self.note_forms(edges)
        for cs in classes.values():
            for _, sub in cs:
                self.subclasses.add(sub)
        nodes = set()
        for e in edges:
            nodes |= {t for t in (e.subject, e.obj, *(v for _, v in e.quals)) if is_node(t)}
        nodes |= set(classes)
        inner_scope = scope | nodes | {anchor}
        for e in edges:
            for _, value in e.quals:
                if isinstance(value, Absent):
                    value.scope = inner_scope
        extras: dict = {}
        reach = reachable(edges, anchor, scope)

        def attach(vars_, what, make, negated: bool = False):
            anchors = [v for v in vars_ if v in inner_scope]
            if len(anchors) > 1 and negated and all(a in reach for a in anchors):
                # a pattern that must not hold, joined on several values the tree reaches
                # ("FILTER NOT EXISTS { ?x wdt:P166 ?n }"): said of the one nearest the root,
                # the others named by their co-reference variables ("has a <P1411> ?n and has
                # not <P166> ?n"); the meaning guard refuses where a first mention falls inside
                anchors = [nearest(edges, anchor, set(anchors))]
            if len(anchors) != 1 or anchors[0] is None:
                if not anchors:
                    raise UnsupportedSPARQLError(f"{what} not connected to the rest of the query")
                raise UnsupportedSPARQLError(f"{what} joined to the query on several variables",
                                             " ".join(sorted(a.n3() for a in anchors)))
            extras.setdefault(anchors[0], []).append(make)

        for sub in group.optionals:
            attach(group_vars(sub) & inner_scope, "an OPTIONAL",
                   lambda x, sub=sub: self.optional_vp(sub, x, inner_scope, top))
        for branches in group.unions:
            shared = set.intersection(*[group_vars(b) for b in branches]) if branches else set()
            attach(shared & inner_scope or set.union(*[group_vars(b) for b in branches]) & inner_scope,
                   "a UNION", lambda x, bs=branches: _disjunction(
                       [conj(self.group_vps(b, x, inner_scope, visible=top)) for b in bs]))
        for sub in group.minus:
            attach(group_vars(sub) & inner_scope, "a MINUS",
                   lambda x, sub=sub: _negated(self.group_vps(sub, x, inner_scope), "a MINUS"), negated=True)
        for var, terms in group.values:
            refs = tuple(ir.Ref(ir_term(t)) for t in terms)
            np = refs[0] if len(refs) == 1 else ir.Coord("or", refs)
            attach({var}, "a VALUES", lambda x, np=np: ir.Be(np))
        shown = visible if visible is not None else top
        holder: dict = {}   # the group's context, for FILTERs that name a second variable
        sentences: list = []  # FILTERs said "such that S", once the tree is read
        if top and self.order_expr is not None:
            if not all(v == anchor or v not in reach or _nameable(v, edges, classes, group.filters, None, self.which | self.projected)
                       for v in variables(self.order_expr.expr)):
                raise UnsupportedSPARQLError("ORDER BY an expression", "of a value that takes no co-reference variable")
            sentences.append(self._sentence_names(self.order_expr, reach))
        # a value the tree does not reach that several FILTERs test is introduced once, by a
        # sentence of its own (each test describing it would describe another value)
        tested = [v for expr in group.filters for v in variables(expr) if v not in reach]
        self.shared_unreached |= {v for v in tested if tested.count(v) > 1}
        for expr in group.filters:
            if (not variables(expr) & inner_scope and not is_node(anchor)
                    and getattr(expr, "name", None) in ("Builtin_NOTEXISTS", "Builtin_EXISTS")
                    and any(t == anchor for t in subexpressions(expr.graph))):
                # "<Q42> has not a <P570>", "... and has not <P166> <Q37922>": a pattern about the
                # named thing the sentence hangs from, joined to it by that name, not a variable
                extras.setdefault(anchor, []).append(lambda x, expr=expr: self.filter_vp(expr, x, inner_scope, shown))
                continue
            if not variables(expr):
                raise UnsupportedSPARQLError("a FILTER over constants only (always true or always false)",
                                             str(getattr(expr, "name", expr)))
            pair = comparison_of_vars(expr)
            # values a sentence can name: the root, a class noun, a bare value, or one the
            # tree does not reach (said by its description)
            nameable = all(v == anchor or v not in reach or _nameable(v, edges, classes, group.filters, expr, self.which | self.projected)
                           for v in variables(expr))
            if top and nameable and (is_computed_test(expr) or (
                    (pair is None or variables(expr) & self.shared_unreached) and len(variables(expr)) > 1
                    and (is_sayable_comparison(expr) or is_sayable_disjunction(expr)))):
                # a computed value tested, or several values: "such that S" (sentence_filters)
                sentences.append(self._sentence_names(expr, reach))
                continue
            if pair is not None and pair.left in inner_scope and pair.right in inner_scope:
                a, b = pair.left, pair.right
                if (b in reach) != (a in reach):
                    # ?a > ?b where ?b hangs on the query only through this FILTER: said of ?a,
                    # "greater than the <P> of X", with ?b's own description as the NP
                    near, far = (a, b) if a in reach else (b, a)
                    extras.setdefault(near, []).append(
                        lambda x, pair=pair, far=far: self.compare_vars(pair, x, far, holder["ctx"]))
                    continue
                # both reached otherwise: the second is named by a co-reference variable
                # ("has <P451> ?p and has a <P451> different from ?p"), at a first mention that
                # takes one (a class noun, a bare value)
                far = next((v for v in (b, a) if _nameable(v, edges, classes, group.filters, expr, self.which | self.projected)), None)
                if (far is None or a not in reach) and top and nameable and is_sayable_comparison(expr):
                    sentences.append(self._sentence_names(expr, reach))
                    continue
                if far is None or a not in reach:
                    raise UnsupportedSPARQLError("a FILTER joined to the query on several variables",
                                                 f"{a.n3()} {b.n3()}")
                near = a if far == b else b
                extras.setdefault(near, []).append(
                    lambda x, pair=pair, far=far: self.compare_vars(pair, x, far, holder["ctx"], coref=True))
                continue
            attach(variables(expr) & inner_scope or variables(expr), "a FILTER",
                   lambda x, expr=expr: self.filter_vp(expr, x, inner_scope, shown),
                   negated=getattr(expr, "name", None) == "Builtin_NOTEXISTS")

        # values the tree reached before this group (a FILTER NOT EXISTS's, an OPTIONAL's): this
        # group's edges into them are said here, since their own mention is over
        ctx = _Context(edges, classes, extras, det, outer=frozenset(self.visited - {anchor}))
        ctx.const_extras = constant_components(edges, anchor, scope)
        holder["ctx"] = ctx
        if visible if visible is not None else top:
            # blank nodes too: the compiler names every value it introduces
            self.all_nodes.extend(n for n in nodes if is_node(n))
        vps = self.node_vps(ctx, anchor, None, root_noun=False)
        for expr in sentences:
            # a value the tree does not reach is said by its own description ("the <P> of X"),
            # in the test or, where the test names it twice or in a disjunction, in a sentence
            # of its own that names it ("such that ?w is the <P580> of <Q362>")
            unreached = sorted((v for v in variables(expr) if v not in reach), key=str)
            introduced = [v for v in unreached if v in self.shared_unreached or needs_introduction(expr, v)]
            for v in introduced:
                self.coref_name(v)
            for v in introduced:
                if v in self.visited:  # mentioned by another one's description: named there
                    continue
                description = self.np(ctx, v, None)
                self.first_nps.pop(v, None)
                self.named_by_sentence.add(v)
                self.sentences.append(ir.SuchThat(ir.Ref(ir.Var(self.corefs[v])), ir.Be(description)))
            names = {v: ir.Ref(ir.Var(self.corefs[v])) if v in reach or v in introduced else self.np(ctx, v, None)
                     for v in variables(expr)}
            self.sentences.append(such_that(expr, names, self.year_casts))
        if not is_node(anchor) and anchor in ctx.const_extras:
            vps += self.const_vps(ctx, anchor, ctx.const_extras.pop(anchor))
        left = [e for e in edges if id(e) not in ctx.used]
        if left:
            raise UnsupportedSPARQLError("disconnected triple patterns (a cross product)",
                                         f"{node_text(left[0].subject)} {_prop_text(left[0].prop)} {node_text(left[0].obj)}")
        for n in nodes:
            if n not in self.visited and n != anchor:
                raise UnsupportedSPARQLError("disconnected triple patterns (a cross product)", n.n3())
        return vps

    def _sentence_names(self, expr, reach):
        """``expr`` (a FILTER said "such that S"), its values the tree reaches named by their
        co-reference variables (at their first mention, :func:`~cnl.sparql.decompile.corefs.name_corefs`)."""
        for v in variables(expr) & reach:
            self.coref_name(v)
        return expr

    def _inline_ranked(self, group: Group, ranked, top: bool) -> None:
        """A superlative's sub-query in a yes/no question: its pattern joins the group, its
        ORDER BY becomes the superlatives (the compiler ranks the noun phrase around them)."""
        if not (self.ask and top):
            raise UnsupportedSPARQLError("a sub-query (nested SELECT)", "a ranked sub-query outside a yes/no question")
        inner = ranked.inner
        if inner.counts or inner.ranked or inner.binds:
            raise UnsupportedSPARQLError("a sub-query (nested SELECT)", "a ranked sub-query with more inside")
        group.triples += inner.triples
        group.filters += inner.filters
        group.optionals += inner.optionals
        group.unions += inner.unions
        group.minus += inner.minus
        group.values += inner.values
        for i, (key, desc) in enumerate(ranked.orders):
            word = "highest" if desc else "lowest"
            order = limited_order(word, ranked.limit, ranked.offset) if i == 0 else ir.Order(word, limit=False)
            if key in self.orders or key == ranked.var:
                raise UnsupportedSPARQLError("a sub-query (nested SELECT)", "a ranked sub-query ordered by its answer")
            self.orders[key] = order

    def _inline_count(self, group: Group, count) -> None:
        """A counting sub-query and its FILTER(?n op N): the sub-query's pattern joins the group,
        its counted variable takes the determiner ("at least 3 <P166>")."""
        tests = [f for f in group.filters if variables(f) == {count.alias}]
        test = tests[0] if len(tests) == 1 else None
        if not (getattr(test, "name", None) == "RelationalExpression" and test.expr == count.alias
                and isinstance(test.other, Literal) and str(test.other).isdigit() and test.op in _COUNT_DETS):
            raise UnsupportedSPARQLError("a sub-query (nested SELECT)", "a count not tested against a whole number")
        group.filters = [f for f in group.filters if f is not test]
        inner = count.inner
        group.triples += inner.triples
        group.filters += inner.filters
        group.optionals += inner.optionals
        group.unions += inner.unions
        group.minus += inner.minus
        group.values += inner.values
        group.binds += inner.binds
        group.counts += inner.counts
        self.numbers[count.counted] = (_COUNT_DETS[test.op], int(str(test.other)))
        self.count_distincts.add(count.distinct)
        self.hidden |= group_vars(inner) - set(count.keys)

    def node_vps(self, ctx, node, via, root_noun: bool):
        """VPs about ``node`` from the edges not yet used; marks the node visited."""
        if is_node(node):
            if node in self.visited and via is not None:
                raise UnsupportedSPARQLError("a cycle in the triple patterns", node.n3())
            self.visited.add(node)
        vps = []
        if not root_noun:
            for cls, _ in ctx.classes.pop(node, []):
                vps.append(ir.Be(ir.Quant("a", class_noun(cls))))
        for e in ctx.edges:
            if id(e) in ctx.used:
                continue
            if same(e.subject, node):
                ctx.used.add(id(e))
                vps.append(self.stmt(ctx, e, attach=True))
            elif same(e.obj, node) and is_node(node) and not (
                    is_node(e.subject) and e.subject in self.visited and e.subject not in ctx.outer):
                # (from a node the tree has reached, the edge is said there: "has <P> ?x")
                ctx.used.add(id(e))
                # "X P node" is said of the node as "is a <P> of X".
                vps.append(ir.Be(ir.Quant("a", self.rel_noun(ctx, e))))
            elif is_node(node) and any(same(v, node) for _, v in e.quals):
                ctx.used.add(id(e))
                qid = next(q for q, v in e.quals if same(v, node))
                rest = [(q, v) for q, v in e.quals if not same(v, node)]
                vps.append(ir.QualifierOf(
                    ir.Property(qid), self.np(ctx, e.subject, e),
                    ir.Stmt(prop_term(e.prop), self.np(ctx, e.obj, e), self.quals(ctx, rest, e),
                            normalized=e.normalized, unit=self.unit_term(e))))
        for make in ctx.extras.pop(node, []):
            vps.append(make(node))
        return vps

    def np(self, ctx, term, via, attach: bool = False):
        if term is VALUE_UNSAID:
            return ir.AnyValue()
        if is_node(term) and term in self.visited:
            # a node the tree reaches again: a co-reference variable (SQUALL's ?x), named at
            # its first mention too (name_corefs)
            return ir.Ref(ir.Var(self.coref_name(term)))
        if not is_node(term):
            if attach and term in ctx.const_extras:
                # what the query says of a constant elsewhere: "the thing that is <Q> and that ..."
                vps = self.const_vps(ctx, term, ctx.const_extras.pop(term))
                return ir.Quant("the", None, (ir.Be(ir.Ref(ir_term(term))), *vps))
            return ir.Ref(ir_term(term))
        noun, vps = self.noun_and_vps(ctx, term, via)
        det = "which" if term in self.which else ctx.det
        order = self.orders.get(term)
        if order is not None and order.limit and det == "a":
            det = "the"  # "the most <film>", "the highest <P>": one of a kind
        if term in self.numbers:  # "more than 2 <P37>": a HAVING count of this variable
            det, number = self.numbers.pop(term)
            quant = ir.Quant(det, noun, tuple(vps), order=order, number=number)
        else:
            quant = ir.Quant(det, noun, tuple(vps), order=order)
        self.first_nps[term] = quant
        return quant

    def coref_name(self, node) -> str:
        if node not in self.corefs:
            name = str(node) if isinstance(node, Variable) and _VAR_NAME.fullmatch(str(node)) else "x"
            taken = set(self.corefs.values())
            base, n = name, 1
            while name in taken:
                n += 1
                name = f"{base}{n}"
            self.corefs[node] = name
        return self.corefs[node]

    def unit_term(self, e):
        """The unit of the edge's quantity: a named item, or "in unit ?u" (a variable it names)."""
        if e.unit in self.projected:  # "in unit ?u" names the unit, it does not ask for it
            raise UnsupportedSPARQLError("a full value node whose unit is an answer (wikibase:quantityUnit ?u)")
        if isinstance(e.unit, Variable) and e.unit not in self.corefs:  # no test or choice named it first
            raise UnsupportedSPARQLError("a full value node whose unit is a variable that no test reads "
                                         "(wikibase:quantityUnit ?u)")
        return ir.Var(self.coref_name(e.unit)) if isinstance(e.unit, Variable) else e.unit

    def stmt(self, ctx, e, attach: bool = False):
        """The edge said of its subject: ``has <P> X`` (``has a <P> statement`` without a value)."""
        return ir.Stmt(prop_term(e.prop), self.np(ctx, e.obj, e, attach=attach), self.quals(ctx, e.quals, e),
                       any_rank=_any_rank(e), normalized=e.normalized, unit=self.unit_term(e))

    def rel_noun(self, ctx, e):
        return ir.RelNoun(prop_term(e.prop), self.np(ctx, e.subject, e, attach=True), self.quals(ctx, e.quals, e),
                          any_rank=_any_rank(e), normalized=e.normalized, unit=self.unit_term(e))

    def const_vps(self, ctx, const, component):
        """VPs about a constant from triple patterns joined to the query only through it."""
        vps = []
        for e in component:
            if id(e) in ctx.used:
                continue
            if same(e.subject, const):
                ctx.used.add(id(e))
                vps.append(self.stmt(ctx, e))
            elif same(e.obj, const):
                ctx.used.add(id(e))
                vps.append(ir.Be(ir.Quant("a", self.rel_noun(ctx, e))))
        return vps

    def noun_and_vps(self, ctx, node, via):
        if node in self.visited:
            raise UnsupportedSPARQLError("a cycle in the triple patterns", node.n3())
        self.visited.add(node)
        classes = ctx.classes.pop(node, [])
        noun = class_noun(classes[0][0]) if classes else None
        if classes[1:]:
            ctx.classes[node] = classes[1:]
        if noun is None:
            # No class: name the node by an edge into it, "the <P> of X" (not from a node the
            # tree has reached: that edge is said there, with a co-reference variable).
            for e in ctx.edges:
                if id(e) not in ctx.used and same(e.obj, node) and not (is_node(e.subject) and e.subject in self.visited):
                    ctx.used.add(id(e))
                    noun = self.rel_noun(ctx, e)
                    break
        vps = self.node_vps(ctx, node, None, root_noun=False)
        return noun, vps

    def quals(self, ctx, quals, via):
        return tuple(ir.Qual(ir.Property(q), self.absent(v) if isinstance(v, Absent) else self.np(ctx, v, via))
                     for q, v in quals)

    def absent(self, missing: "Absent"):
        """``at no <Q> that ...``: what the negated qualifier's value would be."""
        if isinstance(missing.var, URIRef):  # "at no <Q> that is <Q76>"
            return ir.Quant("no", None, (ir.Be(ir.Ref(ir_term(missing.var))),))
        vps = self.group_vps(missing.rest, missing.var, missing.scope)
        return ir.Quant("no", None, tuple(vps))

    def optional_vp(self, sub: Group, x, scope, visible):
        classes: dict = {}
        edges = fold(sub.triples, classes, variables(sub.filters))
        linking = [e for e in edges if same(e.subject, x) or same(e.obj, x)]
        if len(linking) != 1 or sub.optionals or sub.unions or sub.minus:
            raise UnsupportedSPARQLError("an OPTIONAL other than one statement and what hangs on its value")
        vps = self.group_vps(sub, x, scope, det="maybe", visible=visible)
        # The single statement from x: its value NP becomes "maybe".
        (vp,) = vps if len(vps) == 1 else (None,)
        if not isinstance(vp, ir.Stmt) or not isinstance(vp.obj, ir.Quant):
            raise UnsupportedSPARQLError("an OPTIONAL other than one statement and what hangs on its value")
        return replace(vp, obj=ir.Quant("maybe", vp.obj.noun, vp.obj.rels, vp.obj.order))

    def filter_vp(self, expr, x, scope, visible: bool = False):
        """The VP of a FILTER said of ``x``; ``visible``: it is in the query's top group, where
        what an EXISTS names (said as a statement, compiled as a join) is in scope."""
        name = getattr(expr, "name", None)
        if name == "ConditionalAndExpression":
            items = [self.filter_vp(e, x, scope, visible) for e in [expr.expr, *expr.other]]
            ops = [(i.op, i.args) for i in items if isinstance(i, ir.Compare) and not i.temporal]
            if len(items) == 2 and len(ops) == 2 and ops[0][0] == ">=" and ops[1][0] == "<=":
                # x >= a && x <= b is what "between a and b" compiles to
                return ir.Compare("between", (ops[0][1][0], ops[1][1][0]))
            return conj(items)
        if name == "ConditionalOrExpression":
            items = tuple(self.filter_vp(e, x, scope) for e in [expr.expr, *expr.other])
            if all(isinstance(i, ir.Compare) and i.op == "=" and not i.temporal and len(i.args) == 1
                   and isinstance(i.args[0], ir.Ref) for i in items):
                # ?x = A || ?x = B: one FILTER, "is equal to (A or B)" (an Or VP is a UNION)
                return ir.Compare("=", (ir.Coord("or", tuple(i.args[0] for i in items)),))
            return ir.Or(items)
        if name == "UnaryNot":
            inner = self.filter_vp(expr.expr, x, scope)
            if isinstance(inner, ir.StrTest) and (inner.op == "starts" or inner.case_sensitive):
                # the CNL's negated string tests: "does not contain", "does not match"
                raise UnsupportedSPARQLError("a negated string test other than 'does not contain' or 'does not match'")
            return ir.Not(inner)
        if name in ("Builtin_NOTEXISTS", "Builtin_EXISTS"):
            graph = expr.graph
            if graph.name.startswith("GroupGraph"):
                graph = translateGroupGraphPattern(graph)
            inner = flatten(graph)
            if name == "Builtin_NOTEXISTS" and inner.filters and not (
                    inner.triples or inner.optionals or inner.unions or inner.minus or inner.values or inner.counts):
                # the compiler writes a negated test as FILTER(!(...)), another algebra
                raise UnsupportedSPARQLError("FILTER NOT EXISTS around FILTERs only")
            if name == "Builtin_NOTEXISTS":
                return _negated(self.group_vps(inner, x, scope), "FILTER NOT EXISTS")
            # said as what it tests, "has a <P>": a join, the same answers where they are a set
            self.exists_as_join()
            return conj(self.group_vps(inner, x, scope, visible=visible))
        if name == "RelationalExpression":
            left, op, right = expr.expr, expr.op, expr.other
            if op in ("IN", "NOT IN"):
                refs = tuple(ir.Ref(ir_term(t)) for t in right)
                np = refs[0] if len(refs) == 1 else ir.Coord("or", refs)
                if op == "IN":
                    return self._on(left, x, ir.Be(np))
                # "is not equal to (A or B)": the test NOT IN is (!(?x = A || ?x = B)); "is not
                # A or B" is a pattern that must not match (NOT EXISTS { VALUES })
                return self._on(left, x, ir.Not(ir.Compare("=", (np,))))
            if isinstance(left, Variable) and left in self.aggregate_values:
                left, right, op = right, left, FLIP[op]
            if isinstance(right, Variable) and right in self.aggregate_values:
                # "greater than the average <P1082> of the <Q6256>-s": a sub-query's aggregate
                return self._on(left, x, ir.Compare(op, (self.aggregate_np(self.aggregate_values[right]),)))
            if is_subject(right, x) and not is_subject(left, x):
                left, right, op = right, left, FLIP[op]
            if is_call(left, "Builtin_LANG") and op == "=" and isinstance(right, Literal) and not right.language:
                return self._on(left.arg, x, ir.LangIs(str(right).lower()))  # "whose language is "en""
            if is_call(right, "Builtin_NOW") and op in FLIP:
                return self._on(left, x, ir.Compare(op, (ir.Now(),), temporal=True))  # "earlier than now"
            if not isinstance(right, (URIRef, Literal)) and not variables(right) and op in FLIP \
                    and constant_sayable(right):
                # a value computed from constants only ("YEAR(NOW()) - 2"): "less than (the year of
                # now - 2)", which the compiler BINDs and compares
                return self._on(left, x, ir.Compare(op, (bind_np(right, None, {}, self.year_casts),)))
            if not isinstance(right, (URIRef, Literal)):
                raise UnsupportedSPARQLError("a comparison between two variables or expressions")
            vp = _comparison(op, right)
            if has_cast(left):
                # xsd:double(STR(?x)) < 5: the profile's numeric_cast form, for numbers only
                if not (isinstance(vp, ir.Compare) and vp.op in ("<", ">", "<=", ">=") and isinstance(right, Literal)
                        and right.datatype in NUMERIC_TYPES):
                    raise UnsupportedSPARQLError("a numeric cast compared with something other than a number")
                if not isinstance(unwrap_str(left.expr[0]), Variable):
                    raise UnsupportedSPARQLError("a numeric cast of an expression", "xsd:double(STR(YEAR(...)))")
                self.casts.add(True)
            elif (isinstance(vp, ir.Compare) and vp.op in ("<", ">", "<=", ">=") and isinstance(right, Literal)
                  and right.datatype in NUMERIC_TYPES):
                self.casts.add(False)
            return self._on(left, x, vp)
        # The CNL's string tests are case-insensitive: the compiler writes
        # CONTAINS(LCASE(STR(?x)), LCASE("v")) and REGEX(STR(?x), "v", "i"); other forms differ.
        if name in ("Builtin_CONTAINS", "Builtin_STRSTARTS") and is_call(expr.arg1, "Builtin_STR") \
                and isinstance(expr.arg2, Literal) and not expr.arg2.language:
            # CONTAINS(STR(?x), "v"): "case-sensitively contains"
            return self._on(expr.arg1.arg, x, ir.StrTest(
                "contains" if name == "Builtin_CONTAINS" else "starts", str(expr.arg2), case_sensitive=True))
        if name == "Builtin_STRENDS" and is_call(expr.arg1, "Builtin_STR") and isinstance(expr.arg2, Literal) \
                and not expr.arg2.language and expr.arg2.datatype in (None, XSD.string):
            # STRENDS(STR(?x), "v"): "case-sensitively matches "v$"" (REGEX(STR(?x), "v$"), the same test)
            return self._on(expr.arg1.arg, x, ir.StrTest("matches", regex_literal(str(expr.arg2)) + "$",
                                                         case_sensitive=True))
        if name == "Builtin_REGEX" and not expr.flags and is_call(expr.text, "Builtin_STR") \
                and isinstance(expr.pattern, Literal):
            return self._on(expr.text.arg, x, ir.StrTest("matches", str(expr.pattern), case_sensitive=True))
        if name in ("Builtin_CONTAINS", "Builtin_STRSTARTS"):
            if not (is_call(expr.arg1, "Builtin_LCASE") and is_call(expr.arg1.arg, "Builtin_STR")
                    and is_call(expr.arg2, "Builtin_LCASE")):
                raise UnsupportedSPARQLError("a case-sensitive string test", name[len("Builtin_"):])
            value = string_arg(expr.arg2)
            return self._on(unwrap_str(expr.arg1), x, ir.StrTest(
                "contains" if name == "Builtin_CONTAINS" else "starts", value))
        if name == "Builtin_REGEX":
            if not (str(expr.flags or "") == "i" and is_call(expr.text, "Builtin_STR")):
                raise UnsupportedSPARQLError("a case-sensitive string test", "REGEX without the flag \"i\"")
            return self._on(unwrap_str(expr.text), x, ir.StrTest("matches", string_arg(expr.pattern)))
        if (name == "Builtin_LANGMATCHES" and is_call(expr.arg1, "Builtin_LANG") and isinstance(expr.arg2, Literal)
                and not expr.arg2.language):
            # "whose language matches "en"" (a language range: case does not matter there)
            return self._on(expr.arg1.arg, x, ir.LangIs(str(expr.arg2).lower(), range=True))
        if name in _TERM_KINDS:  # "is a literal", "is an IRI", "is a number"
            return self._on(expr.arg, x, ir.TermKind(_TERM_KINDS[name]))
        if name == "YearComparison":
            raise UnsupportedSPARQLError("several BINDs", "two years compared, both joined to the query")
        if name == "YearTest":
            if year_arg(expr.expr, self.year_casts) != x:
                raise UnsupportedSPARQLError("BIND", "a year BIND tested apart from its date")
            tests = tuple(self.filter_vp(f, expr.year, scope) for f in expr.tests)
            return ir.YearIs(ir.Be(ir.Quant("a", None, tests)))
        raise UnsupportedSPARQLError("a FILTER on " + (name or str(expr)).replace("Builtin_", "") + "()")

    def exists_as_join(self) -> None:
        """SQUALL's "has a <P>" is a join; FILTER EXISTS keeps each answer once. The two agree
        only where the answers are a set (DISTINCT, ASK, a count of distinct values)."""
        if not self.set_answers and not (self.keeps_duplicates and rows_are_distinct(self.sparql)):
            # (a SELECT of every variable of plain triples gives each row once all the same)
            raise UnsupportedSPARQLError("FILTER EXISTS in a query that keeps duplicates",
                                         "said as a statement it would repeat the answers")
        self.exists_joined = True

    def compare_vars(self, pair, x, other, ctx, coref: bool = False):
        """The VarComparison ``pair`` said of ``x``: "greater than the <P> of X" (``other``'s
        own NP), or with ``coref`` its co-reference variable ("different from ?p"); a side
        written YEAR(...) is "whose year ..." / "the year of ..."."""
        left, left_year, op, right, right_year = pair.left, pair.left_year, pair.op, pair.right, pair.right_year
        if right == x:
            left, left_year, right, right_year, op = right, right_year, left, left_year, FLIP[op]
        if op not in ("<", ">", "<=", ">=", "!=", "="):
            raise UnsupportedSPARQLError("a comparison between two variables or expressions")
        far = ir.Ref(ir.Var(self.coref_name(other))) if coref else self.np(ctx, other, None)
        if right_year is not None:
            year_arg(right_year, self.year_casts)
            far = ir.Quant("the", ir.YearOf(far))
        vp = ir.Compare(op, (far,))
        if left_year is not None:
            year_arg(left_year, self.year_casts)
            vp = ir.YearIs(vp)
        return vp

    def aggregate_np(self, best):
        """The aggregate a value sub-query computes (``{ SELECT (AVG(?v) AS ?a) WHERE { P } }``),
        said as ``the average`` of ?v described by P: P must be a tree of triples that
        describes ?v (``the <P1082> of a <Q6256>``), nothing more."""
        inner = best.inner
        if (inner.filters or inner.optionals or inner.unions or inner.minus or inner.values or inner.binds
                or inner.counts or inner.ranked or inner.bests):
            raise UnsupportedSPARQLError("a sub-query (nested SELECT)", "an aggregate over more than triples")
        classes: dict = {}
        edges = fold(inner.triples, classes, {best.value})
        ctx = _Context(edges, classes, {}, "a")
        np = self.np(ctx, best.value, None)
        if len(ctx.used) != len(edges) or any(classes.values()):
            raise UnsupportedSPARQLError("a sub-query (nested SELECT)",
                                         "an aggregate whose pattern says more than what it aggregates")
        return ir.Aggregate(best.op, np)

    def _on(self, operand, x, vp):
        # xsd:double(STR(?x)) (Sparklis' numeric comparisons) compares ?x's value.
        while (getattr(operand, "name", None) == "Function" and operand.iri in NUMERIC_TYPES
               and len(operand.expr or []) == 1):
            operand = unwrap_str(operand.expr[0])
        if operand == x:
            return vp
        if getattr(operand, "name", None) == "Builtin_YEAR" and year_arg(operand, self.year_casts) == x:
            return ir.YearIs(vp)
        raise UnsupportedSPARQLError("a FILTER on an expression", getattr(operand, "name", str(operand)))


def _negated(vps, what):
    """``not`` before what a negated pattern says of its value: one verb phrase (the CNL
    negates no conjunction of them: "has not <P27> <Q30> and has not <P19> <Q60>" is another
    query)."""
    if len(vps) > 1:
        raise UnsupportedSPARQLError(f"{what} over several statements about one value",
                                     "the CNL negates one statement (or one chain of them) at a time")
    return ir.Not(conj(vps))


@dataclass
class _Context:
    edges: list
    classes: dict
    extras: dict
    det: str
    used: set = field(default_factory=set)
    const_extras: dict = field(default_factory=dict)  # constant -> edges joined only through it
    outer: frozenset = frozenset()  # nodes mentioned before this group: their edges here are said here


def _nameable(var, edges, classes, filters, this, which=frozenset()) -> bool:
    """Whether ``var``'s first mention can carry a co-reference variable: a class noun, an answer
    column ("which thing ?y"), or a value no statement starts from (its FILTERs are said of it:
    "something ?l whose language is "en""; :func:`~cnl.sparql.decompile.corefs.name_corefs`
    refuses a mention that takes no variable after all)."""
    if var in classes or var in which:
        return True
    return not any(same(e.subject, var) for e in edges)


def _set_answers(state: Decompilation) -> bool:
    """Whether the query's answers are a set: an ASK, a SELECT DISTINCT without aggregates, a
    count of distinct values, a minimum or a maximum (see the equivalence checker's rule)."""
    if state.form == "AskQuery":
        return True
    if state.aggregated is not None:
        return state.aggregated[0] in ("min", "max", "sample")
    if state.counted is not None or state.counted_order is not None or state.numbers or state.having:
        return bool(state.count_distinct)
    return state.duplicates == "removed"


def _any_rank(e) -> bool:
    """A ``p:/ps:`` statement without qualifiers (``at any rank``): a profile that writes the
    truthy ``wdt:`` shortcut where no qualifier needs a statement would read only the
    best-ranked ones (the options stage drops the mark where every statement is written so)."""
    return e.form == "p" and not e.quals and e.obj is not VALUE_UNSAID and not e.normalized and e.unit is None


def _prop_text(prop) -> str:
    return prop if isinstance(prop, str) else "|".join(prop) if isinstance(prop, tuple) else repr(prop)


def _comparison(op: str, value):
    if isinstance(value, Literal) and value.datatype == XSD.dateTime:
        year = _YEAR_START.match(str(value))
        # The compiler writes "earlier than Y" as < Y-01-01 and "later than Y" as >= (Y+1)-01-01.
        if year and op == "<":
            return ir.Compare("<", (ir.Ref(ir.Literal(year.group(1), "integer")),), temporal=True)
        if year and op == ">=":
            return ir.Compare(">", (ir.Ref(ir.Literal(str(int(year.group(1)) - 1), "integer")),), temporal=True)
    ref = ir.Ref(ir_term(value))
    if op == "=" and isinstance(value, URIRef):
        # FILTER(?x = wd:Q) stays a FILTER ("is equal to <Q>"); "is <Q>" compiles to VALUES
        return ir.Compare("=", (ref,))
    if op == "=":
        return ir.Be(ref)
    # "is different from X" is FILTER(?x != X); "is not X" would be FILTER NOT EXISTS / !(=)
    return ir.Compare(op, (ref,))


def _bind_detail(expr) -> str:
    if getattr(expr, "name", "") in ("AdditiveExpression", "MultiplicativeExpression") and len(variables(expr)) >= 2:
        return "arithmetic over two variables"
    return "only filters and statements can be written in CNL"


def _disjunction(items):
    """``has <P> A or has <P> B`` is written ``has <P> (A or B)`` (SQUALL cannot nest a VP
    disjunction inside a conjunction)."""
    if all(isinstance(i, ir.Stmt) and not i.quals and not i.inverse and isinstance(i.obj, ir.Ref)
           for i in items) and len({(i.prop, i.any_rank, i.normalized, i.unit) for i in items}) == 1:
        return ir.Stmt(items[0].prop, ir.Coord("or", tuple(i.obj for i in items)), any_rank=items[0].any_rank,
                       normalized=items[0].normalized, unit=items[0].unit)
    return ir.Or(tuple(items))


def conj(vps):
    vps = list(vps)
    if not vps:
        return ir.Exists()
    return vps[0] if len(vps) == 1 else ir.And(tuple(vps))
