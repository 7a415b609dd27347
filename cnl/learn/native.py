"""Greedy decoding of a Llama-architecture model (SmolLM2, Llama, ...) with torch alone.

A cold ``cnl2sparql translate`` spent most of its seconds importing transformers (its modeling
stack, the Auto classes and the tokenizer wrapper: about 3 s of 6 on the development machine)
to run a 135 M-parameter decoder greedily. This module reads the same model folder (config.json,
safetensors, tokenizer.json), merges a plain LoRA adapter into the weights, and decodes with a
key/value cache: batched (left-padded) greedy and beam search with the same logits-processor
interface as transformers, so grammar-constrained decoding works unchanged. Training and other
architectures stay with transformers (:func:`supports` says which folders this reads).
"""
from __future__ import annotations

import json
import math
import re
from pathlib import Path

# config.json values this implementation computes exactly as transformers' LlamaForCausalLM
_EXPECTED = {"model_type": "llama", "hidden_act": "silu", "attention_bias": False, "mlp_bias": False,
             "pretraining_tp": 1}


def _rope_theta(config: dict) -> float | None:
    """The RoPE base of a config with plain RoPE (no scaling), else None."""
    rope = config.get("rope_parameters") or {}
    if config.get("rope_scaling") or rope.get("rope_type", "default") != "default":
        return None
    return float(rope.get("rope_theta", config.get("rope_theta", 10000.0)))


def supports(folder: str | Path) -> bool:
    """Whether ``folder`` holds a model this module decodes exactly like transformers: a Llama
    with plain RoPE, no biases, SiLU, safetensors weights and a tokenizer.json."""
    folder = Path(folder)
    try:
        config = json.loads((folder / "config.json").read_text())
    except (OSError, ValueError):
        return False
    if any(config.get(key, value) != value for key, value in _EXPECTED.items()):
        return False
    if _rope_theta(config) is None or config.get("sliding_window"):
        return False
    return (folder / "tokenizer.json").is_file() and any(folder.glob("*.safetensors"))


class NativeTokenizer:
    """The part of a transformers tokenizer that decoding uses, on the tokenizers library."""

    def __init__(self, folder: Path) -> None:
        from tokenizers import Tokenizer

        self.backend = Tokenizer.from_file(str(folder / "tokenizer.json"))
        config = {}
        if (folder / "tokenizer_config.json").is_file():
            config = json.loads((folder / "tokenizer_config.json").read_text())
        model_config = json.loads((folder / "config.json").read_text())
        eos = config.get("eos_token")
        eos = eos.get("content") if isinstance(eos, dict) else eos
        self.eos_token_id = self.backend.token_to_id(eos) if eos else model_config.get("eos_token_id")
        pad = config.get("pad_token")
        pad = pad.get("content") if isinstance(pad, dict) else pad
        self.pad_token_id = self.backend.token_to_id(pad) if pad else self.eos_token_id
        self.padding_side = "left"

    def __call__(self, text: str) -> dict:
        """``{"input_ids": [...]}`` of one text, without special tokens (as counted elsewhere)."""
        return {"input_ids": self.encode(text)}

    def encode(self, text: str) -> list[int]:
        return self.backend.encode(text, add_special_tokens=False).ids

    def decode(self, ids, skip_special_tokens: bool = False) -> str:
        return self.backend.decode(list(ids), skip_special_tokens=skip_special_tokens)

    def batch_decode(self, rows, skip_special_tokens: bool = False) -> list[str]:
        return [self.decode(row.tolist() if hasattr(row, "tolist") else row, skip_special_tokens)
                for row in rows]


def read_model(folder: str | Path) -> tuple[dict, dict]:
    """The config.json and the safetensors weights (name -> tensor) of a model folder."""
    from safetensors.torch import load_file

    folder = Path(folder)
    weights = {}
    for file in sorted(folder.glob("*.safetensors")):
        weights.update(load_file(str(file)))
    return json.loads((folder / "config.json").read_text()), weights


