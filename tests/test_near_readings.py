"""Near readings of a written query when no written reading answers (cnl.learn.repairs): the
property turned round where the KG's use of it says so, the answer's class left out where the KG
names every answer's class after it. Over a real embedded store; no model (Translator.choose
judges the given output)."""
from __future__ import annotations

import pytest

from cnl.dialects.squall.parser import parse_squall
from cnl.dialects.squall.printer import print_squall
from cnl.learn.repairs import classless_reading, head_noun, reversed_reading, with_property, without_echoed_qualifiers

TTL = """\
@prefix wd: <http://www.wikidata.org/entity/> .
@prefix wdt: <http://www.wikidata.org/prop/direct/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix schema: <http://schema.org/> .
wd:Q188451 rdfs:label "music genre"@en .
wd:Q5741069 rdfs:label "rock band"@en .
wd:Q5 rdfs:label "human"@en .
wd:Q12973014 rdfs:label "sports team"@en .
wd:Q327245 rdfs:label "team"@en .
wd:Q999 rdfs:label "member of sports team"@en .
wd:Q13393265 rdfs:label "basketball team"@en .
wd:Q476028 rdfs:label "association football club"@en .
wd:Q5107 rdfs:label "continent"@en .
wd:Q112099 rdfs:label "island country"@en .
wd:Q48 rdfs:label "Asia"@en ; wdt:P31 wd:Q5107 .
wd:Q17 rdfs:label "Japan"@en ; wdt:P31 wd:Q112099 ; wdt:P17 wd:Q17 ; wdt:P30 wd:Q48 .
wd:Q900 rdfs:label "Harbour Lights"@en ; wdt:P31 wd:Q5741069 ; schema:description "rock band from Liverpool"@en ;
    wdt:P136 wd:Q11399 , wd:Q11366 .
wd:Q11399 rdfs:label "rock music"@en ; wdt:P31 wd:Q188451 ; schema:description "genre of popular music"@en .
wd:Q11366 rdfs:label "pop music"@en ; wdt:P31 wd:Q188451 ; schema:description "genre of popular music"@en .
wd:Q700 rdfs:label "Ann Parent"@en ; wdt:P31 wd:Q5 ; schema:description "singer"@en ; wdt:P40 wd:Q701 .
wd:Q701 rdfs:label "Bo Child"@en ; wdt:P31 wd:Q5 ; schema:description "singer"@en ; wdt:P40 wd:Q702 .
wd:Q702 rdfs:label "Cy Grandchild"@en ; wdt:P31 wd:Q5 ; schema:description "singer"@en .
wd:Q600 rdfs:label "Lee Forward"@en ; wdt:P31 wd:Q5 ; schema:description "basketball player"@en ;
    wdt:P54 wd:Q601 , wd:Q602 .
wd:Q601 rdfs:label "Harbour Heat"@en ; wdt:P31 wd:Q13393265 .
wd:Q602 rdfs:label "Bay Lakers"@en ; wdt:P31 wd:Q13393265 .
wd:Q610 rdfs:label "Kim Striker"@en ; wdt:P31 wd:Q5 ; schema:description "footballer"@en ; wdt:P54 wd:Q611 .
wd:Q611 rdfs:label "Port Rovers"@en ; wdt:P31 wd:Q476028 .
wd:Q620 rdfs:label "Sam Guard"@en ; wdt:P31 wd:Q5 ; schema:description "basketball player"@en ; wdt:P54 wd:Q621 .
wd:Q621 rdfs:label "Hill Hawks"@en .
"""
# twelve bands with a genre each and twelve parents with a child: what the two sides of
# <genre> and of <child> are like in this KG
TTL += "".join(
    f'wd:Q{800 + i} rdfs:label "Band {i}"@en ; wdt:P31 wd:Q5741069 ; schema:description "rock band"@en ; '
    f'wdt:P136 wd:Q{850 + i} .\n'
    f'wd:Q{850 + i} rdfs:label "Genre {i}"@en ; wdt:P31 wd:Q188451 ; schema:description "music genre"@en .\n'
    f'wd:Q{300 + i} rdfs:label "Parent {i}"@en ; wdt:P31 wd:Q5 ; schema:description "actor"@en ; wdt:P40 wd:Q{350 + i} .\n'
    f'wd:Q{350 + i} rdfs:label "Child {i}"@en ; wdt:P31 wd:Q5 ; schema:description "actor"@en .\n'
    for i in range(12))

