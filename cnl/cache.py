"""Where cnl2sparql keeps what it can rebuild: ``$CNL_CACHE_DIR`` or ``~/.cache/cnl2sparql``
(converted base models, analysed grammars, entity indices). A leaf module, importable by every
stage: deleting the folder only costs time."""
from __future__ import annotations

import os
from pathlib import Path


def cache_dir() -> Path:
    """The cache folder (not created here)."""
    root = os.environ.get("CNL_CACHE_DIR")
    return Path(root) if root else Path.home() / ".cache" / "cnl2sparql"
