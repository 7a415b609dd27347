"""Wikidata's properties (9,539: id, label, aliases, description, datatype), shipped with the
package (``data/wikidata_properties.json.gz``, a 2022-01 snapshot from wvanderp/wikidata-properties,
MIT; Wikidata is CC0; rebuilt by ``scripts/build_property_list.py``).

They are the Wikidata profile's property vocabulary where no store is at hand: property
labels in label-notation CNL (``<director>``), bare property labels in Sparklis text, the
labels constrained decoding lets a model write inside ``<...>``, and property candidates for
prompts."""
from __future__ import annotations

import gzip
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

SHIPPED = Path(__file__).resolve().parent / "data" / "wikidata_properties.json.gz"


@dataclass(frozen=True)
class WikidataProperty:
    id: str
    label: str
    aliases: tuple[str, ...]
    description: str
    datatype: str


@lru_cache(maxsize=1)
def wikidata_properties() -> tuple[WikidataProperty, ...]:
    """Every property of the shipped list, in the source file's order."""
    rows = json.loads(gzip.decompress(SHIPPED.read_bytes()).decode("utf-8"))
    return tuple(WikidataProperty(pid, label, tuple(aliases), description, datatype)
                 for pid, label, aliases, description, datatype in rows)


@lru_cache(maxsize=1)
def property_names() -> dict[str, str]:
    """PID -> label (``P57`` -> ``director``)."""
    return {p.id: p.label for p in wikidata_properties() if p.label}


@lru_cache(maxsize=2)
def property_labels(has_forms: bool = True) -> dict[str, str]:
    """Lower-case label -> PID (where two properties share a label, the later one). With
    ``has_forms``, also each label without a leading "has ", as Sparklis shows it ("has part(s)"
    is shown "part(s)")."""
    labels = {prop.label.lower(): prop.id for prop in wikidata_properties() if prop.label}
    return with_has_forms(labels) if has_forms else labels


def with_has_forms(labels: dict[str, str]) -> dict[str, str]:
    """``labels`` plus, for each label starting with "has ", the rest of it (unless taken)."""
    out = dict(labels)
    for label, pid in labels.items():
        if label.startswith("has "):
            out.setdefault(label[len("has "):], pid)
    return out


@lru_cache(maxsize=1)
def property_names() -> dict[str, str]:
    """PID -> label."""
    return {prop.id: prop.label for prop in wikidata_properties()}


@lru_cache(maxsize=1)
def known_property_labels() -> tuple[str, ...]:
    """Every label a property may be written with (sorted): labels and aliases as Wikidata
    writes them and lower-cased, and the forms without a leading "has ". What constrained
    decoding lets a model write inside ``<...>``."""
    labels = set(property_labels())
    for prop in wikidata_properties():
        for name in (prop.label, *prop.aliases):
            if name:
                labels.update((name, name.lower()))
    return tuple(sorted(labels))


@lru_cache(maxsize=1)
def identifier_labels() -> frozenset[str]:
    """Lower-case labels and aliases that name external-identifier properties only ("IMDb ID",
    "ISNI"; 6,734 of the 9,539 properties). Questions rarely ask for an identifier: 1 of about
    3,700 property uses in WikiWebQuestions' gold queries, none in QALD-9-plus's."""
    identifier, other = set(), set()
    for prop in wikidata_properties():
        names = {name.lower() for name in (prop.label, *prop.aliases) if name}
        (identifier if prop.datatype == "ExternalId" else other).update(names)
    return frozenset(identifier - other)
