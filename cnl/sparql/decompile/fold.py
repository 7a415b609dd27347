"""Stage: a group's triples -> edges, Wikidata statements folded.

An edge is ``subject P object`` with its qualifiers: a ``wdt:P`` shortcut, or a statement
``p:P``/``ps:P``/``pq:Q`` through a blank node or a variable. Class tests (``?x wdt:P31 wd:C``,
and the subclass-closed ``wdt:P31/wdt:P279*`` or ``?x wdt:P31 ?t . ?t wdt:P279* wd:C``) are set
aside per node; sequence paths become chains of blank nodes. Any other predicate is refused.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from rdflib import BNode, URIRef, Variable
from rdflib.paths import MulPath, SequencePath

from cnl.errors import UnsupportedSPARQLError
from cnl.sparql.decompile.terms import is_node, short
from cnl.sparql.namespaces import PQ, PS, WD, WDT, P

_PID = re.compile(r"^P[1-9][0-9]*$")
_INSTANCE_OF = URIRef(WDT + "P31")
_SUBCLASS_OF = URIRef(WDT + "P279")


@dataclass
class Edge:
    """``subject P object`` with qualifiers; ``form``: ``wdt`` (truthy) or ``p`` (statement)."""

    subject: object
    prop: str
    obj: object
    quals: list  # (qualifier PID, value)
    form: str


def fold(triples, classes: dict, reserved: set) -> list[Edge]:
    """Triples -> edges; class tests go to ``classes[node]`` as (class, subclass-closed).
    ``reserved``: the variables used outside the triples (FILTERs, VALUES, answer columns),
    which cannot be a statement node or the hidden type of the subclass idiom."""
    edges, heads, values, quals = [], {}, {}, {}
    triples = _subclass_idiom(_expand_sequences(triples), classes, reserved)
    for s, p, o in triples:
        if isinstance(p, Variable):
            raise UnsupportedSPARQLError("a variable in predicate position", f"?{p}")
        if not isinstance(p, URIRef):
            subclass = _subclass_path(p)
            if subclass and is_node(s) and isinstance(o, URIRef) and str(o).startswith(WD):
                classes.setdefault(s, []).append((o, True))
                continue
            raise UnsupportedSPARQLError("property paths", str(p.n3()) if hasattr(p, "n3") else str(p))
        iri = str(p)
        if iri.startswith(WDT):
            pid = _pid(p, WDT)
            if pid == "P31" and is_node(s) and isinstance(o, URIRef) and str(o).startswith(WD):
                classes.setdefault(s, []).append((o, False))
            else:
                edges.append(Edge(s, pid, o, [], "wdt"))
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
        if len(vals) != 1 or vals[0][0] != pid:
            raise UnsupportedSPARQLError("a statement without exactly one matching ps: value", f"p:{pid}")
        if st in reserved:
            raise UnsupportedSPARQLError("a statement node used outside p:/ps:/pq:", st.n3())
        edges.append(Edge(subject, pid, vals[0][1], quals.pop(st, []), "p"))
    if values or quals:
        raise UnsupportedSPARQLError("a ps:/pq: triple without its p: statement")
    return edges


def _pid(iri, base) -> str:
    pid = str(iri)[len(base):]
    if not _PID.match(pid):
        raise UnsupportedSPARQLError("a predicate that is not a Wikidata property", short(iri))
    return pid


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
