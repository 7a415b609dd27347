"""SPARQL's SAMPLE and GROUP_CONCAT (issue 29), Ferré's aggregation nouns: ``a sample <P40> of <Q76>``
(one of the values, any) and ``the concatenation of NP separated by ", "`` (the values' strings joined;
a space unless said). Each form in two paraphrases of our own, in the three notations: compiled and
asserted equivalent to hand-written SPARQL, read back as itself, the hand-written SPARQL decompiled to
an equivalent text; and run on a real store."""
import pytest

import cnl
from cnl.dialects.squall.parser import parse_squall
from cnl.dialects.squall.printer import print_squall
from cnl.errors import PrintError
from cnl.sparql.compiler import compile_query
from cnl.sparql.decompile import decompile_to_ir
from cnl.sparql.equivalence import equivalent
from tests.test_sparql_forms import IDS, PREFIXES, Form, Lexicon, form_tests

IDS.update({"birth name": "P1477", "film": "Q11424", "director": "P57", "Germany": "Q183",
            "country of citizenship": "P27"})

FORMS = [
    Form("a sample (SAMPLE)",
         ("Give me a sample <P40> of <Q76>.",
          "Give me a sample <child> of [Barack Obama].",
          "Give me a sample <P40:child> of <Barack_Obama>."),
         "SELECT (SAMPLE(?c) AS ?s) WHERE { wd:Q76 wdt:P40 ?c . }"),
    Form("a sample (SAMPLE)",
         ("What is a sample of (a <Q5> that has <P27> <Q183>)?",
          "What is a sample of (a [human] that has <country of citizenship> [Germany])?",
          "What is a sample of (a <human> that has <P27:country_of_citizenship> <Germany>)?"),
         "SELECT (SAMPLE(?h) AS ?s) WHERE { ?h wdt:P31 wd:Q5 ; wdt:P27 wd:Q183 . }"),
    Form("a concatenation (GROUP_CONCAT)",
         ('Give me the concatenation of (the <P1477> of the <P40> of <Q76>) separated by ", ".',
          'Give me the concatenation of (the <birth name> of the <child> of [Barack Obama]) separated by ", ".',
          'Give me the concatenation of (the <P1477:birth_name> of the <P40:child> of <Barack_Obama>) separated '
          'by ", ".'),
         'SELECT (GROUP_CONCAT(?n; separator=", ") AS ?ns) WHERE { wd:Q76 wdt:P40 ?c . ?c wdt:P1477 ?n . }'),
    Form("a concatenation (GROUP_CONCAT)",
         ("Give me the concatenation of the <P1477> of the <Q11424>-s per <P57>.",
          "Give me the concatenation of the <birth name> of the [film]-s per <director>.",
          "Give me the concatenation of the <P1477:birth_name> of the <film>-s per <P57:director>."),
         "SELECT ?d (GROUP_CONCAT(?n) AS ?ns) WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P57 ?d ; wdt:P1477 ?n . } "
         "GROUP BY ?d"),
]

(test_each_text_compiles_to_the_hand_written_query, test_each_text_reads_back_as_itself,
 test_the_hand_written_query_decompiles_to_an_equivalent_text, test_every_form_has_two_paraphrases) = form_tests(FORMS)


@pytest.mark.parametrize("sparql", [
    "SELECT (SAMPLE(DISTINCT ?c) AS ?s) WHERE { wd:Q76 wdt:P40 ?c . }",  # DISTINCT changes no sample
    'SELECT (GROUP_CONCAT(?l; separator="; ") AS ?ls) WHERE { wd:Q64 rdfs:label ?l . FILTER(LANG(?l) = "en") }',
    "SELECT ?c (SAMPLE(?x) AS ?s) WHERE { ?x wdt:P31 wd:Q515 ; wdt:P17 ?c . } GROUP BY ?c",
])
def test_hand_written_samples_and_concatenations_decompile(sparql):
    query, options = decompile_to_ir(PREFIXES + sparql)
    assert equivalent(compile_query(query, "wikidata", None, **options), PREFIXES + sparql, distinct=True)


def test_a_separator_keeps_its_quotes_and_a_line_break_is_refused():
    query = parse_squall('Give me the concatenation of (the <P1477> of <Q76>) separated by "\\", \\"".')
    assert query.subject.separator == '", "'
    assert parse_squall(print_squall(query, "id", id_labels=False)) == query
    assert 'separator="\\", \\""' in cnl.compile(query)
    with pytest.raises(PrintError, match="line break"):
        print_squall(type(query)(type(query.subject)("group_concat", query.subject.np, "\n")), "id")


def test_sample_and_concatenation_on_a_real_store():
    import pyoxigraph
    store = pyoxigraph.Store()
    wd, wdt = "http://www.wikidata.org/entity/", "http://www.wikidata.org/prop/direct/"
    for child, name in (("Q1", "Ann"), ("Q2", "Bob")):
        store.add(pyoxigraph.Quad(pyoxigraph.NamedNode(wd + "Q76"), pyoxigraph.NamedNode(wdt + "P40"),
                                  pyoxigraph.NamedNode(wd + child)))
        store.add(pyoxigraph.Quad(pyoxigraph.NamedNode(wd + child), pyoxigraph.NamedNode(wdt + "P1477"),
                                  pyoxigraph.Literal(name)))
    (row,) = list(store.query(cnl.compile("Give me a sample <P40> of <Q76>.")))
    assert row[0].value.rsplit("/", 1)[-1] in {"Q1", "Q2"}
    (row,) = list(store.query(cnl.compile(
        'Give me the concatenation of (the <P1477> of the <P40> of <Q76>) separated by " & ".')))
    assert sorted(row[0].value.split(" & ")) == ["Ann", "Bob"]
