"""Automatic error taxonomy: the categories of the paper's Table 8 that a program can decide.

A wrong prediction gets one root cause, checked in the paper's hierarchical order:

1. ``entity_linking`` — a gold entity is not among the EL candidates (extrinsic);
2. ``entity_selection`` — the prediction uses a candidate entity that is not a gold one;
3. ``wrong_relation`` — the prediction uses a property the gold query does not use;
4. ``hallucinated_entity`` — the prediction uses an entity that is neither gold nor a candidate;
10. ``completion_error`` — the output is cut off (unbalanced brackets or braces);
5. ``syntax`` — the output does not parse/compile (CNL) or is not valid SPARQL;
7. ``kg_structure`` — it runs but returns nothing where the gold query has answers;
6. ``semantic`` — everything else (right terms, wrong meaning).

Categories 8 (implicit entities) and 9 (Hits@1 automation) need a person and are not produced.
The gold side is the alignment of the gold query (``{(kind, label): id}``) and the candidates.
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

CATEGORIES = (
    "entity_linking",
    "entity_selection",
    "wrong_relation",
    "hallucinated_entity",
    "completion_error",
    "syntax",
    "kg_structure",
    "semantic",
)
# Table 8's numbering, for the report.
PAPER_NUMBER = {
    "entity_linking": 1, "entity_selection": 2, "wrong_relation": 3, "hallucinated_entity": 4,
    "syntax": 5, "semantic": 6, "kg_structure": 7, "completion_error": 10,
}

_QID = re.compile(r"(?<![\w:])(?:wd:|<)?(Q[1-9][0-9]*)\b")
_PID = re.compile(r"\b(?:wdt:|p:|ps:|pq:|<\^?)?(P[1-9][0-9]*)\b")
_LABEL_ENTITY = re.compile(r"\[([^\[\]]+)\]")
_LABEL_PROPERTY = re.compile(r"<\^?([^<>\[\]]+)>")
_ECAI_PROPERTY = re.compile(r"<\^?P[0-9]+:([^<>]+)>")
_ECAI_TERM = re.compile(r"<([^<>:]+)>")


def norm_label(label: str) -> str:
    """Labels compare without case, underscores or an ``ID:`` prefix."""
    label = label.split(":", 1)[1] if re.match(r"^\^?[PQ][0-9]+:", label) else label
    return " ".join(label.replace("_", " ").lower().split())


@dataclass(frozen=True)
class Terms:
    """The entity and property references of one query, as IDs where known, else labels."""

    entities: frozenset[str]
    properties: frozenset[str]


def extract_terms(text: str, notation: str) -> Terms:
    """Entities and properties written in a prediction (works on unparsable text too).

    ``id`` (SQUALL/Sparklis with IDs, and SPARQL): ``Q…``/``P…`` identifiers; ``label``:
    ``[entity or class]`` and ``<property>`` labels; ``ecai``: ``<P57:director>`` properties and
    capitalized ``<Entity_Label>`` entities.
    """
    if notation == "id":
        return Terms(frozenset(_QID.findall(text)), frozenset(_PID.findall(text)))
    if notation == "label":
        entities = frozenset(norm_label(m) for m in _LABEL_ENTITY.findall(text))
        properties = frozenset(norm_label(m) for m in _LABEL_PROPERTY.findall(text))
        return Terms(entities, properties)
    if notation == "ecai":
        properties = frozenset(norm_label(m) for m in _ECAI_PROPERTY.findall(text))
        entities = frozenset(norm_label(m) for m in _ECAI_TERM.findall(text)
                             if m[:1].isupper() or m[:1].isdigit())
        return Terms(entities, properties)
    raise ValueError(f"unknown notation {notation!r}")


def is_truncated(text: str) -> bool:
    """Cut-off output: more opening than closing brackets/braces/quotes."""
    for opening, closing in ("{}", "()", "[]"):
        if text.count(opening) > text.count(closing):
            return True
    return text.count('"') % 2 == 1


@dataclass(frozen=True)
class GoldContext:
    """What the classifier knows about one question: the gold terms (ID → label) by kind and
    the EL candidates."""

    entities: Mapping  # ID -> label
    classes: Mapping
    properties: Mapping
    candidate_ids: frozenset[str]
    candidate_labels: Mapping  # normalized label -> ID

    @classmethod
    def build(cls, gold_terms: Iterable, candidates: Iterable) -> "GoldContext":
        """``gold_terms``: (kind, id, label) of every term of the gold query (kind entity, class
        or property), e.g. from :func:`terms_of_ir` on the resolved gold IR."""
        by_kind: dict[str, dict[str, str]] = {"entity": {}, "class": {}, "property": {}}
        for kind, tid, label in gold_terms:
            by_kind[kind][tid.lstrip("^")] = label or ""
        ids, labels = set(), {}
        for c in candidates:
            cid = c["id"] if isinstance(c, dict) else c.id
            label = c.get("label") if isinstance(c, dict) else c.label
            ids.add(cid)
            if label:
                labels.setdefault(norm_label(label), cid)
        return cls(by_kind["entity"], by_kind["class"], by_kind["property"], frozenset(ids), labels)

    def ids(self, kind: str) -> set[str]:
        return set({"entity": self.entities, "class": self.classes, "property": self.properties}[kind])

    def labels(self, kind: str) -> dict[str, str]:
        terms = {"entity": self.entities, "class": self.classes, "property": self.properties}[kind]
        return {norm_label(label): tid for tid, label in terms.items() if label}


def terms_of_ir(query) -> list[tuple[str, str, str]]:
    """(kind, id, label) of every Entity, Class and Property with an ID in an IR query."""
    from cnl import ir

    kinds = {ir.Entity: "entity", ir.Class: "class", ir.Property: "property"}
    out = []
    for node in ir.walk(query):
        kind = kinds.get(type(node))
        if kind and node.id:
            out.append((kind, node.id, node.label or ""))
    return out


def classify(prediction: str, notation: str, gold: GoldContext, *, parsed: bool,
             executed_empty: bool | None = None, gold_empty: bool | None = None) -> str:
    """The root cause of one *wrong* prediction (see the module doc for the order).

    ``parsed``: the prediction parsed and compiled (CNL) or is valid SPARQL. ``executed_empty``
    and ``gold_empty``: whether the prediction and the gold returned no answer on the KG (None
    when not executed).
    """
    gold_entities = gold.ids("entity")
    if gold_entities - gold.candidate_ids:
        return "entity_linking"
    terms = extract_terms(prediction, notation)
    if notation == "label" or notation == "ecai":
        known_entities = {**gold.candidate_labels, **gold.labels("entity")}
        class_labels = set(gold.labels("class"))
        pred_entities = set()
        unknown_entities = set()
        for label in terms.entities:
            if label in known_entities:
                pred_entities.add(known_entities[label])
            elif label not in class_labels:
                unknown_entities.add(label)
        pred_properties = terms.properties
        gold_properties = set(gold.labels("property"))
    else:
        class_ids = gold.ids("class")
        pred_entities = {q for q in terms.entities if q in gold.candidate_ids or q in gold_entities}
        unknown_entities = set(terms.entities) - pred_entities - class_ids
        pred_properties = terms.properties
        gold_properties = gold.ids("property")
    if any(e in gold.candidate_ids and e not in gold_entities for e in pred_entities):
        return "entity_selection"
    if pred_properties - gold_properties:
        return "wrong_relation"
    if unknown_entities:
        return "hallucinated_entity"
    if not parsed:
        return "completion_error" if is_truncated(prediction) else "syntax"
    if executed_empty and gold_empty is False:
        return "kg_structure"
    return "semantic"


def tally(categories: Iterable[str | None]) -> dict[str, int]:
    """Counts per category in the fixed order (None = correct, not counted)."""
    counts = Counter(c for c in categories if c)
    return {c: counts.get(c, 0) for c in CATEGORIES}
