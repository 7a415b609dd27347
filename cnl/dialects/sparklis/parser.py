"""Sparklis verbalizations -> IR (the same IR as SQUALL).

Sparklis (Ferré, SWJ 2017) builds queries by clicking and shows them as English
(``give me every film that has as a <P179:part_of_the_series> Marvel Cinematic Universe``);
it has no parser of its own. This one reads its verbalizations, as found in the ECAI-2023
data, with an LALR(1) grammar (``cnl/grammar/sparklis.lark``) over word-level tokens:
entities and classes are bare labels, which :class:`SparklisLexer` groups into one LABEL
token each (see the grammar's header for how).

Meaning, as Sparklis has it: every variable of the query is an answer column, so the
indefinites of a sentence without ``give me`` are questions (``which``) and those under
``give me every C`` are projected with it. ``highest-to-lowest`` orders without a limit
(``Order(limit=False)``). The trailing clauses refer back to a noun or a property already
mentioned: ``and give me the number of film`` counts the films, ``and give me the year of
the <P577>`` adds the year of that date as a column, ``and where the year of the <P577> = 1997``
filters it.
"""
from __future__ import annotations

import contextvars
import re
from dataclasses import replace
from functools import lru_cache
from importlib import resources

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError
from lark.lexer import Lexer

from cnl.errors import CNLSyntaxError
from cnl import ir
from cnl.dialects.grammar_cache import cached_lark
from cnl.dialects.notation import ID_RE, NOTATIONS, split_angle, unescape
from cnl.dialects.limits import check_depth, check_text, too_deep

_notation: contextvars.ContextVar[str] = contextvars.ContextVar("sparklis_notation", default="ecai")
# Property label (lower case) -> PID or None, for the bare-label style: "has as a genre romance film".
_properties: contextvars.ContextVar[dict] = contextvars.ContextVar("sparklis_properties", default={})
# Known entity labels (lower case), to split "Chris Farley and Matthew Perry" into two values.
_entities: contextvars.ContextVar[frozenset] = contextvars.ContextVar("sparklis_entities", default=frozenset())

INSTANCE_OF = ir.Property(id="P31", label="instance of")

# Single-word keywords (case-sensitive: Sparklis' own words are lower-case, labels such as
# "The Hobbit" or "A Song of Ice and Fire" are capitalized).
_KEYWORDS = {
    "every": "EVERY", "everything": "EVERYTHING", "the": "THE", "that": "THAT", "and": "AND", "has": "HAS", "as": "AS",
    "a": "A", "an": "A", "not": "NOT", "is": "IS", "of": "OF", "with": "WITH",
    "something": "SOMETHING", "highest-to-lowest": "ORDER", "lowest-to-highest": "ORDER",
    "between": "BETWEEN", "matches": "MATCHES",
}
# Keyword sequences merged into one token (longest first).
_PHRASES = [
    (("and", "give", "me"), "AND_GIVE_ME"),
    (("is", "the", "instance", "of"), "INSTANCE_OF"),
    (("higher", "or", "equal", "to"), "OP>="),
    (("lower", "or", "equal", "to"), "OP<="),
    (("greater", "or", "equal", "to"), "OP>="),
    (("less", "or", "equal", "to"), "OP<="),
    (("the", "number", "of"), "NUMBER_OF"),
    (("highest-to-lowest", "number", "of"), "ORDER_NUMBER_OF"),  # "for each human give me the ..."
    (("lowest-to-highest", "number", "of"), "ORDER_NUMBER_OF"),
    (("and", "for", "each"), "AND_FOR_EACH"),
    (("-", "the", "year", "of"), "MINUS_YEAR_OF"),              # "give me 2023 - the year of the <P569>"
    (("the", "year", "of"), "YEAR_OF"),
    (("the", "string", "of"), "STRING_OF"),
    (("higher", "than"), "OP>"),
    (("lower", "than"), "OP<"),
    (("give", "me"), "GIVE_ME"),
    (("and", "that"), "AND_THAT"),
    (("and", "where"), "AND_WHERE"),
    (("and", "of"), "AND_OF"),       # "is the <P> of X and of Y": never inside a label
    (("or", "of"), "OR_OF"),         # "is the <P> of X or of Y"
]
# Function words that belong to a label when they sit between two of its words.
_JOINERS = frozenset({"of", "the", "and", "with", "a", "an"})  # "... Performance in a Youth/Children's Series"

_PIECE = re.compile(
    r'(?P<ANGLE><[^\s<=>](?:[^<>\\\n]|\\.)*>)'
    r'|(?P<BAD_ANGLE><[^\s<=>][^>]*<)'
    r'|(?P<BRACKET>\[(?:[^\[\]\\\n]|\\.)+\])'
    r'|(?P<STRING>"(?:[^"\\\n]|\\.)*")'
    r'|(?P<OP><=|>=|=|<|>)'
    r'|(?P<WORD>[^\s<>\[\]"=]+)'
)
_NUMBER = re.compile(r"^-?[0-9]+(\.[0-9]+)?$")
_DATE = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2}:[0-9]{2}Z)?$")


def _position(text: str, pos: int) -> tuple[int, int]:
    line = text.count("\n", 0, pos) + 1
    return line, pos - (text.rfind("\n", 0, pos) + 1) + 1


def _syntax_error(text: str, pos: int, reason: str, token: str | None = None, expected=(), hint=None):
    line, column = _position(text, pos)
    return CNLSyntaxError(reason, text=text, line=line, column=column, token=token,
                          expected=tuple(expected), hint=hint)


