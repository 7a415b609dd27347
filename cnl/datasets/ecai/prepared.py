"""The ECAI records prepared once per split: the SQUALL annotation parsed, the gold SPARQL
normalized, and the two aligned (which ID each label of the annotation names in the gold).

Training targets (:mod:`cnl.learn.examples`), the evaluation grid (:mod:`cnl.eval.examples`)
and the evaluation resolvers (:mod:`cnl.datasets.ecai.resolution`) are built on these."""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

from cnl import ir
from cnl.datasets.ecai.alignment import MappingResolver, align
from cnl.datasets.ecai.loader import EcaiRecord, load_ecai, normalize_gold_sparql
from cnl.datasets.ecai.preset import ECAI_PROFILE
from cnl.datasets.ecai.properties import data_property_labels
from cnl.dialects.squall.parser import parse_squall
from cnl.errors import CNLError
from cnl.sparql.wikidata_properties import property_names
from cnl.sparql.compiler import compile_query
from cnl.sparql.equivalence import equivalent


@dataclass
class PreparedRecord:
    record: EcaiRecord
    query: ir.Query | None  # the parsed SQUALL annotation
    gold: str | None        # the normalized gold SPARQL, None when unusable
    mapping: dict           # (kind, label) -> ID: the annotation's own IDs and the alignment's
    aligned: bool
    reason: str = ""
    alignment: dict = field(default_factory=dict)  # (kind, label) -> ID found by aligning with the gold


@functools.lru_cache(maxsize=4)
def prepared(split: str) -> tuple[PreparedRecord, ...]:
    """Every record of a split, prepared (parsing and aligning all 550 takes seconds: cached)."""
    out = []
    for record in load_ecai(split):
        gold = None
        if record.sparql_raw:
            try:
                gold = normalize_gold_sparql(record.sparql_raw)
            except CNLError:
                gold = None
        try:
            query = parse_squall(record.squall)
        except CNLError as err:
            out.append(PreparedRecord(record, None, gold, {}, False,
                                      f"SQUALL does not parse: {str(err).splitlines()[0]}"))
            continue
        mapping = ir.labelled_ids(query)
        if gold is None:
            out.append(PreparedRecord(record, query, None, mapping, False, "no usable gold SPARQL"))
            continue
        try:
            alignment = align(query, gold, record.candidates)
        except CNLError as err:
            out.append(PreparedRecord(record, query, gold, mapping, False, f"alignment failed: {err}"))
            continue
        mapping.update(alignment.mapping)
        reason = f"unaligned labels {alignment.unmatched}" if alignment.unmatched else ""
        out.append(PreparedRecord(record, query, gold, mapping, not alignment.unmatched, reason,
                                  dict(alignment.mapping)))
    return tuple(out)


def aligned_records(split: str) -> list[PreparedRecord]:
    """The prepared records of a split whose SQUALL parses and aligns fully with the gold."""
    return [prep for prep in prepared(split) if prep.aligned]


def annotation_agrees(prep: PreparedRecord) -> bool:
    """Whether the SQUALL annotation compiles to a query equivalent to the gold."""
    if not (prep.aligned and prep.query is not None and prep.gold):
        return False
    try:
        return bool(equivalent(compile_query(prep.query, ECAI_PROFILE, MappingResolver(prep.mapping)), prep.gold))
    except CNLError:
        return False


@functools.lru_cache(maxsize=4)
def split_id_labels(split: str) -> dict:
    """ID -> label over a split's alignments (annotation labels: classes such as [film] and
    [human] are written there), for IDs a record's own SQUALL and candidates do not name."""
    out: dict = {}
    for prep in prepared(split):
        for (_kind, label), ident in prep.alignment.items():
            out.setdefault(ident.lstrip("^"), label)
    return out


_RAW_PROPERTY = re.compile(r"<(P[0-9]+):([^<>\s]+)>")


def id_labels_for(prep: PreparedRecord) -> dict:
    """ID -> label for printing a record's gold in the label notation: its own annotation's
    labels first, then the labels the raw gold writes for properties, its candidates, the
    data's property list, the rest of the split, and Wikidata's property labels."""
    labels = {ident.lstrip("^"): label for (_kind, label), ident in prep.mapping.items()}
    for m in _RAW_PROPERTY.finditer(prep.record.sparql_raw or ""):
        labels.setdefault(m.group(1), m.group(2).replace("_", " "))
    for c in prep.record.candidates:
        labels.setdefault(c.id, c.label)
    for source in (data_property_labels(), split_id_labels(prep.record.split), property_names()):
        for ident, label in source.items():
            labels.setdefault(ident, label)
    return labels
