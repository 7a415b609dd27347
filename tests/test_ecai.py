import pytest

from cnl.datasets.ecai.loader import (
    EcaiRecord,
    check_parses,
    load_ecai,
    normalize_gold_sparql,
    parse_candidates,
)
from cnl.errors import DataError


@pytest.fixture(scope="module")
def records(shared_data):
    return {split: load_ecai(split, shared_data) for split in ("train", "test")}


def by_question(records, split, question):
    return [r for r in records[split] if r.question == question]


def test_counts(records):
    assert len(records["train"]) == 400
    assert len(records["test"]) == 150
    assert [r.index for r in records["train"]] == list(range(400))
    assert all(isinstance(r, EcaiRecord) for r in records["train"])
    assert sum(r.sparklis is None for s in records.values() for r in s) == 0
    # 6 train questions have no SPARQL partner in the file (the SPARQL list holds 6 other
    # questions instead); the test split is complete.
    assert sum(r.sparql_raw is None for r in records["train"]) == 6
    assert sum(r.sparql_raw is None for r in records["test"]) == 0


def test_alignment_spot_checks(records):
    (wayne,) = by_question(records, "train", "How many Academy Awards did John Wayne win?")
    assert wayne.squall == "How many <Academy_Awards> <John_Wayne> did <P166:award_received>?"
    assert wayne.sparklis.startswith("John Wayne <P166:award_received> an Academy Awards")
    assert "wd:Q40531 p:<P166:award_received>" in wayne.sparql_raw
    assert {c.id for c in wayne.candidates} == {"Q19020", "Q40531"}

    (metallica,) = by_question(records, "test", "When did Metallica put out their fourth album?")
    assert metallica.squall.startswith("What is the 4th earliest <P577:publication_date>")
    assert "n1:q15920 p:<p358:discography>" in metallica.sparql_raw
    assert "Metallica studio albums" in metallica.sparklis


def test_repeated_question_paired_in_order(records):
    twilight = by_question(records, "train", "What is the first Twilight movie?")
    assert len(twilight) == 2
    assert twilight[0].sparql_raw is not None and twilight[1].sparql_raw is None
    assert twilight[0].sparklis is not None and twilight[1].sparklis is not None


def test_near_duplicate_question_aligned_loosely(records):
    (sandman,) = by_question(records, "train", "Did The Chordettes Mr. Sandman come out before 1955?")
    assert sandman.sparql_raw is not None and "P577" in sandman.sparql_raw


def test_completions_are_stripped(records):
    for split in records.values():
        for r in split:
            for text in (r.squall, r.sparklis, r.sparql_raw):
                assert text is None or text == text.rstrip()


def test_broken_candidate_quoting_is_recovered():
    prompt = (
        "Question: x?\nEntities: [{'ID': 'Q8502', 'Label': 'mountain', 'Description': "
        "'large natural elevation of the Earth's surface', 'Probability': 0.967}]\n\n###\n\n"
    )
    (cand,) = parse_candidates(prompt)
    assert cand.id == "Q8502" and cand.label == "mountain" and cand.probability == 0.967
    assert cand.description == "large natural elevation of the Earth's surface"


