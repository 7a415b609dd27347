"""Stage: a group's triples -> edges, Wikidata statements folded.

An edge is ``subject P object`` with its qualifiers: a ``wdt:P`` shortcut, or a statement
``p:P``/``ps:P``/``pq:Q`` through a blank node or a variable (without ``ps:``, a statement
whose value the query does not say). Class tests (``?x wdt:P31 wd:C``,
and the subclass-closed ``wdt:P31/wdt:P279*`` or ``?x wdt:P31 ?t . ?t wdt:P279* wd:C``) are set
aside per node; sequence paths become chains of blank nodes and inverse paths reversed
triples. Other property paths over ``wdt:`` are edges whose property is an ``ir.PropPath``
(``wdt:P131+``, ``wdt:P22|wdt:P25``), and an alternative of ``p:`` statements with the same
alternative of ``ps:`` values (``p:P451|p:P26 ?s . ?s ps:P451|ps:P26 ?x``) is one statement of
either property; ``rdfs:label`` is the CNL's pseudo-property "label". Any other predicate is
refused.
"""
from __future__ import annotations

from contextvars import ContextVar

import re
from dataclasses import dataclass

from rdflib import BNode, URIRef, Variable
from rdflib.paths import AlternativePath, InvPath, MulPath, NegatedPath, SequencePath

from cnl import ir
from cnl.errors import UnsupportedSPARQLError
from cnl.sparql.decompile.terms import ir_term, is_node, short
from cnl.sparql.namespaces import (
    PQ, PS, PSN, PSV, RDFS_LABEL, SCHEMA_DESCRIPTION, SKOS_ALT_LABEL, WD, WDT, WIKIBASE, P)

_PID = re.compile(r"^P[1-9][0-9]*$")
LABEL = ir.Property(label="label")  # rdfs:label, which every profile names "label"
DESCRIPTION = ir.Property(label="description")  # schema:description, Wikidata's "description"
ALIAS = ir.Property(label="alias")  # skos:altLabel, Wikidata's "also known as"
SITELINKS = ir.Property(label="sitelinks")  # wikibase:sitelinks, the number of wiki pages about it
_SITELINKS = WIKIBASE + "sitelinks"
_INSTANCE_OF = URIRef(WDT + "P31")
_SUBCLASS_OF = URIRef(WDT + "P279")


class _ValueUnsaid:
    """The object of a ``p:`` statement the query gives no ``ps:`` value (``?x p:P69 [ pq:P812
    ?v ]``): it says nothing of the statement's value (``has a <P69> statement``)."""

    def n3(self) -> str:
        return "[a statement without its value]"


VALUE_UNSAID = _ValueUnsaid()


@dataclass
class Edge:
    """``subject P object`` with qualifiers; ``form``: ``wdt`` (truthy), ``p`` (statement),
    ``path`` (a property path over ``wdt:``, which every profile writes the same way) or
    ``label`` (``rdfs:label``, ``prop`` the pseudo-property ``LABEL``).
    ``prop``: a PID, a tuple of PIDs (an alternative) or an ``ir.PropPath``; ``obj``:
    ``VALUE_UNSAID`` for a ``p:`` statement without a ``ps:`` value."""

    subject: object
    prop: object
    obj: object
    quals: list  # (qualifier PID, value)
    form: str
    node: object = None  # the statement node of a p: statement
    normalized: bool = False  # the value is the quantity in SI units (psn:P/wikibase:quantityAmount)
    unit: object = None  # the value is the quantity's amount in this unit (psv:P, wikibase:quantityUnit):
    # an ir.Entity, or the rdflib Variable of a unit the query reads (said "in unit ?u")


# True while a query that mixes ``wdt:P31`` and ``wdt:P31/wdt:P279*`` class tests is read: the
# profile has one option for all class tests, so the closed ones are said as the property path
# they are ("that has <P31>/<P279>* <Q38723>"), the plain ones as class nouns.
SUBCLASS_AS_PATH: ContextVar[bool] = ContextVar("SUBCLASS_AS_PATH", default=False)