class NativeLlama:
    """A Llama decoder as plain tensors; ``generate_greedy`` and ``generate_beams`` are its entry points."""

    def __init__(self, config: dict, weights: dict, dtype) -> None:
        import torch

        self.config = config
        self.dtype = dtype
        self.layers = config["num_hidden_layers"]
        self.heads = config["num_attention_heads"]
        self.kv_heads = config.get("num_key_value_heads", self.heads)
        self.head_dim = config.get("head_dim") or config["hidden_size"] // self.heads
        self.eps = float(config.get("rms_norm_eps", 1e-6))
        self.w = {name: tensor.to(dtype) for name, tensor in weights.items()}
        self.embed = self.w["model.embed_tokens.weight"]
        self.lm_head = self.w.get("lm_head.weight", self.embed) if not config.get("tie_word_embeddings", False) \
            else self.embed
        theta = _rope_theta(config)
        self.inv_freq = 1.0 / (theta ** (torch.arange(0, self.head_dim, 2, dtype=torch.float32) / self.head_dim))
        self.device = torch.device("cpu")

    @classmethod
    def load(cls, folder: str | Path, adapter_dir: str | Path | None = None, dtype: str = "bfloat16") -> "NativeLlama":
        import torch

        from cnl.learn.lora import merge_lora_state_dict

        config, weights = read_model(folder)
        if adapter_dir is not None and not merge_lora_state_dict(weights, adapter_dir):
            raise ValueError(f"the adapter in {adapter_dir} is not a plain LoRA of this model")
        return cls(config, weights, getattr(torch, dtype))

    # -- the network -------------------------------------------------------------------------
    def _rms_norm(self, x, weight):
        import torch

        h = x.float()
        h = h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + self.eps)
        return weight * h.to(x.dtype)

    def _rope(self, positions):
        import torch

        freqs = positions[..., None].float() * self.inv_freq  # (B, T, d/2)
        emb = torch.cat((freqs, freqs), dim=-1)
        return emb.cos().to(self.dtype)[:, None], emb.sin().to(self.dtype)[:, None]  # (B, 1, T, d)

    @staticmethod
    def _rotate(x, cos, sin):
        import torch

        half = x.shape[-1] // 2
        rotated = torch.cat((-x[..., half:], x[..., :half]), dim=-1)
        return x * cos + rotated * sin

    def _linear(self, x, module: str):
        """``module`` (e.g. ``model.layers.3.self_attn.q_proj``) applied to ``x``."""
        import torch.nn.functional as F

        return F.linear(x, self.w[module + ".weight"])

    def _rows_entering(self, layer: int, x, cos, sin, mask):
        """The hidden states and their rotary/mask rows as ``layer`` receives them: unchanged
        here; an ensemble widens them where its members' updates begin."""
        return x, cos, sin, mask

    def forward(self, ids, positions, key_mask, cache):
        """Logits of the last position of ``ids`` (B, T) at ``positions``; ``key_mask`` (B, S)
        marks the real (not padding) keys of the cache after this step; ``cache`` a list of
        per-layer (k, v), extended in place."""
        import torch
        import torch.nn.functional as F

        w, length = self.w, ids.shape[1]
        x = F.embedding(ids, self.embed)
        cos, sin = self._rope(positions)
        total = key_mask.shape[1]
        # a query sees the real keys up to its own position (keys before this step are all
        # earlier), and always its own key: a padding position left of a prompt would see no key
        # at all, and the NaN of an empty softmax would reach the real tokens through the cache
        causal = torch.ones(length, total, dtype=torch.bool).tril(total - length)
        itself = torch.zeros(length, total, dtype=torch.bool)
        itself[torch.arange(length), torch.arange(total - length, total)] = True
        mask = ((causal[None] & key_mask[:, None, :].bool()) | itself[None])[:, None]  # (B, 1, T, S)
        for i in range(self.layers):
            x, cos, sin, mask = self._rows_entering(i, x, cos, sin, mask)
            batch = x.shape[0]  # an ensemble's rows may widen here
            p = f"model.layers.{i}."
            h = self._rms_norm(x, w[p + "input_layernorm.weight"])
            q = self._linear(h, p + "self_attn.q_proj").view(batch, length, self.heads, self.head_dim).transpose(1, 2)
            k = self._linear(h, p + "self_attn.k_proj").view(batch, length, self.kv_heads, self.head_dim).transpose(1, 2)
            v = self._linear(h, p + "self_attn.v_proj").view(batch, length, self.kv_heads, self.head_dim).transpose(1, 2)
            q, k = self._rotate(q, cos, sin), self._rotate(k, cos, sin)
            if cache[i] is not None:
                k = torch.cat((cache[i][0], k), dim=2)
                v = torch.cat((cache[i][1], v), dim=2)
            cache[i] = (k, v)
            attn = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, scale=1 / math.sqrt(self.head_dim),
                                                  enable_gqa=self.kv_heads != self.heads)
            x = x + self._linear(attn.transpose(1, 2).reshape(batch, length, -1), p + "self_attn.o_proj")
            h = self._rms_norm(x, w[p + "post_attention_layernorm.weight"])
            gate = self._linear(h, p + "mlp.gate_proj")
            up = self._linear(h, p + "mlp.up_proj")
            x = x + self._linear(F.silu(gate) * up, p + "mlp.down_proj")
        last = self._rms_norm(x[:, -1], w["model.norm.weight"])
        return F.linear(last, self.lm_head)

    # -- decoding ----------------------------------------------------------------------------
    def generate_greedy(self, prompts: list[list[int]], *, max_new_tokens: int, eos_token_id: int,
                        pad_token_id: int, logits_processor=None, return_scores: bool = False):
        """Greedy continuations of left-padded ``prompts`` (token ids): a (B, prompt + new)
        tensor like transformers' ``generate`` returns, finished rows padded with
        ``pad_token_id``. ``logits_processor(input_ids, scores)`` sees float32 scores.

        ``return_scores``: also each row's mean log-probability per generated token (EOS
        included) under the model itself, before the logits processor: how much the model wanted
        what it wrote, where the grammar may have forced a token it ranked low (a (B,) tensor)."""
        import torch

        ids, key_mask, positions = _left_padded(prompts, pad_token_id)
        cache = [None] * self.layers
        sequences = ids
        unfinished = torch.ones(len(prompts), dtype=torch.bool)
        total = torch.zeros(len(prompts))
        length = torch.zeros(len(prompts))
        with torch.inference_mode():
            logits = self.forward(ids, positions, key_mask, cache)
            for _ in range(max_new_tokens):
                scores = logits.float()
                raw = scores
                if logits_processor is not None:
                    scores = logits_processor(sequences, scores)
                tokens = scores.argmax(-1)
                tokens = torch.where(unfinished, tokens, torch.full_like(tokens, pad_token_id))
                if return_scores:
                    chosen = torch.log_softmax(raw, dim=-1).gather(1, tokens[:, None])[:, 0]
                    total += torch.where(unfinished, chosen, torch.zeros_like(chosen))
                    length += unfinished.float()
                sequences = torch.cat((sequences, tokens[:, None]), dim=1)
                unfinished &= tokens != eos_token_id
                if not unfinished.any():
                    break
                key_mask = torch.cat((key_mask, torch.ones((len(prompts), 1), dtype=torch.long)), dim=1)
                positions = positions[:, -1:] + 1
                logits = self.forward(tokens[:, None], positions, key_mask, cache)
        if return_scores:
            return sequences, total / length.clamp(min=1)
        return sequences

    def generate_beams(self, prompts: list[list[int]], *, num_beams: int, n_best: int, max_new_tokens: int,
                       eos_token_id: int, pad_token_id: int, logits_processor=None, length_penalty: float = 1.0,
                       return_scores: bool = False):
        """Beam search over left-padded ``prompts``: the ``n_best`` best of ``num_beams`` beams per
        prompt, best first, as a (B * n_best, prompt + new) tensor like transformers' ``generate``
        with ``num_return_sequences`` returns (rows padded with ``pad_token_id``).

        The rules are transformers' defaults, so both engines rank alike: ``logits_processor``
        sees log-probabilities; a finished hypothesis scores its summed log-probability over its
        length (EOS included) to the ``length_penalty``; only a continuation among the top
        ``num_beams`` may finish; a prompt is done when it has ``num_beams`` finished hypotheses
        and its best running beam, normalised by its current length, cannot beat the worst.

        ``return_scores``: also each row's score (its summed log-probability over its length to
        the ``length_penalty``, transformers' ``sequences_scores``), as a (B * n_best,) tensor."""
        import torch

        batch, width, beams = len(prompts), max(len(p) for p in prompts), num_beams
        ids, key_mask, positions = _left_padded(prompts, pad_token_id)
        cache = [None] * self.layers
        finished: list[list[tuple[float, list[int]]]] = [[] for _ in prompts]
        done = [False] * batch
        with torch.inference_mode():
            logits = self.forward(ids, positions, key_mask, cache)
            # the prompt runs once; its cache is then copied for each beam
            rows = torch.arange(batch).repeat_interleave(beams)
            self._select_rows(cache, rows)
            sequences, key_mask, positions, logits = ids[rows], key_mask[rows], positions[rows], logits[rows]
            # all beams of a prompt start equal: only the first expands at the first step
            beam_scores = torch.full((batch, beams), -math.inf)
            beam_scores[:, 0] = 0.0
            for step in range(max_new_tokens):
                scores = torch.log_softmax(logits.float(), dim=-1)
                if logits_processor is not None:
                    scores = logits_processor(sequences, scores)
                vocab = scores.shape[-1]
                total = (scores + beam_scores.view(-1, 1)).view(batch, beams * vocab)
                top_scores, top_indices = total.topk(2 * beams, dim=1)
                chosen_rows, chosen_tokens, chosen_scores = [], [], []
                for b in range(batch):
                    kept = []
                    if not done[b]:
                        for rank, (score, index) in enumerate(zip(top_scores[b].tolist(), top_indices[b].tolist())):
                            if score == -math.inf or len(kept) == beams:
                                break
                            beam, token = divmod(index, vocab)
                            row = b * beams + beam
                            if token == eos_token_id:
                                if rank < beams:
                                    finished[b].append((score / (step + 1) ** length_penalty,
                                                        sequences[row, width:].tolist() + [token]))
                            else:
                                kept.append((row, token, score))
                        finished[b] = sorted(finished[b], key=lambda h: -h[0])[:beams]
                        best_running = kept[0][2] / (step + 1) ** length_penalty if kept else -math.inf
                        done[b] = not kept or (len(finished[b]) >= beams and best_running <= finished[b][-1][0])
                    # a done prompt's rows idle on padding until every prompt is done
                    kept += [(b * beams, pad_token_id, -math.inf)] * (beams - len(kept))
                    for row, token, score in kept:
                        chosen_rows.append(row)
                        chosen_tokens.append(token)
                        chosen_scores.append(score)
                if all(done):
                    break
                index = torch.tensor(chosen_rows)
                tokens = torch.tensor(chosen_tokens, dtype=torch.long)
                beam_scores = torch.tensor(chosen_scores).view(batch, beams)
                self._select_rows(cache, index)
                sequences = torch.cat((sequences[index], tokens[:, None]), dim=1)
                key_mask = torch.cat((key_mask[index], torch.ones((len(index), 1), dtype=torch.long)), dim=1)
                if step + 1 == max_new_tokens:
                    break  # the beams are complete; the next token's logits would go unused
                positions = positions[index][:, -1:] + 1
                logits = self.forward(tokens[:, None], positions, key_mask, cache)
            # beams still running when max_new_tokens is reached count as they stand
            for b in range(batch):
                if done[b]:
                    continue
                length = sequences.shape[1] - width
                for j in range(beams):
                    score = beam_scores[b, j].item()
                    if score > -math.inf:
                        finished[b].append((score / max(length, 1) ** length_penalty,
                                            sequences[b * beams + j, width:].tolist()))
                finished[b] = sorted(finished[b], key=lambda h: -h[0])[:beams]
        n_best = min(n_best, beams)
        longest = max((len(tokens) for hyps in finished for _, tokens in hyps[:n_best]), default=0)
        out = torch.full((batch * n_best, width + longest), pad_token_id, dtype=torch.long)
        scores = torch.full((batch * n_best,), -math.inf)
        for b, hyps in enumerate(finished):
            for j in range(n_best):
                out[b * n_best + j, :width] = ids[b]
                if j < len(hyps):
                    out[b * n_best + j, width: width + len(hyps[j][1])] = torch.tensor(hyps[j][1], dtype=torch.long)
                    scores[b * n_best + j] = hyps[j][0]
        return (out, scores) if return_scores else out

    def _select_rows(self, cache, index) -> None:
        """The key/value cache reordered (or repeated) in place to the rows ``index`` names."""
        for layer, entry in enumerate(cache):
            if entry is not None:
                cache[layer] = tuple(t.index_select(0, index) for t in entry)


