"""More SPARQL 1.1 constructs of hand-written queries (issue 29, QALD-10 probes): the absolute
value of a number (``ABS``), the text of a literal (``STR``), ... Each form in two paraphrases of our own, each in the three
notations, checked as tests/test_sparql_forms.py checks its forms (compiled against a
hand-written query, read back as itself, the hand-written query decompiled to an equivalent
text); the answers that a function changes are checked on a real SPARQL engine (pyoxigraph)."""
import pytest

import cnl
from tests.test_sparql_forms import IDS, Form, check_compiles, check_decompiles, check_reads_back

FORMS = [
    Form("the absolute value of a number (ABS), in an ordering",
         ("Give me a <Q515> that has <P1082> ?p and such that the absolute value of (?p - 1000000) is the lowest.",
          "Give me a [city] that has <population> ?p and such that the absolute value of (?p - 1000000) is the "
          "lowest.",
          "Give me a <city> that has <P1082:population> ?p and such that the absolute value of (?p - 1000000) is "
          "the lowest."),
         "SELECT DISTINCT ?c WHERE { ?c wdt:P31 wd:Q515 ; wdt:P1082 ?p . } ORDER BY ASC(ABS(?p - 1000000)) LIMIT 1"),
    Form("the absolute value of a number (ABS), in an ordering",
         ("Give me a <Q8502> that has <P2044> ?h and such that the absolute value of (?h - 4000) is the 3 lowest.",
          "Give me a [mountain] that has <elevation above sea level> ?h and such that the absolute value of (?h - "
          "4000) is the 3 lowest.",
          "Give me a <mountain> that has <P2044:elevation_above_sea_level> ?h and such that the absolute value of "
          "(?h - 4000) is the 3 lowest."),
         "SELECT DISTINCT ?m WHERE { ?m wdt:P31 wd:Q8502 ; wdt:P2044 ?h . BIND(ABS(?h - 4000) AS ?off) } "
         "ORDER BY ?off LIMIT 3"),
    Form("the absolute value of a number (ABS), in a test or as the answer",
         ("Give me a <Q515> that has <P1082> ?p and that has <P2046> ?a and such that the absolute value of "
          "(?p - ?a) is less than 100.",
          "Give me a [city] that has <population> ?p and that has <area> ?a and such that the absolute value of "
          "(?p - ?a) is less than 100.",
          "Give me a <city> that has <P1082:population> ?p and that has <P2046:area> ?a and such that the "
          "absolute value of (?p - ?a) is less than 100."),
         "SELECT DISTINCT ?c WHERE { ?c wdt:P31 wd:Q515 ; wdt:P1082 ?p ; wdt:P2046 ?a . "
         "FILTER(ABS(?p - ?a) < 100) }"),
    Form("the absolute value of a number (ABS), in a test or as the answer",
         ("Give me the absolute value of ((the <P2044> of <Q583>) - the <P2044> of <Q1374>).",
          "Give me the absolute value of ((the <elevation above sea level> of [Mont Blanc]) - the "
          "<elevation above sea level> of [Matterhorn]).",
          "Give me the absolute value of ((the <P2044:elevation_above_sea_level> of <Mont_Blanc>) - the "
          "<P2044:elevation_above_sea_level> of <Matterhorn>)."),
         "SELECT DISTINCT ?d WHERE { wd:Q583 wdt:P2044 ?a . wd:Q1374 wdt:P2044 ?b . BIND(ABS(?a - ?b) AS ?d) }"),
    Form("the text of a literal (STR), compared",
         ('Give me a <Q515> that has <P1448> ?n and such that the text of ?n is equal to "Berlin".',
          'Give me a [city] that has <official name> ?n and such that the text of ?n is equal to "Berlin".',
          'Give me a <city> that has <P1448:official_name> ?n and such that the text of ?n is equal to "Berlin".'),
         'SELECT DISTINCT ?c WHERE { ?c wdt:P31 wd:Q515 ; wdt:P1448 ?n . FILTER(STR(?n) = "Berlin") }'),
    Form("the text of a literal (STR), compared",
         ('Give me a <Q5> that has <P1477> ?n and such that the text of ?n is greater than "Z".',
          'Give me a [human] that has <birth name> ?n and such that the text of ?n is greater than "Z".',
          'Give me a <human> that has <P1477:birth_name> ?n and such that the text of ?n is greater than "Z".'),
         'SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 ; wdt:P1477 ?n . FILTER(STR(?n) > "Z") }'),
]
IDS.update({"mountain": "Q8502", "birth name": "P1477"})