def fold(triples, classes: dict, reserved: set) -> list[Edge]:
    """Triples -> edges; class tests go to ``classes[node]`` as (class, subclass-closed).
    ``reserved``: the variables used outside the triples (FILTERs, VALUES, answer columns),
    which cannot be a statement node or the hidden type of the subclass idiom."""
    edges, heads, values, quals, normalized = [], {}, {}, {}, set()
    triples = _normalized_amounts(_subclass_idiom(_expand_sequences(triples), classes, reserved), reserved)
    triples, units = _unit_amounts(triples, reserved)
    for s, p, o in triples:
        if isinstance(p, Variable):
            edges.append(_any_property(s, p, o, triples, reserved))
            continue
        if not isinstance(p, URIRef):
            subclass = _subclass_path(p)
            if subclass and is_node(s) and isinstance(o, URIRef) and str(o).startswith(WD) and not SUBCLASS_AS_PATH.get():
                classes.setdefault(s, []).append((o, True))
                continue
            statement = _statement_alternative(p)
            if statement is not None:
                base, pids = statement
                if base == P:
                    if not is_node(o):
                        raise UnsupportedSPARQLError("a p: statement whose object is not a statement node", short(o))
                    heads.setdefault(o, []).append((s, pids))
                else:
                    values.setdefault(s, []).append((pids, o))
                continue
            path = ir_path(p)
            if path.op == "|" and all(isinstance(i, ir.Property) for i in path.items):
                edges.append(Edge(s, tuple(i.id for i in path.items), o, [], "wdt"))
            else:
                edges.append(Edge(s, path, o, [], "path"))
            continue
        iri = str(p)
        if iri == RDFS_LABEL:
            # the profile's label predicate: the CNL's pseudo-property "label" ("has a <label>
            # matching ...", "the <label> of X")
            edges.append(Edge(s, LABEL, o, [], "label"))
        elif iri == SCHEMA_DESCRIPTION:
            edges.append(Edge(s, DESCRIPTION, o, [], "label"))
        elif iri == SKOS_ALT_LABEL:
            edges.append(Edge(s, ALIAS, o, [], "label"))
        elif iri == _SITELINKS:
            edges.append(Edge(s, SITELINKS, o, [], "label"))
        elif iri.startswith(WDT):
            pid = _pid(p, WDT)
            if pid == "P31" and is_node(s) and isinstance(o, URIRef) and str(o).startswith(WD):
                classes.setdefault(s, []).append((o, False))
            else:
                edges.append(Edge(s, pid, o, [], "wdt"))
        elif iri.startswith(PSN):  # the amount in SI units (_normalized_amounts)
            values.setdefault(s, []).append((_pid(p, PSN), o))
            normalized.add(s)
        elif iri.startswith(PSV):  # the amount in a given unit (_unit_amounts)
            values.setdefault(s, []).append((_pid(p, PSV), o))
        elif iri.startswith(PS):
            values.setdefault(s, []).append((_pid(p, PS), o))
        elif iri.startswith(PQ):
            quals.setdefault(s, []).append((_pid(p, PQ), o))
        elif iri.startswith(P) and iri[len(P):].startswith("P"):
            if not is_node(o):
                raise UnsupportedSPARQLError("a p: statement whose object is not a statement node", short(o))
            heads.setdefault(o, []).append((s, _pid(p, P)))
        else:
            raise UnsupportedSPARQLError("a predicate outside Wikidata's wdt:/p:/ps:/pq: namespaces", short(p))
    for st, hs in heads.items():
        if len(hs) != 1:
            raise UnsupportedSPARQLError("a statement node shared by several p: triples")
        subject, pid = hs[0]
        vals = values.pop(st, [])
        if len(vals) > 1 or (vals and vals[0][0] != pid):
            raise UnsupportedSPARQLError("a statement with several ps: values or one of another property", f"p:{pid}")
        if not vals and isinstance(pid, tuple):
            raise UnsupportedSPARQLError("a statement of alternative properties without its ps: value")
        if st in reserved:
            raise UnsupportedSPARQLError("a statement node used outside p:/ps:/pq:", st.n3())
        edges.append(Edge(subject, pid, vals[0][1] if vals else VALUE_UNSAID, quals.pop(st, []), "p", st,
                          normalized=st in normalized, unit=units.get(st)))
    if values or quals:
        raise UnsupportedSPARQLError("a ps:/pq: triple without its p: statement")
    return edges


_QUANTITY_AMOUNT = URIRef(WIKIBASE + "quantityAmount")


