"""Training and evaluation examples for the learned parser (BridgeKGLM §4).

One :class:`Example` per ECAI question: a prompt (:mod:`cnl.learn.prompts`) and a completion in
one target language and notation:

* ``squall``/``label``: the SQUALL string printed from the IR, ``which [film] has <director> [X]?``;
* ``squall``/``id``: the same with IDs (``<Q11424>``, ``<P57>``) from the alignment with the gold;
* either SQUALL notation with ``squall_from="gold"``: the SQUALL that says what the gold SPARQL
  says (:func:`gold_squall`);
* ``sparklis``: the ECAI Sparklis string (whitespace-normalized), either notation;
* ``sparql``/``id``: the normalized gold without its PREFIX lines;
* ``sparql``/``label``: the same with every ID replaced by its label.

Training records whose SQUALL does not parse or does not align with the gold are dropped from
the SQUALL targets (logged); test records are all kept, so an evaluation covers the whole split.
"""
from __future__ import annotations

import functools
import logging
import random
from dataclasses import dataclass, field, replace

from cnl import ir
from cnl.datasets.ecai.alignment import MappingResolver
from cnl.datasets.ecai.prepared import PreparedRecord, annotation_agrees, id_labels_for, prepared
from cnl.datasets.ecai.preset import ECAI_PROFILE
from cnl.datasets.ecai.resolution import data_label_map, resolver_for
from cnl.datasets.qald.targets import squall_targets
from cnl.dialects.squall.parser import parse_squall
from cnl.dialects.squall.printer import print_squall
from cnl.errors import CNLError, DataError
from cnl.learn.demos import DemoPool
from cnl.datasets.wwq.loader import load_wwq
from cnl.datasets.wwq.targets import wwq_targets
from cnl.learn.prompts import (EL_VARIANTS, NOTATIONS, SQUALL_SOURCES, TARGETS, build_prompt, candidate_field,
                               prompt_candidates)
from cnl.kg import open_kg
from cnl.learn.targets import labelled_sparql, one_line, strip_prefixes
from cnl.linking.indices import indices_for_store
from cnl.linking.linker import BuiltinLinker
from cnl.linking.property_candidates import PropertyRetriever, Solved, properties_around
from cnl.linking.resolver import ChainResolver
from cnl.sparql.compiler import compile_query, resolve_query
from cnl.sparql.decompile import decompile_to_ir, with_labels
from cnl.sparql.equivalence import equivalent

log = logging.getLogger(__name__)


@dataclass
class Example:
    question: str
    prompt: str
    completion: str
    record: object                 # the EcaiRecord, or another data set's CNLTarget (or None)
    gold_sparql: str | None        # the normalized gold, None when unusable
    mapping: dict = field(default_factory=dict)  # (kind, label) -> ID, from the alignment
    target: str = "squall"
    notation: str = "label"
    el: str = "hybrid"
    candidates: tuple = ()          # the entity candidates the prompt was built from
    properties: tuple = ()          # the property candidates shown in the prompt

    def property_ids(self) -> tuple[str, ...]:
        """The PIDs of the target's properties (an inverse ``^P`` as P)."""
        return tuple(dict.fromkeys(ident.lstrip("^") for (kind, _), ident in self.mapping.items()
                                   if kind == "property" and ident.lstrip("^").startswith("P")))


def completion(prep: PreparedRecord, target: str, notation: str) -> str | None:
    """A record's target text in ``target`` and ``notation`` (None when it has none)."""
    record = prep.record
    if target == "squall":
        if prep.query is None:
            return None
        if notation == "label":
            return print_squall(prep.query, "label")
        try:
            resolved = resolve_query(prep.query, MappingResolver(prep.mapping))
        except CNLError:
            return None
        return print_squall(resolved, "id", id_labels=False)
    if target == "sparklis":
        return one_line(record.sparklis) if record.sparklis and record.sparklis.strip() else None
    if target == "sparql":
        if prep.gold is None:
            return None
        body = strip_prefixes(prep.gold)
        if notation == "id":
            return body
        id_labels = {v.lstrip("^"): label for (kind, label), v in prep.mapping.items()}
        for c in record.candidates:
            id_labels.setdefault(c.id, c.label)
        return labelled_sparql(body, id_labels)
    raise DataError(f"unknown target {target!r}: use one of {', '.join(TARGETS)}")


