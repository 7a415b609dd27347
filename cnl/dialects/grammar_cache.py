"""Lark parsers whose grammar analysis is cached on disk.

Building the LALR tables of the SQUALL grammar takes 0.2-1 s, which every cold command (a
``compile``, the first ``translate``) paid. Lark can pickle the analysed grammar; the file is
named by a hash of the grammar, the options and Lark's version, so an edited grammar or another
Lark never reads a stale analysis. It lives in the project's cache folder (never a shared
temporary folder, whose files another user could plant). A cache that cannot be written or read
only costs the rebuild.
"""
from __future__ import annotations

import hashlib
import os

import lark
from lark import Lark

from cnl.cache import cache_dir


def cached_lark(name: str, grammar: str, **options) -> Lark:
    """``Lark(grammar, **options)``, its analysis cached under the cache folder as ``name``.
    Options that are objects (lexer classes, transformers) enter the key by their class names."""
    described = sorted((key, value if isinstance(value, (str, int, float, bool, type(None)))
                        else getattr(value, "__qualname__", type(value).__qualname__))
                       for key, value in options.items())
    key = hashlib.sha256(repr((grammar, described, lark.__version__)).encode("utf-8")).hexdigest()[:20]
    folder = cache_dir() / "grammars"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        os.chmod(folder, 0o700)
    except OSError:
        return Lark(grammar, **options)
    return Lark(grammar, cache=str(folder / f"{name}-{key}.lark"), **options)
