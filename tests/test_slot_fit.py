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
wd:Q914 rdfs:label "Night Saga"@en ; wdt:P31 wd:Q11424 ; schema:description "2012 film by a director"@en .
wd:Q904 rdfs:label "Night Saga"@en ; schema:description "dystopian film series"@en .
wd:Q915 rdfs:label "Dune"@en ; wdt:P31 wd:Q11424 ; schema:description "2021 film by a director"@en .
wd:Q905 rdfs:label "Dune"@en ; schema:description "media franchise"@en .
wd:Q916 rdfs:label "Dune Part One"@en ; wdt:P31 wd:Q11424 ; p:P179 [ ps:P179 wd:Q915 ] .
wd:Q917 rdfs:label "Starfall"@en ; schema:description "fictional character of the Starfall novels"@en .
wd:Q907 rdfs:label "Starfall"@en .
wd:Q5 rdfs:label "human"@en .
wd:Q7725634 rdfs:label "literary work"@en .
wd:Q940 rdfs:label "Moon Saga"@en ; wdt:P31 wd:Q24856 ; schema:description "fantasy film series"@en .
wd:Q941 rdfs:label "Moon Saga"@en ; schema:description "novel series"@en .
wd:Q942 rdfs:label "Moon Saga One"@en ; wdt:P31 wd:Q11424 ; wdt:P179 wd:Q940 ; p:P179 [ ps:P179 wd:Q940 ] .
wd:Q943 rdfs:label "Moon Rising"@en ; wdt:P31 wd:Q7725634 ; wdt:P179 wd:Q941 ; p:P179 [ ps:P179 wd:Q941 ] .
wd:Q930 rdfs:label "Kid Verse"@en ; wdt:P31 wd:Q5 ; schema:description "American rapper and actor"@en .
wd:Q931 rdfs:label "Mia Lorne"@en ; wdt:P31 wd:Q5 ; schema:description "Canadian singer"@en .
wd:Q850 wdt:P161 wd:Q930 ; p:P161 [ ps:P161 wd:Q930 ] .
"""
# twelve film series, each with a film in it: what the values of <part of the series> are like
TTL += "".join(
    f'wd:Q{800 + i} rdfs:label "Saga {i}"@en ; wdt:P31 wd:Q24856 ; schema:description "{kind} film series"@en .\n'
    f'wd:Q{850 + i} rdfs:label "Saga {i} One"@en ; wdt:P31 wd:Q11424 ; wdt:P179 wd:Q{800 + i} ; '
    f'p:P179 [ ps:P179 wd:Q{800 + i} ] ; schema:description "{1970 + i} film by a director"@en .\n'
    for i, kind in enumerate(["science fiction", "horror", "comedy", "action", "fantasy", "crime"] * 2))


@pytest.fixture(scope="module")
def kg(tmp_path_factory):
    from cnl.kg import open_kg
    from tests.kg_fixtures import store_from_ttl

    with open_kg(store=store_from_ttl(TTL, tmp_path_factory.mktemp("slot_fit"))) as opened:
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


def test_a_reading_stated_in_the_slot_only_with_things_of_another_class_loses(kg):
    """"Moon Saga" the film series (typed, described as the slot's values are) and the novel
    series: both are stated as values of <part of the series>, the film series only of a film.
    Asked for the literary works of the series, the reading stated with a literary work wins;
    asked for films, the film series."""
    cands = [{"id": "Q940", "label": "Moon Saga"}, {"id": "Q941", "label": "Moon Saga"}]
    chooser = ("answers", "type", "readings", "fit")
    _, sparql, _ = _choose(kg, chooser, "Which [literary work] has <part of the series> [Moon Saga]?",
                           "Which books are in the Moon Saga?", cands)
    assert "wd:Q941" in sparql and "wd:Q940" not in sparql
    _, sparql, _ = _choose(kg, chooser, "Which [film] has <part of the series> [Moon Saga]?",
                           "Which films are in the Moon Saga?", cands[::-1])
    assert "wd:Q940" in sparql and "wd:Q941" not in sparql


def test_the_asked_class_tells_readings_apart_only_where_one_is_stated_with_it(kg):
    """No "Dune" is stated with a literary work, so the readings of "Dune" are not judged by it
    (by class, the film stated only of a film would lose its attestation to a franchise of which
    the KG states nothing); the film series "Moon Saga" is stated with a literary work."""
    from cnl.learn.slot_fit import SlotFit

    fit = SlotFit(kg)
    sparql = "SELECT ?x WHERE { ?x wdt:P31 wd:Q7725634 . ?x wdt:P179 wd:Q915 . }"
    assert not fit.attested_with_class(sparql)
    assert fit.score(sparql, by_class=True) < fit.score(sparql)
    assert fit.attested_with_class(sparql.replace("Q915", "Q941"))


def test_the_class_on_the_other_side_of_a_slot():
    from cnl.learn.slot_fit import other_side_class

    sparql = ('SELECT ?x WHERE { ?x wdt:P31 wd:Q7725634 . ?x p:P179 [ ps:P179 wd:Q8337 ; pq:P1545 "3" ] . '
              'wd:Q2 p:P822 [ ps:P822 ?m ] . ?m wdt:P31/wdt:P279* wd:Q5 . }')
    assert other_side_class(sparql, "Q8337", "P179", "value") == "Q7725634"
    assert other_side_class(sparql, "Q2", "P822", "subject") == "Q5"
    assert other_side_class("SELECT ?x WHERE { ?x wdt:P179 wd:Q1 . }", "Q1", "P179", "value") is None


def test_a_reading_the_kg_knows_to_be_unlike_the_slot_loses_to_one_it_knows_nothing_of(kg):
    """"Starfall" the character (described, and nothing like a series) and "Starfall" of which the
    KG has only the label: as a value of <part of the series>, the character is evidence
    against, the other none either way, so the other is kept (the linker put the character
    first)."""
    cands = [{"id": "Q917", "label": "Starfall"}, {"id": "Q907", "label": "Starfall"}]
    text, question = "Which [film] has <part of the series> [Starfall]?", "Which films are in the Starfall series?"
    _, sparql, _ = _choose(kg, ("answers", "type", "readings", "fit"), text, question, cands)
    assert "wd:Q907" in sparql and "wd:Q917" not in sparql


def test_misfit_needs_a_profiled_slot_and_something_known():
    from collections import Counter

    from cnl.learn.slot_fit import MIN_PROFILED, MISFIT, SlotProfile, slot_fit

    baseline = SlotProfile(100, Counter(), 100, Counter({"character": 5}))
    series = SlotProfile(MIN_PROFILED, Counter({"Q24856": MIN_PROFILED}), MIN_PROFILED, Counter({"series": MIN_PROFILED}))
    assert slot_fit(False, {"Q95074"}, {"character"}, series, baseline) == -MISFIT
    assert slot_fit(False, set(), set(), series, baseline) == 0  # nothing known: no evidence
    assert slot_fit(True, {"Q95074"}, {"character"}, series, baseline) == 2  # stated there: fits
    few = SlotProfile(3, Counter({"Q24856": 3}), 3, Counter({"series": 3}))
    assert slot_fit(False, {"Q95074"}, {"character"}, few, baseline) == 0  # no profile: no evidence


def test_a_slot_with_few_entities_in_the_kg_has_no_profile():
    from collections import Counter

    from cnl.learn.slot_fit import MIN_PROFILED, SlotProfile

    baseline = SlotProfile(100, Counter(), 100, Counter({"team": 5}))
    few = SlotProfile(3, Counter({"Q1": 3}), 3, Counter({"team": 3}))
    assert few.class_share({"Q1"}) == 0 and few.word_lift({"team"}, baseline) == 0
    many = SlotProfile(MIN_PROFILED, Counter({"Q1": MIN_PROFILED}), MIN_PROFILED, Counter({"team": MIN_PROFILED}))
    assert many.class_share({"Q1"}) == 1 and many.word_lift({"team"}, baseline) == pytest.approx(0.95)


def _choose_with_properties(kg, text, question, properties):
    from cnl.learn.inference import Translator
    from cnl.linking.property_candidates import PropertyCandidate

    translator = Translator(None, None)  # no model: choose() judges the given output
    translator.chooser = ("answers", "type", "readings", "fit")
    return translator.choose([text], translator.resolver([], kg=kg), kg=kg, question=question,
                             properties=[PropertyCandidate(*p[:2], 0.5, *p[2:]) for p in properties])


def test_a_named_thing_that_misfits_its_property_is_read_with_a_property_the_kg_states_it_in(kg):
    """A rapper as a value of <part of the series> (whose values the KG knows as film series):
    the KG states him as a cast member of a film, one of the question's property candidates."""
    question = "Which film featured Kid Verse?"
    properties = [("P57", "director"), ("P161", "cast member"), ("P179", "part of the series")]
    chosen, sparql, _ = _choose_with_properties(kg, "Which [film] has <part of the series> [Kid Verse]?", question,
                                                properties)
    assert chosen == "Which [film] has <cast member> [Kid Verse]?"
    assert [row[0].value.rsplit("/", 1)[1] for row in kg.query(sparql).rows] == ["Q850"]


@pytest.mark.parametrize("text, properties", [
    # the thing fits its slot (a film series as the value of <part of the series>)
    ("Which [film] has <part of the series> [Saga 1]?", [("P161", "cast member"), ("P179", "part of the series")]),
    # the KG states the misfit thing in no candidate's slot
    ("Which [film] has <part of the series> [Mia Lorne]?", [("P161", "cast member"), ("P179", "part of the series")]),
    # the KG knows nothing of what the thing is: no evidence against it
    ("Which [film] has <part of the series> [Starfall]?", [("P161", "cast member"), ("P179", "part of the series")]),
])
def test_a_named_thing_that_fits_or_has_no_better_slot_keeps_its_property(kg, text, properties):
    assert _choose_with_properties(kg, text, "Which film?", properties)[0] == text


def test_a_property_the_question_says_stays_though_its_named_thing_misfits(kg):
    """"the Kid Verse series" says *part of the series* (its alias "series"): the KG may lack
    the fact; the question's word is kept over the KG's other statement of the thing."""
    properties = [("P161", "cast member", ("starring",)), ("P179", "part of the series", ("series",))]
    text = "Which [film] has <part of the series> [Kid Verse]?"
    assert _choose_with_properties(kg, text, "Which film is in the Kid Verse series?", properties)[0] == text
    assert _choose_with_properties(kg, text, "Which film is Kid Verse in?", properties)[0] == (
        "Which [film] has <cast member> [Kid Verse]?")
    # ... and so does one the question's candidates rank above the one the KG states it in
    assert _choose_with_properties(kg, text, "Which film is Kid Verse in?", properties[::-1])[0] == text