@pytest.mark.parametrize(
    "raw, expected",
    [
        ("SELECT DISTINCT ?x WHERE { ?x p:<P39:position_held> [ ps:<P39:position_held> wd:Q1 ;"
         " n1<P580:start_time> ?d ] . } LIMIT 200",
         "SELECT DISTINCT ?x WHERE { ?x p:P39 [ ps:P39 wd:Q1 ; pq:P580 ?d ] . } LIMIT 200"),
        ("SELECT DISTINCT ?x WHERE { ?x p:<P2142:box_office> [ ps:<P2142:box_office> ?x ;"
         " n1:P3005 wd:Q30 ] . }", None),
        ("select distinct ?q5_1 where { ?q5_1 wdt:p31 n1:q5 . }",
         "SELECT DISTINCT ?q5_1 WHERE { ?q5_1 wdt:P31 wd:Q5 . }"),
        ("SELECT DISTINCT ?P50_12WHERE { wd:Q1 p:<P50:author> [ ps:<P50:author> ?P50_12 ] . }LIMIT 200",
         "SELECT DISTINCT ?P50_12 WHERE { wd:Q1 p:P50 [ ps:P50 ?P50_12 ] . } LIMIT 200"),
        ("SELECT * WHERE {{ SELECT DISTINCT ?a WHERE { ?a wdt:P31 wd:Q5 . } LIMIT 200 }}",
         "SELECT DISTINCT ?a WHERE { ?a wdt:P31 wd:Q5 . } LIMIT 200"),
        # `<P57:director>7` is P577 mangled by label substitution
        ("SELECT ?d WHERE { ?f p:<P57:director>7 [ ps:<P57:director>7 ?d ] . }",
         "SELECT ?d WHERE { ?f p:P577 [ ps:P577 ?d ] . }"),
        ('select ?x where { ?x p:<p577:publication_date> [ ps:<p577:publication_date> '
         '"2010-10-01t00:00:00z"^^xsd:datetime ] . }',
         'SELECT ?x WHERE { ?x p:P577 [ ps:P577 "2010-10-01T00:00:00Z"^^xsd:dateTime ] . }'),
    ],
)
def test_normalize_variants(raw, expected):
    query = normalize_gold_sparql(raw)
    body = query.split("\n")[-1]
    if expected is not None:
        assert body == expected
    assert "<P" not in body and "n1" not in body
    check_parses(query)


@pytest.mark.parametrize(
    "raw, reason",
    [
        ("WHERE { ?x wdt:P31 wd:Q5 . } LIMIT 200 }}", "no SELECT/ASK head"),
        ("SELECT ?x WHERE { ?x wdt:P31 wd:Q5 } ORDER BY ?x LIMIT  }}", "without a count"),
        ("can't find squall", "not a query"),
        ("", "empty"),
    ],
)
def test_normalize_refuses_with_reason(raw, reason):
    with pytest.raises(DataError, match=reason):
        normalize_gold_sparql(raw)


def test_all_gold_queries_normalize_and_parse(records):
    ok, refused = 0, []
    for split in records.values():
        for r in split:
            if r.sparql_raw is None:
                continue
            try:
                query = normalize_gold_sparql(r.sparql_raw)
            except DataError as exc:
                refused.append((r.split, r.index, str(exc)))
                continue
            check_parses(query)  # raises DataError naming the parser's complaint
            ok += 1
    # train 59 and test 54 lack the SELECT head; train 323 ends in `LIMIT }}`
    assert sorted((s, i) for s, i, _ in refused) == [("test", 54), ("train", 59), ("train", 323)]
    assert ok == 541


ALIGN_SCRIPT = """
from cnl.datasets.ecai.prepared import aligned_records
print(repr(sorted((p.record.split, p.record.index, sorted(p.alignment.items()))
                  for p in aligned_records("test"))))
"""


@pytest.mark.slow  # aligns all 550 records in two fresh processes
def test_alignment_is_deterministic_and_injective(shared_data):
    """Two labels never take one ID (Death / Discworld books both matched the gold's two
    series), ties go to the candidates' words, and the result does not depend on the hash
    seed (rdflib names blank nodes at random, which once decided the order of the search)."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    from cnl.datasets.ecai.prepared import aligned_records

    by_index = {p.record.index: p for p in aligned_records("train")}
    death = by_index[43].alignment
    assert death[("entity", "Death")] == "Q54877325"
    assert death[("entity", "Discworld books")] == "Q3257270"
    from cnl.datasets.ecai.alignment import align

    for prep in aligned_records("test"):
        found = align(prep.query, prep.gold, prep.record.candidates)
        ids = [v for key, v in found.mapping.items() if found.source[key] == "gold"]
        assert len(ids) == len(set(ids)), prep.record.squall
    root = Path(__file__).resolve().parents[1]
    outputs = {subprocess.run([sys.executable, "-c", ALIGN_SCRIPT], capture_output=True, text=True, check=True,
                              cwd=root, env={**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(root)}).stdout
               for seed in ("1", "2")}
    assert len(outputs) == 1
