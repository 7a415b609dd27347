"""SPARQL -> IR: the decompiler (the compiler's inverse on the queries CNL can express).

The query is parsed with rdflib's parser and algebra, flattened into nested groups (triples,
filters, OPTIONAL, UNION, MINUS, VALUES), and Wikidata statements are folded into edges
(``wdt:P`` shortcuts, or ``p:P``/``ps:P``/``pq:Q`` through a blank node or a variable). The
triple graph must then be a tree rooted at the focus variable: each variable becomes a
quantified noun phrase (``a <P>``, a class noun for ``wdt:P31 wd:C``), each edge a statement
with its qualifiers, each constant a ``Ref``. :func:`decompile_to_ir` also returns the profile
options (``statements``, ``projection``, ``default_limit``, ``subclasses``) under which the IR
compiles back to an equivalent query. Anything else raises :class:`UnsupportedSPARQLError`
naming the construct.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from rdflib import BNode, Literal, URIRef, Variable
from rdflib.namespace import XSD
from rdflib.paths import MulPath, SequencePath
from rdflib.plugins.sparql.parserutils import CompValue

from cnl.dialects import get_dialect
from cnl.sparql.compiler import compile_query
from cnl.sparql.equivalence import equivalent
from cnl.sparql.algebra import parse_algebra
from cnl.sparql.namespaces import PREFIXES
from cnl.errors import CNLError, UnsupportedSPARQLError
from cnl import ir

_WD = PREFIXES["wd"]
_WDT = PREFIXES["wdt"]
_P = PREFIXES["p"]
_PS = PREFIXES["ps"]
_PQ = PREFIXES["pq"]
_QID = re.compile(r"^Q[1-9][0-9]*$")
_PID = re.compile(r"^P[1-9][0-9]*$")
_YEAR_START = re.compile(r"^(-?[0-9]{1,4})-01-01T00:00:00Z$")
_INTEGER = {XSD.integer, XSD.int, XSD.long, XSD.short, XSD.nonNegativeInteger, XSD.positiveInteger}
_DECIMAL = {XSD.decimal, XSD.double, XSD.float}
_FLIP = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "=": "=", "!=": "!="}
_PRESENTATION_SERVICE = URIRef(PREFIXES["wikibase"] + "label")


# ------------------------------------------------------------------------------ flat groups


@dataclass
class _Group:
    """One group graph pattern, flattened (joins merged)."""

    triples: list = field(default_factory=list)
    filters: list = field(default_factory=list)
    optionals: list = field(default_factory=list)
    unions: list = field(default_factory=list)  # list of lists of _Group
    minus: list = field(default_factory=list)
    values: list = field(default_factory=list)  # (var, [terms])
    binds: list = field(default_factory=list)  # (var, expression)


def _short(iri) -> str:
    for name, base in sorted(PREFIXES.items(), key=lambda kv: -len(kv[1])):
        if str(iri).startswith(base):
            return f"{name}:{str(iri)[len(base):]}"
    return f"<{iri}>"


def _flatten(node, group: _Group) -> None:
    name = getattr(node, "name", None)
    if name == "BGP":
        group.triples.extend(node.triples)
    elif name == "Join":
        _flatten(node.p1, group)
        _flatten(node.p2, group)
    elif name == "LeftJoin":
        _flatten(node.p1, group)
        inner = _Group()
        _flatten(node.p2, inner)
        if getattr(node.expr, "name", None) != "TrueFilter":
            inner.filters.append(node.expr)
        group.optionals.append(inner)
    elif name == "Filter":
        _flatten(node.p, group)
        # rdflib joins a group's FILTERs with &&: split them again, each may be about another variable
        stack = [node.expr]
        while stack:
            expr = stack.pop(0)
            if getattr(expr, "name", None) == "ConditionalAndExpression":
                stack[:0] = [expr.expr, *expr.other]
            else:
                group.filters.append(expr)
    elif name == "Union":
        branches, stack = [], [node]
        while stack:
            n = stack.pop()
            if getattr(n, "name", None) == "Union":
                stack += [n.p2, n.p1]
            else:
                branch = _Group()
                _flatten(n, branch)
                branches.append(branch)
        group.unions.append(branches)
    elif name == "Minus":
        _flatten(node.p1, group)
        inner = _Group()
        _flatten(node.p2, inner)
        group.minus.append(inner)
    elif name == "ToMultiSet":
        _flatten(node.p, group)
    elif name == "values":
        columns = {k for row in node.res for k in row}
        if len(columns) != 1:
            raise UnsupportedSPARQLError("VALUES over several variables")
        (var,) = columns
        group.values.append((var, [row[var] for row in node.res]))
    elif name == "Extend":
        _flatten(node.p, group)
        group.binds.append((node.var, node.expr))
    elif name == "ServiceGraphPattern":
        if node.term != _PRESENTATION_SERVICE:
            raise UnsupportedSPARQLError("SERVICE", _short(node.term))
        # SERVICE wikibase:label only adds label columns: presentation, dropped.
    elif name in ("Project", "Slice", "Distinct", "Reduced", "OrderBy", "Group", "AggregateJoin"):
        raise UnsupportedSPARQLError("a sub-query (nested SELECT)")
    elif name == "Graph":
        raise UnsupportedSPARQLError("GRAPH")
    else:
        raise UnsupportedSPARQLError(f"the pattern {name}")


def _bind_detail(expr) -> str:
    vars_ = {v for v in _vars(expr)}
    if getattr(expr, "name", "") in ("AdditiveExpression", "MultiplicativeExpression") and len(vars_) >= 2:
        return "arithmetic over two variables"
    return "only filters and statements can be written in CNL"


def _vars(obj) -> set:
    """Every variable named in an expression or pattern (rdflib's CompValue trees)."""
    out: set = set()
    stack = [obj]
    while stack:
        o = stack.pop()
        if isinstance(o, Variable):
            out.add(o)
        elif isinstance(o, CompValue):
            stack.extend(v for k, v in o.items() if not k.startswith("_"))
        elif isinstance(o, (list, tuple)):
            stack.extend(o)
        elif isinstance(o, dict):
            stack.extend(o.values())
    return out


# ------------------------------------------------------------------------------ statements


@dataclass
class _Edge:
    """``subject P object`` with qualifiers; ``form``: ``wdt`` (truthy) or ``p`` (statement)."""

    subject: object
    prop: str
    obj: object
    quals: list  # (qualifier PID, value)
    form: str


def _pid(iri, base) -> str:
    pid = str(iri)[len(base):]
    if not _PID.match(pid):
        raise UnsupportedSPARQLError("a predicate that is not a Wikidata property", _short(iri))
    return pid


def _is_node(term) -> bool:
    return isinstance(term, (Variable, BNode))


def _fold(triples, classes: dict, reserved: set) -> list[_Edge]:
    """Triples -> edges; class tests (``?x wdt:P31 wd:C``) go to ``classes[var]``."""
    edges, heads, values, quals = [], {}, {}, {}
    triples = _subclass_idiom(_expand_sequences(triples), classes, reserved)
    for s, p, o in triples:
        if isinstance(p, Variable):
            raise UnsupportedSPARQLError("a variable in predicate position", f"?{p}")
        if not isinstance(p, URIRef):
            subclass = _subclass_path(p)
            if subclass and _is_node(s) and isinstance(o, URIRef) and str(o).startswith(_WD):
                classes.setdefault(s, []).append((o, True))
                continue
            raise UnsupportedSPARQLError("property paths", str(p.n3()) if hasattr(p, "n3") else str(p))
        iri = str(p)
        if iri.startswith(_WDT):
            pid = _pid(p, _WDT)
            if pid == "P31" and _is_node(s) and isinstance(o, URIRef) and str(o).startswith(_WD):
                classes.setdefault(s, []).append((o, False))
            else:
                edges.append(_Edge(s, pid, o, [], "wdt"))
        elif iri.startswith(_PS):
            values.setdefault(s, []).append((_pid(p, _PS), o))
        elif iri.startswith(_PQ):
            quals.setdefault(s, []).append((_pid(p, _PQ), o))
        elif iri.startswith(_P) and iri[len(_P):].startswith("P"):
            if not _is_node(o):
                raise UnsupportedSPARQLError("a p: statement whose object is not a statement node", _short(o))
            heads.setdefault(o, []).append((s, _pid(p, _P)))
        else:
            raise UnsupportedSPARQLError("a predicate outside Wikidata's wdt:/p:/ps:/pq: namespaces", _short(p))
    for st, hs in heads.items():
        if len(hs) != 1:
            raise UnsupportedSPARQLError("a statement node shared by several p: triples")
        subject, pid = hs[0]
        vals = values.pop(st, [])
        if len(vals) != 1 or vals[0][0] != pid:
            raise UnsupportedSPARQLError("a statement without exactly one matching ps: value", f"p:{pid}")
        if st in reserved:
            raise UnsupportedSPARQLError("a statement node used outside p:/ps:/pq:", st.n3())
        edges.append(_Edge(subject, pid, vals[0][1], quals.pop(st, []), "p"))
    if values or quals:
        raise UnsupportedSPARQLError("a ps:/pq: triple without its p: statement")
    return edges


def _expand_sequences(triples):
    """``s p1/p2 o`` -> ``s p1 _:m . _:m p2 o`` (except the class path wdt:P31/wdt:P279*)."""
    out = []
    for s, p, o in triples:
        if isinstance(p, SequencePath) and not _subclass_path(p):
            subject = s
            for step in p.args[:-1]:
                middle = BNode()
                out.append((subject, step, middle))
                subject = middle
            out.append((subject, p.args[-1], o))
        else:
            out.append((s, p, o))
    return out


def _subclass_idiom(triples, classes, reserved):
    """``?x wdt:P31 ?t . ?t wdt:P279* wd:C`` (``?t`` used nowhere else) is a subclass-closed
    class test of ``?x``."""
    star = [(s, o) for s, p, o in triples if isinstance(p, MulPath) and p.path == URIRef(_WDT + "P279")
            and p.mod == "*" and _is_node(s) and s not in reserved and isinstance(o, URIRef)]
    drop = set()
    for t, cls in star:
        uses = [i for i, (s, p, o) in enumerate(triples) if s == t or o == t]
        typing = [i for i in uses if triples[i][2] == t and triples[i][1] == URIRef(_WDT + "P31")
                  and _is_node(triples[i][0])]
        if len(uses) == 2 and len(typing) == 1:
            classes.setdefault(triples[typing[0]][0], []).append((cls, True))
            drop |= set(uses)
    return [t for i, t in enumerate(triples) if i not in drop]


def _subclass_path(p) -> bool:
    """``wdt:P31/wdt:P279*``."""
    if isinstance(p, SequencePath) and len(p.args) == 2:
        first, second = p.args
        return (first == URIRef(_WDT + "P31") and isinstance(second, MulPath)
                and second.path == URIRef(_WDT + "P279") and second.mod == "*")
    return False


# ------------------------------------------------------------------------------ terms


def _term(t):
    if isinstance(t, URIRef):
        iri = str(t)
        if iri.startswith(_WD) and _QID.match(iri[len(_WD):]):
            return ir.Entity(id=iri[len(_WD):])
        raise UnsupportedSPARQLError("an IRI that is not a Wikidata item", _short(t))
    if isinstance(t, Literal):
        if t.language:
            return ir.Literal(str(t), "string", t.language.lower())
        dt = t.datatype
        if dt in _INTEGER:
            return ir.Literal(str(int(str(t))), "integer")
        if dt in _DECIMAL:
            return ir.Literal(str(t), "decimal")
        if dt == XSD.date:
            return ir.Literal(str(t), "date")
        if dt == XSD.dateTime and re.match(r"^-?[0-9]{4}-[0-9]{2}-[0-9]{2}$", str(t)):
            # xsd:dateTime needs a time: "2000-01-01"^^xsd:dateTime is not a valid literal
            raise UnsupportedSPARQLError("an ill-formed xsd:dateTime literal (a date without a time)", t.n3())
        if dt == XSD.dateTime and re.match(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$", str(t)):
            return ir.Literal(str(t), "dateTime")
        if dt is None or dt == XSD.string:
            return ir.Literal(str(t), "string")
        raise UnsupportedSPARQLError(f"a {_short(dt)} literal", str(t))
    raise UnsupportedSPARQLError("an unexpected term", str(t))


def _class(o) -> ir.ClassNoun:
    return ir.ClassNoun(ir.Class(id=str(o)[len(_WD):]))


# ------------------------------------------------------------------------------ the tree


class _Builder:
    def __init__(self, focus: set, which: set, orders: dict):
        self.visited: set = set()
        self.which = which          # variables written "which" (answer columns)
        self.projected: set = set()
        self.orders = orders        # variable -> ir.Order
        self.used_edges: set = set()
        self.forms: set = set()
        self.subclasses: set = set()
        self.all_nodes: list = []   # variables in scope at the top (for projection "all")
        self.casts: set = set()     # numeric comparisons: True written xsd:double(STR(?x)), False plain
        self.year_casts: set = set()  # YEAR(...): True written YEAR(xsd:dateTime(?x)), False plain

    def note_forms(self, edges):
        for e in edges:
            self.forms.add("wdt" if e.form == "wdt" else "p_qual" if e.quals else "p_plain")

    # A "scope" is the group being read plus the nodes of the groups around it.
    def group_vps(self, group: _Group, anchor, scope: set, det: str = "a", top: bool = False,
                  visible: bool | None = None):
        """The VPs saying what ``group`` says about ``anchor`` (already in scope)."""
        if group.binds:
            raise UnsupportedSPARQLError("BIND", _bind_detail(group.binds[0][1]) + " (only a projected BIND is supported)")
        classes: dict = {}
        reserved = _vars(group.filters) | {v for v, _ in group.values} | self.projected
        edges = _fold(group.triples, classes, reserved)
        self.note_forms(edges)
        for cs in classes.values():
            for _, sub in cs:
                self.subclasses.add(sub)
        nodes = set()
        for e in edges:
            nodes |= {t for t in (e.subject, e.obj, *(v for _, v in e.quals)) if _is_node(t)}
        nodes |= set(classes)
        inner_scope = scope | nodes | {anchor}
        extras: dict = {}

        def attach(vars_, what, make):
            anchors = [v for v in vars_ if v in inner_scope]
            if len(anchors) != 1:
                if not anchors:
                    raise UnsupportedSPARQLError(f"{what} not connected to the rest of the query")
                raise UnsupportedSPARQLError(f"{what} joined to the query on several variables",
                                             " ".join(sorted(a.n3() for a in anchors)))
            extras.setdefault(anchors[0], []).append(make)

        for sub in group.optionals:
            attach(_group_vars(sub) & inner_scope, "an OPTIONAL",
                   lambda x, sub=sub: self.optional_vp(sub, x, inner_scope, top))
        for branches in group.unions:
            shared = set.intersection(*[_group_vars(b) for b in branches]) if branches else set()
            attach(shared & inner_scope or set.union(*[_group_vars(b) for b in branches]) & inner_scope,
                   "a UNION", lambda x, bs=branches: _disjunction(
                       [_conj(self.group_vps(b, x, inner_scope, visible=top)) for b in bs]))
        for sub in group.minus:
            attach(_group_vars(sub) & inner_scope, "a MINUS",
                   lambda x, sub=sub: ir.Not(_conj(self.group_vps(sub, x, inner_scope))))
        for var, terms in group.values:
            refs = tuple(ir.Ref(_term(t)) for t in terms)
            np = refs[0] if len(refs) == 1 else ir.Coord("or", refs)
            attach({var}, "a VALUES", lambda x, np=np: ir.Be(np))
        holder: dict = {}   # the group's context, for FILTERs that name a second variable
        reach = _reachable(edges, anchor, scope)
        for expr in group.filters:
            if not _vars(expr):
                raise UnsupportedSPARQLError("a FILTER over constants only (always true or always false)",
                                             str(getattr(expr, "name", expr)))
            pair = _var_comparison(expr)
            if pair and pair[0] in inner_scope and pair[1] in inner_scope:
                # ?a > ?b where ?b hangs on the query only through this FILTER: said of ?a,
                # "greater than the <P> of X", with ?b's own description as the NP
                a, b = pair
                if (b in reach) == (a in reach):
                    raise UnsupportedSPARQLError("a FILTER joined to the query on several variables",
                                                 f"{a.n3()} {b.n3()}")
                near, far = (a, b) if a in reach else (b, a)
                extras.setdefault(near, []).append(
                    lambda x, expr=expr, far=far: self.compare_vars(expr, x, far, holder["ctx"]))
                continue
            attach(_expr_vars(expr) & inner_scope or _expr_vars(expr), "a FILTER",
                   lambda x, expr=expr: self.filter_vp(expr, x, inner_scope))

        self.edges = getattr(self, "edges", [])
        ctx = _Ctx(edges, classes, extras, det)
        ctx.const_extras = _constant_components(edges, anchor, scope)
        holder["ctx"] = ctx
        if visible if visible is not None else top:
            # blank nodes too: the compiler names every value it introduces
            self.all_nodes.extend(n for n in nodes if _is_node(n))
        vps = self.node_vps(ctx, anchor, None, root_noun=False)
        if not _is_node(anchor) and anchor in ctx.const_extras:
            vps += self.const_vps(ctx, anchor, ctx.const_extras.pop(anchor))
        left = [e for e in edges if id(e) not in ctx.used]
        if left:
            raise UnsupportedSPARQLError("disconnected triple patterns (a cross product)",
                                         f"{_node_text(left[0].subject)} {left[0].prop} {_node_text(left[0].obj)}")
        for n in nodes:
            if n not in self.visited and n != anchor:
                raise UnsupportedSPARQLError("disconnected triple patterns (a cross product)", n.n3())
        return vps

    def node_vps(self, ctx, node, via, root_noun: bool):
        """VPs about ``node`` from the edges not yet used; marks the node visited."""
        if _is_node(node):
            if node in self.visited and via is not None:
                raise UnsupportedSPARQLError("a cycle in the triple patterns", node.n3())
            self.visited.add(node)
        vps = []
        if not root_noun:
            for cls, _ in ctx.classes.pop(node, []):
                vps.append(ir.Be(ir.Quant("a", _class(cls))))
        for e in ctx.edges:
            if id(e) in ctx.used:
                continue
            if _same(e.subject, node):
                ctx.used.add(id(e))
                vps.append(ir.Stmt(ir.Property(e.prop), self.np(ctx, e.obj, e, attach=True),
                                   self.quals(ctx, e.quals, e)))
            elif _same(e.obj, node) and _is_node(node):
                ctx.used.add(id(e))
                # "X P node" is said of the node as "is a <P> of X".
                vps.append(ir.Be(ir.Quant("a", self.rel_noun(ctx, e))))
            elif _is_node(node) and any(_same(v, node) for _, v in e.quals):
                ctx.used.add(id(e))
                qid = next(q for q, v in e.quals if _same(v, node))
                rest = [(q, v) for q, v in e.quals if not _same(v, node)]
                vps.append(ir.QualifierOf(
                    ir.Property(qid), self.np(ctx, e.subject, e),
                    ir.Stmt(ir.Property(e.prop), self.np(ctx, e.obj, e), self.quals(ctx, rest, e))))
        for make in ctx.extras.pop(node, []):
            vps.append(make(node))
        return vps

    def np(self, ctx, term, via, attach: bool = False):
        if not _is_node(term):
            if attach and term in ctx.const_extras:
                # what the query says of a constant elsewhere: "the thing that is <Q> and that ..."
                vps = self.const_vps(ctx, term, ctx.const_extras.pop(term))
                return ir.Quant("the", None, (ir.Be(ir.Ref(_term(term))), *vps))
            return ir.Ref(_term(term))
        noun, vps = self.noun_and_vps(ctx, term, via)
        det = "which" if term in self.which else ctx.det
        return ir.Quant(det, noun, tuple(vps), order=self.orders.get(term))

    def rel_noun(self, ctx, e):
        return ir.RelNoun(ir.Property(e.prop), self.np(ctx, e.subject, e, attach=True), self.quals(ctx, e.quals, e))

    def const_vps(self, ctx, const, component):
        """VPs about a constant from triple patterns joined to the query only through it."""
        vps = []
        for e in component:
            if id(e) in ctx.used:
                continue
            if _same(e.subject, const):
                ctx.used.add(id(e))
                vps.append(ir.Stmt(ir.Property(e.prop), self.np(ctx, e.obj, e), self.quals(ctx, e.quals, e)))
            elif _same(e.obj, const):
                ctx.used.add(id(e))
                vps.append(ir.Be(ir.Quant("a", self.rel_noun(ctx, e))))
        return vps

    def noun_and_vps(self, ctx, node, via):
        if node in self.visited:
            raise UnsupportedSPARQLError("a cycle in the triple patterns", node.n3())
        self.visited.add(node)
        classes = ctx.classes.pop(node, [])
        noun = _class(classes[0][0]) if classes else None
        if classes[1:]:
            ctx.classes[node] = classes[1:]
        if noun is None:
            # No class: name the node by an edge into it, "the <P> of X".
            for e in ctx.edges:
                if id(e) not in ctx.used and _same(e.obj, node):
                    ctx.used.add(id(e))
                    noun = self.rel_noun(ctx, e)
                    break
        vps = self.node_vps(ctx, node, None, root_noun=False)
        return noun, vps

    def quals(self, ctx, quals, via):
        return tuple(ir.Qual(ir.Property(q), self.np(ctx, v, via)) for q, v in quals)

    def optional_vp(self, sub: _Group, x, scope, visible):
        classes: dict = {}
        edges = _fold(sub.triples, classes, _vars(sub.filters))
        linking = [e for e in edges if _same(e.subject, x) or _same(e.obj, x)]
        if len(linking) != 1 or sub.optionals or sub.unions or sub.minus:
            raise UnsupportedSPARQLError("an OPTIONAL other than one statement and what hangs on its value")
        vps = self.group_vps(sub, x, scope, det="maybe", visible=visible)
        # The single statement from x: its value NP becomes "maybe".
        (vp,) = vps if len(vps) == 1 else (None,)
        if not isinstance(vp, ir.Stmt) or not isinstance(vp.obj, ir.Quant):
            raise UnsupportedSPARQLError("an OPTIONAL other than one statement and what hangs on its value")
        return ir.Stmt(vp.prop, ir.Quant("maybe", vp.obj.noun, vp.obj.rels, vp.obj.order), vp.quals, vp.inverse)

    def filter_vp(self, expr, x, scope):
        name = getattr(expr, "name", None)
        if name == "ConditionalAndExpression":
            items = [self.filter_vp(e, x, scope) for e in [expr.expr, *expr.other]]
            ops = [(i.op, i.args) for i in items if isinstance(i, ir.Compare) and not i.temporal]
            if len(items) == 2 and len(ops) == 2 and ops[0][0] == ">=" and ops[1][0] == "<=":
                # x >= a && x <= b is what "between a and b" compiles to
                return ir.Compare("between", (ops[0][1][0], ops[1][1][0]))
            return _conj(items)
        if name == "ConditionalOrExpression":
            items = tuple(self.filter_vp(e, x, scope) for e in [expr.expr, *expr.other])
            if all(isinstance(i, ir.Compare) and i.op == "=" and not i.temporal and len(i.args) == 1
                   and isinstance(i.args[0], ir.Ref) for i in items):
                # ?x = A || ?x = B: one FILTER, "is equal to (A or B)" (an Or VP is a UNION)
                return ir.Compare("=", (ir.Coord("or", tuple(i.args[0] for i in items)),))
            return ir.Or(items)
        if name == "UnaryNot":
            return ir.Not(self.filter_vp(expr.expr, x, scope))
        if name in ("Builtin_NOTEXISTS", "Builtin_EXISTS"):
            from rdflib.plugins.sparql.algebra import translateGroupGraphPattern

            graph = expr.graph
            if graph.name.startswith("GroupGraph"):
                graph = translateGroupGraphPattern(graph)
            inner = _Group()
            _flatten(graph, inner)
            if name == "Builtin_NOTEXISTS" and inner.filters and not (
                    inner.triples or inner.optionals or inner.unions or inner.minus or inner.values):
                # the compiler writes a negated test as FILTER(!(...)), another algebra
                raise UnsupportedSPARQLError("FILTER NOT EXISTS around FILTERs only")
            vp = _conj(self.group_vps(inner, x, scope))
            return ir.Not(vp) if name == "Builtin_NOTEXISTS" else vp
        if name == "RelationalExpression":
            left, op, right = expr.expr, expr.op, expr.other
            if op in ("IN", "NOT IN"):
                refs = tuple(ir.Ref(_term(t)) for t in right)
                vp = ir.Be(refs[0] if len(refs) == 1 else ir.Coord("or", refs))
                return self._on(left, x, vp if op == "IN" else ir.Not(vp))
            if _is_subject(right, x) and not _is_subject(left, x):
                left, right, op = right, left, _FLIP[op]
            if not isinstance(right, (URIRef, Literal)):
                raise UnsupportedSPARQLError("a comparison between two variables or expressions")
            vp = _comparison(op, right)
            if _has_cast(left):
                # xsd:double(STR(?x)) < 5: the profile's numeric_cast form, for numbers only
                if not (isinstance(vp, ir.Compare) and vp.op in ("<", ">", "<=", ">=") and isinstance(right, Literal)
                        and right.datatype in _INTEGER | _DECIMAL):
                    raise UnsupportedSPARQLError("a numeric cast compared with something other than a number")
                if not isinstance(_unwrap_str(left.expr[0]), Variable):
                    raise UnsupportedSPARQLError("a numeric cast of an expression", "xsd:double(STR(YEAR(...)))")
                self.casts.add(True)
            elif (isinstance(vp, ir.Compare) and vp.op in ("<", ">", "<=", ">=") and isinstance(right, Literal)
                  and right.datatype in _INTEGER | _DECIMAL):
                self.casts.add(False)
            return self._on(left, x, vp)
        # The CNL's string tests are case-insensitive: the compiler writes
        # CONTAINS(LCASE(STR(?x)), LCASE("v")) and REGEX(STR(?x), "v", "i"); other forms differ.
        if name in ("Builtin_CONTAINS", "Builtin_STRSTARTS"):
            if not (_is_call(expr.arg1, "Builtin_LCASE") and _is_call(expr.arg1.arg, "Builtin_STR")
                    and _is_call(expr.arg2, "Builtin_LCASE")):
                raise UnsupportedSPARQLError("a case-sensitive string test", name[len("Builtin_"):])
            value = _string_arg(expr.arg2)
            return self._on(_unwrap_str(expr.arg1), x, ir.StrTest(
                "contains" if name == "Builtin_CONTAINS" else "starts", value))
        if name == "Builtin_REGEX":
            if not (str(expr.flags or "") == "i" and _is_call(expr.text, "Builtin_STR")):
                raise UnsupportedSPARQLError("a case-sensitive string test", "REGEX without the flag \"i\"")
            return self._on(_unwrap_str(expr.text), x, ir.StrTest("matches", _string_arg(expr.pattern)))
        if name == "YearComparison":
            raise UnsupportedSPARQLError("several BINDs", "two years compared, both joined to the query")
        if name == "YearTest":
            if _year_arg(expr.expr, self.year_casts) != x:
                raise UnsupportedSPARQLError("BIND", "a year BIND tested apart from its date")
            tests = tuple(self.filter_vp(f, expr.year, scope) for f in expr.tests)
            return ir.YearIs(ir.Be(ir.Quant("a", None, tests)))
        raise UnsupportedSPARQLError("a FILTER on " + (name or str(expr)).replace("Builtin_", "") + "()")

    def compare_vars(self, expr, x, other, ctx):
        left, op, right = expr.expr, expr.op, expr.other
        if expr.name == "YearComparison":
            if _year_arg(right, self.year_casts) == x:
                left, right, op = right, left, _FLIP[op]
            _year_arg(left, self.year_casts)
        elif right == x:
            left, right, op = right, left, _FLIP[op]
        if op not in ("<", ">", "<=", ">=", "!="):
            raise UnsupportedSPARQLError("a comparison between two variables or expressions")
        if expr.name == "YearComparison":
            return ir.YearIs(ir.Compare(op, (ir.Quant("the", ir.YearOf(self.np(ctx, other, None))),)))
        return ir.Compare(op, (self.np(ctx, other, None),))

    def _on(self, operand, x, vp):
        # xsd:double(STR(?x)) (Sparklis' numeric comparisons) compares ?x's value.
        while (getattr(operand, "name", None) == "Function" and operand.iri in _INTEGER | _DECIMAL
               and len(operand.expr or []) == 1):
            operand = _unwrap_str(operand.expr[0])
        if operand == x:
            return vp
        if getattr(operand, "name", None) == "Builtin_YEAR" and _year_arg(operand, self.year_casts) == x:
            return ir.YearIs(vp)
        raise UnsupportedSPARQLError("a FILTER on an expression", getattr(operand, "name", str(operand)))


@dataclass
class _Ctx:
    edges: list
    classes: dict
    extras: dict
    det: str
    used: set = field(default_factory=set)
    const_extras: dict = field(default_factory=dict)  # constant -> edges joined only through it


def _var_comparison(expr):
    """(?a, ?b) for a FILTER(?a op ?b) between two plain variables, or a comparison of
    their years (YearComparison, from two BINDs), else None."""
    name = getattr(expr, "name", None)
    if (name == "RelationalExpression" and isinstance(expr.expr, Variable)
            and isinstance(expr.other, Variable) and expr.expr != expr.other):
        return expr.expr, expr.other
    if name == "YearComparison":
        a, b = _year_arg(expr.expr, set()), _year_arg(expr.other, set())
        return (a, b) if a != b else None
    return None


def _reachable(edges, anchor, scope) -> set:
    """The variables joined to ``anchor`` through triple patterns."""
    reached = {anchor} | set(scope)
    changed = True
    while changed:
        changed = False
        for e in edges:
            ends = {t for t in (e.subject, e.obj, *(v for _, v in e.quals)) if _is_node(t) or _same(t, anchor)}
            if ends & reached and not ends <= reached:
                reached |= ends
                changed = True
    return reached


def _constant_components(edges, anchor, scope) -> dict:
    """Edges not reachable from ``anchor`` through variables, grouped into connected parts,
    each keyed by a constant it shares with the reachable part (``wd:Q1 p:P31 wd:Q5 .
    wd:Q1 p:P527 ?x``: the first triple is a condition on wd:Q1). Parts sharing none are left
    out (a real cross product)."""
    def key(t):
        return (type(t), t)

    def node_ends(e):
        return [key(t) for t in (e.subject, e.obj, *(v for _, v in e.quals)) if _is_node(t) or _same(t, anchor)]

    reached = {key(anchor)} | {key(n) for n in scope}
    main, changed = set(), True
    while changed:
        changed = False
        for e in edges:
            if id(e) not in main and any(k in reached for k in node_ends(e)):
                main.add(id(e))
                reached |= set(node_ends(e))
                changed = True
    constants = {t for e in edges if id(e) in main for t in (e.subject, e.obj) if isinstance(t, URIRef)}
    if isinstance(anchor, URIRef):
        constants.add(anchor)
    parts: list = []   # [(node keys, edges)]
    for e in edges:
        if id(e) in main:
            continue
        ends = set(node_ends(e))
        joined = [p for p in parts if p[0] & ends]
        merged = (ends.union(*(p[0] for p in joined)), [x for p in joined for x in p[1]] + [e])
        parts = [p for p in parts if all(p is not j for j in joined)] + [merged]
    out: dict = {}
    for _, part in parts:
        shared = [t for e in part for t in (e.subject, e.obj) if isinstance(t, URIRef) and t in constants]
        if shared:
            out.setdefault(shared[0], []).extend(part)
    return out


def _same(a, b) -> bool:
    return type(a) is type(b) and a == b


def _node_text(t) -> str:
    return t.n3() if isinstance(t, (Variable, BNode)) else _short(t) if isinstance(t, URIRef) else str(t)


def _group_vars(group: _Group) -> set:
    out = set()
    for s, _, o in group.triples:
        out |= {t for t in (s, o) if isinstance(t, Variable)}
    for sub in group.optionals + group.minus:
        out |= _group_vars(sub)
    for branches in group.unions:
        for b in branches:
            out |= _group_vars(b)
    out |= {v for v, _ in group.values}
    for f in group.filters:
        out |= _expr_vars(f)
    return out


def _expr_vars(expr) -> set:
    return _vars(expr)


def _is_subject(operand, x) -> bool:
    while getattr(operand, "name", None) == "Function" and len(operand.expr or []) == 1:
        operand = _unwrap_str(operand.expr[0])
    return operand == x or (getattr(operand, "name", None) == "Builtin_YEAR" and _year_arg(operand, set()) == x)


def _is_call(e, name: str) -> bool:
    return getattr(e, "name", None) == name


def _has_cast(operand) -> bool:
    return getattr(operand, "name", None) == "Function" and operand.iri in _INTEGER | _DECIMAL


def _unwrap_str(e):
    while getattr(e, "name", None) in ("Builtin_STR", "Builtin_LCASE"):
        e = e.arg
    return e


def _string_arg(e) -> str:
    while getattr(e, "name", None) in ("Builtin_STR", "Builtin_LCASE"):
        e = e.arg
    if not isinstance(e, Literal):
        raise UnsupportedSPARQLError("a string test against something other than a string")
    return str(e)


def _comparison(op: str, value):
    if isinstance(value, Literal) and value.datatype == XSD.dateTime:
        year = _YEAR_START.match(str(value))
        # The compiler writes "earlier than Y" as < Y-01-01 and "later than Y" as >= (Y+1)-01-01.
        if year and op == "<":
            return ir.Compare("<", (ir.Ref(ir.Literal(year.group(1), "integer")),), temporal=True)
        if year and op == ">=":
            return ir.Compare(">", (ir.Ref(ir.Literal(str(int(year.group(1)) - 1), "integer")),), temporal=True)
    ref = ir.Ref(_term(value))
    if op == "=" and isinstance(value, URIRef):
        # FILTER(?x = wd:Q) stays a FILTER ("is equal to <Q>"); "is <Q>" compiles to VALUES
        return ir.Compare("=", (ref,))
    if op == "=":
        return ir.Be(ref)
    # "is different from X" is FILTER(?x != X); "is not X" would be FILTER NOT EXISTS / !(=)
    return ir.Compare(op, (ref,))


def _disjunction(items):
    """``has <P> A or has <P> B`` is written ``has <P> (A or B)`` (SQUALL cannot nest a VP
    disjunction inside a conjunction)."""
    if all(isinstance(i, ir.Stmt) and not i.quals and not i.inverse and isinstance(i.obj, ir.Ref)
           for i in items) and len({i.prop for i in items}) == 1:
        return ir.Stmt(items[0].prop, ir.Coord("or", tuple(i.obj for i in items)))
    return ir.Or(tuple(items))


def _conj(vps):
    vps = list(vps)
    if not vps:
        return ir.Exists()
    return vps[0] if len(vps) == 1 else ir.And(tuple(vps))


# ------------------------------------------------------------------------------ the query


def decompile_to_ir(sparql: str) -> tuple[ir.Query, dict]:
    """SPARQL text -> (IR query, Wikidata profile options that recompile it equivalently)."""
    query, options = _decompile(sparql, focus_columns=False)
    if options.get("projection") == "focus":
        # Not every variable is an answer column: mark the columns "which".
        query, options = _decompile(sparql, focus_columns=True)
        options["projection"] = "focus"
    # complete, so that recompiling does not depend on the profile's defaults
    options.setdefault("statements", "always")
    options.setdefault("projection", "all")
    return query, options


def _decompile(sparql: str, focus_columns: bool) -> tuple[ir.Query, dict]:
    algebra = parse_algebra(sparql)
    form = algebra.name
    if form in ("ConstructQuery", "DescribeQuery"):
        raise UnsupportedSPARQLError(form[: -len("Query")].upper())
    node = algebra.p
    limit = offset = None
    order_conds = None
    projection = None
    aggregates: dict = {}   # alias var -> Aggregate CompValue
    having = []
    group_keys = None
    while isinstance(node, CompValue):
        if node.name == "Slice":
            offset, limit = node.start or None, node.length
        elif node.name in ("Distinct", "Reduced"):
            pass
        elif node.name == "Project":
            projection = list(node.PV)
        elif node.name == "OrderBy":
            order_conds = node.expr
        elif node.name == "Extend" and str(node.expr).startswith("__agg_") or (
                node.name == "Extend" and isinstance(node.expr, Variable) and str(node.expr).startswith("__agg")):
            aggregates[node.var] = node.expr
        elif node.name == "Filter" and any(str(v).startswith("__agg") for v in _vars(node.expr)):
            having.append(node.expr)
        elif node.name == "AggregateJoin":
            agg_defs = {a.res: a for a in node.A}
            group = node.p
            group_keys = list(group.expr or [])
            node = group.p
            break
        else:
            break
        node = node.p
    else:
        agg_defs = {}
    if group_keys is None:
        agg_defs = {}
    if having:
        raise UnsupportedSPARQLError("HAVING")

    counted = count_alias = counted_order = None
    select_vars = []
    if form == "SelectQuery":
        for v in projection or algebra.PV:
            agg = agg_defs.get(aggregates.get(v))
            if agg is not None and agg.name == "Aggregate_Sample" and agg.vars == v:
                select_vars.append(v)  # a projected GROUP BY key
            elif v in aggregates:
                if agg is None or agg.name != "Aggregate_Count":
                    raise UnsupportedSPARQLError(f"the aggregate {agg.name[len('Aggregate_'):].upper() if agg else '?'}")
                if counted is not None or not isinstance(agg.vars, Variable):
                    raise UnsupportedSPARQLError("COUNT(*) or several counts")
                if not agg.distinct:
                    # "how many" counts distinct things; COUNT(?x) also counts repeats
                    raise UnsupportedSPARQLError("COUNT without DISTINCT", f"COUNT({agg.vars.n3()})")
                if agg.vars == v:
                    raise UnsupportedSPARQLError("COUNT(?x) AS ?x (the count named as the counted variable)")
                counted, count_alias = agg.vars, v
            else:
                select_vars.append(v)
        if group_keys is not None:
            if counted is None:
                raise UnsupportedSPARQLError("GROUP BY without COUNT")
            if set(group_keys) != set(select_vars):
                raise UnsupportedSPARQLError("GROUP BY keys other than the projected variables")

    top = _Group()
    _flatten(node, top)
    # BIND(YEAR(?d) AS ?y) BIND(YEAR(?e) AS ?z) FILTER(?y > ?z), the years not answers: one
    # comparison of two years, "whose year is greater than the year of ..." (compiled with
    # the same two BINDs)
    years = {v: e for v, e in top.binds if getattr(e, "name", None) == "Builtin_YEAR" and v not in select_vars
             and isinstance(_year_arg(e, set()), Variable)}
    first_year = None   # the input of the first such BIND: the compiler BINDs the subject's year first
    for i, f in enumerate(top.filters):
        pair = _var_comparison(f)
        if pair and all(v in years for v in pair) and f.op in _FLIP and all(
                sum(v in _vars(g) for g in top.filters) == 1 and v not in _vars(order_conds or []) for v in pair):
            top.filters[i] = CompValue("YearComparison", expr=years[pair[0]], op=f.op, other=years[pair[1]])
            first = next(v for v, _ in top.binds if v in pair)
            first_year = first_year or _year_arg(years[first], set())
            top.binds = [(v, e) for v, e in top.binds if v not in pair]
    # BIND(YEAR(?d) AS ?y) FILTER(?y > 1950), ?y not an answer: "whose year is something
    # greater than 1950" (the compiler BINDs the year and tests it the same way)
    for v, e in list(top.binds):
        tests = [f for f in top.filters if v in _vars(f)]
        if (v in years and tests and all(_vars(f) == {v} for f in tests) and v not in _vars(order_conds or [])
                and not any(v in _vars(other) for u, other in top.binds if u != v)):
            top.filters = [f for f in top.filters if v not in _vars(f)]
            top.filters.append(CompValue("YearTest", expr=e, year=v, tests=tests))
            top.binds = [(u, x) for u, x in top.binds if u != v]
    bound = None
    bind_filters: list = []
    if top.binds:
        # One BIND whose value is the answer: YEAR(?d), 2023 - YEAR(?d), ...
        for _, e in top.binds:
            if any(getattr(n, "name", None) == "Builtin_ABS" for n in _subexpressions(e)):
                raise UnsupportedSPARQLError("BIND of ABS()", "CNL has no absolute value")
        if len(top.binds) > 1:
            raise UnsupportedSPARQLError("several BINDs")
        var, expr = top.binds[0]
        if form != "SelectQuery" or counted is not None or var not in select_vars:
            raise UnsupportedSPARQLError("BIND", "only a BIND whose value is an answer column is supported")
        inputs = _vars(expr)
        if len(inputs) > 1:
            raise UnsupportedSPARQLError("BIND with arithmetic over two variables")
        if not inputs:
            raise UnsupportedSPARQLError("BIND of a constant")
        bound = (var, expr, next(iter(inputs)))
        top.binds = []
        # FILTERs on the BIND's value ("... that is less than 1950") go on the answer NP
        bind_filters = [f for f in top.filters if _vars(f) == {var}]
        top.filters = [f for f in top.filters if _vars(f) != {var}]

    orders: dict = {}
    for i, cond in enumerate(order_conds or []):
        expr = cond.expr if isinstance(cond, CompValue) and cond.name == "OrderCondition" else cond
        desc = isinstance(cond, CompValue) and getattr(cond, "order", None) == "DESC"
        if not isinstance(expr, Variable):
            raise UnsupportedSPARQLError("ORDER BY an expression")
        word = "highest" if desc else "lowest"
        if expr in aggregates and expr == count_alias and i == 0:
            # ORDER BY DESC(?count) over groups: "the most <C>" on the counted variable.
            expr, word, counted_order = counted, "most" if desc else "least", counted
        elif expr in aggregates:
            raise UnsupportedSPARQLError("ORDER BY an aggregate other than the count")
        if i == 0:
            if limit is None:
                order = ir.Order(word, limit=False)
                if offset:
                    raise UnsupportedSPARQLError("OFFSET without LIMIT")
            elif offset:
                order = ir.Order(word, rank=offset + 1, to_rank=offset + limit) if limit > 1 else ir.Order(word, rank=offset + 1)
            elif limit > 1:
                order = ir.Order(word, count=limit)
            else:
                order = ir.Order(word)
        else:
            order = ir.Order(word, limit=False)
        if expr in orders:
            raise UnsupportedSPARQLError("ORDER BY the same variable twice")
        if expr not in _vars(node) and expr not in aggregates and expr not in select_vars:
            # e.g. ORDER BY ?P585 where the pattern binds ?P585_17: no order, only the LIMIT
            raise UnsupportedSPARQLError("ORDER BY a variable the query never binds", expr.n3())
        orders[expr] = order

    if counted_order is not None:
        if not select_vars:
            raise UnsupportedSPARQLError("ORDER BY a count without grouping")
        counted = None  # the groups are the answers, ranked by their count
    options: dict = {}
    if form == "AskQuery":
        root, det = _ask_root(top, first_year), "a"
        which = set()
    else:
        root = counted if counted is not None else (select_vars[0] if select_vars else None)
        if bound is not None:
            root = bound[2]
        if root is None:
            raise UnsupportedSPARQLError("a SELECT without a variable to answer")
        det = "how_many" if counted is not None else "which"
        # ordering keys need no "which": the compiler lists them under projection "focus" anyway
        which = (set(select_vars) - {root} - set(orders)) if (focus_columns or counted is not None) else set()
        if counted is None and not order_conds and limit is not None:
            if offset:
                raise UnsupportedSPARQLError("OFFSET without ORDER BY")
            options["default_limit"] = limit

    builder = _Builder({root}, which, orders)
    builder.projected = set(select_vars) - ({bound[0]} if bound else set())
    if _is_node(root):
        builder.visited.add(root)
        classes: dict = {}
        # The root's class (first wdt:P31 test) becomes its noun.
        _fold(top.triples, classes, set())
        root_classes = classes.get(root, [])
        vps = builder.group_vps(top, root, {root}, top=True)
        noun = None
        if root_classes:
            first = ir.Be(ir.Quant("a", _class(root_classes[0][0])))
            if vps and vps[0] == first:
                vps = vps[1:]
                noun = first.np.noun
        if noun is None:
            for i, vp in enumerate(vps):
                if (isinstance(vp, ir.Be) and isinstance(vp.np, ir.Quant) and vp.np.det == "a"
                        and isinstance(vp.np.noun, ir.RelNoun) and not vp.np.rels and vp.np.order is None):
                    noun = vp.np.noun
                    vps = vps[:i] + vps[i + 1:]
                    break
        if noun is None and det == "how_many":
            for i, vp in enumerate(vps):
                if isinstance(vp, ir.Stmt) and not vp.inverse and vp.order is None and vp.prop.id:
                    # "How many <^P> of X": the things that have P X.
                    noun = ir.RelNoun(ir.Property("^" + vp.prop.id), vp.obj, vp.quals)
                    vps = vps[:i] + vps[i + 1:]
                    break
        subject = ir.Quant(det, noun, order=orders.get(root))
        if (noun is None and det in ("which", "how_many") and bound is None and len(vps) == 1
                and isinstance(vps[0], ir.QualifierOf) and isinstance(vps[0].subject, ir.Ref)
                and isinstance(vps[0].vp, ir.Stmt) and not (det == "how_many" and orders.get(root))):
            # "At which <Q> does S <P> O?" / "At how many <Q> ...?": the answer is a qualifier
            # of S's statement.
            qof, stmt = vps[0], vps[0].vp
            wh = ir.Qual(qof.prop, ir.Quant(det, order=orders.get(root)))
            subject, vps = qof.subject, [ir.Stmt(stmt.prop, stmt.obj, stmt.quals + (wh,), stmt.inverse)]
    else:
        vps = builder.group_vps(top, root, set(), top=True)
        subject = ir.Ref(_term(root))
    if isinstance(subject, ir.Quant) and bound is None:
        # SQUALL writes "whose year ..." and "at which <Q> ..." only as relative clauses.
        clauses = tuple(v for v in vps if isinstance(v, (ir.YearIs, ir.QualifierOf)))
        if clauses:
            subject = ir.Quant(subject.det, subject.noun, subject.rels + clauses, order=subject.order)
            vps = [v for v in vps if not isinstance(v, (ir.YearIs, ir.QualifierOf))]
    vp = _conj(vps) if vps else ir.Exists()
    if bound is not None:
        # The BIND's input is the tree's root; the answer is an expression over it.
        if not isinstance(subject, ir.Quant):
            raise UnsupportedSPARQLError("BIND over a constant")
        root_np = ir.Quant("the", subject.noun, tuple(vps), order=subject.order)
        answer = _bind_np(bound[1], bound[2], root_np, builder.year_casts)
        if bind_filters:
            if not isinstance(answer, ir.Quant):
                raise UnsupportedSPARQLError("a FILTER on an arithmetic BIND")
            tests = tuple(builder.filter_vp(f, bound[0], set()) for f in bind_filters)
            answer = ir.Quant(answer.det, answer.noun, answer.rels + tests, order=answer.order)
        if bound[0] in orders:
            if not isinstance(answer, ir.Quant):
                raise UnsupportedSPARQLError("ORDER BY an arithmetic BIND")
            answer = ir.Quant(answer.det, answer.noun, answer.rels, order=orders[bound[0]])
        query = ir.Query(answer, None)
    elif isinstance(subject, ir.Quant) and subject.det == "which" and not vps:
        # keep the relative clauses ("whose year is ..." moved there above)
        query = ir.Query(ir.Quant("a", subject.noun, subject.rels, order=subject.order), None)
    else:
        query = ir.Query(subject, vp)

    statements = _statements(builder, top)
    if statements:
        options["statements"] = statements
    if builder.casts == {True}:
        options["numeric_cast"] = True
    elif builder.casts == {True, False}:
        raise UnsupportedSPARQLError("a mix of xsd:double(STR(?x)) and plain numeric comparisons")
    if builder.year_casts == {True}:
        options["year_cast"] = True
    elif builder.year_casts == {True, False}:
        raise UnsupportedSPARQLError("a mix of YEAR(xsd:dateTime(?x)) and YEAR(?x)")
    if builder.subclasses == {True}:
        options["subclasses"] = True
    elif builder.subclasses == {True, False}:
        raise UnsupportedSPARQLError("a mix of wdt:P31 and wdt:P31/wdt:P279* class tests")
    if form == "SelectQuery" and counted is None:
        visible = ({v for v in builder.all_nodes} | {root} | ({bound[0]} if bound else set())) - {counted_order}
        options["projection"] = "all" if set(select_vars) == visible else "focus"
        if options["projection"] == "focus" and any(v not in select_vars for v in orders):
            options["order_columns"] = False
    return query, options


def _year_arg(year, casts: set):
    """The argument of YEAR(...); YEAR(xsd:dateTime(x)) is the profile's year_cast form
    (recorded in ``casts``: True cast, False plain)."""
    arg = year.arg
    cast = (getattr(arg, "name", None) == "Function" and arg.iri == XSD.dateTime and len(arg.expr or []) == 1)
    casts.add(cast)
    return arg.expr[0] if cast else arg


def _bind_np(expr, var, root_np, casts: set):
    """The NP of a BIND expression over one variable (the query's root)."""
    if isinstance(expr, Variable):
        return root_np
    if isinstance(expr, Literal):
        return ir.Ref(_term(expr))
    name = getattr(expr, "name", None)
    if name == "Builtin_YEAR":
        return ir.Quant("the", ir.YearOf(_bind_np(_year_arg(expr, casts), var, root_np, casts)))
    if name == "AdditiveExpression":
        left = _bind_np(expr.expr, var, root_np, casts)
        for op, other in zip(expr.op or [], expr.other or []):
            left = ir.Arith(op, left, _bind_np(other, var, root_np, casts))
        return left
    if name == "RelationalExpression":
        raise UnsupportedSPARQLError("BIND of a comparison (a true/false answer)")
    if name and name.startswith("Builtin_"):
        raise UnsupportedSPARQLError(f"BIND of {name[len('Builtin_'):]}()", "the function has no CNL form")
    raise UnsupportedSPARQLError("BIND", f"the expression {name or expr} has no CNL form")


def _subexpressions(expr):
    """``expr`` and every expression under it (rdflib CompValues)."""
    stack = [expr]
    while stack:
        e = stack.pop()
        yield e
        if isinstance(e, CompValue):
            stack.extend(v for k, v in e.items() if not k.startswith("_"))
        elif isinstance(e, (list, tuple)):
            stack.extend(e)


def _statements(builder, top) -> str | None:
    forms = builder.forms
    if "wdt" in forms and "p_plain" in forms:
        raise UnsupportedSPARQLError("a mix of wdt: shortcuts and p:/ps: statements without qualifiers")
    return "qualified" if "wdt" in forms else None


def _ask_root(top: _Group, prefer=None):
    """An ASK query's subject: the first triple's subject (a constant or a variable); with
    ``prefer``, the constant whose statement's value it is."""
    if prefer is not None:
        for e in _fold(top.triples, {}, set()):
            if _same(e.obj, prefer) and isinstance(e.subject, URIRef):
                return e.subject
    for s, _, _ in top.triples:
        if isinstance(s, Variable):
            return s
        if isinstance(s, URIRef):
            return s
    vars_ = sorted(_group_vars(top), key=str)
    if not vars_:
        raise UnsupportedSPARQLError("an ASK without a subject")
    return vars_[0]


def decompile(sparql: str, *, dialect="squall", notation: str = "id", lexicon=None) -> str:
    """SPARQL -> CNL text in ``dialect`` (a name or a :class:`cnl.dialects.Dialect`) and
    ``notation`` (id: ``<Q…>``/``<P…>``; label: names from ``lexicon``)."""
    speaker = get_dialect(dialect)
    query, options = decompile_to_ir(sparql)
    check_says(speaker, query, options)
    if lexicon is not None:
        query = with_labels(query, lexicon)
    return speaker.print(speaker.printable(query), notation, id_labels=lexicon is not None)


def check_says(dialect, query: ir.Query, options: dict) -> None:
    """Raise UnsupportedSPARQLError unless ``dialect`` can say ``query``: its own check on the
    IR, and, for a dialect that reads some texts as other queries, a read-back: the text it
    prints, parsed and compiled again, must be equivalent to the query compiled."""
    dialect = get_dialect(dialect)
    dialect.check_expressible(query)
    if not dialect.reads_back_differently:
        return
    try:
        back = dialect.parse(dialect.print(dialect.printable(query), "id", id_labels=False), notation="id")
        same = equivalent(compile_query(back, "wikidata", None, **options),
                          compile_query(query, "wikidata", None, **options))
    except CNLError:
        return  # the printer's own refusal is raised when printing
    if not same:
        raise UnsupportedSPARQLError(f"a query that {dialect.title} text would read differently",
                                     "e.g. a value that is not an answer, in a sentence that lists every value")


def with_labels(query: ir.Query, labels) -> ir.Query:
    """``query`` with each term's label filled from ``labels`` (a Lexicon or a dict ID -> label)."""
    from dataclasses import replace

    name = _id_labels(labels)

    def fill(term):
        label = name(term.id) if term.id else None
        return replace(term, label=label) if label and not term.label else term

    return ir.map_terms(query, fill)


def _id_labels(labels):
    """A function ID -> label from a dict or anything with ``name(id)`` (a Lexicon)."""
    if isinstance(labels, dict):
        return labels.get
    if hasattr(labels, "name"):
        return labels.name
    raise TypeError(f"labels must be a dict ID -> label or a lexicon, not {type(labels).__name__}")