def tokenize(text: str) -> list[Token]:
    """Word-level tokens of a Sparklis string, labels grouped (see the grammar's header)."""
    raw: list[tuple[str, str, int]] = []  # (kind, value, start)
    pos, end = 0, len(text)
    space = re.compile(r"\s*")
    while True:
        pos = space.match(text, pos).end()
        if pos >= end:
            break
        match = _PIECE.match(text, pos)
        if match is None:
            raise _syntax_error(text, pos, "unexpected character", text[pos])
        kind, value = match.lastgroup, match.group()
        if kind == "BAD_ANGLE":
            raise _syntax_error(
                text, pos, "corrupted property term: '<' inside '<...>'", value,
                hint="a property is written <P123:label> (or <label>) with no '<' inside; this "
                     "string looks damaged (a term pasted into another)")
        raw.append((kind, value, pos))
        pos = match.end()
    # merge keyword phrases, then classify single words
    typed: list[tuple[str, str, int]] = []
    i = 0
    words = [v if k == "WORD" else None for k, v, _ in raw]
    while i < len(raw):
        kind, value, start = raw[i]
        if kind == "WORD":
            for phrase, name in _PHRASES:
                if tuple(words[i:i + len(phrase)]) == phrase:
                    last = raw[i + len(phrase) - 1]
                    typed.append((name, text[start:last[2] + len(last[1])], start))
                    i += len(phrase)
                    break
            else:
                if value in _KEYWORDS:
                    typed.append((_KEYWORDS[value], value, start))
                elif _DATE.match(value):
                    typed.append(("DATE", value, start))
                elif _NUMBER.match(value):
                    typed.append(("NUMBER", value, start))
                else:
                    typed.append(("WORD", value, start))
                i += 1
            continue
        if kind == "ANGLE":
            ident = ID_RE.match(unescape(value[1:-1]))
            typed.append(("QID" if ident and ident.group(1) == "Q" else "PROP", value, start))
        elif kind == "BRACKET":
            typed.append(("LABEL", value, start))
        elif kind == "OP":
            typed.append(("OP" + value, value, start))
        else:
            typed.append((kind, value, start))
        i += 1
    # group label words (and the joiners between them) into LABEL tokens
    out: list[Token] = []
    i = 0
    while i < len(typed):
        kind, value, start = typed[i]
        # "has as a <P161> 50 Cent": a number opening a label; not a qualifier's value ("with
        # <P1545> 3 The Wheel of Time") or a comparison's
        number_label = (kind == "NUMBER" and i + 1 < len(typed) and typed[i + 1][0] == "WORD"
                        and [t[0] for t in typed[max(0, i - 4):i]] == ["HAS", "AS", "A", "PROP"])
        if kind != "WORD" and not number_label:
            if kind.startswith("OP"):
                out.append(Token("OP", {"OP>=": ">=", "OP<=": "<=", "OP>": ">", "OP<": "<"}.get(kind, value),
                                 start_pos=start))
            else:
                out.append(Token(kind, value, start_pos=start))
            i += 1
            continue
        j = i + 1
        while j < len(typed):
            if typed[j][0] == "WORD" or (typed[j][0] == "NUMBER" and typed[j - 1][0] == "WORD"):
                # "Kill Bill Volume 1", "Fallout 3": a number right after a label word is part of it
                j += 1
                continue
            if typed[j][0] == "OF" and i >= 2 and typed[i - 1][0] == "THE" and typed[i - 2][0] == "IS":
                break  # "is the part(s) of X": a property shown by its label
            if typed[j][0] == "OF" and [t[0] for t in typed[max(0, i - 5):i]] == ["IS", "THE", "PROP", "WITH", "PROP"]:
                break  # "is the <P161> with <P453> Aquaman of Aquaman": the qualifier's value ends at "of"
            k = j
            while k < len(typed) and typed[k][0] in ("OF", "THE", "AND", "WITH", "A") and typed[k][1] in _JOINERS:
                k += 1
            # "a"/"an" only before a capitalized word: "... Performance in a Youth/Children's
            # Series" is one label, "has as a sibling a twin" is a property and a class
            articles = any(t[0] == "A" for t in typed[j:k])
            if k > j and k < len(typed) and typed[k][0] == "WORD" and (not articles or typed[k][1][:1].isupper()):
                j = k + 1
                continue
            break
        last = typed[j - 1]
        out.append(Token("LABEL", text[start:last[2] + len(last[1])], start_pos=start))
        i = j
    out = _split_bare_properties(out, _properties.get(), _entities.get())
    out = _split_coordinated_labels(out, _entities.get())
    out = _split_qualifier_value(out, _entities.get())
    for token in out:
        line, column = _position(text, token.start_pos)
        token.line, token.column = line, column
        token.end_pos = token.start_pos + len(token.value)
    return out


# The values a property shown by its label can be followed by (after "has as a P").
_VALUE_STARTS = frozenset({"LABEL", "QID", "NUMBER", "DATE", "STRING", "A", "SOMETHING"})


