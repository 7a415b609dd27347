"""Every metric on hand-made cases whose value is computed by hand in the comments."""
import math

import pytest

from cnl.eval import metrics as m


# ---------------------------------------------------------------- BLEU

def test_bleu_identical_is_one():
    assert m.bleu(["which [film] has <director> [Jon Favreau] ?"],
                  ["which [film] has <director> [Jon Favreau] ?"]) == pytest.approx(1.0)


def test_bleu_cumulative_four_gram_by_hand():
    # hyp "a b c d e" vs ref "a b c d f": p1 = 4/5, p2 = 3/4, p3 = 2/3, p4 = 1/2, BP = 1
    # BLEU = (4/5 · 3/4 · 2/3 · 1/2) ** (1/4) = 0.2 ** 0.25
    assert m.bleu(["a b c d e"], ["a b c d f"]) == pytest.approx(0.2 ** 0.25, abs=1e-4)


def test_bleu_brevity_penalty_by_hand():
    # hyp "a b c d" vs ref "a b c d e f": all precisions 1, BP = exp(1 - 6/4) = exp(-0.5)
    assert m.bleu(["a b c d"], ["a b c d e f"]) == pytest.approx(math.exp(-0.5), abs=1e-4)


def test_bleu_is_corpus_level():
    # two identical pairs of length 4: the corpus counts are those of one pair doubled
    assert m.bleu(["a b c d", "a b c d"], ["a b c d", "a b c d"]) == pytest.approx(1.0)


def test_length_mismatch_is_an_error():
    with pytest.raises(ValueError):
        m.bleu(["a"], ["a", "b"])


# ---------------------------------------------------------------- METEOR

def test_meteor_identical_by_hand():
    # 4 tokens, all matched in one chunk: P = R = 1, Fmean = 1,
    # penalty = 0.5 · (chunks / matches) ** 3 = 0.5 · (1/4) ** 3 = 0.0078125
    assert m.meteor(["which film has director"], ["which film has director"]) == pytest.approx(
        1 - 0.0078125)


def test_meteor_uses_wordnet_synonyms():
    # "car" matches "auto" through WordNet (nltk stems before the synonym stage, so the pair
    # must be stems already): still 4 matches in one chunk
    with_synonym = m.meteor(["which car has owner"], ["which auto has owner"])
    assert with_synonym == pytest.approx(1 - 0.0078125)


def test_meteor_partial_by_hand():
    # hyp "a b x" vs ref "a b c d": matches 2 (one chunk), P = 2/3, R = 2/4
    # Fmean = P·R / (0.9·P + 0.1·R) = (1/3) / (0.6 + 0.05) = 0.512820…
    # penalty = 0.5 · (1/2) ** 3 = 0.0625  →  0.512820 · 0.9375 = 0.480769…
    fmean = (2 / 3 * 0.5) / (0.9 * 2 / 3 + 0.1 * 0.5)
    assert m.meteor(["a b x"], ["a b c d"]) == pytest.approx(fmean * (1 - 0.0625), abs=1e-6)


def test_tokenize_splits_brackets():
    assert m.tokenize("has <director> [Jon Favreau]?") == [
        "has", "<", "director", ">", "[", "Jon", "Favreau", "]", "?"]


# ---------------------------------------------------------------- ROUGE-2

def test_rouge2_by_hand():
    # ref bigrams {a b, b c, c e}; hyp bigrams {a b, b c, c d}: overlap 2 → P = R = F = 2/3
    assert m.rouge2(["a b c d"], ["a b c e"]) == pytest.approx(2 / 3)
    # recall only: hyp "a b" (1 bigram) vs ref "a b c" (2 bigrams) → R = 1/2, P = 1
    assert m.rouge2(["a b"], ["a b c"], measure="recall") == pytest.approx(0.5)
    assert m.rouge2(["a b"], ["a b c"], measure="precision") == pytest.approx(1.0)


# ---------------------------------------------------------------- exact match

def test_exact_match_ignores_whitespace_only():
    hyps = ["which [film]  has <director> [X]?", "which [film] has <director> [Y]?"]
    refs = ["which [film] has <director> [X]?", "which [film] has <director> [X]?"]
    assert m.exact_match(hyps, refs) == 0.5


# ---------------------------------------------------------------- Hits@1

def test_hits_at_1_first_value_of_first_row():
    pred = [("http://www.wikidata.org/entity/Q25191",), ("Q1",)]
    assert m.hits_at_1(pred, ["Q25191"]) == 1.0
    assert m.hits_at_1([("Q1",), ("Q25191",)], ["Q25191"]) == 0.0
    assert m.hits_at_1([], ["Q25191"]) == 0.0
    assert m.hits_at_1(None, ["Q25191"]) == 0.0
    assert m.hits_at_1([(None, "Q7")], ["Q7"]) == 1.0  # unbound columns are skipped
    assert m.hits_at_1(True, [True]) == 1.0
    assert m.hits_at_1(False, [True]) == 0.0


# ---------------------------------------------------------------- TA (A1 ∪ A2)

