"""Limits every dialect's parser applies, so that no input can exhaust memory or the stack.

A real question is a few hundred characters and nests a handful of levels; the limits are far
above that and far below what the recursive stages after parsing (compiler, printers) handle.
"""
from __future__ import annotations

import re

from cnl import ir
from cnl.errors import CNLSyntaxError

MAX_CNL_CHARS = 10_000   # characters in one query
MAX_DEPTH = 100          # levels of the parsed query (IR nodes); "the <P> of" nests two
_BAD_CHARACTER = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff]")


def check_text(text: str, dialect: str) -> None:
    """Refuse text over the size limit, or holding a control character or an unpaired surrogate
    (which no output encoding can write), before any parsing."""
    if len(text) > MAX_CNL_CHARS:
        raise CNLSyntaxError(f"the {dialect} query is {len(text):,} characters long; the limit is "
                             f"{MAX_CNL_CHARS:,}")
    bad = _BAD_CHARACTER.search(text)
    if bad:
        line = text.count("\n", 0, bad.start()) + 1
        column = bad.start() - (text.rfind("\n", 0, bad.start()) + 1) + 1
        raise CNLSyntaxError(f"character U+{ord(bad.group()):04X} cannot appear in a query",
                             line=line, column=column)


def check_depth(query: ir.Query, dialect: str) -> ir.Query:
    """``query`` if it nests at most MAX_DEPTH levels; a CNLSyntaxError at the limit otherwise."""
    levels = ir.depth(query)
    if levels > MAX_DEPTH:
        raise CNLSyntaxError(f"the {dialect} query nests too deeply ({levels} levels; the limit is "
                             f"{MAX_DEPTH}): split it into simpler questions")
    return query


def too_deep(dialect: str) -> CNLSyntaxError:
    """The error for input that exhausted the parser's stack before the depth could be measured."""
    return CNLSyntaxError(f"the {dialect} query nests too deeply to be parsed")
