"""Lexing: :class:`SquallLexer` (one regex built from the grammar's terminals, dispatched on the
next two characters) and the merging of a property path's tokens into one PROP token.

Separate from the grammar's rules because it is where a parse spends most of its time, and where
the notation decides what a ``<...>`` term is (a property or an entity)."""
from __future__ import annotations

import re

from lark import Token
from lark.exceptions import UnexpectedCharacters
from lark.lexer import Lexer

from cnl.dialects.notation import ID_RE
from cnl.dialects.squall.parser.reading import current_notation
from cnl.dialects.squall.parser.writer_tokens import writer_form_tokens


class SquallLexer(Lexer):
    """One-regex lexer built from the grammar's own terminal definitions.

    Lark's generic lexer spends most of a parse here; one combined regex (ordered by terminal
    priority, then length, as Lark orders them) plus a keyword table does the same work in a
    single ``match`` per token. It also retypes terms: ``<P..>`` is a PROP, ``<Q..>`` and
    ``[...]`` an ENT, and a bare ``<label>`` a PROP in the label notation and an ENT in the
    ECAI notation (see ``squall.lark``).
    """

    def __init__(self, lexer_conf):
        keywords: dict[str, str] = {}
        patterns = []
        for term in lexer_conf.terminals:
            pattern = term.pattern
            if term.name in lexer_conf.ignore:
                continue
            if pattern.type == "str" and pattern.value.isalpha():
                keywords[pattern.value.lower()] = term.name
                continue
            patterns.append(term)
        patterns.sort(key=lambda t: (-t.priority, -t.pattern.max_width, t.name))
        self.keywords = keywords
        alternatives = [(t.name, t.pattern.to_regexp()) for t in patterns]
        # leading blanks are part of the match: one regex call per token
        self.master = _alternation(alternatives)
        self.by_first_char = _first_char_dispatch(alternatives)
        self.by_two_chars = _TwoCharDispatch(alternatives, self.by_first_char, self.master)
        self.space = re.compile(r"\s*")

    def lex(self, text):
        tokens = self._lex(text)
        if text[:3].lower() == "for" and _FOR_EVERY.match(text):
            tokens = _for_every_tokens(list(tokens))
        if "(" in text and _STRING_CALL.search(text):
            tokens = _call_commas(list(tokens))
        if "defined" in text and _IF_DEFINED.search(text):
            tokens = _if_defined_tokens(list(tokens))
        if ">-" in text and _PARTICIPLE.search(text):
            tokens = _participle_tokens(list(tokens))
        if _MAY_HAVE_PATH.search(text) is not None:
            tokens = _merge_paths(list(tokens), text)
        return writer_form_tokens(tokens, text)

    def _lex(self, text):
        label_notation = current_notation.get() == "label"
        keywords, space, by_two_chars = self.keywords, self.space, self.by_two_chars
        new_str = str.__new__  # a Token built as Token._future_new builds it, without its two calls
        multiline = "\n" in text
        pos, end, line, line_start = 0, len(text), 1, 0
        while True:
            while pos < end and text[pos] in " \t\r\n":
                pos += 1
            match = by_two_chars[text[pos:pos + 2]].match(text, pos) if pos < end else None
            if match is None:
                pos = space.match(text, pos).end()
                if pos >= end:
                    return
                line = text.count("\n", 0, pos) + 1
                column = pos - (text.rfind("\n", 0, pos) + 1) + 1
                raise UnexpectedCharacters(text, pos, line, column, allowed=None)
            kind = match.lastgroup
            pos, new_end = match.span(kind)  # the group ends the match: lookaheads take no text
            value = text[pos:new_end]
            if kind == "WORD":
                kind = keywords.get(value.lower(), "WORD")
                if (kind == "WORD" and value[-1] in "tT" and value[-3:].lower() == "n't"
                        and keywords.get(value[:-3].lower()) in _AUXILIARIES):
                    # "doesn't", "isn't", "hasn't": the auxiliary, then "not" (its own token,
                    # so that every rule written with "does not" reads the contraction too)
                    split = new_end - 3
                    yield Token._future_new(keywords[value[:-3].lower()], value[:-3], pos, line, pos - line_start + 1,
                                            line, split - line_start + 1, split)
                    kind, value, pos = "NOT", value[-3:], split
                elif kind == "WORD" and value[-2:].lower() == "'s" and keywords.get(value[:-2].lower()) in _WH_IS:
                    # "What's", "Who's": the question word, then "is"
                    split = new_end - 2
                    yield Token._future_new(keywords[value[:-2].lower()], value[:-2], pos, line, pos - line_start + 1,
                                            line, split - line_start + 1, split)
                    kind, value, pos = "IS", value[-2:], split
            elif kind == "ANGLE":
                # raw: <\P1> is a label; an ID starts with Q, P or ^ (most labels are no ID: no regex)
                ident = ID_RE.match(value[1:-1]) if value[1] in "QP^" else None
                if ident:
                    kind = "ENT" if ident.group(1) == "Q" else "PROP"
                else:
                    kind = "PROP" if label_notation else "ENT"
            elif kind == "BRACKET" or kind == "QUOTED":
                kind = "ENT"
            if multiline and text.find("\n", line_start, pos) >= 0:
                line = text.count("\n", 0, pos) + 1
                line_start = text.rfind("\n", 0, pos) + 1
            token = new_str(Token, value)
            token.type, token.start_pos, token.value, token.end_pos = kind, pos, value, new_end
            token.line = token.end_line = line
            token.column, token.end_column = pos - line_start + 1, new_end - line_start + 1
            yield token
            pos = new_end


