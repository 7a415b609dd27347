"""Error reporting: a Lark parse error -> :class:`cnl.errors.CNLSyntaxError` with the position,
the offending token, what was expected in human words, and a hint for known mistakes
(recognised by the parser state they fail in) or for text that looks like Sparklis.

Separate because it is what a writer reads when the grammar refuses a question, and grows with
every mistake seen in other writers' SQUALL, apart from the grammar itself."""
from __future__ import annotations

import re

from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from cnl.errors import CNLSyntaxError


# Human words for the grammar's terminals, used in "expected one of ..." messages.
_TERMINAL_WORDS = {
    "ENT": "an entity or class (<Label> or [Label])",
    "PROP": "a property (<P123:label> or <label>)",
    "VERB_PROP": "a property verb (is-<P123:label>)",
    "INT": "a number",
    "DECIMAL": "a number",
    "DATE": "a date (YYYY-MM-DD or YYYY-MM-DDThh:mm:ssZ)",
    "STRING": 'a quoted string',
    # squall_ferre_forms.lark
    "_ARG_COMMA": '","', "_FOR_COMMA": '","', "STRING_CALL": '"concat(" or "substr("', "IT": '"it"',
    "LANG_STRING": 'a quoted string with a language tag',
    "TYPED_STRING": 'a typed literal ("1961"^^xsd:gYear)',
    "VAR_NAME": "a variable",
    "ORDINAL": "an ordinal (2nd)",
    "SUPERLATIVE": "a superlative (highest, earliest, ...)",
    "JOINT_SUPERLATIVE": "a superlative that keeps ties (joint highest, ...)",
    "COMPARATIVE_AS_SUPERLATIVE": "a superlative (highest, earliest, ...)",
    "ALL_THE": '"all"',
    "YEAR_QUESTION": '"in which year"',
    "IN_SI_UNITS": '"in SI units"',
    "IN_UNIT": '"in unit"',
    "DISTANCE": '"distance between"',
    "TERM_KIND": '"literal" or "IRI"',
    "OR_SUCH_THAT": '"or such that"',
    "SUCH_THAT": '"such that"',
    "ELSE": '"else"',
    "ARITH_OP": '"+", "*" or "/"',
    "ANGLE": "a term in angle brackets (<...>)",
    "BRACKET": "a term in square brackets ([...])",
    "QUOTED": "a quoted string",
    "PATH_OP": 'a property path operator ("/", "^", "+", "*")',
    "SORTED": '"highest-to-lowest" or "lowest-to-highest"',
    "AND_NOT": '"and not"',
    "AT_ANY_RANK": '"at any rank"',
    "IN_YEAR": '"in" (a year)',
    "CMP_AT_LEAST": '"at least" (a number)',
    "CMP_AT_MOST": '"at most" (a number)',
    "FOR_EVERY": '"for every"',
    "AND_MAYBE_THE": '"and maybe the"',
    "AND_MAYBE_WHOSE": '"and maybe whose"',
    "WHERE_CLAUSE": '"where"',
    "WHICH_ONE": '"which"',
    "POSSESSIVE": "'s",
    "COUNT_IMPERATIVE": "\"Count\"",
    "DATE_PART": '"month" or "day"',
    "MEASURE": '"length", "latitude", "longitude", "absolute value" or "text"',
    "AGGREGATE": "an aggregate (sum, total, average, minimum, maximum)",
    "CMP_GT": "a comparison (greater than ...)",
    "CMP_LT": "a comparison (less than ...)",
    "CMP_GE": "a comparison",
    "CMP_LE": "a comparison",
    "CMP_SYMBOL": "a comparison symbol (>=, <, ...)",
    "IMPERATIVE": "\"Give me\" (or list, show me, find, return, tell me)",
    "WHEN_WHERE": "\"when\" or \"where\"",
    "NUMBER_SUPERLATIVE": "\"the largest number of\"",
    "AND_VP": '"and" + a verb phrase',
    "HAS_BARE": '"has"',
    "ASK_HAS_BARE": '"has"',
    "HAS_AUX": '"has"',
    "AND_NOT_VALUE": '"and not"',
    "AND_AT": '"and at"',
    "BUT_NOT_OF": '"but not of"',
    "FRONT_WHICH": '"at which"',
    "AND_THAT": '"and that"',
    "AND_WHOSE": '"and whose"',
    "AND_WITH": '"and with"',
    "STR_WORD": '"str" or "string"',
    "THE_CLASS": '"the class"',
    "WHOSE_QUESTION": '"whose"',
    "THE_COUNT_OF": '"the count of"',
    "OTHER_THAN": '"other than"',
    "STARTING_WITH": '"starting with"',
    "ENDING_WITH": '"ends with"',
    "CONTAINING": '"containing"',
    "TO_LAST": '"to last"',
    "THE_OF_WHICH": '"the"',
    "WHOSE_AFTER_BE": '"whose"',
    "LANG_WORD": '"lang"',
    "BELONGS": '"belongs to"',
    "BELONG": '"belongs to"',
    "BELONGED": '"belongs to"',
    "RECENCY": '"most recent" or "least recent"',
    "OR_VP": '"or" + a verb phrase',
    "AT_WHICH": '"at which"',
    "AT_LEAST": '"at least"',
    "AT_MOST": '"at most"',
    "CASE_SENSITIVELY": '"case-sensitively"',
    "COUNT_DET": '"more than N" or "fewer than N"',
    "_END": '"?" or "." (end)',
    "$END": "end of text",
    "PLURAL": '"-s"',
    "_MINUS": '"-"',
    "_COMMA": '","',
    "_LPAR": '"("',
    "_RPAR": '")"',
    "WORD": "a word",
    "SEPARATED_BY": '"separated by"',
}

