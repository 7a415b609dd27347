"""LoRA fine-tuning of a causal LM to translate questions into CNL (BridgeKGLM §4).

A plain training loop (no Trainer) so that the loss covers only the completion, the run is
seeded and reproducible, the progress bar shows tokens/s and ETA, and an interrupted run
resumes from its last checkpoint (adapter, optimizer, scheduler, data order and RNG state).
"""
from __future__ import annotations

import json
import math
import random
import resource
import shutil
import sys
import time
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

from cnl.errors import TrainingError

DEFAULT_OUT = Path("runs") / "adapter"
EXTRA_DATA = ("qald", "wwq")
# the linear layers LoRA adapts, per --lora-modules: the attention projections (the original
# LoRA), or every linear layer of a block, the MLP's too (QLoRA, Dettmers et al. 2023, found
# that adapting all of them matters more than the rank)
LORA_MODULE_SETS = {
    "attention": ("q_proj", "k_proj", "v_proj", "o_proj"),
    "all": ("q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"),
}


@dataclass
class TrainConfig:
    target: str = "squall"
    notation: str = "label"
    el: str = "hybrid"
    train_size: int | None = None
    epochs: float = 3
    lr: float = 2e-3
    lora_r: int = 8
    lora_alpha: int = 16
    lora_dropout: float = 0.05
    # LoRA on the top N transformer layers only (None: all): back-propagation then stops
    # there, which makes a CPU step much cheaper.
    lora_layers: int | None = None
    lora_modules: str = "attention"  # a key of LORA_MODULE_SETS
    batch_size: int = 8
    seed: int = 0
    base_model: str | None = None
    out: Path = field(default_factory=lambda: DEFAULT_OUT)
    max_steps: int | None = None
    prompt_style: str = "compact"
    squall_from: str = "annotation"  # SQUALL targets from the annotation or the gold SPARQL
    # similar solved training questions shown in each prompt (0: none); the pool is saved as
    # demos.json beside the adapter, for inference
    demos: int = 0
    # more SQUALL examples beside the ECAI ones: "qald" (QALD-9-plus), "wwq" (WikiWebQuestions
    # train, less the seeded dev split), labelled and linked over ``store``, an embedded store
    # of the Wikidata slice
    extra_data: list = field(default_factory=list)
    store: str | None = None
    # the ECAI training questions too (False: only the extra data), each seen ``ecai_repeat``
    # times per epoch (they are fewer and harder than the extra data's)
    ecai: bool = True
    ecai_repeat: int = 1
    # property candidates in each prompt (0: none): the top k of cnl.linking.property_candidates,
    # whose pool (the training questions' properties) is saved as property_pool.json
    property_candidates: int = 0
    # the share of training prompts whose property candidates are shown in a random order, not
    # best first: the model then has to choose by the question, not by the rank (seeded)
    shuffle_property_candidates: float = 0.0
    split: str = "train"
    warmup_ratio: float = 0.06
    checkpoint_every: int = 25
    device: str | None = None
    threads: int | None = None
    # mixed precision on a CPU with bfloat16 instructions (AVX512-BF16/AMX): "bfloat16" or None
    autocast: str | None = None

    def to_json(self) -> dict:
        d = asdict(self)
        d["out"] = str(self.out)
        return d

    @classmethod
    def from_json(cls, data: dict) -> "TrainConfig":
        names = {f.name for f in fields(cls)}
        kw = {k: v for k, v in data.items() if k in names}
        if "out" in kw:
            kw["out"] = Path(kw["out"])
        return cls(**kw)


def _peak_rss_mb() -> float:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def encode_example(tokenizer, prompt: str, completion: str, max_len: int = 512) -> tuple[list[int], list[int]]:
    """input_ids and labels: the prompt's positions are masked (-100), so only the
    completion and its end-of-sequence token are learned."""
    prompt_ids = tokenizer(prompt, add_special_tokens=False)["input_ids"]
    completion_ids = tokenizer(completion, add_special_tokens=False)["input_ids"] + [tokenizer.eos_token_id]
    ids = (prompt_ids + completion_ids)[:max_len]
    labels = ([-100] * len(prompt_ids) + completion_ids)[:max_len]
    return ids, labels


