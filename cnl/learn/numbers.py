"""Numbers the question says, copied into the CNL the model writes.

A small model copies words well and numbers badly: "$200 million" comes out as ``2000000``,
"the twentieth president" as ``at <series ordinal> 10``. A number of the question is a value the
query must use as written, so where the CNL has exactly one number the question does not say and
the question exactly one number the CNL does not use, the CNL's number is that one
(:func:`copy_numbers`). Numbers inside terms (``[2008 Summer Olympics]``), strings and dates are
left alone, and so is every CNL whose numbers the question accounts for, or that derives several
numbers of its own ("in 1992" written "later than 1991 and earlier than 1993").

:func:`question_numbers` reads digits (``1,000``, ``2.5``), scale words (``200 million``,
``$1.2 billion``), ordinals (``3rd``, ``twentieth``) and number words (``two``, ``twelve``);
English only, nothing of a particular question or data set.

:func:`current_year` reads one more number the question does not say: the year a difference of
years counts from ("How old is Tom Hanks?" written ``Give me 2023 - the year of (the <date of
birth> of [Tom Hanks])``, the year its training data was written in) is this year, ``the year of
now``, which a KG profile may fix to a data set's own day (``KGProfile.today``).
"""
from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

_UNITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
          "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
         "ninety": 90}
_ORDINAL_UNITS = ["zeroth", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
                  "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth",
                  "seventeenth", "eighteenth", "nineteenth"]
_ORDINAL_TENS = {"twentieth": 20, "thirtieth": 30, "fortieth": 40, "fiftieth": 50, "sixtieth": 60,
                 "seventieth": 70, "eightieth": 80, "ninetieth": 90}
_SCALES = {"thousand": 10 ** 3, "million": 10 ** 6, "billion": 10 ** 9, "trillion": 10 ** 12}

_WORD_VALUES: dict[str, int] = {w: i for i, w in enumerate(_UNITS)}
_WORD_VALUES.update({w: i for i, w in enumerate(_ORDINAL_UNITS)})
_WORD_VALUES.update(_TENS)
_WORD_VALUES.update(_ORDINAL_TENS)
for _tens_word, _tens in _TENS.items():
    for _i in range(1, 10):
        _WORD_VALUES[f"{_tens_word}-{_UNITS[_i]}"] = _tens + _i
        _WORD_VALUES[f"{_tens_word}-{_ORDINAL_UNITS[_i]}"] = _tens + _i
del _WORD_VALUES["zero"], _WORD_VALUES["zeroth"]
# "one" and "first" are too often no number at all ("the first film" is the earliest one, "one
# of the ...", "the first one"); they count only where the CNL writes a number that differs
_WEAK = {"one", "first"}

_DIGITS = re.compile(r"(?<![\w.])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(?:st|nd|rd|th)?"
                     r"(?:\s*(thousand|million|billion|trillion)\b)?", re.I)
_WORD = re.compile(r"[a-z]+(?:-[a-z]+)?", re.I)

# a CNL number outside terms, strings and dates: a token of digits standing alone
_TERMS_AND_STRINGS = r'<(?:[^<>\\]|\\.)*>|\[(?:[^\[\]\\]|\\.)*\]|"(?:[^"\\]|\\.)*"'
_CNL_PROTECTED = re.compile(_TERMS_AND_STRINGS + r'|\d{4}-\d{2}-\d{2}\S*')
_TERMS_AND_STRINGS_RE = re.compile(_TERMS_AND_STRINGS)


def blank_terms(text: str) -> str:
    """``text`` (a CNL) with its terms (``<...>``, ``[...]``) and strings blanked out, each by as
    many spaces: the words and numbers left are the sentence's own, at their places."""
    return _TERMS_AND_STRINGS_RE.sub(lambda m: " " * len(m.group(0)), text)
_CNL_NUMBER = re.compile(r"(?<![\w.?-])[-+]?\d+(?:\.\d+)?(?![\w.-]*\w)")


