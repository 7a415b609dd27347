"""When the learned parser declines a question: it names nothing the KG knows and asks nothing the
CNL can say ("hello", "asdkjh qwpoe", chit-chat), so any query written for it would be
meaningless.

The constrained decoder always writes a query that parses — "hello" became "Give me a <official
language> of [Hello world program]." — so the decision is taken on evidence gathered before and
during generation, never on words of particular questions:

* **nothing asked**: the whole question is one entity mention ("hello", "thanks!", "good
  morning" link to titles of works): a name alone asks nothing about it;
* **nothing named**: entity linking ran and found no candidate, and no property candidate is
  close to the question (its best similarity below ``PROPERTY_MARGIN``): there is neither an
  entity nor a relation to ask about;
* **no confident reading**: the model's own mean log-probability per token of what it wrote is
  below ``MIN_CONFIDENCE``: the grammar forced its words where the model wanted others.

The thresholds were set on questions never used for tuning the parser (Mintaka and QALD-9-plus,
docs/model.md *Abstention*): real questions fall below them rarely.
"""
from __future__ import annotations

import re

# best property candidate's score (cnl.linking.property_candidates) below which a question with
# no linked entity names nothing of the KG
PROPERTY_MARGIN = 0.7
# the model's mean log-probability per token below which no reading is trusted
MIN_CONFIDENCE = -0.8

_NOT_WORD = re.compile(r"[\W_]+")


def _words(text: str) -> str:
    return " ".join(_NOT_WORD.sub(" ", text.lower()).split())


def abstention_reason(question: str, candidates, properties=(), score: float | None = None, *,
                      linked: bool = True) -> str | None:
    """Why the question should get no query, or None. ``candidates``: its entity candidates
    (dicts with ``label`` and ``mention``); ``properties``: its property candidates, best first
    (with ``score``); ``score``: the chosen output's log-probability per token (None: unknown);
    ``linked``: whether entity linking ran (a KG was given), so that no candidate means none."""
    asked = _words(question)
    if not asked:
        return "the question has no words"
    for c in candidates:
        mention = c.get("mention") if isinstance(c, dict) else getattr(c, "mention", None)
        if mention and _words(mention) == asked:
            label = c.get("label") if isinstance(c, dict) else getattr(c, "label", mention)
            return (f"the question only names {label!r} and asks nothing about it; ask a question "
                    f"about it (e.g. who, what, when, where, how many)")
    best_property = max((getattr(p, "score", 0.0) for p in properties), default=None)
    if linked and not candidates and (best_property is None or best_property < PROPERTY_MARGIN):
        return "the question names no entity of the knowledge graph and no relation it knows"
    if score is not None and score < MIN_CONFIDENCE:
        return (f"the model found no confident reading of the question in the CNL (log-probability "
                f"{score:.2f} per token)")
    return None


__all__ = ["abstention_reason", "PROPERTY_MARGIN", "MIN_CONFIDENCE"]
