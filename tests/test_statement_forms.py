"""Wikidata statement forms beside the truthy shortcut (issue 14, item 6): a statement said
without its value (``has a <P> statement``: ``p:P`` without ``ps:P``) and a statement of any
rank (``at any rank``: ``p:P/ps:P`` where the profile writes ``wdt:P``). Each in paraphrases
and notations, printed and parsed back, compiled, decompiled and compiled again."""
import pytest

import cnl
from cnl import ir
from cnl.dialects import get_dialect
from cnl.dialects.notation import for_notation
from cnl.dialects.squall.parser import parse_squall
from cnl.dialects.squall.printer import print_squall
from cnl.errors import CNLSyntaxError, CompileError, UnsupportedSPARQLError
from cnl.sparql.compiler import compile_query
from cnl.sparql.decompile import check_says, decompile_to_ir
from cnl.sparql.equivalence import equivalent
from tests.roundtrip_helpers import PREFIXES, check_paraphrases, round_trip as _round_trip


class Lexicon:
    """Labels of the label notation -> IDs."""

    IDS = {"educated at": "P69", "academic major": "P812", "Barack Obama": "Q76", "inception": "P571",
           "start time": "P580", "cast member": "P161", "part of the series": "P179", "film": "Q11424",
           "Scarlett Johansson": "Q34436", "residence": "P551", "country": "P17", "Charles Dickens": "Q5686",
           "Marvel Cinematic Universe": "Q642878", "position held": "P39", "end time": "P582",
           "publication date": "P577"}

    def resolve(self, label, kind, span=None):
        return self.IDS[label]


def _labelled(query):
    return ir.map_terms(query, lambda t: type(t)(t.id, f"l {t.id}"))


# ---------------------------------------------------------------- a statement without its value

UNSAID = [
    # the same question, paraphrased and in the notations
    (["At which <P812> does <Q76> have a <P69> statement?",
      "At which <P812> did <Q76> have a <P69> statement?",
      "At which <academic major> does [Barack Obama] have a <educated at> statement?",
      "At which <P812:academic_major> does <Barack_Obama> have an <P69:educated_at> statement?"],
     "SELECT DISTINCT ?x WHERE { wd:Q76 p:P69 ?y . ?y pq:P812 ?x . }"),
    (["Who has a <P571> statement at <P4649> <Q1439096>?",
      "What has a <P571> statement at <P4649> <Q1439096>?",
      "Who has an <inception> statement at <P4649> <Q1439096>?"],
     "SELECT DISTINCT ?x WHERE { ?x p:P571 [ pq:P4649 wd:Q1439096 ] . }"),
    (["Who has <P179> <Q642878> and has a <P571> statement at the lowest <P580>?",
      "Who has <part of the series> [Marvel Cinematic Universe] and has a <inception> statement at the lowest "
      "<start time>?"],
     "SELECT DISTINCT ?x WHERE { ?x wdt:P179 wd:Q642878; p:P571 ?p. ?p pq:P580 ?y. } ORDER BY ?y LIMIT 1"),
]


@pytest.mark.parametrize("texts,sparql", UNSAID)
def test_statement_without_value_paraphrases(texts, sparql):
    for text, c in zip(texts, check_paraphrases(texts, sparql, Lexicon(), " statement")):
        assert "ps:" not in c, (text, c)
        assert any(isinstance(n, ir.AnyValue) for n in ir.walk(parse_squall(text))), text


@pytest.mark.parametrize("sparql", [
    # WikiWebQuestions WebQTrn-353, -1298 and QALD-9-plus 74, 175, 388 as written
    "SELECT DISTINCT ?x WHERE { wd:Q76 p:P69 ?y. ?y pq:P812 ?x. }",
    "SELECT DISTINCT ?x WHERE { wd:Q170581 p:P39 ?p. ?p pq:P580 ?z; pq:P768 ?x. } ORDER BY DESC (?z) LIMIT 1",
    "SELECT DISTINCT ?uri WHERE { ?uri wdt:P39 wd:Q473984 . ?uri p:P39 ?statement . ?statement pq:P580 ?startDate ;"
    " pq:P582 ?endDate . FILTER(YEAR(?startDate) <= 1978 && YEAR(?endDate) >= 1978) . }",
    "SELECT ?res WHERE { ?res wdt:P175 wd:Q483407 . ?res p:P1433 _:a ._:a pq:P2868 wd:Q13432985 . }",
    "SELECT DISTINCT ?date WHERE { wd:Q76334 p:P106/pq:P582 ?date }",
    "SELECT ?x WHERE { ?x p:P69 ?s . FILTER NOT EXISTS { ?s pq:P582 ?e } }",
    "ASK WHERE { wd:Q76 p:P69 ?s }",
])
def test_statement_without_value_decompiles(sparql):
    printed, back = _round_trip(PREFIXES + sparql)
    assert "statement" in printed
    assert equivalent(back, PREFIXES + sparql, distinct=True), (printed, back)


