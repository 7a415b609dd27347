"""Training and evaluation examples for the learned parser (BridgeKGLM §4).

One :class:`Example` per ECAI question: a prompt in the paper's format (instruction, question,
entity-linking block for the implicit/hybrid EL variants, Figures 3/4) and a completion in
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
import re
from dataclasses import dataclass, field, replace

from cnl.errors import CNLError, DataError, LexiconError

TARGETS = ("squall", "sparklis", "sparql")
# Where a SQUALL target comes from: the data's SQUALL annotation, or the gold SPARQL (the
# annotation where it compiles to the gold, else the gold decompiled and printed; see
# gold_squall). The two disagree for about a third of the questions.
SQUALL_SOURCES = ("annotation", "gold")
NOTATIONS = ("label", "id")
EL_VARIANTS = ("none", "implicit", "explicit", "hybrid")
PROMPT_STYLES = ("compact", "paper")

log = logging.getLogger(__name__)

_LANGUAGE = {"squall": "SQUALL", "sparklis": "Sparklis", "sparql": "SPARQL"}
# Candidates below this ReFinED probability are left out of the prompt (the paper's EntityMap
# threshold); at most this many per prompt keeps prompts short for CPU training.
CANDIDATE_THRESHOLD = 0.1
MAX_PROMPT_CANDIDATES = 3
_PREFIX_LINE = re.compile(r"^\s*PREFIX\s+\S+\s*<[^>]*>\s*$", re.I | re.M)
_ID_TERM = re.compile(r"\b(wd|wdt|p|ps|pq):([PQ][0-9]+)\b")


@dataclass
class Example:
    question: str
    prompt: str
    completion: str
    record: object                 # the EcaiRecord
    gold_sparql: str | None        # the normalized gold, None when unusable
    mapping: dict = field(default_factory=dict)  # (kind, label) -> ID, from the alignment
    target: str = "squall"
    notation: str = "label"
    el: str = "hybrid"


# ---------------------------------------------------------------------------------------
# prompts

def prompt_candidates(candidates, threshold: float = CANDIDATE_THRESHOLD, limit: int = MAX_PROMPT_CANDIDATES):
    """The candidates worth showing: above the threshold, best first, one per ID."""
    seen, out = set(), []
    for c in sorted(candidates, key=lambda c: -float(_get(c, "probability", "score"))):
        cid = _get(c, "id")
        if cid in seen or float(_get(c, "probability", "score")) < threshold:
            continue
        seen.add(cid)
        out.append(c)
    return out[:limit]


def _get(c, *names):
    for name in names:
        if isinstance(c, dict) and name in c:
            return c[name]
        if hasattr(c, name):
            return getattr(c, name)
    return None


def build_prompt(question: str, candidates=(), *, el: str = "hybrid", target: str = "squall",
                 notation: str = "label", style: str = "compact", demos=()) -> str:
    """The model's prompt. ``paper`` is the exact Figure 3/4 text
    (:func:`cnl.linking.el_variants.build_prompt`); ``compact`` keeps its sections (instruction,
    question, entity-linking information, answer) in about a quarter of the tokens, which
    matters for training on a CPU. ``demos``: solved similar questions
    (:class:`cnl.learn.demos.Demo`) shown first, compact style only."""
    if el not in EL_VARIANTS:
        raise DataError(f"unknown EL variant {el!r}: use one of {', '.join(EL_VARIANTS)}")
    shown = prompt_candidates(candidates) if el in ("implicit", "hybrid") else []
    language = _LANGUAGE.get(target, target)
    if style == "paper":
        from cnl.linking.el_variants import build_prompt as paper_prompt

        cands = [{"mention": _get(c, "mention") or _get(c, "label"), "label": _get(c, "label"),
                  "id": _get(c, "id"), "description": _get(c, "description"),
                  "score": float(_get(c, "probability", "score"))} for c in shown]
        return paper_prompt(question, cands, variant=el, language=language, style=notation)
    if style != "compact":
        raise DataError(f"unknown prompt style {style!r}: use one of {', '.join(PROMPT_STYLES)}")
    # The paper's sections (instruction, question, entity-linking information, answer) with
    # the instruction folded into the answer marker: every prompt token costs training time.
    lines = []
    for demo in demos:
        lines += [f"Example: {demo.question}", f"{language} ({notation}): {demo.completion}"]
    lines.append(f"Question: {question}")
    if el in ("implicit", "hybrid"):
        items = []
        for c in shown:
            name = _get(c, "label") if notation == "label" else _get(c, "id")
            items.append(f"[{name}] {_short(_get(c, 'description') or '')}".rstrip())
        lines.append("Entities: " + ("; ".join(items) if items else "none"))
    lines.append(f"{language} ({notation}):")
    return "\n".join(lines) + " "


def _short(text: str, limit: int = 28) -> str:
    if len(text) <= limit:
        return text
    return text[:limit].rsplit(" ", 1)[0]


# ---------------------------------------------------------------------------------------
# targets

def _ws(text: str) -> str:
    return " ".join(text.split())


def strip_prefixes(sparql: str) -> str:
    return _ws(_PREFIX_LINE.sub("", sparql))


def add_prefixes(sparql: str) -> str:
    """Put back the Wikidata PREFIX lines a SPARQL target was trained without."""
    from cnl.sparql.namespaces import PREFIXES

    used = {m.group(1) for m in re.finditer(r"\b([a-z]+):", sparql)}
    head = [f"PREFIX {k}: <{v}>" for k, v in PREFIXES.items() if k in used
            and not re.search(rf"PREFIX\s+{k}:", sparql, re.I)]
    return "\n".join(head + [sparql])


@functools.lru_cache(maxsize=1)
def _property_labels() -> dict:
    """PID -> label, and normalized label/alias -> PID, from wikidata/properties.json."""
    from cnl.datasets.properties import wikidata_properties

    try:
        rows = wikidata_properties()
    except (OSError, ValueError, CNLError):
        return {"labels": {}, "ids": {}}
    labels, ids = {}, {}
    for row in rows:
        labels[row["id"]] = row["label"]
        for name in [row["label"], *row.get("aliases", [])]:
            ids.setdefault(_norm(name), row["id"])
    return {"labels": labels, "ids": ids}


def _norm(label: str) -> str:
    from cnl.linking.lexicon import normalize_label

    return normalize_label(label)


def _labelled_sparql(sparql: str, id_labels: dict) -> str:
    def sub(m):
        label = id_labels.get(m.group(2)) or _property_labels()["labels"].get(m.group(2))
        if not label:
            return m.group(0)
        return f"{m.group(1)}:[{label}]" if m.group(2).startswith("Q") else f"{m.group(1)}:<{label}>"

    return _ID_TERM.sub(sub, sparql)


@dataclass
class _Prepared:
    record: object
    query: object        # parsed SQUALL IR or None
    gold: str | None
    mapping: dict
    aligned: bool
    reason: str = ""
    alignment: dict = field(default_factory=dict)  # (kind, label) -> ID found by aligning with the gold


def _term_ids(query) -> dict:
    """(kind, label) -> ID of the terms of an IR query that carry both (in the ECAI SQUALL: the
    properties, written <P57:director>)."""
    from cnl import ir

    kinds = {ir.Entity: "entity", ir.Class: "class", ir.Property: "property"}
    out = {}
    for node in ir.walk(query):
        kind = kinds.get(type(node))
        if kind and node.id and node.label and not (kind == "class" and node.id.startswith("P")):
            out.setdefault((kind, node.label), node.id)
    return out


@functools.lru_cache(maxsize=4)
def _prepared(split: str) -> tuple:
    from cnl.datasets.ecai.alignment import align
    from cnl.datasets.ecai.loader import load_ecai, normalize_gold_sparql
    from cnl.dialects.squall.parser import parse_squall

    out = []
    for record in load_ecai(split):
        gold = None
        if record.sparql_raw:
            try:
                gold = normalize_gold_sparql(record.sparql_raw)
            except CNLError:
                gold = None
        try:
            query = parse_squall(record.squall)
        except CNLError as err:
            out.append(_Prepared(record, None, gold, {}, False, f"SQUALL does not parse: {str(err).splitlines()[0]}"))
            continue
        mapping = _term_ids(query)
        if gold is None:
            out.append(_Prepared(record, query, None, mapping, False, "no usable gold SPARQL"))
            continue
        try:
            alignment = align(query, gold, record.candidates)
        except CNLError as err:
            out.append(_Prepared(record, query, gold, mapping, False, f"alignment failed: {err}"))
            continue
        mapping.update(alignment.mapping)
        reason = f"unaligned labels {alignment.unmatched}" if alignment.unmatched else ""
        out.append(_Prepared(record, query, gold, mapping, not alignment.unmatched, reason,
                             dict(alignment.mapping)))
    return tuple(out)


def aligned_records(split: str) -> list:
    """The prepared records of a split whose SQUALL parses and aligns fully with the gold."""
    return [prep for prep in _prepared(split) if prep.aligned]


def _annotation_agrees(prep: _Prepared) -> bool:
    """Whether the SQUALL annotation compiles to a query equivalent to the gold."""
    from cnl.sparql.equivalence import equivalent
    from cnl.sparql.compiler import compile_query
    from cnl.datasets.ecai.alignment import MappingResolver
    from cnl.datasets.ecai.preset import ECAI_PROFILE

    if not (prep.aligned and prep.query is not None and prep.gold):
        return False
    try:
        return bool(equivalent(compile_query(prep.query, ECAI_PROFILE, MappingResolver(prep.mapping)), prep.gold))
    except CNLError:
        return False


@functools.lru_cache(maxsize=4)
def _split_id_labels(split: str) -> dict:
    """ID -> label over a split's alignments (annotation labels: classes such as [film] and
    [human] are written there), for IDs a record's own SQUALL and candidates do not name."""
    out: dict = {}
    for prep in _prepared(split):
        for (_kind, label), ident in prep.alignment.items():
            out.setdefault(ident.lstrip("^"), label)
    return out


