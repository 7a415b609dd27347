"""The real-data test of the compiler: every SQUALL string of the ECAI data, parsed, aligned
with its gold query, compiled, and compared with the normalized gold by the equivalence
checker. Each mismatch gets a one-line cause, marked as a gold error or a compiler gap.
"""
from __future__ import annotations

import collections
import re
from dataclasses import dataclass, field

from cnl.sparql.equivalence import equivalent, explain_difference
from cnl.sparql.compiler import SparqlCompiler
from cnl.datasets.ecai.alignment import MappingResolver, align, query_triples
from cnl.datasets.ecai.preset import ECAI_PROFILE
from cnl.datasets.ecai.loader import EcaiRecord, load_all, normalize_gold_sparql
from cnl.errors import CNLError, CNLSyntaxError
from cnl.dialects.squall.parser import parse_squall

_ID = re.compile(r"\b(?:wd|p|ps|pq|wdt):([PQ][0-9]+)\b")


@dataclass
class RecordResult:
    record: EcaiRecord
    status: str                 # equivalent | mismatch | rejected | no-gold
    cause: str = ""
    kind: str = ""              # "gold error" | "compiler gap" | "" (equivalent)
    sparql: str | None = None
    gold: str | None = None
    extra: dict = field(default_factory=dict)


def _gold_ids(gold: str) -> set[str]:
    body = gold[gold.index("{"):] if "{" in gold else gold
    return set(_ID.findall(body)) - {"P31"}


def _own_ids(sparql: str) -> set[str]:
    return _gold_ids(sparql)


def check_record(record: EcaiRecord) -> RecordResult:
    try:
        query = parse_squall(record.squall)
    except CNLSyntaxError as err:
        reason = err.hint or err.reason
        if err.token:
            reason += f" (at {err.token!r}, column {err.column})"
        return RecordResult(record, "rejected", reason, "malformed SQUALL")
    return compare_with_gold(record, query)


def compare_with_gold(record: EcaiRecord, query, classify=None, profile=ECAI_PROFILE) -> RecordResult:
    """Align a parsed query (any dialect) with the record's gold, compile it with the
    ECAI-compatible profile (or ``profile``) and compare; ``classify(record, query, sparql,
    gold, alignment, cause) -> (kind, cause)`` names a mismatch (default: :func:`classify_mismatch`)."""
    if record.sparql_raw is None:
        return RecordResult(record, "no-gold", "the data has no SPARQL for this question", "no usable gold")
    try:
        gold = normalize_gold_sparql(record.sparql_raw)
    except CNLError as err:
        return RecordResult(record, "no-gold", f"gold SPARQL unusable: {err}", "no usable gold")
    try:
        alignment = align(query, gold, record.candidates)
    except CNLError as err:
        return RecordResult(record, "mismatch", f"compile error: {err}", "compiler gap", gold=gold)
    if alignment.unmatched:
        labels = ", ".join(f"{k}:{lab!r}" for k, lab in alignment.unmatched)
        return RecordResult(record, "mismatch", f"label(s) not in the gold query nor the candidates: {labels}",
                            "gold error", gold=gold)
    try:
        sparql = SparqlCompiler(profile, MappingResolver(alignment.mapping)).compile(query)
    except CNLError as err:
        return RecordResult(record, "mismatch", f"compile error: {err}", "compiler gap", gold=gold)
    if equivalent(sparql, gold):
        return RecordResult(record, "equivalent", sparql=sparql, gold=gold)
    cause = explain_difference(sparql, gold) or "differs"
    kind, cause = (classify or classify_mismatch)(record, query, sparql, gold, alignment, cause)
    return RecordResult(record, "mismatch", cause, kind, sparql=sparql, gold=gold)


_SELECT_HEAD = re.compile(r"SELECT\s+(?:DISTINCT\s+|REDUCED\s+)?([^{]*?)\s*WHERE", re.I | re.S)
_LIMITS = re.compile(r"\b(?:LIMIT|OFFSET)\s+\d+", re.I)


def _relaxed(sparql: str) -> str | None:
    """The query with ``SELECT *`` and no LIMIT/OFFSET (None for aggregates)."""
    match = _SELECT_HEAD.search(sparql)
    if match is None or "(" in match.group(1):
        return None
    return _LIMITS.sub("", sparql[: match.start()] + "SELECT * WHERE" + sparql[match.end():])


