"""Where search indices built from a store are cached: one folder per store."""
from __future__ import annotations

import hashlib
import os
from pathlib import Path


def cache_root() -> Path:
    env = os.environ.get("CNL_CACHE_DIR")
    if env:
        return Path(env)
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "cnl2sparql"


def cache_dir_for(source: str) -> Path:
    """A folder for indices of ``source`` (a store path or endpoint URL), created on demand."""
    key = str(Path(source).resolve()) if "://" not in source else source
    digest = hashlib.sha1(key.encode()).hexdigest()[:12]
    path = cache_root() / f"{Path(key).name or 'kg'}-{digest}"
    path.mkdir(parents=True, exist_ok=True)
    return path