_RAW_PROPERTY = re.compile(r"<(P[0-9]+):([^<>\s]+)>")


def _id_labels_for(prep: _Prepared) -> dict:
    """ID -> label for printing a record's gold in the label notation: its own annotation's
    labels first, then the labels the raw gold writes for properties, its candidates, the
    data's property list, the rest of the split, and Wikidata's property labels."""
    from cnl.datasets.properties import data_property_labels

    labels = {ident.lstrip("^"): label for (_kind, label), ident in prep.mapping.items()}
    for m in _RAW_PROPERTY.finditer(prep.record.sparql_raw or ""):
        labels.setdefault(m.group(1), m.group(2).replace("_", " "))
    for c in prep.record.candidates:
        labels.setdefault(c.id, c.label)
    for source in (data_property_labels(), _split_id_labels(prep.record.split), _property_labels()["labels"]):
        for ident, label in source.items():
            labels.setdefault(ident, label)
    return labels


def _has_unlabelled_term(query) -> bool:
    from cnl import ir

    return any(isinstance(node, (ir.Entity, ir.Class, ir.Property)) and node.id and not node.label
               for node in ir.walk(query))


@functools.lru_cache(maxsize=2048)
def _gold_squall_cached(split: str, index: int, notation: str):
    from cnl.sparql.decompile import decompile_to_ir, with_labels
    from cnl.sparql.equivalence import equivalent
    from cnl.sparql.compiler import compile_query
    from cnl.datasets.ecai.preset import ECAI_PROFILE
    from cnl.dialects.squall.printer import print_squall
    from cnl.dialects.squall.parser import parse_squall

    prep = _prepared(split)[index]
    if prep.gold is None:
        return None
    if _annotation_agrees(prep):
        text = _completion(prep, "squall", notation)
        return (text, tuple(prep.mapping.items())) if text else None
    try:
        query, _options = decompile_to_ir(prep.gold)
        labelled = with_labels(query, _id_labels_for(prep))
        if notation == "label" and _has_unlabelled_term(labelled):
            return None  # a model cannot learn to write <Q56244641>
        mapping = _term_ids(labelled)
        if notation == "label":
            text = print_squall(labelled, "label", id_labels=True)
        else:
            text = print_squall(query, "id", id_labels=False)
        # Keep it only if it says what the gold says under the profile predictions are scored with.
        resolver = ChainResolver({ChainResolver.key(kind, label): ident for (kind, label), ident in mapping.items()})
        back = parse_squall(text, notation=notation)
        if not equivalent(compile_query(back, ECAI_PROFILE, resolver), prep.gold):
            return None
    except CNLError:
        return None
    return _ws(text), tuple(mapping.items())


