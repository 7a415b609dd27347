"""The experiment runner behind ``cnl2sparql eval --config experiment.toml``.

A configuration names experiments, each a grid of languages × EL variants × train sizes; the
cells of all experiments are pooled and deduplicated. Trained adapters, raw predictions and
per-example scores are cached under ``cache`` (keyed by the settings that produced them), so an
interrupted run resumes where it stopped. The report (markdown), every figure (JSON) and the
plots (PNG) are written to ``out``.

Training unit: one language and one prompt kind (EL candidates in the prompt or not); explicit
and hybrid EL reuse the predictions of none and implicit and only post-process them, as in the
paper. The interim trainer saves the checkpoints of a sample-efficiency curve in one pass.
"""
from __future__ import annotations

import hashlib
import json
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from cnl.datasets.ecai.resolution import class_table, data_property_table, resolver_for
from cnl.linking.resolver import ChainResolver
from cnl.errors import EvalCacheError, EvalConfigError
from cnl.eval.examples import EL_VARIANTS, LANGUAGES, prompt_el, split_language

MAX_NEW_TOKENS = {"squall": 64, "sparklis": 96, "sparql": 192}


@dataclass(frozen=True)
class Experiment:
    name: str
    languages: tuple[str, ...]
    el: tuple[str, ...]
    train_sizes: tuple[int, ...]


@dataclass
class EvalConfig:
    name: str
    out: Path
    cache: Path
    experiments: list[Experiment]
    test_size: int | None = None
    seed: int = 0
    store: Path | None = None
    query_timeout: float = 20.0
    threads: int = 2
    generation_batch: int = 16
    train: dict = field(default_factory=dict)
    source: Path | None = None

    def cells(self) -> list[tuple[str, str, int]]:
        seen: dict[tuple[str, str, int], None] = {}
        for exp in self.experiments:
            for lang in exp.languages:
                for el in exp.el:
                    for size in exp.train_sizes:
                        seen[(lang, el, size)] = None
        return list(seen)


def load_config(path: str | Path) -> EvalConfig:
    path = Path(path)
    try:
        raw = tomllib.loads(path.read_text())
    except FileNotFoundError:
        raise EvalConfigError(f"configuration not found: {path}") from None
    except tomllib.TOMLDecodeError as err:
        raise EvalConfigError(f"{path}: not valid TOML: {err}") from None
    base = path.resolve().parent

    def rel(value):
        p = Path(value)
        return p if p.is_absolute() else (base / p)

    known = {"name", "out", "cache", "experiment", "test_size", "seed", "store", "query_timeout",
             "threads", "generation_batch", "train"}
    unknown = set(raw) - known
    if unknown:
        raise EvalConfigError(f"{path}: unknown key(s) {', '.join(sorted(unknown))}; known: {', '.join(sorted(known))}")
    experiments = []
    for i, exp in enumerate(raw.get("experiment", [])):
        try:
            e = Experiment(str(exp["name"]), tuple(exp["languages"]), tuple(exp.get("el", ["implicit"])),
                           tuple(int(n) for n in exp["train_sizes"]))
        except KeyError as err:
            raise EvalConfigError(f"{path}: experiment {i + 1} lacks {err.args[0]!r}") from None
        for lang in e.languages:
            split_language(lang)
        for el in e.el:
            if el not in EL_VARIANTS:
                raise EvalConfigError(f"{path}: experiment {e.name!r}: unknown EL variant {el!r}; use {', '.join(EL_VARIANTS)}")
        if any(n <= 0 for n in e.train_sizes):
            raise EvalConfigError(f"{path}: experiment {e.name!r}: train sizes must be positive")
        experiments.append(e)
    if not experiments:
        raise EvalConfigError(f"{path}: no [[experiment]] tables")
    return EvalConfig(
        name=str(raw.get("name", path.stem)), out=rel(raw.get("out", f"docs/results/{path.stem}")),
        cache=rel(raw.get("cache", ".cache/eval")), experiments=experiments,
        test_size=raw.get("test_size"), seed=int(raw.get("seed", 0)),
        store=rel(raw["store"]) if raw.get("store") else None,
        query_timeout=float(raw.get("query_timeout", 20.0)), threads=int(raw.get("threads", 2)),
        generation_batch=int(raw.get("generation_batch", 16)), train=dict(raw.get("train", {})),
        source=path,
    )