def _split_coordinated_labels(tokens: list[Token], entities: frozenset) -> list[Token]:
    """Sparklis shows two values of one property as "X and Y" (or "X or Y") with bare labels,
    which the lexer cannot tell from a label with "and" in it ("Dumb and Dumber"). With a
    lexicon of entity labels, a LABEL that is not a known label but whose parts around " and "
    (" or ") all are becomes LABEL COORD_AND LABEL ... (COORD_OR); without one the label stays
    whole (and resolving it fails with the label named, never silently)."""
    if not entities:
        return tokens
    out: list[Token] = []
    for tok in tokens:
        text = str(tok)
        word = next((w for w in ("and", "or") if f" {w} " in text), None)
        if tok.type != "LABEL" or text.startswith("[") or word is None or text.lower() in entities:
            out.append(tok)
            continue
        parts = text.split(f" {word} ")
        if not all(part.strip().lower() in entities for part in parts):
            out.append(tok)
            continue
        offset = 0
        for n, part in enumerate(parts):
            if n:
                out.append(Token(f"COORD_{word.upper()}", word, start_pos=tok.start_pos + offset - len(word) - 1))
            out.append(Token("LABEL", part, start_pos=tok.start_pos + offset))
            offset += len(part) + len(word) + 2
    return out


def _split_qualifier_value(tokens: list[Token], entities: frozenset) -> list[Token]:
    """"has as a <P161> with <P453> Morpheus Laurence Fishburne": a qualifier shown before the
    value, both bare labels, run together. With a lexicon of entity labels, a LABEL there that
    is not a known label but is two known labels in a row becomes those two."""
    if not entities:
        return tokens
    out: list[Token] = []
    for i, tok in enumerate(tokens):
        before = [t.type for t in tokens[max(0, i - 6):i]]
        text = str(tok)
        if (tok.type != "LABEL" or text.startswith("[") or text.lower() in entities
                or before != ["HAS", "AS", "A", "PROP", "WITH", "PROP"]):
            out.append(tok)
            continue
        cuts = [m.start() for m in re.finditer(r" (?=\S)", text)]
        split = next((c for c in cuts if text[:c].lower() in entities and text[c + 1:].lower() in entities), None)
        if split is None:
            out.append(tok)
            continue
        out.append(Token("LABEL", text[:split], start_pos=tok.start_pos))
        out.append(Token("LABEL", text[split + 1:], start_pos=tok.start_pos + split + 1))
    return out


def _split_bare_properties(tokens: list[Token], properties: dict, entities: frozenset = frozenset()) -> list[Token]:
    """Sparklis sometimes shows a property by its bare label: "has as a genre romance film",
    "with valid in place worldwide". The label words then run into the value's, so one LABEL
    holds both. With a property lexicon, the longest leading run of words that is a property
    label becomes a PROP token (``prop_label``) and the rest stays a LABEL. Only where a
    property must come (after "has as a" and after the qualifier's "with"), so this never
    changes a string that parses without it."""
    if not properties:
        return tokens
    out: list[Token] = []
    for i, tok in enumerate(tokens):
        after = [t.type for t in tokens[max(0, i - 3):i]]
        nxt = tokens[i + 1].type if i + 1 < len(tokens) else "$END"
        if tok.type != "LABEL" or str(tok).startswith("["):
            out.append(tok)
            continue
        if after[-3:] == ["HAS", "AS", "A"]:
            ends = _VALUE_STARTS | {"WITH"}   # "has as a part of the series with <P1545> 4 X"
        elif after[-1:] == ["WITH"]:
            ends = _VALUE_STARTS
        elif after[-2:] in (["HAS", "A"], ["IS", "THE"], ["THE", "ORDER"]):
            ends = None                       # the whole label only: "has a part(s) with ..."
        elif after[-1:] == ["IS"] and entities and str(tok).lower() not in entities:
            # "that is named after Percy Jackson": a property label and a known entity label
            text = str(tok)
            words = list(re.finditer(r"\S+", text))
            cut = next((k for k in range(len(words) - 1, 0, -1)
                        if text[: words[k - 1].end()].lower() in properties
                        and text[words[k].start():].lower() in entities), None)
            if cut is None:
                out.append(tok)
                continue
            end, start = words[cut - 1].end(), words[cut].start()
            out.append(Token("PROP", text[:end], start_pos=tok.start_pos))
            out.append(Token("LABEL", text[start:], start_pos=tok.start_pos + start))
            continue
        else:
            out.append(tok)
            continue
        words = list(re.finditer(r"\S+", str(tok)))
        cut = None
        for k in range(len(words), 0, -1):
            whole = k == len(words)
            if str(tok)[: words[k - 1].end()].lower() in properties and (
                    (not whole and ends is not None) or (whole and (ends is None or nxt in ends))):
                cut = k
                break
        if ends is None and after[-2:] == ["IS", "THE"] and nxt not in ("OF", "WITH"):
            cut = None  # "is the <P> of X" / "is the <P> with <Q> v of X" only
        if cut is None:
            out.append(tok)
            continue
        end = words[cut - 1].end()
        prop = Token("PROP", str(tok)[:end], start_pos=tok.start_pos)
        out.append(prop)
        if cut < len(words):
            start = words[cut].start()
            out.append(Token("LABEL", str(tok)[start:], start_pos=tok.start_pos + start))
    return out


class SparklisLexer(Lexer):
    def __init__(self, lexer_conf):
        pass

    def lex(self, data):
        yield from tokenize(data)


# ------------------------------------------------------------------------------ terms


def _label(token: Token) -> str:
    value = str(token)
    if value.startswith("["):
        return unescape(value[1:-1])
    return value


def _angle(token: Token):
    return split_angle(str(token)[1:-1], "label" if _notation.get() == "label" else "ecai")


def _span(token: Token) -> tuple[int, int]:
    return (token.start_pos, token.end_pos)


def _prop(token: Token) -> ir.Property:
    if not str(token).startswith("<"):  # a property shown by its bare label (_split_bare_properties)
        return ir.Property(id=_properties.get().get(str(token).lower()), label=str(token), span=_span(token))
    ident, label, _ = _angle(token)
    return ir.Property(id=ident, label=label, span=_span(token))


