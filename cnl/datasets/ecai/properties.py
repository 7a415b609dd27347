"""The ECAI data's property lexicon: the labels under which Wikidata properties appear in the
data (``cnl_kgqa/id_to_prop.json``: 1,877 PIDs, some under labels Wikidata has since changed),
merged with Wikidata's (the list shipped in :mod:`cnl.sparql.wikidata_properties`). Reports
and evaluations of the ECAI data use it; the library itself knows only Wikidata's."""
from __future__ import annotations

import json
from functools import lru_cache

from cnl.datasets.paths import data_file
from cnl.sparql.wikidata_properties import known_property_labels as wikidata_known_labels
from cnl.sparql.wikidata_properties import property_labels as wikidata_property_labels
from cnl.sparql.wikidata_properties import with_has_forms


@lru_cache(maxsize=1)
def data_property_labels() -> dict[str, str]:
    """PID -> label as the ECAI data writes it (``P57`` -> ``director``)."""
    return {pid: label.replace("_", " ")
            for pid, label in json.loads(data_file("cnl_kgqa", "id_to_prop.json").read_text("utf-8")).items()}


@lru_cache(maxsize=1)
def property_labels() -> dict[str, str]:
    """Lower-case property label -> PID: Wikidata's, with the data's own labels winning (and,
    as Sparklis shows them, their forms without a leading "has ")."""
    labels = dict(wikidata_property_labels(has_forms=False))
    for pid, label in data_property_labels().items():
        labels[label.lower()] = pid
    return with_has_forms(labels)


@lru_cache(maxsize=1)
def known_property_labels() -> tuple[str, ...]:
    """Every label a property may be written with in this data: Wikidata's labels and aliases
    and the data's own labels (what constrained decoding allows when evaluating on it)."""
    return tuple(sorted(set(wikidata_known_labels()) | set(property_labels())))
