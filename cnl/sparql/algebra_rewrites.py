"""Meaning-preserving rewrites of rdflib's algebra, applied by :func:`cnl.sparql.algebra.parse_algebra`
so the decompiler and the equivalence checker read every query the same way (the meaning guard
compares the two: a rewrite applied by one only would refuse its own readings).

Each rule is one SPARQL equivalence, named in its docstring; none looks at a data string:

- :func:`inline_plain_subqueries`: ``{ SELECT ?x { P } }`` with no modifier is ``P`` with its
  other variables renamed apart;
- :func:`values_as_alternatives`: ``VALUES ?p { wdt:P1 wdt:P2 } ?s ?p ?o`` with ``?p`` named
  nowhere else is ``?s wdt:P1|wdt:P2 ?o``;
- :func:`statement_subjects`: a Wikidata statement read through ``ps:P``/``pq:Q`` without its
  ``p:P`` triple has one subject all the same (the statement model): it is written out;
- :func:`unbound_as_not_exists`: ``OPTIONAL { P } FILTER(!BOUND(?v))``, ``?v`` bound by ``P``,
  is ``FILTER NOT EXISTS { P }`` (also with the OPTIONAL before other parts of the group);
  ``OPTIONAL { P } FILTER(BOUND(?v))`` is ``P``;
- :func:`drop_unused_binds`: a BIND whose variable nothing reads (no column, no ORDER BY, no
  expression) changes no answer;
- :func:`integer_casts_of_integers`: ``xsd:integer(YEAR(?d))`` is ``YEAR(?d)``: casting a value
  that is already an ``xsd:integer`` (YEAR, MONTH, DAY, HOURS, MINUTES, STRLEN, an integer
  literal, such a cast) to ``xsd:integer`` gives it back (SPARQL 1.1 §17.1, XPath casting);
- :func:`str_of_labels`: a string test on a label variable (``CONTAINS(?label, "v")``) is the
  same test on its string (``CONTAINS(STR(?label), "v")``), labels being literals; and
  ``STRLEN(STR(?label))`` is ``STRLEN(?label)``.
"""
from __future__ import annotations

from collections import Counter
from itertools import count

from rdflib import BNode, Literal, URIRef, Variable
from rdflib.namespace import RDFS, SKOS, XSD
from rdflib.paths import AlternativePath, InvPath, SequencePath
from rdflib.plugins.sparql.parserutils import CompValue

SCHEMA = "http://schema.org/"
# Predicates whose values are literals (RDFS: rdfs:label's range is rdfs:Literal; SKOS labels and
# schema.org's name/description as Wikidata publishes them are language-tagged strings).
LABEL_PREDICATES = frozenset({RDFS.label, SKOS.prefLabel, SKOS.altLabel,
                              URIRef(SCHEMA + "name"), URIRef(SCHEMA + "description")})
# String functions whose first argument may be a language-tagged literal or its STR() alike,
# when the other argument is a plain string (SPARQL 1.1 §17.4.3.1.1, argument compatibility).
_STRING_TESTS = frozenset({"Builtin_CONTAINS", "Builtin_STRSTARTS", "Builtin_STRENDS"})
# Algebra nodes through which a pattern's triples hold in every solution (not OPTIONAL's right
# side, not one UNION branch, not MINUS's right side).
_REQUIRED = {"Join": ("p1", "p2"), "Filter": ("p",), "Extend": ("p",), "LeftJoin": ("p1",),
             "Minus": ("p1",), "ToMultiSet": ("p",)}


def simplify(algebra: CompValue) -> CompValue:
    """``algebra`` with every rule of this module applied (in place; a fresh parse is never shared)."""
    algebra = whole_query_subquery_unwrapped(algebra)
    inline_plain_subqueries(algebra)
    values_as_alternatives(algebra)
    statement_subjects(algebra)
    unbound_as_not_exists(algebra)
    integer_casts_of_integers(algebra)
    drop_unused_binds(algebra)
    str_of_labels(algebra)
    return algebra


