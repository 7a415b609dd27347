"""Answers a person reads, and empty answers explained (issue 32).

Labels wherever the KG has one (the Seine, not ``wd:Q1471``), IDs only as a fallback or beside a
label naming several items; dates as dates and quantities as numbers, in ``run``, ``query`` and
the JSON (which keeps the machine-readable IDs and values). An empty answer says what can be
known: which fact of the query the KG lacks, whether the other direction exists, what the item
has instead, which parts match alone but not together."""
from __future__ import annotations

import json
import re

import pytest

from cnl.cli import main
from cnl.kg.results import XSD, ResultTable, Term, readable_literal
from tests.kg_fixtures import store_from_ttl

TTL = """\
@prefix wd: <http://www.wikidata.org/entity/> .
@prefix wdt: <http://www.wikidata.org/prop/direct/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
@prefix geo: <http://www.opengis.net/ont/geosparql#> .
@prefix wikibase: <http://wikiba.se/ontology#> .
wd:Q1471 rdfs:label "Seine"@en ; wdt:P31 wd:Q4022 ; wdt:P131 wd:Q90 .
wd:Q4022 rdfs:label "river"@en .
wd:Q90 rdfs:label "Paris"@en ; wdt:P1082 "+2145906"^^xsd:decimal ; wdt:P625 "Point(2.352222 48.856667)"^^geo:wktLiteral ;
    wdt:P206 wd:Q1471 ; wdt:P31 wd:Q515 .
wd:Q515 rdfs:label "city"@en .
wd:Q25191 rdfs:label "Christopher Nolan"@en ; wdt:P569 "1970-07-30T00:00:00Z"^^xsd:dateTime ; wdt:P31 wd:Q5 .
wd:Q5 rdfs:label "human"@en .
wd:Q25188 rdfs:label "Inception"@en ; wdt:P57 wd:Q25191 ; wdt:P31 wd:Q11424 ; wdt:P136 wd:Q471839 .
wd:Q11424 rdfs:label "film"@en .
wd:Q471839 rdfs:label "science fiction film"@en .
wd:Q2283 rdfs:label "Microsoft"@en ; wdt:P112 wd:Q5284 .
wd:Q5284 rdfs:label "Bill Gates"@en .
wd:Q5398426 rdfs:label "television series"@en .
wd:Q1 rdfs:label "Lost"@en ; wdt:P31 wd:Q5398426 .
wd:Q200 rdfs:label "Paris"@en .
wd:P57 rdfs:label "director"@en ; wikibase:propertyType wikibase:WikibaseItem .
wd:P112 rdfs:label "founded by"@en ; wikibase:propertyType wikibase:WikibaseItem .
"""


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    return str(store_from_ttl(TTL, tmp_path_factory.mktemp("answers")))


@pytest.mark.parametrize("value,datatype,shown", [
    ("+2145906", "decimal", "2,145,906"), ("+0.023", "decimal", "0.023"), ("+1000", "decimal", "1,000"),
    ("1984", "integer", "1984"), ("123456", "integer", "123,456"), ("1.5E3", "double", "1,500"),
    ("1970-07-30T00:00:00Z", "dateTime", "1970-07-30"), ("2010-07-16T10:30:00Z", "dateTime", "2010-07-16 10:30:00"),
    ("not a number", "decimal", "not a number"),
])
def test_literals_read_as_dates_and_numbers(value, datatype, shown):
    assert readable_literal(Term("literal", value, None, XSD + datatype)) == shown


def test_a_point_reads_as_latitude_and_longitude():
    point = Term("literal", "Point(2.352222 48.856667)", None, "http://www.opengis.net/ont/geosparql#wktLiteral")
    assert readable_literal(point) == "48.8567°N, 2.35222°E"


def test_a_label_naming_two_items_keeps_their_ids():
    a, b, c = (Term("iri", f"http://www.wikidata.org/entity/Q{n}") for n in (90, 200, 1471))
    table = ResultTable(["place"], [(a,), (b,), (c,)], labels={a.value: "Paris", b.value: "Paris", c.value: "Seine"})
    text = table.to_text()
    assert "Paris (wd:Q90)" in text and "Paris (wd:Q200)" in text and "Seine\n" in text and "wd:Q1471" not in text


def test_run_and_query_print_labels_dates_and_numbers(store, capsys):
    assert main(["run", "What is the <P206> of <Q90>?", "--store", store]) == 0
    out = capsys.readouterr().out
    assert "Seine" in out and "wd:Q1471" not in out
    assert main(["query", "SELECT ?born ?population ?where WHERE { wd:Q25191 wdt:P569 ?born . "
                 "wd:Q90 wdt:P1082 ?population ; wdt:P625 ?where }", "--store", store]) == 0
    out = capsys.readouterr().out
    assert "1970-07-30 " in out and "T00:00:00Z" not in out and "2,145,906" in out and "48.8567°N" in out
    assert main(["query", "SELECT ?born ?river WHERE { wd:Q25191 wdt:P569 ?born . wd:Q90 wdt:P206 ?river }",
                 "--store", store, "--format", "json"]) == 0
    binding = json.loads(capsys.readouterr().out)["results"]["bindings"][0]
    assert binding["born"]["value"] == "1970-07-30T00:00:00Z" and binding["born"]["label"] == "1970-07-30"
    assert binding["river"]["value"] == "http://www.wikidata.org/entity/Q1471" and binding["river"]["label"] == "Seine"


