"""Which reading of a label several candidates share fits the query it sits in (cnl.learn.slot_fit),
over a real embedded store (no model: Translator.choose judges given outputs)."""
from __future__ import annotations

import pytest

from cnl.learn.slot_fit import slots, words

TTL = """\
@prefix wd: <http://www.wikidata.org/entity/> .
@prefix wdt: <http://www.wikidata.org/prop/direct/> .
@prefix p: <http://www.wikidata.org/prop/> .
@prefix ps: <http://www.wikidata.org/prop/statement/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix schema: <http://schema.org/> .
wd:Q11424 rdfs:label "film"@en ; schema:description "sequence of images"@en .
wd:Q24856 rdfs:label "film series"@en .
wd:Q901 rdfs:label "Space Saga"@en ; wdt:P31 wd:Q24856 ; schema:description "science fiction film series"@en .
wd:Q902 rdfs:label "Sea Saga"@en ; wdt:P31 wd:Q24856 ; schema:description "film series about pirates"@en .
wd:Q903 rdfs:label "Toy Saga"@en ; schema:description "animated media franchise"@en .
wd:Q911 rdfs:label "Space Saga One"@en ; wdt:P31 wd:Q11424 ; wdt:P179 wd:Q901 ; p:P179 [ ps:P179 wd:Q901 ] ;
    schema:description "1977 film by a director"@en .
wd:Q912 rdfs:label "Sea Saga One"@en ; wdt:P31 wd:Q11424 ; wdt:P179 wd:Q902 ; p:P179 [ ps:P179 wd:Q902 ] ;
    schema:description "2003 film by a director"@en .
wd:Q913 rdfs:label "Toy Saga One"@en ; wdt:P31 wd:Q11424 ; wdt:P179 wd:Q903 ; p:P179 [ ps:P179 wd:Q903 ] ;
    schema:description "1995 film by a studio"@en .
wd:Q914 rdfs:label "Night Saga"@en ; wdt:P31 wd:Q11424 ; schema:description "2012 film by a director"@en .
wd:Q904 rdfs:label "Night Saga"@en ; schema:description "dystopian film series"@en .
wd:Q915 rdfs:label "Dune"@en ; wdt:P31 wd:Q11424 ; schema:description "2021 film by a director"@en .
wd:Q905 rdfs:label "Dune"@en ; schema:description "media franchise"@en .
wd:Q916 rdfs:label "Dune Part One"@en ; wdt:P31 wd:Q11424 ; p:P179 [ ps:P179 wd:Q915 ] .
"""


@pytest.fixture(scope="module")
def kg(tmp_path_factory):
    from cnl.kg import open_kg
    from cnl.kg.embedded import EmbeddedKG

    folder = tmp_path_factory.mktemp("slot_fit")
    (folder / "g.ttl").write_text(TTL)
    with EmbeddedKG(folder / "store") as store:
        store.load(folder / "g.ttl", progress=False)
    with open_kg(store=folder / "store") as opened:
        yield opened


def test_the_head_noun_of_a_description_says_what_the_thing_is():
    assert words("2012 film by Gary Ross") == {"film"}
    assert words("dystopian film series") == {"series"}
    assert words("fictional character of the book series") == {"character"}
    assert words("Major League Baseball franchise in Denver, Colorado") == {"franchise"}
    assert words("") == set() and words(None) == set()


def test_the_slots_of_a_query_s_entities():
    sparql = ("SELECT ?f WHERE { ?f wdt:P31 wd:Q11424 . ?f p:P179 [ ps:P179 wd:Q1 ; pq:P1545 \"2\" ] . "
              "wd:Q2 p:P822 [ ps:P822 ?m ] }")
    assert sorted(slots(sparql)) == [("Q1", "P179", "value"), ("Q11424", "P31", "value"), ("Q2", "P822", "subject")]


def _choose(kg, chooser, text, question, candidates):
    from cnl.learn.inference import Translator

    translator = Translator(None, None)  # no model: choose() judges the given output
    translator.chooser = chooser
    return translator.choose([text], translator.resolver(candidates, kg=kg), kg=kg, question=question,
                             candidates=candidates)


def test_of_a_shared_label_the_reading_that_fits_its_slot_is_kept_when_none_answers(kg):
    """No film is part of either "Night Saga" in the KG: the linker's first reading, the film, is
    kept without the slot fit; with it, the item described as a series, what the values of
    <part of the series> are described as."""
    cands = [{"id": "Q914", "label": "Night Saga"}, {"id": "Q904", "label": "Night Saga"}]
    text = "Which [film] has <part of the series> [Night Saga]?"
    question = "Which films are in the Night Saga series?"
    _, sparql, _ = _choose(kg, ("answers", "type", "readings"), text, question, cands)
    assert "wd:Q914" in sparql
    _, sparql, _ = _choose(kg, ("answers", "type", "readings", "fit"), text, question, cands)
    assert "wd:Q904" in sparql and "wd:Q914" not in sparql


def test_an_entity_the_kg_states_in_the_slot_outweighs_its_description(kg):
    """The film "Dune" is stated as a value of P179 (of "Dune Part One"): it fits better than the
    franchise whose description alone fits; that reading also answers."""
    cands = [{"id": "Q905", "label": "Dune"}, {"id": "Q915", "label": "Dune"}]
    _, sparql, _ = _choose(kg, ("answers", "type", "readings", "fit"), "Which [film] has <part of the series> [Dune]?",
                           "Which films are in the Dune series?", cands)
    assert "wd:Q915" in sparql
