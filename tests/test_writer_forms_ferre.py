"""Ferré's SQUALL forms (issue 29, ``squall_ferre_forms.lark``) beyond the variant-to-canonical cases
that ``tests/test_writer_forms.py`` runs: the new canonical forms (string functions), their SPARQL
read back by the decompiler, what keeps its old reading, and what is refused with a reason."""
import pytest

import cnl
from cnl import ir
from cnl.dialects.notation import detect_notation, for_notation
from cnl.dialects.squall.parser import parse_squall
from cnl.dialects.squall.printer import print_squall
from cnl.errors import CNLSyntaxError, UnsupportedSPARQLError
from cnl.sparql.equivalence import equivalent
from tests.roundtrip_helpers import PREFIXES
from tests.test_writer_forms import Lexicon
from tests.writer_forms_ferre import CANONICAL


@pytest.mark.parametrize("case", CANONICAL, ids=[c[1][0][:40] for c in CANONICAL])
def test_a_new_canonical_form_compiles_and_prints_as_written(case):
    _form, texts, canonical, sparql = case
    assert {detect_notation(t) for t in texts} == {"id", "label", "ecai"}
    for text in texts:
        assert equivalent(cnl.compile(text, lexicon=Lexicon()), PREFIXES + sparql, distinct=True), text
        query = parse_squall(text)
        assert print_squall(query, detect_notation(text)) == text
        assert parse_squall(print_squall(query, detect_notation(text))) == for_notation(query, detect_notation(text))
    assert print_squall(parse_squall(texts[0]), "id", id_labels=False) == canonical


# SPARQL a writer of queries writes with the string functions -> the CNL, and back (the decompiler's
# meaning guard compiles what it prints and checks it equivalent)
DECOMPILED = [
    ("SELECT DISTINCT ?u WHERE { wd:Q25188 wdt:P1476 ?t . BIND(UCASE(?t) AS ?u) }",
     "Give me the uppercase of (the <P1476> of <Q25188>)."),
    ('SELECT DISTINCT ?x WHERE { ?x wdt:P31 wd:Q5 . ?x wdt:P1559 ?l . FILTER(LCASE(?l) = "barack obama") }',
     'Give me a <Q5> that has <P1559> ?l and such that (the lowercase of ?l) is equal to "barack obama".'),
    ("SELECT DISTINCT ?p WHERE { wd:Q64 wdt:P1082 ?p . FILTER(isNumeric(?p)) }", "Which <P1082> of <Q64> is a number?"),
    ('SELECT DISTINCT ?c WHERE { wd:Q76 wdt:P735 ?g . wd:Q76 wdt:P734 ?f . BIND(CONCAT(STR(?g), " ", STR(?f)) AS ?c) }',
     'Give me concat(the <P735> of <Q76>, " ", the <P734> of <Q76>).'),
    ("SELECT DISTINCT ?s WHERE { wd:Q25188 wdt:P1476 ?t . BIND(SUBSTR(STR(?t), 2) AS ?s) }",
     "Give me substr(the <P1476> of <Q25188>, 2)."),
    ('SELECT DISTINCT ?x WHERE { ?x wdt:P31 wd:Q5 . ?x wdt:P1559 ?l . FILTER(SUBSTR(STR(?l), 1, 3) = "Dr.") }',
     'Give me a <Q5> that has <P1559> ?l and such that substr(?l, 1, 3) is equal to "Dr.".'),
]


@pytest.mark.parametrize("sparql, text", DECOMPILED, ids=[t[:30] for _s, t in DECOMPILED])
def test_string_functions_read_back_from_sparql(sparql, text):
    assert cnl.decompile(PREFIXES + sparql) == text
    assert equivalent(cnl.compile(text), PREFIXES + sparql, distinct=True)


def test_concat_of_a_value_without_str_is_refused_with_the_reason():
    with pytest.raises(UnsupportedSPARQLError, match="without STR"):
        cnl.decompile(PREFIXES + 'SELECT ?c WHERE { wd:Q76 wdt:P1559 ?g . BIND(CONCAT(?g, "x") AS ?c) }')


# ---------------------------------------------------------------- what keeps its old reading

def test_it_and_for_are_words_only_in_a_for_every_sentence():
    with pytest.raises(CNLSyntaxError, match="bare label 'it'"):
        parse_squall("Give me it.")
    # a comma after "For every" before no question word is not the prefix's end
    query = parse_squall("For every <Q5> that has <P106> <Q33999>, <Q1> and <Q2>, which <Q11424> has <P161> it?")
    assert query.subject.det == "which"


def test_a_property_term_before_a_name_keeps_its_reading():
    # "-ed by" / "-ing" are glued to the term: a class followed by a name stays a fronted object
    query = parse_squall("How many <Academy_Awards> <John_Wayne> did <P166:award_received>?")
    assert isinstance(query.vp, ir.Be)


def test_the_number_of_stays_a_count():
    query = parse_squall("Give me the number of <P150> of <Q142>.")
    assert query.subject.det == "number_of"


def test_what_is_a_and_b_still_asks_one_value():
    # only "and maybe" makes two answers; "What is A and B?" is one value that is both
    query = parse_squall("What is the <P569> and the <P570> of <Q76>?")
    assert isinstance(query.vp, ir.Be)


# ---------------------------------------------------------------- what is refused

@pytest.mark.parametrize("text, message", [
    ("For each <Q6256> X, how many <P150> does <Q76> have?", "name it in the question"),
    ("For each <Q6256> X, what is the <P36> of it?", "both 'X' and 'it'"),
    ("For every <Q5> X, which <Q11424> has not <P161> X?", "name X first where it is not negated"),
    ("Give me substr(<Q76>).", "substr() takes a value, a start"),
    ('Give me concat("a", <Q76>) of every <Q5>.', "'concat(...) of X' takes the values of X"),
    ('Which <Q5> has concat("a", "b") that is "ab"?', "'has concat(...)' is about the subject's own values"),
    ("Which [film] is directed by [Christopher Nolan]?", "unexpected token"),
])
def test_malformed_ferre_forms_fail_with_a_reason(text, message):
    with pytest.raises(CNLSyntaxError) as info:
        parse_squall(text)
    assert message in str(info.value), str(info.value)