# functions whose value is always an xsd:integer (SPARQL 1.1 §17.4.5, §17.4.3.2)
_INTEGER_VALUED = frozenset({"Builtin_YEAR", "Builtin_MONTH", "Builtin_DAY", "Builtin_HOURS", "Builtin_MINUTES",
                             "Builtin_STRLEN"})


def _integer_valued(expr) -> bool:
    if isinstance(expr, Literal):
        return expr.datatype == XSD.integer
    return getattr(expr, "name", None) in _INTEGER_VALUED or _integer_cast_of(expr) is not None


def _integer_cast_of(expr):
    """The argument of ``xsd:integer(arg)`` when ``arg`` is already an integer, else None."""
    if (getattr(expr, "name", None) == "Function" and expr.get("iri") == XSD.integer
            and isinstance(expr.get("expr"), list) and len(expr.expr) == 1 and _integer_valued(expr.expr[0])):
        return expr.expr[0]
    return None


def _without_integer_casts(value):
    inner = _integer_cast_of(value)
    while inner is not None:
        value, inner = inner, _integer_cast_of(inner)
    if isinstance(value, CompValue):
        for key in list(value.keys()):
            if not key.startswith("_"):
                value[key] = _without_integer_casts(value[key])
    elif isinstance(value, list):
        return [_without_integer_casts(item) for item in value]
    return value


def integer_casts_of_integers(algebra: CompValue) -> None:
    """``xsd:integer(E)`` where ``E`` is an integer already is ``E`` (the cast is the identity)."""
    _without_integer_casts(algebra)


def _children(node: CompValue):
    for key, value in node.items():
        if key.startswith("_"):
            continue
        if isinstance(value, CompValue):
            yield key, value
        elif isinstance(value, list):
            for item in value:
                if isinstance(item, CompValue):
                    yield None, item


def _nodes(node):
    yield node
    for _, child in _children(node):
        yield from _nodes(child)


def _rename(node, mapping: dict):
    """``node`` (an algebra tree, a term, a list or a triple) with variables renamed."""
    if isinstance(node, Variable):
        return mapping.get(node, node)
    if isinstance(node, list):
        return [_rename(x, mapping) for x in node]
    if isinstance(node, tuple):
        return tuple(_rename(x, mapping) for x in node)
    if isinstance(node, CompValue):
        for key in list(node.keys()):
            node[key] = (set(_rename(list(node[key]), mapping)) if key == "_vars"
                         else _rename(node[key], mapping))
    return node


_MODIFIERS = ("Slice", "Distinct", "Reduced", "OrderBy")


def whole_query_subquery_unwrapped(algebra: CompValue) -> CompValue:
    """``SELECT ?n WHERE { { SELECT (COUNT(?x) AS ?n) WHERE { P } } }`` (also ``SELECT *``) is the
    sub-SELECT itself: an outer query with no modifier of its own that projects exactly the
    sub-SELECT's columns returns its rows (an outer projection keeps duplicates; the inner
    ORDER BY only makes a multiset an ordered one)."""
    outer = getattr(algebra, "p", None)
    if getattr(algebra, "name", None) != "SelectQuery" or getattr(outer, "name", None) != "Project" \
            or getattr(outer.p, "name", None) != "ToMultiSet":
        return algebra
    inner = outer.p.p
    project = inner
    while getattr(project, "name", None) in _MODIFIERS:
        project = project.p
    if getattr(project, "name", None) != "Project" or list(project.PV) != list(outer.PV):
        return algebra
    algebra.p = inner
    algebra["_unwrapped"] = True  # its columns are the sub-SELECT's, even under SELECT *
    return algebra


def _is_plain_subquery(node) -> bool:
    """A sub-SELECT with a projection only: no DISTINCT, ORDER BY, LIMIT, OFFSET or grouping
    (those sit above or below the Project in rdflib's algebra)."""
    if getattr(node, "name", None) != "ToMultiSet" or getattr(node.p, "name", None) != "Project":
        return False
    return not any(n.name in ("Group", "AggregateJoin", "ToMultiSet") for n in _nodes(node.p.p))


