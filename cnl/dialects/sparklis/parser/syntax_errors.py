"""Error reporting: a refused or unparsable Sparklis string -> :class:`cnl.errors.CNLSyntaxError`
with its line and column, the offending token, what was expected in human words, and a hint for
the damage seen in the data (a bare property label, a corrupted ``<...>`` term); and
:class:`Refused`, raised where the grammar accepts a sentence the IR cannot carry.

Separate because every stage of the parse (lexer, transformer, back-references) reports
through it, and it is what a writer reads when a string is refused."""
from __future__ import annotations

import re

from cnl.errors import CNLSyntaxError


def line_column(text: str, pos: int) -> tuple[int, int]:
    line = text.count("\n", 0, pos) + 1
    return line, pos - (text.rfind("\n", 0, pos) + 1) + 1


def syntax_error(text: str, pos: int, reason: str, token: str | None = None, expected=(), hint=None):
    line, column = line_column(text, pos)
    return CNLSyntaxError(reason, text=text, line=line, column=column, token=token,
                          expected=tuple(expected), hint=hint)


class Refused(Exception):
    """A sentence the grammar accepts but the IR cannot carry; becomes a CNLSyntaxError."""

    def __init__(self, reason, token=None):
        super().__init__(reason)
        self.reason, self.token = reason, token


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


def expected_words(names) -> list[str]:
    return sorted({_TOKEN_NAMES.get(n, f'"{n.lower()}"') for n in names})


def hint_for(text: str, token) -> str | None:
    value = str(token) if token is not None else ""
    if token is not None and getattr(token, "type", "") == "LABEL" and re.search(r"\b(has as a|that has as an?)\s*$",
                                                                                 text[: token.start_pos]):
        return ("a property must be written <P123:label>; a bare property label (e.g. 'mother', "
                "'part(s)') cannot be told apart from the value after it")
    if value.startswith("<") and "<" in value[1:]:
        return "this property term looks corrupted"
    return None