def _bare_property(token: Token) -> tuple[ir.Property, bool]:
    """A property shown by its bare label, and whether it is read backwards. Sparklis shows a
    property "L of" the other way round by its noun: "Exo has a member" is "?m member of Exo"
    (ECAI train#130), "X is the member of Y" is "X member of Y". With a property lexicon that
    knows "L of" but not "L", the label is that property, flipped."""
    label = _label(token)
    lexicon = _properties.get()
    key = label.lower()
    if lexicon and key not in lexicon and f"{key} of" in lexicon:
        return ir.Property(id=lexicon[f"{key} of"], label=f"{label} of", span=_span(token)), True
    return ir.Property(label=label, span=_span(token)), False


def _prop_or_bare(token: Token) -> ir.Property:
    """A ``<P…>`` term, or a property shown by its bare label (see :func:`_bare_property`)."""
    return _prop(token) if token.type == "PROP" else _bare_property(token)[0]


def _of_property(token: Token) -> ir.Property | None:
    """A bare label L in "X is the L of Y" where the lexicon knows the property "L of": that
    property, read forwards. "X is the part of Y" says "X part of Y" (P361) outright, though
    "part" alone is also an alias of P527 ("has part(s)")."""
    if str(token).startswith("<"):
        return None
    label = _label(token)
    pid = _properties.get().get(f"{label.lower()} of", False)
    if pid is False:
        return None
    return ir.Property(id=pid, label=f"{label} of", span=_span(token))


def _entity(token: Token):
    if token.type == "QID":
        ident, label, _ = _angle(token)
        return ir.Entity(id=ident, label=label, span=_span(token))
    return ir.Entity(label=_label(token), span=_span(token))


def _class(token: Token) -> ir.Class:
    if token.type in ("QID", "PROP"):
        ident, label, _ = _angle(token)
        return ir.Class(id=ident, label=label, span=_span(token))
    return ir.Class(label=_label(token), span=_span(token))


def _literal(token: Token) -> ir.Literal:
    value = str(token)
    if token.type == "STRING":
        return ir.Literal(unescape(value[1:-1]), "string")
    if token.type == "DATE":
        return ir.Literal(value, "date" if len(value) == 10 else "dateTime")
    return ir.Literal(value, "decimal" if "." in value else "integer")


def _order(token: Token) -> ir.Order:
    return ir.Order("highest" if str(token) == "highest-to-lowest" else "lowest", limit=False)


def _toks(items, *types):
    return [t for t in items if isinstance(t, Token) and t.type in types]


def _nodes(items, cls):
    return [x for x in items if isinstance(x, cls)]


def _rels(items):
    """The relative clauses among ``items``: single ones and chains (tuples)."""
    out = []
    for x in items:
        if isinstance(x, tuple):
            out.extend(x)
        elif isinstance(x, _VP_TYPES):
            out.append(x)
    return out


class _Extra:
    def __init__(self, kind, target, test=None, order=None):
        self.kind, self.target, self.test, self.order = kind, target, test, order


class _ValueThen:
    def __init__(self, np, vp):
        self.np, self.vp = np, vp


def _flat(vp):
    return vp.items if isinstance(vp, ir.And) else (vp,)


class _ValueOf:
    """``the <P>`` as the other side of a comparison, until it is resolved."""

    def __init__(self, token):
        self.token = token


class _Conj:
    def __init__(self, subject, vp):
        self.subject, self.vp = subject, vp


_VP_TYPES = (ir.Stmt, ir.Be, ir.Compare, ir.Not, ir.And, ir.Or, ir.StrTest, ir.Exists, ir.YearIs, ir.QualifierOf)
_NP_TYPES = (ir.Ref, ir.Quant, ir.Coord, ir.Arith, _ValueOf)


