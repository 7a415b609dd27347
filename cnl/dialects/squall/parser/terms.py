"""Terms: the tokens that name things, read into IR terms. ``<P123:label>``, ``<label>`` and
``[Label]`` in the current notation, property paths (``<P22> or <P25>``, ``<P131>+``), noun heads
whose role (class or relational noun) is known only later, and strings, language tags and
ordinals.

Separate because it is the notation's side of the parser: how a term is written, not where a
construct may stand (the grammar and the transformer's business)."""
from __future__ import annotations

import re
from functools import lru_cache

from lark import Token

from cnl import ir
from cnl.dialects.notation import split_angle, unescape
from cnl.dialects.squall.parser.reading import current_notation, current_text, error_at


class _Head:
    """A noun head before its role (class or relational noun) is known."""

    __slots__ = ("id", "label", "span", "path")

    def __init__(self, id_, label, span, path=None):
        self.id, self.label, self.span, self.path = id_, label, span, path

    def as_class(self) -> ir.Class:
        if self.path is not None:
            raise error_at(self.span, "a property path names no class: write 'the <P>+ of X'")
        return ir.Class(self.id, self.label, self.span)

    def as_property(self):
        if self.path is not None:
            return self.path
        return checked_property(self.id, self.label, self.span)


def token_span(tok: Token) -> tuple[int, int]:
    return (tok.start_pos, tok.end_pos)


def _raw_term(tok: Token) -> tuple[str | None, str | None]:
    if tok.value.startswith("[") and _TERM_INSIDE.search(tok.value):
        # "[<Q1>, <Q2>]" (SQUALL's list of values) would read as one entity of that label
        raise error_at(token_span(tok), "a [label] names one thing, not a list of terms: "
                                        "write the values joined by 'and' or 'or' (<Q1> or <Q2>)")
    return _term_parts(tok.value, tok.type == "VERB_PROP", current_notation.get())


# a term of the ID or ECAI notation (<Q1016>, <P57:director>, <Barack_Obama>), not any "<...>"
_TERM_INSIDE = re.compile(r"<(?:[QP]\d+(?::[^<>]*)?|[\w.'()-]+)>")


@lru_cache(maxsize=4096)
def _term_parts(value: str, verb_prop: bool, notation: str) -> tuple[str | None, str | None]:
    """(ID, label) of a term token's text (cached: pure, and terms recur across queries)."""
    if verb_prop:
        value = value[value.index("<"):]
    if value.startswith("["):
        return None, unescape(value[1:-1]).strip()
    if value.startswith("'"):  # 'label' (see QUOTED in squall.lark)
        return None, value[1:-1].strip()
    id_, label, _ = split_angle(value[1:-1], notation)
    return id_, label


def checked_property(id_, label, span) -> ir.Property:
    if id_ is not None and id_.startswith("Q"):
        if label:
            return ir.Property(None, label, span)
        raise error_at(span, f"{id_} is an item ID, not a property; write a property as <P123> or <label>")
    return ir.Property(id_, label, span)


def read_property(tok: Token, path: bool = True):
    """The property a PROP/VERB_PROP/ENT token names: an ``ir.Property``, or an
    ``ir.PropPath`` where the lexer merged a path (``path`` False: a position that takes a
    property only, such as a qualifier)."""
    if _one_term(tok):
        id_, label = _raw_term(tok)
        return checked_property(id_, label, token_span(tok))
    value = tok.value
    if not path:
        raise error_at(token_span(tok), "a property path cannot be a qualifier: write one property here")
    return _PathReader(value, tok.start_pos).read()


def _one_term(tok: Token) -> bool:
    """Whether a PROP/VERB_PROP/ENT token is one ``<...>`` term (else the lexer merged a path)."""
    value = tok.value
    return value[-1] == ">" and (value[0] == "<" or tok.type == "VERB_PROP") and value.count("<") == 1


_PATH_PART = re.compile(r"\s*(?:(?:is|are|was|were|be|has|have)-)?(?:(<(?:[^<>\\\n]|\\.)+>)|(or)\b|([()+*/^]|\{0,1\}))",
                        re.I)


