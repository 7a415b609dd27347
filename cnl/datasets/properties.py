"""The data's property lexicon: the labels under which Wikidata properties appear in the ECAI
data (``cnl_kgqa/id_to_prop.json``) and in Wikidata (``wikidata/properties.json``), for
reading Sparklis strings that show a property by its bare label."""
from __future__ import annotations

import json
from functools import lru_cache

from cnl.datasets.paths import data_file


@lru_cache(maxsize=1)
def wikidata_properties() -> list[dict]:
    """The rows of ``wikidata/properties.json`` (id, label, description, aliases), read once."""
    return json.loads(data_file("wikidata", "properties.json").read_text("utf-8"))


@lru_cache(maxsize=1)
def property_labels() -> dict[str, str]:
    """Lower-case property label -> PID. The data's own labels win over Wikidata's; Sparklis
    drops a leading "has " ("has part(s)" is shown "part(s)"), so that form is listed too."""
    labels: dict[str, str] = {}
    for prop in wikidata_properties():
        if prop.get("label"):
            labels[prop["label"].lower()] = prop["id"]
    for pid, label in data_property_labels().items():
        labels[label.lower()] = pid
    for label, pid in list(labels.items()):
        if label.startswith("has "):
            labels.setdefault(label[len("has "):], pid)
    return labels


@lru_cache(maxsize=1)
def data_property_labels() -> dict[str, str]:
    """PID -> label as the ECAI data writes it (``P57`` -> ``director``)."""
    return {pid: label.replace("_", " ")
            for pid, label in json.loads(data_file("cnl_kgqa", "id_to_prop.json").read_text("utf-8")).items()}


@lru_cache(maxsize=1)
def known_property_labels() -> tuple[str, ...]:
    """Every label a property may be written with: Wikidata's labels and aliases, the ECAI
    data's labels, and the forms without a leading "has " (what constrained decoding lets a
    model write inside ``<...>``)."""
    labels = set(property_labels())
    for prop in wikidata_properties():
        labels.update(alias.lower() for alias in prop.get("aliases", ()) if alias)
    return tuple(sorted(labels))
