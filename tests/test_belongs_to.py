"""Ferré's "belongs to" (``ir.BelongsTo``): class membership with the class a term of the query,
as in "What species is Chewbacca?" = ``Which <fictional extraterrestrial species> does <Chewbacca>
belong to?`` (a form of the ECAI data's writers that the grammar refused). Each canonical form in
the three notations compiles to the hand-written query, prints back as written, and answers on a
real store; Ferré's own word order ("To which <C> X belongs?") is in tests/test_writer_forms.py."""
import pyoxigraph
import pytest

import cnl
from cnl import ir
from cnl.dialects.notation import detect_notation
from cnl.dialects.squall.parser import parse_squall
from cnl.dialects.squall.printer import print_squall
from cnl.errors import CNLError
from cnl.sparql.equivalence import equivalent
from tests.roundtrip_helpers import PREFIXES

LEXICON = {"polyphyletic common name": "Q55983715", "Barack Obama": "Q76", "Michelle Obama": "Q13133",
           "human": "Q5", "spouse": "P26", "Queen": "Q15862", "rock band": "Q5741069", "film": "Q11424"}

CANONICAL = [
    # the class asked, fronted
    (("Which <Q55983715> does <Q76> belong to?",
      "Which [polyphyletic common name] does [Barack Obama] belong to?",
      "Which <polyphyletic_common_name> does <Barack_Obama> belong to?"),
     "SELECT DISTINCT ?c WHERE { ?c wdt:P31 wd:Q55983715 . wd:Q76 wdt:P31 ?c . }"),
    (("How many <Q55983715> does <Q13133> belong to?",
      "How many [polyphyletic common name] does [Michelle Obama] belong to?",
      "How many <polyphyletic_common_name> does <Michelle_Obama> belong to?"),
     "SELECT (COUNT(DISTINCT ?c) AS ?n) WHERE { ?c wdt:P31 wd:Q55983715 . wd:Q13133 wdt:P31 ?c . }"),
    # in a relative clause
    (("Give me every <Q55983715> that <Q13133> belongs to.",
      "Give me every [polyphyletic common name] that [Michelle Obama] belongs to.",
      "Give me every <polyphyletic_common_name> that <Michelle_Obama> belongs to."),
     "SELECT DISTINCT ?c WHERE { ?c wdt:P31 wd:Q55983715 . wd:Q13133 wdt:P31 ?c . }"),
    # the member checked or asked
    (("Does <Q15862> belong to <Q5741069>?", "Does [Queen] belong to [rock band]?",
      "Does <Queen> belong to <rock_band>?"),
     "ASK { wd:Q15862 wdt:P31 wd:Q5741069 . }"),
    (("Which <Q5> has <P26> <Q13133> and belongs to a <Q55983715> that <Q13133> belongs to?",
      "Which [human] has <spouse> [Michelle Obama] and belongs to a [polyphyletic common name] that "
      "[Michelle Obama] belongs to?",
      "Which <human> has <P26:spouse> <Michelle_Obama> and belongs to a <polyphyletic_common_name> that "
      "<Michelle_Obama> belongs to?"),
     "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 ; wdt:P26 wd:Q13133 . ?c wdt:P31 wd:Q55983715 . "
     "wd:Q13133 wdt:P31 ?c . ?h wdt:P31 ?c . }"),
    (("Which <Q5> does not belong to <Q11424>?", "Which [human] does not belong to [film]?",
      "Which <human> does not belong to <film>?"),
     "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 . FILTER NOT EXISTS { ?h wdt:P31 wd:Q11424 . } }"),
]


@pytest.mark.parametrize("texts,sparql", CANONICAL, ids=[t[0][0] for t in CANONICAL])
def test_each_notation_compiles_to_the_hand_written_query_and_prints_back(texts, sparql):
    assert {detect_notation(t) for t in texts} == {"id", "label", "ecai"}
    for text in texts:
        compiled = cnl.compile(text, lexicon=LEXICON)
        assert equivalent(compiled, PREFIXES + sparql, distinct=True), (text, compiled)
        query = parse_squall(text)
        assert print_squall(query, detect_notation(text), id_labels=False) == text
    assert any(isinstance(n, ir.BelongsTo) for n in ir.walk(parse_squall(texts[0])))


def _store():
    wd, wdt = "http://www.wikidata.org/entity/", "http://www.wikidata.org/prop/direct/"
    store = pyoxigraph.Store()
    # Chewbacca is a Wookiee, a fictional extraterrestrial species; Yoda's species is unnamed
    for s, p, o in [("Q1", "P31", "Q10"), ("Q10", "P31", "Q100"), ("Q2", "P31", "Q5"), ("Q11", "P31", "Q100")]:
        store.add(pyoxigraph.Quad(pyoxigraph.NamedNode(wd + s), pyoxigraph.NamedNode(wdt + p),
                                  pyoxigraph.NamedNode(wd + o)))
    return store


def test_the_class_of_an_item_on_a_real_store():
    store = _store()
    rows = store.query(cnl.compile("Which <Q100> does <Q1> belong to?"))
    assert [row[0].value.rsplit("/", 1)[-1] for row in rows] == ["Q10"]
    assert bool(store.query(cnl.compile("Does <Q1> belong to a <Q100>?")))
    assert not bool(store.query(cnl.compile("Does <Q2> belong to a <Q100>?")))


def test_a_plain_rdf_graph_tests_rdf_type():
    sparql = cnl.compile("Which <Animal> does <Rex> belong to?", kg="rdf",
                         lexicon={"Animal": "http://example.org/Animal", "Rex": "http://example.org/Rex"})
    assert "<http://example.org/Rex> rdf:type ?" in sparql or "<http://example.org/Rex> a ?" in sparql, sparql


def test_a_sentence_about_belonging_needs_the_preposition():
    with pytest.raises(CNLError):
        parse_squall("Which <Q5> belongs <Q2>?")


def test_sparklis_names_the_construct_it_cannot_say():
    with pytest.raises(CNLError, match="belongs to"):
        cnl.to_cnl(parse_squall("Which <Q100> does <Q1> belong to?"), "id", dialect="sparklis")


def test_the_ir_survives_its_json_form():
    for text, _ in CANONICAL:
        query = parse_squall(text[0])
        assert ir.from_json(ir.to_json(query)) == query
