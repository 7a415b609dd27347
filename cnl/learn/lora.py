"""Merging a plain LoRA adapter into a model's weights without importing peft.

Inference only needs ``W + (alpha / r) * B @ A`` on each adapted linear layer; importing peft
to do that costs about 2.5 s of a cold ``cnl2sparql translate`` (half of its budget), so a
plain LoRA adapter is merged here. Anything else peft can write (DoRA, rsLoRA scaling is
handled, per-module rank/alpha patterns, bias training, modules to save, other adapter types)
is reported as unsupported so that the caller falls back to peft.
"""
from __future__ import annotations

import json
import math
from pathlib import Path

# adapter_config.json keys whose non-empty values change what the adapter computes
_UNSUPPORTED_WHEN_SET = ("use_dora", "alpha_pattern", "rank_pattern", "modules_to_save",
                         "layer_replication", "trainable_token_indices", "target_parameters", "use_qalora",
                         "use_bdlora", "arrow_config", "alora_invocation_tokens", "lora_bias", "fan_in_fan_out")
_PREFIX = "base_model.model."


def plain_lora(config: dict) -> bool:
    """Whether ``config`` (an adapter_config.json) describes a LoRA this module can merge."""
    if config.get("peft_type") != "LORA" or config.get("bias", "none") != "none":
        return False
    return not any(config.get(key) for key in _UNSUPPORTED_WHEN_SET)


def lora_scale(config: dict) -> float:
    """The factor of ``B @ A``: alpha / r, or alpha / sqrt(r) for rsLoRA."""
    rank, alpha = config["r"], config["lora_alpha"]
    return alpha / math.sqrt(rank) if config.get("use_rslora") else alpha / rank


def merge_lora(model, adapter_dir: str | Path) -> bool:
    """Add the adapter in ``adapter_dir`` into ``model``'s weights in place. False (and the
    model untouched) when the adapter is not a plain LoRA or its tensors do not fit the model:
    then use peft."""
    modules = dict(model.named_modules())
    return _merge(lambda name: getattr(modules.get(name), "weight", None), adapter_dir)


def merge_lora_state_dict(weights: dict, adapter_dir: str | Path) -> bool:
    """The same for a state dict (``model.layers.N.self_attn.q_proj.weight`` names), as the
    native decoder loads it; False (nothing changed) when it is not a plain LoRA of it."""
    return _merge(lambda name: weights.get(name + ".weight"), adapter_dir)


def lora_factors(adapter_dir: str | Path, weight_of) -> list[tuple[str, object, object, float]] | None:
    """``(module name, B, A, scale)`` for every adapted linear layer of the adapter in
    ``adapter_dir`` (module names as the model's, e.g. ``model.layers.3.self_attn.q_proj``), or
    None when the adapter is not a plain LoRA or a pair does not fit ``weight_of(module name)``
    (the weight it adds to)."""
    from safetensors.torch import load_file

    adapter_dir = Path(adapter_dir)
    config = json.loads((adapter_dir / "adapter_config.json").read_text())
    weights_file = adapter_dir / "adapter_model.safetensors"
    if not plain_lora(config) or not weights_file.is_file():
        return None
    scale = lora_scale(config)
    tensors = load_file(str(weights_file))
    factors = []
    for key, down in tensors.items():
        if not key.endswith(".lora_A.weight"):
            continue
        name = key[: -len(".lora_A.weight")]
        up = tensors.get(f"{name}.lora_B.weight")
        module = name.removeprefix(_PREFIX)
        weight = weight_of(module)
        if up is None or weight is None or tuple(weight.shape) != (up.shape[0], down.shape[1]):
            return None
        factors.append((module, up, down, scale))
    if not factors or len(factors) * 2 != len(tensors):
        return None  # tensors other than A/B pairs: something this merge does not know
    return factors


def _merge(weight_of, adapter_dir: str | Path) -> bool:
    """Add ``scale * B @ A`` to ``weight_of(module name)`` for every A/B pair of the adapter, or
    change nothing and return False when one does not fit."""
    import torch

    factors = lora_factors(adapter_dir, weight_of)
    if factors is None:
        return False
    with torch.no_grad():
        for module, up, down, scale in factors:
            weight = weight_of(module)
            weight += (scale * (up.float() @ down.float())).to(weight.dtype)
    return True
