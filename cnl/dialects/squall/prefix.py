"""What may come next in a SQUALL text: the grammar's prefix checker.

:class:`SquallPrefixChecker` answers "can this text still be completed into a query the
grammar accepts?" and "which terminals may come next here?". The text's tokens are lexed with
the SQUALL lexer; all but the last few (which may still change: ``and`` becomes ``and that`` or
an ``and`` before a verb, ``[Brad Pi`` is not a token yet) are fed to Lark's interactive LALR
parser, and the rest is matched against the terminals the parser accepts, with partial regex
matching for a token still being written. Parser states are cached by the token prefix,
answers by text.

One source of truth for everything that asks what the grammar allows next: constrained
decoding (:mod:`cnl.learn.constrained`) and completion as a person types
(:mod:`cnl.dialects.squall.completion`).
"""
from __future__ import annotations

from functools import lru_cache

import regex
from lark import Token
from lark.exceptions import LarkError

from cnl.errors import CNLError
from cnl.dialects.squall import parser as squall_parser

_UNCERTAIN_TOKENS = 4  # trailing tokens that later text may still re-lex ("greater or equal to" is one)


@lru_cache(maxsize=1)
def _terminal_patterns() -> dict:
    """Terminal name -> compiled pattern of the text it matches (partial matching allowed)."""
    lark = squall_parser.lark_parser()
    out = {}
    for term in lark.terminals:
        pattern = term.pattern
        if pattern.type == "str":
            text = regex.escape(pattern.value)
            flags = "(?i)" if "i" in pattern.flags else ""
            # a keyword must not run on into a longer word
            tail = r"(?![A-Za-z0-9'.])" if pattern.value.isalpha() else ""
            out[term.name] = regex.compile(f"{flags}(?:{text}){tail}")
        else:
            out[term.name] = regex.compile(pattern.to_regexp())
    # Terms as a model should write them: no brackets, "?" or escapes inside, bounded length.
    # The lexer is more lenient (an unclosed "<part of [X]? ..." would stay a viable term
    # forever); these stricter forms keep every term closable.
    angle = r"<[^<>\[\]?\\\n]{1,80}>"
    bracket = r"\[[^\[\]<>?\\\n]{1,100}\]"
    out["ANGLE"] = regex.compile(angle)
    out["BRACKET"] = regex.compile(bracket)
    out["ENT"] = regex.compile(f"{bracket}|<Q[0-9]+(?::[^<>\\[\\]?\\\\\\n]{{1,80}})?>")
    # The lexer merges a property path (<A>+, <A>/<B>, <A> or <B>, ^<A>, (<A>/<B>)*) into one
    # PROP token (squall parser: _merge_paths), so a property term here is a whole path.
    modifier = r"(?:[+*]|\{0,1\})?"
    step = rf"\^?(?:{angle}|\(\s*(?&path)\s*\)){modifier}"
    sequence = rf"{step}(?:/{step})*"
    alternatives = rf"(?:\s+or\s+{sequence})*"
    out["PROP"] = regex.compile(rf"(?P<path>{sequence}{alternatives})")
    verb_step = rf"(?i:is|are|was|were|has|have)-{angle}{modifier}"
    out["VERB_PROP"] = regex.compile(
        rf"{verb_step}(?:/{step})*(?:\s+or\s+{sequence})*(?(DEFINE)(?P<path>{sequence}{alternatives}))")
    # "has" that the lexer retypes by what follows its property (a bare "has <P>", see the
    # SQUALL lexer): while that is still being written, any "has" may be it
    out["HAS_BARE"] = regex.compile(r"(?i:has|have|had)(?![A-Za-z0-9'.])")
    out["ASK_HAS_BARE"] = regex.compile(r"(?i:has)(?![A-Za-z0-9'.])")
    # "and not" / "but not" before one value that ends the verb phrase (the lexer's AND_NOT_VALUE)
    out["AND_NOT_VALUE"] = out["AND_NOT"]
    return out