@functools.lru_cache(maxsize=2048)
def _gold_squall_cached(split: str, index: int, notation: str):
    prep = prepared(split)[index]
    if prep.gold is None:
        return None
    if annotation_agrees(prep):
        text = completion(prep, "squall", notation)
        return (text, tuple(prep.mapping.items())) if text else None
    try:
        query, _options = decompile_to_ir(prep.gold)
        labelled = with_labels(query, id_labels_for(prep))
        if notation == "label" and ir.has_unlabelled_term(labelled):
            return None  # a model cannot learn to write <Q56244641>
        mapping = ir.labelled_ids(labelled)
        if notation == "label":
            text = print_squall(labelled, "label", id_labels=True)
        else:
            text = print_squall(query, "id", id_labels=False)
        # Keep it only if it says what the gold says under the profile and the resolver predictions
        # are scored with (example_resolver): a label the data's lexicon reads otherwise, such as
        # <label> for rdfs:label where "label" is also an alias of P264 record label, is no target.
        terms = [(kind, label, ident) for (kind, label), ident in reversed(list(mapping.items()))]
        resolver = resolver_for(terms, prep.record.candidates, last=(data_label_map(),))
        back = parse_squall(text, notation=notation)
        if not equivalent(compile_query(back, ECAI_PROFILE, resolver), prep.gold):
            return None
    except CNLError:
        return None
    return one_line(text), tuple(mapping.items())


def gold_squall(prep: PreparedRecord, notation: str = "label") -> tuple[str, dict] | None:
    """(SQUALL text, (kind, label) -> ID) saying what the record's gold SPARQL says: the
    annotation when it compiles to a query equivalent to the gold, else the gold decompiled and
    printed with labels from :func:`cnl.datasets.ecai.prepared.id_labels_for` — kept only if that
    text, parsed and compiled again, is equivalent to the gold. None when neither holds (no gold,
    a construct SQUALL cannot say, an ID without a label, or a label two IDs share)."""
    found = _gold_squall_cached(prep.record.split, prep.record.index, notation)
    return None if found is None else (found[0], dict(found[1]))


def build_examples(split: str, target: str = "squall", notation: str = "label", el: str = "hybrid",
                   train_size: int | None = None, seed: int = 0, *, prompt_style: str = "compact",
                   keep_invalid: bool | None = None, squall_from: str = "annotation", demos: int = 0,
                   demo_pool=None) -> list[Example]:
    """Examples of one ECAI split. ``train_size`` takes a seeded random subset. Invalid
    records (SQUALL that does not parse or align, no target) are dropped unless
    ``keep_invalid`` (default: True for the test split, whose completion is then the raw
    target string and whose gold may be None). ``squall_from="gold"`` takes SQUALL targets
    from :func:`gold_squall` (a record without one is invalid). ``demos``: that many similar
    solved questions in each prompt, from ``demo_pool`` (a :class:`cnl.learn.demos.DemoPool`;
    default: the training split's examples, never a question's own)."""
    if squall_from not in SQUALL_SOURCES:
        raise DataError(f"unknown SQUALL source {squall_from!r}: use one of {', '.join(SQUALL_SOURCES)}")
    if target not in TARGETS:
        raise DataError(f"unknown target {target!r}: use one of {', '.join(TARGETS)}")
    if notation not in NOTATIONS:
        raise DataError(f"unknown notation {notation!r}: use one of {', '.join(NOTATIONS)}")
    if el not in EL_VARIANTS:
        raise DataError(f"unknown EL variant {el!r}: use one of {', '.join(EL_VARIANTS)}")
    if keep_invalid is None:
        keep_invalid = split == "test"
    examples, dropped = [], []
    for prep in prepared(split):
        mapping = dict(prep.mapping)
        if target == "squall" and squall_from == "gold":
            found = gold_squall(prep, notation)
            text, valid = (found[0], True) if found else (None, False)
            if found:
                mapping = {**mapping, **found[1]}
        else:
            text = completion(prep, target, notation)
            valid = text is not None and (target != "squall" or prep.aligned)
        if not valid:
            dropped.append(prep.reason or "no target")
            if not keep_invalid:
                continue
            raw = {"squall": prep.record.squall, "sparklis": prep.record.sparklis or "",
                   "sparql": prep.record.sparql_raw or ""}[target]
            text = text or one_line(raw)
        record = prep.record
        examples.append(Example(
            question=record.question,
            prompt=build_prompt(record.question, record.candidates, el=el, target=target,
                                notation=notation, style=prompt_style),
            completion=text, record=record, gold_sparql=prep.gold, mapping=mapping,
            target=target, notation=notation, el=el, candidates=tuple(record.candidates)))
    if dropped:
        log.info("%s/%s/%s: %d of %d records %s (SQUALL not parsing or not aligning, or no target)",
                 split, target, notation, len(dropped), len(prepared(split)),
                 "kept with their raw target" if keep_invalid else "dropped")
    if train_size is not None and train_size < len(examples):
        examples = random.Random(seed).sample(examples, train_size)
    if demos:
        if prompt_style != "compact":
            raise DataError("demonstrations go into compact prompts only")
        pool = demo_pool or DemoPool.from_examples(
            build_examples("train", target, notation, el, keep_invalid=False, squall_from=squall_from))
        examples = with_demos(examples, pool, demos)
    return examples


