"""QALD-9-plus as extra SQUALL training data for the learned parser.

``../shared/data/benchmarks/qald9plus_train.json`` holds 371 Wikidata questions with gold SPARQL
written by others. Each query the decompiler can express becomes a SQUALL target printed with
labels (Wikidata IDs named from a store's ``rdfs:label``, properties from the property lists);
a query with a term no label is known for is left out, since a model cannot learn to write
``<Q56244641>``. Prompts carry the project's own linker's candidates over the same store, as
``translate`` gives a new question — there are no ReFinED candidates for these questions.
"""
from __future__ import annotations

import json
import logging
import re

from cnl.errors import CNLError

log = logging.getLogger(__name__)

_WD = "http://www.wikidata.org/entity/"


def qald_examples(store, *, notation: str = "label", el: str = "hybrid", path=None) -> list:
    """Training examples (:class:`cnl.learn.examples.Example`, ``record`` None) from QALD-9-plus
    train, labelled and linked over the embedded ``store`` (a path or an open KG)."""
    from cnl.sparql.decompile import decompile_to_ir, with_labels
    from cnl.datasets.paths import data_file
    from cnl.datasets.properties import data_property_labels
    from cnl.learn.examples import Example, _has_unlabelled_term, _property_labels, _term_ids, build_prompt
    from cnl.kg import open_kg
    from cnl.linking.indices import indices_for_store
    from cnl.linking.linker import BuiltinLinker
    from cnl.dialects.squall.printer import print_squall

    rows = json.loads((path or data_file("benchmarks", "qald9plus_train.json")).read_text("utf-8"))
    decompiled = []
    for row in rows:
        try:
            query, _options = decompile_to_ir(row["sparql"])
        except CNLError:
            continue
        decompiled.append((row, query))
    kg = open_kg(store=store) if not hasattr(store, "labels") else store
    needed = {_WD + qid for row, _ in decompiled for qid in re.findall(r"\bwd:(Q[0-9]+)", row["sparql"])}
    labels = {iri[len(_WD):]: label for iri, label in kg.labels(needed).items()}
    labels.update(_property_labels()["labels"])
    labels.update(data_property_labels())
    linker = None
    if el in ("implicit", "hybrid"):
        index, _ = indices_for_store(store, verbose=False)
        linker = BuiltinLinker(index)
    examples = []
    for row, query in decompiled:
        labelled = with_labels(query, labels)
        if notation == "label" and _has_unlabelled_term(labelled):
            continue
        try:
            text = print_squall(labelled, "label", id_labels=True) if notation == "label" \
                else print_squall(query, "id", id_labels=False)
        except CNLError:
            continue
        candidates = linker.link(row["question"]) if linker else []
        examples.append(Example(
            question=row["question"],
            prompt=build_prompt(row["question"], candidates, el=el, target="squall", notation=notation),
            completion=" ".join(text.split()), record=None, gold_sparql=row["sparql"],
            mapping=_term_ids(labelled), target="squall", notation=notation, el=el))
    log.info("QALD-9-plus: %d of %d queries as SQUALL targets", len(examples), len(rows))
    return examples


__all__ = ["qald_examples"]