@lru_cache(maxsize=1)
def _squall_lexer():
    """The SquallLexer instance inside the cached Lark parser (its wrappers stripped)."""
    lexer = squall_parser.lark_parser().parser.lexer
    while not isinstance(lexer, squall_parser.SquallLexer):
        lexer = lexer.lexer
    return lexer


@lru_cache(maxsize=1)
def _fillers() -> dict:
    """Terminal name -> the fixed text a forced completion may add for it."""
    lark = squall_parser.lark_parser()
    out = {t.name: t.pattern.value.lower() for t in lark.terminals
           if t.pattern.type == "str" and t.name in _FILL_WITH}
    out["_END"] = "?"
    return out


# Closing words first; then the few that turn a dangling phrase into a sentence.
_FIRST_FILLERS = ("_RPAR", "_END", "SOMETHING")
_FILL_WITH = frozenset(_FIRST_FILLERS + ("THING", "IS", "ARE", "HAS", "A", "OF", "THAN", "TO"))


def _filler_priority(name: str) -> tuple:
    return (_FIRST_FILLERS.index(name) if name in _FIRST_FILLERS else len(_FIRST_FILLERS), name)


def _join(base: str, added: tuple) -> str:
    text = base
    for piece in added:
        text += piece if piece in (")", "?") else " " + piece
    return text


class KnownLabels:
    """A set of labels that also answers "is this the start of one of them?" (a sorted list and
    bisection: a trie's answers at a fraction of its memory).

    Matching ignores underscores and runs of blanks, and case only as far as a writer varies it:
    a label may be written as given, in lower case, or with its first letter capitalised
    ("place of birth", "Place of birth", "IMDb ID"), not in any casing ("plACe Of BIRTH").
    Otherwise a model that strays inside ``<...>`` spells a label letter by letter in whatever
    case its next token happens to have."""

    def __init__(self, labels):
        forms = set()
        for label in labels:
            written = _spaced(label)
            if written:
                lower = written.lower()
                forms.update((written, lower, lower[:1].upper() + lower[1:]))
        self._sorted = sorted(forms)
        self._set = frozenset(self._sorted)

    def __len__(self) -> int:
        return len(self._sorted)

    def __contains__(self, label: str) -> bool:
        return not _RUN_OF_SEPARATORS.search(label) and _spaced(label) in self._set

    def has_prefix(self, partial: str) -> bool:
        from bisect import bisect_left

        if _RUN_OF_SEPARATORS.search(partial):
            return False  # normalizing would make "tax____" a prefix forever: a model loops on it
        key = _spaced(partial)
        if partial[-1:].isspace() or partial.endswith("_"):
            key += " "  # "<place " may go on as "<place of birth>", not as "<placebo>"
        i = bisect_left(self._sorted, key)
        return i < len(self._sorted) and self._sorted[i].startswith(key)


def _spaced(label: str) -> str:
    """``label`` with underscores as spaces and single spaces, case kept."""
    return " ".join(label.replace("_", " ").split())


_RUN_OF_SEPARATORS = regex.compile(r"[\s_]{2,}")
# A property term of the label notation, closed or still being written at the end of the text.
_ANGLE_TERM = regex.compile(r"<([^<>\[\]\n]*)(>|$)")
_ID_TERM = regex.compile(r"[PQ][0-9]*(?::.*)?")