# citizens of a country and of countries the KG types otherwise: a historical country (named
# after "country") and a trade bloc (not)
TTL += """\
wd:Q6256 rdfs:label "country"@en .
wd:Q3024240 rdfs:label "historical country"@en .
wd:Q1129645 rdfs:label "trade bloc"@en .
wd:Q640 rdfs:label "Landia"@en ; wdt:P31 wd:Q6256 .
wd:Q641 rdfs:label "Old Empire"@en ; wdt:P31 wd:Q3024240 .
wd:Q642 rdfs:label "Sea Union"@en ; wdt:P31 wd:Q1129645 .
wd:Q650 rdfs:label "Ada Citizen"@en ; wdt:P31 wd:Q5 ; wdt:P27 wd:Q640 , wd:Q641 .
wd:Q651 rdfs:label "Bo Citizen"@en ; wdt:P31 wd:Q5 ; wdt:P27 wd:Q640 , wd:Q642 .
wd:Q652 rdfs:label "Cy Citizen"@en ; wdt:P31 wd:Q5 ; wdt:P27 wd:Q640 .
"""


@pytest.fixture(scope="module")
def kg(tmp_path_factory):
    from cnl.kg import open_kg
    from tests.kg_fixtures import store_from_ttl

    with open_kg(store=store_from_ttl(TTL, tmp_path_factory.mktemp("near")), timeout=10) as opened:
        yield opened


def _choose(kg, text, question, chooser=("answers", "type", "readings", "fit", "near"), properties=(),
            candidates=()):
    from cnl.learn.inference import Translator
    from cnl.linking.property_candidates import PropertyCandidate

    translator = Translator(None, None)  # no model: choose() judges the given output
    translator.chooser = chooser
    properties = [PropertyCandidate(pid, label, 0.5) for pid, label in properties]
    return translator.choose([text], translator.resolver([], kg=kg), kg=kg, question=question,
                             properties=properties, candidates=candidates)


def test_the_one_relation_forms_and_their_near_readings():
    def turned(text):
        found = reversed_reading(parse_squall(text, notation="label"))
        return None if found is None else print_squall(found, "label")

    def classless(text):
        found = classless_reading(parse_squall(text, notation="label"))
        return None if found is None else print_squall(found, "label")

    assert turned("Which [music genre] has <genre> [Harbour Lights]?") == \
        "Which [music genre] is a <genre> of [Harbour Lights]?"
    assert turned("Which [music genre] is a <genre> of [Harbour Lights]?") == \
        "Which [music genre] has <genre> [Harbour Lights]?"
    assert turned("What is the <director> of [Inception]?") == "What has <director> [Inception]?"
    assert classless("Which [team] is a <member of sports team> of [Lee Forward]?") == \
        "What is a <member of sports team> of [Lee Forward]?"
    assert classless("What is the <director> of [Inception]?") is None  # no class to leave out
    swapped = with_property(parse_squall("Which [continent] is a <country> of [Japan]?", notation="label"), "continent")
    assert print_squall(swapped, "label") == "Which [continent] is a <continent> of [Japan]?"
    # a property's steps (<P>+) are one relation too: a near property may be one step of another
    swapped = with_property(parse_squall("Which [country] is a <located in the administrative territorial entity>+ "
                                         "of [Paris]?", notation="label"), "country")
    assert print_squall(swapped, "label") == "Which [country] is a <country> of [Paris]?"
    # no class, nothing to tell a near property's answers right by: no near property
    assert with_property(parse_squall("What is the <country> of [Japan]?", notation="label"), "continent") is None
    # any other form has no near reading: a qualifier, a superlative, a count, two relations
    for text in ("Which [film] has <cast member> [A] at <character role> [B]?",
                 "Which [film] has <director> [A] and has the highest <box office>?",
                 "How many [film] has <director> [A]?",
                 "Which [film] has <director> [A] and has <cast member> [B]?"):
        query = parse_squall(text, notation="label")
        assert reversed_reading(query) is None and classless_reading(query) is None, text
        assert with_property(query, "genre") is None, text