def classify_mismatch(record, query, sparql, gold, alignment, cause) -> tuple[str, str]:
    """Whose problem a mismatch is. "gold error": the gold query does not say what the SQUALL
    says (other entities/properties, another question form, another ordering or operator).
    "gold convention": the same graph pattern, but other answer columns or LIMIT.
    "compiler gap": everything else."""
    ours, theirs = _own_ids(sparql), _gold_ids(gold)
    if ours != theirs:
        only_ours, only_gold = sorted(ours - theirs), sorted(theirs - ours)
        return "gold error", f"gold mentions other IDs (only ours: {only_ours}, only gold: {only_gold})"
    if ("COUNT(" in sparql) != ("COUNT(" in gold.upper()):
        return "gold error", "one query counts and the other does not: " + cause
    if any(s == "candidates" for s in alignment.source.values()):
        return "gold error", "a label is absent from the gold query (aligned from the candidates)"
    if cause.startswith(("query form differs", "ORDER BY differs", "pattern structure differs: only in first: BIND, AGGREGATE")):
        return "gold error", cause
    relaxed_ours, relaxed_gold = _relaxed(sparql), _relaxed(gold)
    if relaxed_ours and relaxed_gold:
        try:
            if equivalent(relaxed_ours, relaxed_gold):
                return "gold convention", cause
        except CNLError:
            pass
    if "pq:" in cause and " p:" in cause:
        return "gold error", "SQUALL states a property where the gold qualifies a statement: " + cause
    if "xsd:dateTime" in cause and "T00:00:00Z" not in gold:
        return "gold error", "gold uses an invalid xsd:dateTime literal: " + cause
    if cause.startswith("FILTER differs"):
        return "gold error", cause
    if "wdt:P31" in cause and ("only in second: -" in cause or "only in first: -" in cause):
        return "gold error", "the class test differs: " + cause
    if "AGG_COUNT(True" in cause and "AGG_COUNT(False" in cause:
        return "gold convention", "COUNT vs COUNT(DISTINCT)"
    if gold.upper().count("YEAR(") > sparql.upper().count("YEAR("):
        return "gold error", "the gold compares or orders years where the SQUALL uses the full value: " + cause
    if _flipped_comparison_matches(sparql, gold):
        return "gold error", "the gold compares the other way round (operands swapped)"
    if _matches_without(sparql, gold, _LABEL_TRIPLE):
        return "gold convention", "the gold adds an rdfs:label column: " + cause
    extra_filter = _matches_without(sparql, gold, _FILTER)
    if extra_filter:
        return "gold error", f"the gold adds a condition the annotation does not state: {extra_filter}"
    if _BOOLEAN_BIND.search(gold) and "BIND" not in sparql:
        return "gold error", "the gold returns the comparison as a true/false column where the annotation filters"
    only_ours = sorted(_quoted(sparql) - _quoted(gold))
    if only_ours:
        return "gold error", f"the gold lacks the annotation's value(s) {', '.join(only_ours)}: " + cause
    return "compiler gap", cause


_LABEL_TRIPLE = re.compile(r"\?\w+\s+rdfs:label\s+(\?\w+)\s*\.?")
_FILTER = re.compile(r"FILTER\s*\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)", re.I)
_BOOLEAN_BIND = re.compile(r"BIND\s*\(\s*\([^()]*(?:\([^()]*\)[^()]*)*[<>=][^()]*(?:\([^()]*\)[^()]*)*\)\s+AS", re.I)
_QUOTED = re.compile(r'"([^"\\]*)"|\'([^\'\\]*)\'')


def _quoted(sparql: str) -> set[str]:
    """The query's quoted values, casefolded (the test split's gold is lower-cased), REGEX
    flags aside."""
    values = {(a or b).casefold() for a, b in _QUOTED.findall(sparql)}
    for flags in re.findall(r"REGEX\s*\([^()]*(?:\([^()]*\)[^()]*)*,\s*[\"']([a-z]*)[\"']\s*\)", sparql, re.I):
        values.discard(flags.casefold())
    return values


def _matches_without(sparql: str, gold: str, pattern: re.Pattern) -> str | None:
    """The part of the gold (a match of ``pattern``; a variable it binds leaves the answer
    columns too) without which the gold equals our query, answer columns and LIMIT aside."""
    relaxed_ours = _relaxed(sparql)
    if relaxed_ours is None:
        return None
    for match in pattern.finditer(gold):
        trimmed = gold[: match.start()] + gold[match.end():]
        if match.groups():
            column = re.escape(match.group(1)) + r"\b"
            trimmed = re.sub(r"(SELECT\s+(?:DISTINCT\s+)?[^{]*?)\s*" + column, r"\1", trimmed, count=1)
        relaxed_gold = _relaxed(trimmed)
        try:
            if relaxed_gold and equivalent(relaxed_ours, relaxed_gold):
                return match.group(0)
        except CNLError:
            continue
    return None


_COMPARISON = re.compile(r"FILTER\((\?\w+) (<|>|<=|>=) (\?\w+)\)")


def _flipped_comparison_matches(sparql: str, gold: str) -> bool:
    """Whether our query with the operands of its one comparison swapped equals the gold."""
    found = _COMPARISON.findall(sparql)
    if len(found) != 1:
        return False
    left, op, right = found[0]
    flipped = _COMPARISON.sub(f"FILTER({right} {op} {left})", sparql)
    try:
        return bool(equivalent(flipped, gold))
    except CNLError:
        return False


def check_all(records: list[EcaiRecord] | None = None) -> list[RecordResult]:
    return [check_record(r) for r in (records if records is not None else load_all())]


__all__ = ["check_all", "check_record", "RecordResult", "query_triples"]


def other_annotation_verdicts(results: list[RecordResult], other: list[RecordResult]) -> collections.Counter:
    """For each gold error in ``results`` (one annotation, SQUALL or Sparklis), what the same
    question's other annotation gives against the same gold: "equivalent" (the gold says what
    the other annotation says, so no compiler of this one can match it), "gold convention"
    (the same up to LIMIT 1 or answer columns), or anything else. The ECAI golds were written
    for one of the two annotations; this measures how often it was the other one."""
    by_key = {(r.record.split, r.record.index): r for r in other}
    verdicts: collections.Counter = collections.Counter()
    for r in results:
        if r.status == "mismatch" and r.kind == "gold error":
            o = by_key.get((r.record.split, r.record.index))
            verdicts[o.status if o is None or o.status != "mismatch" else o.kind] += 1
    return verdicts