class _ToIR(Transformer):
    # -- terms
    def entity(self, items):
        return _entity(items[0])

    def literal(self, items):
        return _literal(items[0])

    def value(self, items):
        return ir.Ref(items[0])

    def noun(self, items):
        return ir.ClassNoun(_class(items[0]))

    def counted(self, items):
        return items[0]

    def subject(self, items):
        return ir.Ref(items[0])

    # -- relative clauses
    def rel(self, items):
        return _nodes(items, _VP_TYPES)[0]

    def rel_chain(self, items):
        return tuple(vp for item in _nodes(items, _VP_TYPES) for vp in _flat(item))

    def cmp(self, items):
        op = _toks(items, "OP")[0]
        return ir.Compare(str(op), (items[-1],))

    def cmp_value_of(self, items):
        # "where the <P577> > the <P570>": compared with the value of a property mentioned
        # before; resolved to that value's variable once the sentence is read (_resolve_value_refs)
        op = _toks(items, "OP")[0]
        return ir.Compare(str(op), (_ValueOf(_toks(items, "PROP")[0]),))

    # -- qualifiers
    def qual_value(self, items):
        return ir.Qual(_prop(_toks(items, "PROP")[0]), items[-1])

    def qual_some(self, items):
        # "with a <P453:character_role> that is the <P463> Jedi": the clause describes the value
        return ir.Qual(_prop(_toks(items, "PROP")[0]), ir.Quant("a", None, tuple(_rels(items))))

    def qual_order(self, items):
        return ir.Qual(_prop(_toks(items, "PROP")[0]), ir.Quant("the", order=_order(_toks(items, "ORDER")[0])))

    # -- objects
    def obj_value(self, items):
        rels = _rels(items)
        if not rels:
            return items[0]
        return _ValueThen(items[0], tuple(rels))

    def obj_coord(self, items):
        return ir.Coord("and", tuple(_nodes(items, _NP_TYPES)))

    def obj_a(self, items):
        noun = _nodes(items, ir.ClassNoun)[0]
        return ir.Quant("a", noun, tuple(_rels(items)))

    def obj_something(self, items):
        return ir.Quant("a", None, tuple(_rels(items)))

    # -- verb phrases
    def _stmt(self, items, inverse=False, prop=None):
        prop = prop or _prop(_toks(items, "PROP")[0])
        quals = tuple(_nodes(items, ir.Qual))
        then = _nodes(items, _ValueThen)
        if then:
            # "has as a <P> X that ...": the clause describes X
            named = ir.Quant("the", None, (ir.Be(then[0].np),) + then[0].vp)
            return ir.Stmt(prop, named, quals, inverse=inverse)
        objs = _nodes(items, _NP_TYPES)
        # "is the <P> of X and of Y": both statements hold
        obj = objs[0] if len(objs) == 1 else ir.Coord("and", tuple(objs))
        return ir.Stmt(prop, obj, quals, inverse=inverse)

    def is_the_forward(self, items):
        return self._stmt(items)

    def qual_a(self, items):
        return ir.Qual(_prop(_toks(items, "PROP")[0]), ir.Quant("a", _nodes(items, ir.ClassNoun)[0]))

    def has_as(self, items):
        return self._stmt(items)

    def verb(self, items):
        return self._stmt(items)

    def is_prop(self, items):
        return self._stmt(items)

    def is_the_of_either(self, items):
        stmt = self.is_the_of(items)
        return replace(stmt, obj=replace(stmt.obj, op="or"))

    def is_the_of(self, items):
        token = _toks(items, "PROP")[0]
        forward = _of_property(token)
        if forward is not None:
            return self._stmt(items, prop=forward)
        return self._stmt(items, inverse=True)

    def has_a(self, items):
        prop = _prop(_toks(items, "PROP")[0])
        return ir.Stmt(prop, ir.Quant("a", None, tuple(_rels(items))), tuple(_nodes(items, ir.Qual)))

    has_a_cmp = has_a

    # Sparklis shows some properties by label only ("has a part(s)", "is the member of X");
    # they become properties without ID, resolved like any label (lexicon or alignment).
    def has_a_bare(self, items):
        label = _toks(items, "LABEL")[0]
        prop, flipped = _bare_property(label)
        return ir.Stmt(prop, ir.Quant("a", None, tuple(_nodes(items, _VP_TYPES))), inverse=flipped)

    def is_the_of_bare(self, items):
        label = _toks(items, "LABEL")[0]
        forward = _of_property(label)
        if forward is not None:
            return self._stmt(items, prop=forward)
        prop, flipped = _bare_property(label)
        return self._stmt(items, inverse=not flipped, prop=prop)

    def has_order(self, items):
        prop = _prop(_toks(items, "PROP")[0])
        return ir.Stmt(prop, ir.Quant("the", order=_order(_toks(items, "ORDER")[0])), tuple(_nodes(items, ir.Qual)))

    def not_vp(self, items):
        return ir.Not(_nodes(items, _VP_TYPES)[0])

    def instance_of(self, items):
        return self._stmt(items, prop=INSTANCE_OF)

    def be_a(self, items):
        noun = _nodes(items, ir.ClassNoun)[0]
        return ir.Be(ir.Quant("a", noun, tuple(_nodes(items, _VP_TYPES))))

    def matches(self, items):
        # "give me every film that matches ace ventura": Sparklis' filter on the label (as
        # SQUALL's "has a <label> matching "ace ventura"")
        return _label_matches(items[-1])

    def be_either(self, items):
        # "that is Red or Lover": one of them
        return ir.Be(ir.Coord("or", tuple(ir.Ref(e) for e in _nodes(items, ir.Entity))))

    def obj_either(self, items):
        return ir.Coord("or", tuple(_nodes(items, _NP_TYPES)))

    def be_entity(self, items):
        return ir.Be(ir.Ref(_nodes(items, ir.Entity)[0]))

    # -- sentences
    def give_every(self, items):
        noun = _nodes(items, ir.ClassNoun)[0]
        rels = next((x for x in items if isinstance(x, tuple)), ())
        return ir.Quant("which", noun, rels)

    def give_everything(self, items):
        rels = next((x for x in items if isinstance(x, tuple)), ())
        return ir.Quant("which", None, rels)

    def give_ordered(self, items):
        noun = _nodes(items, ir.ClassNoun)[0]
        rels = next((x for x in items if isinstance(x, tuple)), ())
        return ir.Quant("which", noun, rels, order=_order(_toks(items, "ORDER")[0]))

    def give_sentence(self, items):
        return ir.Query(_nodes(items, ir.Quant)[0], None, dialect="sparklis")

    def conj_vp(self, items):
        return _Conj(None, items[0])

    def conj_sentence(self, items):
        return _Conj(items[0], items[1])

    def subject_sentence(self, items):
        subject, vp = items[0], items[1]
        vps, subjects = [vp], [subject]
        for conj in items[2:]:
            if not isinstance(conj, _Conj):
                continue
            if conj.subject is None:
                vps.append(conj.vp)
            else:
                if len(vps) > 1 or conj.vp != vp:
                    raise _Refused("two sentences about different things cannot be one query "
                                   "(only 'X has a <P> and Y has a <P>', with the same verb phrase)")
                subjects.append(conj.subject)
        vps = [item for vp_ in vps for item in _flat(vp_)]
        main_vp = vps[0] if len(vps) == 1 else ir.And(tuple(vps))
        subj = subjects[0] if len(subjects) == 1 else ir.Coord("and", tuple(subjects))
        return ir.Query(subj, _as_questions(main_vp), dialect="sparklis")

    # -- trailing clauses
    def year_is(self, items):
        return ir.Be(items[-1])

    def year_test(self, items):
        return items[0]

    def year_between(self, items):
        low, high = _nodes(items, _NP_TYPES)
        return ir.Compare("between", (low, high))

    def year_not_between(self, items):
        return ir.Not(self.year_between(items))

    def extra_count(self, items):
        return _Extra("count", items[-1])

    def extra_group_count(self, items):
        key, counted = _toks(items, "LABEL", "QID", "PROP")
        order = _toks(items, "ORDER_NUMBER_OF")
        return _Extra("group_count", counted, key, order[0] if order else None)

    def extra_minus_year(self, items):
        return _Extra("minus_year", _toks(items, "LABEL", "QID", "PROP")[-1], _literal(_toks(items, "NUMBER")[0]))

    def extra_string_match(self, items):
        # "and give me the string of the <P1476> that not matches Grey": a text test on the value
        test = ir.StrTest("matches", _match_text(items[-1]))
        return _Extra("where_value", _toks(items, "PROP")[0], ir.Not(test) if _toks(items, "NOT") else test)

    def extra_year(self, items):
        prop = _toks(items, "PROP")[0]
        tests = _nodes(items, _VP_TYPES)
        return _Extra("year", prop, tests[0] if tests else None)

    def extra_year_order(self, items):
        # "and give me lowest-to-highest the year of the <P585>": the year column, sorted
        return _Extra("year", _toks(items, "PROP")[0], None, _order(_toks(items, "ORDER")[0]))

    def extra_where_year(self, items):
        return _Extra("where_year", _toks(items, "PROP")[0], _nodes(items, _VP_TYPES)[0])

    def extra_where_value(self, items):
        return _Extra("where_value", _toks(items, "PROP")[0], _nodes(items, _VP_TYPES)[0])

    def start(self, items):
        query = items[0]
        for extra in items[1:]:
            query = _apply_extra(query, extra)
        return _resolve_value_refs(query)


