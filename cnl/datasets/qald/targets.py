"""QALD-9-plus as SQUALL targets: each query the decompiler can express, printed with labels
(Wikidata IDs named from a store's ``rdfs:label``, properties from the property lists); a query
with a term no label is known for is left out, since a model cannot learn to write
``<Q56244641>``."""
from __future__ import annotations

import json
import logging
import re

from cnl import ir
from cnl.datasets.ecai.properties import data_property_labels
from cnl.datasets.paths import data_file
from cnl.datasets.targets import CNLTarget
from cnl.dialects.squall.printer import print_squall
from cnl.errors import CNLError
from cnl.sparql.wikidata_properties import property_names
from cnl.sparql.decompile import decompile_to_ir, with_labels
from cnl.sparql.namespaces import WD

log = logging.getLogger(__name__)


def load_rows(path=None) -> list[dict]:
    """The data set's rows (``id``, ``question``, ``sparql``)."""
    return json.loads((path or data_file("benchmarks", "qald9plus_train.json")).read_text("utf-8"))


def squall_targets(kg, *, notation: str = "label", path=None) -> list[CNLTarget]:
    """SQUALL targets of QALD-9-plus train, labelled from ``kg`` (an open KG with the data's
    entities' ``rdfs:label``s)."""
    rows = load_rows(path)
    decompiled = []
    for row in rows:
        try:
            query, _options = decompile_to_ir(row["sparql"])
        except CNLError:
            continue
        decompiled.append((row, query))
    needed = {WD + qid for row, _ in decompiled for qid in re.findall(r"\bwd:(Q[0-9]+)", row["sparql"])}
    labels = {iri[len(WD):]: label for iri, label in kg.labels(needed).items()}
    labels.update(property_names())
    labels.update(data_property_labels())
    targets = []
    for row, query in decompiled:
        labelled = with_labels(query, labels)
        if notation == "label" and ir.has_unlabelled_term(labelled):
            continue
        try:
            text = print_squall(labelled, "label", id_labels=True) if notation == "label" \
                else print_squall(query, "id", id_labels=False)
        except CNLError:
            continue
        targets.append(CNLTarget(row["question"], " ".join(text.split()), row["sparql"],
                                 ir.labelled_ids(labelled), f"qald:{row.get('id', '')}"))
    log.info("QALD-9-plus: %d of %d queries as SQUALL targets", len(targets), len(rows))
    return targets