def test_head_noun():
    assert head_noun("basketball team") == "team" and head_noun("Team") == "team"
    assert head_noun("association football club") == "club"
    assert head_noun("") is None and head_noun(None) is None


def test_a_property_written_the_wrong_way_round_is_turned_where_the_kg_says_so(kg):
    """The values of <genre> are genres, its subjects bands: "which genre has genre X" turned
    round answers with the band's genres; without the near readings, nothing."""
    text, question = "Which [music genre] has <genre> [Harbour Lights]?", "What genre of music do Harbour Lights play?"
    _, sparql, _ = _choose(kg, text, question, chooser=("answers", "type", "readings", "fit"))
    assert "?music_genre wdt:P136 wd:Q900" in sparql
    chosen, sparql, _ = _choose(kg, text, question)
    assert "wd:Q900 wdt:P136 ?music_genre" in sparql
    assert chosen == "Which [music genre] is a <genre> of [Harbour Lights]?"
    assert kg.query(sparql).rows


def test_a_property_whose_two_sides_are_alike_is_never_turned(kg):
    """Cy has no child in the KG: "which human has <child> Cy" (Cy's parents) is not turned into
    Cy's children, nor Ann's parents (none) into her children: both sides of <child> are people."""
    for text in ("Which [human] is a <child> of [Cy Grandchild]?", "Which [human] has <child> [Ann Parent]?"):
        chosen, sparql, _ = _choose(kg, text, "Who are they?")
        assert chosen == text, chosen


def test_a_class_the_kg_names_the_answers_after_is_left_out(kg):
    """Lee's teams are typed "basketball team", not "team"; the class left out, every answer is
    a kind of team by the KG's own class labels."""
    text = "Which [team] is a <member of sports team> of [Lee Forward]?"
    chosen, sparql, _ = _choose(kg, text, "Which teams did Lee Forward play for?")
    assert chosen == "What is a <member of sports team> of [Lee Forward]?"
    assert {row[0].value.rsplit("/", 1)[1] for row in kg.query(sparql).rows} == {"Q601", "Q602"}


def test_a_class_the_answers_are_typed_against_is_kept(kg):
    """Without its class, "which rock band is a <country> of Japan" answers Japan, an island
    country: not a rock band, so the written query stays (empty) rather than a wrong answer;
    and a football club is not named after "basketball team"."""
    text = "Which [rock band] is a <country> of [Japan]?"
    chosen, _, _ = _choose(kg, text, "Which rock band is Japan?")
    assert chosen == text
    text = "Which [basketball team] is a <member of sports team> of [Kim Striker]?"
    chosen, _, _ = _choose(kg, text, "Which basketball team does Kim Striker play for?")
    assert chosen == text
    # an answer the KG does not type is no evidence that it is of the class: the class stays
    text = "Which [team] is a <member of sports team> of [Sam Guard]?"
    chosen, _, _ = _choose(kg, text, "Which teams did Sam Guard play for?")
    assert chosen == text


def test_a_written_reading_that_answers_is_kept(kg):
    text = "Which [music genre] is a <genre> of [Harbour Lights]?"
    chosen, _, _ = _choose(kg, text, "What genre of music do Harbour Lights play?")
    assert chosen == text


def test_a_near_property_whose_answers_are_of_the_asked_class_is_kept(kg):
    """"Which continent is a <country> of Japan" finds nothing (Japan's country is Japan, no
    continent); of the question's property candidates, <continent> gives an answer of the asked
    class. A candidate whose answers are not of the class (<country>: Japan) is passed over."""
    text = "Which [continent] is a <country> of [Japan]?"
    properties = [("P17", "country"), ("P40", "child"), ("P30", "continent")]
    chosen, sparql, _ = _choose(kg, text, "Which continent is Japan in?", properties=properties)
    assert chosen == "Which [continent] is a <continent> of [Japan]?"
    assert [row[0].value.rsplit("/", 1)[1] for row in kg.query(sparql).rows] == ["Q48"]
    # without property candidates, the class is read as the property it names (the same answer);
    # when the written query answers, nothing changes
    assert _choose(kg, text, "Which continent is Japan in?")[0] == "What is the <continent> of [Japan]?"
    text = "Which [music genre] is a <genre> of [Harbour Lights]?"
    assert _choose(kg, text, "What genre?", properties=[("P30", "continent"), ("P136", "genre")])[0] == text