@pytest.mark.parametrize("text", [t for texts, _ in UNSAID for t in texts[:2]] + [
    "Has <Q76> a <P69> statement?",
    "Which <Q5> has not a <P69> statement at a <P812>?",
    "Which <Q5> has a <P39> statement at no <P582> at <P768> <Q1>?",
    "At how many <P812> does <Q76> have a <P69> statement?",
])
@pytest.mark.parametrize("notation", ["id", "ecai", "label"])
def test_statement_without_value_prints_and_reads_back(text, notation):
    query = _labelled(parse_squall(text))
    printed = print_squall(query, notation)
    assert parse_squall(printed, notation=notation) == for_notation(query, notation)
    assert equivalent(cnl.compile(text, lexicon=Lexicon()),
                      cnl.compile(print_squall(parse_squall(text), "id"), lexicon=Lexicon()), distinct=True)


def test_statement_without_value_is_refused_where_it_means_nothing():
    with pytest.raises(CNLSyntaxError):
        parse_squall("Who has the <P69> statement?")
    for query in (ir.Query(ir.Quant("which"), ir.Stmt(ir.Property("P69"), ir.AnyValue(), inverse=True)),
                  ir.Query(ir.Quant("which"), ir.Be(ir.AnyValue())),
                  ir.Query(ir.Quant("which"), ir.Stmt(ir.PropPath("+", (ir.Property("P69"),)), ir.AnyValue()))):
        with pytest.raises(CompileError):
            compile_query(query)
    with pytest.raises(CompileError):  # plain RDF has no statements
        compile_query(parse_squall("Who has a <P69> statement?"), "rdf")
    with pytest.raises(UnsupportedSPARQLError) as err:
        decompile_to_ir(PREFIXES + "SELECT ?x WHERE { ?x p:P69 ?s . ?s ps:P69 ?a ; ps:P69 ?b }")
    assert err.value.construct == "a statement with several ps: values or one of another property"
    with pytest.raises(UnsupportedSPARQLError) as err:
        decompile_to_ir(PREFIXES + "SELECT ?s WHERE { wd:Q1 p:P570 ?s }")  # the statement node is the answer
    assert err.value.construct == "a statement node used outside p:/ps:/pq:"


# ---------------------------------------------------------------- a statement of any rank

ANY_RANK = [
    (["Which <Q11424> has <P179> <Q642878> and has <P161> <Q34436> at any rank?",
      "Which <Q11424> has <P179> <Q642878> and is-<P161> <Q34436> at any rank?",
      "Which <Q11424> <P161> <Q34436> at any rank and has <P179> <Q642878>?",
      "Which [film] has <part of the series> [Marvel Cinematic Universe] and has <cast member> "
      "[Scarlett Johansson] at any rank?"],
     "SELECT DISTINCT ?x WHERE { ?x wdt:P31 wd:Q11424 ; wdt:P179 wd:Q642878 ; p:P161 ?s . ?s ps:P161 wd:Q34436 . }"),
    (["What is a <P17> of a <P551> at any rank of <Q5686>?",
      "What is the <P17> of the <P551> at any rank of <Q5686>?",
      "What is a <country> of a <residence> at any rank of [Charles Dickens]?"],
     "SELECT DISTINCT ?x WHERE { wd:Q5686 p:P551 ?p. ?p ps:P551 ?y. ?y wdt:P17 ?x. }"),
]


@pytest.mark.parametrize("texts,sparql", ANY_RANK)
def test_any_rank_paraphrases(texts, sparql):
    for text, c in zip(texts, check_paraphrases(texts, sparql, Lexicon(), "at any rank")):
        assert "ps:" in c and "wdt:" in c, (text, c)


@pytest.mark.parametrize("sparql", [
    # WikiWebQuestions WebQTrn-214, -771, -1385, -2283 as written
    "SELECT DISTINCT ?x WHERE { ?p wdt:P179 wd:Q2438494; wdt:P577 ?x; p:P161 ?y. ?y ps:P161 wd:Q40715. }",
    "SELECT DISTINCT ?x WHERE { ?x p:P161 ?p. ?p ps:P161 wd:Q297334. ?x wdt:P577 ?y. } ORDER BY ?y LIMIT 1",
    "SELECT DISTINCT ?x WHERE { wd:Q257808 p:P3373 ?p. ?p ps:P3373 ?x. ?x wdt:P21 wd:Q6581097. }",
    "SELECT DISTINCT ?x WHERE { wd:Q4496 p:P39 ?p. ?p ps:P39 ?y. ?y wdt:P279 wd:Q889821; wdt:P1001 ?x. }",
    "SELECT ?x WHERE { ?x wdt:P27 wd:Q30 . { ?x p:P106 [ ps:P106 wd:Q33999 ] } UNION { ?x p:P106 [ ps:P106 wd:Q1 ] } }",
    "SELECT ?x WHERE { ?x wdt:P27 wd:Q30 . ?x p:P22|p:P25 [ ps:P22|ps:P25 wd:Q1 ] }",
])
def test_any_rank_decompiles(sparql):
    printed, back = _round_trip(PREFIXES + sparql)
    assert "at any rank" in printed
    assert equivalent(back, PREFIXES + sparql, distinct=True), (printed, back)