LABEL_PROPERTY = ir.Property(label="label")


def _match_text(value: ir.Ref) -> str:
    term = value.term
    return term.value if isinstance(term, ir.Literal) else (term.label or term.id or "")


def _label_matches(value: ir.Ref) -> ir.Stmt:
    return ir.Stmt(LABEL_PROPERTY, ir.Quant("a", None, (ir.StrTest("matches", _match_text(value)),)))


class _Refused(Exception):
    """A sentence the grammar accepts but the IR cannot carry; becomes a CNLSyntaxError."""

    def __init__(self, reason, token=None):
        super().__init__(reason)
        self.reason, self.token = reason, token


def _as_questions(node):
    """Sparklis projects every variable: the indefinites of a sentence without 'give me'
    (outside negations) are what it asks for."""
    if isinstance(node, ir.Not):
        return node
    if isinstance(node, ir.Be) and isinstance(node.np, ir.Quant) and node.np.det == "a":
        # "a film that is a Star Trek film": a class test on the same thing, not a new column
        return replace(node, np=replace(node.np, rels=_as_questions(node.np.rels)))
    if isinstance(node, ir.Quant) and node.det == "a":
        node = replace(node, det="which")
    return ir.map_children(node, _as_questions)


# ------------------------------------------------------------------------------ back-references


def _same_prop(a: ir.Property, b: ir.Property) -> bool:
    if a.id and b.id:
        return a.id == b.id
    return (a.label or "").lower() == (b.label or "").lower()


def _find(node, pred):
    """The first node (depth first, reading order) satisfying ``pred``."""
    for n in ir.walk(node):
        if pred(n):
            return n
    return None


def _swap(node, target, new):
    """``node`` with the node ``target`` (by identity) replaced by ``new``."""
    if node is target:
        return new
    return ir.map_children(node, lambda child: _swap(child, target, new))


def _demote_questions(node, keep):
    """``node`` with every ``which`` noun phrase for which ``keep(np)`` is false made
    existential; a column asked for by "give me the year of" stays."""
    if isinstance(node, ir.YearIs):
        return node
    new = ir.map_children(node, lambda child: _demote_questions(child, keep))
    if isinstance(node, ir.Quant) and node.det == "which" and not keep(node):
        new = replace(new, det="a")
    return new


def _object(node):
    """The value of a statement (its object) or of a qualifier."""
    return node.obj if isinstance(node, ir.Stmt) else node.value


def _statement_value(query, prop: ir.Property, accept):
    """The value of the first statement or qualifier on ``prop`` whose value ``accept``s."""
    found = _find(query, lambda n: isinstance(n, (ir.Stmt, ir.Qual)) and _same_prop(n.prop, prop)
                  and accept(_object(n)))
    return None if found is None else _object(found)


def value_of(query, prop: ir.Property):
    """The value NP of the first statement or qualifier on ``prop`` (``has a <P>``, ``with a
    <P>`` -> its Quant)."""
    return _statement_value(query, prop, lambda np: isinstance(np, ir.Quant) and np.noun is None
                            and np.var is None and not any(isinstance(r, ir.Be) for r in np.rels))


def _value_of_any(query, prop: ir.Property):
    """The value of the first statement or qualifier on ``prop`` that is a noun phrase of its
    own ("with <P1686:for_work> a film ... and give me the number of <P1686:for_work>")."""
    return _statement_value(query, prop, lambda np: isinstance(np, ir.Quant) and np.var is None)


