"""What may be written at a cursor in a SQUALL text: completion as a person types.

The grammar decides, generically: the text before the word or term under the cursor is lexed
and fed to the LALR parser (the same :class:`~cnl.dialects.squall.prefix.SquallPrefixChecker`
that constrains the learned parser's decoding), and the terminals the parser accepts there
say what may come. Fixed words come from the terminals themselves: a string terminal is its
word, a regex terminal whose language is finite and small (``(highest|lowest|…)``,
``at\\s+which``) is enumerated from the regex. Terms (``[entity]``, ``<property>``,
``is-<property>``) and open values (numbers, strings, dates) are named as *slots* for the
callers that know the knowledge graph (:mod:`cnl.linking.completion`) to fill. So a rule added to
the grammar (``squall.lark``) shows up in completion with no change here; a writer form
(``squall_writer_forms.lark``, ``squall_ferre_forms.lark``) is read but its words are not suggested (``_READ_ONLY_TERMINALS``).
"""
from __future__ import annotations

import re
import re._constants as sre  # the stdlib's regex parser: enumerating a terminal's finite language
import re._parser as sre_parse
from dataclasses import dataclass, field
from functools import lru_cache

from cnl.dialects.notation import split_angle, unescape
from cnl.dialects.squall import parser as squall_parser
from cnl.dialects.squall.prefix import SquallPrefixChecker

# Terminals that are terms, by the slot they open; and open values, by what a person writes.
TERM_TERMINALS = {"ENT": "entity", "PROP": "property", "VERB_PROP": "verb"}
VALUE_HINTS = {
    "INT": "a number", "DECIMAL": "a decimal number", "DATE": "a date (YYYY-MM-DD)",
    "STRING": 'a string in double quotes', "LANG_STRING": 'a string with a language tag ("…"@en)',
    "TYPED_STRING": 'a typed literal ("1961"^^xsd:gYear)',
    "VAR_NAME": "a variable (?x)",
}
_MAX_WORDS = 24  # a terminal whose language is larger than this is an open value, not a word list
_TERM_IN_TOKEN = re.compile(r"<((?:[^<>\\\n]|\\.)+)>|\[((?:[^\[\]\\\n]|\\.)+)\]")


@dataclass(frozen=True)
class Slot:
    """What may stand at the cursor: the range a completion replaces (``start``–``end``: the
    word or term under the cursor, empty between words), the text of it before the cursor
    (``typed``, the filter), the fixed words the grammar accepts there (``keywords``, those
    starting with ``typed``), the kinds of term it accepts (``terms``: entity, property, verb),
    hints for open values, and whether the text may end there."""

    start: int
    end: int
    typed: str
    keywords: tuple[str, ...] = ()
    terms: frozenset = frozenset()
    values: tuple[str, ...] = ()
    may_end: bool = False
    parses: bool = True         # False: the text before the slot is already wrong
    replaces: str | None = None  # the term under the cursor, when completion replaces one
    previous: tuple = ()        # the (type, value) of the tokens before the slot

    @property
    def term_typed(self) -> str | None:
        """``entity``/``property`` when ``typed`` opens a term (``[Incep``, ``<dir``), else None."""
        if self.typed.startswith("["):
            return "entity"
        if self.typed.startswith("<"):
            return "property"
        if re.match(r"(?i)(?:is|are|was|were|has|have)-<", self.typed):
            return "verb"
        return None

    @property
    def label_typed(self) -> str:
        """``typed`` without its opening bracket or verb prefix: the words a label starts with."""
        text = re.sub(r"(?i)^(?:(?:is|are|was|were|has|have)-)?[<\[]", "", self.typed)
        return unescape(text).rstrip("]>")


@dataclass(frozen=True)
class TermSpan:
    """A term written in the text: ``kind`` entity or property, its offsets, ID and/or label."""

    kind: str
    start: int
    end: int
    id: str | None
    label: str | None
    text: str = field(default="", compare=False)


