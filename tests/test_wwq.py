"""WikiWebQuestions: loader, seeded dev split, SQUALL targets from the gold queries."""
from __future__ import annotations

import json

from cnl.datasets.wwq.loader import WWQRecord, load_wwq, output_names, parse_entities
from cnl.datasets.wwq.targets import TargetReport, build_target, wwq_targets

BIEBER = WWQRecord(
    "WebQTrn-0", "what is the name of justin bieber brother?",
    "PREFIX wd: <http://www.wikidata.org/entity/> PREFIX wdt: <http://www.wikidata.org/prop/direct/> "
    "SELECT DISTINCT ?x WHERE { wd:Q34086 wdt:P3373 ?x. ?x wdt:P21 wd:Q6581097. }",
    (("Justin Bieber", "Q34086"),), {"Q6581097": "male"})
BOOKS = WWQRecord(
    "WebQTrn-18", "what books did beverly cleary right?",
    "PREFIX wd: <http://www.wikidata.org/entity/> PREFIX wdt: <http://www.wikidata.org/prop/direct/> "
    "SELECT DISTINCT ?x WHERE { ?x wdt:P31/wdt:P279* wd:Q47461344; wdt:P50 wd:Q1316719. }",
    (("Beverly Cleary", "Q1316719"),), {"Q47461344": "written work"})
# a variable in predicate position has no CNL form (property paths do now: <P131>+)
# a predicate variable that is an answer column (one named once reads as <any property>)
ANY_PREDICATE = WWQRecord(
    "x", "what is paris?", "PREFIX wd: <http://www.wikidata.org/entity/> "
    "SELECT DISTINCT ?x ?p WHERE { wd:Q90 ?p ?x. }", (("Paris", "Q90"),))


def test_entities_and_output_names_are_read():
    assert parse_entities("Query: x\nEntities:Justin Bieber with QID Q34086;Pattie Mallette with QID Q7146;") == \
        (("Justin Bieber", "Q34086"), ("Pattie Mallette", "Q7146"))
    assert output_names("{ ?p wdt:P8345 wd:Q462; p:P161 ?y. ?y ps:P161 wd:Q37876 }",
                        "{ ?p wdt:media_franchise wd:star_wars; p:cast_member ?y. ?y ps:cast_member wd:Q37876 }") == \
        {"Q462": "star wars"}
    assert output_names("{ wd:Q1 wdt:P1 wd:Q2 }", "{ wd:a wdt:b }") == {}  # terms that do not pair up


def test_gold_queries_become_label_squall_targets():
    target, reason = build_target(BIEBER)
    assert reason == "" and target.cnl == "Which <sibling> of [Justin Bieber] has <sex or gender> [male]?"
    assert target.mapping[("entity", "male")] == "Q6581097" and target.preset_equivalent
    books, _ = build_target(BOOKS, {"Q47461344": "written work"})
    assert books.cnl == "Which [written work] has <author> [Beverly Cleary]?"
    assert books.options.get("subclasses") and books.preset_equivalent
    ids, _ = build_target(BIEBER, notation="id")
    assert ids.cnl == "Which <P3373> of <Q34086> has <P21> <Q6581097>?"


def test_questions_without_a_target_are_counted_with_their_reason():
    report = TargetReport()
    targets = wwq_targets([BIEBER, ANY_PREDICATE], report=report)
    assert len(targets) == 1 and report.records == 2 and report.targets == 1
    reason = "no CNL form: a variable in predicate position"
    assert report.reasons == {reason: 1} and report.examples[reason] == "x"


def test_dev_split_is_seeded_and_disjoint(shared_data, tmp_path):
    records = load_wwq()
    train, dev = load_wwq("train"), load_wwq("dev")
    assert len(records) == 2431 and len(dev) == 243 and len(train) + len(dev) == 2431
    assert not {r.id for r in train} & {r.id for r in dev}
    assert [r.id for r in load_wwq("dev")] == [r.id for r in dev]
    bieber = next(r for r in records if r.id == "WebQTrn-0")
    assert bieber.labels() == {"Q34086": "Justin Bieber", "Q6581097": "male"}
    # a folder of the two files loads the same way
    rows = json.loads((shared_data / "wikiwebquestions" / "train.json").read_text())[:3]
    ents = json.loads((shared_data / "wikiwebquestions" / "train_entities.json").read_text())[:3]
    (tmp_path / "train.json").write_text(json.dumps(rows))
    (tmp_path / "train_entities.json").write_text(json.dumps(ents))
    assert [r.id for r in load_wwq(folder=tmp_path)] == [r["id"] for r in rows]
