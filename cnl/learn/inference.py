"""Translating questions into CNL with a fine-tuned adapter, and CNL into SPARQL.

``Translator.generate`` is the raw model (prompts in, n-best CNL strings out, optionally
grammar-constrained); ``Translator.translate`` is the whole pipeline for one question:
entity candidates -> prompt -> generation -> explicit EL correction -> n-best validation
(the first candidate that parses, compiles and, with a KG, returns a non-empty answer) -> SPARQL.
"""
from __future__ import annotations

import json
import logging
import math
import threading
import time
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from cnl.dialects.squall.parser import parse_squall
from cnl.errors import CNLError, ModelError, ModelNotFound, TranslationError
from cnl.learn.abstention import abstention_reason
from cnl.learn.agreement import (agree_directions, asked_time, in_the_year, one_way_round, ranked_superlative,
                                 restored_negation)
from cnl.learn.chooser import choose_output
from cnl.learn.constrained import SquallLogitsProcessor, SquallPrefixChecker
from cnl.learn.demos import DemoPool
from cnl.learn.faithfulness import unused_names
from cnl.learn import native
from cnl.learn.lora import merge_lora
from cnl.learn.native import NativeEnsemble, NativeLlama, NativeTokenizer
from cnl.learn.numbers import copy_numbers, current_year
from cnl.learn.prompts import build_prompt
from cnl.learn.slot_fit import SlotFit
from cnl.linking.el_variants import postprocess
from cnl.linking.entity_map import EntityMap
from cnl.linking.indices import indices_for_store
from cnl.linking.lexicon import as_lexicon
from cnl.linking.linker import BuiltinLinker, LabelLinker
from cnl.linking.resolver import ChainResolver, IndexResolver, KGLabelResolver, property_table
from cnl.sparql.wikidata_properties import identifier_labels, known_property_labels

VALIDATION_TIMEOUT = 5.0
# beams of the default pipeline: greedy. 4-beam n-best validation with the shipped ensemble
# scores 102/243 on the WikiWebQuestions dev split against 103 greedy, and 0.267 against 0.280
# on the ECAI test, at several times the time per question (docs/model.md, "Latency and
# throughput"); ``num_beams=4`` opts in.
DEFAULT_BEAMS = 1
# the signals that judge the candidates on a KG (Translator.choose): before this issue, the first
# candidate with an answer ("answers")
DEFAULT_CHOOSER = ("answers", "type", "readings", "fit", "near")


log = logging.getLogger(__name__)

# an adapter folder may hold, instead of one LoRA adapter, the list of the LoRA adapters (its
# subfolders) that decode together (cnl.learn.native.NativeEnsemble)
ENSEMBLE_FILE = "ensemble.json"


def adapter_members(adapter: Path) -> list[Path] | None:
    """The member adapters of an ensemble folder (``ensemble.json``: ``{"members": [...]}``, paths
    relative to it), or None for a folder with one adapter."""
    listing = Path(adapter) / ENSEMBLE_FILE
    if not listing.is_file():
        return None
    try:
        names = json.loads(listing.read_text())["members"]
    except (OSError, ValueError, KeyError, TypeError) as err:
        raise ModelError(f"cannot read the ensemble {listing}: {err}") from None
    if not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names):
        raise ModelError(f"{listing} must list its member adapters: {{\"members\": [\"folder\", ...]}}")
    members = [Path(adapter) / name for name in names]
    for member in members:
        if not (member / "adapter_config.json").is_file():
            raise ModelNotFound(f"member {member} of the ensemble {listing} has no adapter_config.json")
    return members


def is_adapter(folder: str | Path) -> bool:
    """Whether ``folder`` holds an adapter: one LoRA adapter or an ensemble of them."""
    return (Path(folder) / "adapter_config.json").is_file() or (Path(folder) / ENSEMBLE_FILE).is_file()


def default_adapter_dir() -> Path:
    """The adapter shipped inside the package (SQUALL, label-based, hybrid EL)."""
    return Path(str(resources.files("cnl.learn").joinpath("default_adapter")))