# Writer forms read but never suggested: other spellings of what a suggested word already says
# ("When is" = "What is", "List" = "Give me", ">=" = "greater or equal to"), so that completion
# teaches the canonical form the printer writes (docs/cnl-reference.md section 11)
_READ_ONLY_TERMINALS = frozenset({"WHEN_WHERE", "IMPERATIVE", "NUMBER_SUPERLATIVE", "CMP_SYMBOL", "ABOVE", "BELOW",
                                  "CMP_AT_LEAST", "CMP_AT_MOST", "POSSESSIVE",
                                  "COUNT_IMPERATIVE", "WHOM", "SHARE", "SAME", "AS", "IN_YEAR", "PER", "WHETHER", "BY",
                                  "WITHOUT", "EACH", "THEIR", "AND_WITH", "STR_WORD", "THE_CLASS", "WHOSE_QUESTION",
                                  "THE_COUNT_OF", "OTHER_THAN", "STARTING_WITH", "ENDING_WITH", "CONTAINING", "TO_LAST",
                                  "THE_OF_WHICH", "WHOSE_AFTER_BE", "LANG_WORD",
                                  "FOR_EVERY", "IT", "_FOR_COMMA", "AND_MAYBE_THE", "AND_MAYBE_WHOSE",
                                  "PASSIVE_PROP", "ACTIVE_PROP", "WHERE_CLAUSE",
                                  "QUOTED", "COMPARATIVE_AS_SUPERLATIVE", "ALL_THE", "YEAR_QUESTION", "WHICH_ONE",
                                  "HAS_BARE", "ASK_HAS_BARE", "FRONT_WHICH",
                                  "HAS_AUX", "AND_NOT_VALUE", "ANY", "EITHER", "AND_AT", "BUT_NOT_OF"})


def is_read_only(terminal: str) -> bool:
    """Whether terminal ``terminal`` is a writer form read but never suggested."""
    return terminal in _READ_ONLY_TERMINALS


@lru_cache(maxsize=4)
def shared_checker(notation: str = "label") -> SquallPrefixChecker:
    """The process's prefix checker for completion (its parser states are cached)."""
    return SquallPrefixChecker(notation=notation)


@lru_cache(maxsize=None)
def terminal_words(name: str) -> tuple[str, ...]:
    """The fixed texts terminal ``name`` matches, lower-cased (``("has",)``, ``("highest",
    "lowest", …)``); () for an open terminal (a number, a term, a string)."""
    lark = squall_parser.lark_parser()
    for term in lark.terminals:
        if term.name == name:
            pattern = term.pattern
            if pattern.type == "str":
                return (pattern.value.lower(),)
            words = _finite_language(pattern.to_regexp())
            return tuple(dict.fromkeys(w.lower() for w in words if w.strip())) if words else ()
    return ()


def _finite_language(pattern: str) -> list[str] | None:
    """Every string ``pattern`` matches when there are at most _MAX_WORDS of them (blanks as one
    space, look-arounds and anchors ignored: the parser state checks the context); for a larger
    language, its finite alternatives, or the fixed words it starts with; else None."""
    try:
        parsed = list(sre_parse.parse(pattern))
    except re.error:
        return None
    whole = _strings(parsed)
    if whole is not None:
        return whole
    # alternatives of which only some are finite ("2nd" | "second"): the finite ones
    while len(parsed) == 1 and parsed[0][0] is sre.SUBPATTERN:
        parsed = list(parsed[0][1][-1])
    if len(parsed) == 1 and parsed[0][0] is sre.BRANCH:
        found = [s for branch in parsed[0][1][1] for s in (_strings(list(branch)) or ())]
        return found[:_MAX_WORDS] or None
    # an open terminal that starts with fixed words ("more than 2"): those words, to go on from
    head = []
    for item in parsed:
        if _strings([item]) is None:
            break
        head.append(item)
    words = _strings(head) if head else None
    return [w.strip() for w in words if any(c.isalpha() for c in w)] or None if words else None


