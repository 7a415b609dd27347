"""The real-data test of the Sparklis dialect: every Sparklis string of the ECAI data, parsed,
aligned with its gold query (the same alignment as for SQUALL), compiled with the
ECAI-compatible profile and compared with the normalized gold by the equivalence checker.

Rejected strings are split into *malformed* (a corrupted term, a property shown without its
``<P…>`` term where the grammar cannot tell it from the value, text that is not a Sparklis
verbalization) and the rest; the acceptance figure counts the well-formed ones.
"""
from __future__ import annotations

import re

from cnl.sparql.equivalence import equivalent
from cnl.datasets.ecai.preset import ECAI_SPARKLIS_PROFILE
from cnl.datasets.ecai.loader import EcaiRecord, load_all, normalize_gold_sparql
from cnl.datasets.ecai.squall_check import RecordResult, classify_mismatch, compare_with_gold
from cnl.datasets.ecai.properties import property_labels
from cnl.errors import CNLError, CNLSyntaxError
from cnl.dialects.sparklis.parser import parse_sparklis

# Why a rejected string is not a well-formed Sparklis verbalization (checked in order).
_MALFORMED = [
    (re.compile(r"<[^<>]*<"), "corrupted property term ('<' inside '<...>')"),
    (re.compile(r"\bgive (?:me|us) (?:every )?(?:(?!that\b)[a-z]+ )*?[A-Z][\w.]* [^<]*\bhas\b"),
     "'give me every C' followed by a sentence about a named entity (two questions pasted)"),
    (re.compile(r"\b(?:has|with|that) (?:as )?an? (?:member|part(?:\(s\))?|mother|platform|genre|residence|enemy|"
                r"first appearance|tracklist|cause of death|number of pages|significant event|participant|net|"
                r"part of the series|sports season of league)\b|\bwith (?:valid in place|platform|parliamentary group|name of)\b|"
                r"\bhas a cause of\b|\bnot has as a Commons category\b|\bpart(?:\(s\))? count\b|\bmember count\b"),
     "a property shown by its bare label where the value follows it (no <P…> term to end it)"),
    (re.compile(r"\bhas as an? (?!<)[a-z][a-z]+ (?!that)|\bis the [a-z]+ [a-z]+ with\b|\bhas the highest-to-lowest [a-z]|"
                r"-to-<|^\s*nan\s*$"),
     "a property shown by its bare label where the value follows it, or a damaged term"),
    (re.compile(r"\bwhere (?:``|[0-9])|\bwhere the year of the <[^>]*> [0-9]|\bFilter\b|\bfilter$|"
                r"\bgive me [0-9]|\bthe year of [0-9]|\bthe (?:1st|2nd) <|\bminimal\b|\bfor each\b"),
     "a filter or aggregate Sparklis does not verbalize this way (constant test, missing operator, ...)"),
    (re.compile(r"\bthe year of the <[^>]*> the year of\b"),
     "two values side by side with no operator between them ('the year of A the year of B')"),
    (re.compile(r"\bhas as an? <P\d+[^>]*> <P\d+|\w<P\d+:[^>]*>\w"),
     "a property term where an entity should be, or pasted inside a word ('Massach<P366:use>tts')"),
    (re.compile(r"\bwhose\b|\bthat [A-Z][\w ]* is <|\bthere is\b|\band not\b|somethingthat|<P10:video> game|"
                r"\bgive us\b|\bHuman Madonna\b|\bnet <|\bor Lover\b|"
                r"<P106:occupation> film <P57"), "not a Sparklis verbalization (SQUALL words, typos, merged words)"),
]


def malformed_reason(text: str) -> str | None:
    for pattern, reason in _MALFORMED:
        if pattern.search(text):
            return reason
    return None


def check_record(record: EcaiRecord) -> RecordResult:
    text = record.sparklis or ""
    try:
        query = parse_sparklis(text, properties=property_labels(),
                               entities=[c.label for c in record.candidates])
    except CNLSyntaxError as err:
        reason = str(err).splitlines()[0]
        malformed = malformed_reason(text)
        return RecordResult(record, "rejected", reason, "malformed" if malformed else "parser gap",
                            extra={"malformed": malformed})
    return compare_with_gold(record, query, classify_sparklis_mismatch, ECAI_SPARKLIS_PROFILE)


def classify_sparklis_mismatch(record, query, sparql, gold, alignment, cause):
    if _limit_only(sparql, gold):
        return "gold convention", ("the gold adds a LIMIT to a Sparklis ordering (highest-to-lowest "
                                   "keeps every answer)")
    return classify_mismatch(record, query, sparql, gold, alignment, cause)


_LIMIT = re.compile(r"\s+(?:OFFSET\s+\d+\s+)?LIMIT\s+\d+\s*$", re.I)


def _limit_only(sparql: str, gold: str) -> bool:
    """Equal once the gold's trailing LIMIT goes (squall2sparql writes 'the highest' as
    ORDER BY ... LIMIT 1; Sparklis' highest-to-lowest has no limit)."""
    if "ORDER BY" not in sparql or "LIMIT" in sparql:
        return False
    stripped = _LIMIT.sub("\n", gold)
    if stripped == gold:
        return False
    try:
        return equivalent(sparql, stripped)
    except CNLError:
        return False


def gold_usable(record: EcaiRecord) -> bool:
    """Whether the record's gold SPARQL normalizes into a query (the comparison's denominator)."""
    if record.sparql_raw is None:
        return False
    try:
        normalize_gold_sparql(record.sparql_raw)
    except CNLError:
        return False
    return True


def check_all(records=None) -> list[RecordResult]:
    return [check_record(r) for r in (records if records is not None else load_all())]
