"""Evaluation metrics of the BridgeKGLM paper and of SPINACH/GRASP.

Text metrics compare a generated query string with the gold string: BLEU (cumulative 4-gram,
sacrebleu), METEOR (nltk, WordNet read from Debian's ``wordnet-base``), ROUGE-2 (rouge-score)
and exact match. Execution metrics compare answers: Hits@1 against gold answers, the paper's
Translation Accuracy (TA = A1 ∪ A2), TA-offline (SPARQL equivalence instead of execution) and
the row-major / assignment F1 (answers with extra columns are not penalized).

Answers are passed as plain data so the metrics need no knowledge graph: a SELECT result is a
sequence of rows (tuples of values, ``None`` for unbound), an ASK result a ``bool``, and a
query that failed (did not parse, compile or execute) is ``None``.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

Answer = Sequence[Sequence[object]] | bool | None

WORDNET_DIR = Path("/usr/share/wordnet")


def normalize_query_text(text: str) -> str:
    """Collapse whitespace: two strings that differ only in spacing are the same query."""
    return " ".join(text.split())


# --------------------------------------------------------------------------- text metrics

def bleu(hypotheses: Sequence[str], references: Sequence[str]) -> float:
    """Corpus BLEU, cumulative 1–4-gram geometric mean with brevity penalty, in [0, 1]."""
    import sacrebleu

    _check_lengths(hypotheses, references)
    if not hypotheses:
        return 0.0
    score = sacrebleu.corpus_bleu(list(hypotheses), [list(references)])
    return score.score / 100.0


def sentence_bleu(hypothesis: str, reference: str) -> float:
    """BLEU of one pair (exponential smoothing, as sacrebleu does for sentences), in [0, 1]."""
    import sacrebleu

    return sacrebleu.sentence_bleu(hypothesis, [reference]).score / 100.0


_wordnet = None


def wordnet_reader(root: str | Path = WORDNET_DIR):
    """nltk's WordNet reader on the system's WordNet 3.0 files, never downloading anything.

    Debian's ``wordnet-base`` lacks the ``lexnames`` file nltk insists on: the standard one is
    shipped with this package and served in its place.
    """
    global _wordnet
    root = Path(root)
    if _wordnet is not None and root == WORDNET_DIR:
        return _wordnet
    import io

    import nltk.data
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    from cnl.errors import EvalDependencyMissing

    if not (root / "data.noun").exists():
        raise EvalDependencyMissing(
            f"WordNet not found at {root}: install it with `apt-get install -y wordnet-base` "
            "(METEOR needs it)"
        )
    lexnames = Path(__file__).with_name("wordnet_lexnames.txt").read_text()

    class SystemWordNet(WordNetCorpusReader):
        def open(self, file):
            if file == "lexnames" and not (root / "lexnames").exists():
                return io.StringIO(lexnames)
            return super().open(file)

        def map_wn(self, version="wordnet"):
            # nltk maps synsets from its own downloaded WordNet 3.0; this *is* WordNet 3.0
            return None

    # nltk only opens corpora under its data path (a path sandbox).
    if str(root.resolve()) not in nltk.data.path:
        nltk.data.path.append(str(root.resolve()))
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "multilingual functions are not available": not used
        reader = SystemWordNet(str(root.resolve()), None)
    if root == WORDNET_DIR:
        _wordnet = reader
    return reader


_TOKEN = re.compile(r"\w+|[^\w\s]")


def tokenize(text: str) -> list[str]:
    """Words and single punctuation marks: ``<director>`` → ``<``, ``director``, ``>``."""
    return _TOKEN.findall(text)


def meteor(hypotheses: Sequence[str], references: Sequence[str]) -> float:
    """Mean sentence METEOR (nltk defaults: alpha 0.9, beta 3, gamma 0.5; WordNet synonyms)."""
    from nltk.translate.meteor_score import meteor_score

    _check_lengths(hypotheses, references)
    if not hypotheses:
        return 0.0
    wn = wordnet_reader()
    total = 0.0
    for hyp, ref in zip(hypotheses, references):
        total += meteor_score([tokenize(ref)], tokenize(hyp), wordnet=wn)
    return total / len(hypotheses)


def rouge2(hypotheses: Sequence[str], references: Sequence[str], measure: str = "fmeasure") -> float:
    """Mean ROUGE-2 (bigram overlap; ``measure`` = fmeasure, recall or precision)."""
    from rouge_score import rouge_scorer

    _check_lengths(hypotheses, references)
    if not hypotheses:
        return 0.0
    scorer = rouge_scorer.RougeScorer(["rouge2"])
    total = 0.0
    for hyp, ref in zip(hypotheses, references):
        total += getattr(scorer.score(ref, hyp)["rouge2"], measure)
    return total / len(hypotheses)


def exact_match(hypotheses: Sequence[str], references: Sequence[str]) -> float:
    """Share of predictions equal to the gold string up to whitespace."""
    _check_lengths(hypotheses, references)
    if not hypotheses:
        return 0.0
    hits = sum(normalize_query_text(h) == normalize_query_text(r)
               for h, r in zip(hypotheses, references))
    return hits / len(hypotheses)


def _check_lengths(a: Sequence, b: Sequence) -> None:
    if len(a) != len(b):
        raise ValueError(f"{len(a)} predictions for {len(b)} references")


# --------------------------------------------------------------------------- execution metrics

def answer_set(answer: Answer) -> frozenset | bool | None:
    """The comparable form of an answer: a set of rows, each row the set of its bound values
    (variable names and column order differ between a prediction and the gold)."""
    if answer is None or isinstance(answer, bool):
        return answer
    return frozenset(frozenset(str(v) for v in row if v is not None) for row in answer)


def is_empty(answer: Answer) -> bool:
    """No answer: a failed query, an empty table, or rows with nothing bound. ASK is never empty."""
    if answer is None:
        return True
    if isinstance(answer, bool):
        return False
    return all(not row for row in answer_set(answer))


def hits_at_1(predicted: Answer, gold_answers: Iterable[object]) -> float:
    """1 when the first value of the first predicted row is one of the gold answers.

    ``gold_answers`` are plain values (IRIs, QIDs, literals, or a bool for yes/no questions);
    a QID matches its full Wikidata IRI.
    """
    if predicted is None:
        return 0.0
    gold = {_short(str(g)) for g in gold_answers if not isinstance(g, bool)}
    if isinstance(predicted, bool):
        return float(any(isinstance(g, bool) and g == predicted for g in gold_answers))
    for row in predicted:
        for value in row:
            if value is not None:
                return float(_short(str(value)) in gold)
        return 0.0
    return 0.0


def _short(value: str) -> str:
    return value.rsplit("/entity/", 1)[-1] if value.startswith("http://www.wikidata.org/entity/") else value


@dataclass(frozen=True)
class TAResult:
    """One prediction's Translation Accuracy and which component decided it."""

    correct: bool
    component: str  # "A1" (same non-empty answers), "A2" (both empty, same query), "none"