class SquallPrefixChecker:
    def __init__(self, notation: str = "label", max_cache: int = 200_000, properties=None):
        """``properties``: the property labels a label-notation output may write inside
        ``<...>`` (an iterable or :class:`KnownLabels`); None allows any."""
        self.notation = notation
        if properties is not None and not isinstance(properties, KnownLabels):
            properties = KnownLabels(properties)
        self.properties = properties if notation == "label" else None
        self._states: dict = {}
        self._accepts: dict = {}
        self._viable: dict = {}
        self._complete: dict = {}
        self.max_cache = max_cache

    def with_properties(self, properties) -> "SquallPrefixChecker":
        """A checker allowing only ``properties`` inside ``<...>`` that shares this one's parser
        states (they do not depend on the property labels) but not its answers."""
        other = SquallPrefixChecker(self.notation, self.max_cache, properties)
        other._states, other._accepts = self._states, self._accepts
        return other

    # -- public ------------------------------------------------------------------------
    def is_viable(self, text: str) -> bool:
        """True when ``text`` is a prefix of some text the grammar accepts."""
        hit = self._viable.get(text)
        if hit is None:
            if len(self._viable) > self.max_cache:
                self._viable.clear()
            hit = self._viable[text] = self._check(text)
        return hit

    def is_complete(self, text: str) -> bool:
        """True when ``text`` parses as a whole query (and writes only known properties)."""
        hit = self._complete.get(text)
        if hit is None:
            if not self._properties_ok(text, partial=False):
                self._complete[text] = False
                return False
            try:
                squall_parser.parse_squall(text, notation=self.notation)
                hit = True
            except CNLError:
                hit = False
            except Exception:  # noqa: BLE001 - a transformer callback failing is "no parse"
                hit = False
            self._complete[text] = hit
        return hit

    def force_complete(self, text: str, max_depth: int = 4, max_nodes: int = 60) -> str | None:
        """The shortest parsing completion of ``text`` (or of a prefix of it, cut at a token
        boundary) that adds only fixed words and punctuation: closing brackets, "?", and
        "something" where a noun phrase is missing — never an invented entity or property.
        For outputs that generation left unfinished (cut off at the token limit)."""
        from collections import deque

        lexed, _stop, _ok = self._lex(text)
        fillers = _fillers()
        for n in range(len(lexed), 0, -1):
            toks = lexed[:n]
            if any(t.type == "WORD" for t in toks):
                continue
            state = self._state(tuple((t.type, t.value) for t in toks))
            if state is None:
                continue
            base = text[:toks[-1].end_pos].rstrip()
            queue, nodes = deque([(state, ())]), 0
            while queue and nodes < max_nodes:
                current, added = queue.popleft()
                nodes += 1
                try:
                    accepted = current.accepts()
                except Exception:  # noqa: BLE001
                    continue
                if "$END" in accepted:
                    candidate = _join(base, added)
                    for final in (candidate + "?", candidate):
                        if self.is_complete(final):
                            return final
                if len(added) >= max_depth:
                    continue
                for name in sorted(accepted & fillers.keys(), key=_filler_priority):
                    nxt = current.copy()
                    if self._feed(nxt, name, fillers[name]):
                        queue.append((nxt, added + (fillers[name],)))
        return None

    def lex(self, text: str):
        """(tokens, offset where lexing stopped, whether the whole text lexed): the lexer's
        tokens up to the first character it cannot read (an unclosed ``[Incep``)."""
        return self._lex(text)

    def accepted_after(self, tokens) -> frozenset | None:
        """The terminal names the LALR parser accepts after ``tokens`` (lexer tokens, or
        (type, value) pairs); None when the tokens themselves do not parse."""
        key = tuple((t.type, t.value) if isinstance(t, Token) else tuple(t) for t in tokens)
        state = self._state(key)
        return None if state is None else self._accepted(key, state)

    # -- internals ---------------------------------------------------------------------
    def _lex(self, text: str):
        """Tokens the lexer finds, and the offset where lexing stopped (len(text) if none)."""
        lexer = _squall_lexer()
        tokens = []
        with squall_parser.reading_notation(self.notation), squall_parser.reading_prefix():
            try:
                for t in lexer.lex(text):
                    tokens.append(t)
            except LarkError:
                return tokens, (tokens[-1].end_pos if tokens else 0), False
        return tokens, len(text), True

    def _state(self, tokens: tuple):
        """Interactive parser after feeding ``tokens`` ((type, value) pairs), or None."""
        if tokens in self._states:
            return self._states[tokens]
        if not tokens:
            state = squall_parser.lark_parser().parse_interactive("")
        else:
            parent = self._state(tokens[:-1])
            if parent is None:
                state = None
            else:
                state = parent.copy()
                kind, value = tokens[-1]
                if not self._feed(state, kind, value):
                    state = None
        if len(self._states) > self.max_cache:
            self._states.clear()
            self._accepts.clear()
        self._states[tokens] = state
        return state

    def _feed(self, state, kind: str, value: str) -> bool:
        with squall_parser.reading_notation(self.notation):
            try:
                # a position, as the lexer gives: callbacks that read a token (a property path)
                # report errors at it
                state.feed_token(Token(kind, value, start_pos=0, line=1, column=1))
                return True
            except Exception:  # noqa: BLE001 - unexpected token or a semantic check in a callback
                return False

    def _accepted(self, tokens: tuple, state) -> frozenset:
        hit = self._accepts.get(tokens)
        if hit is None:
            with squall_parser.reading_notation(self.notation):
                try:
                    hit = frozenset(state.accepts())
                except Exception:  # noqa: BLE001
                    hit = frozenset()
            self._accepts[tokens] = hit
        return hit

    def _properties_ok(self, text: str, partial: bool = True) -> bool:
        """Every ``<...>`` term is a known property label (or an ID); with ``partial`` the last
        one may still be the start of one."""
        if self.properties is None:
            return True
        for m in _ANGLE_TERM.finditer(text):
            inner, closed = m.group(1), m.group(2) == ">"
            if _ID_TERM.fullmatch(inner.strip()) or not inner.strip():
                continue
            if closed:
                if inner not in self.properties:
                    return False
            elif not (partial and self.properties.has_prefix(inner)):
                return False
        return True

    def _check(self, text: str) -> bool:
        if "\n" in text:
            return False
        if not self._properties_ok(text):
            return False
        lexed, _stop, _ok = self._lex(text)
        certain = lexed[:-_UNCERTAIN_TOKENS] if len(lexed) > _UNCERTAIN_TOKENS else []
        if any(t.type == "WORD" for t in certain):
            return False  # the grammar takes bare words only to reject them with a hint
        key = tuple((t.type, t.value) for t in certain)
        state = self._state(key)
        if state is None:
            return False
        start = certain[-1].end_pos if certain else 0
        return self._viable_rest(key, state, text, start, depth=0)

    def _viable_rest(self, key: tuple, state, text: str, pos: int, depth: int) -> bool:
        """Can ``text[pos:]`` go on from parser ``state``? Patterns match inside the whole
        text, so a look-behind (a "?x" variable needs a space before it) sees its context."""
        while pos < len(text) and text[pos] in " \t":
            pos += 1
        if pos == len(text):
            return True
        if depth > 6:
            return True  # deep enough: let the full parse at the end decide
        patterns = _terminal_patterns()
        for name in self._accepted(key, state):
            if name in ("$END", "WORD"):
                continue  # WORD: bare words parse only into an error (keywords have their own terminals)
            pattern = patterns.get(name)
            if pattern is None:
                continue
            if pattern.fullmatch(text, pos, partial=True) is not None:
                return True  # the rest is (the start of) one token: "<A> or <B" is a path being written
            m = pattern.match(text, pos, partial=True)
            if m is None:
                continue
            if m.partial:
                if m.end() == len(text):
                    return True
                continue
            value = m.group()
            if not value:
                continue
            if m.end() == len(text):
                return True  # a whole token, which may yet grow or be followed by more
            kind = self._retype(name, value)
            new_key = key + ((kind, value),)
            new_state = self._state(new_key)
            if new_state is not None and self._viable_rest(new_key, new_state, text, m.end(), depth + 1):
                return True
        return False

    @staticmethod
    def _retype(name: str, value: str) -> str:
        if name in ("ENT", "PROP"):
            return name
        return name


__all__ = ["KnownLabels", "SquallPrefixChecker"]
