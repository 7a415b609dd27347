"""Loader of WikiWebQuestions train (``wikiwebquestions/train.json`` and ``train_entities.json``)
and its seeded dev split.

``train.json`` has ``id``, ``utterance`` and ``sparql``; ``train_entities.json`` the same
questions with their linked entities (``input``: ``Query: … Entities:Justin Bieber with QID
Q34086;``) and the query with names for the other items and the properties (``output``:
``wd:Q34086 wdt:sibling ?x. ?x wdt:sex_or_gender wd:male``). The dev split (about 10 %, seeded)
is for tuning the learned parser; nothing else of the data is tuned on."""
from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from cnl.datasets.paths import data_file
from cnl.errors import DataError

DEV_FRACTION = 0.1
DEV_SEED = 15
SPLITS = ("train", "dev", "all")

_ENTITY = re.compile(r"\s*(.+?) with QID (Q[0-9]+)\s*;")
# a wd: term of a query, as an ID or (in ``output``) a lower-case underscore name
_WD_TERM = re.compile(r"\bwd:([^\s.;,(){}]+)")
_QID = re.compile(r"Q[0-9]+")


@dataclass(frozen=True)
class WWQRecord:
    id: str
    question: str
    sparql: str
    entities: tuple[tuple[str, str], ...] = ()       # (label, QID) of the linked entities
    names: dict = field(default_factory=dict, compare=False, hash=False)  # QID -> name from ``output``

    def labels(self) -> dict[str, str]:
        """QID -> label: the linked entities' labels, then the names ``output`` gives the other
        items (``star wars`` for ``star_wars``)."""
        out = {qid: label for label, qid in self.entities}
        for qid, name in self.names.items():
            out.setdefault(qid, name)
        return out


def parse_entities(text: str) -> tuple[tuple[str, str], ...]:
    """(label, QID) pairs of an ``input``'s ``Entities:`` part."""
    _, _, tail = text.partition("Entities:")
    return tuple((m.group(1).strip(), m.group(2)) for m in _ENTITY.finditer(tail))


def output_names(sparql: str, output: str) -> dict[str, str]:
    """QID -> name for the items ``output`` names instead of writing their ID (the wd: terms of
    both queries, paired in order; none when they do not pair up)."""
    ids, names = _WD_TERM.findall(sparql), _WD_TERM.findall(output)
    if len(ids) != len(names):
        return {}
    return {qid: name.replace("_", " ") for qid, name in zip(ids, names)
            if _QID.fullmatch(qid) and not _QID.fullmatch(name)}


@lru_cache(maxsize=2)
def _load(folder: str | None) -> tuple[WWQRecord, ...]:
    base = Path(folder) if folder else None
    queries = _read(base / "train.json" if base else data_file("wikiwebquestions", "train.json"))
    entities_path = base / "train_entities.json" if base else data_file("wikiwebquestions", "train_entities.json")
    linked = {row["id"]: row for row in _read(entities_path)}
    out = []
    for row in queries:
        extra = linked.get(row["id"], {})
        out.append(WWQRecord(row["id"], row["utterance"].strip(), row["sparql"],
                             parse_entities(extra.get("input", "")),
                             output_names(extra.get("sparql", ""), extra.get("output", ""))))
    return tuple(out)


def _read(path: Path) -> list:
    try:
        return json.loads(Path(path).read_text("utf-8"))
    except (OSError, ValueError) as err:
        raise DataError(f"cannot read {path}: {err}") from None


def dev_ids(records, fraction: float = DEV_FRACTION, seed: int = DEV_SEED) -> frozenset[str]:
    """The ids of the seeded dev split: ``fraction`` of the records, drawn with ``seed``."""
    ids = sorted(r.id for r in records)
    return frozenset(random.Random(seed).sample(ids, round(len(ids) * fraction)))


def load_wwq(split: str = "all", folder=None) -> list[WWQRecord]:
    """The records of a split: ``train`` (about 90 %), ``dev`` (the seeded 10 % kept for
    tuning) or ``all`` (2,431). ``folder``: a folder holding the two files (default: the shared
    data's ``wikiwebquestions/``)."""
    if split not in SPLITS:
        raise DataError(f"unknown WikiWebQuestions split {split!r}: use one of {', '.join(SPLITS)}")
    records = _load(str(folder) if folder else None)
    if split == "all":
        return list(records)
    dev = dev_ids(records)
    return [r for r in records if (r.id in dev) == (split == "dev")]