def test_a_missing_fact_and_the_other_direction_are_named(store, capsys):
    """The issue's reversed question: "What has <founded by> [Microsoft]?"."""
    assert main(["run", "What has <P112> <Q2283>?", "--store", store]) == 0
    captured = capsys.readouterr()
    assert "(0 rows)" in captured.out
    assert "why: nothing has <founded by> Microsoft (Q2283) in this knowledge graph" in captured.err
    assert "the other way round, Microsoft (Q2283) has <founded by> Bill Gates (Q5284)" in captured.err
    assert "reversed" in captured.err
    assert main(["run", "What is the <P57> of <Q25191>?", "--store", store]) == 0
    err = capsys.readouterr().err
    assert "Christopher Nolan (Q25191) has no <director>" in err
    assert "the other way round, Inception (Q25188) has <director> Christopher Nolan (Q25191)" in err
    # no other direction either: what the known item has (a near property may have been meant)
    assert main(["run", "What has <P57> <Q90>?", "--store", store]) == 0
    err = capsys.readouterr().err
    assert "nothing has <director> Paris (Q90)" in err and "Paris (Q90) has, in this knowledge graph:" in err


def test_an_item_without_the_property_lists_what_it_has(store, capsys):
    assert main(["run", "What is the <P2142> of <Q25188>?", "--store", store]) == 0
    err = capsys.readouterr().err
    assert "Inception (Q25188) has no <box office> in this knowledge graph" in err
    assert "Inception (Q25188) has, in this knowledge graph:" in err and "director" in err and "genre" in err


def test_parts_that_match_alone_but_not_together_are_named(store, capsys):
    assert main(["run", "Which <Q5398426> has <P57> <Q25191>?", "--store", store]) == 0
    err = capsys.readouterr().err
    assert "items that are an instance of television series (Q5398426) exist" in err and "Lost (Q1)" in err
    assert "none of them has <director> Christopher Nolan (Q25191)" in err
    assert main(["run", "Which <Q11424> has <P57> <Q25191> and has a <P577> earlier than 2000?", "--store", store]) == 0
    err = capsys.readouterr().err
    assert "none of them has <publication date>" in err and "Inception (Q25188)" in err


def test_conditions_that_leave_nothing_are_said(store, capsys):
    assert main(["run", "Which <Q5> has a <P569> earlier than 1900?", "--store", store]) == 0
    assert "conditions" in capsys.readouterr().err
    assert main(["run", "Which <Q5> has a <P569> earlier than 1900?", "--store", store, "--no-explain"]) == 0
    assert "why:" not in capsys.readouterr().err


def test_the_explanation_is_a_function_of_the_query_and_the_kg(store):
    import cnl
    from cnl.kg import open_kg
    from cnl.kg.explain import explain_empty

    with open_kg(store=store) as kg:
        findings = explain_empty(cnl.compile("What is the <P57> of <Q25191>?"), kg)
        assert [f.kind for f in findings] == ["missing", "reversed"]
        assert findings[1].to_json()["pattern"].startswith("?v <http://www.wikidata.org/prop/direct/P57>")
        assert explain_empty("not SPARQL", kg) == []


# -- column names ------------------------------------------------------------------------------

def test_columns_are_named_after_the_noun_or_the_property_never_cut_nor_x(store):
    import cnl

    long = cnl.compile("What is the <P131:located_in_the_administrative_territorial_entity> of <Q1471>?")
    assert "SELECT DISTINCT ?located_in_the_administrative_territorial_entity WHERE" in long
    assert "SELECT DISTINCT ?director WHERE" in cnl.compile("What is the <P57> of <Q25188>?")  # by its name
    assert "SELECT DISTINCT ?answer WHERE" in cnl.compile("What has <P57> <Q25191>?")         # nothing names it
    assert "SELECT DISTINCT ?film WHERE" in cnl.compile("Which <Q11424> has <P57> <Q25191>?", store=store)
    very_long = cnl.compile("What is the <P9999:" + "_".join(["word"] * 30) + "> of <Q1471>?")
    name = re.search(r"SELECT DISTINCT \?(\w+)", very_long).group(1)
    assert len(name) <= 64 and name.endswith("word") and set(name.split("_")) == {"word"}  # cut at a word's end


@pytest.mark.parametrize("question,header", [
    ("Which company was founded by Bill Gates?", "company"), ("What football club did Messi play for?", "football club"),
    ("Who founded Microsoft?", "who"), ("What is the capital of France?", None), ("Where was Obama born?", None),
])
def test_ask_heads_a_column_nothing_named_by_the_question(question, header):
    from cnl.cli.cmd_translate import question_headers

    assert question_headers(question).get("answer") == header


def test_a_column_header_reads_in_words(store, capsys):
    assert main(["run", "What is the <P131:located_in_the_administrative_territorial_entity> of <Q1471>?",
                 "--store", store]) == 0
    assert capsys.readouterr().out.startswith("located in the administrative territorial entity\n")
