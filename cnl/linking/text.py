"""Normalising and tokenising labels and questions the same way, so n-grams meet index keys."""
from __future__ import annotations

import re
import unicodedata

_WORD = re.compile(r"[^\W_]+", re.UNICODE)

STOPWORDS = frozenset("""
a an the of in on at to for from by with and or but not no is are was were be been being do does did
has have had what which who whom whose when where why how many much that this these those it its
as into than then there their they them he she his her him i you your we our us me my one ones
did does some any all most more less first last name named same other only s
""".split())


def fold(text: str) -> str:
    """Lower case without accents: 'Beyoncé' and 'beyonce' meet."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).lower()


def tokens(text: str) -> list[str]:
    return _WORD.findall(fold(text))


def normalize(text: str) -> str:
    """The index key of a label or mention: folded word tokens joined by single spaces."""
    return " ".join(tokens(text))


def token_spans(text: str) -> list[tuple[str, int, int, str]]:
    """(folded token, start, end, original surface) for each word in ``text``."""
    out = []
    for m in _WORD.finditer(text):
        out.append((fold(m.group()), m.start(), m.end(), m.group()))
    return out
