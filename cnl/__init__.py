"""cnl2sparql: question answering over knowledge graphs through controlled natural languages.

    >>> import cnl
    >>> print(cnl.compile("which <Q11424> has <P57> <Q295964>?"))      # doctest: +SKIP

Public API (from :mod:`cnl.api`, loaded on first use so that ``import cnl.errors`` stays
light): :func:`parse`, :func:`compile`, :func:`to_cnl`, :func:`decompile`,
:func:`translate`, and the error types of :mod:`cnl.errors`.
"""
from __future__ import annotations

from cnl.errors import CNLError, CNLSyntaxError, CompileError, LexiconError
from cnl.version import __version__  # noqa: F401  (cnl.__version__)


_API = ("parse", "compile", "to_cnl", "decompile", "translate", "DIALECTS")


def __getattr__(name: str):
    if name in _API:
        from cnl import api

        return getattr(api, name)
    raise AttributeError(f"module 'cnl' has no attribute {name!r}")


__all__ = [*_API, "CNLError", "CNLSyntaxError", "CompileError", "LexiconError"]