def translation_accuracy(predicted_answer: Answer, gold_answer: Answer,
                         predicted_query: str | None, gold_query: str) -> TAResult:
    """The paper's TA for one question.

    A1: the predicted query's answers equal the gold query's answers on the same KG.
    A2 (only when both return nothing, where A1 would be unreliable): the predicted query is the
    same as the gold query (whitespace-normalized string equality, as in the paper).
    A prediction that failed to parse, compile or execute (``None``) is wrong unless A2 holds.
    ASK: equal ``True`` is A1; an ASK answering ``False`` counts as empty (A2 decides).
    """
    # An ASK answered "no" found nothing, like an empty table: equal "no"s prove as little as two
    # empty results, so they too fall back to A2.
    pred_empty = is_empty(predicted_answer) or predicted_answer is False
    gold_empty = is_empty(gold_answer) or gold_answer is False
    if pred_empty and gold_empty:
        same = predicted_query is not None and (
            normalize_query_text(predicted_query) == normalize_query_text(gold_query))
        return TAResult(same, "A2" if same else "none")
    if predicted_answer is None or pred_empty != gold_empty:
        return TAResult(False, "none")
    same = answer_set(predicted_answer) == answer_set(gold_answer)
    return TAResult(same, "A1" if same else "none")


def ta_offline(predicted_sparql: str | None, gold_sparql: str) -> bool:
    """TA without a knowledge graph: the compiled prediction is equivalent to the gold SPARQL
    (canonical algebra, `cnl.sparql.equivalence`). Equivalent queries have equal answers on
    every KG, so this is a lower bound of A1 ∪ A2 on any graph."""
    if predicted_sparql is None:
        return False
    from cnl.sparql.equivalence import equivalent

    try:
        return bool(equivalent(predicted_sparql, gold_sparql))
    except Exception:  # an unparsable prediction is simply not equivalent
        return False


