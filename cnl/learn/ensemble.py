"""Ensemble adapters: several LoRA adapters of one base model that decode together.

An ensemble folder holds its members' adapters in subfolders, their list in ``ensemble.json``
and the translator's files of its first member (``train_config.json``: prompt format and
settings; ``property_pool.json``, ``demos.json``: what its prompts are built from). At each step
of greedy decoding the next token is the one with the best mean log-probability over the
members (:class:`cnl.learn.native.NativeEnsemble`, one batch through the shared base weights).
Members trained with different seeds or data make different mistakes; the mean keeps what
they agree on.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

from cnl.errors import ModelError, ModelNotFound
from cnl.learn.inference import ENSEMBLE_FILE, adapter_members
from cnl.learn.lora import plain_lora

# files an adapter folder needs to be a member
MEMBER_FILES = ("adapter_config.json", "adapter_model.safetensors")
# files of the first member the translator reads beside the weights
TRANSLATOR_FILES = ("train_config.json", "property_pool.json", "demos.json")
# train_config.json settings that make the prompts and outputs; members must agree on them
PROMPT_SETTINGS = ("base_model", "target", "notation", "el", "prompt_style", "property_candidates", "demos")


def make_ensemble(adapters: list[str | Path], out: str | Path) -> Path:
    """Write the ensemble of ``adapters`` (folders written by ``cnl2sparql train``) to ``out``."""
    adapters = [Path(a) for a in adapters]
    if len(adapters) < 2:
        raise ModelError("an ensemble needs at least two adapters")
    configs = []
    for adapter in adapters:
        if adapter_members(adapter) is not None:
            raise ModelError(f"{adapter} is an ensemble itself: list its members instead")
        missing = [name for name in MEMBER_FILES if not (adapter / name).is_file()]
        if missing:
            raise ModelNotFound(f"no adapter in {adapter} ({', '.join(missing)} missing)")
        if not plain_lora(json.loads((adapter / "adapter_config.json").read_text())):
            raise ModelError(f"the adapter in {adapter} is not a plain LoRA adapter: ensembles decode plain "
                             f"LoRA adapters only")
        config_file = adapter / "train_config.json"
        configs.append(json.loads(config_file.read_text()) if config_file.is_file() else {})
    for adapter, config in zip(adapters[1:], configs[1:]):
        differ = [key for key in PROMPT_SETTINGS if config.get(key) != configs[0].get(key)]
        if differ:
            raise ModelError(f"{adapter} and {adapters[0]} were trained with different "
                             f"{', '.join(differ)}: ensemble members must read the same prompts")
    out = Path(out)
    if out.exists() and any(out.iterdir()):
        raise ModelError(f"{out} is not empty: choose a new folder for the ensemble")
    out.mkdir(parents=True, exist_ok=True)
    names = []
    for index, adapter in enumerate(adapters, 1):
        name = f"member-{index}"
        (out / name).mkdir()
        for file in (*MEMBER_FILES, "train_config.json", "metrics.json", "losses.json"):  # and the run's record
            if (adapter / file).is_file():
                shutil.copy2(adapter / file, out / name / file)
        names.append(name)
    for file in TRANSLATOR_FILES:
        if (adapters[0] / file).is_file():
            shutil.copy2(adapters[0] / file, out / file)
    (out / ENSEMBLE_FILE).write_text(json.dumps({"members": names, "sources": [str(a) for a in adapters]},
                                                indent=1) + "\n")
    return out