def _normalized_amounts(triples, reserved):
    """``?st psn:P ?n . ?n wikibase:quantityAmount ?v`` (``?n`` used nowhere else, as the path
    ``psn:P/wikibase:quantityAmount`` writes it) -> ``?st psn:P ?v``: the statement's value is its
    quantity in SI units (``Edge.normalized``)."""
    amounts = {s: (i, o) for i, (s, p, o) in enumerate(triples) if p == _QUANTITY_AMOUNT and is_node(s)}
    if not amounts:
        return triples
    drop, replaced = set(), {}
    for i, (s, p, o) in enumerate(triples):
        if isinstance(p, URIRef) and str(p).startswith(PSN) and o in amounts and o not in reserved \
                and sum(o in (t[0], t[2]) for t in triples) == 2:
            j, value = amounts[o]
            drop.add(j)
            replaced[i] = (s, p, value)
    return [replaced.get(i, t) for i, t in enumerate(triples) if i not in drop]


QUANTITY_UNIT = URIRef(WIKIBASE + "quantityUnit")  # also read by the units stage (units.py)


def _unit_amounts(triples, reserved):
    """``?st psv:P ?n . ?n wikibase:quantityAmount ?v . ?n wikibase:quantityUnit wd:Q`` (``?n``
    used nowhere else, as the compiler's ``psv:P [ ... ]`` writes it) -> ``?st psv:P ?v``, and
    {?st: the unit wd:Q}: the statement's value is its quantity's amount in that unit
    (``Edge.unit``); a unit that is a variable (``wikibase:quantityUnit ?u``) is kept as that
    variable, "in unit ?u", for the tests and choices that read it (a unit conversion). Anything
    else said of a full value node (its bounds, no unit) has no CNL form: refused, the construct
    named."""
    full = [(i, t) for i, t in enumerate(triples) if isinstance(t[1], URIRef) and str(t[1]).startswith(PSV)]
    if not full:
        return triples, {}
    drop, replaced, units = set(), {}, {}
    for i, (s, p, node) in full:
        about = [(j, t) for j, t in enumerate(triples) if j != i and node in (t[0], t[2])]
        said = {t[1]: (j, t[2]) for j, t in about if t[0] == node}
        bounds = sorted(short(q) for q in said if q != _QUANTITY_AMOUNT and q != QUANTITY_UNIT)
        if not is_node(node) or node in reserved or len(about) != len(said):
            raise UnsupportedSPARQLError("a full value node (psv:) used beside its amount and unit", short(p))
        if bounds:
            raise UnsupportedSPARQLError("a full value node's bounds or other parts (psv:)", ", ".join(bounds))
        if _QUANTITY_AMOUNT not in said or QUANTITY_UNIT not in said:
            raise UnsupportedSPARQLError("a full value node (psv:) without its amount and a named unit", short(p))
        unit = said[QUANTITY_UNIT][1]
        if not isinstance(unit, (URIRef, Variable)):
            raise UnsupportedSPARQLError("a full value node whose unit is not one named item or variable "
                                         "(wikibase:quantityUnit)", unit.n3())
        drop |= {said[_QUANTITY_AMOUNT][0], said[QUANTITY_UNIT][0]}
        replaced[i] = (s, p, said[_QUANTITY_AMOUNT][1])
        units[s] = unit if isinstance(unit, Variable) else ir_term(unit)
    return [replaced.get(i, t) for i, t in enumerate(triples) if i not in drop], units


def _pid(iri, base) -> str:
    pid = str(iri)[len(base):]
    if not _PID.match(pid):
        raise UnsupportedSPARQLError("a predicate that is not a Wikidata property", short(iri))
    return pid


def prop_term(prop):
    """An edge's property as the IR says it: a property, or a path (an alternative's IDs)."""
    if isinstance(prop, str):
        return ir.Property(prop)
    if isinstance(prop, tuple):
        return ir.PropPath("|", tuple(ir.Property(p) for p in prop))
    return prop