# ------------------------------------------------------------------------------ "For every <C> X, ..."
_FOR_EVERY = re.compile(r"for\s+(?:every|each|all)\b", re.I)
# the words a question or a command after the prefix begins with
_QUESTION_STARTS = frozenset({"WHAT", "WHICH", "WHO", "WHOM", "HOW", "GIVE"})


def _for_every_tokens(tokens: list) -> list:
    """The tokens of a text that begins with "For every/each/all" (squall_ferre_forms.lark): the
    first comma before a question word ends the prefix (_FOR_COMMA; ", which" and ", who" are
    one AND_THAT token, split here), and "it" is the pronoun that names the thing (IT)."""
    out, split = [], False
    for i, tok in enumerate(tokens):
        if not split and tok.value.startswith(","):
            following = tokens[i + 1].type if i + 1 < len(tokens) else None
            if tok.type == "_COMMA" and following in _QUESTION_STARTS:
                tok, split = tok.update("_FOR_COMMA"), True
            elif tok.type == "AND_THAT" and tok.value.split()[-1].lower() in ("which", "who"):
                word = tok.value.split()[-1]
                at = tok.start_pos + len(tok.value) - len(word)
                out.append(Token("_FOR_COMMA", ",", tok.start_pos, tok.line, tok.column, tok.line,
                                 tok.column + 1, tok.start_pos + 1))
                tok, split = Token(word.upper(), word, at, tok.line, tok.column + at - tok.start_pos, tok.line,
                                   tok.end_column, tok.end_pos), True
        elif tok.type == "WORD" and tok.value.lower() == "it":
            tok = tok.update("IT")
        out.append(tok)
    return out


# ------------------------------------------------------------------------------ "concat(A, B)"
_STRING_CALL = re.compile(r"(?:concat|substr)\s*\(", re.I)


def _call_commas(tokens: list) -> list:
    """The commas between a function call's arguments (``concat(A, B)``) as _ARG_COMMA, so that a
    list of values inside an argument ("the <P> of A, B and C") does not take them."""
    out, calls = [], []  # calls: for each open parenthesis, whether it is a call's
    for tok in tokens:
        if tok.type == "STRING_CALL":
            calls.append(True)
        elif tok.type == "_LPAR":
            calls.append(False)
        elif tok.type == "_RPAR" and calls:
            calls.pop()
        elif tok.type == "_COMMA" and calls and calls[-1]:
            tok = tok.update("_ARG_COMMA")
        out.append(tok)
    return out


# ------------------------------------------------------------------------------ "and if defined, what is the"
_IF_DEFINED = re.compile(r"\band\s+if\s+defined\b", re.I)
_IF_DEFINED_WORDS = (("AND",), ("IF",), ("WORD",), ("_COMMA", None), ("WHAT",), ("IS", "ARE", "WAS", "WERE"), ("THE",))


def _if_defined_tokens(tokens: list) -> list:
    """"and if defined, what is the" (Ferré's optional answer) as one AND_MAYBE_THE token, the
    token "and maybe the" is (squall_ferre_forms.lark)."""
    out, i = [], 0
    while i < len(tokens):
        j = i
        for kinds in _IF_DEFINED_WORDS:
            if j < len(tokens) and tokens[j].type in kinds and (kinds != ("WORD",) or tokens[j].value.lower() == "defined"):
                j += 1
            elif None not in kinds:
                break
        else:
            first, last = tokens[i], tokens[j - 1]
            out.append(Token("AND_MAYBE_THE", " ".join(t.value for t in tokens[i:j]), first.start_pos, first.line,
                             first.column, last.end_line, last.end_column, last.end_pos))
            i = j
            continue
        out.append(tokens[i])
        i += 1
    return out


