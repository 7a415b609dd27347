"""Where the shared datasets live.

The data is never committed: it is found at run time through ``$CNL_DATA_DIR``, or
``../shared/data`` relative to the working directory or to this checkout.
"""
from __future__ import annotations

import os
from pathlib import Path

from cnl.errors import DataError

_REPO_ROOT = Path(__file__).resolve().parents[2]


def data_dir(required: bool = True) -> Path | None:
    """The shared data folder, or None (``required=False``) when it cannot be found."""
    env = os.environ.get("CNL_DATA_DIR")
    candidates = [Path(env)] if env else []
    candidates += [Path.cwd() / ".." / "shared" / "data", _REPO_ROOT / ".." / "shared" / "data"]
    for path in candidates:
        if path.is_dir():
            return path.resolve()
    if required:
        raise DataError(
            "shared data folder not found: set CNL_DATA_DIR or place it at ../shared/data "
            f"(looked in {', '.join(str(p) for p in candidates)})"
        )
    return None


def data_file(*parts: str) -> Path:
    """A file under the shared data folder, with a clear error when it is missing."""
    path = data_dir() / Path(*parts)
    if not path.exists():
        raise DataError(f"data file not found: {path}")
    return path