def _is_the_of(query, prop: ir.Property):
    """The noun phrase that "is the <P> of" something: "something that is the part(s) of
    Academy Awards and give me the number of part(s)" counts those parts."""
    return _find(query, lambda n: isinstance(n, ir.Quant) and n.var is None and any(
        isinstance(r, ir.Stmt) and r.inverse and _same_prop(r.prop, prop) for r in n.rels))


def _resolve_value_refs(query: ir.Query) -> ir.Query:
    """Each comparison with "the <P>" now compares with the variable of the value of the
    first "has a <P>" (named after the property): "... has a <P570> and has a <P577> and where
    the <P577> > the <P570>"."""
    while True:
        ref = _find(query, lambda n: isinstance(n, _ValueOf))
        if ref is None:
            return query
        compare = _find(query, lambda n: isinstance(n, ir.Compare) and any(a is ref for a in n.args))
        prop = _prop(ref.token)
        value = value_of(query, prop) or _named_value_of(query, prop)
        if value is None:
            raise _Refused(f"'the {ref.token}' refers to no 'has a {ref.token}' before it", ref.token)
        name = value.var or re.sub(r"\W+", "_", (prop.label or prop.id or "value")).strip("_") or "value"
        if value.var is None:
            query = _swap(query, value, replace(value, var=name))
            compare = _find(query, lambda n: isinstance(n, ir.Compare) and any(a is ref for a in n.args))
        resolved = replace(compare, args=tuple(ir.Ref(ir.Var(name)) if a is ref else a for a in compare.args))
        query = _swap(query, compare, resolved)


def _named_value_of(query, prop: ir.Property):
    """The value of a statement on ``prop`` already given a name (a second comparison with it)."""
    return _statement_value(query, prop, lambda np: isinstance(np, ir.Quant) and np.var is not None)


def _mentioned(query, token: Token, what: str):
    """The noun phrase a trailing clause names by its class ("film") or by the property it is
    the value of ("<P1686:for_work>", "part(s)")."""
    cls = _class(token)
    names = {x.lower() for x in (cls.label, cls.id) if x}
    target = _find(query, lambda n: isinstance(n, ir.Quant) and isinstance(n.noun, ir.ClassNoun)
                   and bool(names & {x.lower() for x in (n.noun.cls.label, n.noun.cls.id) if x}))
    if target is None:
        prop = _prop_or_bare(token)
        target = value_of(query, prop) or _value_of_any(query, prop) or _is_the_of(query, prop)
    if target is None:
        raise _Refused(f"'{what} {token}' refers to nothing mentioned before", token)
    return target


_KEY, _COUNTED = "\0for each", "\0counted"  # markers while the sentence is rewritten


def _group_count(query: ir.Query, extra: _Extra) -> ir.Query:
    """"and for each human give me the (highest-to-lowest) number of Grammy Awards": one row
    per human with its count, ordered by it when an order is given."""
    key = _mentioned(query, extra.test, "for each")
    query = _swap(query, key, replace(key, det="which", var=_KEY))
    counted = _mentioned(query, extra.target, "the number of")
    if counted.var == _KEY:
        raise _Refused(f"cannot count {extra.target} for each {extra.target}", extra.target)
    if extra.order is None:
        new = replace(counted, det="how_many", var=_COUNTED)
    else:
        if counted.noun is None:
            raise _Refused(f"ordering by the number of {extra.target} needs a noun to count", extra.target)
        word = "most" if str(extra.order).startswith("highest") else "least"
        new = replace(counted, det="the", order=ir.Order(word, limit=False), var=_COUNTED)
    query = _demote_questions(_swap(query, counted, new), lambda np: np.var in (_KEY, _COUNTED))
    for marker in (_KEY, _COUNTED):
        marked = _find(query, lambda n: isinstance(n, ir.Quant) and n.var == marker)
        query = _swap(query, marked, replace(marked, var=None))
    return query


def _minus_year(query: ir.Query, extra: _Extra) -> ir.Query:
    """"X has a <P569> and give me 2023 - the year of the <P569>": the difference as the answer
    (the IR's Arith, as SQUALL's "give me 2023 - the year of the <P569> of X")."""
    token = extra.target
    prop = _prop_or_bare(token)
    vp = query.vp
    if not (isinstance(query.subject, ir.Ref) and isinstance(vp, ir.Stmt) and not vp.inverse
            and _same_prop(vp.prop, prop) and isinstance(vp.obj, ir.Quant) and vp.obj.noun is None
            and not vp.obj.rels):
        raise _Refused(f"'give me {extra.test.value} - the year of the {token}' is supported after "
                       f"'X has a {token}' alone", token)
    value = ir.Quant("the", ir.RelNoun(vp.prop, query.subject, vp.quals))
    year = ir.Quant("the", ir.YearOf(value))
    return ir.Query(ir.Arith("-", ir.Ref(extra.test), year), None, dialect="sparklis")