# ------------------------------------------------------------------------------ "<P57>-ed by", "<P3342>-ing"
_PARTICIPLE = re.compile(r">-(?:ed|ing)\b", re.I)


def _participle_tokens(tokens: list) -> list:
    """A ``<...>`` term with "-ed by" or "-ing" glued to it as one PASSIVE_PROP / ACTIVE_PROP token
    (squall_ferre_forms.lark): written so, the term is a property in every notation."""
    out, i = [], 0
    while i < len(tokens):
        tok = tokens[i]
        nxt = tokens[i + 1:i + 4]
        if (tok.type in ("PROP", "ENT") and tok.value[:1] == "<" and len(nxt) >= 2 and nxt[0].type == "_MINUS"
                and nxt[0].start_pos == tok.end_pos and nxt[1].type == "WORD" and nxt[1].start_pos == nxt[0].end_pos):
            suffix = nxt[1].value.lower()
            if suffix == "ing" or (suffix == "ed" and len(nxt) == 3 and nxt[2].type == "BY"):
                last = nxt[2] if suffix == "ed" else nxt[1]
                kind = "PASSIVE_PROP" if suffix == "ed" else "ACTIVE_PROP"
                value = tok.value + "-" + suffix + (" by" if suffix == "ed" else "")
                out.append(Token(kind, value, tok.start_pos, tok.line, tok.column, last.end_line, last.end_column,
                                 last.end_pos))
                i += 4 if suffix == "ed" else 3
                continue
        out.append(tok)
        i += 1
    return out


# the auxiliaries a contracted "not" follows ("doesn't", "didn't", "isn't", "hasn't", ...)
_AUXILIARIES = frozenset({"DOES", "DO", "DID", "IS", "ARE", "WAS", "WERE", "HAS", "HAVE", "HAD"})
# the question words a contracted "is" follows ("What's", "Who's")
_WH_IS = frozenset({"WHAT", "WHO"})


def _alternation(alternatives) -> re.Pattern:
    """One regex trying ``alternatives`` ((name, pattern) pairs) in order after any blanks."""
    return re.compile(r"\s*(?:" + "|".join(f"(?P<{name}>{pattern})" for name, pattern in alternatives) + ")")


def _first_char_dispatch(alternatives) -> dict:
    """Printable ASCII character -> the alternation of only those ``alternatives`` a token may
    start with there, in the same order (a word need not try the thirty multi-word terminals
    listed before WORD). Other characters use the whole alternation.

    What a look-behind tests lies before the token, so a pattern with one is tested without it
    (a look-behind only narrows what a pattern matches) after each kind of character that may
    come before (none, a blank, a word character); one whose look-behinds cannot all be taken
    out that way is kept everywhere."""
    import regex  # partial matching tells whether a pattern can start with a character

    tests = [(name, _start_test(pattern, regex)) for name, pattern in alternatives]
    table, shared = {}, {}
    for code in range(33, 127):
        char = chr(code)
        names = tuple(name for name, may_start in tests if may_start(char))
        if names not in shared:
            kept = set(names)
            shared[names] = _alternation([(n, p) for n, p in alternatives if n in kept]) if names else _NO_TOKEN
        table[char] = shared[names]
    return table


_NO_TOKEN = re.compile(r"(?!)")  # no token starts with this character


class _TwoCharDispatch(dict):
    """The text's next two characters -> the alternation of only those alternatives a token may
    start with there (a word starting "ha" need not try the terminals that start "hi" or "mo"),
    found as :func:`_first_char_dispatch` finds them, one pair at a time as pairs are met. A
    pair of other than two ASCII characters (the text's last one, a letter with an accent) uses
    the first character's alternation."""

    def __init__(self, alternatives, by_first_char: dict, master: re.Pattern):
        super().__init__()
        import regex

        self.alternatives, self.by_first_char, self.master = alternatives, by_first_char, master
        self.tests = [(name, _start_test(pattern, regex)) for name, pattern in alternatives]
        self.shared: dict = {}

    def __missing__(self, pair: str) -> re.Pattern:
        first = self.by_first_char.get(pair[0], self.master)
        if len(pair) < 2 or not pair.isascii() or first is _NO_TOKEN:
            if pair.isascii():
                self[pair] = first
            return first
        names = tuple(name for name, may_start in self.tests if may_start(pair))
        if names not in self.shared:
            kept = set(names)
            self.shared[names] = (_alternation([(n, p) for n, p in self.alternatives if n in kept]) if names
                                  else _NO_TOKEN)
        self[pair] = self.shared[names]
        return self[pair]