def _left_padded(prompts: list[list[int]], pad_token_id: int):
    """``prompts`` (token ids) as one left-padded batch: ids, key mask and positions."""
    import torch

    width = max(len(p) for p in prompts)
    ids = torch.full((len(prompts), width), pad_token_id, dtype=torch.long)
    key_mask = torch.zeros((len(prompts), width), dtype=torch.long)
    for row, prompt in enumerate(prompts):
        ids[row, width - len(prompt):] = torch.tensor(prompt, dtype=torch.long)
        key_mask[row, width - len(prompt):] = 1
    positions = (key_mask.cumsum(-1) - 1).clamp(min=0)
    return ids, key_mask, positions


class NativeEnsemble(NativeLlama):
    """Several LoRA adapters of one base model decoding together: each step's next-token
    scores are the mean of the members' log-probabilities (a product of experts).

    The adapters are not merged: the members run as one batch through the shared base weights,
    each row adding its own member's low-rank update, so a step reads the base weights once
    (decoding one question on a CPU is bound by reading weights). Below the first layer any
    member adapts, every member computes the same rows, so those layers run once per prompt;
    from that layer on the rows are repeated per member (member-major) and each member's
    update applies to its own rows. ``forward`` returns the mean log-probabilities where a
    single model returns logits; greedy and beam search and the logits processors need nothing else."""

    def __init__(self, config: dict, weights: dict, dtype, members: list[list[tuple]]) -> None:
        import torch

        super().__init__(config, weights, dtype)
        self.size = len(members)
        # per adapted module: A stacked (members, in, rank) and scale * B stacked (members, rank,
        # out); a member that does not adapt a module, or has a smaller rank, gets zeros (exact)
        rank = max(down.shape[0] for factors in members for _, _, down, _ in factors)
        self.lora: dict[str, tuple] = {}
        for index, factors in enumerate(members):
            for module, up, down, scale in factors:
                if module not in self.lora:
                    out_features, in_features = self.w[module + ".weight"].shape
                    self.lora[module] = (torch.zeros(self.size, in_features, rank, dtype=dtype),
                                         torch.zeros(self.size, rank, out_features, dtype=dtype))
                downs, ups = self.lora[module]
                downs[index, :, : down.shape[0]] = down.float().T.to(dtype)
                ups[index, : up.shape[1]] = (scale * up.float().T).to(dtype)
        # a module outside the numbered layers (or none at all) widens the rows from the start
        layers = [re.search(r"\.layers\.(\d+)\.", module) for module in self.lora]
        self.first_adapted_layer = min((int(m.group(1)) if m else 0 for m in layers), default=0)

    @classmethod
    def load(cls, folder: str | Path, adapter_dirs, dtype: str = "bfloat16") -> "NativeEnsemble":
        import torch

        from cnl.learn.lora import lora_factors

        config, weights = read_model(folder)
        members = []
        for adapter in adapter_dirs:
            factors = lora_factors(adapter, lambda module: weights.get(module + ".weight"))
            if factors is None:
                raise ValueError(f"the adapter in {adapter} is not a plain LoRA of this model")
            members.append(factors)
        if not members:
            raise ValueError("an ensemble needs at least one adapter")
        return cls(config, weights, getattr(torch, dtype), members)

    def _rows_entering(self, layer: int, x, cos, sin, mask):
        if layer != self.first_adapted_layer:
            return x, cos, sin, mask
        return tuple(t.repeat(self.size, *[1] * (t.dim() - 1)) for t in (x, cos, sin, mask))

    def _linear(self, x, module: str):
        out = super()._linear(x, module)
        if module not in self.lora:
            return out
        downs, ups = self.lora[module]
        # rows are member-major (see _rows_entering): the first batch/size rows are the first member's
        low = x.reshape(self.size, -1, x.shape[-1]).bmm(downs).bmm(ups)
        return out + low.reshape(out.shape)

    def _select_rows(self, cache, index) -> None:
        import torch

        for layer, entry in enumerate(cache):
            if entry is None:
                continue
            rows = index  # one row per prompt below the first adapted layer
            if layer >= self.first_adapted_layer:
                # member-major rows: each member's block is reordered alike
                per_member = entry[0].shape[0] // self.size
                rows = (torch.arange(self.size)[:, None] * per_member + index[None]).reshape(-1)
            cache[layer] = tuple(t.index_select(0, rows) for t in entry)

    def forward(self, ids, positions, key_mask, cache):
        import torch

        batch = ids.shape[0]
        logits = super().forward(ids, positions, key_mask, cache)  # (members * batch, vocab)
        return torch.log_softmax(logits.float(), dim=-1).view(self.size, batch, -1).mean(0)