@dataclass
class Translation:
    question: str
    cnl: str | None
    sparql: str | None
    candidates: list = field(default_factory=list)   # entity candidates shown to the model
    nbest: list = field(default_factory=list)         # generated CNL strings, best first
    error: str | None = None                          # why no candidate compiled, if none did
    seconds: float = 0.0
    # beam search: each beam's score, its log-probability per token (transformers' sequences_scores)
    nbest_scores: list = field(default_factory=list)
    # the chosen output's log-probability per token (greedy on the native engine: the model's
    # own, before the grammar's mask; None where the engine gives none)
    score: float | None = None
    # why the parser declined the question (nothing the CNL can say: a greeting, gibberish);
    # then ``cnl`` and ``sparql`` are None, ``error`` says so and ``nbest`` keeps what the model wrote
    abstained: str | None = None
    # what the reader of the reading should know: a name of the question it leaves out
    # (:func:`cnl.learn.faithfulness.unused_names`)
    warnings: list = field(default_factory=list)

    def to_json(self) -> dict:
        row = {"question": self.question, "cnl": self.cnl, "sparql": self.sparql, "candidates": self.candidates}
        if self.score is not None:
            row["score"] = round(self.score, 4)
        if self.abstained:
            row["abstained"] = self.abstained
        if self.warnings:
            row["warnings"] = self.warnings
        if len(self.nbest) > 1:  # beam search: every beam, best first (for reranking or analysis)
            row["nbest"] = self.nbest
            if self.nbest_scores:
                row["nbest_scores"] = [None if s is None else round(s, 4) for s in self.nbest_scores]
        return row


def _candidate_dict(c) -> dict:
    if isinstance(c, dict):
        return c
    if hasattr(c, "to_dict"):
        return c.to_dict()
    return {"id": c.id, "label": c.label, "description": getattr(c, "description", ""),
            "probability": getattr(c, "probability", getattr(c, "score", 0.0))}