def inline_plain_subqueries(algebra: CompValue, _fresh=None) -> None:
    """``{ SELECT ?x { P } }`` is ``P`` with its variables other than ``?x`` renamed apart: a
    projection keeps every solution (duplicates too) and hides the other variables (SPARQL 1.1
    §18.2.1), which fresh names hide as well."""
    fresh = _fresh if _fresh is not None else count(1)
    for node in _nodes(algebra):
        for key, child in list(_children(node)):
            if key is None or not _is_plain_subquery(child):
                continue
            project = child.p
            inner = project.p
            projected = set(project.PV)
            hidden = set(_variables(inner, Counter()))
            number = next(fresh)
            mapping = {v: Variable(f"{v}_sub{number}") for v in hidden - projected}
            node[key] = _rename(inner, mapping)
            inline_plain_subqueries(node[key], fresh)


def _variables(node, out: Counter) -> Counter:
    """Every occurrence of a variable in ``node`` (rdflib's ``_vars`` summaries aside)."""
    if isinstance(node, Variable):
        out[node] += 1
    elif isinstance(node, (list, tuple)):
        for x in node:
            _variables(x, out)
    elif isinstance(node, dict) and not isinstance(node, CompValue):  # a VALUES row
        for key, value in node.items():
            _variables(key, out)
            _variables(value, out)
    elif isinstance(node, CompValue):
        for key, value in node.items():
            if not key.startswith("_"):
                _variables(value, out)
    return out


def _uses(algebra: CompValue) -> Counter:
    """Every occurrence of a variable in the query; an ASK's projection (rdflib lists every
    variable there) is no use."""
    uses = _variables(algebra, Counter())
    if algebra.name == "AskQuery":
        uses.subtract(algebra.get("PV") or ())
        if getattr(algebra.p, "name", None) == "Project":
            uses.subtract(algebra.p.get("PV") or ())
    return uses


def drop_unused_binds(algebra: CompValue) -> None:
    """``BIND(e AS ?v)`` never removes a solution (an error leaves ``?v`` unbound, SPARQL 1.1
    §18.6), so where nothing else names ``?v`` (no column, no ORDER BY, no other expression) the
    BIND changes no answer and is dropped. A query whose columns are ``*`` keeps its BINDs."""
    if algebra.get("PV") is None:
        return
    changed = True
    while changed:
        changed = False
        uses = _uses(algebra)
        for node in _nodes(algebra):
            for key, child in list(_children(node)):
                if key is not None and child.name == "Extend" and uses[child.var] == 1 \
                        and not (algebra.name != "AskQuery" and _star_projection(algebra, child.var)):
                    node[key] = child.p
                    changed = True
                    break
            if changed:
                break


def _star_projection(algebra, var) -> bool:
    # SELECT *: rdflib lists every in-scope variable in PV, so a BIND's column counts as used
    return var in (algebra.get("PV") or ())


def _label_variables(pattern) -> set:
    """The variables bound to a label predicate's object in every solution of ``pattern``."""
    name = getattr(pattern, "name", None)
    if name == "BGP":
        return {o for _, p, o in pattern.triples if p in LABEL_PREDICATES and isinstance(o, Variable)}
    out = set()
    for key in _REQUIRED.get(name, ()):
        out |= _label_variables(pattern[key])
    return out