# ------------------------------------------------------------------------------ resolution

def grid_tables() -> tuple[dict, dict]:
    """The wider tables a grid prediction's labels are looked up in first: the classes of the
    training alignments and the data's property list."""
    from cnl.eval.examples import aligned_rows

    return class_table(mapping for _, _, _, mapping in aligned_rows("train")), data_property_table()


def prediction_resolver(example, classes: dict, properties: dict, corrected: dict | None = None):
    """Resolves labels in a prediction: classes from the training alignments and properties
    from the data's property list first, then the example's gold terms, then (entities) its EL
    candidates, then ``corrected`` (the EntityMap labels explicit EL wrote). Matching ignores
    case and ``_``/space; a label is looked up only under the kind the parser gave it."""
    terms = [(kind, label, tid) for kind, tid, label in example.gold_terms]
    return resolver_for(terms, example.candidates, first=({**properties, **classes},), last=(corrected or {},),
                        cross_kinds=False)


def compile_prediction(text: str, language: str, resolver) -> tuple[str | None, str | None]:
    """(SPARQL, error) for a predicted string; SPARQL is None when it cannot be had."""
    from cnl.dialects import get_dialect
    from cnl.sparql.compiler import compile_query, resolve_query
    from cnl.datasets.ecai.preset import ECAI_PROFILE
    from cnl.errors import CNLError
    from cnl.eval.examples import with_prefixes

    target, notation = split_language(language)
    if target == "sparql":
        sparql = with_prefixes(text)
        try:
            from cnl.kg.sparql import parse_sparql

            parse_sparql(sparql)
        except Exception as err:  # noqa: BLE001
            return None, f"invalid SPARQL: {err}"[:200]
        return sparql, None
    if target == "sparklis":
        try:
            query = get_dialect("sparklis").parse(text)
        except (ValueError, CNLError, Exception) as err:  # noqa: BLE001 — no Sparklis parser yet
            return None, f"{type(err).__name__}: {err}"[:200]
    else:
        try:
            query = get_dialect("squall").parse(text, notation=notation)
        except CNLError as err:
            return None, str(err).splitlines()[0][:200]
        except Exception as err:  # noqa: BLE001
            return None, f"{type(err).__name__}: {err}"[:200]
    try:
        resolved = resolve_query(query, resolver)
        return compile_query(resolved, ECAI_PROFILE, None), None
    except CNLError as err:
        return None, str(err).splitlines()[0][:200]
    except Exception as err:  # noqa: BLE001
        return None, f"{type(err).__name__}: {err}"[:200]


def sparklis_parser_available() -> bool:
    """Whether the Sparklis dialect (issue 3) is installed; until then Sparklis is scored by EM."""
    import importlib.util

    return importlib.util.find_spec("cnl.dialects.sparklis.parser") is not None


# ------------------------------------------------------------------------------ the run

def _digest(obj) -> str:
    return hashlib.sha1(json.dumps(obj, sort_keys=True, default=str).encode()).hexdigest()[:10]


