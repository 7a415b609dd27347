"""WikiWebQuestions as CNL targets: each gold query the decompiler can express, printed in a
dialect and notation, with labels from (in this order) a KG's ``rdfs:label`` (the Wikidata
slice, so that a label the model learns to write is one the store resolves), the data's own
entity labels and names, and Wikidata's property labels (the list shipped with the package).

A target is kept only if its text, parsed and compiled again with its own labels, is
equivalent to the gold under the options the decompiler reads from the gold (``TargetReport``
records why every other question is left out). ``preset_equivalent`` says whether it is also
equivalent under the data's preset ``wikidata-wwq``, the profile its evaluation compiles with
(82 golds test classes with plain ``wdt:P31``, the rest with ``wdt:P31/wdt:P279*``).

Re-running the builder picks up whatever the decompiler learns to express."""
from __future__ import annotations

import logging
import re
from collections import Counter
from dataclasses import dataclass, field

from cnl import ir
from cnl.datasets.targets import CNLTarget
from cnl.datasets.wwq.loader import WWQRecord
from cnl.datasets.wwq.preset import WWQ_PROFILE
from cnl.dialects import get_dialect
from cnl.errors import CNLError, SPARQLParseError, UnsupportedSPARQLError
from cnl.linking.resolver import ChainResolver
from cnl.sparql.compiler import compile_query
from cnl.sparql.decompile import check_says, decompile_to_ir, with_labels
from cnl.sparql.equivalence import equivalent
from cnl.sparql.namespaces import WD
from cnl.sparql.wikidata_properties import property_names

log = logging.getLogger(__name__)

_WD_ID = re.compile(r"\bwd:(Q[0-9]+)\b")


@dataclass(frozen=True)
class WWQTarget(CNLTarget):
    preset_equivalent: bool = True   # also equivalent to the gold under wikidata-wwq
    options: dict = field(default_factory=dict, compare=False)  # the gold's profile options


@dataclass
class TargetReport:
    """How many records became targets, and why the others did not (reason -> count)."""
    records: int = 0
    targets: int = 0
    preset_equivalent: int = 0
    reasons: Counter = field(default_factory=Counter)
    examples: dict = field(default_factory=dict)    # reason -> one record id

    def refuse(self, record: WWQRecord, reason: str) -> None:
        self.reasons[reason] += 1
        self.examples.setdefault(reason, record.id)


def kg_labels(kg, records) -> dict[str, str]:
    """QID -> ``rdfs:label`` in ``kg`` of every item the records' gold queries name."""
    needed = {WD + qid for r in records for qid in _WD_ID.findall(r.sparql)}
    return {iri[len(WD):]: label for iri, label in kg.labels(needed).items()}


def label_table(record: WWQRecord, store_labels: dict | None = None) -> dict[str, str]:
    """ID -> label for one record: the store's labels, the record's own, Wikidata's property labels."""
    labels = dict(property_names())
    labels.update(record.labels())
    labels.update(store_labels or {})
    return labels


def build_target(record: WWQRecord, store_labels: dict | None = None, *, dialect: str = "squall",
                 notation: str = "label") -> tuple[WWQTarget | None, str]:
    """(target, "") or (None, the reason there is none)."""
    try:
        query, options = decompile_to_ir(record.sparql)
        speaker = get_dialect(dialect)
        check_says(speaker, query, options)
    except UnsupportedSPARQLError as err:
        return None, f"no CNL form: {err.construct}"
    except SPARQLParseError as err:
        return None, f"gold is not valid SPARQL: {str(err).splitlines()[0][:60]}"
    except CNLError as err:
        return None, f"decompiler error: {str(err).splitlines()[0][:60]}"
    labelled = with_labels(query, label_table(record, store_labels))
    if notation == "label" and ir.has_unlabelled_term(labelled):
        return None, "a term without a label"
    try:
        if notation == "label":
            text = speaker.print(speaker.printable(labelled), "label", id_labels=True)
        else:
            text = speaker.print(speaker.printable(query), "id", id_labels=False)
    except CNLError as err:
        return None, f"cannot print: {str(err).splitlines()[0][:60]}"
    text = " ".join(text.split())
    mapping = ir.labelled_ids(labelled)
    resolver = ChainResolver(ChainResolver.table((k, label, i) for (k, label), i in mapping.items()),
                             cross_kinds=False)
    try:
        back = speaker.parse(text, notation=notation)
        own = equivalent(compile_query(back, "wikidata", resolver, **options), record.sparql)
        preset = own and equivalent(compile_query(back, WWQ_PROFILE, resolver), record.sparql)
    except CNLError as err:
        return None, f"does not read back: {str(err).splitlines()[0][:60]}"
    if not own:
        return None, "reads back as another query (two terms share a label, ...)"
    return WWQTarget(record.question, text, record.sparql, mapping, f"wwq:{record.id}",
                     preset_equivalent=preset, options=options), ""


def wwq_targets(records, kg=None, *, dialect: str = "squall", notation: str = "label",
                report: TargetReport | None = None) -> list[WWQTarget]:
    """The targets of ``records`` (labels from ``kg`` first when given: an open KG of the
    Wikidata slice); ``report`` collects the counts and reasons."""
    records = list(records)
    store_labels = kg_labels(kg, records) if kg is not None else {}
    report = report if report is not None else TargetReport()
    out = []
    for record in records:
        report.records += 1
        target, reason = build_target(record, store_labels, dialect=dialect, notation=notation)
        if target is None:
            report.refuse(record, reason)
            continue
        report.targets += 1
        report.preset_equivalent += target.preset_equivalent
        out.append(target)
    log.info("WikiWebQuestions: %d of %d queries as %s/%s targets", len(out), len(records), dialect, notation)
    return out
