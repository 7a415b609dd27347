"""The lexical pieces of SPARQL that every query writer shares: the one escaping path for
string literals, and what an IRI and a language tag may contain.

Everything that puts a value into SPARQL text — the compiler, the profiles' options, the agent's
tools, the label lookups — checks or escapes it with these, so nothing a user writes can change
the structure of the query around it.
"""
from __future__ import annotations

import re

# characters SPARQL's IRIREF cannot hold (plus DEL): a character class, to compose patterns with
IRI_FORBIDDEN_CHARS = r'<>"{}|^`\\\x00-\x20\x7f'
NOT_IRI_CHAR = re.compile(f"[{IRI_FORBIDDEN_CHARS}]")
# BCP 47 language tags as SPARQL's LANGTAG allows them: en, en-GB, zh-Hant-TW, de-CH-1996
LANGUAGE_TAG = re.compile(r"^[a-zA-Z]{1,8}(-[a-zA-Z0-9]{1,8})*$")


# the characters a regular expression (XPath's, SPARQL's REGEX) gives a meaning
_REGEX_SPECIAL = re.compile(r"[\\|.?*+(){}\[\]^$-]")


def regex_literal(text: str) -> str:
    """A regular expression that matches ``text`` itself (its special characters escaped)."""
    return _REGEX_SPECIAL.sub(r"\\\g<0>", text)


def sparql_string(value: str) -> str:
    """A SPARQL string literal; every character that could end or bend it is escaped."""
    out = ['"']
    previous = ""
    for ch in value:
        if previous == "\\" and ch in "uU":
            # "\\u0022" would read as an escaped quote where \u escapes are decoded before
            # parsing (SPARQL 1.1, 19.2). Writing this "u" as the fixed-length \U00000075 (so
            # no following hex digit can join it) keeps the value intact for both readings.
            out.append("\\U00000075" if ch == "u" else "\\U00000055")
            previous = ch
            continue
        previous = ch
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 0x20 or 0x7F <= ord(ch) <= 0x9F or ch in "\u2028\u2029":
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)