class _PathReader:
    """The text of a merged path token -> ``ir.PropPath`` (see ``_merge_paths``): alternatives
    (``or``) of sequences (``/``) of steps, a step an optional ``^``, a property or a
    parenthesized path, and an optional ``+``/``*``/``{0,1}``."""

    def __init__(self, text: str, offset: int):
        self.parts, pos = [], 0
        while pos < len(text):
            match = _PATH_PART.match(text, pos)
            if match is None or match.end() == pos:
                raise error_at((offset + pos, offset + len(text)), "unreadable property path")
            angle, word, op = match.groups()
            if angle is not None:
                start = offset + match.start(1)
                id_, label, _ = split_angle(angle[1:-1], current_notation.get())
                self.parts.append(checked_property(id_, label, (start, start + len(angle))))
            else:
                self.parts.append((word or op).lower())
            pos = match.end()
        self.i, self.offset, self.text = 0, offset, text

    def read(self):
        path = self.alternative()
        if self.i != len(self.parts):
            raise error_at((self.offset, self.offset + len(self.text)), "unreadable property path")
        return path

    def _peek(self):
        return self.parts[self.i] if self.i < len(self.parts) else None

    def alternative(self):
        items = [self.sequence()]
        while self._peek() == "or":
            self.i += 1
            items.append(self.sequence())
        return items[0] if len(items) == 1 else ir.PropPath("|", tuple(items))

    def sequence(self):
        items = [self.step()]
        while self._peek() == "/":
            self.i += 1
            items.append(self.step())
        return items[0] if len(items) == 1 else ir.PropPath("/", tuple(items))

    def step(self):
        part = self._peek()
        self.i += 1
        if part == "^":
            return ir.PropPath("^", (self.step(),))
        if isinstance(part, ir.Property):
            inner = part
        elif part == "(":
            inner = self.alternative()
            if self._peek() != ")":
                raise error_at((self.offset, self.offset + len(self.text)), "unbalanced parentheses in a property path")
            self.i += 1
        else:
            raise error_at((self.offset, self.offset + len(self.text)), "unreadable property path")
        mod = self._peek()
        if mod in ("+", "*", "{0,1}"):
            self.i += 1
            return ir.PropPath("?" if mod == "{0,1}" else mod, (inner,))
        return inner


def read_entity(tok: Token) -> ir.Entity:
    id_, label = _raw_term(tok)
    return ir.Entity(id_, label, token_span(tok))


def read_head(tok: Token) -> _Head:
    if tok.type == "PROP":
        if _one_term(tok):
            id_, label = _raw_term(tok)
            if id_ is not None and id_.startswith("Q") and not label:
                checked_property(id_, label, token_span(tok))  # refused as read_property refuses it
            return _Head(id_, label, token_span(tok))
        prop = read_property(tok)
        if isinstance(prop, ir.PropPath):
            return _Head(None, None, token_span(tok), prop)
    id_, label = _raw_term(tok)
    return _Head(id_, label, token_span(tok))


def read_language(tok: Token) -> str:
    lang = read_string(tok).strip().lower()
    if not re.fullmatch(r"[a-z]{1,8}(?:-[a-z0-9]{1,8})*", lang):
        raise error_at(token_span(tok), f"{lang!r} is not a language tag (en, fr, pt-br)")
    return lang


def read_language_range(tok: Token) -> str:
    """A language range (RFC 4647's basic ranges, as LANGMATCHES takes them): a tag or "*"."""
    lang = read_string(tok).strip().lower()
    return lang if lang == "*" else read_language(tok)


def is_temporal(word: Token) -> bool:
    return word.value.lower().startswith(("earlier", "later"))


def read_string(tok: Token) -> str:
    return unescape(tok.value[1:-1])


def read_typed_literal(tok: Token) -> ir.Literal:
    """``"1961"^^xsd:gYear``, ``"..."^^<IRI>``: the value and its datatype (``xsd:`` by its
    local name, so ``"5"^^xsd:integer`` is the literal ``5``)."""
    text, _, datatype = tok.value.rpartition("^^")
    iri = ir.Literal.XSD + datatype[4:] if datatype.startswith("xsd:") else datatype[1:-1]
    return ir.Literal(unescape(text[1:-1]), ir.Literal.datatype_of(iri))


_ORDINAL_WORDS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5,
    "sixth": 6, "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10,
}


def read_ordinal(tok: Token) -> int:
    word = tok.value.lower()
    return _ORDINAL_WORDS.get(word) or int(re.match(r"\d+", word).group())


def property_noun(item) -> ir.Property | None:
    """The property a plain ``the <P>`` names, when it is written as a property (an ID ``P..``,
    or in the label notation between angle brackets), else None."""
    if not (isinstance(item, ir.Quant) and item.det in ("a", "the") and not item.rels and item.order is None
            and item.var is None):
        return None
    noun = item.noun
    if isinstance(noun, ir.RelNoun) and noun.of is None and not noun.quals:
        return noun.prop
    if not isinstance(noun, ir.ClassNoun):
        return None
    cls = noun.cls
    if (cls.id or "").startswith("P"):
        return ir.Property(cls.id, cls.label, cls.span)
    if cls.id is None and cls.span is not None and current_text.get()[cls.span[0]:cls.span[0] + 1] == "<" \
            and current_notation.get() == "label":
        return ir.Property(None, cls.label, cls.span)
    return None