def _with_str(expr, labels: set):
    if isinstance(expr, list):
        return [_with_str(e, labels) for e in expr]
    if not isinstance(expr, CompValue):
        return expr
    for key in list(expr.keys()):
        if not key.startswith("_") and key not in ("arg1", "text"):
            expr[key] = _with_str(expr[key], labels)
    if expr.name in _STRING_TESTS and _plain(expr.arg2):
        first = expr.arg1
        if _is_label(first, labels):
            expr["arg1"] = CompValue("Builtin_STR", arg=first)
        elif getattr(first, "name", None) in ("Builtin_LCASE", "Builtin_UCASE") and _is_label(first.arg, labels):
            first["arg"] = CompValue("Builtin_STR", arg=first.arg)  # LCASE keeps a tag; CONTAINS ignores it
        if getattr(expr.arg1, "name", None) == "Builtin_LCASE" and str(expr.arg2) == str(expr.arg2).lower():
            # LCASE("obama") is "obama": the lower-case test the compiler writes, LCASE on both sides
            expr["arg2"] = CompValue("Builtin_LCASE", arg=expr.arg2)
    elif expr.name == "Builtin_REGEX" and _is_label(expr.text, labels) and _plain(expr.pattern) \
            and (expr.flags is None or _plain(expr.flags)):
        expr["text"] = CompValue("Builtin_STR", arg=expr.text)
    return expr


def _is_label(term, labels: set) -> bool:
    return isinstance(term, Variable) and term in labels


def _plain(term) -> bool:
    return isinstance(term, Literal) and term.language is None and term.datatype is None


def str_of_labels(algebra: CompValue) -> None:
    """``CONTAINS(?label, "v")`` (also STRSTARTS, STRENDS, REGEX) where ``?label`` is a label
    predicate's object in every solution the FILTER sees is ``CONTAINS(STR(?label), "v")``: a
    label is a string (language-tagged or plain: RDFS gives rdfs:label the range rdfs:Literal, and
    Wikidata, like every KG the profiles read, writes strings there), and a string function gives
    the same result on such a
    literal and on its STR() when the other argument is a plain string (SPARQL 1.1 §17.4.3.1.1);
    likewise inside ``LCASE``/``UCASE``. And ``CONTAINS(LCASE(x), "v")`` with ``v`` in lower case
    is ``CONTAINS(LCASE(x), LCASE("v"))``, the form the compiler writes."""
    for node in _nodes(algebra):
        if node.name == "Filter":
            labels = _label_variables(node.p)
            node["expr"] = _strlen_of_labels(_with_str(node.expr, labels), labels)
        elif node.name == "OrderBy":
            node["expr"] = _strlen_of_labels(node.expr, _label_variables(node.p))


def _strlen_of_labels(expr, labels: set):
    """``STRLEN(STR(?label))`` is ``STRLEN(?label)``: a label is a literal, and STRLEN counts its
    lexical form's characters, which STR() gives back unchanged."""
    if isinstance(expr, list):
        return [_strlen_of_labels(e, labels) for e in expr]
    if not isinstance(expr, CompValue):
        return expr
    for key in list(expr.keys()):
        if not key.startswith("_"):
            expr[key] = _strlen_of_labels(expr[key], labels)
    if expr.name == "Builtin_STRLEN" and getattr(expr.arg, "name", None) == "Builtin_STR" \
            and _is_label(expr.arg.arg, labels):
        expr["arg"] = expr.arg.arg
    return expr


def _values_of(node):
    """The rows of a VALUES node (under rdflib's ToMultiSet or bare), or None."""
    if getattr(node, "name", None) == "ToMultiSet":
        node = node.p
    return node.res if getattr(node, "name", None) == "values" else None


def values_as_alternatives(algebra: CompValue) -> None:
    """``VALUES ?p { wdt:P1 wdt:P2 } ?s ?p ?o``, where ``?p`` is one variable with distinct IRIs
    and is named by that one triple only, is ``?s wdt:P1|wdt:P2 ?o``: the join gives one
    solution per row that matches, as the alternative path does (SPARQL 1.1 §18.4, ALP of an
    alternative is the union of its branches), and ``?p`` is seen nowhere else."""
    uses = _uses(algebra)
    for node in _nodes(algebra):
        if node.name != "Join":
            continue
        for side, other in (("p1", "p2"), ("p2", "p1")):
            rows = _values_of(node[side])
            pattern = node[other]
            if rows is None or getattr(pattern, "name", None) != "BGP":
                continue
            keys = {k for row in rows for k in row}
            if len(keys) != 1:
                continue
            var = next(iter(keys))
            values = [row.get(var) for row in rows]
            if not values or not all(isinstance(v, URIRef) for v in values) or len(set(values)) != len(values):
                continue
            at = [i for i, t in enumerate(pattern.triples) if t[1] == var]
            if len(at) != 1 or uses[var] != len(rows) + 1 or var in (pattern.triples[at[0]][0], pattern.triples[at[0]][2]):
                continue
            s, _, o = pattern.triples[at[0]]
            path = values[0] if len(values) == 1 else AlternativePath(*values)
            pattern["triples"] = [t if i != at[0] else (s, path, o) for i, t in enumerate(pattern.triples)]
            node["p1"], node["p2"] = pattern, CompValue("BGP", triples=[], _vars=set())
            break