class Runner:
    def __init__(self, config: EvalConfig, progress: bool = True) -> None:
        self.config, self.progress = config, progress
        self.cache = Path(config.cache)
        self.log: list[str] = []

    def say(self, message: str) -> None:
        stamp = time.strftime("%H:%M:%S")
        line = f"[{stamp}] {message}"
        self.log.append(line)
        if self.progress:
            print(line, flush=True)

    # --- training and generation ---------------------------------------------------------------

    def train_settings(self) -> dict:
        """The [train] table of the configuration over cnl.learn.train's defaults (the
        target, notation, EL, size and output folder are set per cell)."""
        from cnl.learn.train import TrainConfig

        per_cell = {"target", "notation", "el", "train_size", "out", "split", "prompt_style"}
        known = {f for f in TrainConfig.__dataclass_fields__ if f not in per_cell}
        unknown = set(self.config.train) - known
        if unknown:
            raise EvalConfigError(f"[train]: unknown setting(s) {', '.join(sorted(unknown))}; "
                                  f"known: {', '.join(sorted(known))}")
        settings = {"seed": self.config.seed, "threads": self.config.threads, **self.config.train}
        cfg = TrainConfig(**settings)
        return {k: v for k, v in cfg.to_json().items() if k in known}

    def adapters(self, language: str, pel: str, sizes: list[int]) -> dict[int, Path]:
        """One LoRA adapter per train size, trained by cnl.learn.train on the first N examples
        of one seeded permutation (smaller sets are prefixes of larger ones)."""
        from cnl.eval.examples import build_examples
        from cnl.learn.train import TrainConfig, train

        settings = self.train_settings()
        target, notation = split_language(language)
        key = _digest({"language": language, "prompt_el": pel, **settings})
        folder = self.cache / "adapters" / f"{language}-{pel}-{key}"
        examples = build_examples("train", language, pel, size=max(sizes), seed=self.config.seed)
        out = {}
        for size in sorted(sizes):
            path = folder / f"n{size}"
            out[size] = path
            if (path / "metrics.json").is_file():
                continue
            self.say(f"train {language} / prompt {pel} / {size} examples -> {path}")
            config = TrainConfig(target=target, notation=notation, el=pel, train_size=size,
                                 out=path, **settings)
            train(config, progress=self.progress, examples=examples[:size])
        return out

    def predictions(self, language: str, pel: str, size: int, adapter: Path, examples) -> list[str]:
        folder = self.cache / "predictions"
        folder.mkdir(parents=True, exist_ok=True)
        key = _digest({"adapter": str(adapter), "prompts": [e.prompt for e in examples]})
        path = folder / f"{language}-{pel}-n{size}-{key}.jsonl"
        if path.exists():
            rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
            if len(rows) == len(examples):
                return [r["prediction"] for r in rows]
            self.say(f"incomplete prediction cache {path.name}: regenerating")
        from tqdm import tqdm

        from cnl.learn.inference import Translator

        target, _ = split_language(language)
        # float32: the committed grid's predictions were made so (bfloat16 is the CLI's default)
        translator = Translator.load(adapter, threads=self.config.threads, dtype="float32")
        started = time.time()
        # longest prompts first keeps padding low; the order is restored below
        order = sorted(range(len(examples)), key=lambda i: -len(examples[i].prompt))
        by_index: dict[int, str] = {}
        batch = self.config.generation_batch
        with tqdm(total=len(examples), desc=f"generate {language}-{pel}-n{size}", unit="q",
                  disable=not self.progress) as bar:
            for start in range(0, len(order), batch):
                idx = order[start:start + batch]
                texts = translator.generate([examples[i].prompt for i in idx], batch_size=len(idx),
                                            max_new_tokens=MAX_NEW_TOKENS[target])
                for i, nbest in zip(idx, texts):
                    by_index[i] = nbest[0]
                bar.update(len(idx))
        outputs = [by_index[i] for i in range(len(examples))]
        elapsed = time.time() - started
        tmp = path.with_suffix(".tmp")
        tmp.write_text("".join(json.dumps({"index": e.index, "prediction": o}) + "\n"
                               for e, o in zip(examples, outputs)))
        tmp.replace(path)
        (path.with_suffix(".time.json")).write_text(json.dumps({"seconds": round(elapsed, 1)}))
        return outputs

    # --- scoring --------------------------------------------------------------------------------

    def score_cell(self, language: str, el: str, size: int, examples, raw: list[str],
                   kg, gold_cache: dict, tables: tuple[dict, dict], entity_map) -> dict:
        from cnl.eval import metrics as m
        from cnl.eval.taxonomy import GoldContext, classify, tally
        from cnl.linking.el_variants import explicit_correct

        target, notation = split_language(language)
        predictions = []
        for text in raw:
            if el in ("explicit", "hybrid") and notation in ("label", "ecai") and entity_map is not None:
                try:
                    text = explicit_correct(text, entity_map, notation=notation)
                except Exception:  # noqa: BLE001 — a label the map cannot handle stays
                    pass
            predictions.append(text)
        golds = [e.completion for e in examples]
        # explicit EL put EntityMap labels in the prediction: their IDs come from the map
        corrected = ({ChainResolver.key("entity", label): entity_map[label] for label in entity_map.keys()}
                     if el in ("explicit", "hybrid") and entity_map is not None else {})
        rows = []
        executable = target != "sparklis" or sparklis_parser_available()
        for example, pred in zip(examples, predictions):
            resolver = prediction_resolver(example, *tables, corrected=corrected)
            ref_sparql, gold_answer = gold_cache[(language, example.index)]
            sparql, error = compile_prediction(pred, language, resolver) if executable else (None, "not executable")
            row = {"index": example.index, "question": example.question, "gold": example.completion,
                   "prediction": pred, "raw": raw[len(rows)], "compiled": sparql is not None,
                   "error": error, "exact": m.normalize_query_text(pred) == m.normalize_query_text(example.completion)}
            if executable:
                row["ta_offline"] = m.ta_offline(sparql, ref_sparql)
            if kg is not None and executable:
                answer, run_error = kg.run(sparql) if sparql else (None, error)
                ta = m.translation_accuracy(answer, gold_answer, pred, example.completion)
                # F1 and Hits@1 only where the gold has answers (SPINACH/GRASP exclude the rest)
                has_gold = not m.is_empty(gold_answer)
                row.update(ta=ta.correct, ta_component=ta.component,
                           f1=m.row_major_f1(answer, gold_answer) if has_gold else None,
                           hits1=m.hits_at_1(answer, _first_values(gold_answer)) if has_gold else None,
                           answers=None if answer is None else (answer if isinstance(answer, bool) else len(answer)),
                           run_error=run_error)
            correct = row.get("ta", row.get("ta_offline", row["exact"]))
            row["category"] = None if correct else classify(
                pred, notation, GoldContext.build(example.gold_terms, example.candidates),
                parsed=sparql is not None,
                executed_empty=(m.is_empty(answer) if kg is not None and sparql else None) if executable else None,
                gold_empty=(m.is_empty(gold_answer) if kg is not None else None) if executable else None)
            rows.append(row)
        figures = {
            "language": language, "target": target, "notation": notation, "el": el, "train_size": size,
            "n": len(rows),
            "bleu": m.bleu(predictions, golds), "meteor": m.meteor(predictions, golds),
            "rouge2": m.rouge2(predictions, golds), "exact_match": m.exact_match(predictions, golds),
            "parse_rate": m.mean(r["compiled"] for r in rows) if executable else None,
            "ta_offline": m.mean(r["ta_offline"] for r in rows) if executable else None,
            "ta": m.mean(r["ta"] for r in rows) if kg is not None and executable else None,
            "ta_a1": m.mean(r.get("ta_component") == "A1" for r in rows) if kg is not None and executable else None,
            "row_major_f1": _mean_defined(r["f1"] for r in rows) if kg is not None and executable else None,
            "hits_at_1_gold_query": _mean_defined(r["hits1"] for r in rows) if kg is not None and executable else None,
            "errors": tally(r["category"] for r in rows),
            "gold_string_compiles": m.mean(gold_cache[("own", language, e.index)] for e in examples)
            if target != "sparql" else 1.0,
            "gold_answers_nonempty": m.mean(not m.is_empty(gold_cache[(language, e.index)][1]) for e in examples)
            if kg is not None else None,
            "scored_by": "TA" if kg is not None and executable else ("TA-offline" if executable else "exact match"),
        }
        return {"figures": figures, "rows": rows}

    def gold_answers(self, languages, examples_by_language, kg, tables) -> dict:
        """(reference SPARQL, answer) per (language, example). A CNL is scored against its own
        gold string compiled (the data's CNL strings and gold SPARQL sometimes disagree), or the
        normalized gold SPARQL where that string does not compile; SPARQL against the gold."""
        cache = {}
        executable = {lang: split_language(lang)[0] != "sparklis" or sparklis_parser_available()
                      for lang in languages}
        for language in languages:
            target, _ = split_language(language)
            for example in examples_by_language[language]:
                ref, own = example.gold_sparql, False
                if target != "sparql" and executable[language]:
                    compiled, _ = compile_prediction(example.completion, language,
                                                     prediction_resolver(example, *tables))
                    if compiled is not None:
                        ref, own = compiled, True
                answer = kg.run(ref)[0] if kg is not None else None
                cache[(language, example.index)] = (ref, answer)
                cache[("own", language, example.index)] = own
        return cache

    def run(self) -> dict:
        from cnl.eval.examples import build_examples, usable_count
        from cnl.eval.report import write_report

        config = self.config
        started = time.time()
        cells = config.cells()
        n_train = usable_count("train")
        for _, _, size in cells:
            if size > n_train:
                raise EvalConfigError(f"train size {size} exceeds the {n_train} usable training examples")
        languages = sorted({c[0] for c in cells}, key=LANGUAGES.index)
        examples_by_language = {}
        for language in languages:
            exs = build_examples("test", language, "implicit", seed=config.seed)
            exs.sort(key=lambda e: e.index)
            examples_by_language[language] = exs[:config.test_size] if config.test_size else exs
        tables = grid_tables()
        kg = None
        if config.store:
            from cnl.eval.execution import QueryRunner

            kg = QueryRunner(config.store, timeout=config.query_timeout)
        self.say(f"{len(cells)} cells, {len(languages)} languages, "
                 f"{len(next(iter(examples_by_language.values())))} test questions, "
                 f"KG: {config.store or 'none (TA-offline only)'}")
        try:
            gold_cache = self.gold_answers(languages, examples_by_language, kg, tables)
            entity_map = self._entity_map() if any(c[1] in ("explicit", "hybrid") for c in cells) else None
            # training units
            units: dict[tuple[str, str], set[int]] = {}
            for language, el, size in cells:
                units.setdefault((language, prompt_el(el)), set()).add(size)
            results = []
            scores_dir = self.cache / "scores"
            scores_dir.mkdir(parents=True, exist_ok=True)
            for (language, pel), sizes in units.items():
                adapters = self.adapters(language, pel, sorted(sizes))
                for size in sorted(sizes):
                    examples = [_with_prompt(e, language, pel) for e in examples_by_language[language]]
                    raw = self.predictions(language, pel, size, adapters[size], examples)
                    for el in [el for (lang, el, s) in cells if lang == language and prompt_el(el) == pel and s == size]:
                        scored = self.score_cell(language, el, size, examples, raw, kg, gold_cache, tables, entity_map)
                        done = json.loads((adapters[size] / "metrics.json").read_text())
                        scored["figures"]["train"] = {
                            "examples": done["examples"], "epochs": done["epochs"], "tokens": done["tokens"],
                            "seconds": done["wall_time_s"], "tokens_per_second": done["tokens_per_s"],
                            "final_epoch_mean_loss": done["final_epoch_mean_loss"],
                            "peak_rss_mb": done["peak_rss_mb"]}
                        scored["figures"]["tokens_per_query"] = _tokens_per_query([r["prediction"] for r in scored["rows"]])
                        path = scores_dir / f"{language}-{el}-n{size}.json"
                        path.write_text(json.dumps(scored, indent=1, default=str))
                        f = scored["figures"]
                        self.say(f"{language} {el} n={size}: TA={_fmt(f['ta'])} TA-offline={_fmt(f['ta_offline'])} "
                                 f"EM={f['exact_match']:.3f} BLEU={f['bleu']:.3f}")
                        results.append(scored)
                        # a report after every cell: an interrupted run still leaves one
                        write_report(config, results, wall_seconds=time.time() - started,
                                     log=self.log, total_cells=len(cells))
        finally:
            if kg is not None:
                kg.close()
        wall = time.time() - started
        return write_report(config, results, wall_seconds=wall, log=self.log, total_cells=len(cells))

    def _entity_map(self):
        from cnl.datasets.ecai.loader import load_ecai
        from cnl.linking.entity_map import EntityMap

        emap = EntityMap()
        for split in ("train", "test"):
            for record in load_ecai(split):
                emap.add_pairs((c.label, c.id) for c in record.candidates if c.label and c.id)
        return emap


def _with_prompt(example, language, pel):
    from dataclasses import replace

    from cnl.eval.examples import build_prompt

    return replace(example, prompt=build_prompt(example.question, example.candidates, language=language, el=pel))


def _mean_defined(values):
    values = [v for v in values if v is not None]
    return sum(values) / len(values) if values else None


def _first_values(answer) -> list:
    if answer is None or isinstance(answer, bool):
        return [] if answer is None else [answer]
    return [v for row in answer for v in row if v is not None]


def _tokens_per_query(texts):
    from cnl.learn.base_model import tokens_per_query

    try:
        return tokens_per_query(texts)
    except Exception:  # noqa: BLE001
        return None


def _fmt(value) -> str:
    return "-" if value is None else f"{value:.3f}"


def run_config(path: str | Path, progress: bool = True) -> dict:
    config = load_config(path)
    return Runner(config, progress=progress).run()


__all__ = ["EvalConfig", "Experiment", "load_config", "Runner", "run_config", "compile_prediction",
           "EvalCacheError"]