def question_numbers(question: str) -> list[tuple[Decimal, bool]]:
    """(value, weak) for each number the question says, in order; ``weak``: a word ("one",
    "first") that is often no number at all."""
    found: list[tuple[int, Decimal, bool]] = []
    for match in _DIGITS.finditer(question):
        value = _decimal(match.group(1).replace(",", ""))
        if value is None:
            continue
        if match.group(2):
            value *= _SCALES[match.group(2).lower()]
        found.append((match.start(), value, False))
    for match in _WORD.finditer(question):
        word = match.group(0).lower()
        if word in _WORD_VALUES:
            value = Decimal(_WORD_VALUES[word])
            after = question[match.end():].lstrip().lower()
            scale = next((s for s in _SCALES if after.startswith(s)), None)
            if scale:
                value *= _SCALES[scale]
            found.append((match.start(), value, word in _WEAK))
    return [(value, weak) for _, value, weak in sorted(found, key=lambda f: f[0])]


def ordinal_value(word: str) -> int | None:
    """The value of an English ordinal word ("sixth" 6, "twenty-first" 21), or None."""
    word = word.lower()
    if word in _ORDINAL_UNITS or word in _ORDINAL_TENS or (
            "-" in word and word.split("-", 1)[1] in _ORDINAL_UNITS):
        return _WORD_VALUES.get(word)
    return None


def copy_numbers(question: str, text: str) -> str:
    """``text`` (a CNL) with its one number the question does not say replaced by the question's
    one number the CNL does not use; ``text`` unchanged otherwise."""
    spoken = question_numbers(question)
    if not spoken:
        return text
    numbers = list(_cnl_numbers(text))
    if not numbers:
        return text
    # a number inside a term is used too ("[2008 Summer Olympics]" uses the question's 2008)
    values = [value for _, _, value in numbers] + [value for term in _CNL_PROTECTED.findall(text)
                                                     for value, _ in question_numbers(term)]
    said = {value for value, _ in spoken}
    unsaid = [(start, end) for start, end, value in numbers if value not in said]
    unused = list(dict.fromkeys(value for value, weak in spoken if value not in values and not weak))
    if len(unsaid) != 1 or len(unused) != 1:
        return text
    start, end = unsaid[0]
    return text[:start] + _plain(unused[0]) + text[end:]


# "2023 - the year of ...", "the year of 2023-04-20 - the year of ...": a year counted from
_YEAR_FROM = re.compile(r"(?<![\w.\[<\"-])(?:(\d{4})|the year of (\d{4})-\d{2}-\d{2})(?=\s*-\s*the year of\b)", re.I)


def current_year(question: str, text: str) -> str:
    """``text`` (a CNL) with a year a difference of years counts from that the question does not
    say (``2023 - the year of X``) written ``the year of now``; ``text`` unchanged otherwise."""
    said = {value for value, _ in question_numbers(question)}
    masked = blank_terms(text)  # dates stay: "the year of 2023-04-20"
    out, last = [], 0
    for match in _YEAR_FROM.finditer(masked):
        if Decimal(match.group(1) or match.group(2)) in said:
            continue
        out += [text[last:match.start()], "the year of now"]
        last = match.end()
    return "".join(out) + text[last:]


def _cnl_numbers(text: str):
    """(start, end, value) of each number of the CNL outside terms, strings and dates."""
    masked = _CNL_PROTECTED.sub(lambda m: " " * len(m.group(0)), text)
    for match in _CNL_NUMBER.finditer(masked):
        value = _decimal(match.group(0))
        if value is not None:
            yield match.start(), match.end(), value


def _decimal(text: str) -> Decimal | None:
    try:
        return Decimal(text)
    except InvalidOperation:
        return None


def _plain(value: Decimal) -> str:
    """``200000000``, ``2.5``: as the CNL writes a number (no exponent, no trailing zeros)."""
    if value == value.to_integral_value():
        return str(int(value))
    return format(value.normalize(), "f")