def test_a_class_named_as_the_property_is_left_out(kg):
    """"Which [member of sports team] is a <member of sports team> of Lee" writes the property's
    name where a class goes: the class says nothing, and without it the query answers."""
    from cnl.learn.repairs import class_echoes_property

    text = "Which [member of sports team] is a <member of sports team> of [Lee Forward]?"
    assert class_echoes_property(parse_squall(text, notation="label"))
    assert not class_echoes_property(parse_squall("Which [team] is a <member of sports team> of [Lee Forward]?",
                                                  notation="label"))
    chosen, _, _ = _choose(kg, text, "Which teams did Lee Forward play for?")
    assert chosen == "What is a <member of sports team> of [Lee Forward]?"


def test_a_qualifier_that_repeats_the_statement_s_named_thing_is_left_out(kg):
    """"... at <character role> [Harbour Lights] of [Harbour Lights]": the band is no value of its
    own qualifier; without it the query answers (and the class stays)."""
    text = "Which [music genre] is a <genre> at <character role> [Harbour Lights] of [Harbour Lights]?"
    cleaned = without_echoed_qualifiers(parse_squall(text, notation="label"))
    assert print_squall(cleaned, "label") == "Which [music genre] is a <genre> of [Harbour Lights]?"
    chosen, _, _ = _choose(kg, text, "What genre of music do Harbour Lights play?")
    assert chosen == "Which [music genre] is a <genre> of [Harbour Lights]?"
    for other in ("Which [music genre] is a <genre> at <character role> [Japan] of [Harbour Lights]?",
                  "Which [music genre] is a <genre> of [Harbour Lights]?"):
        assert without_echoed_qualifiers(parse_squall(other, notation="label")) is None


def test_a_class_named_as_the_property_that_no_kg_has_is_left_out_before_the_choice(tmp_path):
    """A KG has no class "award received": the written text does not compile, and without the
    class, named as the property is, it does (with or without a KG to judge it)."""
    from cnl.kg import open_kg
    from cnl.learn.inference import Translator
    from tests.kg_fixtures import store_from_ttl

    ttl = TTL.replace('wd:Q999 rdfs:label "member of sports team"@en .\n', "")
    with open_kg(store=store_from_ttl(ttl, tmp_path)) as other:
        translator = Translator(None, None)
        text = "Which [member of sports team] is a <member of sports team> of [Lee Forward]?"
        for kg in (other, None):
            chosen, sparql, error = translator.choose([text], translator.resolver([], kg=other), kg=kg,
                                                      question="Which teams did Lee Forward play for?")
            assert chosen == "What is a <member of sports team> of [Lee Forward]?" and sparql, error


def test_the_near_readings_of_one_question_are_bounded(kg):
    """Each near reading is a query on the KG (seconds on a remote endpoint): at most
    MAX_NEAR_READINGS are judged, however many texts and candidates."""
    from cnl.learn.inference import Translator
    from cnl.learn.repairs import MAX_NEAR_READINGS, near_readings
    from cnl.linking.property_candidates import PropertyCandidate
    from cnl.sparql.compiler import compile_query

    translator = Translator(None, None)
    resolver = translator.resolver([], kg=kg)
    texts = ["Which [continent] is a <country> of [Japan]?", "Which [human] has <child> [Ann Parent]?",
             "Which [team] is a <member of sports team> of [Sam Guard]?", "Which [music genre] has <genre> [Band 1]?"]
    written = [(t, compile_query(parse_squall(t, notation="label"), "wikidata", resolver)) for t in texts]
    labels = ["continent", "genre", "member of sports team", "child", "country", "spouse", "father", "mother"]
    properties = [PropertyCandidate(f"P{i}", label, 0.5) for i, label in enumerate(labels)]
    found = near_readings(written, notation="label", resolver=resolver, kg=kg, profile="wikidata",
                          properties=properties, fit=translator.slot_fit(kg), timeout=5.0)
    assert len(found) == MAX_NEAR_READINGS  # (there are more: 4 texts, 8 candidates each)


def _candidate(qid, label, mention):
    return {"id": qid, "label": label, "mention": mention, "probability": 0.9}


