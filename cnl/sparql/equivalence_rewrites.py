"""The equivalence checker's tree (variables, bags) and its rewrites of a converted pattern:
each turns a pattern into an equivalent one in the form the other query is likely to take
(FILTERs merged, FILTER EXISTS as a join where answers are a set, MINUS as FILTER NOT EXISTS,
VALUES as FILTER IN, BINDs only FILTERs read inlined, UNION-branch and sub-query variables
renamed apart, ...). Separate from :mod:`cnl.sparql.equivalence` (parsing and canonical naming)
because these are the rules that grow: each is one SPARQL equivalence, named in its docstring."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from rdflib import Literal, URIRef, Variable
from rdflib.plugins.sparql.parserutils import CompValue


@dataclass(frozen=True)
class Var:
    """A variable or blank node; ``name`` is only used to report differences."""

    name: str
    bnode: bool = False


@dataclass(frozen=True)
class Bag:
    """Children whose order carries no meaning; rendered sorted."""

    items: tuple


def walk(node):
    yield node
    if isinstance(node, Bag):
        for i in node.items:
            yield from walk(i)
    elif isinstance(node, tuple):
        for c in node:
            yield from walk(c)


def children_first(node, rewrite):
    """``node`` with ``rewrite`` applied to each algebra node (a tuple led by its name), its
    children rewritten first; bags are walked, other values (terms, expressions' parts) kept."""
    if isinstance(node, Bag):
        return Bag(tuple(children_first(i, rewrite) for i in node.items))
    if not isinstance(node, tuple) or not node or not isinstance(node[0], str):
        return node
    return rewrite(tuple(children_first(c, rewrite) for c in node))


def filtered(conds: list, inner):
    """``FILTER(conds) inner``, a FILTER directly inside merged into it (FILTERs of one group
    are one conjunction: ``FILTER(a) FILTER(b)`` is ``FILTER(a && b)``)."""
    conds = list(conds)
    if inner[0] == "FILTER":
        conds.append(inner[1])
        inner = inner[2]
    flat = []
    for c in conds:
        flat += c[1].items if isinstance(c, tuple) and c and c[0] == "AND" else [c]
    return ("FILTER", flat[0] if len(flat) == 1 else ("AND", Bag(tuple(flat))), inner)


def certain(pattern) -> set:
    """The variables every solution of ``pattern`` binds (never blank nodes: they are local)."""
    kind = pattern[0]
    if kind == "BGP":
        return {v for t in pattern[1].items for v in t[1:] if isinstance(v, Var) and not v.bnode}
    if kind == "JOIN":
        return set().union(*(certain(p) for p in pattern[1].items))
    if kind == "UNION":
        branches = [certain(p) for p in pattern[1].items]
        return set.intersection(*branches) if branches else set()
    if kind in ("OPTIONAL", "MINUS"):
        return certain(pattern[1])
    if kind == "FILTER":
        return certain(pattern[2])
    if kind == "BIND":
        return certain(pattern[3])
    if kind == "SUBQUERY":  # its columns that its pattern always binds
        return set(pattern[1].items) & certain(pattern[6])
    return set()  # VALUES, groups: not assumed


# aggregates that give the same value whatever the duplicates of their group
_SET_AGGREGATES = {"AGG_MIN", "AGG_MAX", "AGG_SAMPLE"}


def exists_as_joins(pattern, total: Counter | None):
    """Under set semantics (the caller checks), ``P FILTER EXISTS { Q }`` is ``P . Q`` when Q
    is triples whose variables are either bound by every solution of P or used nowhere else
    in the query (``total`` counts each variable's uses in the whole query): the join keeps exactly
    the solutions of P that EXISTS keeps, each repeated once per match of Q, and the repeats
    differ only in Q's own variables, which nothing reads. Applied to the FILTERs of the
    query's top group (through a GROUP BY, whose groups are unchanged). With ``total`` None
    (duplicates compared), only a ground Q: triples without paths whose variables every solution
    of P binds, which a solution matches once (a graph is a set of triples) or not at all, so the
    join repeats nothing (``?st pq:P1686 wd:Q1`` on a statement node the query binds)."""
    kind = pattern[0]
    if kind in ("AGGREGATE", "GROUP"):
        return (*pattern[:2], exists_as_joins(pattern[2], total))
    if kind == "BIND":
        return (*pattern[:3], exists_as_joins(pattern[3], total))
    if kind != "FILTER":
        return pattern
    inner = exists_as_joins(pattern[2], total)
    conds = pattern[1][1].items if pattern[1][0] == "AND" else (pattern[1],)
    bound = certain(inner)
    kept, joined = [], []
    for cond in conds:
        if (isinstance(cond, tuple) and cond[0] == "EXISTS" and cond[1][0] == "BGP" and cond[1][1].items
                and _private_or_bound(cond[1], total, bound)):
            joined.append(cond[1])
        elif (isinstance(cond, tuple) and cond[0] == "EXISTS" and cond[1][0] == "FILTER" and cond[1][2][0] == "BGP"
              and cond[1][2][1].items and not _has_pattern(cond[1][1])
              and _private_or_bound(cond[1][2], total, bound, also=cond[1][1])):
            # EXISTS { Q FILTER(c) }: Q joined, c a FILTER of the group (it reads Q's variables,
            # bound in each joined solution as in the EXISTS, and the group's, the same)
            joined.append(cond[1][2])
            kept.append(cond[1][1])
        else:
            kept.append(cond)
    if not joined:
        return ("FILTER", pattern[1], inner)
    triples = [t for q in joined for t in q[1].items]
    inner = join_trees(inner, ("BGP", Bag(tuple(triples))))
    return filtered(kept, inner) if kept else inner


def _private_or_bound(bgp, total: Counter | None, bound: set, also=None) -> bool:
    """Each variable of ``bgp`` is bound by every solution around it or used only in it (and
    in the condition ``also``, a FILTER beside it); with ``total`` None, bound, and no path."""
    uses = Counter(v for t in bgp[1].items for v in t[1:] if isinstance(v, Var))
    if total is None:
        return all(v in bound for v in uses) and not any(isinstance(x, tuple) for t in bgp[1].items for x in t[1:])
    extra = Counter(v for v in walk(also) if isinstance(v, Var)) if also is not None else Counter()
    return all(v in bound or total[v] == n + extra[v] for v, n in uses.items())


def join_trees(a, b):
    """The join of two converted patterns, merged as ``_Converter._join`` merges (BGPs into one)."""
    parts = []
    for p in (a, b):
        parts += list(p[1].items) if p[0] == "JOIN" else [p]
    triples = [t for p in parts if p[0] == "BGP" for t in p[1].items]
    others = [p for p in parts if p[0] != "BGP"]
    others.append(("BGP", Bag(tuple(triples))))
    return others[0] if len(others) == 1 else ("JOIN", Bag(tuple(others)))


def rename(node, mapping: dict):
    if isinstance(node, Var):
        return mapping.get(node, node)
    if isinstance(node, Bag):
        return Bag(tuple(rename(i, mapping) for i in node.items))
    if isinstance(node, tuple):
        return tuple(rename(c, mapping) for c in node)
    return node


def union_locals(node, total: Counter):
    """A variable named in several branches of one UNION and nowhere else in the query (not
    projected, ordered or joined outside it) is a separate variable in each branch: the
    branches are evaluated apart, and nothing outside reads the value. Each branch's copy is
    renamed apart, so ``{ ?s p:P ?st ... } UNION { ?s p:P ?st ... }`` equals the same with a
    blank node in each branch."""
    if isinstance(node, Bag):
        return Bag(tuple(union_locals(i, total) for i in node.items))
    if not isinstance(node, tuple) or not node:
        return node
    if node[0] == "UNION":
        branches = list(node[1].items)
        uses = [Counter(n for n in walk(b) if isinstance(n, Var)) for b in branches]
        shared = {v for v in total if sum(1 for u in uses if v in u) > 1 and sum(u[v] for u in uses) == total[v]}
        if shared:
            branches = [rename(b, {v: Var(f"{v.name}·{i}", v.bnode) for v in shared}) for i, b in enumerate(branches)]
        return ("UNION", Bag(tuple(union_locals(b, total) for b in branches)))
    return tuple(union_locals(c, total) for c in node)


def inline_binds(node, total: Counter):
    """``BIND(e AS ?y)`` whose value only FILTERs of its group read is the FILTERs reading ``e``
    itself, when every solution of the BIND's input pattern binds ``e``'s variables (so ``e``
    has the same value where the FILTER reads it, and an error there fails the FILTER either
    way: ``?y`` is left unbound by the BIND, and a FILTER on an unbound ?y fails); a BIND whose
    value nothing reads is dropped (it removes no solution). ``total`` counts each variable's
    uses in the whole query (projection and ordering included)."""
    def one(node):
        if node[0] == "FILTER":
            cond, inner = node[1], node[2]
            uses = Counter(n for n in walk(cond) if isinstance(n, Var))
            chosen = {}
            for bind in _reachable_binds(inner):
                var, expr, below = bind[1], bind[2], bind[3]
                if (total[var] == 1 + uses[var] and not _has_pattern(expr)
                        and {v for v in walk(expr) if isinstance(v, Var)} <= certain(below)):
                    chosen[var] = expr
            if chosen:
                return filtered([rename(cond, chosen)], _without_binds(inner, set(chosen)))
        if node[0] == "BIND" and total[node[1]] == 1 and not _has_pattern(node[2]):
            return node[3]
        return node
    return children_first(node, one)


# functions that tell an unbound variable from an error, and ones that give a new value per call
_UNBOUND_AWARE = {"BUILTIN_BOUND"}
_FRESH_EACH_CALL = {"BUILTIN_RAND", "BUILTIN_BNODE", "BUILTIN_UUID", "BUILTIN_STRUUID"}


def chained_binds(node):
    """``BIND(e AS ?y) BIND(f(?y) AS ?d)``, one BIND right over the other in a group, is
    ``BIND(e AS ?y) BIND(f(e) AS ?d)``: ``?y`` is bound by that BIND only (SPARQL forbids
    binding a variable already in scope), so where ``f`` reads it, it holds ``e``'s value, or is
    unbound where ``e`` is an error, and reading an unbound variable is an error too. Not when
    ``f`` tests whether a value is bound (BOUND), nor when ``e`` gives a new value at each call
    (RAND, BNODE, UUID). A FILTER right over the chain reads it the same way (``FILTER(?y > 3)`` is
    ``FILTER(e > 3)``; not around an EXISTS). With ``?y`` read nowhere else, ``inline_binds`` then
    drops its BIND."""
    def one(node):
        if node[0] == "FILTER" and not _has_pattern(node[1]) and not any(n in _UNBOUND_AWARE for n in walk(node[1])):
            # a FILTER over the group's BINDs reads their expressions the same way
            chosen = _chain_values(node[1], node[2])
            return ("FILTER", rename(node[1], chosen), node[2]) if chosen else node
        if node[0] != "BIND" or any(n in _UNBOUND_AWARE for n in walk(node[2])):
            return node
        chosen = _chain_values(node[2], node[3])
        return ("BIND", node[1], rename(node[2], chosen), node[3]) if chosen else node
    return children_first(node, one)


def _chain_values(expr, below) -> dict:
    """{?y: e} for each ``BIND(e AS ?y)`` of the chain ``below`` that ``expr`` reads."""
    read = {n for n in walk(expr) if isinstance(n, Var)}
    chosen = {}
    while isinstance(below, tuple) and below and below[0] == "BIND":
        var, expr = below[1], below[2]
        if var in read and not _has_pattern(expr) and not any(n in _FRESH_EACH_CALL for n in walk(expr)):
            chosen[var] = expr
        below = below[3]
    return chosen


def constant_binds(node, total: Counter):
    """``{ BIND(wd:Q64 AS ?c) } P``, ``?c`` read only in P and bound by every solution of P, is P
    with wd:Q64 in place of ``?c``: the join keeps the solutions of P whose ``?c`` is wd:Q64 (an
    RDF term is equal only to itself), exactly those of P with wd:Q64 written there, and nothing
    else reads ``?c``."""
    def one(node):
        if node[0] != "JOIN":
            return node
        parts = list(node[1].items)
        for part in parts:
            if (part[0] == "BIND" and part[3] == ("BGP", Bag(())) and isinstance(part[2], (URIRef, Literal))
                    and not isinstance(part[2], Variable)):
                rest = [p for p in parts if p is not part]
                joined = rest[0] if len(rest) == 1 else ("JOIN", Bag(tuple(rest)))
                uses = sum(1 for n in walk(joined) if n == part[1])
                if total[part[1]] == 1 + uses and part[1] in certain(joined):
                    return rename(joined, {part[1]: part[2]})
        return node
    return children_first(node, one)


def inline_order_binds(order, pattern, total: Counter):
    """``BIND(e AS ?y) ... ORDER BY ?y``, ``?y`` read by nothing else (not an answer column), is
    ``ORDER BY e`` (what the CNL's "such that (?p / ?a) is the highest" compiles to, beside the
    hand-written ``ORDER BY DESC(?p / ?a)``), when every solution of the BIND's input binds
    ``e``'s variables (so ``e`` orders with the value ``?y`` would have). Returns (order, pattern)."""
    if not order:
        return order, pattern
    uses = Counter(n for n in walk(order) if isinstance(n, Var))
    filters, node = [], pattern
    while isinstance(node, tuple) and node and node[0] == "FILTER":
        filters.append(node[1])
        node = node[2]
    if not isinstance(node, tuple) or not node or node[0] not in ("BIND", "JOIN"):
        return order, pattern
    chosen = {}
    for bind in _reachable_binds(node):
        var, expr, below = bind[1], bind[2], bind[3]
        if (uses[var] and total[var] == 1 + uses[var] and not _has_pattern(expr)
                and {v for v in walk(expr) if isinstance(v, Var)} <= certain(below)):
            chosen[var] = expr
    if not chosen:
        return order, pattern
    node = _without_binds(node, set(chosen))
    return rename(order, chosen), (filtered(filters, node) if filters else node)


def _reachable_binds(node):
    """The BINDs of one group: a chain of BINDs and the parts of its join."""
    if node[0] == "BIND":
        yield node
        yield from _reachable_binds(node[3])
    elif node[0] == "JOIN":
        for part in node[1].items:
            yield from _reachable_binds(part)


def _without_binds(node, variables: set):
    if node[0] == "BIND":
        inner = _without_binds(node[3], variables)
        return inner if node[1] in variables else (*node[:3], inner)
    if node[0] == "JOIN":
        parts = [_without_binds(p, variables) for p in node[1].items]
        merged = parts[0]
        for part in parts[1:]:
            merged = join_trees(merged, part)
        return merged
    return node


def _has_pattern(expr) -> bool:
    return any(isinstance(n, tuple) and n and n[0] in ("EXISTS", "NOTEXISTS") for n in walk(expr))


def subquery_locals(node, counter=None):
    """A sub-query's variables that it does not project are its own (SPARQL 1.1 §18.2.1): two
    sub-queries naming a ``?x`` each have one of their own. Each sub-query's are renamed apart."""
    counter = counter if counter is not None else [0]
    if isinstance(node, Bag):
        return Bag(tuple(subquery_locals(i, counter) for i in node.items))
    if not isinstance(node, tuple) or not node:
        return node
    if node[0] == "SUBQUERY":
        counter[0] += 1
        projected = set(node[1].items)
        own = {v: Var(f"{v.name}·q{counter[0]}", v.bnode)
               for v in walk(node[2:]) if isinstance(v, Var) and v not in projected}
        node = node[:2] + tuple(rename(c, own) for c in node[2:])
    return tuple(subquery_locals(c, counter) for c in node)


def rows_distinct(pattern, projection) -> bool:
    """A SELECT's rows are distinct without DISTINCT when its pattern is one group of plain
    triples (no property path, which may repeat a pair; no blank node, a variable never shown)
    and FILTERs, and every variable of the triples is projected: a graph is a set of triples, so
    the solutions are distinct mappings, and projecting them all keeps them apart."""
    while pattern[0] == "FILTER":
        pattern = pattern[2]
    if pattern[0] != "BGP":
        return False
    shown = set(projection)
    for triple in pattern[1].items:
        if isinstance(triple[2], tuple):  # ("PATH", ...)
            return False
        if any(isinstance(t, Var) and (t.bnode or t not in shown) for t in triple[1:]):
            return False
    return True


def duplicates_unseen(form: str, distinct: str | None, pattern, strict: bool) -> bool:
    """Whether the answers cannot show how often a solution repeats: an ASK, a DISTINCT
    SELECT (or any SELECT when duplicates are not compared), or aggregates that ignore
    repeats (COUNT(DISTINCT ...), MIN, MAX, SAMPLE) over the grouped pattern."""
    node = pattern
    while node[0] in ("BIND", "FILTER"):
        node = node[3] if node[0] == "BIND" else node[2]
    if node[0] == "AGGREGATE":
        return all(a[0] in _SET_AGGREGATES or (a[0] == "AGG_COUNT" and a[1]) for a in node[1].items)
    return form == "ASK" or distinct == "distinct" or not strict


def minus_is_not_exists(left, right) -> bool:
    """``P MINUS { Q }`` is ``P FILTER NOT EXISTS { Q }`` when Q is triples only and every
    solution of P binds one of Q's variables: MINUS removes a solution of P when some solution
    of Q is compatible with it and shares a variable with it; NOT EXISTS when Q has a solution
    once P's values are put in, which for triples is the same test. Without a shared bound
    variable MINUS removes nothing, so the two differ (they are kept apart)."""
    if right[0] != "BGP" or not right[1].items:
        return False
    mentioned = {v for t in right[1].items for v in t[1:] if isinstance(v, Var) and not v.bnode}
    return bool(mentioned & certain(left))


def values_test(part):
    """``VALUES ?x { <a> <b> }``, one variable and distinct IRIs: (the IN test, ?x), else None.
    Joined with a pattern that binds ?x it is ``FILTER(?x IN (<a>, <b>))``: an IRI equals
    (``=``) exactly the same IRI, so the join keeps the same solutions once each. Literals are
    left alone (``=`` compares values: 1 = 1.0; a join compares terms)."""
    if part[0] != "VALUES":
        return None
    rows = part[1].items
    cells = [row.items for row in rows]
    if not cells or any(len(c) != 1 for c in cells):
        return None
    variables = {c[0][1] for c in cells}
    values = [c[0][2] for c in cells]
    if len(variables) != 1 or not all(isinstance(v, URIRef) for v in values) or len(set(values)) != len(values):
        return None
    (var,) = variables
    if len(values) == 1:
        return ("REL", "=", Bag((var, values[0]))), var
    return ("IN", var, Bag(tuple(values))), var


def only_variable(pattern):
    """The one variable in scope of a pattern of triples and FILTERs only, else None."""
    def plain(p):
        if p[0] == "BGP":
            return True
        if p[0] == "FILTER":
            return plain(p[2])
        return p[0] == "JOIN" and all(plain(i) for i in p[1].items)

    if pattern[0] == "GROUP":
        pattern = pattern[2]
    scope = set(in_scope(pattern)) if plain(pattern) else set()
    return next(iter(scope)) if len(scope) == 1 else None


def aggregate_aliases(node) -> dict:
    """Aliases of aggregates (``(COUNT(?x) AS ?x)``) that reuse the name of a variable of the
    grouped pattern other than a group key: a new variable, renamed."""
    extends = []
    while isinstance(node, CompValue) and node.name in (
            "Slice", "Distinct", "Reduced", "Project", "OrderBy", "Filter", "Extend"):
        if node.name == "Extend" and isinstance(node.expr, Variable) and str(node.expr).startswith("__agg"):
            extends.append(node.var)
        node = node.p
    if not (isinstance(node, CompValue) and node.name == "AggregateJoin"):
        return {}
    group = node.p
    keys = {k for k in (group.expr or []) if isinstance(k, Variable)}
    inner = getattr(group.p, "_vars", set()) or set()
    return {v: Var(f"?{v}·aggregate") for v in extends if v in inner and v not in keys}


def rows_unique(pattern, projection) -> bool:
    """An aggregate with every GROUP BY key projected (or none): one row per group."""
    if pattern[0] == "BIND":  # the aliases' Extends over the AggregateJoin
        return rows_unique(pattern[3], projection)
    if pattern[0] == "FILTER":  # HAVING
        return rows_unique(pattern[2], projection)
    if pattern[0] != "AGGREGATE":
        return False
    keys = pattern[2][1].items if pattern[2][0] == "GROUP" else ()
    return all(k in projection for k in keys)


def is_pattern(v) -> bool:
    return isinstance(v, CompValue) and v.name in {
        "BGP", "Join", "LeftJoin", "Minus", "Union", "Filter", "Extend", "ToMultiSet",
        "values", "Group", "AggregateJoin", "Graph", "Project", "Slice", "Distinct", "OrderBy",
    }


def in_scope(pattern) -> list[Var]:
    """Variables SELECT * projects: bound by the pattern, not by FILTER/MINUS/NOT EXISTS."""
    kind = pattern[0]
    if kind == "BGP":
        return [v for t in pattern[1].items for v in t[1:] if isinstance(v, Var) and not v.bnode]
    if kind in ("JOIN", "UNION"):
        return [v for p in pattern[1].items for v in in_scope(p)]
    if kind == "OPTIONAL":
        return in_scope(pattern[1]) + in_scope(pattern[2])
    if kind in ("MINUS", "FILTER"):
        return in_scope(pattern[1] if kind == "MINUS" else pattern[2])
    if kind == "BIND":
        return in_scope(pattern[3]) + [pattern[1]]
    if kind == "VALUES":
        return [c[1] for row in pattern[1].items for c in row.items]
    if kind in ("GROUP", "AGGREGATE"):
        return in_scope(pattern[2])
    if kind == "SUBQUERY":
        return list(pattern[1].items)
    return []


# ---------------------------------------------------------------------------------------
# parsed query


def named_item_tests(node, total: Counter):
    """``P FILTER(?u = <iri>)``, ``?u`` used nowhere else in the query but in one triple of P's
    own triples, is P with ``<iri>`` in that triple: an IRI equals (``=``) exactly the same IRI
    (a literal never equals it), so both keep the same solutions, and nothing reads ``?u``'s
    value (``?n wikibase:quantityUnit ?u . FILTER(?u = wd:Q11573)`` is
    ``?n wikibase:quantityUnit wd:Q11573``). ``total`` counts each variable's uses."""
    def one(node):
        if node[0] != "FILTER":
            return node
        conds = list(node[1][1].items) if node[1][0] == "AND" else [node[1]]
        inner = node[2]
        for cond in list(conds):
            named = _named_item(cond)
            if named is None or total[named[0]] != 2:
                continue
            var, iri = named
            bgp = inner if inner[0] == "BGP" else next(
                (p for p in inner[1].items if p[0] == "BGP"), None) if inner[0] == "JOIN" else None
            if bgp is None or sum(var in t for t in bgp[1].items) != 1:
                continue
            new_bgp = ("BGP", Bag(tuple(rename(t, {var: iri}) for t in bgp[1].items)))
            inner = new_bgp if inner is bgp else (
                "JOIN", Bag(tuple(new_bgp if p is bgp else p for p in inner[1].items)))
            conds.remove(cond)
        if len(conds) == (len(node[1][1].items) if node[1][0] == "AND" else 1):
            return node
        return filtered(conds, inner) if conds else inner
    return children_first(node, one)


def _named_item(cond):
    """(?u, <iri>) of the converted ``?u = <iri>``, else None."""
    if not (isinstance(cond, tuple) and cond[:2] == ("REL", "=") and isinstance(cond[2], Bag)):
        return None
    a, b = cond[2].items
    if isinstance(b, Var):
        a, b = b, a
    if isinstance(a, Var) and not a.bnode and isinstance(b, URIRef):
        return a, b
    return None