def _strings(items) -> list[str] | None:
    out = [""]
    for op, arg in items:
        part = _strings_of(op, arg)
        if part is None:
            return None
        out = [a + b for a in out for b in part]
        if len(out) > _MAX_WORDS:
            return None
    return out


def _strings_of(op, arg) -> list[str] | None:
    if op is sre.LITERAL:
        return [chr(arg)]
    if op in (sre.AT, sre.ASSERT, sre.ASSERT_NOT):
        return [""]
    if op is sre.SUBPATTERN:
        return _strings(list(arg[-1]))
    if op is sre.BRANCH:
        out = []
        for branch in arg[1]:
            part = _strings(list(branch))
            if part is None:
                return None
            out += part
        return out if len(out) <= _MAX_WORDS else None
    if op is sre.IN:
        if any(kind is sre.CATEGORY and value is sre.CATEGORY_SPACE for kind, value in arg):
            return [" "]
        if all(kind is sre.LITERAL for kind, _ in arg):
            return [chr(value) for _, value in arg]
        return None
    if op in (sre.MAX_REPEAT, sre.MIN_REPEAT):
        low, _high, sub = arg
        part = _strings(list(sub))
        if part is None:
            return None
        if part == [" "]:
            return [" "] if low else ["", " "]
        return ([""] if low == 0 else []) + part  # one repetition: the shortest way to write it
    return None


def expect(text: str, cursor: int | None = None, *, notation: str = "label",
           checker: SquallPrefixChecker | None = None) -> Slot:
    """What the grammar accepts at ``cursor`` (a character offset; default: the end) of ``text``."""
    checker = checker or shared_checker(notation)
    cursor = len(text) if cursor is None else max(0, min(cursor, len(text)))
    tokens, stop, _ok = checker.lex(text)
    start, end, replaces = _slot_range(text, cursor, tokens, stop)
    typed = text[start:cursor]
    before = [t for t in tokens if t.end_pos <= start]
    if start > stop and text[stop:start].strip():
        return Slot(start, end, typed, parses=False, replaces=replaces)  # unreadable text before
    accepted = checker.accepted_after(before)
    previous = tuple((t.type, t.value) for t in before)
    if accepted is None:
        kind = _kind_of_typed(typed)
        return Slot(start, end, typed, terms=frozenset({kind} if kind else ()), parses=False,
                    replaces=replaces, previous=previous)
    terms = frozenset(TERM_TERMINALS[name] for name in accepted if name in TERM_TERMINALS)
    values = tuple(sorted({VALUE_HINTS[name] for name in accepted if name in VALUE_HINTS}))
    keywords: list[str] = []
    if _kind_of_typed(typed) is None:
        wanted = " ".join(typed.lower().split())
        for name in sorted(accepted, key=_keyword_order):
            if name in TERM_TERMINALS or name in ("$END", "WORD") or name in _READ_ONLY_TERMINALS:
                continue
            for word in terminal_words(name):
                if word.startswith(wanted) and word not in keywords:
                    keywords.append(word)
        if before:
            keywords += [w for w in _relexed_words(text[:start], before[-1], wanted, notation, checker)
                         if w not in keywords]
        if not before:  # the first word of a sentence
            keywords = [w[:1].upper() + w[1:] for w in keywords]
    return Slot(start, end, typed, tuple(keywords), terms, values, "$END" in accepted,
                replaces=replaces, previous=previous)


def _relexed_words(head: str, last, wanted: str, notation: str, checker) -> list[str]:
    """Words the LALR state after ``last`` does not accept but that the lexer makes possible by
    reading ``last`` as another terminal: "and" before a verb (AND_VP), "or <P>" after a property
    (one path). The decoder's own check (``is_viable``) decides each."""
    gap = "" if head.endswith((" ", "\t")) else " "
    out = [word for word in _relexing_words(last.value, notation)
           if word.startswith(wanted) and checker.is_viable(head + gap + word)]
    if last.type in ("PROP", "VERB_PROP") and "or".startswith(wanted) and checker.is_viable(head + gap + "or <"):
        out.append("or")
    return out


