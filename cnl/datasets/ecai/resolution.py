"""Resolving the labels of a CNL predicted for an ECAI question, as the evaluations do: the
question's own terms (from the alignment with its gold) and its recorded EL candidates, with
wider tables of the data before or after them."""
from __future__ import annotations

import functools

from cnl.datasets.ecai.prepared import prepared
from cnl.datasets.ecai.properties import data_property_labels
from cnl.linking.entity_map import EntityMap
from cnl.linking.resolver import ChainResolver, property_table


def resolver_for(terms, candidates, *, first=(), last=(), cross_kinds: bool = True) -> ChainResolver:
    """A resolver for one question: the ``first`` tables, the question's ``terms`` ((kind,
    label, ID) triples; the first of a label wins), its EL ``candidates`` (entities by label),
    then the ``last`` tables."""
    own = ChainResolver.table(terms)
    cands = ChainResolver.table(("entity", c.label, c.id) for c in candidates)
    return ChainResolver(*first, own, cands, *last, cross_kinds=cross_kinds)


@functools.lru_cache(maxsize=1)
def data_label_map() -> dict:
    """(kind, normalized label) -> ID over every ECAI alignment and recorded candidate, plus
    Wikidata's property labels and aliases."""
    pairs = []
    for split in ("train", "test"):
        for prep in prepared(split):
            pairs += [(kind, label, ident) for (kind, label), ident in prep.mapping.items()]
            pairs += [("entity", c.label, c.id) for c in prep.record.candidates]
    table = ChainResolver.table(pairs)
    for key, pid in property_table().items():
        table.setdefault(key, pid)
    return table


def data_property_table() -> dict:
    """(property, label) -> PID from the data's property list (id_to_prop.json)."""
    return ChainResolver.table(("property", label, pid) for pid, label in data_property_labels().items())


def class_table(alignments) -> dict:
    """(class, label) -> QID from the classes of some alignments ((kind, label) -> ID maps)."""
    return ChainResolver.table((kind, label, qid) for alignment in alignments
                               for (kind, label), qid in alignment.items() if kind == "class")


@functools.lru_cache(maxsize=1)
def data_entity_map() -> EntityMap:
    """The paper's EntityMap for explicit EL: the training alignments' entity and class labels
    and every recorded ReFinED candidate of both splits (above the EntityMap threshold)."""
    emap = EntityMap()
    for prep in prepared("train"):
        for (kind, label), ident in prep.mapping.items():
            if kind in ("entity", "class") and not ident.startswith(("P", "^")):
                emap.add(label, ident)
    for split in ("train", "test"):
        for prep in prepared(split):
            emap.add_candidates([{"label": c.label, "id": c.id, "score": c.probability}
                                 for c in prep.record.candidates])
    return emap