def test_ta_a1_same_answers_any_order_and_variable_names():
    gold = [("Q1",), ("Q2",)]
    pred = [("Q2",), ("Q1",)]
    result = m.translation_accuracy(pred, gold, "q pred", "q gold")
    assert result == m.TAResult(True, "A1")


def test_ta_a1_different_answers():
    assert not m.translation_accuracy([("Q1",)], [("Q1",), ("Q2",)], "p", "g").correct
    assert not m.translation_accuracy([("Q1",)], [], "p", "g").correct
    assert not m.translation_accuracy([], [("Q1",)], "p", "g").correct


def test_ta_a2_both_empty_needs_the_same_query():
    assert m.translation_accuracy([], [], "which [film]  has <director> [X]?",
                                  "which [film] has <director> [X]?") == m.TAResult(True, "A2")
    assert m.translation_accuracy([], [], "which [film] has <director> [Y]?",
                                  "which [film] has <director> [X]?") == m.TAResult(False, "none")


def test_ta_failed_prediction():
    # a prediction that did not parse/execute has no answers: wrong unless A2 holds
    assert not m.translation_accuracy(None, [("Q1",)], "garbage", "g").correct
    assert not m.translation_accuracy(None, [], None, "g").correct
    assert m.translation_accuracy(None, [], "g", "g").correct


def test_ta_ask_answers():
    assert m.translation_accuracy(True, True, "p", "g").correct
    assert not m.translation_accuracy(False, True, "p", "g").correct
    # two "no"s prove nothing (like two empty tables): the queries must be the same (A2)
    assert not m.translation_accuracy(False, False, "p", "g").correct
    assert m.translation_accuracy(False, False, "g", "g") == m.TAResult(True, "A2")


def test_ta_offline_uses_equivalence():
    gold = "SELECT ?x WHERE { ?x <http://ex/p> <http://ex/o> . ?x <http://ex/q> ?y }"
    same = "SELECT ?a WHERE { ?a <http://ex/q> ?b . ?a <http://ex/p> <http://ex/o> }"
    other = "SELECT ?a WHERE { ?a <http://ex/p> <http://ex/o> }"
    assert m.ta_offline(same, gold)
    assert not m.ta_offline(other, gold)
    assert not m.ta_offline(None, gold)
    assert not m.ta_offline("SELECT WHERE {", gold)


# ---------------------------------------------------------------- row-major F1

def test_row_major_f1_identical_and_extra_columns_free():
    gold = [("Q1",), ("Q2",)]
    assert m.row_major_f1(gold, gold) == 1.0
    # the prediction adds a label column: not penalized
    assert m.row_major_f1([("Q1", "one"), ("Q2", "two")], gold) == 1.0
    assert m.row_major_em([("Q1", "one"), ("Q2", "two")], gold) == 1.0


def test_row_major_f1_partial_by_hand():
    # gold rows {A,B}, {C,D}; predicted rows {A,X}, {C,D}, {E}
    # recall matrix: gold1-pred1 = 1/2, gold2-pred2 = 1; pred3 matches nothing
    # r = 2, tp = 1.5, fn = 2 - 2 + 0.5 = 0.5, fp = 3 - 2 = 1
    # F1 = 3 / (3 + 1 + 0.5) = 2/3
    gold = [("A", "B"), ("C", "D")]
    pred = [("A", "X"), ("C", "D"), ("E",)]
    assert m.row_major_f1(pred, gold) == pytest.approx(2 / 3)
    assert m.row_major_em(pred, gold) == 0.0


def test_row_major_f1_assignment_is_optimal_not_greedy():
    # gold g1 = {A,B}, g2 = {A}; pred p1 = {A,B}, p2 = {A,C}
    # greedy row order could give g1-p2 (1/2) and g2-p1 (1); the optimum is g1-p1 (1) + g2-p2 (1)
    # tp = 2, fn = 0, fp = 0 → F1 = 1
    assert m.row_major_f1([("A", "C"), ("A", "B")], [("A", "B"), ("A",)]) == pytest.approx(1.0)


def test_row_major_f1_zero_recall_rows_are_not_matched():
    # no overlap at all: r = 0, tp = 0 → F1 = 0
    assert m.row_major_f1([("X",)], [("A",)]) == 0.0


def test_row_major_f1_empty_and_failed():
    assert m.row_major_f1([], []) == 1.0
    assert m.row_major_f1([], [("A",)]) == 0.0
    assert m.row_major_f1([("A",)], []) == 0.0
    assert m.row_major_f1(None, [("A",)]) == 0.0


def test_row_major_f1_ask():
    assert m.row_major_f1(True, True) == 1.0
    assert m.row_major_f1(False, True) == 0.0
    # ASK against SELECT: the boolean says whether the SELECT has answers (GRASP)
    assert m.row_major_f1(True, [("A",)]) == 1.0
    assert m.row_major_f1([], False) == 1.0
    assert m.row_major_f1([("A",)], False) == 0.0


def test_row_major_f1_falls_back_to_set_f1_on_huge_results():
    # over max_rows: plain F1 over all values; pred {A,B,C}, gold {A,B}: 2·2 / (3 + 2) = 0.8
    assert m.row_major_f1([("A",), ("B",), ("C",)], [("A",), ("B",)], max_rows=1) == \
        pytest.approx(0.8)