def _apply_extra(query: ir.Query, extra: _Extra) -> ir.Query:
    token = extra.target
    if extra.kind == "group_count":
        return _group_count(query, extra)
    if extra.kind == "minus_year":
        return _minus_year(query, extra)
    if extra.kind == "count":
        target = _mentioned(query, token, "the number of")
        if target.det not in ("a", "which", "the"):
            raise _Refused(f"cannot count {token} here", token)
        # the count is the answer: the other nouns are no longer columns to group by (the
        # data's gold counts alone: "Tom Cruise is the <P161> of a film that is <P1411> an
        # Academy Awards ... and give me the number of film")
        counted = replace(target, det="how_many")
        return _demote_questions(_swap(query, target, counted), lambda np: np is counted)
    prop = _prop(token)
    target = value_of(query, prop)
    if target is None:
        raise _Refused(f"'the {token}' refers to no 'has a {token}' before it", token)
    if extra.kind == "where_value":
        rel = extra.test
    elif extra.kind == "where_year":
        rel = ir.YearIs(extra.test)
    else:
        shown = ir.Be(ir.Quant("which", order=extra.order))
        rel = ir.YearIs(shown if extra.test is None else ir.And((shown, extra.test)))
    return _swap(query, target, replace(target, rels=target.rels + (rel,)))


# ------------------------------------------------------------------------------ parser


@lru_cache(maxsize=1)
def _parser() -> Lark:
    grammar = resources.files("cnl.dialects.sparklis").joinpath("sparklis.lark").read_text("utf-8")
    return cached_lark("sparklis", grammar, parser="lalr", lexer=SparklisLexer, transformer=_ToIR(),
                       maybe_placeholders=False)


_TOKEN_NAMES = {
    "LABEL": "a label", "PROP": "a property (<P123:label>)", "QID": "an item (<Q123>)", "NUMBER": "a number",
    "DATE": "a date", "STRING": "a string", "OP": "a comparison (=, <, >, higher or equal to...)",
    "GIVE_ME": '"give me"', "AND_GIVE_ME": '"and give me"', "AND_THAT": '"and that"',
    "AND_WHERE": '"and where"', "AND_OF": '"and of"', "COORD_AND": '"and"', "COORD_OR": '"or"', "NUMBER_OF": '"the number of"', "YEAR_OF": '"the year of"',
    "INSTANCE_OF": '"is the instance of"', "ORDER": '"highest-to-lowest"/"lowest-to-highest"',
    "A": '"a"', "$END": "the end", "OR_OF": '"or of"', "BETWEEN": '"between"',
    "AND_FOR_EACH": '"and for each"', "ORDER_NUMBER_OF": '"highest-to-lowest number of"',
    "MINUS_YEAR_OF": '"- the year of"', "MATCHES": '"matches"', "STRING_OF": '"the string of"',
}


def _expected(names) -> list[str]:
    return sorted({_TOKEN_NAMES.get(n, f'"{n.lower()}"') for n in names})


def _hint(text: str, token) -> str | None:
    value = str(token) if token is not None else ""
    if token is not None and getattr(token, "type", "") == "LABEL" and re.search(r"\b(has as a|that has as an?)\s*$",
                                                                                 text[: token.start_pos]):
        return ("a property must be written <P123:label>; a bare property label (e.g. 'mother', "
                "'part(s)') cannot be told apart from the value after it")
    if value.startswith("<") and "<" in value[1:]:
        return "this property term looks corrupted"
    return None


def parse_sparklis(text: str, notation: str | None = None, properties=None, entities=None) -> ir.Query:
    """Parse a Sparklis verbalization into the IR. ``notation`` (``ecai``, ``id``, ``label``)
    only changes how ``<...>`` terms read: in ``label`` underscores are kept. ``properties``:
    a KG's property lexicon (a dict label -> PID, or just labels) to read a property shown by
    its bare label before its value ("has as a genre romance film"); without it such a string
    is refused. ``entities``: known entity labels, to read "X and Y" as two values where the
    whole is not a known label but X and Y are."""
    if notation is not None and notation not in NOTATIONS:
        raise CNLSyntaxError(f"unknown notation {notation!r}; choose one of {', '.join(NOTATIONS)}")
    if not text or not text.strip():
        raise CNLSyntaxError("empty Sparklis query", text=text or "")
    check_text(text, "Sparklis")
    reset = _notation.set(notation or "ecai")
    lexicon = ({k.lower(): v for k, v in properties.items()} if isinstance(properties, dict)
               else {k.lower(): None for k in properties or ()})
    reset_props = _properties.set(lexicon)
    reset_entities = _entities.set(frozenset(str(e).lower() for e in entities or ()))
    try:
        return check_depth(_parser().parse(text.strip().rstrip(".?").rstrip()), "Sparklis")
    except CNLSyntaxError:
        raise
    except RecursionError:
        raise too_deep("Sparklis") from None
    except _Refused as inner:
        pos = inner.token.start_pos if inner.token is not None else 0
        raise _syntax_error(text, pos, inner.reason, str(inner.token) if inner.token else None) from None
    except VisitError as err:
        inner = err.orig_exc
        if isinstance(inner, _Refused):
            pos = inner.token.start_pos if inner.token is not None else 0
            raise _syntax_error(text, pos, inner.reason, str(inner.token) if inner.token else None) from None
        if isinstance(inner, CNLSyntaxError):
            raise inner from None
        raise
    except UnexpectedToken as err:
        token = err.token
        if token.type == "$END":
            raise _syntax_error(text, len(text.rstrip()), "unexpected end of the query",
                                expected=_expected(err.expected)) from None
        raise _syntax_error(text, token.start_pos, "unexpected token", str(token),
                            expected=_expected(err.expected), hint=_hint(text, token)) from None
    except UnexpectedEOF as err:
        raise _syntax_error(text, len(text), "unexpected end of the query", expected=_expected(err.expected)) from None
    except (UnexpectedCharacters, UnexpectedInput) as err:
        raise _syntax_error(text, getattr(err, "pos_in_stream", 0) or 0, "unexpected input") from None
    finally:
        _notation.reset(reset)
        _properties.reset(reset_props)
        _entities.reset(reset_entities)