SPARKLIS_HINT = re.compile(
    r"\bhas as an?\b|\band give me\b|\band where\b|highest-to-lowest|lowest-to-highest|^give me every \w",
    re.I,
)

# Known mistakes, recognised by the parser state they fail in (Lark's match_examples).
_NAMED_ERRORS = {
    'two noun phrases in a row: join them with "and" or "of"': [
        "Which <member> <Twice> has not a <P19:place_of_birth>?",
    ],
    'a class needs a determiner here: write "a <film>"': [
        "At which <P585:point_in_time> did <film> that is <P179:series> <X>?",
    ],
    "an ordinal needs a superlative: write 'the 3rd earliest <P577:publication_date> of ...', or, for a numbered "
    "part of a series, its ordinal as a qualifier ('at <P1545:series_ordinal> 3')": [
        "What is the <P1476:title> of the 3rd <album> of <Led_Zeppelin>?",
        "What is the 3rd <album> of <Led_Zeppelin>?",
        "Which <album> is the 3rd <P527:has_part(s)> of <Led_Zeppelin>?",
        "Which <album> has the 3rd <P577:publication_date>?",
        "Give me the 3rd <album> of <Led_Zeppelin>.",
        "Which <album> is a 3rd <P527:has_part(s)> of <Led_Zeppelin>?",
        "Which 3rd <album> has <P175:performer> <Led_Zeppelin>?",
    ],
}


def expected_words(names) -> tuple[str, ...]:
    """What a writer reads for the grammar's terminal ``names``: each in words, once."""
    words = []
    for name in sorted(names):
        if name == "WORD":  # only there to report bare labels
            continue
        word = _TERMINAL_WORDS.get(name, f'"{name.lower()}"')
        if word not in words:
            words.append(word)
    return tuple(words)


def to_syntax_error(err: UnexpectedInput, text: str, parse) -> CNLSyntaxError:
    """``err`` as the error a writer reads; ``parse``: the parser, run again on the known
    mistakes to tell whether ``err`` is one of them (Lark's ``match_examples``)."""
    hint = None
    tok = getattr(err, "token", None)
    if SPARKLIS_HINT.search(text):
        hint = "this looks like Sparklis, not SQUALL: try dialect 'sparklis'"
    elif tok is not None and tok.type == "WORD":
        hint = (f"bare word {tok.value!r}: write properties as <P123:label> or <label>, "
                "entities and classes as <Label> or [Label]")
    elif tok is not None and tok.type == "PROP" and "ENT" in (err.expected or ()):
        hint = f"{tok.value} is a property; an entity, a class or a value is expected here"
    else:
        try:
            hint = err.match_examples(parse, _NAMED_ERRORS, use_accepts=True)
        except Exception:  # pragma: no cover - a hint is a nicety, never a crash
            hint = None
    if isinstance(err, UnexpectedCharacters):
        char = text[err.pos_in_stream] if err.pos_in_stream < len(text) else ""
        return CNLSyntaxError(
            "unexpected character", text=text, line=err.line, column=err.column, token=char,
            expected=expected_words(err.allowed or ()), hint=hint,
        )
    if isinstance(err, UnexpectedEOF):
        lines = text.splitlines() or [""]
        return CNLSyntaxError(
            "unexpected end of text", text=text, line=len(lines), column=len(lines[-1]) + 1,
            expected=expected_words(err.expected), hint=hint,
        )
    assert isinstance(err, UnexpectedToken)
    if tok.type == "$END":
        lines = text.splitlines() or [""]
        line, column, shown = len(lines), len(lines[-1]) + 1, None
        message = "unexpected end of text"
    else:
        line, column, shown = tok.line, tok.column, tok.value
        message = "unexpected token"
    expected = err.accepts or err.expected
    return CNLSyntaxError(
        message, text=text, line=line, column=column, token=shown,
        expected=expected_words(expected), hint=hint,
    )