def _collate(batch, pad_id: int):
    """Left-padded batch: every completion ends at the last position, so the logits (a
    49k-word softmax) are computed only for the last ``keep`` positions, not the prompts."""
    import torch

    width = max(len(ids) for ids, _ in batch)
    input_ids = torch.full((len(batch), width), pad_id, dtype=torch.long)
    labels = torch.full((len(batch), width), -100, dtype=torch.long)
    mask = torch.zeros((len(batch), width), dtype=torch.long)
    for i, (ids, labs) in enumerate(batch):
        input_ids[i, width - len(ids):] = torch.tensor(ids)
        labels[i, width - len(labs):] = torch.tensor(labs)
        mask[i, width - len(ids):] = 1
    first_label = min(int((row != -100).nonzero()[0]) for row in labels)
    keep = width - first_label + 1  # +1: the position before the first label predicts it
    return input_ids, labels, mask, keep


def completion_loss(model, input_ids, labels, mask, keep):
    import torch.nn.functional as F

    positions = (mask.cumsum(-1) - 1).clamp(min=0)
    logits = model(input_ids=input_ids, attention_mask=mask, position_ids=positions,
                   logits_to_keep=keep).logits
    # logits[:, j] predicts token at position width-keep+j+1
    shifted = logits[:, :-1, :]
    targets = labels[:, -keep + 1:]
    return F.cross_entropy(shifted.reshape(-1, shifted.size(-1)).float(), targets.reshape(-1), ignore_index=-100)


def _batches(lengths: list[int], batch_size: int, seed: int, epoch: int) -> list[list[int]]:
    """Seeded shuffle, then examples of similar length batched together (less padding),
    then the batches shuffled."""
    rng = random.Random(seed * 1000 + epoch)
    order = list(range(len(lengths)))
    rng.shuffle(order)
    chunk = batch_size * 8
    batches = []
    for i in range(0, len(order), chunk):
        part = sorted(order[i: i + chunk], key=lambda j: lengths[j])
        batches += [part[k: k + batch_size] for k in range(0, len(part), batch_size)]
    rng.shuffle(batches)
    return batches


def _autocast(kind: str | None, device):
    import contextlib

    import torch

    if not kind:
        return contextlib.nullcontext()
    if kind not in ("bfloat16", "float16"):
        raise TrainingError(f"unknown autocast type {kind!r}: use bfloat16")
    return torch.autocast(device.type, dtype=getattr(torch, kind))


def _seed_all(seed: int) -> None:
    import numpy as np
    import torch

    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def _examples_for(config: TrainConfig, examples=None):
    if examples is not None:
        return list(examples)
    from cnl.learn.examples import build_examples

    examples = []
    if config.ecai:
        examples = build_examples(config.split, config.target, config.notation, config.el,
                                  train_size=config.train_size, seed=config.seed, prompt_style=config.prompt_style,
                                  keep_invalid=False, squall_from=config.squall_from)
    for name in config.extra_data:
        if name not in EXTRA_DATA:
            raise TrainingError(f"unknown extra data {name!r}: use {' or '.join(EXTRA_DATA)}")
        if config.target != "squall" or config.prompt_style != "compact":
            raise TrainingError(f"extra data {name!r} gives SQUALL targets with compact prompts only")
        if not config.store:
            raise TrainingError(f"extra data {name!r} needs --store (an embedded store of the Wikidata slice) "
                                "for its labels and entity candidates")
        from cnl.learn import examples as builders

        if name == "qald":
            examples += builders.qald_examples(config.store, notation=config.notation, el=config.el)
        else:
            examples += builders.wwq_examples(config.store, "train", notation=config.notation, el=config.el)
    return examples


def _demo_pool(config: TrainConfig, examples):
    """The demonstrations of a run with ``demos``: its own training examples (so a subset run
    sees no other question), or None."""
    if config.demos < 0:
        raise TrainingError(f"--demos takes the number of similar questions per prompt (0 or more), not {config.demos}")
    if not config.demos:
        return None
    if config.prompt_style != "compact":
        raise TrainingError("--demos goes with compact prompts only")
    from cnl.learn.demos import DemoPool

    return DemoPool.from_examples(examples)


