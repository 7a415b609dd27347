"""A BERT encoder (all-MiniLM-L6-v2 and its kin) as plain torch tensors.

The property retriever embeds every question. Loading the encoder through transformers
imports its whole modeling stack, about two seconds of a cold ``cnl2sparql translate`` when
the decoder itself no longer needs transformers. This module reads the same folder
(config.json, model.safetensors, tokenizer.json) and computes the same last hidden states for
the plain post-LayerNorm BERT with absolute positions; :func:`supports` says which folders
those are, anything else goes through transformers.
"""
from __future__ import annotations

import json
import math
from pathlib import Path

# config.json values this implementation computes exactly as transformers' BertModel
_EXPECTED = {"model_type": "bert", "hidden_act": "gelu", "position_embedding_type": "absolute"}


def supports(folder: str | Path) -> bool:
    folder = Path(folder)
    try:
        config = json.loads((folder / "config.json").read_text())
    except (OSError, ValueError):
        return False
    if any(config.get(key, value) != value for key, value in _EXPECTED.items()):
        return False
    return (folder / "tokenizer.json").is_file() and (folder / "model.safetensors").is_file()


class NativeBert:
    """``__call__(texts)`` -> (last hidden states, attention mask) of a padded batch."""

    def __init__(self, folder: str | Path, max_length: int = 256) -> None:
        import torch
        from safetensors.torch import load_file
        from tokenizers import Tokenizer

        folder = Path(folder)
        config = json.loads((folder / "config.json").read_text())
        self.heads = int(config["num_attention_heads"])
        self.layers = int(config["num_hidden_layers"])
        self.eps = float(config.get("layer_norm_eps", 1e-12))
        self.max_length = min(max_length, int(config.get("max_position_embeddings", 512)))
        weights = load_file(str(folder / "model.safetensors"))
        # checkpoints name the same tensors with or without the "bert." prefix
        self.weights = {name.removeprefix("bert."): tensor.float() for name, tensor in weights.items()}
        self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self.tokenizer.enable_truncation(self.max_length)
        pad_id = int(config.get("pad_token_id", 0))
        self.tokenizer.enable_padding(pad_id=pad_id, pad_token=self.tokenizer.id_to_token(pad_id) or "[PAD]")
        self.torch = torch

    def _linear(self, x, name: str):
        return self.torch.nn.functional.linear(x, self.weights[name + ".weight"], self.weights[name + ".bias"])

    def _norm(self, x, name: str):
        return self.torch.nn.functional.layer_norm(x, x.shape[-1:], self.weights[name + ".weight"],
                                                   self.weights[name + ".bias"], self.eps)

    def __call__(self, texts: list[str]):
        torch = self.torch
        functional = torch.nn.functional
        encodings = self.tokenizer.encode_batch(list(texts))
        ids = torch.tensor([e.ids for e in encodings], dtype=torch.long)
        mask = torch.tensor([e.attention_mask for e in encodings], dtype=torch.long)
        types = torch.tensor([e.type_ids for e in encodings], dtype=torch.long)
        w = self.weights
        positions = torch.arange(ids.shape[1])
        x = (w["embeddings.word_embeddings.weight"][ids] + w["embeddings.position_embeddings.weight"][positions]
             + w["embeddings.token_type_embeddings.weight"][types])
        x = self._norm(x, "embeddings.LayerNorm")
        batch, length, width = x.shape
        head_width = width // self.heads
        # padding keys get -inf-like scores, as transformers' extended attention mask does
        key_bias = (1.0 - mask[:, None, None, :].float()) * torch.finfo(torch.float32).min
        for layer in range(self.layers):
            prefix = f"encoder.layer.{layer}."

            def heads(t):
                return t.view(batch, length, self.heads, head_width).transpose(1, 2)

            q = heads(self._linear(x, prefix + "attention.self.query"))
            k = heads(self._linear(x, prefix + "attention.self.key"))
            v = heads(self._linear(x, prefix + "attention.self.value"))
            scores = q @ k.transpose(-1, -2) / math.sqrt(head_width) + key_bias
            context = (scores.softmax(-1) @ v).transpose(1, 2).reshape(batch, length, width)
            x = self._norm(self._linear(context, prefix + "attention.output.dense") + x,
                           prefix + "attention.output.LayerNorm")
            inner = functional.gelu(self._linear(x, prefix + "intermediate.dense"))
            x = self._norm(self._linear(inner, prefix + "output.dense") + x, prefix + "output.LayerNorm")
        return x, mask
