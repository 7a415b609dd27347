"""The parser's and compiler's fast paths (issue 29, bench_compile) give exactly what the general
ones give: the LALR loop what Lark's own parser builds, the lexer's first-character and
two-character dispatches what the whole alternation matches, the PREFIX names what the regex
finds, ``ir.depth`` and ``ir.asks_for_values`` what a plain recursive walk says, the notation
found from the first label what reading every term finds."""
from __future__ import annotations

import random
from dataclasses import fields, is_dataclass

import pytest

from cnl import ir
from cnl.datasets.paths import data_dir
from cnl.dialects.notation import _TERM_TOKENS, ID_RE, detect_notation
from cnl.dialects.squall.parser import SquallLexer, lark_parser, parse_squall, reading_notation
from cnl.errors import CNLError
from cnl.sparql.compiler.modifiers import _PREFIX_USE, prefixes_used
from cnl.sparql.profiles import WikidataProfile

TEXTS = [
    "Which <film> has <P57:director> <Jon_Favreau> and has the highest <P2142:box_office>?",
    "Which [film] has <director> [Jon Favreau] that has <cast member> [Scarlett Johansson]?",
    "How many <Q11424> have <P161> <Q34436>?",
    "Give me the <P22> or <P25> of <Q1339>.",
    "Which <Q515> is <P131>+ <Q183> and has a <P1082> greater than 1000000?",
    "Is the <P1082> of <Q64> less than the <P1082> of <Q1055>?",
    "Which <Q5> has a <P569> after 1950-01-01 and has earliest <P569>?",
    "What is ^<P40> of <Q1339>?",
    "Which <Q6256> has a <P1082> that is (<P31>/<P279>*) <Q515>?",
    'Which <Q5> has a <label> matching "^Ada"@en?',
    "Which <film>-s have <P57> [Ridley Scott]\nand have <P161> [Sigourney Weaver]?",
]


def _ecai_texts():
    """The 550 ECAI SQUALL strings where the data is here (the tests run on TEXTS alone without it)."""
    if data_dir(required=False) is None:
        return []
    from cnl.datasets.ecai.loader import load_all

    return [record.squall for record in load_all()]


def _all_texts():
    return TEXTS + _ecai_texts()


def _lark_parse(text: str):
    """Lark's own parse of ``text``, read again with the writer forms of a second reading where
    it does not parse as written (as ``parse_squall`` does)."""
    from lark.exceptions import UnexpectedInput

    from cnl.dialects.squall.parser.reading import reading_again

    try:
        return lark_parser().parse(text)
    except UnexpectedInput:
        token = reading_again.set(True)
        try:
            return lark_parser().parse(text)
        finally:
            reading_again.reset(token)


def test_the_lalr_loop_builds_what_larks_parser_builds():
    compared = 0
    for text in _all_texts():
        stripped = text.strip()
        try:
            fast = parse_squall(stripped)
        except CNLError:
            continue
        with reading_notation(detect_notation(stripped)):
            assert fast == _lark_parse(stripped), text
        compared += 1
    assert compared >= len(TEXTS)


def test_the_first_characters_dispatch_matches_as_the_whole_alternation():
    lexer = lark_parser().parser.lexer
    while not isinstance(lexer, SquallLexer):
        lexer = lexer.lexer
    rng = random.Random(29)
    pieces = ["<P1>", "+", "*", "/", "^", "(", ")", "?x", " ", "B", "C1", "{0,1}", "<a>", "[b]", "has", "-s", "s",
              "1", "2020-01-01", '"x"@en', ",", "and", "the", "is-<P2>", "A", "?", ".", "at least", "more than 3"]
    texts = _all_texts() + ["".join(rng.choice(pieces) for _ in range(rng.randint(1, 10))) for _ in range(3000)]
    for text in texts:
        for pos, char in enumerate(text):
            if char in " \t\r\n":
                continue
            fast = lexer.by_first_char.get(char, lexer.master).match(text, pos)
            pair = lexer.by_two_chars[text[pos:pos + 2]].match(text, pos)
            whole = lexer.master.match(text, pos)
            assert (fast and (fast.lastgroup, fast.span())) == (whole and (whole.lastgroup, whole.span())), (text, pos)
            assert (pair and (pair.lastgroup, pair.span())) == (whole and (whole.lastgroup, whole.span())), (text, pos)


@pytest.mark.parametrize("text", ["wd:Q1 wdt:P31", "?wd:x", "_wd:x", "a-wd:x", "ab-p:x", "?x-p:y", "éwd:x", "wd: p:", "",
                                  "x:wd:y", "²wd:x", "(wd:Q1)", "wdt:P31/wdt:P279*", "WD:Q1"])
def test_prefixes_used_are_those_the_regex_finds(text):
    prefixes = list(WikidataProfile().prefixes) + ["a-b", "x_y", "", "1x", "é"]
    found = set(_PREFIX_USE.findall(text))
    assert prefixes_used(text, prefixes) == [p for p in prefixes if p in found]


def test_prefixes_used_on_random_texts():
    prefixes = list(WikidataProfile().prefixes) + ["a-b", "x_y"]
    rng = random.Random(7)
    pieces = ["wd:", "p:", "ps:", "-", "?", "_", "a", " ", "\n", "é", "1", ":", "(", "^^xsd:", "wdt", "a-b:", "²", "\u00a0"]
    for _ in range(20000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 12)))
        found = set(_PREFIX_USE.findall(text))
        assert prefixes_used(text, prefixes) == [p for p in prefixes if p in found], text


def _children(node):
    if isinstance(node, tuple):
        return list(node)
    if is_dataclass(node):
        return [getattr(node, f.name) for f in fields(node) if f.name != "span"]
    return []


def _plain_depth(node) -> int:
    return 1 + max((_plain_depth(child) for child in _children(node)), default=0)


def _plain_asks(node) -> bool:
    return (isinstance(node, ir.Quant) and node.det in ("which", "how_many")) or any(map(_plain_asks, _children(node)))


def test_depth_and_asks_for_values_agree_with_a_plain_walk():
    queries = []
    for text in _all_texts():
        try:
            queries.append(parse_squall(text))
        except CNLError:
            pass
    nested = ir.Query(ir.Quant("a"))
    for i in range(40):
        nested = ir.Not(nested) if i % 2 else (nested, ir.Exists())
    for node in queries + [nested, None, "which", (), ir.Exists(), ir.Var("x"), ir.Quant("how_many")]:
        assert ir.depth(node) == _plain_depth(node), node
        assert ir.asks_for_values(node) == _plain_asks(node), node


def _notation_by_every_term(text: str) -> str:
    found = _TERM_TOKENS.findall(text)
    if any(bracket for _, bracket in found):
        return "label"
    angles = [angle for angle, _ in found if angle]
    return "id" if angles and all(map(ID_RE.match, angles)) else "ecai"


def test_detect_notation_stopping_at_the_first_label_agrees_with_reading_every_term():
    rng = random.Random(3)
    pieces = ["<P1>", "<Q2>", "<a_b>", "[x]", '"s"', '"<a>"', '"[b]"', "<", ">", "[", "]", "\\", "\\>", " ", "<P1:x>",
              "<^P2>", "<Q3(s)>", "has", "\n"]
    texts = _all_texts() + ["".join(rng.choice(pieces) for _ in range(rng.randint(0, 8))) for _ in range(20000)]
    for text in texts:
        assert detect_notation(text) == _notation_by_every_term(text), text