def ir_path(p):
    """An rdflib property path over ``wdt:`` properties as an ``ir.PropPath`` (its steps as
    ``ir.Property``)."""
    if isinstance(p, URIRef):
        if not str(p).startswith(WDT):
            raise UnsupportedSPARQLError("a property path through statements or outside wdt: (paths walk the truthy "
                                         "graph)", short(p))
        return ir.Property(_pid(p, WDT))
    if isinstance(p, AlternativePath):
        return ir.PropPath("|", tuple(ir_path(a) for a in p.args))
    if isinstance(p, SequencePath):
        return ir.PropPath("/", tuple(ir_path(a) for a in p.args))
    if isinstance(p, MulPath) and p.mod in ("*", "+", "?"):
        return ir.PropPath(p.mod, (ir_path(p.path),))
    if isinstance(p, InvPath):
        return ir.PropPath("^", (ir_path(p.arg),))
    if isinstance(p, NegatedPath):
        raise UnsupportedSPARQLError("a negated property set (!p)", str(p))
    raise UnsupportedSPARQLError("property paths", str(p))


def _statement_alternative(p):
    """``p:P1|p:P2`` -> (P, (P1, P2)); ``ps:P1|ps:P2`` -> (PS, (P1, P2)); else None."""
    if not (isinstance(p, AlternativePath) and all(isinstance(a, URIRef) for a in p.args)):
        return None
    bases = {namespace_of(a) for a in p.args}
    if bases == {PQ}:
        raise UnsupportedSPARQLError("an alternative of qualifiers (pq:P1|pq:P2)", str(p))
    if bases in ({P}, {PS}):
        (base,) = bases
        return base, tuple(_pid(a, base) for a in p.args)
    return None


def namespace_of(iri) -> str | None:
    """The Wikidata property namespace of ``iri`` (the longest that matches: ps:, pq: and
    wdt: all start with p:'s)."""
    matches = [b for b in (WDT, PS, PQ, P) if str(iri).startswith(b)]
    return max(matches, key=len) if matches else None


def _expand_sequences(triples):
    """``s p1/p2 o`` -> ``s p1 _:m . _:m p2 o`` (except the class path wdt:P31/wdt:P279*);
    ``s ^p o`` -> ``o p s``."""
    out = []
    for s, p, o in triples:
        while isinstance(p, InvPath):
            s, p, o = o, p.arg, s
        if isinstance(p, SequencePath) and not _subclass_path(p):
            subject = s
            steps = []
            for step in p.args[:-1]:
                middle = BNode()
                steps.append((subject, step, middle))
                subject = middle
            steps.append((subject, p.args[-1], o))
            out.extend(_expand_sequences(steps))
        else:
            out.append((s, p, o))
    return out


ANY_PROPERTY = ir.Property(label="any property")  # a predicate variable named once: a link of any kind


def _any_property(s, p, o, triples, reserved) -> Edge:
    """``?s ?p ?o`` with ``?p`` named by this triple only: "has <any property> o" (a link of any
    kind); a predicate variable that is an answer, tested or shared says more than that."""
    if p in reserved or sum(v == p for t in triples for v in t) != 1:
        raise UnsupportedSPARQLError("a variable in predicate position", f"?{p} (named elsewhere too)")
    return Edge(s, ANY_PROPERTY, o, [], "label")


def _subclass_idiom(triples, classes, reserved):
    """``?x wdt:P31 ?t . ?t wdt:P279* wd:C`` (``?t`` used nowhere else) is a subclass-closed
    class test of ``?x``."""
    star = [(s, o) for s, p, o in triples if isinstance(p, MulPath) and p.path == _SUBCLASS_OF
            and p.mod == "*" and is_node(s) and s not in reserved and isinstance(o, URIRef)]
    drop = set()
    for t, cls in star:
        uses = [i for i, (s, p, o) in enumerate(triples) if s == t or o == t]
        typing = [i for i in uses if triples[i][2] == t and triples[i][1] == _INSTANCE_OF
                  and is_node(triples[i][0])]
        if len(uses) == 2 and len(typing) == 1:
            classes.setdefault(triples[typing[0]][0], []).append((cls, True))
            drop |= set(uses)
    return [t for i, t in enumerate(triples) if i not in drop]


def _subclass_path(p) -> bool:
    """``wdt:P31/wdt:P279*``."""
    if isinstance(p, SequencePath) and len(p.args) == 2:
        first, second = p.args
        return (first == _INSTANCE_OF and isinstance(second, MulPath)
                and second.path == _SUBCLASS_OF and second.mod == "*")
    return False