def gold_squall(prep: _Prepared, notation: str = "label") -> tuple[str, dict] | None:
    """(SQUALL text, (kind, label) -> ID) saying what the record's gold SPARQL says: the
    annotation when it compiles to a query equivalent to the gold, else the gold decompiled and
    printed with labels from :func:`_id_labels_for` — kept only if that text, parsed and compiled
    again, is equivalent to the gold. None when neither holds (no gold, a construct SQUALL
    cannot say, an ID without a label, or a label two IDs share)."""
    found = _gold_squall_cached(prep.record.split, prep.record.index, notation)
    return None if found is None else (found[0], dict(found[1]))


def _completion(prep: _Prepared, target: str, notation: str) -> str | None:
    from cnl.dialects import get_dialect

    squall = get_dialect("squall")
    record = prep.record
    if target == "squall":
        if prep.query is None:
            return None
        if notation == "label":
            return squall.print(prep.query, "label")
        from cnl.sparql.compiler import resolve_query
        from cnl.datasets.ecai.alignment import MappingResolver

        try:
            resolved = resolve_query(prep.query, MappingResolver(prep.mapping))
        except CNLError:
            return None
        return squall.print(resolved, "id", id_labels=False)
    if target == "sparklis":
        return _ws(record.sparklis) if record.sparklis and record.sparklis.strip() else None
    if target == "sparql":
        if prep.gold is None:
            return None
        body = strip_prefixes(prep.gold)
        if notation == "id":
            return body
        id_labels = {v.lstrip("^"): label for (kind, label), v in prep.mapping.items()}
        for c in record.candidates:
            id_labels.setdefault(c.id, c.label)
        return _labelled_sparql(body, id_labels)
    raise DataError(f"unknown target {target!r}: use one of {', '.join(TARGETS)}")


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
    for prep in _prepared(split):
        mapping = dict(prep.mapping)
        if target == "squall" and squall_from == "gold":
            found = gold_squall(prep, notation)
            completion, valid = (found[0], True) if found else (None, False)
            if found:
                mapping = {**mapping, **found[1]}
        else:
            completion = _completion(prep, target, notation)
            valid = completion is not None and (target != "squall" or prep.aligned)
        if not valid:
            dropped.append(prep.reason or "no target")
            if not keep_invalid:
                continue
            raw = {"squall": prep.record.squall, "sparklis": prep.record.sparklis or "",
                   "sparql": prep.record.sparql_raw or ""}[target]
            completion = completion or _ws(raw)
        record = prep.record
        examples.append(Example(
            question=record.question,
            prompt=build_prompt(record.question, record.candidates, el=el, target=target,
                                notation=notation, style=prompt_style),
            completion=completion, record=record, gold_sparql=prep.gold, mapping=mapping,
            target=target, notation=notation, el=el))
    if dropped:
        log.info("%s/%s/%s: %d of %d records %s (SQUALL not parsing or not aligning, or no target)",
                 split, target, notation, len(dropped), len(_prepared(split)),
                 "kept with their raw target" if keep_invalid else "dropped")
    if train_size is not None and train_size < len(examples):
        examples = random.Random(seed).sample(examples, train_size)
    if demos:
        from cnl.learn.demos import DemoPool

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
        e.question, getattr(e.record, "candidates", ()), el=e.el, target=e.target,
        notation=e.notation, demos=pool.nearest(e.question, k, exclude=e.question))) for e in examples]


