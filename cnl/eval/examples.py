"""Prompt/target pairs of the ECAI data for every target language of the experiments.

A *language* is a target and a notation: ``squall-label``, ``squall-id``, ``sparql-id``,
``sparklis-ecai`` (the Sparklis strings as the data has them; label/ID Sparklis needs the
Sparklis parser of issue 3). All languages use the same questions — those whose SQUALL parses
and aligns with a usable gold query — so that comparisons are at equal training data.

Prompts are the paper's (instruction, question, entity-linking information) in a compact form,
because training here runs on a CPU: candidates are listed one per line as label (or ID) with a
shortened description.
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from functools import lru_cache

from cnl.errors import CNLError, EvalConfigError

LANGUAGES = ("squall-label", "squall-id", "sparklis-ecai", "sparql-id")
EL_VARIANTS = ("none", "explicit", "implicit", "hybrid")
LANGUAGE_NAMES = {"squall": "SQUALL", "sparklis": "Sparklis", "sparql": "SPARQL"}
_PREFIX_LINE = re.compile(r"^PREFIX\s+\S+\s+<[^>]*>\s*$", re.M)


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


def strip_prefixes(sparql: str) -> str:
    """A SPARQL target without its PREFIX lines, on one line (the model writes only the body)."""
    return " ".join(_PREFIX_LINE.sub("", sparql).split())


def with_prefixes(body: str) -> str:
    from cnl.data.ecai import PREFIX_HEADER

    return PREFIX_HEADER + body


def _short_description(text: str, words: int = 6) -> str:
    parts = (text or "").split()
    return " ".join(parts[:words])


def build_prompt(question: str, candidates, *, language: str, el: str, max_candidates: int = 3) -> str:
    """Instruction, question and (implicit/hybrid) the top candidates as ``label (description)``
    or ``ID (description)``; descriptions cut to three words to keep CPU training affordable."""
    target, notation = split_language(language)
    lines = [f"Translate to {LANGUAGE_NAMES[target]}.", f"Question: {question}"]
    if prompt_el(el) == "implicit":
        entities = []
        for c in list(candidates)[:max_candidates]:
            name = c.id if notation == "id" else c.label
            desc = _short_description(c.description, 3)
            entities.append(f"{name} ({desc})" if desc else name)
        lines.append("Entities: " + "; ".join(entities))
    lines.append("Query:")
    return "\n".join(lines) + " "


@lru_cache(maxsize=4)
def _aligned(split: str):
    """(record, resolved IR, normalized gold, mapping) for every usable record of a split."""
    import cnl
    from cnl.compiler.sparql import resolve_query
    from cnl.data.alignment import MappingResolver, align
    from cnl.data.ecai import load_ecai, normalize_gold_sparql

    out = []
    for record in load_ecai(split):
        if not record.sparql_raw or not record.sparklis:
            continue
        try:
            query = cnl.parse(record.squall)
            gold = normalize_gold_sparql(record.sparql_raw)
            alignment = align(query, gold, record.candidates)
            if alignment.unmatched:
                continue
            resolved = resolve_query(query, MappingResolver(alignment.mapping))
        except CNLError:
            continue
        except Exception:  # noqa: BLE001 — a malformed record is skipped, never fatal
            continue
        out.append((record, resolved, gold, dict(alignment.mapping)))
    return out


def target_text(language: str, record, resolved, gold: str) -> str:
    import cnl

    target, notation = split_language(language)
    if target == "squall":
        return cnl.to_cnl(resolved, notation=notation, id_labels=False)
    if target == "sparql":
        return strip_prefixes(gold)
    return " ".join(record.sparklis.split())


def build_examples(split: str, language: str, el: str, *, size: int | None = None,
                   seed: int = 0) -> list[EvalExample]:
    """The examples of a split in one language; ``size`` takes a seeded sample (the first
    ``size`` of one fixed permutation, so smaller sets are prefixes of larger ones)."""
    from cnl.eval.taxonomy import terms_of_ir

    rows = list(_aligned(split))
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
    return len(_aligned(split))
