"""Lexicon: labels -> IDs from JSON, TSV and RDF; unknown/ambiguous labels are errors."""
import gzip
import json

import pytest

import cnl
from cnl.errors import DataError, LexiconError
from cnl.linking.lexicon import Lexicon

TTL = """
@prefix wd: <http://www.wikidata.org/entity/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix skos: <http://www.w3.org/2004/02/skos/core#> .
@prefix schema: <http://schema.org/> .
wd:Q11424 rdfs:label "film"@en ; skos:altLabel "movie"@en .
wd:Q44578 rdfs:label "Titanic"@en ; schema:description "1997 film by James Cameron"@en .
wd:Q25173 rdfs:label "Titanic"@en ; schema:description "British passenger liner"@en .
wd:Q1 rdfs:label "Mercury"@en .
wd:Q2 skos:altLabel "Mercury"@en .
wd:P57 rdfs:label "director"@en ; skos:altLabel "directed by"@en .
wd:Q3 rdfs:label "Film"@de .
"""


@pytest.fixture
def rdf_lexicon(tmp_path):
    path = tmp_path / "labels.ttl.gz"
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        handle.write(TTL)
    return Lexicon.from_file(path)


def test_rdf_labels_aliases_and_properties(rdf_lexicon):
    assert rdf_lexicon.resolve("film", "class") == "Q11424"
    assert rdf_lexicon.resolve("Movie", "class") == "Q11424"   # alias, case-insensitive
    assert rdf_lexicon.resolve("directed by", "property") == "P57"
    assert rdf_lexicon.resolve("Mercury", "entity") == "Q1"      # primary label beats an alias
    with pytest.raises(LexiconError):
        rdf_lexicon.resolve("director", "entity")               # properties are kept apart


def test_ambiguous_label_names_its_candidates(rdf_lexicon):
    with pytest.raises(LexiconError) as info:
        rdf_lexicon.resolve("Titanic", "entity", (10, 17))
    err = info.value
    assert err.label == "Titanic" and err.position == 10
    assert any("passenger liner" in c for c in err.candidates)
    assert "ambiguous" in str(err) and "character 11" in str(err)


def test_unknown_label_suggests_close_ones(rdf_lexicon):
    with pytest.raises(LexiconError) as info:
        rdf_lexicon.resolve("flim", "class")
    assert "film" in info.value.suggestions


def test_json_and_tsv(tmp_path):
    j = tmp_path / "lex.json"
    j.write_text(json.dumps({"entities": {"Jon Favreau": "Q295964"}, "properties": {"director": "P57"}}))
    t = tmp_path / "lex.tsv"
    t.write_text("film\tQ11424\nhas director\tP57\tproperty\n")
    lex = Lexicon.from_file(j).update(Lexicon.from_file(t))
    sparql = cnl.compile("which [film] has <director> [Jon Favreau]?", lexicon=lex)
    assert "wd:Q295964" in sparql and "wdt:P57" in sparql


def test_bad_lexicon_files(tmp_path):
    with pytest.raises(DataError):
        Lexicon.from_file(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2]")
    with pytest.raises(DataError):
        Lexicon.from_file(bad)
    broken = tmp_path / "broken.nt"
    broken.write_text("<a> <b> .\n")
    with pytest.raises(DataError):
        Lexicon.from_file(broken)
    with pytest.raises(DataError):
        Lexicon.from_file(tmp_path / "x.xlsx") if (tmp_path / "x.xlsx").write_text("") is not None else None


@pytest.mark.data
def test_the_real_wikidata_slice(shared_data):
    lex = Lexicon.from_file(shared_data / "wikidata" / "wikidata-slice.nt.gz")
    assert lex.resolve("film", "class") == "Q11424"
    assert lex.resolve("director", "property") == "P57"
    assert lex.resolve("Christopher Nolan", "entity") == "Q25191"
    sparql = cnl.compile("which [film] has <director> [Christopher Nolan]?", lexicon=lex)
    assert "wd:Q25191" in sparql and "wd:Q11424" in sparql
