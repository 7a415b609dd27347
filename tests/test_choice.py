"""Choosing among the parser's candidates by what they return on the KG: the kind of answer a
question asks for, the kinds of a result's values, other readings of a shared label, and
Translator.choose over a real embedded store (no model: the candidates are given)."""
from __future__ import annotations

import pytest

from cnl.learn.choice import (DATE, NUMBER, PERSON, PLACE, answer_kinds, answered, entity_readings, mention_readings,
                              expected_kind, kind_fits, query_kinds)


@pytest.mark.parametrize("question, kind", [
    ("Who directed Inception?", PERSON), ("who is the governor of ohio 2011?", PERSON),
    ("When was Barack Obama born?", DATE), ("what year did the cubs win?", DATE),
    ("In which year did Halo come out?", DATE), ("How many films did Nolan direct?", NUMBER),
    ("how much money did avatar make?", NUMBER), ("Where is the Eiffel Tower?", PLACE),
    ("What is the capital of France?", None), ("Which film has director Nolan?", None),
    ("Whose wife is Michelle Obama?", None), ("what time zone is new york in?", None),
    ("Is Paris in France?", None),
])
def test_the_wh_phrase_says_what_kind_of_answer_is_wanted(question, kind):
    assert expected_kind(question) == kind


def test_what_kinds_fit_what_is_asked():
    assert kind_fits(DATE, {DATE}) and kind_fits(DATE, {"item"}) is False
    assert kind_fits(NUMBER, set(), counts=True) and kind_fits(NUMBER, {"item"}) is False
    # organisations, bands and teams answer "who" too; a place or a date does not
    assert kind_fits(PERSON, {PERSON}) and kind_fits(PERSON, {"item"}) and kind_fits(PERSON, {PLACE}) is False
    assert kind_fits(PLACE, {PLACE}) and kind_fits(PLACE, {PERSON}) is False and kind_fits(PLACE, {DATE}) is False
    assert kind_fits(None, {DATE}) is None and kind_fits(PERSON, set()) is None


def test_a_query_alone_says_what_kind_its_answers_are():
    assert query_kinds("SELECT DISTINCT ?x WHERE { wd:Q1 wdt:P569 ?x }") == {DATE}
    assert query_kinds("SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE { ?x wdt:P57 wd:Q1 }") == {NUMBER}
    assert query_kinds("SELECT ?d WHERE { wd:Q1 p:P166 [ ps:P166 wd:Q2 ; pq:P585 ?d ] }") == {DATE}
    assert query_kinds("SELECT ?x WHERE { wd:Q1 wdt:P57 ?x }") == {"item"}
    assert query_kinds("SELECT ?x WHERE { ?x wdt:P57 wd:Q1 }") is None  # a subject: no datatype says
    assert query_kinds("ASK { wd:Q1 wdt:P57 wd:Q2 }") is None


def test_other_readings_of_a_label_several_candidates_share():
    cands = [{"id": "Q868358", "label": "Colorado Rockies"}, {"id": "Q388858", "label": "Colorado Rockies"},
             {"id": "Q1261", "label": "Colorado"}, {"id": "Q388858", "label": "colorado rockies"}]
    assert entity_readings("What is the <mascot> of [Colorado Rockies]?", cands) == [{"Colorado Rockies": "Q388858"}]
    assert entity_readings("What is the <capital> of [Colorado]?", cands) == []
    many = [{"id": f"Q{i}", "label": "X"} for i in range(1, 9)]
    assert len(entity_readings("Give me a <genre> of [X].", many, limit=3)) == 3


def test_readings_by_the_words_a_label_was_linked_from():
    """The other candidates of the question's words the label's candidate was linked from,
    likeliest first; a candidate sharing the label is entity_readings', not these; a label that
    is the question's own words has none (the model guessed no name)."""
    cands = [{"id": "Q155476", "label": "The Fast and the Furious", "mention": "Fast and Furious", "probability": 0.7},
             {"id": "Q1", "label": "Fast & Furious", "mention": "Fast and Furious", "probability": 0.5},
             {"id": "Q1576873", "label": "Fast & Furious", "mention": "Fast and Furious", "probability": 0.6},
             {"id": "Q9", "label": "The Fast and the Furious", "mention": "Furious", "probability": 0.9},
             {"id": "Q213864", "label": "Paul Walker", "mention": "Paul Walker", "probability": 0.9}]
    text = "Which [film] has <part of the series> [The Fast and the Furious] and has not <cast member> [Paul Walker]?"
    assert mention_readings(text, cands) == [{"The Fast and the Furious": "Q1576873"}, {"The Fast and the Furious": "Q1"}]
    assert entity_readings(text, cands) == [{"The Fast and the Furious": "Q9"}]
    assert mention_readings(text, cands, limit=1) == [{"The Fast and the Furious": "Q1576873"}]
    assert mention_readings("Give me a <genre> of [Fast and Furious].", cands) == []
    assert mention_readings("Give me a <spouse> of [Paul Walker].", cands) == []
    japan = [{"id": "Q17", "label": "Japan", "mention": "japan", "probability": 0.9},
             {"id": "Q188712", "label": "Empire of Japan", "mention": "japan", "probability": 0.6}]
    assert mention_readings("Give me a <currency> of [Japan].", japan) == []


