"""A reading that leaves out a name the question gives is flagged beside it
(:func:`cnl.learn.faithfulness.unused_names`), never declined: only proper names count."""
from cnl.learn.faithfulness import unused_names

PARIS = [{"id": "Q90", "label": "Paris", "mention": "Paris", "probability": 0.88},
         {"id": "Q830149", "label": "Paris", "mention": "Paris", "probability": 0.51},
         {"id": "Q5", "label": "human", "mention": "people", "probability": 0.63}]
COUNT_OF_HUMANS = ("SELECT (COUNT(DISTINCT ?h) AS ?count) WHERE { ?h <http://www.wikidata.org/prop/direct/P31> "
                   "<http://www.wikidata.org/entity/Q5> . }")
POPULATION = "SELECT ?p WHERE { wd:Q90 wdt:P1082 ?p . }"


def test_a_reading_without_the_named_thing_is_flagged():
    (warning,) = unused_names("How many people live in Paris?", PARIS, COUNT_OF_HUMANS)
    assert "'Paris'" in warning and "Q90" in warning


def test_a_reading_with_any_reading_of_the_name_is_not_flagged():
    assert unused_names("How many people live in Paris?", PARIS, POPULATION) == []
    other_paris = POPULATION.replace("Q90", "Q830149")
    assert unused_names("How many people live in Paris?", PARIS, other_paris) == []


def test_only_likely_capitalised_names_after_the_first_word_count():
    # a common noun ("people" links to *human*), a lower-case question, an unlikely link, the first word
    assert unused_names("how many people live in paris?", [dict(c, mention=c["mention"].lower()) for c in PARIS],
                        COUNT_OF_HUMANS) == []
    assert unused_names("How many people live in Paris?", [dict(c, probability=0.5) for c in PARIS],
                        COUNT_OF_HUMANS) == []
    assert unused_names("Paris has how many people?", PARIS, COUNT_OF_HUMANS) == []
    assert unused_names("How many people live in Paris?", PARIS, None) == []


def test_a_name_inside_a_term_of_the_reading_is_used():
    # "the United States" read inside [President of the United States of America]
    states = [{"id": "Q30", "label": "United States of America", "mention": "the United States", "probability": 0.9}]
    sparql = "SELECT ?h WHERE { ?h p:P39 [ ps:P39 wd:Q11696 ; pq:P1545 3 ] . }"
    question = "Who's the 3rd president of the United States?"
    assert unused_names(question, states, sparql, "Which [human] has <position held> [President of the United States "
                                                  "of America] at <series ordinal> 3?") == []
    assert len(unused_names(question, states, sparql, "Which [human] has <position held> [president]?")) == 1