def _id(form, i):
    return f"{form.form}-{i}"


@pytest.mark.parametrize("form", FORMS, ids=[_id(f, i) for i, f in enumerate(FORMS)])
def test_each_text_compiles_to_the_hand_written_query(form):
    check_compiles(form)


@pytest.mark.parametrize("form", FORMS, ids=[_id(f, i) for i, f in enumerate(FORMS)])
def test_each_text_reads_back_as_itself(form):
    check_reads_back(form)


@pytest.mark.parametrize("form", FORMS, ids=[_id(f, i) for i, f in enumerate(FORMS)])
def test_the_hand_written_query_decompiles_to_an_equivalent_text(form):
    check_decompiles(form)


def test_every_form_has_two_paraphrases():
    forms = [f.form for f in FORMS]
    assert all(forms.count(name) >= 2 for name in forms)


_CITIES = """
@prefix wd: <http://www.wikidata.org/entity/> . @prefix wdt: <http://www.wikidata.org/prop/direct/> .
wd:Q1 wdt:P31 wd:Q515 ; wdt:P1082 1020000 .
wd:Q2 wdt:P31 wd:Q515 ; wdt:P1082 500000 .
wd:Q3 wdt:P31 wd:Q515 ; wdt:P1082 3000000 .
"""


@pytest.mark.parametrize("text, answers", [
    # 1,020,000 is the nearest to a million; without ABS, 500,000 (a difference of -500,000) would
    # be the lowest and pass the test
    ("Give me a <Q515> that has <P1082> ?p and such that the absolute value of (?p - 1000000) is the lowest.", {"Q1"}),
    ("Give me a <Q515> that has <P1082> ?p and such that the absolute value of (1000000 - ?p) is the lowest.", {"Q1"}),
    ("Give me a <Q515> that has <P1082> ?p and such that the absolute value of (?p - 1000000) is less than "
     "300000.", {"Q1"}),
])
def test_a_real_engine_computes_the_absolute_value(text, answers):
    pyoxigraph = pytest.importorskip("pyoxigraph")
    store = pyoxigraph.Store()
    store.load(_CITIES.encode(), format=pyoxigraph.RdfFormat.TURTLE)
    rows = list(store.query(cnl.compile(text)))
    assert {row[0].value.rsplit("/", 1)[-1] for row in rows} == answers


_NAMES = """
@prefix wd: <http://www.wikidata.org/entity/> . @prefix wdt: <http://www.wikidata.org/prop/direct/> .
wd:Q64 wdt:P31 wd:Q515 ; wdt:P1448 "Berlin"@de .
wd:Q90 wdt:P31 wd:Q515 ; wdt:P1448 "Paris"@fr .
wd:Q1 wdt:P31 wd:Q515 ; wdt:P1448 "Berlin" .
"""


@pytest.mark.parametrize("text, answers", [
    # the text whatever the language tag: both Berlins ("is equal to "Berlin"" alone: only the plain one)
    ('Give me a <Q515> that has <P1448> ?n and such that the text of ?n is equal to "Berlin".', {"Q64", "Q1"}),
    ('Give me a <Q515> that has <P1448> ?n and such that ?n is equal to "Berlin".', {"Q1"}),
])
def test_a_real_engine_compares_the_text_of_a_tagged_string(text, answers):
    pyoxigraph = pytest.importorskip("pyoxigraph")
    store = pyoxigraph.Store()
    store.load(_NAMES.encode(), format=pyoxigraph.RdfFormat.TURTLE)
    rows = list(store.query(cnl.compile(text)))
    assert {row[0].value.rsplit("/", 1)[-1] for row in rows} == answers
