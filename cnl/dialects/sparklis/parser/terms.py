"""Terms: tokens read into IR terms. ``<P123:label>`` and ``<Q42>`` in the current notation,
labels (bare or ``[...]``), properties shown by their bare label (read backwards where the
lexicon knows only "L of"), literals and the orderings ``highest-to-lowest``/``lowest-to-highest``.

Separate because it is the notation's side of the parser: how a term is written, not where it
may stand."""
from __future__ import annotations

from lark import Token

from cnl import ir
from cnl.dialects.notation import split_angle, unescape
from cnl.dialects.sparklis.parser.reading import current_notation, current_properties


def _label(token: Token) -> str:
    value = str(token)
    if value.startswith("["):
        return unescape(value[1:-1])
    return value


def _angle(token: Token):
    return split_angle(str(token)[1:-1], "label" if current_notation.get() == "label" else "ecai")


def _span(token: Token) -> tuple[int, int]:
    return (token.start_pos, token.end_pos)


def read_property(token: Token) -> ir.Property:
    if not str(token).startswith("<"):  # a property shown by its bare label (_split_bare_properties)
        return ir.Property(id=current_properties.get().get(str(token).lower()), label=str(token), span=_span(token))
    ident, label, _ = _angle(token)
    return ir.Property(id=ident, label=label, span=_span(token))


def read_bare_property(token: Token) -> tuple[ir.Property, bool]:
    """A property shown by its bare label, and whether it is read backwards. Sparklis shows a
    property "L of" the other way round by its noun: "Exo has a member" is "?m member of Exo"
    (ECAI train#130), "X is the member of Y" is "X member of Y". With a property lexicon that
    knows "L of" but not "L", the label is that property, flipped."""
    label = _label(token)
    lexicon = current_properties.get()
    key = label.lower()
    if lexicon and key not in lexicon and f"{key} of" in lexicon:
        return ir.Property(id=lexicon[f"{key} of"], label=f"{label} of", span=_span(token)), True
    return ir.Property(label=label, span=_span(token)), False


def read_property_or_bare(token: Token) -> ir.Property:
    """A ``<P…>`` term, or a property shown by its bare label (see :func:`read_bare_property`)."""
    return read_property(token) if token.type == "PROP" else read_bare_property(token)[0]


def read_of_property(token: Token) -> ir.Property | None:
    """A bare label L in "X is the L of Y" where the lexicon knows the property "L of": that
    property, read forwards. "X is the part of Y" says "X part of Y" (P361) outright, though
    "part" alone is also an alias of P527 ("has part(s)")."""
    if str(token).startswith("<"):
        return None
    label = _label(token)
    pid = current_properties.get().get(f"{label.lower()} of", False)
    if pid is False:
        return None
    return ir.Property(id=pid, label=f"{label} of", span=_span(token))


def read_entity(token: Token):
    if token.type == "QID":
        ident, label, _ = _angle(token)
        return ir.Entity(id=ident, label=label, span=_span(token))
    return ir.Entity(label=_label(token), span=_span(token))


def read_class(token: Token) -> ir.Class:
    if token.type in ("QID", "PROP"):
        ident, label, _ = _angle(token)
        return ir.Class(id=ident, label=label, span=_span(token))
    return ir.Class(label=_label(token), span=_span(token))


def read_literal(token: Token) -> ir.Literal:
    value = str(token)
    if token.type == "STRING":
        return ir.Literal(unescape(value[1:-1]), "string")
    if token.type == "DATE":
        return ir.Literal(value, "date" if len(value) == 10 else "dateTime")
    return ir.Literal(value, "decimal" if "." in value else "integer")


def read_order(token: Token) -> ir.Order:
    return ir.Order("highest" if str(token) == "highest-to-lowest" else "lowest", limit=False)