def test_the_question_s_relational_nouns():
    """"the N of X" and "X's N", N a property candidate's label, its plural or an alias, X the words
    a candidate was linked from: "What is the <N> of [X]?"."""
    from cnl.learn.repairs import relational_noun_readings
    from cnl.linking.property_candidates import PropertyCandidate

    properties = [PropertyCandidate("P36", "capital", 0.5), PropertyCandidate("P40", "child", 0.5),
                  PropertyCandidate("P169", "chief executive officer", 0.5, aliases=("CEO",)),
                  PropertyCandidate("P361", "part of", 0.5), PropertyCandidate("P37", "official language", 0.5),
                  PropertyCandidate("P1376", "capital of", 0.5)]
    candidates = [_candidate("Q17", "Japan", "Japan"), _candidate("Q700", "Ann Parent", "Ann Parent"),
                  _candidate("Q312", "Apple Inc.", "Apple"), _candidate("Q5", "human", "people")]

    def read(question):
        return [print_squall(q, "label") for q in relational_noun_readings(question, candidates, properties)]

    assert read("What is the capital of Japan?") == ["What is the <capital> of [Japan]?"]
    assert read("Who are the children of Ann Parent?") == ["What is the <child> of [Ann Parent]?"]
    assert read("Who are Ann Parent's children?") == ["What is the <child> of [Ann Parent]?"]
    assert read("What's the capital of Japan?") == ["What is the <capital> of [Japan]?"]
    # a name that goes on past the words its candidate was linked from ("Ann Parent the Elder")
    assert read("Who were Ann Parent the Elder's children?") == ["What is the <child> of [Ann Parent]?"]
    assert read("Who were the children of Ann Parent the Elder?") == ["What is the <child> of [Ann Parent]?"]
    assert read("What was the capital of Japan in 1900?") == []
    assert read("Who is the CEO of Apple?") == ["What is the <chief executive officer> of [Apple Inc.]?"]
    assert read("What are the official languages of Japan?") == ["What is the <official language> of [Japan]?"]
    # "capital of" ends in "of": no relational noun (the capital of Japan is read by "capital")
    assert read("Tell me the capital of Japan") == ["What is the <capital> of [Japan]?"]
    # the pair must be the whole question: here the question asks something else of the capital
    assert read("What province is Japan's capital located in?") == []
    assert read("Which river flows through the capital of Japan?") == []
    # no property candidate named there, or no candidate's words after it
    assert read("Which part of Japan is the coldest?") == []
    assert read("What is the capital of the country?") == []
    assert read("Who directed Inception?") == []


def test_the_question_s_relational_noun_is_read_where_the_written_text_finds_nothing(kg):
    """"Who are the children of Ann Parent?" written "Which [human] has <child> [Ann Parent]?" (her
    parents: none). <child> is never turned round by the KG's profiles (both sides are people);
    the question's own words "the children of Ann Parent" say which way."""
    text = "Which [human] has <child> [Ann Parent]?"
    candidates = [_candidate("Q700", "Ann Parent", "Ann Parent")]
    chosen, sparql, _ = _choose(kg, text, "Who are the children of Ann Parent?", properties=[("P40", "child")],
                                candidates=candidates)
    assert chosen == "What is the <child> of [Ann Parent]?"
    assert [row[0].value.rsplit("/", 1)[1] for row in kg.query(sparql).rows] == ["Q701"]


def test_the_question_s_relational_noun_comes_first_where_no_written_text_says_it(kg):
    """"What is the continent of Japan?" written "What is the <country> of [Japan]?" answers (Japan),
    but never says the continent the question asks for: the question's own reading comes first.
    A written text that says the property, or a relational reading without an answer, stays."""
    candidates = [_candidate("Q17", "Japan", "Japan")]
    properties = [("P17", "country"), ("P30", "continent")]
    chosen, sparql, _ = _choose(kg, "What is the <country> of [Japan]?", "What is the continent of Japan?",
                                properties=properties, candidates=candidates)
    assert chosen == "What is the <continent> of [Japan]?"
    assert [row[0].value.rsplit("/", 1)[1] for row in kg.query(sparql).rows] == ["Q48"]
    text = "Which [continent] is a <continent> of [Japan]?"
    assert _choose(kg, text, "What is the continent of Japan?", properties=properties,
                   candidates=candidates)[0] == text
    text = "What is the <country> of [Japan]?"
    assert _choose(kg, text, "What is the child of Japan?", properties=[("P40", "child")],
                   candidates=candidates)[0] == text


