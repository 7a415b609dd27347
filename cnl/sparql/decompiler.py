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

from rdflib import Literal, URIRef, Variable
from rdflib.plugins.sparql.parserutils import CompValue

from cnl.dialects import get_dialect
from cnl.sparql.compiler import compile_query
from cnl.sparql.equivalence import equivalent
from cnl.sparql.decompile.build import Builder, conj
from cnl.sparql.decompile.expressions import FLIP, subexpressions, var_comparison, variables, year_arg
from cnl.sparql.decompile.flatten import Group, flatten, group_vars
from cnl.sparql.decompile.fold import fold
from cnl.sparql.decompile.terms import class_noun, ir_term, is_node, same
from cnl.sparql.algebra import parse_algebra
from cnl.errors import CNLError, UnsupportedSPARQLError
from cnl import ir

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
        elif node.name == "Filter" and any(str(v).startswith("__agg") for v in variables(node.expr)):
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

    top = flatten(node)
    # BIND(YEAR(?d) AS ?y) BIND(YEAR(?e) AS ?z) FILTER(?y > ?z), the years not answers: one
    # comparison of two years, "whose year is greater than the year of ..." (compiled with
    # the same two BINDs)
    years = {v: e for v, e in top.binds if getattr(e, "name", None) == "Builtin_YEAR" and v not in select_vars
             and isinstance(year_arg(e, set()), Variable)}
    first_year = None   # the input of the first such BIND: the compiler BINDs the subject's year first
    for i, f in enumerate(top.filters):
        pair = var_comparison(f)
        if pair and all(v in years for v in pair) and f.op in FLIP and all(
                sum(v in variables(g) for g in top.filters) == 1 and v not in variables(order_conds or []) for v in pair):
            top.filters[i] = CompValue("YearComparison", expr=years[pair[0]], op=f.op, other=years[pair[1]])
            first = next(v for v, _ in top.binds if v in pair)
            first_year = first_year or year_arg(years[first], set())
            top.binds = [(v, e) for v, e in top.binds if v not in pair]
    # BIND(YEAR(?d) AS ?y) FILTER(?y > 1950), ?y not an answer: "whose year is something
    # greater than 1950" (the compiler BINDs the year and tests it the same way)
    for v, e in list(top.binds):
        tests = [f for f in top.filters if v in variables(f)]
        if (v in years and tests and all(variables(f) == {v} for f in tests) and v not in variables(order_conds or [])
                and not any(v in variables(other) for u, other in top.binds if u != v)):
            top.filters = [f for f in top.filters if v not in variables(f)]
            top.filters.append(CompValue("YearTest", expr=e, year=v, tests=tests))
            top.binds = [(u, x) for u, x in top.binds if u != v]
    bound = None
    bind_filters: list = []
    if top.binds:
        # One BIND whose value is the answer: YEAR(?d), 2023 - YEAR(?d), ...
        for _, e in top.binds:
            if any(getattr(n, "name", None) == "Builtin_ABS" for n in subexpressions(e)):
                raise UnsupportedSPARQLError("BIND of ABS()", "CNL has no absolute value")
        if len(top.binds) > 1:
            raise UnsupportedSPARQLError("several BINDs")
        var, expr = top.binds[0]
        if form != "SelectQuery" or counted is not None or var not in select_vars:
            raise UnsupportedSPARQLError("BIND", "only a BIND whose value is an answer column is supported")
        inputs = variables(expr)
        if len(inputs) > 1:
            raise UnsupportedSPARQLError("BIND with arithmetic over two variables")
        if not inputs:
            raise UnsupportedSPARQLError("BIND of a constant")
        bound = (var, expr, next(iter(inputs)))
        top.binds = []
        # FILTERs on the BIND's value ("... that is less than 1950") go on the answer NP
        bind_filters = [f for f in top.filters if variables(f) == {var}]
        top.filters = [f for f in top.filters if variables(f) != {var}]

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
        if expr not in variables(node) and expr not in aggregates and expr not in select_vars:
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

    builder = Builder(which, orders)
    builder.projected = set(select_vars) - ({bound[0]} if bound else set())
    if is_node(root):
        builder.visited.add(root)
        classes: dict = {}
        # The root's class (first wdt:P31 test) becomes its noun.
        fold(top.triples, classes, set())
        root_classes = classes.get(root, [])
        vps = builder.group_vps(top, root, {root}, top=True)
        noun = None
        if root_classes:
            first = ir.Be(ir.Quant("a", class_noun(root_classes[0][0])))
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
        subject = ir.Ref(ir_term(root))
    if isinstance(subject, ir.Quant) and bound is None:
        # SQUALL writes "whose year ..." and "at which <Q> ..." only as relative clauses.
        clauses = tuple(v for v in vps if isinstance(v, (ir.YearIs, ir.QualifierOf)))
        if clauses:
            subject = ir.Quant(subject.det, subject.noun, subject.rels + clauses, order=subject.order)
            vps = [v for v in vps if not isinstance(v, (ir.YearIs, ir.QualifierOf))]
    vp = conj(vps) if vps else ir.Exists()
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


def _bind_np(expr, var, root_np, casts: set):
    """The NP of a BIND expression over one variable (the query's root)."""
    if isinstance(expr, Variable):
        return root_np
    if isinstance(expr, Literal):
        return ir.Ref(ir_term(expr))
    name = getattr(expr, "name", None)
    if name == "Builtin_YEAR":
        return ir.Quant("the", ir.YearOf(_bind_np(year_arg(expr, casts), var, root_np, casts)))
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


def _statements(builder, top) -> str | None:
    forms = builder.forms
    if "wdt" in forms and "p_plain" in forms:
        raise UnsupportedSPARQLError("a mix of wdt: shortcuts and p:/ps: statements without qualifiers")
    return "qualified" if "wdt" in forms else None


def _ask_root(top: Group, prefer=None):
    """An ASK query's subject: the first triple's subject (a constant or a variable); with
    ``prefer``, the constant whose statement's value it is."""
    if prefer is not None:
        for e in fold(top.triples, {}, set()):
            if same(e.obj, prefer) and isinstance(e.subject, URIRef):
                return e.subject
    for s, _, _ in top.triples:
        if isinstance(s, Variable):
            return s
        if isinstance(s, URIRef):
            return s
    vars_ = sorted(group_vars(top), key=str)
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
