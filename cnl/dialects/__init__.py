"""CNL dialects: each folder here is one (``squall/``, ``sparklis/``), registered by name.

    >>> from cnl.dialects import get_dialect
    >>> get_dialect("squall").parse("which [film] has <director> [Jon Favreau]?")  # doctest: +SKIP
"""
from __future__ import annotations

import importlib
import pkgutil
import re
from functools import lru_cache

from cnl.dialects.base import Dialect
from cnl.errors import CNLError

_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


@lru_cache(maxsize=1)
def dialect_names() -> tuple[str, ...]:
    """The dialects shipped in this package (its sub-folders), plus any registered elsewhere."""
    shipped = [m.name for m in pkgutil.iter_modules(__path__) if m.ispkg]
    return tuple(sorted(set(shipped) | set(Dialect.registry)))


@lru_cache(maxsize=None)
def get_dialect(name: str) -> Dialect:
    """The dialect called ``name`` (its module is imported on first use)."""
    if isinstance(name, Dialect):
        return name
    if name not in Dialect.registry and isinstance(name, str) and _NAME.match(name) and name in dialect_names():
        importlib.import_module(f"{__name__}.{name}")
    try:
        return Dialect.registry[name]()
    except (KeyError, TypeError):
        raise CNLError(f"unknown dialect {name!r}; choose one of {', '.join(dialect_names())}") from None


__all__ = ["Dialect", "get_dialect", "dialect_names"]
