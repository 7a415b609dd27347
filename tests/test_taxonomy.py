"""The automatic Table 8 categories on hand-made wrong predictions."""
import cnl
from cnl.datasets.ecai.loader import Candidate
from cnl.eval.taxonomy import (CATEGORIES, GoldContext, classify, extract_terms, is_truncated,
                               tally, terms_of_ir)

GOLD_TERMS = [("class", "Q11424", "film"), ("property", "P57", "director"),
              ("entity", "Q295964", "Jon Favreau")]
CANDIDATES = [Candidate("Q295964", "Jon Favreau", "American actor", 1.0),
              Candidate("Q192724", "Iron Man", "2008 film", 0.37)]
GOLD = GoldContext.build(GOLD_TERMS, CANDIDATES)


def label(text, **kw):
    return classify(text, "label", GOLD, **kw)


def test_terms_of_a_resolved_ir():
    query = cnl.parse("Which <Q11424:film> has <P57:director> <Q295964:Jon_Favreau>?")
    assert sorted(terms_of_ir(query)) == sorted([
        ("class", "Q11424", "film"), ("property", "P57", "director"),
        ("entity", "Q295964", "Jon Favreau")])


def test_extract_terms_in_each_notation():
    assert extract_terms("which [film] has <director> [Jon Favreau]?", "label").entities == {
        "film", "jon favreau"}
    terms = extract_terms("SELECT ?x WHERE { ?x p:P57 [ ps:P57 wd:Q295964 ] }", "id")
    assert terms.entities == {"Q295964"} and terms.properties == {"P57"}
    terms = extract_terms("give me every film that has as a <P57:director> <Jon_Favreau>", "ecai")
    assert terms.entities == {"jon favreau"} and terms.properties == {"director"}


def test_entity_linking_when_a_gold_entity_is_not_a_candidate():
    gold = GoldContext.build(GOLD_TERMS, CANDIDATES[1:])
    assert classify("which [film] has <director> [Jon Favreau]?", "label", gold,
                    parsed=True) == "entity_linking"


def test_entity_selection_when_another_candidate_is_used():
    assert label("which [film] has <director> [Iron Man]?", parsed=True) == "entity_selection"
    assert classify("Which <Q11424> has <P57> <Q192724>?", "id", GOLD,
                    parsed=True) == "entity_selection"


def test_wrong_relation():
    assert label("which [film] has <producer> [Jon Favreau]?", parsed=True) == "wrong_relation"
    assert classify("SELECT ?x WHERE { ?x p:P162 [ ps:P162 wd:Q295964 ] }", "id", GOLD,
                    parsed=True) == "wrong_relation"


def test_hallucinated_entity():
    assert label("which [film] has <director> [Jon Favro]?", parsed=True) == "hallucinated_entity"
    assert classify("Which <Q11424> has <P57> <Q999>?", "id", GOLD,
                    parsed=True) == "hallucinated_entity"


def test_syntax_and_completion_errors():
    assert label("which [film] has has <director> [Jon Favreau]?", parsed=False) == "syntax"
    assert classify("SELECT ?x WHERE { ?x p:P57 [ ps:P57 wd:Q295964", "id", GOLD,
                    parsed=False) == "completion_error"
    assert is_truncated('which [film] has <director> [Jon')
    assert not is_truncated("which [film] has <director> [Jon Favreau]?")


def test_kg_structure_then_semantic():
    # right terms, runs, nothing comes back while the gold has answers
    text = "which [film] has <director> [Jon Favreau] and has <director> [Jon Favreau]?"
    assert label(text, parsed=True, executed_empty=True, gold_empty=False) == "kg_structure"
    assert label(text, parsed=True, executed_empty=False, gold_empty=False) == "semantic"
    assert label(text, parsed=True) == "semantic"


def test_tally_counts_in_fixed_order():
    counts = tally(["syntax", None, "syntax", "semantic"])
    assert list(counts) == list(CATEGORIES)
    assert counts["syntax"] == 2 and counts["semantic"] == 1 and counts["entity_linking"] == 0
