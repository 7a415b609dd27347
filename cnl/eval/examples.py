"""Prompt/target pairs of the ECAI data for every target language of the experiments.

A *language* is a target and a notation: ``squall-label``, ``squall-id``, ``sparql-id``,
``sparklis-ecai`` (the Sparklis strings as the data has them; label/ID Sparklis needs the
Sparklis parser of issue 3). All languages use the same questions — those whose SQUALL parses
and aligns with a usable gold query — so that comparisons are at equal training data.

Prompts are the learned parser's compact form of the paper's (question, entity-linking
information, answer marker), shared with ``cnl2sparql train``.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import lru_cache

from cnl.errors import CNLError, EvalConfigError

LANGUAGES = ("squall-label", "squall-id", "sparklis-ecai", "sparql-id")
EL_VARIANTS = ("none", "explicit", "implicit", "hybrid")


def split_language(language: str) -> tuple[str, str]:
    if language not in LANGUAGES:
        raise EvalConfigError(f"unknown language {language!r}: use one of {', '.join(LANGUAGES)}")
    target, notation = language.split("-")
    return target, notation


def prompt_el(el: str) -> str:
    """The prompt an EL variant trains on: candidates for implicit/hybrid, none otherwise."""
    if el not in EL_VARIANTS:
        raise EvalConfigError(f"unknown EL variant {el!r}: use one of {', '.join(EL_VARIANTS)}")
    return "implicit" if el in ("implicit", "hybrid") else "none"


@dataclass(frozen=True)
class EvalExample:
    """One question, ready for training or scoring in one language."""

    split: str
    index: int
    question: str
    prompt: str
    completion: str
    gold_sparql: str  # the normalized ECAI gold query
    gold_terms: tuple  # (kind, id, label) of the gold query's terms
    candidates: tuple
    mapping: dict = field(compare=False, default_factory=dict)  # (kind, label) -> ID


def with_prefixes(body: str) -> str:
    from cnl.datasets.ecai.loader import PREFIX_HEADER

    return PREFIX_HEADER + body


def build_prompt(question: str, candidates, *, language: str, el: str) -> str:
    """The learned parser's compact prompt (:func:`cnl.learn.prompts.build_prompt`): the same
    text the shipped adapter and ``cnl2sparql train`` use, so grid adapters are comparable."""
    from cnl.learn.prompts import build_prompt as training_prompt

    target, notation = split_language(language)
    return training_prompt(question, candidates, el=prompt_el(el), target=target,
                           notation="label" if notation == "ecai" else notation, style="compact")


@lru_cache(maxsize=4)
def aligned_rows(split: str):
    """(record, resolved IR, normalized gold, mapping) for every record of a split whose SQUALL
    parses and aligns with its gold query and that has a Sparklis string (so that every
    language has the same questions). Built on the learned parser's prepared records."""
    from cnl.datasets.ecai.alignment import MappingResolver
    from cnl.datasets.ecai.prepared import aligned_records
    from cnl.sparql.compiler import resolve_query

    out = []
    for prep in aligned_records(split):
        if not prep.record.sparklis:
            continue
        try:
            resolved = resolve_query(prep.query, MappingResolver(prep.alignment))
        except CNLError:
            continue
        out.append((prep.record, resolved, prep.gold, dict(prep.alignment)))
    return out


def target_text(language: str, record, resolved, gold: str) -> str:
    from cnl.dialects import get_dialect

    target, notation = split_language(language)
    if target == "squall":
        return get_dialect("squall").print(resolved, notation, id_labels=False)
    if target == "sparql":
        from cnl.learn.targets import strip_prefixes

        return strip_prefixes(gold)
    return " ".join(record.sparklis.split())


def build_examples(split: str, language: str, el: str, *, size: int | None = None,
                   seed: int = 0) -> list[EvalExample]:
    """The examples of a split in one language; ``size`` takes a seeded sample (the first
    ``size`` of one fixed permutation, so smaller sets are prefixes of larger ones)."""
    from cnl.eval.taxonomy import terms_of_ir

    rows = list(aligned_rows(split))
    order = list(range(len(rows)))
    random.Random(seed).shuffle(order)
    if size is not None:
        if size > len(rows):
            raise EvalConfigError(f"train size {size} exceeds the {len(rows)} usable {split} examples")
        order = order[:size]
    examples = []
    for i in order:
        record, resolved, gold, mapping = rows[i]
        examples.append(EvalExample(
            split=split, index=record.index, question=record.question,
            prompt=build_prompt(record.question, record.candidates, language=language, el=el),
            completion=target_text(language, record, resolved, gold),
            gold_sparql=gold, gold_terms=tuple(terms_of_ir(resolved)),
            candidates=record.candidates, mapping=mapping,
        ))
    return examples


def usable_count(split: str) -> int:
    return len(aligned_rows(split))
