"""One rule for labels (issue 32): every command and API call given a knowledge graph resolves
``[Label]`` and ``<label>`` through it — ``compile --store/--endpoint``, ``run``,
``cnl.compile(..., store=...)`` — after the user's lexicon; an ambiguous or unknown label stays a
clear error naming the candidates or the closest labels."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import cnl
from cnl.cli import main
from cnl.errors import LexiconError
from tests.kg_fixtures import store_from_ttl

ROOT = Path(__file__).resolve().parents[1]
FILMS = ROOT / "examples" / "films"

TTL = """\
@prefix wd: <http://www.wikidata.org/entity/> .
@prefix wdt: <http://www.wikidata.org/prop/direct/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix skos: <http://www.w3.org/2004/02/skos/core#> .
@prefix schema: <http://schema.org/> .
@prefix wikibase: <http://wikiba.se/ontology#> .
wd:Q25191 rdfs:label "Christopher Nolan"@en ; skos:altLabel "Nolan"@en ; wdt:P31 wd:Q5 .
wd:Q25188 rdfs:label "Inception"@en ; wdt:P57 wd:Q25191 ; wdt:P31 wd:Q11424 .
wd:Q11424 rdfs:label "film"@en .
wd:Q5 rdfs:label "human"@en .
wd:Q90 rdfs:label "Paris"@en ; schema:description "capital city of France"@en ; wdt:P1082 2145906 .
wd:Q830149 rdfs:label "Paris"@en ; schema:description "county seat of Lamar County, Texas"@en .
wd:Q167646 rdfs:label "Paris Hilton"@en ; skos:altLabel "Paris"@en .
wd:Q3 rdfs:label "Mercury"@en ; skos:altLabel "Hermes"@en .
wd:Q4 rdfs:label "Hermes"@en .
wd:P57 rdfs:label "director"@en ; wikibase:propertyType wikibase:WikibaseItem .
wd:P1082 rdfs:label "population"@en ; wikibase:propertyType wikibase:Quantity .
"""


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    return store_from_ttl(TTL, tmp_path_factory.mktemp("labels"))


@pytest.fixture(scope="module")
def films_store(tmp_path_factory):
    return store_from_ttl((FILMS / "films.ttl").read_text(), tmp_path_factory.mktemp("films"))


def test_compile_resolves_labels_through_a_store(store):
    sparql = cnl.compile("Which [film] has <director> [christopher nolan]?", store=store)
    assert "wd:Q11424" in sparql and "wdt:P57" in sparql and "wd:Q25191" in sparql
    # an alias names its item; a property by the KG's label, and by Wikidata's shipped names
    assert "wd:Q25191" in cnl.compile("What has <director> [Nolan]?", store=store)
    assert "wdt:P166" in cnl.compile("What has <award received> [Nolan]?", store=store)


def test_without_a_kg_labels_still_need_a_lexicon():
    with pytest.raises(LexiconError, match="has no ID"):
        cnl.compile("Which [film] has <director> [Christopher Nolan]?")


def test_an_ambiguous_label_lists_its_candidates_and_how_to_pick_one(store):
    with pytest.raises(LexiconError) as caught:
        cnl.compile("What is the <population> of [Paris]?", store=store)
    err = caught.value
    assert "ambiguous" in str(err) and "<Q90:Paris>" in str(err)
    assert any("Q90 (capital city of France)" in c for c in err.candidates)
    assert any(c.startswith("Q830149") for c in err.candidates)
    assert not any(c.startswith("Q167646") for c in err.candidates)  # only an alias of Paris Hilton
    # the primary label beats an item that only has it as an alias
    assert "wd:Q4" in cnl.compile("What is the <population> of [Hermes]?", store=store)


def test_an_unknown_label_names_the_closest_labels_of_the_kg(store):
    with pytest.raises(LexiconError) as caught:
        cnl.compile("What has <director> [Christophe Nolan]?", store=store)
    assert "no item labelled 'Christophe Nolan'" in str(caught.value)
    assert caught.value.suggestions[0] == "Christopher Nolan"
    with pytest.raises(LexiconError, match="no property labelled 'directr'") as caught:
        cnl.compile("What has <directr> [Christopher Nolan]?", store=store)
    assert "director" in caught.value.suggestions


def test_the_lexicon_comes_first(store, tmp_path):
    lexicon = tmp_path / "lexicon.json"
    lexicon.write_text(json.dumps({"Paris": "Q90"}))
    assert "wd:Q90" in cnl.compile("What is the <population> of [Paris]?", store=store, lexicon=str(lexicon))


def test_a_plain_rdf_store_resolves_classes_entities_and_predicates_by_local_name(films_store):
    profile = str(FILMS / "profile.toml")
    sparql = cnl.compile("which [person] has <birth place> [London]?", kg=profile, store=films_store)
    assert "<http://example.org/films/birthPlace>" in sparql or "ex:birthPlace" in sparql
    assert "london" in sparql and "Person" in sparql


def test_cli_compile_and_run_resolve_through_the_store(store, capsys):
    assert main(["compile", "Which [film] has <director> [Christopher Nolan]?", "--store", str(store)]) == 0
    assert "wd:Q25191" in capsys.readouterr().out
    assert main(["run", "Which [film] has <director> [Christopher Nolan]?", "--store", str(store),
                 "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [b["film"]["value"] for b in doc["results"]["bindings"]] == ["http://www.wikidata.org/entity/Q25188"]
    assert main(["run", "What is the <population> of [Paris]?", "--store", str(store)]) == 3
    err = capsys.readouterr().err
    assert "ambiguous" in err and "Q90 (capital city of France)" in err and "Traceback" not in err


def test_cli_compile_resolves_through_an_endpoint(tmp_path, capsys):
    from tests.kg_fixtures import OxigraphServer

    (tmp_path / "g.ttl").write_text(TTL)
    server = OxigraphServer(tmp_path / "oxi", tmp_path / "g.ttl")
    try:
        assert main(["compile", "Which [film] has <director> [Christopher Nolan]?",
                     "--endpoint", server.query_url]) == 0
        assert "wd:Q25191" in capsys.readouterr().out
        assert main(["run", "What has <director> [Nolan]?", "--endpoint", server.query_url, "--format", "csv"]) == 0
        assert "Q25188" in capsys.readouterr().out
    finally:
        server.stop()