WIKIDATA_PROP = "http://www.wikidata.org/prop/"
_STATEMENT_STEPS = (WIKIDATA_PROP + "statement/", WIKIDATA_PROP + "qualifier/")


def _statement_step(p) -> bool:
    while isinstance(p, InvPath):
        p = p.arg
    return isinstance(p, URIRef) and str(p).startswith(_STATEMENT_STEPS) and "/value" not in str(p)[len(WIKIDATA_PROP):]


def _expanded(triples) -> list:
    """Sequence paths whose steps are all ``ps:``/``pq:`` (``^pq:P453/ps:P161``) as their triples,
    joined by a blank node (SPARQL 1.1 §18.2.2.4; an inverse step read backwards)."""
    out = []
    for s, p, o in triples:
        if isinstance(p, SequencePath) and all(_statement_step(step) for step in p.args):
            subject = s
            for i, step in enumerate(p.args):
                target = o if i == len(p.args) - 1 else BNode()
                out += _expanded([(target, step.arg, subject) if isinstance(step, InvPath) else (subject, step, target)])
                subject = target
        elif isinstance(p, InvPath) and _statement_step(p):
            out.append((o, p.arg, s))
        else:
            out.append((s, p, o))
    return out


def statement_subjects(algebra: CompValue) -> None:
    """A Wikidata statement node read through ``ps:P`` with no ``p:P`` triple naming it gets one
    (``_:s p:P ?st``, ``_:s`` a blank node): in Wikidata's RDF model every statement node is the
    object of exactly one ``p:P`` triple, of the property of its ``ps:P`` value, so the triple
    neither removes nor repeats a solution. Its paths of ``ps:``/``pq:`` steps are spelled out first."""
    bgps = [n for n in _nodes(algebra) if n.name == "BGP"]
    for bgp in bgps:
        if any(isinstance(t[1], (SequencePath, InvPath)) for t in bgp.triples):
            bgp["triples"] = _expanded(bgp.triples)
    linked = {(str(p)[len(WIKIDATA_PROP):], o) for bgp in bgps for _, p, o in bgp.triples
              if isinstance(p, URIRef) and str(p).startswith(WIKIDATA_PROP) and "/" not in str(p)[len(WIKIDATA_PROP):]}
    for bgp in bgps:
        added = []
        for s, p, _ in bgp.triples:
            if not (isinstance(p, URIRef) and str(p).startswith(WIKIDATA_PROP + "statement/P")):
                continue
            pid = str(p).rsplit("/", 1)[1]
            if (pid, s) not in linked and isinstance(s, (Variable, BNode)):
                linked.add((pid, s))
                added.append((BNode(), URIRef(WIKIDATA_PROP + pid), s))
        if added:
            bgp["triples"] = list(bgp.triples) + added


def _certain(pattern) -> set:
    """Variables every solution of ``pattern`` binds (through its required triples)."""
    name = getattr(pattern, "name", None)
    if name == "BGP":
        return {v for t in pattern.triples for v in t if isinstance(v, Variable)}
    out = set()
    for key in _REQUIRED.get(name, ()):
        out |= _certain(pattern[key])
    return out