# a look-behind holding no group: "(?<=[>)])", "(?<![^\s(])"
_LOOKBEHIND = re.compile(r"\(\?<[=!](?:\[(?:\\.|[^\]\\])*\]|\\.|[^()\[\\])*\)")


def _start_test(pattern: str, regex):
    """characters -> whether a match of ``pattern`` may start with them. A pattern's look-behinds
    are taken out (what is left matches wherever the pattern does) and it is tried after each
    kind of character that may come before (none, a blank, a word character); a look-behind that
    cannot be taken out so (one holding a group, or one in a negative look-ahead, where taking it
    out would narrow the pattern) keeps the pattern for every character."""
    if "(?<" not in pattern:
        rx = regex.compile(pattern)
        return lambda char: rx.match(char, partial=True) is not None
    freed = _LOOKBEHIND.sub("", pattern)
    if "(?<" in freed or "(?!" in pattern:
        return lambda char: True
    rx = regex.compile(freed)
    return lambda char: any(rx.match(before + char, pos=len(before), partial=True) is not None
                            for before in ("", " ", "a"))


# ------------------------------------------------------------------------------ property paths
# A text that may hold a path: an operator glued to a term or a parenthesis, or two properties
# joined by "or" (checked before any path work, so that other texts lex at full speed).
_MAY_HAVE_PATH = re.compile(r"[>)](?:[+*/]|\{0,1\})|\^[<(]|>\s+or\s+[<(^]", re.I)
_PATH_MODS = ("+", "*", "{0,1}")


def _merge_paths(tokens: list, text: str) -> list:
    """Each property path (``<P131>+``, ``<P22> or <P25>``, ``(<P1>/<P2>)*``, ``^<P131>``) as
    one PROP token (VERB_PROP when it starts with ``is-<P>``) whose value is the path's text;
    :func:`read_property` reads the path. "or" between two properties can only be an alternative of
    properties (no rule puts a property right after "or"), so nothing else is merged."""
    out, i, n = [], 0, len(tokens)
    while i < n:
        tok = tokens[i]
        end = _path_end(tokens, i, True) if tok.type in ("PROP", "VERB_PROP", "_LPAR", "PATH_OP") else None
        if end is not None and end > i + 1:
            last = tokens[end - 1]
            out.append(Token("VERB_PROP" if tok.type == "VERB_PROP" else "PROP", text[tok.start_pos:last.end_pos],
                             tok.start_pos, tok.line, tok.column, last.end_line, last.end_column, last.end_pos))
            i = end
        else:
            out.append(tok)
            i += 1
    return out


def _path_end(tokens, i, first=False):
    """The index after the path alternative that starts at ``i``, or None."""
    j = _path_seq(tokens, i, first)
    while j is not None and j + 1 < len(tokens) and tokens[j].type == "OR" and _path_starts(tokens, j + 1):
        k = _path_seq(tokens, j + 1)
        if k is None:
            return None
        j = k
    return j


def _path_starts(tokens, i) -> bool:
    if i >= len(tokens):
        return False
    tok = tokens[i]
    if tok.type == "PROP" or (tok.type == "PATH_OP" and tok.value == "^"):
        return True
    return tok.type == "_LPAR" and i + 1 < len(tokens) and _path_starts(tokens, i + 1)


def _path_seq(tokens, i, first=False):
    j = _path_step(tokens, i, first)
    while j is not None and j < len(tokens) and tokens[j].type == "PATH_OP" and tokens[j].value == "/":
        j = _path_step(tokens, j + 1)
    return j


def _path_step(tokens, i, first=False):
    if i >= len(tokens):
        return None
    tok = tokens[i]
    if tok.type == "PATH_OP" and tok.value == "^":
        return _path_step(tokens, i + 1)
    if tok.type == "PROP" or (first and tok.type == "VERB_PROP"):
        j = i + 1
    elif tok.type == "_LPAR" and _path_starts(tokens, i + 1):
        j = _path_end(tokens, i + 1)
        if j is None or j >= len(tokens) or tokens[j].type != "_RPAR":
            return None
        j += 1
    else:
        return None
    if j < len(tokens) and tokens[j].type == "PATH_OP" and tokens[j].value in _PATH_MODS:
        j += 1
    return j


class KeepTermTokens:
    """Keeps ANGLE/BRACKET (and the path operators) in the lexer's terminal set: the grammar's
    rules only name ENT and PROP, which SquallLexer derives from them."""

    always_accept = ("ANGLE", "BRACKET", "QUOTED", "PATH_OP")

    def process(self, stream):
        return stream