def with_demos(examples: list[Example], pool, k: int) -> list[Example]:
    """``examples`` with the ``k`` most similar solved questions of ``pool`` (never a
    question's own) in each compact prompt."""
    return [replace(e, prompt=build_prompt(
        e.question, e.candidates, el=e.el, target=e.target, notation=e.notation,
        demos=pool.nearest(e.question, k, exclude=e.question), properties=e.properties)) for e in examples]


def property_pool(examples) -> PropertyRetriever:
    """A property retriever whose pool is ``examples``' questions and their targets' properties."""
    return PropertyRetriever([Solved(e.question, e.property_ids()) for e in examples if e.property_ids()])


def with_properties(examples: list[Example], retriever: PropertyRetriever, k: int, *, kg=None,
                    exclude_own: bool = True, demo_pool=None, demos: int = 0, shuffled: float = 0.0,
                    seed: int = 0) -> list[Example]:
    """``examples`` with their ``k`` property candidates in each compact prompt (for training:
    never from the question's own entry of the pool); with ``kg``, the properties around each
    prompt's entity candidates count too. A ``shuffled`` share of the prompts (chosen with
    ``seed``) shows its candidates in a random order instead of best first."""
    around = None
    if kg is not None:
        around = [properties_around(kg, [candidate_field(c, "id") for c in prompt_candidates(e.candidates)])
                  if e.el in ("implicit", "hybrid") else set() for e in examples]
    found = retriever.batch([e.question for e in examples], k, around=around,
                            exclude=[e.question for e in examples] if exclude_own else None)
    out = []
    rng = random.Random(seed)
    for e, props in zip(examples, found):
        if shuffled and rng.random() < shuffled:
            props = rng.sample(list(props), len(props))
        shown = demo_pool.nearest(e.question, demos, exclude=e.question) if demos else ()
        out.append(replace(e, properties=tuple(props), prompt=build_prompt(
            e.question, e.candidates, el=e.el, target=e.target, notation=e.notation, demos=shown,
            properties=props)))
    return out


def example_resolver(example: Example) -> ChainResolver:
    """A resolver for the labels of a *predicted* CNL of ``example``: its alignment mapping,
    then its prompt candidates by label, then every label of the data."""
    # the alignment's last ID of a label wins (as a dict built from the mapping would have it)
    terms = [(kind, label, ident) for (kind, label), ident in reversed(example.mapping.items())]
    return resolver_for(terms, example.record.candidates, last=(data_label_map(),))


def target_examples(targets, *, notation: str = "label", el: str = "hybrid", linker=None) -> list[Example]:
    """Training examples from a data set's CNL targets (:class:`cnl.datasets.targets.CNLTarget`),
    with the ``linker``'s entity candidates in the prompt for the implicit/hybrid EL variants
    (as ``translate`` gives a new question; these data sets record no candidates)."""
    examples = []
    for target in targets:
        candidates = linker.link(target.question) if linker is not None and el in ("implicit", "hybrid") else []
        examples.append(Example(
            question=target.question,
            prompt=build_prompt(target.question, candidates, el=el, target="squall", notation=notation),
            completion=target.cnl, record=target, gold_sparql=target.gold_sparql, mapping=dict(target.mapping),
            target="squall", notation=notation, el=el, candidates=tuple(c.to_dict() for c in candidates)))
    return examples


def wwq_examples(store, split: str = "train", *, notation: str = "label", el: str = "hybrid",
                 preset_only: bool = False) -> list[Example]:
    """Examples from WikiWebQuestions (``split``: train, dev or all; see
    :mod:`cnl.datasets.wwq`), labelled over the embedded ``store`` (the Wikidata slice) and with
    the project's linker's entity candidates over it, as ``translate --store`` gives a new
    question. ``preset_only``: only targets equivalent to the gold under ``wikidata-wwq``."""
    with open_kg(store=store) as kg:
        targets = wwq_targets(load_wwq(split), kg, notation=notation)
    if preset_only:
        targets = [t for t in targets if t.preset_equivalent]
    linker = BuiltinLinker(indices_for_store(store, verbose=False)[0]) if el in ("implicit", "hybrid") else None
    return target_examples(targets, notation=notation, el=el, linker=linker)


def qald_examples(store, *, notation: str = "label", el: str = "hybrid", path=None) -> list[Example]:
    """Training examples from QALD-9-plus train, labelled and linked over the embedded ``store``."""
    with open_kg(store=store) as kg:
        targets = squall_targets(kg, notation=notation, path=path)
    linker = BuiltinLinker(indices_for_store(store, verbose=False)[0]) if el in ("implicit", "hybrid") else None
    return target_examples(targets, notation=notation, el=el, linker=linker)