@lru_cache(maxsize=1)
def _single_words() -> tuple[str, ...]:
    """Every one-word text of every terminal."""
    words = {w for t in squall_parser.lark_parser().terminals for w in terminal_words(t.name)}
    return tuple(sorted(w for w in words if w.isalpha()))


@lru_cache(maxsize=512)
def _relexing_words(value: str, notation: str) -> tuple[str, ...]:
    """The words after which the lexer reads the token ``value`` as another terminal."""
    checker = shared_checker(notation)
    alone = checker.lex(value)[0]
    if len(alone) != 1:
        return ()
    out = []
    for word in _single_words():
        # and before a term: "and not <P57> X" reads "and not" as one terminal only before "<"
        for text in (f"{value} {word}", f"{value} {word} <"):
            tokens = checker.lex(text)[0]
            if not tokens or tokens[0].type != alone[0].type:
                out.append(word)
                break
    return tuple(out)


# Rarer variants of words offered beside them ("joint highest" beside "highest"): offered after
# every other word, so that the common form comes first
_OFFERED_LAST = frozenset({"JOINT_SUPERLATIVE"})


@lru_cache(maxsize=None)
def _keyword_order(name: str) -> tuple:
    """Plain words first, then multi-word and regex terminals, then rarer variants, then
    punctuation; by name."""
    words = terminal_words(name)
    punctuation = bool(words) and not words[0][:1].isalpha()
    lark = squall_parser.lark_parser()
    plain = any(t.name == name and t.pattern.type == "str" for t in lark.terminals)
    return (punctuation, name in _OFFERED_LAST, not plain, name)


def _kind_of_typed(typed: str) -> str | None:
    return Slot(0, 0, typed).term_typed


def _slot_range(text: str, cursor: int, tokens, stop: int) -> tuple[int, int, str | None]:
    """(start, end, replaced term) of the word or term under the cursor."""
    for tok in tokens:
        if tok.start_pos < cursor <= tok.end_pos:
            is_term = tok.type in TERM_TERMINALS or tok.value[:1] in "<["
            if is_term and cursor == tok.end_pos and tok.value[-1:] in ">]":
                break  # just after a closed term: what comes next
            if is_term:
                return tok.start_pos, tok.end_pos, tok.value
            return tok.start_pos, tok.end_pos, None
        if tok.start_pos >= cursor:
            break
    if cursor > stop:
        # text the lexer cannot read yet: a term, a string or a word still being written
        rest = text[stop:cursor]
        begin = stop + len(rest) - len(rest.lstrip())
        if text[begin:begin + 1] in ("[", "<", '"') or not text[begin:cursor].split()[1:]:
            end = cursor
            while end < len(text) and not text[end].isspace() and text[end] not in "?,()":
                end += 1  # the rest of the word after the cursor is replaced too
            return begin, end, None
    return cursor, cursor, None  # between words, or just after a closed term


def terms_in(text: str, *, notation: str = "label", checker: SquallPrefixChecker | None = None) -> list[TermSpan]:
    """The terms written in ``text``, as the lexer reads them (a property path yields each of its
    properties), with their offsets: for highlighting, tooltips and context."""
    checker = checker or shared_checker(notation)
    tokens, _stop, _ok = checker.lex(text)
    out = []
    for tok in tokens:
        if tok.type not in TERM_TERMINALS:
            continue
        kind = "entity" if tok.type == "ENT" else "property"
        for match in _TERM_IN_TOKEN.finditer(tok.value):
            start = tok.start_pos + match.start()
            if match.group(2) is not None:
                ident, label = None, unescape(match.group(2)).strip()
            else:
                inner = match.group(1)
                ident, label, _prefix = split_angle(inner, notation)
            out.append(TermSpan(kind, start, tok.start_pos + match.end(), ident, label, match.group()))
    return out


__all__ = ["Slot", "TermSpan", "TERM_TERMINALS", "VALUE_HINTS", "expect", "shared_checker", "terminal_words",
           "terms_in"]