def row_major_f1(predicted: Answer, gold: Answer, *, max_rows: int = 1024) -> float:
    """SPINACH's row-major F1 (also GRASP's metric).

    Each gold row i is matched to at most one predicted row j maximizing the total row recall
    |y_i ∩ y'_j| / |y_i| (Hungarian assignment, scipy); pairs with zero recall are not matched,
    so extra predicted columns cost nothing. tp = Σ recall, fn = n − r + Σ(1 − recall),
    fp = n' − r, F1 = 2tp / (2tp + fp + fn). ASK: 1 when the booleans agree; ASK against SELECT
    (GRASP): 1 when the boolean equals "the SELECT has answers". Both empty: 1. Above
    ``max_rows`` rows on either side, the plain set F1 over all values is used (GRASP).
    """
    if predicted is None:
        return 0.0
    if isinstance(gold, bool) or isinstance(predicted, bool):
        gold_b = gold if isinstance(gold, bool) else not is_empty(gold)
        pred_b = predicted if isinstance(predicted, bool) else not is_empty(predicted)
        return float(gold_b == pred_b)
    gold_rows = [set(str(v) for v in row if v is not None) for row in gold]
    pred_rows = [set(str(v) for v in row if v is not None) for row in predicted]
    gold_rows = [r for r in gold_rows if r]
    pred_rows = [r for r in pred_rows if r]
    if not gold_rows and not pred_rows:
        return 1.0
    if not gold_rows or not pred_rows:
        return 0.0
    if len(gold_rows) > max_rows or len(pred_rows) > max_rows:
        return _set_f1(set().union(*pred_rows), set().union(*gold_rows))
    import numpy as np
    from scipy.optimize import linear_sum_assignment

    recall = np.array([[len(g & p) / len(g) for p in pred_rows] for g in gold_rows])
    rows, cols = linear_sum_assignment(recall, maximize=True)
    matched = [recall[i, j] for i, j in zip(rows, cols) if recall[i, j] > 0]
    r = len(matched)
    tp = float(sum(matched))
    fn = len(gold_rows) - r + sum(1.0 - m for m in matched)
    fp = len(pred_rows) - r
    return 2 * tp / (2 * tp + fp + fn)


def row_major_em(predicted: Answer, gold: Answer) -> float:
    """SPINACH's EM: 1 when the row-major F1 is 1."""
    return float(abs(row_major_f1(predicted, gold) - 1.0) < 1e-12)


def _set_f1(predicted: set, gold: set) -> float:
    tp = len(predicted & gold)
    if tp == 0:
        return 0.0
    return 2 * tp / (len(predicted) + len(gold))


def mean(values: Iterable[float]) -> float:
    values = list(values)
    return sum(values) / len(values) if values else 0.0