TTL = """\
@prefix wd: <http://www.wikidata.org/entity/> .
@prefix wdt: <http://www.wikidata.org/prop/direct/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
wd:Q5 rdfs:label "human"@en .
wd:Q11424 rdfs:label "film"@en .
wd:Q25188 rdfs:label "Inception"@en ; wdt:P31 wd:Q11424 ; wdt:P57 wd:Q25191 ; wdt:P915 wd:Q90 ;
    wdt:P577 "2010-07-16T00:00:00Z"^^xsd:dateTime .
wd:Q25191 rdfs:label "Christopher Nolan"@en ; wdt:P31 wd:Q5 ; wdt:P19 wd:Q84 .
wd:Q84 rdfs:label "London"@en ; wdt:P17 wd:Q145 .
wd:Q90 rdfs:label "Paris"@en ; wdt:P17 wd:Q142 .
wd:Q388858 rdfs:label "Colorado Rockies"@en ; wdt:P822 wd:Q5149542 .
wd:Q868358 rdfs:label "Colorado Rockies"@en .
wd:Q5149542 rdfs:label "Dinger"@en .
wd:Q155476 rdfs:label "The Fast and the Furious"@en ; wdt:P31 wd:Q11424 ; wdt:P57 wd:Q25191 .
wd:Q1576873 rdfs:label "Fast & Furious"@en .
wd:Q190525 rdfs:label "Fast Five"@en ; wdt:P31 wd:Q11424 ; wdt:P179 wd:Q1576873 .
"""


@pytest.fixture(scope="module")
def kg(tmp_path_factory):
    from cnl.kg import open_kg
    from tests.kg_fixtures import store_from_ttl

    with open_kg(store=store_from_ttl(TTL, tmp_path_factory.mktemp("choice"))) as opened:
        yield opened


def test_a_result_s_values_are_typed_through_the_kg(kg):
    assert answer_kinds(kg.query("SELECT ?x WHERE { wd:Q25188 wdt:P57 ?x }"), kg) == {PERSON}
    assert answer_kinds(kg.query("SELECT ?x WHERE { wd:Q25191 wdt:P19 ?x }"), kg) == {PLACE}
    assert answer_kinds(kg.query("SELECT ?x WHERE { wd:Q25188 wdt:P577 ?x }"), kg) == {DATE}
    assert answer_kinds(kg.query("SELECT ?x WHERE { wd:Q25188 wdt:P31 ?x }"), kg) == {"item"}
    assert answered(kg.query("SELECT (COUNT(?x) AS ?n) WHERE { ?x wdt:P57 wd:Q84 }")) is False
    assert answered(kg.query("SELECT (COUNT(?x) AS ?n) WHERE { ?x wdt:P57 wd:Q25191 }")) is True
    assert answered(kg.query("ASK { wd:Q25188 wdt:P57 wd:Q25191 }")) is True  # a true ASK says something
    assert answered(kg.query("ASK { wd:Q25188 wdt:P57 wd:Q84 }")) is False


def _translator(chooser):
    from cnl.learn.inference import Translator

    translator = Translator(None, None)  # no model: choose() judges given candidates
    translator.chooser = chooser
    return translator


def _choose(kg, chooser, nbest, question, candidates=()):
    translator = _translator(chooser)
    resolver = translator.resolver(list(candidates), kg=kg)
    return translator.choose(nbest, resolver, kg=kg, question=question, candidates=list(candidates))


def test_the_beam_whose_answer_is_of_the_asked_kind_is_chosen(kg):
    """"Where" asks for a place: a beam answering with the film's director (a person) is passed
    over for the one answering with a place; with "answers" alone the first beam that answers
    stays, as before."""
    nbest = ["Give me a <director> of [Inception].", "Give me a <filming location> of [Inception]."]
    text, sparql, _ = _choose(kg, ("answers", "type"), nbest, "Where was Inception filmed?")
    assert text == nbest[1] and "P915" in sparql
    assert _choose(kg, ("answers",), nbest, "Where was Inception filmed?")[0] == nbest[0]
    # who: the person
    assert _choose(kg, ("answers", "type"), nbest[::-1], "Who made Inception?")[0] == nbest[0]


def test_a_beam_that_cannot_give_a_date_is_passed_over_for_when(kg):
    """No beam answers (the KG lacks the facts): for "when", a beam whose property holds no
    date is passed over for one whose property does, by the properties' datatypes alone."""
    nbest = ["Give me a <place of birth> of [Inception].", "Give me a <date of birth> of [Inception]."]
    assert _choose(kg, ("answers", "type"), nbest, "When was Inception born?")[0] == nbest[1]
    assert _choose(kg, ("answers",), nbest, "When was Inception born?")[0] == nbest[0]