def train(config: TrainConfig, progress: bool = True, examples=None) -> Path:
    """Fine-tune a LoRA adapter; returns ``config.out`` holding the adapter (peft format),
    ``train_config.json`` and ``metrics.json``. ``examples`` overrides the ECAI data (tests)."""
    import torch
    from peft import LoraConfig, get_peft_model, set_peft_model_state_dict
    from tqdm import tqdm

    from cnl.learn.base_model import load_base_model

    if config.lora_modules not in LORA_MODULE_SETS:
        raise TrainingError(f"unknown LoRA module set {config.lora_modules!r}: use {' or '.join(LORA_MODULE_SETS)}")
    if not 0.0 <= config.shuffle_property_candidates <= 1.0:
        raise TrainingError(f"--shuffle-property-candidates is a share of the prompts, between 0 and 1, "
                            f"not {config.shuffle_property_candidates}")
    if config.threads:
        torch.set_num_threads(config.threads)
    _seed_all(config.seed)
    examples = _examples_for(config, examples)
    if not examples:
        raise TrainingError(f"no training examples for target={config.target} notation={config.notation}")
    pool = _demo_pool(config, examples)
    retriever = None
    if config.property_candidates:
        if config.prompt_style != "compact":
            raise TrainingError("--property-candidates goes with compact prompts only")
        from cnl.learn.examples import property_pool, with_properties

        retriever = property_pool(examples)
        kg = None
        if config.store:
            from cnl.kg import open_kg

            kg = open_kg(store=config.store)
        try:
            examples = with_properties(examples, retriever, config.property_candidates, kg=kg,
                                       demo_pool=pool, demos=config.demos,
                                       shuffled=config.shuffle_property_candidates, seed=config.seed)
        finally:
            if kg is not None:
                kg.close()
    elif pool is not None:
        from cnl.learn.examples import with_demos

        examples = with_demos(examples, pool, config.demos)
    if config.ecai_repeat > 1:
        from cnl.datasets.ecai.loader import EcaiRecord

        examples = examples + [e for e in examples if isinstance(e.record, EcaiRecord)] * (config.ecai_repeat - 1)
    out = Path(config.out)  # made only once the examples are there: a bad configuration writes nothing
    out.mkdir(parents=True, exist_ok=True)
    ckpt = out / "checkpoint"

    model, tokenizer = load_base_model(config.base_model, config.device)
    device = model.device
    n_layers = model.config.num_hidden_layers
    layers = None
    if config.lora_layers:
        layers = list(range(max(0, n_layers - config.lora_layers), n_layers))
    lora = LoraConfig(r=config.lora_r, lora_alpha=config.lora_alpha, lora_dropout=config.lora_dropout,
                      target_modules=list(LORA_MODULE_SETS[config.lora_modules]), layers_to_transform=layers,
                      task_type="CAUSAL_LM")
    model = get_peft_model(model, lora)
    encoded = [encode_example(tokenizer, e.prompt, e.completion) for e in examples]
    lengths = [len(ids) for ids, _ in encoded]
    steps_per_epoch = len(_batches(lengths, config.batch_size, config.seed, 0))
    total_steps = math.ceil(steps_per_epoch * config.epochs)
    if config.max_steps is not None:
        total_steps = min(total_steps, config.max_steps)
    if total_steps <= 0:
        raise TrainingError("the run has no steps: raise --epochs or --max-steps")

    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(params, lr=config.lr, weight_decay=0.0)
    warmup = max(1, int(total_steps * config.warmup_ratio))

    def schedule(step):  # linear warm-up, then cosine decay to 10 %
        if step < warmup:
            return (step + 1) / warmup
        frac = (step - warmup) / max(1, total_steps - warmup)
        return 0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * frac))

    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, schedule)

    step, tokens_seen, wall_before, losses = 0, 0, 0.0, []
    state_file = ckpt / "trainer_state.pt"
    if state_file.is_file():
        saved_config = json.loads((ckpt / "train_config.json").read_text())
        # through from_json, so that a checkpoint written before a setting existed reads it at its default
        saved_config = TrainConfig.from_json(saved_config).to_json()
        if {k: v for k, v in saved_config.items() if k != "max_steps"} != \
                {k: v for k, v in config.to_json().items() if k != "max_steps"}:
            raise TrainingError(f"{ckpt} belongs to a run with another configuration; "
                                f"remove it or use another --out")
        from safetensors.torch import load_file

        set_peft_model_state_dict(model, load_file(str(ckpt / "adapter_model.safetensors")))
        state = torch.load(state_file, weights_only=False)
        optimizer.load_state_dict(state["optimizer"])
        scheduler.load_state_dict(state["scheduler"])
        step, tokens_seen, wall_before, losses = state["step"], state["tokens"], state["wall"], state["losses"]
        torch.set_rng_state(state["torch_rng"])
        random.setstate(state["py_rng"])
        if progress:
            print(f"resuming from {ckpt} at step {step}/{total_steps}", file=sys.stderr)

    def save_checkpoint():
        tmp = out / "checkpoint.tmp"
        if tmp.exists():
            shutil.rmtree(tmp)
        model.save_pretrained(tmp)
        (tmp / "train_config.json").write_text(json.dumps(config.to_json(), indent=2))
        torch.save({"optimizer": optimizer.state_dict(), "scheduler": scheduler.state_dict(), "step": step,
                    "tokens": tokens_seen, "wall": wall_before + time.perf_counter() - start,
                    "losses": losses, "torch_rng": torch.get_rng_state(), "py_rng": random.getstate()},
                   tmp / "trainer_state.pt")
        if ckpt.exists():
            shutil.rmtree(ckpt)
        tmp.rename(ckpt)

    model.train()
    start = time.perf_counter()
    bar = tqdm(total=total_steps, initial=step, disable=not progress, unit="step", dynamic_ncols=True)
    run_tokens, first_step = 0, step
    while step < total_steps:
        epoch, index = divmod(step, steps_per_epoch)
        batch_ids = _batches(lengths, config.batch_size, config.seed, epoch)[index]
        input_ids, labels, mask, keep = _collate([encoded[i] for i in batch_ids], tokenizer.pad_token_id)
        input_ids, labels, mask = input_ids.to(device), labels.to(device), mask.to(device)
        with _autocast(config.autocast, device):
            loss = completion_loss(model, input_ids, labels, mask, keep)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(params, 1.0)
        optimizer.step()
        scheduler.step()
        optimizer.zero_grad(set_to_none=True)
        step += 1
        n_tokens = int(mask.sum())
        tokens_seen += n_tokens
        run_tokens += n_tokens
        losses.append(round(loss.item(), 5))
        elapsed = time.perf_counter() - start
        bar.set_postfix(epoch=f"{step / steps_per_epoch:.2f}", loss=f"{losses[-1]:.3f}",
                        tok_s=f"{run_tokens / max(elapsed, 1e-9):.0f}")
        bar.update(1)
        if step % config.checkpoint_every == 0 and step < total_steps:
            save_checkpoint()
    bar.close()
    elapsed = time.perf_counter() - start
    model.save_pretrained(out)
    tail = losses[-steps_per_epoch:] if losses else []
    metrics = {
        "examples": len(encoded), "steps": step, "epochs": round(step / steps_per_epoch, 3),
        "tokens": tokens_seen, "wall_time_s": round(wall_before + elapsed, 2),
        "tokens_per_s": round(run_tokens / max(elapsed, 1e-9), 1),
        "steps_per_epoch": steps_per_epoch,
        "epoch_wall_s": round(elapsed * steps_per_epoch / max(step - first_step, 1), 1),
        "peak_rss_mb": round(_peak_rss_mb(), 1),
        "final_loss": losses[-1] if losses else None,
        "final_epoch_mean_loss": round(sum(tail) / len(tail), 5) if tail else None,
        "device": str(device), "torch_threads": torch.get_num_threads(), "autocast": config.autocast,
        "base_model": config.base_model or "smollm2-135m-instruct",
    }
    if device.type == "cuda":
        metrics["peak_gpu_mb"] = round(torch.cuda.max_memory_allocated() / 2**20, 1)
    (out / "train_config.json").write_text(json.dumps(config.to_json(), indent=2))
    if pool is not None:
        pool.save(out / "demos.json")
    if retriever is not None:
        retriever.save_pool(out / "property_pool.json")
    (out / "metrics.json").write_text(json.dumps(metrics, indent=2))
    (out / "losses.json").write_text(json.dumps(losses))
    if ckpt.exists():
        shutil.rmtree(ckpt)
    return out
