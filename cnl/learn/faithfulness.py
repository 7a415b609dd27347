"""Whether a reading uses what the question names: a query that leaves out a name the question
gives ("How many people live in Paris?" read as ``How many [human] are there?``) answers another
question, and its answer misleads more than an empty one. The parser does not decline such a
reading (it may be the best there is); the user is told, beside the reading, so that they can
correct it (``cnl2sparql run``).

Only proper names count: words of the question written with a capital (not its first word) that
the linker links with a likelihood of at least :data:`NAMED_LIKELIHOOD`; a common noun ("people",
"area", "use") may rightly become a class, a property or nothing."""
from __future__ import annotations

import re

# the linker's likelihood from which a capitalised mention is a name the question gives
NAMED_LIKELIHOOD = 0.8

# the words inside a reading's terms ([label], <label>, <Q1:label>)
_TERMS = re.compile(r"\[([^\]]*)\]|<([^<>]*)>")
_ENTITY_IDS = re.compile(r"\bwd:(Q[0-9]+)\b|<http://www\.wikidata\.org/entity/(Q[0-9]+)>")


def unused_names(question: str, candidates, sparql: str | None, cnl: str | None = None) -> list[str]:
    """A warning for each proper name of ``question`` that no item of ``sparql`` is a reading of:
    none of the entity ``candidates`` (dicts with ``id``, ``label``, ``mention``, ``probability``)
    linked from its words is in the query, and none of its capitalised words is a word of a term
    of the reading ``cnl`` (a name inside another's: "the United States" in
    ``[President of the United States of America]``, "Games" in ``[The Hunger Games]``). Empty
    without a query."""
    if not sparql:
        return []
    used = {a or b for a, b in _ENTITY_IDS.findall(sparql)}
    written = set(" ".join(a or b for a, b in _TERMS.findall(cnl or "")).replace("_", " ").replace(":", " ").split())
    by_mention: dict[str, list[dict]] = {}
    for c in candidates or ():
        if c.get("mention") and c.get("id"):
            by_mention.setdefault(c["mention"], []).append(c)
    warnings = []
    for mention, readings in by_mention.items():
        best = max(readings, key=lambda c: float(c.get("probability") or 0.0))
        if float(best.get("probability") or 0.0) < NAMED_LIKELIHOOD or not _is_proper_name(question, mention):
            continue
        if any(c["id"] in used for c in readings) or any(w in written for w in mention.split() if w[:1].isupper()):
            continue
        warnings.append(f"the reading uses nothing the question names as {mention!r} "
                        f"(such as {best.get('label') or best['id']}, {best['id']}): it may answer another question")
    return warnings


def _is_proper_name(question: str, mention: str) -> bool:
    """Whether ``mention`` has a capital and stands in ``question`` after its first word."""
    return (any(w[:1].isupper() for w in mention.split())
            and any(question[:found.start()].strip() for found in re.finditer(re.escape(mention), question)))


__all__ = ["unused_names", "NAMED_LIKELIHOOD"]