def test_another_reading_of_a_shared_label_is_kept_when_only_it_answers(kg):
    cands = [{"id": "Q868358", "label": "Colorado Rockies"}, {"id": "Q388858", "label": "Colorado Rockies"}]
    nbest = ["What is the <mascot> of [Colorado Rockies]?"]
    _, sparql, _ = _choose(kg, ("answers", "readings"), nbest, "Who is the Colorado Rockies mascot?", cands)
    assert "Q388858" in sparql
    _, sparql, _ = _choose(kg, ("answers",), nbest, "Who is the Colorado Rockies mascot?", cands)
    assert "Q868358" in sparql  # the linker's first reading, as before


def test_translate_with_a_store_chooses_among_the_beams_on_it(kg, monkeypatch, capsys):
    """`translate --store` opens the store (read-only) and hands it to the choice among the beams,
    as `ask` does: without it no chooser signal (answers, type, readings, slot fit) could run.
    The real model writes the beams; the spy only records what choose() is given."""
    pytest.importorskip("torch")
    import json

    from cnl.cli import main
    from cnl.learn.inference import Translator

    seen = []
    real_choose = Translator.choose

    def spy(self, nbest, resolver, **options):
        seen.append(options.get("kg"))
        return real_choose(self, nbest, resolver, **options)

    monkeypatch.setattr(Translator, "choose", spy)
    code = main(["translate", "Who directed Inception?", "--store", str(kg.path), "--format", "json", "--beams", "2"])
    row = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert seen and all(k is not None and getattr(k, "path", None) == kg.path for k in seen)
    assert code == 0 and "wd:Q25188" in row["sparql"]
    # --no-validate keeps the first output, and needs no store opened
    seen.clear()
    main(["translate", "Who directed Inception?", "--store", str(kg.path), "--format", "json", "--no-validate"])
    assert all(k is None for k in seen)


def test_a_label_copied_from_the_question_resolves_to_the_candidate_linked_from_those_words(kg):
    """The model wrote the question's words ("[Golden Globe Awards]") where the linked candidate's
    label is "Golden Globe Award": the candidate whose mention they are (the likeliest one) is
    taken, after every source that knows the label itself (so no compiled output changes)."""
    cands = [{"id": "Q577982", "label": "56th Golden Globe Awards", "mention": "Golden Globe Awards", "probability": 0.6},
             {"id": "Q1011547", "label": "Golden Globe Award", "mention": "Golden Globe Awards", "probability": 0.8},
             {"id": "Q25191", "label": "Christopher Nolan", "mention": "Nolan", "probability": 0.9}]
    nbest = ["How many [Golden Globe Awards] is a <award received> of [Christopher Nolan]?"]
    _, sparql, error = _choose(kg, ("answers",), nbest, "How many Golden Globe Awards has Nolan won?", cands)
    assert error is None and "wd:Q1011547" in sparql
    # a label the KG itself has is read as the KG's: "[Inception]" stays the film, whatever it was linked from
    cands.append({"id": "Q99", "label": "Inception (soundtrack)", "mention": "Inception", "probability": 0.99})
    _, sparql, _ = _choose(kg, ("answers",), ["Give me a <director> of [Inception]."], "Who directed Inception?", cands)
    assert "wd:Q25188" in sparql


def test_a_reading_by_the_question_s_words_is_kept_only_where_no_written_one_answers(kg):
    """"Fast and Furious movies": the model wrote "[The Fast and the Furious]" (the 2001 film,
    of which no film is a part); the franchise, linked from the same words, answers and is
    kept. Where the label the model wrote answers, it stays, even when another reading of the
    same words would answer too."""
    cands = [{"id": "Q155476", "label": "The Fast and the Furious", "mention": "Fast and Furious", "probability": 0.7},
             {"id": "Q1576873", "label": "Fast & Furious", "mention": "Fast and Furious", "probability": 0.6}]
    question = "Which Fast and Furious movies are there?"
    _, sparql, _ = _choose(kg, ("answers", "readings"), ["Which [film] has <part of the series> [The Fast and the Furious]?"],
                           question, cands)
    assert "Q1576873" in sparql and "Q155476" not in sparql
    _, sparql, _ = _choose(kg, ("answers",), ["Which [film] has <part of the series> [The Fast and the Furious]?"],
                           question, cands)
    assert "Q155476" in sparql  # without "readings", the written label as before
    # the written label answers: kept (a Netherlands asked for stays the Netherlands)
    nbest = ["Give me a <director> of [Inception]."]
    other = [{"id": "Q25188", "label": "Inception", "mention": "Inception", "probability": 0.9},
             {"id": "Q155476", "label": "The Fast and the Furious", "mention": "Inception", "probability": 0.5}]
    _, sparql, _ = _choose(kg, ("answers", "readings", "fit"), nbest, "Who directed Inception?", other)
    assert "Q25188" in sparql