class Translator:
    """A loaded model with its adapter. ``known_properties``: the property labels constrained
    decoding lets the model write inside ``<...>`` (default: Wikidata's labels and aliases);
    ``entity_map``: the EntityMap explicit EL corrects labels against, besides each question's
    own candidates (default: none; evaluations pass the data's)."""

    def __init__(self, model, tokenizer, config: dict | None = None, adapter_dir: Path | None = None, *,
                 known_properties=None, entity_map: EntityMap | None = None):
        self.model = model
        self.tokenizer = tokenizer
        self.config = config or {}
        self.adapter_dir = adapter_dir
        self.known_properties = tuple(known_properties) if known_properties is not None else None
        self.entity_map = entity_map
        self._checker = None
        self._checkers: dict = {}
        self._demo_pool = None
        self._property_retriever = None
        self._indices: dict = {}
        self._linkers: dict = {}
        self._properties: dict | None = None
        self._known_labels: tuple | None = None
        # constrained decoding writes only known property labels inside <...> (label notation):
        # "known" (Wikidata's labels and aliases, or ``known_properties``), or "candidates" (the
        # question's property candidates and the properties of the adapter's training targets)
        self.constrain_properties = True
        self.property_constraint = "known"
        # seconds each candidate's validation query may run (a timed-out candidate is skipped)
        self.validation_timeout = VALIDATION_TIMEOUT
        # decline a question the CNL cannot say (cnl.learn.abstention) instead of writing a query
        self.abstain = True
        # how candidates are judged on a KG (choose): "answers", "type", "readings", "fit", "near"
        self.chooser = DEFAULT_CHOOSER
        self._slot_fits: dict = {}
        self._beam_model = None
        self._beam_tokenizer = None
        self._load_options = (None, adapter_dir, None, None)

    # -- loading ---------------------------------------------------------------------------
    @classmethod
    def load(cls, adapter_dir: str | Path | None = None, base_model: str | None = None,
             device: str | None = None, threads: int | None = None,
             dtype: str | None = None, **options) -> "Translator":
        """The base model with a LoRA adapter (None: the shipped default adapter). ``dtype``
        (``float32``, ``bfloat16``; default: bfloat16 on a CPU, where one-question decoding is
        bound by reading the weights, so half the bytes is about 1.5x faster). ``options``:
        ``known_properties``, ``entity_map`` (see the class). Greedy decoding of a Llama-type
        base model on a CPU runs natively (:mod:`cnl.learn.native`, no transformers import);
        beam search and other models run with transformers."""
        if dtype not in (None, "float32", "bfloat16", "float16"):
            raise ModelError(f"unknown dtype {dtype!r}: use float32, bfloat16 or float16")
        adapter = Path(adapter_dir) if adapter_dir else default_adapter_dir()
        if not is_adapter(adapter):
            raise ModelNotFound(f"no adapter in {adapter} (adapter_config.json or {ENSEMBLE_FILE} missing); "
                                f"train one with: cnl2sparql train --out DIR")
        config = {}
        if (adapter / "train_config.json").is_file():
            config = json.loads((adapter / "train_config.json").read_text())
        from cnl.cpu import use_inference_threads

        use_inference_threads(threads)  # None: the cores other processes leave free (cnl/cpu.py)
        base = base_model or config.get("base_model")
        engine = native_engine(base, adapter, device, dtype)
        model, tokenizer = engine or _transformers_model(base, adapter, device, dtype)
        translator = cls(model, tokenizer, config, adapter, **options)
        if engine is None:
            translator._beam_model = model  # beam search runs on the same transformers model
        translator._load_options = (base, adapter, device, dtype)
        return translator

    def beam_model(self):
        """The transformers model beam search runs on (loaded on first use when greedy decoding
        runs natively, see :mod:`cnl.learn.native`), and its tokenizer."""
        if self._beam_model is None:
            self._beam_model, self._beam_tokenizer = _transformers_model(*self._load_options)
        return self._beam_model, (self._beam_tokenizer or self.tokenizer)

    @property
    def target(self) -> str:
        return self.config.get("target", "squall")

    @property
    def notation(self) -> str:
        return self.config.get("notation", "label")

    # -- generation ------------------------------------------------------------------------
    def generate(self, prompts: list[str], *, constrained: bool = False, num_beams: int = 1, n_best: int = 1,
                 max_new_tokens: int = 96, batch_size: int = 1, properties=None, progress=None) -> list[list[str]]:
        """n-best completions per prompt. ``constrained`` keeps SQUALL outputs inside the grammar;
        ``properties``: per prompt, the property labels its ``<...>`` terms may be (None: the
        translator's known labels). ``progress``: called with the number of prompts done."""
        return [[text for text, _ in scored] for scored in self.generate_scored(
            prompts, constrained=constrained, num_beams=num_beams, n_best=n_best, max_new_tokens=max_new_tokens,
            batch_size=batch_size, properties=properties, progress=progress)]

    def generate_scored(self, prompts: list[str], *, constrained: bool = False, num_beams: int = 1, n_best: int = 1,
                        max_new_tokens: int = 96, batch_size: int = 1, properties=None,
                        progress=None) -> list[list[tuple[str, float | None]]]:
        """:meth:`generate` with each completion's score: with beams, its log-probability per
        token (transformers' ``sequences_scores``, the order of the n-best); greedy on the native
        engine: the model's own mean log-probability per token of what it wrote (before the
        grammar's mask); greedy on transformers: None."""
        if constrained and self.target != "squall":
            raise TranslationError(f"constrained decoding needs a SQUALL adapter, this one emits {self.target}")
        n_best = min(n_best, num_beams)
        native = isinstance(self.model, NativeLlama)
        model, tokenizer = (self.model, self.tokenizer) if native else self.beam_model()
        out: list[list[tuple[str, float | None]]] = []
        for start in range(0, len(prompts), batch_size):
            chunk = prompts[start: start + batch_size]
            constraint = None
            chunk_checkers = None
            if native:
                encoded = [tokenizer.encode(p) for p in chunk]
                prompt_length = max(len(ids) for ids in encoded)
            else:
                enc = tokenizer(chunk, return_tensors="pt", padding=True, add_special_tokens=False)
                enc = {k: v.to(model.device) for k, v in enc.items()}
                prompt_length = enc["input_ids"].shape[1]
            if constrained:
                chunk_checkers = [self.checker(None if properties is None else properties[start + i])
                                  for i in range(len(chunk))]
                constraint = SquallLogitsProcessor(
                    tokenizer, prompt_length, chunk_checkers[0],
                    enough=1 if num_beams == 1 else 2 * num_beams,
                    max_new_tokens=max_new_tokens, num_beams=num_beams, row_checkers=chunk_checkers)
            scores = None
            if native and num_beams > 1:
                generated, scores = model.generate_beams(encoded, num_beams=num_beams, n_best=n_best,
                                                         max_new_tokens=max_new_tokens, logits_processor=constraint,
                                                         eos_token_id=tokenizer.eos_token_id,
                                                         pad_token_id=tokenizer.pad_token_id, return_scores=True)
            elif native:
                generated, scores = model.generate_greedy(encoded, max_new_tokens=max_new_tokens,
                                                          logits_processor=constraint,
                                                          eos_token_id=tokenizer.eos_token_id,
                                                          pad_token_id=tokenizer.pad_token_id, return_scores=True)
            else:
                generated, scores = _generate_with_transformers(model, tokenizer, enc, constraint,
                                                                max_new_tokens=max_new_tokens, num_beams=num_beams,
                                                                n_best=n_best)
            texts = tokenizer.batch_decode(generated[:, prompt_length:], skip_special_tokens=True)
            if constrained:
                texts = [self._parsing_prefix(t, constraint.last_complete.get(j // n_best), chunk_checkers[j // n_best])
                         for j, t in enumerate(texts)]
            # a row no beam filled (every continuation banned) has no score: None, not -inf
            scores = [s if s is not None and math.isfinite(s) else None
                      for s in ([None] * len(texts) if scores is None else scores.tolist())]
            for i in range(len(chunk)):
                rows = range(i * n_best, (i + 1) * n_best)
                out.append([(" ".join(texts[j].split()), scores[j]) for j in rows])
            if progress is not None:
                progress(len(chunk))
        return out

    def _parsing_prefix(self, text: str, fallback: str | None = None, checker=None) -> str:
        """A constrained output cut off by max_new_tokens: its longest prefix that parses
        (ending a word or a term), with "?" added when that is what it lacks; else the last
        complete text seen while decoding; else its shortest completion with fixed words."""
        checker = checker or self.checker()
        text = " ".join(text.split())
        if checker.is_complete(text):
            return text
        for closer in ("?", ">?", "]?", "> ?", "] ?", ")?", ">)?", "])?"):
            if checker.is_complete(text + closer):
                return text + closer
        cuts = [i for i, ch in enumerate(text) if ch in " ?]>"] + [len(text)]
        for cut in sorted(set(cuts), reverse=True):
            head = text[:cut + (1 if cut < len(text) and text[cut] in "?]>" else 0)].rstrip()
            for candidate in (head, head + "?"):
                if candidate and checker.is_complete(candidate):
                    return candidate
        if fallback:
            return " ".join(fallback.split())
        # nothing parsed at any point: close it with fixed words ("?", ")", "something")
        return checker.force_complete(text) or text

    def checker(self, properties=None):
        """The grammar checker; with ``properties`` (labels), one whose ``<...>`` terms may only
        be those (sharing the parser states of the main one)."""
        if self._checker is None:
            known = self.known_labels() if self.constrain_properties and self.notation == "label" else None
            self._checker = SquallPrefixChecker(notation=self.notation, properties=known)
        if properties is None or not self.constrain_properties or self.notation != "label":
            return self._checker
        key = frozenset(properties)
        if key not in self._checkers:
            if len(self._checkers) > 256:
                self._checkers.clear()
            self._checkers[key] = self._checker.with_properties(key)
        return self._checkers[key]

    def known_labels(self) -> tuple[str, ...]:
        """The property labels constrained decoding allows any question (``known_properties``,
        default Wikidata's labels and aliases) less those naming only external identifiers:
        a question that names one brings it back (``allowed_properties``)."""
        if self._known_labels is None:
            identifiers = identifier_labels()
            self._known_labels = tuple(label for label in self.known_properties or known_property_labels()
                                       if label.lower() not in identifiers)
        return self._known_labels

    # -- property candidates -----------------------------------------------------------------
    @property
    def property_candidates(self) -> int:
        """How many property candidates the adapter's prompts show (0: none)."""
        return int(self.config.get("property_candidates") or 0)

    @property
    def property_retriever(self):
        if self._property_retriever is None and self.property_candidates:
            from cnl.linking.property_candidates import PropertyRetriever

            path = (self.adapter_dir or default_adapter_dir()) / "property_pool.json"
            if not path.is_file():
                raise ModelError(f"the adapter was trained with --property-candidates but {path} is missing")
            self._property_retriever = PropertyRetriever.shared(path)  # the one the preparations checked
        return self._property_retriever

    def properties_for(self, questions: list[str], candidates: list, kg=None) -> list[list]:
        """Per question, its property candidates (none when the adapter shows none); with a
        ``kg``, the properties around each question's entity candidates count too."""
        if not self.property_candidates:
            return [[] for _ in questions]
        around = None
        if kg is not None:
            from cnl.learn.prompts import candidate_field, prompt_candidates
            from cnl.linking.property_candidates import properties_around

            around = [properties_around(kg, [candidate_field(c, "id") for c in prompt_candidates(cands)])
                      for cands in candidates]
        return self.property_retriever.batch(questions, self.property_candidates, around=around)

    def allowed_properties(self, properties, question: str = "") -> set | None:
        """The property labels one question's output may write, given its property candidates;
        None where the shared checker's labels (:meth:`known_labels`) serve.

        "known": the known labels plus the external identifiers the question names ("the IMDb
        ID of Inception"; the property retriever never proposes identifiers); "candidates": the
        labels and aliases of the question's candidates and of the properties the adapter was
        trained on."""
        if self.property_constraint != "candidates":
            identifiers = identifier_labels()
            named = {gram for gram in word_ngrams(question) if gram in identifiers}
            return set(self.known_labels()) | named if named else None
        from cnl.sparql.wikidata_properties import wikidata_properties

        if not hasattr(self, "_trained_labels"):
            trained = {pid for s in (self.property_retriever.pool if self.property_retriever else ()) for pid in s.properties}
            self._trained_labels = {name for p in wikidata_properties() if p.id in trained
                                    for name in (p.label, *p.aliases)}
        allowed = set(self._trained_labels)
        for p in properties:
            allowed.add(p.label)
            allowed.update(getattr(p, "aliases", ()))
        return allowed

    # -- entity linking ----------------------------------------------------------------------
    def candidates_for(self, question: str, store=None, kg=None) -> list:
        """Entity candidates from the project's linker: over the ``store``'s labels (or those of
        ``kg`` when it is an embedded store); for another KG (an endpoint) by exact name
        (:class:`cnl.linking.linker.LabelLinker`); none without either."""
        store = store if store is not None else getattr(kg, "path", None)
        if store is not None:
            found = self.linker_for(store).link(question)
        elif kg is not None:
            found = LabelLinker(kg).link(question)
        else:
            return []
        return [{"id": c.id, "label": c.label, "description": c.description, "probability": c.score,
                 "mention": c.mention} for c in found]

    def linker_for(self, store) -> BuiltinLinker:
        """The built-in linker over the ``store``'s entity index, kept (it caches the entities'
        context vectors)."""
        key = str(store)
        if key not in self._linkers:
            self._linkers[key] = BuiltinLinker(self.entity_index(store))
        return self._linkers[key]

    def entity_index(self, store):
        """The store's entity index (built on first use, then cached on disk and here)."""
        key = str(store)
        if key not in self._indices:
            self._indices[key] = indices_for_store(store, verbose=True)[0]  # says so when it builds one
        return self._indices[key]

    # -- the pipeline --------------------------------------------------------------------------
    @property
    def demos(self) -> int:
        return int(self.config.get("demos") or 0)

    @property
    def demo_pool(self):
        """The solved questions an adapter trained with ``--demos`` shows in its prompts."""
        if self._demo_pool is None and self.demos:
            path = (self.adapter_dir or default_adapter_dir()) / "demos.json"
            if not path.is_file():
                raise ModelError(f"the adapter was trained with --demos {self.demos} but {path} is missing")
            self._demo_pool = DemoPool.load(path)
        return self._demo_pool

    def prompt(self, question: str, candidates, el: str, properties=()) -> str:
        demos = self.demo_pool.nearest(question, self.demos) if self.demos else ()
        return build_prompt(question, candidates, el=el, target=self.target, notation=self.notation,
                            style=self.config.get("prompt_style", "compact"), demos=demos, properties=properties)

    def postprocess(self, text: str, el: str, candidates=(), question: str = "") -> str:
        """The question's numbers copied where the model miswrote one, and this year where it wrote
        a year a difference counts from that the question does not say (:mod:`cnl.learn.numbers`);
        a statement the CNL says both ways round written the first way, a negation the question
        says and the CNL dropped restored, a comparison or superlative
        turned the way the question's comparative goes and ranked
        by its ordinal, a
        when-question answered with the time rather than its year, a comparison to a year the
        question says with "in" written as that year (:mod:`cnl.learn.agreement`);
        explicit EL: entity labels of the output replaced by their nearest EntityMap label
        (the translator's map, e.g. an evaluation's, plus this question's candidates)."""
        if question:
            text = current_year(question, copy_numbers(question, text))
            if self.target == "squall":
                text = one_way_round(text, parses=self._parses)
                text = restored_negation(question, text, candidates, notation=self.notation, parses=self._parses)
                text = agree_directions(question, text, candidates)
                text = ranked_superlative(question, text, parses=self._parses)
                text = in_the_year(question, asked_time(question, text, parses=self._parses), parses=self._parses)
        if el not in ("explicit", "hybrid") or self.target != "squall" or self.notation != "label":
            return text
        emap = self.entity_map.copy() if self.entity_map is not None else EntityMap()
        emap.add_candidates([{"label": c["label"], "id": c["id"], "score": c.get("probability", 1.0)}
                             for c in candidates if c.get("label")])
        if not len(emap):
            return text
        try:
            return postprocess(el, text, emap)
        except CNLError:
            return text

    def _parses(self, text: str) -> bool:
        try:
            parse_squall(text, notation=self.notation)
        except CNLError:
            return False
        return True

    def translate(self, question: str, *, el: str = "hybrid", kg=None, lexicon=None, constrained: bool = True,
                  validate: bool = True, num_beams: int | None = None, candidates=None, store=None,
                  profile: str = "wikidata", max_new_tokens: int = 96) -> Translation:
        """Question -> CNL -> SPARQL (and, with ``validate`` and a ``kg``, a non-empty answer).
        Entities are linked over ``store`` or ``kg`` unless ``candidates`` are given."""
        return self.translate_batch([question], el=el, kg=kg, lexicon=lexicon, constrained=constrained,
                                    validate=validate, num_beams=num_beams,
                                    candidates=None if candidates is None else [candidates], store=store,
                                    profile=profile, max_new_tokens=max_new_tokens)[0]

    def translate_batch(self, questions: list[str], *, el: str = "hybrid", kg=None, lexicon=None,
                        constrained: bool = True, validate: bool = True, num_beams: int | None = None,
                        candidates=None, store=None, profile: str = "wikidata", max_new_tokens: int = 96,
                        batch_size: int = 1, progress=None) -> list[Translation]:
        """:meth:`translate` for many questions with the model, indices and pools loaded once;
        generation runs ``batch_size`` prompts at a time. ``progress``: called with the number
        of questions done after each batch."""
        clock = RowClock(len(questions), progress)
        if candidates is None:
            candidates = [clock.own(i, self.candidates_for, q, store, kg) for i, q in enumerate(questions)]
        candidates = [[_candidate_dict(c) for c in cands] for cands in candidates]
        around_kg = opened = None
        if self.property_candidates:
            around_kg = kg
            if kg is None and store is not None:
                from cnl.kg import open_kg

                around_kg = opened = open_kg(store=store)
        try:
            properties = self.properties_for(questions, candidates, around_kg)
        finally:
            if opened is not None:
                opened.close()
        beams = num_beams if num_beams is not None else (DEFAULT_BEAMS if validate else 1)
        prompts = [self.prompt(q, cands, el, props) for q, cands, props in zip(questions, candidates, properties)]
        allowed = [self.allowed_properties(props, q) for props, q in zip(properties, questions)]
        clock.start_generation()
        scored_nbests = self.generate_scored(prompts, constrained=constrained, num_beams=beams, n_best=beams,
                                             max_new_tokens=max_new_tokens, batch_size=batch_size,
                                             properties=allowed if any(a is not None for a in allowed) else None,
                                             progress=clock.chunk_done)
        seconds = clock.generated([max(len(text) for text, _ in scored) for scored in scored_nbests])
        out = []
        # entities are linked over a KG: there, no candidate means the question names no entity
        linked = store is not None or kg is not None
        for question, cands, scored, props, own in zip(questions, candidates, scored_nbests, properties, seconds):
            t0 = time.perf_counter()
            nbest = [self.postprocess(text, el, cands, question) for text, _ in scored]
            chosen, sparql, error = self.choose(nbest, self.resolver(cands, lexicon, store, kg), kg=kg,
                                                validate=validate, profile=profile, question=question,
                                                candidates=cands, properties=props)
            scores = [score for _, score in scored] if beams > 1 else []
            score = scored[nbest.index(chosen)][1] if chosen in nbest else None
            reason = abstention_reason(question, cands, props, score, linked=linked) if self.abstain else None
            if reason:  # (``error`` says it too, for callers that read only it)
                chosen, sparql, error = None, None, f"the parser abstained: {reason}"
            out.append(Translation(question, chosen, sparql, cands, nbest, error,
                                   round(own + time.perf_counter() - t0, 4), scores, score, reason,
                                   unused_names(question, cands, sparql, chosen)))
        return out

    def resolver(self, candidates, lexicon=None, store=None, kg=None) -> ChainResolver:
        """Resolves the labels of a generated CNL: the ``lexicon`` (a Lexicon, a file or a dict),
        the question's entity candidates, Wikidata's property labels and aliases, then (with a
        store, or a KG) any entity or class of it by its exact name; last, the question's own
        words a candidate was linked from (its mention: the model copied "[Golden Globe Awards]"
        from the question where the candidate is "Golden Globe Award"), the likeliest candidate
        of that mention."""
        sources = [as_lexicon(lexicon)] if lexicon is not None else []
        sources.append(ChainResolver.table(("entity", c["label"], c["id"]) for c in candidates if c.get("label")))
        if self._properties is None:
            self._properties = property_table()
        sources.append(self._properties)
        store = store if store is not None else getattr(kg, "path", None)
        if store is not None:
            sources.append(IndexResolver(self.entity_index(store)))
        elif kg is not None:
            sources.append(KGLabelResolver(kg))
        likeliest_first = sorted(candidates, key=lambda c: -float(c.get("probability") or 0.0))
        sources.append(ChainResolver.table(("entity", c["mention"], c["id"]) for c in likeliest_first
                                           if c.get("mention") and c.get("id")))
        return ChainResolver(*sources)

    def slot_fit(self, kg) -> SlotFit:
        """The slot profiles of ``kg`` (:mod:`cnl.learn.slot_fit`), kept while it is open."""
        kept = self._slot_fits.get(id(kg))
        if kept is None or kept[0] is not kg:
            kept = self._slot_fits[id(kg)] = (kg, SlotFit(kg, timeout=self.validation_timeout))
        return kept[1]

    def choose(self, nbest, resolver, *, kg=None, validate: bool = True, profile="wikidata", question: str = "",
               candidates=(), properties=()):
        """(text, SPARQL, error) of the n-best candidate to keep (:func:`cnl.learn.chooser.choose_output`,
        with this translator's notation, chooser signals, slot profiles and validation timeout); a
        target other than SQUALL is not compiled here: its first candidate is kept."""
        if self.target != "squall":
            return (nbest[0] if nbest else None), None, None
        return choose_output(nbest, resolver, notation=self.notation, chooser=self.chooser,
                             fit=lambda: self.slot_fit(kg), timeout=self.validation_timeout, kg=kg,
                             validate=validate, profile=profile, question=question, candidates=candidates,
                             properties=properties)


def word_ngrams(text: str, longest: int = 6) -> set[str]:
    """The lower-cased word n-grams of ``text`` (up to ``longest`` words), punctuation at the
    ends of words dropped: "What is the IMDb ID of Inception?" has "imdb id"."""
    words = [w.strip("?!.,;:'\"()[]") for w in text.lower().split()]
    words = [w for w in words if w]
    return {" ".join(words[i:j]) for i in range(len(words)) for j in range(i + 1, min(len(words), i + longest) + 1)}


def native_engine(base_model, adapter: Path, device=None, dtype=None):
    """(NativeLlama, NativeTokenizer) for greedy decoding without transformers when the base
    model folder, the adapter, the device (CPU) and the dtype allow it; else None. Set
    CNL_NATIVE=0 to decode with transformers always."""
    import os

    from cnl.learn.base_model import require_model_stack, resolve_base_model

    if os.environ.get("CNL_NATIVE", "1") == "0" or device not in (None, "cpu") or dtype == "float16":
        return None
    require_model_stack()
    import torch

    if device is None and torch.cuda.is_available():
        return None
    folder = Path(resolve_base_model(base_model))
    if not (folder.is_dir() and native.supports(folder)):
        return None
    members = adapter_members(adapter)
    try:
        if members is not None:
            model = NativeEnsemble.load(folder, members, dtype=dtype or "bfloat16")
        else:
            model = NativeLlama.load(folder, adapter, dtype=dtype or "bfloat16")
    except ValueError:
        return None  # not a plain LoRA of this model: peft merges it on the transformers path
    return model, NativeTokenizer(folder)


def _transformers_model(base_model, adapter: Path, device=None, dtype=None):
    """The base model with the adapter merged, in ``dtype``, and its left-padding tokenizer."""
    import torch

    from cnl.learn.base_model import load_base_model

    members = adapter_members(adapter)
    if members is not None:
        # transformers decodes one model: GPUs and other base models run the ensemble's first
        # member (greedy and beam search on a CPU run them all, natively)
        log.warning("%s is an ensemble of %d adapters; GPUs and other base models run "
                    "its first member only (%s)", adapter, len(members), members[0].name)
        adapter = members[0]
    model, tokenizer = load_base_model(base_model, device)
    # plain weights generate faster; a plain LoRA merges without importing peft (seconds)
    if not merge_lora(model, adapter):
        from peft import PeftModel

        model = PeftModel.from_pretrained(model, str(adapter)).merge_and_unload()
    if dtype is None:
        dtype = "bfloat16" if model.device.type == "cpu" else None
    if dtype is not None:
        model = model.to(getattr(torch, dtype))
    model.eval()
    tokenizer.padding_side = "left"
    return model, tokenizer


def _generate_with_transformers(model, tokenizer, enc, constraint, *, max_new_tokens: int, num_beams: int,
                                n_best: int):
    import torch
    from transformers import LogitsProcessorList

    processors = LogitsProcessorList([constraint] if constraint is not None else [])
    with torch.no_grad():
        result = model.generate(
            **enc, max_new_tokens=max_new_tokens, do_sample=False, num_beams=num_beams,
            num_return_sequences=n_best, logits_processor=processors, return_dict_in_generate=True,
            output_scores=num_beams > 1, pad_token_id=tokenizer.pad_token_id, eos_token_id=tokenizer.eos_token_id)
    # (sequences, their beam scores; None for greedy)
    return result.sequences, (result.sequences_scores if num_beams > 1 else None)


class RowClock:
    """Each question's own seconds in a batch (``Translation.seconds``): its linking and its
    validation, timed alone; the work done for all at once (property candidates, prompts) shared
    equally; and each generated chunk's time shared among its questions by the length of what
    they generated (a longer output kept the batch decoding longer). ``progress`` (called with
    the number of questions done) is passed through."""

    def __init__(self, n: int, progress=None) -> None:
        self.started = self.generation_started = time.perf_counter()
        self.own_seconds = [0.0] * n
        self.chunks: list[tuple[int, float]] = []  # (questions in the chunk, when it was done)
        self.progress = progress

    def own(self, i: int, func, *args):
        t0 = time.perf_counter()
        try:
            return func(*args)
        finally:
            self.own_seconds[i] += time.perf_counter() - t0

    def start_generation(self) -> None:
        self.generation_started = time.perf_counter()

    def chunk_done(self, n: int) -> None:
        self.chunks.append((n, time.perf_counter()))
        if self.progress is not None:
            self.progress(n)

    def generated(self, lengths: list[int]) -> list[float]:
        """Each question's seconds up to the end of generation, given the length of its output."""
        n = len(self.own_seconds)
        shared = max(0.0, self.generation_started - self.started - sum(self.own_seconds)) / max(n, 1)
        out = [own + shared for own in self.own_seconds]
        start, done = 0, self.generation_started
        for count, when in self.chunks:
            rows = range(start, min(start + count, n))
            weights = [max(lengths[i], 1) for i in rows]
            for i, weight in zip(rows, weights):
                out[i] += (when - done) * weight / sum(weights)
            start, done = start + count, when
        if not self.chunks:  # a generator that reported no chunk: its time shared equally
            out = [t + (time.perf_counter() - self.generation_started) / n for t in out]
        return out


def has_answers(result) -> bool:
    """Whether a KG query result is a true ASK or a non-empty table."""
    return result is True or (result not in (None, False) and len(getattr(result, "rows", result) or ()) > 0)


_TRANSLATORS: dict = {}
_LOAD_LOCK = threading.Lock()
_LOADING: dict = {}       # key -> the load in progress (threads arriving meanwhile wait for it)
_LOAD_ERRORS: dict = {}   # key -> why the last load failed (cleared by the next success)


class _Load:
    def __init__(self) -> None:
        self.done = threading.Event()
        self.error: CNLError | None = None


def get_translator(adapter_dir=None, base_model=None) -> Translator:
    """A cached Translator (loading the model takes seconds).

    Loaded once per process: concurrent first callers wait for the one load (loading the model
    from several threads at once corrupts it) and all get its result. A failed load is never
    cached: its callers get a ModelError and the next call tries again."""
    key = (str(adapter_dir) if adapter_dir else None, base_model)
    translator = _TRANSLATORS.get(key)
    if translator is not None:
        return translator
    with _LOAD_LOCK:
        if key in _TRANSLATORS:
            return _TRANSLATORS[key]
        load = _LOADING.get(key)
        owner = load is None
        if owner:
            load = _LOADING[key] = _Load()
    if not owner:
        load.done.wait()
        if load.error is not None:
            raise load.error
        return _TRANSLATORS[key]
    try:
        translator = Translator.load(adapter_dir, base_model)
        if translator.property_retriever is not None:
            # the property index (embeddings computed once per machine) is part of being loaded:
            # a shared translator's first requests must not race to build it
            translator.property_retriever.prepare()
    except Exception as err:  # torch/transformers errors too: none may leave a broken translator
        error = err if isinstance(err, CNLError) else ModelError(
            f"the learned parser could not be loaded ({type(err).__name__}: {err}); "
            f"it is tried again on the next request")
        with _LOAD_LOCK:
            _LOAD_ERRORS[key] = str(error)
            load.error = error
            del _LOADING[key]
        load.done.set()
        raise error from None
    with _LOAD_LOCK:
        _TRANSLATORS[key] = translator
        _LOAD_ERRORS.pop(key, None)
        del _LOADING[key]
    load.done.set()
    return translator


def translator_status(adapter_dir=None, base_model=None) -> dict:
    """Whether the translator is loaded, being loaded, or failed to load last time (and why),
    without loading it."""
    key = (str(adapter_dir) if adapter_dir else None, base_model)
    with _LOAD_LOCK:
        return {"loaded": key in _TRANSLATORS, "loading": key in _LOADING, "error": _LOAD_ERRORS.get(key)}


__all__ = ["Translator", "Translation", "get_translator", "translator_status", "default_adapter_dir", "has_answers",
           "is_adapter", "adapter_members"]
