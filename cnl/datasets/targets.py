"""What a data set gives the learned parser: questions with a CNL target and the gold query.

Data-set modules build these from their own files (decompiling a gold query, labelling its
terms); :mod:`cnl.learn.examples` turns them into prompts."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class CNLTarget:
    question: str
    cnl: str              # the target text (SQUALL, one line)
    gold_sparql: str      # the data set's query
    mapping: dict = field(default_factory=dict, compare=False)  # (kind, label) -> ID of the target's terms
    source: str = ""      # "qald", "wwq", ... and the question's id there