def unbound_as_not_exists(algebra: CompValue) -> None:
    """``P1 OPTIONAL { P2 } FILTER(!BOUND(?v))`` where ``?v`` is bound by every solution of
    ``P2`` and not by ``P1`` keeps the solutions of ``P1`` that no solution of ``P2`` extends:
    ``P1 FILTER NOT EXISTS { P2 }`` (SPARQL 1.1 §18.5, LeftJoin's second part), provided the
    variables the two share are bound by ``P1`` (so compatibility is substitution) and ``P2``'s
    own are named nowhere else (they are unbound in every answer either way)."""
    uses = _uses(algebra)
    for node in _nodes(algebra):
        for key, child in list(_children(node)):
            if key is None or child.name != "Filter":
                continue
            if getattr(child.p, "name", None) == "Join":
                child["p"] = _optional_last(child.p)
            if getattr(child.p, "name", None) != "LeftJoin":
                continue
            test, left = child.expr, child.p
            if _bound_after_optional(test, left):
                # P1 OPTIONAL { P2 } FILTER(BOUND(?v)): the solutions P2 extended, P1 joined with P2
                node[key] = CompValue("Join", p1=left.p1, p2=left.p2, _vars=set(left.get("_vars") or ()))
                continue
            if not (getattr(test, "name", None) == "UnaryNot" and getattr(test.expr, "name", None) == "Builtin_BOUND"
                    and isinstance(test.expr.arg, Variable)) or getattr(left.expr, "name", None) != "TrueFilter":
                continue
            var = test.expr.arg
            inner_vars = _variables(left.p2, Counter())
            outer_certain = _certain(left.p1)
            outer_vars = set(_variables(left.p1, Counter()))
            shared = set(inner_vars) & outer_vars
            own = set(inner_vars) - outer_vars
            if var not in _certain(left.p2) or var in outer_vars or not shared <= outer_certain:
                continue
            # ?v: once in BOUND; P2's own variables: named in P2 only (and ?v in the BOUND)
            if any(uses[v] != inner_vars[v] + (v == var) for v in own):
                continue
            node[key] = CompValue("Filter", p=left.p1, expr=CompValue("Builtin_NOTEXISTS", graph=left.p2),
                                  _vars=set(outer_vars))


def _optional_last(join: CompValue) -> CompValue:
    """``{ A OPTIONAL { B } C }`` (rdflib: Join(LeftJoin(A, B), C)) as ``{ A C OPTIONAL { B } }``
    where C names none of B's variables that A may leave unbound: a solution of B compatible
    with one of A is then compatible with its join with C and back (the variables B and C share
    are bound by A), so the two give the same solutions. Hand-written queries put the OPTIONAL
    anywhere in the group; the FILTER(!BOUND(?v)) rule reads it last. Else ``join`` unchanged."""
    for optional, other in ((join.p1, join.p2), (join.p2, join.p1)):
        if getattr(optional, "name", None) != "LeftJoin" or getattr(optional.expr, "name", None) != "TrueFilter":
            continue
        maybe_unbound = set(_variables(optional.p2, Counter())) - _certain(optional.p1)
        if maybe_unbound & set(_variables(other, Counter())):
            continue
        inner = CompValue("Join", p1=optional.p1, p2=other, _vars=set(join.get("_vars") or ()))
        return CompValue("LeftJoin", p1=inner, p2=optional.p2, expr=optional.expr,
                         _vars=set(join.get("_vars") or ()))
    return join


def _bound_after_optional(test, left) -> bool:
    """``FILTER(BOUND(?v))`` over ``P1 OPTIONAL { P2 }`` (no condition), ``?v`` bound by every
    solution of ``P2`` and named nowhere in ``P1``: it keeps exactly the solutions the OPTIONAL
    extended, which are the join of ``P1`` and ``P2`` (SPARQL 1.1 §18.5)."""
    return (getattr(test, "name", None) == "Builtin_BOUND" and isinstance(test.arg, Variable)
            and getattr(left.expr, "name", None) == "TrueFilter" and test.arg in _certain(left.p2)
            and test.arg not in _variables(left.p1, Counter()))
