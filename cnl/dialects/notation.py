"""Term notations: how entities, classes and properties are written, and how to read them.

| notation | class        | entity                  | property          |
|----------|--------------|-------------------------|-------------------|
| ``ecai`` | ``<film>``   | ``<Jon_Favreau>``       | ``<P57:director>``|
| ``id``   | ``<Q11424>`` | ``<Q295964:Jon_Favreau>``| ``<P57>``        |
| ``label``| ``[film]``   | ``[Jon Favreau]``       | ``<director>``    |

In the ECAI and ID notations underscores stand for spaces; the label notation writes labels
verbatim. ``\\`` escapes the closing delimiter and itself inside ``<...>`` and ``[...]``.
"""
from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache

from cnl import ir

NOTATIONS = ("ecai", "id", "label")

# Q123, P123, or ^P123 (the inverse of P123: "member" is the inverse of P463 "member of"); a
# plural mark "(s)" may follow the number (<Q11424(s)>: films), as other writers write it.
ID_RE = re.compile(r"^(Q|\^?P)([1-9][0-9]*)(?:\(s\))?(?::(.*))?$", re.S)
_ANGLE_RE = re.compile(r"<((?:[^<>\\\n]|\\.)+)>")
_BRACKET_RE = re.compile(r"\[((?:[^\[\]\\\n]|\\.)+)\]")
_UNESCAPE_RE = re.compile(r"\\(.)")


def unescape(text: str) -> str:
    return _UNESCAPE_RE.sub(r"\1", text) if "\\" in text else text


def escape(text: str, closer: str) -> str:
    """Escape a label for ``<...>`` (closer ``>``) or ``[...]`` (closer ``]``). A label that
    reads as an ID (``P1``) gets a leading backslash so that it stays a label."""
    text = text.replace("\\", "\\\\")
    if closer == ">":
        text = text.replace(">", "\\>").replace("<", "\\<")
        return "\\" + text if ID_RE.match(text) else text
    return text.replace("]", "\\]").replace("[", "\\[")


# <...>, [...] and "..." as the lexer reads them, each "plain characters, then (escape, plain
# characters) repeated" (see ANGLE in squall.lark); a string's datatype IRI ("..."^^<IRI>,
# TYPED_STRING) is part of the string, no term
_TERM_TOKENS = re.compile(r'<((?!>)[^<>\\\n]*(?:\\.[^<>\\\n]*)*)>|\[((?!\])[^\[\]\\\n]*(?:\\.[^\[\]\\\n]*)*)\]'
                          r'|"[^"\\\n]*(?:\\.[^"\\\n]*)*"(?:\^\^<[^<>"{}|^`\\\x00-\x20]+>)?')


def detect_notation(text: str) -> str:
    """``label`` if any ``[...]`` term is used; ``id`` if every ``<...>`` term is an ID;
    otherwise ``ecai`` (the ECAI data's mix of ``<P57:director>`` and ``<Jon_Favreau>``).
    Terms are found as the lexer finds them, so ``[`` inside ``<...>`` or a string is no term."""
    if "[" not in text:  # no [...] term: the first <...> term that is no ID decides
        ids = False
        for match in _TERM_TOKENS.finditer(text):
            angle = match.group(1)  # "" for a string
            if angle:
                if not ID_RE.match(angle):
                    return "ecai"
                ids = True
        return "id" if ids else "ecai"
    found = _TERM_TOKENS.findall(text)  # (angle's inside, bracket's inside); both "" for a string
    if any(bracket for _, bracket in found):
        return "label"
    angles = [angle for angle, _ in found if angle]
    if angles and all(map(ID_RE.match, angles)):
        return "id"
    return "ecai"


@lru_cache(maxsize=4096)
def split_angle(inner: str, notation: str) -> tuple[str | None, str | None, str | None]:
    """``P57:director`` -> (``P57``, ``director``, ``P``); ``Jon_Favreau`` -> (None, ``Jon Favreau``, None).

    IDs are recognised on the raw text, so ``<\\P1>`` is the label "P1", not the ID P1. Cached: a
    pure function of its two strings, and the same terms come back in query after query."""
    match = ID_RE.match(inner)
    if "\\" in inner:
        inner = unescape(inner)
        if match:
            match = ID_RE.match(inner)
    if match:
        prefix, number, label = match.groups()
        if label is not None:
            label = _label_from(label, notation) or None
        return prefix + number, label, prefix
    return None, _label_from(inner, notation), None


def _label_from(raw: str, notation: str) -> str:
    if notation == "label":
        return raw.strip()
    return raw.replace("_", " ").strip()


def for_notation(node, notation: str, *, id_labels: bool = True):
    """``node`` with the term fields that ``notation`` cannot carry removed: what parsing the
    printed text gives back."""

    def strip(term):
        if isinstance(term, ir.Property):
            if notation == "label" and term.label:
                return replace(term, id=None)
            if notation == "id" and term.id and not id_labels:
                return replace(term, label=None)
            return term
        if notation in ("label", "ecai") and term.label:
            return replace(term, id=None)
        if notation == "id" and term.id and not id_labels:
            return replace(term, label=None)
        return term

    return ir.map_terms(node, strip)