def test_statements_written_one_way_carry_no_rank():
    # every statement p:/ps: (the ECAI golds' form): the "always" profile, no mark
    query, options = decompile_to_ir(PREFIXES + "SELECT ?x WHERE { ?x p:P161 [ ps:P161 wd:Q1 ] ; p:P179 [ ps:P179 ?y ] }")
    assert options["statements"] == "always"
    assert not any(getattr(n, "any_rank", False) for n in ir.walk(query))


@pytest.mark.parametrize("text", [t for texts, _ in ANY_RANK for t in texts[:3]] + [
    "Which <Q5> has a <P39> that has <P279> <Q1> at any rank?",
    "Which <Q5> has <P39> (a <Q1> that has <P17> <Q30>) at <P580> 2000 at any rank?",
    "Who is a <P22> or <P25> at any rank of <Q1>?",
    "Give me the average <P2047> at any rank of the <Q11424>-s.",
    "Has <Q76> <P39> <Q11696> at any rank?",
    "Which <Q5> has not <P106> <Q33999> at any rank?",
    "At which <P580> does <Q76> <P39> <Q11696> at any rank?",
])
@pytest.mark.parametrize("notation", ["id", "ecai", "label"])
def test_any_rank_prints_and_reads_back(text, notation):
    query = _labelled(parse_squall(text))
    assert any(getattr(n, "any_rank", False) for n in ir.walk(query)), text
    printed = print_squall(query, notation)
    assert parse_squall(printed, notation=notation) == for_notation(query, notation)


def test_any_rank_is_refused_where_it_means_nothing():
    with pytest.raises(CNLSyntaxError):
        parse_squall("Which <Q5> has a <P570> later than its <P569> at any rank?")
    with pytest.raises(CompileError):  # a path walks the truthy graph
        cnl.compile("Which <Q5> has <P131>+ <Q1> at any rank?")
    with pytest.raises(CompileError):  # plain RDF has no ranks
        compile_query(parse_squall("Which <Q5> has <P131> <Q1> at any rank?"), "rdf")


def test_sparklis_refuses_both_by_name():
    sparklis = get_dialect("sparklis")
    for text in ("Who has a <P571> statement at <P4649> <Q1439096>?",
                 "Which <Q11424> has <P161> <Q34436> at any rank?"):
        with pytest.raises(UnsupportedSPARQLError) as err:
            check_says(sparklis, parse_squall(text), {})
        assert "in Sparklis" in err.value.construct


# ---------------------------------------------------------------- rdfs:label, the pseudo-property "label"

@pytest.mark.parametrize("texts,sparql", [
    (["Has a <Q7889> <label> \"Battle Chess\"@en?", "Does a <Q7889> have <label> \"Battle Chess\"@en?",
      "Has a [video game] <label> \"Battle Chess\"@en?"],
     # QALD-9-plus 358 as written
     "ASK WHERE { ?uri <http://www.wikidata.org/prop/direct/P31> <http://www.wikidata.org/entity/Q7889> . "
     "?uri <http://www.w3.org/2000/01/rdf-schema#label> \"Battle Chess\"@en }"),
    (["Which <P57> of <Q47075> has a <label>?", "Which <P57:director> of <Q47075> has a <label>?",
      "Which <director> of [Scarface] has a <label>?"],
     # the ECAI gold train#121: the directors and their labels
     "SELECT DISTINCT ?d ?label WHERE { wd:Q47075 p:P57 [ ps:P57 ?d ] . ?d rdfs:label ?label . }"),
])
def test_label_predicate_decompiles(texts, sparql):
    lexicon = {"video game": "Q7889", "director": "P57", "Scarface": "Q47075"}  # "label" is no property there
    source = PREFIXES + "PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#> " + sparql
    query, options = decompile_to_ir(source)
    printed, back = _round_trip(source)
    assert "<label>" in printed
    assert equivalent(back, source, distinct=True), (printed, back)
    compiled = [cnl.compile(t, lexicon=lexicon, **options) for t in texts]
    assert all(equivalent(c, back, distinct=True) for c in compiled), compiled
    for notation in ("id", "ecai", "label"):
        labelled = _labelled(query)
        assert parse_squall(print_squall(labelled, notation), notation=notation) == for_notation(labelled, notation)
