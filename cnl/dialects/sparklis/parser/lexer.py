"""Lexing: :func:`tokenize` turns a Sparklis string into word-level tokens (keywords and keyword
phrases merged, a label's words grouped into one LABEL token), then splits the labels the
lexicons show to be two things run together (a bare property label and its value, "X and Y",
a qualifier's value and the statement's). :class:`SparklisLexer` hands those tokens to Lark.

Separate because a bare label has no brackets: where one ends is the hard part of reading
Sparklis, decided here before the grammar sees the string."""
from __future__ import annotations

import re

from lark import Token
from lark.lexer import Lexer

from cnl.dialects.notation import ID_RE, unescape
from cnl.dialects.sparklis.parser.reading import current_entities, current_properties
from cnl.dialects.sparklis.parser.syntax_errors import line_column, syntax_error

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
            raise syntax_error(text, pos, "unexpected character", text[pos])
        kind, value = match.lastgroup, match.group()
        if kind == "BAD_ANGLE":
            raise syntax_error(
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
    out = _split_bare_properties(out, current_properties.get(), current_entities.get())
    out = _split_coordinated_labels(out, current_entities.get())
    out = _split_qualifier_value(out, current_entities.get())
    for token in out:
        line, column = line_column(text, token.start_pos)
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
