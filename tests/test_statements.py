"""Wikidata statements the round trip used to refuse (issue 14, part A, item 6): each written
with a general CNL form, in paraphrases and notations, compiled, decompiled and compiled again."""
import pytest
from rdflib.plugins.sparql import prepareQuery

import cnl
from cnl.dialects.notation import for_notation
from cnl.dialects.squall.parser import parse_squall
from cnl.dialects.squall.printer import print_squall
from cnl.sparql.compiler import compile_query
from cnl.sparql.decompile import decompile_to_ir
from cnl.sparql.equivalence import equivalent
from cnl import ir


def _round_trip(sparql):
    query, options = decompile_to_ir(sparql)
    text = print_squall(query, "id", id_labels=False)
    return text, compile_query(parse_squall(text, notation="id"), "wikidata", None, **options)


# "at no <Q>": the statement has no such qualifier (a NOT EXISTS on the statement node).
ABSENT = [
    "Who has <P39> <Q4416090> at no <P582> at a <P768> that has <P131> <Q1581>?",
    "Who has <P39> <Q4416090> at a <P768> that has <P131> <Q1581> at no <P582>?",
    "Who is-<P39> <Q4416090> at no <P582>?",
    "What is a <P122> at no <P582> of <Q159>?",
    "Which <Q5> has a <P39> that is <Q11696> at no <P582> that is later than 2000?",
]


@pytest.mark.parametrize("text", ABSENT)
def test_absent_qualifier_is_said_of_the_statement(text):
    sparql = cnl.compile(text)
    prepareQuery(sparql)
    assert "FILTER NOT EXISTS {\n    ?statement pq:P582 ?end_time ." in sparql
    printed, back = _round_trip(sparql)
    assert equivalent(back, sparql), (printed, back)


@pytest.mark.parametrize("text", ABSENT)
@pytest.mark.parametrize("notation", ["id", "ecai", "label"])
def test_absent_qualifier_prints_and_reads_back(text, notation):
    query = ir.map_terms(parse_squall(text), lambda t: type(t)(t.id, f"l {t.id}"))
    printed = print_squall(query, notation)
    assert parse_squall(printed, notation=notation) == for_notation(query, notation)


def test_absent_qualifier_paraphrases():
    a = cnl.compile("Who has <P39> <Q4416090> at no <P582>?")
    b = cnl.compile("Who is-<P39> <Q4416090> at no <P582>?")
    c = cnl.compile("Who has <P39:position_held> <Q4416090:senator> at no <P582:end_time>?")
    assert equivalent(a, b) and equivalent(a, c)


@pytest.mark.parametrize("sparql", [
    # WikiWebQuestions WebQTrn-103 ("current senators from missouri"), QALD-9-plus 382
    "SELECT DISTINCT ?x WHERE { ?x p:P39 ?p. ?p ps:P39 wd:Q4416090. ?p pq:P768 ?y. ?y wdt:P131 wd:Q1581. "
    "FILTER NOT EXISTS { ?p pq:P582 ?z. } }",
    "SELECT DISTINCT ?uri WHERE { wd:Q159 p:P122 ?q . ?q ps:P122 ?uri . FILTER NOT EXISTS { ?q pq:P582 ?x } }",
    "SELECT ?x WHERE { ?x p:P39 ?s . ?s ps:P39 wd:Q1 . FILTER NOT EXISTS { ?s pq:P582 ?e . ?e wdt:P31 wd:Q2 } }",
])
def test_absent_qualifier_decompiles(sparql):
    printed, back = _round_trip(sparql)
    assert "at no <P582>" in printed
    assert equivalent(back, sparql), (printed, back)


def test_a_statement_node_used_otherwise_is_still_refused():
    from cnl.errors import UnsupportedSPARQLError

    with pytest.raises(UnsupportedSPARQLError) as err:
        decompile_to_ir("SELECT ?x WHERE { ?x p:P39 ?s . ?s ps:P39 wd:Q1 . FILTER(?s != wd:Q2) }")
    assert err.value.construct == "a statement node used outside p:/ps:/pq:"
