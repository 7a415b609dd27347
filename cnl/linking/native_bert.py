"""A BERT encoder (all-MiniLM-L6-v2 and its kin) as plain torch tensors or numpy arrays.

The property retriever embeds every question. Loading the encoder through transformers
imports its whole modeling stack, about two seconds of a cold ``cnl2sparql translate`` when
the decoder itself no longer needs transformers. This module reads the same folder
(config.json, model.safetensors, tokenizer.json) and computes the same last hidden states for
the plain post-LayerNorm BERT with absolute positions; :func:`supports` says which folders
those are, anything else goes through transformers. :class:`NumpyBert` computes them with numpy
alone, for a process that has not imported torch: importing torch takes longer than a whole
cold ``cnl2sparql link``.
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


def _read_shape_and_tokenizer(model, folder: Path, max_length: int) -> None:
    """Set what both encoders read from a checkpoint folder besides its weights: the layer and
    head counts, the norm epsilon, the length limit and the padding, truncating tokenizer."""
    from tokenizers import Tokenizer

    config = json.loads((folder / "config.json").read_text())
    model.heads = int(config["num_attention_heads"])
    model.layers = int(config["num_hidden_layers"])
    model.eps = float(config.get("layer_norm_eps", 1e-12))
    model.max_length = min(max_length, int(config.get("max_position_embeddings", 512)))
    model.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
    model.tokenizer.enable_truncation(model.max_length)
    pad_id = int(config.get("pad_token_id", 0))
    model.tokenizer.enable_padding(pad_id=pad_id, pad_token=model.tokenizer.id_to_token(pad_id) or "[PAD]")


class NativeBert:
    """``__call__(texts)`` -> (last hidden states, attention mask) of a padded batch."""

    def __init__(self, folder: str | Path, max_length: int = 256) -> None:
        import torch
        from safetensors.torch import load_file

        folder = Path(folder)
        _read_shape_and_tokenizer(self, folder, max_length)
        weights = load_file(str(folder / "model.safetensors"))
        # checkpoints name the same tensors with or without the "bert." prefix
        self.weights = {name.removeprefix("bert."): tensor.float() for name, tensor in weights.items()}
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


_NUMPY_DTYPES = {"F32": "float32", "F16": "float16", "F64": "float64", "I64": "int64", "I32": "int32"}


def read_safetensors(path: str | Path) -> dict:
    """Name -> numpy array (a read-only memory map: only the rows used are read) of a
    safetensors file; ValueError for a type numpy lacks (bfloat16)."""
    import struct

    import numpy as np

    with open(path, "rb") as handle:
        (size,) = struct.unpack("<Q", handle.read(8))
        header = json.loads(handle.read(size))
    data = np.memmap(path, dtype=np.uint8, mode="r", offset=8 + size)
    out = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        if info["dtype"] not in _NUMPY_DTYPES:
            raise ValueError(f"{path}: tensor {name} is {info['dtype']}, which numpy cannot read")
        begin, end = info["data_offsets"]
        out[name] = data[begin:end].view(_NUMPY_DTYPES[info["dtype"]]).reshape(info["shape"])
    return out


def numpy_supports(folder: str | Path) -> bool:
    """Whether :class:`NumpyBert` reads the folder's weights (float32/16 tensors)."""
    import struct

    try:
        with open(Path(folder) / "model.safetensors", "rb") as handle:
            (size,) = struct.unpack("<Q", handle.read(8))
            header = json.loads(handle.read(size))
    except (OSError, ValueError, struct.error):
        return False
    return supports(folder) and all(info["dtype"] in _NUMPY_DTYPES for name, info in header.items()
                                    if name != "__metadata__")


def _erf(x):
    """The error function to within 1.5e-7 (Abramowitz and Stegun 7.1.26): numpy has none, and
    the difference to the exact GELU stays below float32's rounding of a hidden state."""
    import numpy as np

    t = np.abs(x)
    t *= 0.3275911
    t += 1.0
    np.reciprocal(t, out=t)
    poly = t * 1.061405429
    for coefficient in (-1.453152027, 1.421413741, -0.284496736, 0.254829592):
        poly += coefficient
        poly *= t
    square = np.square(x)
    np.negative(square, out=square)
    np.exp(square, out=square)
    poly *= square
    np.subtract(1.0, poly, out=poly)
    return np.copysign(poly, x, out=poly)


class NumpyBert:
    """:class:`NativeBert` in numpy: ``__call__(texts)`` -> (last hidden states, attention mask),
    numpy arrays of a padded batch. The same arithmetic in float32, to within 1e-5."""

    def __init__(self, folder: str | Path, max_length: int = 256) -> None:
        import os
        import sys

        if "numpy" not in sys.modules:
            # one BLAS thread: a question and its readings make small matrices, and waking
            # OpenBLAS's threads cost more than they save (over a second on a busy machine)
            os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
        import numpy as np

        folder = Path(folder)
        _read_shape_and_tokenizer(self, folder, max_length)
        self.weights = {name.removeprefix("bert."): array for name, array
                        in read_safetensors(folder / "model.safetensors").items()}
        self.np = np

    def _linear(self, x, name: str):
        # as one matrix product over every token of the batch (a stacked product is slower)
        out = x.reshape(-1, x.shape[-1]) @ self.weights[name + ".weight"].T
        out += self.weights[name + ".bias"]
        return out.reshape(*x.shape[:-1], out.shape[-1])

    def _norm(self, x, name: str):
        mean = x.mean(-1, keepdims=True)
        centred = x - mean
        variance = (centred * centred).mean(-1, keepdims=True)
        return centred / self.np.sqrt(variance + self.eps) * self.weights[name + ".weight"] + self.weights[name + ".bias"]

    def __call__(self, texts: list[str]):
        np = self.np
        encodings = self.tokenizer.encode_batch(list(texts))
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        types = np.array([e.type_ids for e in encodings], dtype=np.int64)
        w = self.weights
        length = ids.shape[1]
        x = (w["embeddings.word_embeddings.weight"][ids] + w["embeddings.position_embeddings.weight"][:length]
             + w["embeddings.token_type_embeddings.weight"][types]).astype(np.float32)
        x = self._norm(x, "embeddings.LayerNorm")
        batch, _, width = x.shape
        head_width = width // self.heads
        key_bias = (1.0 - mask[:, None, None, :].astype(np.float32)) * np.finfo(np.float32).min
        for layer in range(self.layers):
            prefix = f"encoder.layer.{layer}."

            def heads(t):
                return t.reshape(batch, length, self.heads, head_width).transpose(0, 2, 1, 3)

            q = heads(self._linear(x, prefix + "attention.self.query"))
            k = heads(self._linear(x, prefix + "attention.self.key"))
            v = heads(self._linear(x, prefix + "attention.self.value"))
            scores = q @ k.transpose(0, 1, 3, 2) / np.float32(math.sqrt(head_width)) + key_bias
            scores = np.exp(scores - scores.max(-1, keepdims=True))
            scores /= scores.sum(-1, keepdims=True)
            context = (scores @ v).transpose(0, 2, 1, 3).reshape(batch, length, width)
            x = self._norm(self._linear(context, prefix + "attention.output.dense") + x,
                           prefix + "attention.output.LayerNorm")
            inner = self._linear(x, prefix + "intermediate.dense")
            gate = _erf(inner * np.float32(1 / math.sqrt(2)))
            gate += 1.0
            gate *= 0.5
            inner *= gate
            x = self._norm(self._linear(inner, prefix + "output.dense") + x, prefix + "output.LayerNorm")
        return x, mask