# ---------------------------------------------------------------------------------------
# resolving labels of a predicted CNL

@functools.lru_cache(maxsize=1)
def global_label_map() -> dict:
    """(kind, normalized label) -> ID over every ECAI alignment, plus property labels/aliases."""
    out: dict = {}
    for split in ("train", "test"):
        for prep in _prepared(split):
            for (kind, label), ident in prep.mapping.items():
                out.setdefault((kind, _norm(label)), ident)
            for c in prep.record.candidates:
                out.setdefault(("entity", _norm(c.label)), c.id)
    for name, pid in _property_labels()["ids"].items():
        out.setdefault(("property", name), pid)
    return out


class ChainResolver:
    """Resolve a label through several (kind, normalized label) -> ID maps in order; with
    ``cross_kinds`` an entity label may also be found as a class and vice versa (the model
    mixes them up)."""

    def __init__(self, *maps: dict, cross_kinds: bool = True):
        self.maps = maps
        self.cross_kinds = cross_kinds

    @staticmethod
    def key(kind: str, label: str) -> tuple:
        return kind, _norm(label)

    def resolve(self, label, kind, span=None):
        key = _norm(label)
        other = {"entity": "class", "class": "entity"}.get(kind) if self.cross_kinds else None
        for m in self.maps:
            if (kind, key) in m:
                return m[(kind, key)]
        for m in self.maps:
            if other and (other, key) in m:
                return m[(other, key)]
        raise LexiconError(f"unknown {kind} label {label!r}", label=label, kind=kind,
                           position=span[0] if span else None)


def resolver_for(example: Example) -> ChainResolver:
    """A resolver for the labels of a *predicted* CNL of ``example``: its alignment mapping,
    then its prompt candidates by label, then the global map."""
    own = {(kind, _norm(label)): ident for (kind, label), ident in example.mapping.items()}
    cands = {}
    for c in example.record.candidates:
        cands.setdefault(("entity", _norm(c.label)), c.id)
    return ChainResolver(own, cands, global_label_map())


__all__ = ["TARGETS", "NOTATIONS", "SQUALL_SOURCES", "gold_squall", "EL_VARIANTS", "Example", "build_examples", "build_prompt",
           "resolver_for", "ChainResolver", "global_label_map", "add_prefixes", "strip_prefixes"]
