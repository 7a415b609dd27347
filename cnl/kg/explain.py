"""Why a query finds nothing in a knowledge graph: what can be known instead of a bare "(0 rows)".

:func:`explain_empty` takes a SELECT query and the KG it found nothing in, and checks the query's
triple patterns (those that must match: not OPTIONAL, MINUS, NOT EXISTS or one branch of a
UNION) against the KG, each alone, then together:

* a pattern with a known item that matches nothing: ``Inception has no <box office>`` — and
  whether the other direction exists (``nothing has <founded by> Microsoft, but Microsoft has
  <founded by> Bill Gates``: the question may be reversed), else which properties that item
  does have (a near property may have been meant);
* patterns that each match but not together: ``… has <director> Christopher Nolan`` and ``…
  is an instance of <television series>`` each match, no item does both;
* patterns that all match together: then the query's conditions (FILTER, a qualifier's value,
  a sub-query) leave nothing.

So a person can tell the data (the fact is not in this KG) from the query (a reversed or near
property, a wrong class). The result is a list of :class:`Finding`, each with a one-line
``message``; the learned parser's beam choice may call it as well (a function of the query
and the KG only). Every check is a bounded ASK/SELECT with a short deadline.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from cnl.errors import CNLError
from cnl.kg.limits import query_limits
from cnl.sparql.namespaces import P, PQ, PS, WD, WDT

CHECK_TIMEOUT = 3.0           # seconds per check query
MAX_PATTERNS = 12             # patterns checked one by one
PROPERTIES_SHOWN = 12         # properties listed for an item that lacks the one asked for
RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
INSTANCE_OF = WDT + "P31"


@dataclass
class Finding:
    """One thing learned about an empty answer: ``kind`` is ``missing`` (a pattern matches
    nothing), ``reversed`` (it does the other way round), ``has`` (what the item has instead),
    ``together`` (patterns that match alone but not together) or ``conditions`` (the patterns
    match, the conditions leave nothing); ``pattern`` the triple pattern in SPARQL."""

    kind: str
    message: str
    pattern: str = ""
    examples: list = field(default_factory=list)

    def to_json(self) -> dict:
        out = {"kind": self.kind, "message": self.message}
        if self.pattern:
            out["pattern"] = self.pattern
        return out


def explain_empty(sparql: str, kg) -> list[Finding]:
    """What can be known about why ``sparql`` (a SELECT) has no answer in ``kg``; an empty list
    when the query cannot be read or nothing could be learned."""
    try:
        from cnl.sparql.algebra import parse_algebra

        algebra = parse_algebra(sparql)
    except CNLError:
        return []
    patterns, conditions = [], []
    _required(algebra, patterns, conditions)
    patterns = _ordered([p for p in patterns if not _is_variable(p[1])])
    if not patterns:
        return []
    return _Explainer(kg).explain(patterns[:MAX_PATTERNS], bool(conditions))


# -- reading the query --------------------------------------------------------------------------

def _required(node, patterns: list, conditions: list) -> None:
    """Collect the triple patterns every answer must match (and whether conditions apply)."""
    name = getattr(node, "name", None)
    if name is None:
        return
    if name == "BGP":
        patterns.extend(t for t in node.triples if t not in patterns)
        return
    if name in ("LeftJoin", "Minus"):  # OPTIONAL and MINUS parts need not match
        _required(node.p1, patterns, conditions)
        return
    if name == "Union":
        return  # either branch may match: nothing is required of one
    if name == "Filter":
        conditions.append(node.expr)
    if name in ("Join",):
        _required(node.p1, patterns, conditions)
        _required(node.p2, patterns, conditions)
        return
    inner = node.get("p") if hasattr(node, "get") else None
    if inner is not None:
        _required(inner, patterns, conditions)


def _ordered(patterns: list) -> list:
    """Patterns with a known item or value first, then those joined to them."""
    def constants(t):
        return sum(1 for term in (t[0], t[2]) if not _is_variable(term))
    return sorted(patterns, key=lambda t: (-constants(t), patterns.index(t)))


def _is_variable(term) -> bool:
    from rdflib.term import BNode, Variable

    return isinstance(term, (Variable, BNode))


def _n3(term) -> str:
    from rdflib.term import BNode

    if isinstance(term, BNode):
        return f"?_b{abs(hash(str(term))) % 10**8}"
    return term.n3()


def _pattern(t) -> str:
    return f"{_n3(t[0])} {_n3(t[1])} {_n3(t[2])} ."


def _pid(predicate: str) -> tuple[str | None, str]:
    """(PID, namespace) of a Wikidata property IRI; (None, "") for any other predicate."""
    for namespace in (WDT, PS, PQ, P):
        local = predicate[len(namespace):] if predicate.startswith(namespace) else ""
        if local[:1] == "P" and local[1:].isdigit():
            return local, namespace
    return None, ""


# -- checking it against the KG ------------------------------------------------------------------

class _Explainer:
    def __init__(self, kg) -> None:
        self.kg = kg
        self._names: dict[str, str] = {}

    def ask(self, where: str) -> bool | None:
        try:
            with query_limits(timeout=CHECK_TIMEOUT, max_rows=50):
                return bool(self.kg.ask(f"ASK {{ {where} }}"))
        except CNLError:
            return None  # unknown: too slow or refused

    def select(self, sparql: str, rows: int = 50) -> list:
        try:
            with query_limits(timeout=CHECK_TIMEOUT, max_rows=rows):
                return self.kg.select(sparql).rows
        except CNLError:
            return []

    def explain(self, patterns: list, has_conditions: bool) -> list[Finding]:
        self._name_terms(patterns)
        findings: list[Finding] = []
        for t in patterns:
            if _is_variable(t[0]) and _is_variable(t[2]):
                continue  # a pattern of variables only says nothing about this KG's items
            if self.ask(_pattern(t)) is False:
                findings.append(Finding("missing", self.missing(t), _pattern(t)))
                findings.extend(self.instead(t))
        if findings:
            return findings
        together: list = []
        for t in patterns:
            together.append(t)
            if len(together) > 1 and self.ask(" ".join(_pattern(x) for x in together)) is False:
                return [self.not_together(together[:-1], t)]
        if self.ask(" ".join(_pattern(x) for x in patterns)) and has_conditions:
            return [Finding("conditions", "the items and properties match in this knowledge graph, but the query's "
                                          "conditions (a comparison, a date, a qualifier's value) leave nothing")]
        return []

    def not_together(self, matching: list, failing) -> Finding:
        """Patterns that match together, and the one that, added, leaves nothing: named from the
        variable they share (``films with <director> Christopher Nolan … none of them has …``)."""
        shared = [term for term in (failing[0], failing[2]) if _is_variable(term)
                  and any(term in (x[0], x[2]) for x in matching)]
        where = " ".join(_pattern(x) for x in matching)
        if not shared:
            parts = "; ".join(self.verbalize(x) for x in matching + [failing])
            return Finding("together", f"each part matches in this knowledge graph, but nothing matches all of: {parts}",
                           f"{where} {_pattern(failing)}")
        var = shared[0]
        rows = self.select(f"SELECT DISTINCT {_n3(var)} WHERE {{ {where} }} LIMIT 3")
        examples = self._labelled([r[0] for r in rows if r[0] is not None])
        described = " and ".join(self.about(var, x) for x in matching if var in (x[0], x[2])) or "match"
        return Finding("together", f"items that {described} exist in this knowledge graph"
                                   f"{f' ({examples}, …)' if examples else ''}, but none of them "
                                   f"{self.about_one(var, failing)}", f"{where} {_pattern(failing)}", [examples])

    def about(self, var, t) -> str:
        """What pattern ``t`` says of the variable ``var`` (a verb phrase)."""
        if str(t[1]) in (RDF_TYPE, INSTANCE_OF) and t[0] == var:
            return f"are an instance of {self.name(t[2]) if not _is_variable(t[2]) else 'some class'}"
        if t[0] == var:
            return f"have {self.prop(t[1])}" + ("" if _is_variable(t[2]) else f" {self.name(t[2])}")
        return f"are the {self.prop(t[1])} of " + ("something" if _is_variable(t[0]) else self.name(t[0]))

    def about_one(self, var, t) -> str:
        """:meth:`about` for "none of them …" (singular)."""
        said = self.about(var, t)
        return "is" + said[3:] if said.startswith("are ") else "has" + said[4:] if said.startswith("have") else said

    # -- words ---------------------------------------------------------------------------
    def _name_terms(self, patterns: list) -> None:
        from rdflib.term import URIRef

        iris = {str(term) for t in patterns for term in (t[0], t[2]) if isinstance(term, URIRef)}
        props = {str(t[1]) for t in patterns if isinstance(t[1], URIRef)}
        try:
            self._names.update(self.kg.labels(iris))
            self._names.update(self.kg.property_labels(props))
        except CNLError:
            pass

    def name(self, term) -> str:
        from rdflib.term import Literal, URIRef

        if isinstance(term, URIRef):
            iri = str(term)
            label = self._names.get(iri)
            if iri.startswith(WD) and iri[len(WD):][:1] == "Q":
                return f"{label} ({iri[len(WD):]})" if label else iri[len(WD):]
            return label or f"<{iri}>"
        if isinstance(term, Literal):
            return str(term)
        return "something"

    def prop(self, predicate) -> str:
        iri = str(predicate)
        if iri in (RDF_TYPE, INSTANCE_OF):
            return "instance of"
        pid, namespace = _pid(iri)
        label = self._names.get(iri, "")
        for suffix in (" (statement value)", " (statement)"):
            label = label.removesuffix(suffix)
        return f"<{label or pid or iri}>" if pid or label else f"<{iri}>"

    def verbalize(self, t) -> str:
        subject = "something" if _is_variable(t[0]) else self.name(t[0])
        obj = "something" if _is_variable(t[2]) else self.name(t[2])
        return f"{subject} has {self.prop(t[1])} {obj}"

    def missing(self, t) -> str:
        if _is_variable(t[0]):
            return f"nothing has {self.prop(t[1])} {self.name(t[2])} in this knowledge graph"
        if _is_variable(t[2]):
            return f"{self.name(t[0])} has no {self.prop(t[1])} in this knowledge graph"
        return f"{self.name(t[0])} does not have {self.prop(t[1])} {self.name(t[2])} in this knowledge graph"

    # -- what exists instead --------------------------------------------------------------
    def instead(self, t) -> list[Finding]:
        """For a missing pattern with a known item: the same property the other way round
        (a reversed question), else the properties that item has (a near property)."""
        from rdflib.term import URIRef

        predicate = str(t[1])
        pid, namespace = _pid(predicate)
        direct = WDT + pid if pid and namespace in (WDT, P, PS) else predicate
        known = t[0] if not _is_variable(t[0]) else t[2]
        if not isinstance(known, URIRef) or predicate in (RDF_TYPE, INSTANCE_OF) or namespace == PQ:
            return []
        if _is_variable(t[0]) != _is_variable(t[2]):
            if _is_variable(t[0]):
                other, written = f"<{known}> <{direct}> ?v", "{known} has {prop} {values}"
            else:
                other, written = f"?v <{direct}> <{known}>", "{values} has {prop} {known}"
            rows = self.select(f"SELECT DISTINCT ?v WHERE {{ {other} }} LIMIT 3")
            if rows:
                values = self._labelled([r[0] for r in rows])
                if len(rows) > 1:
                    written = written.replace("{values} has", "{values} have")
                said = written.format(known=self.name(known), prop=self.prop(t[1]), values=values)
                return [Finding("reversed", f"but the other way round, {said}: the question may be reversed",
                                f"{other} .", [values])]
        return self.has_instead(known, self.prop(t[1]).strip("<>"))

    def has_instead(self, item, asked: str = "") -> list[Finding]:
        """The properties ``item`` has, those nearest the one ``asked`` for first."""
        from rapidfuzz import fuzz

        rows = self.select(f"SELECT DISTINCT ?p WHERE {{ <{item}> ?p ?o FILTER(STRSTARTS(STR(?p), \"{WDT}\")) }} "
                           f"LIMIT 200", rows=200)
        predicates = [r[0].value for r in rows if r[0].value != INSTANCE_OF]
        if not predicates:
            return [Finding("has", f"{self.name(item)} has no statements in this knowledge graph")]
        names = self.kg.property_labels(predicates)
        shown = sorted({names.get(p, p) for p in predicates}, key=lambda n: (-fuzz.token_set_ratio(n, asked), n))
        more = f", … ({len(shown)} in all)" if len(shown) > PROPERTIES_SHOWN else ""
        return [Finding("has", f"{self.name(item)} has, in this knowledge graph: "
                               f"{', '.join(shown[:PROPERTIES_SHOWN])}{more}", examples=shown)]

    def _labelled(self, terms) -> str:
        iris = [t.value for t in terms if getattr(t, "is_iri", False)]
        try:
            labels = self.kg.labels(iris) if iris else {}
        except CNLError:
            labels = {}
        shown = []
        for term in terms:
            if getattr(term, "is_iri", False):
                label = labels.get(term.value)
                local = term.value[len(WD):] if term.value.startswith(WD) else term.value
                shown.append(f"{label} ({local})" if label else local)
            else:
                shown.append(term.value)
        return ", ".join(shown)


__all__ = ["explain_empty", "Finding"]