def test_a_class_that_is_a_property_s_name_is_read_as_that_property(kg):
    """"Which [genre] is a <member of sports team> of [Harbour Lights]?": the KG has no class
    "genre" (the text does not compile), and "genre" names a property: the genre of Harbour
    Lights. A class the KG has, or a name no property has, gives nothing."""
    from cnl.learn.repairs import text_with_class_as_property

    text = "Which [genre] is a <member of sports team> of [Harbour Lights]?"
    ids = {"genre": "P136", "member of sports team": "P54"}
    assert text_with_class_as_property(text, "label", ids.get) == "What is the <genre> of [Harbour Lights]?"
    assert text_with_class_as_property(text, "label", lambda label: None) is None
    assert text_with_class_as_property("What is the <genre> of [Harbour Lights]?", "label", ids.get) is None
    chosen, sparql, _ = _choose(kg, text, "What kind of music do Harbour Lights play?")
    assert chosen == "What is the <genre> of [Harbour Lights]?"
    assert {row[0].value.rsplit("/", 1)[1] for row in kg.query(sparql).rows} == {"Q11399", "Q11366"}


def test_a_class_named_as_a_property_is_read_as_that_property_where_nothing_answers(kg):
    """"Which [continent] has <member of sports team> [Japan]?" finds nothing; its class is named
    as a property is: Japan's continent answers. Where the written reading answers, or the class
    names no property, it stays."""
    from cnl.learn.repairs import class_as_property_reading

    def is_property(label):
        return {"continent": "P30", "genre": "P136", "member of sports team": "P54", "child": "P40",
                "team": "P54"}.get(label)

    query = parse_squall("Which [continent] has <member of sports team> [Japan]?", notation="label")
    assert print_squall(class_as_property_reading(query, is_property), "label") == \
        "What is the <continent> of [Japan]?"
    assert class_as_property_reading(parse_squall("Which [human] has <child> [Japan]?", notation="label"),
                                     is_property) is None
    # the class is named as the written property is: nothing new (that is the class left out)
    assert class_as_property_reading(parse_squall("Which [genre] is a <genre> of [Japan]?", notation="label"),
                                     is_property) is None
    assert class_as_property_reading(parse_squall("Which [team] is a <member of sports team> of [Japan]?",
                                                  notation="label"), is_property) is None
    chosen, sparql, _ = _choose(kg, "Which [continent] has <member of sports team> [Japan]?",
                                "Which continent is Japan on?")
    assert chosen == "What is the <continent> of [Japan]?"
    assert [row[0].value.rsplit("/", 1)[1] for row in kg.query(sparql).rows] == ["Q48"]
    text = "Which [music genre] is a <genre> of [Harbour Lights]?"
    assert _choose(kg, text, "What genre?")[0] == text


def test_a_class_that_keeps_only_some_of_what_the_kg_names_after_it_is_left_out(kg):
    """The written query answers (Landia, typed *country*), but leaves out the Old Empire, which the
    KG types as a *historical country*: a kind of country by the KG's own class label, so every
    country of Ada's citizenship is given."""
    text = "Which [country] is a <country of citizenship> of [Ada Citizen]?"
    chosen, sparql, _ = _choose(kg, text, "Which countries was Ada Citizen a citizen of?")
    assert chosen == "What is a <country of citizenship> of [Ada Citizen]?"
    assert {row[0].value.rsplit("/", 1)[1] for row in kg.query(sparql).rows} == {"Q640", "Q641"}


@pytest.mark.parametrize("text", [
    # a trade bloc is not named after "country": the class tells the answers apart, and stays
    "Which [country] is a <country of citizenship> of [Bo Citizen]?",
    # the class keeps everything the KG states: nothing to complete
    "Which [country] is a <country of citizenship> of [Cy Citizen]?",
])
def test_a_class_that_tells_the_answers_apart_or_keeps_them_all_stays(kg, text):
    assert _choose(kg, text, "Which countries is this person a citizen of?")[0] == text
