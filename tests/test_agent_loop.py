"""The agent loop end to end, driven by a scripted chat-completions server.

No hosted language model is reachable from the test machines, so `ScriptedChatServer` is a test
double: a real HTTP server on 127.0.0.1 speaking the OpenAI chat-completions protocol that
replays fixed tool calls. Everything else is real: the HTTP client, the tool dispatch, the
search indices, the CNL compiler and the embedded store loaded with a slice of the Wikidata
file around Christopher Nolan.
"""
from __future__ import annotations

import json

import pytest

from cnl.agent.loop import ChatClient, ModelConfig, run_agent
from cnl.agent.tools import Toolbox
from cnl.errors import AgentError, ModelEndpointError
from tests.agent_fixtures import NOLAN_FILMS, ScriptedChatServer, load_store, nolan_slice, tool_call

QUESTION = "Which films did Christopher Nolan direct?"


@pytest.fixture(scope="module")
def store(shared_data, tmp_path_factory):
    return load_store(nolan_slice(shared_data), tmp_path_factory.mktemp("nolan") / "store")


@pytest.fixture()
def toolbox(store, tmp_path, monkeypatch):
    monkeypatch.setenv("CNL_CACHE_DIR", str(tmp_path / "cache"))
    box = Toolbox.for_store(store, know_before_use=True)
    yield box
    box.kg.close()


def _run(script, toolbox, mode, tmp_path, **kwargs):
    server = ScriptedChatServer(script)
    client = ChatClient(ModelConfig(server.base_url, "stub-model", api_key="secret"))
    try:
        result = run_agent(QUESTION, toolbox, client, mode=mode, transcript=tmp_path / "t.jsonl", **kwargs)
    finally:
        client.close()
        server.stop()
    return result, server.requests, [json.loads(l) for l in (tmp_path / "t.jsonl").read_text().splitlines()]


def _films(toolbox, sparql):
    return {row[0].value.rsplit("/", 1)[-1] for row in toolbox.kg.select(sparql).rows}


def test_cnl_mode_answers_end_to_end(toolbox, tmp_path):
    script = [
        tool_call("search_entity", query="Christopher Nolan"),
        tool_call("search_property_of_entity", entity="Q25191", query="director"),
        tool_call("execute_cnl", cnl="What has has <P57> <Q25191>?"),   # a typo the parser reports
        tool_call("execute_cnl", cnl="What has <P57> <Q25191>?"),
        tool_call("answer", cnl="What has <P57> <Q25191>?", answer="Inception, Memento, ..."),
    ]
    result, requests, events = _run(script, toolbox, "cnl", tmp_path)
    assert result.status == "answered" and result.steps == 5
    assert result.cnl == "What has <P57> <Q25191>?"
    assert _films(toolbox, result.sparql) == NOLAN_FILMS
    # the model saw CNL-mode tools only, and the positioned syntax error to repair
    names = {t["function"]["name"] for t in requests[0]["body"]["tools"]}
    assert {"execute_cnl", "translate", "answer"} <= names and "execute_sparql" not in names
    assert requests[0]["authorization"] == "Bearer secret"
    tool_texts = [m["content"] for m in requests[-1]["body"]["messages"] if m["role"] == "tool"]
    assert "column 10" in tool_texts[2] and "^" in tool_texts[2]
    assert "Inception (wd:Q25188)" in tool_texts[3]
    assert [e["event"] for e in events][0] == "start" and events[-1]["event"] == "end"
    assert events[-1]["status"] == "answered"


def test_sparql_mode_answers_end_to_end(toolbox, tmp_path):
    sparql = "SELECT ?film WHERE { ?film wdt:P57 wd:Q25191 }"
    script = [
        tool_call("search_entity", query="nolan"),
        tool_call("search_property", query="director"),
        tool_call("execute_sparql", sparql=sparql),
        tool_call("answer", sparql=sparql, answer="seven films"),
    ]
    result, requests, _ = _run(script, toolbox, "sparql", tmp_path)
    assert result.status == "answered" and result.sparql == sparql and result.cnl is None
    assert _films(toolbox, result.sparql) == NOLAN_FILMS
    names = {t["function"]["name"] for t in requests[0]["body"]["tools"]}
    assert "execute_sparql" in names and "execute_cnl" not in names


def test_know_before_use_refuses_unseen_ids(toolbox, tmp_path):
    script = [tool_call("execute_sparql", sparql="SELECT ?x WHERE { ?x wdt:P57 wd:Q25191 }"),
              tool_call("cancel", explanation="gave up")]
    result, requests, _ = _run(script, toolbox, "sparql", tmp_path)
    assert result.status == "cancelled"
    refused = [m["content"] for m in requests[-1]["body"]["messages"] if m["role"] == "tool"][0]
    assert "know-before-use" in refused and "P57" in refused and "Q25191" in refused


def test_repeated_calls_and_step_limit(toolbox, tmp_path):
    same = tool_call("search_entity", query="Christopher Nolan")
    result, requests, _ = _run([same] * 6, toolbox, "cnl", tmp_path, max_repeats=2)
    assert result.status == "repeated" and result.steps == 4
    assert "already made this exact call" in requests[-1]["body"]["messages"][-1]["content"]
    result, _, _ = _run([tool_call("search_entity", query=f"q{i}") for i in range(5)], toolbox, "cnl",
                        tmp_path, max_steps=3)
    assert result.status == "step_limit" and result.steps == 3


def test_translate_without_learned_parser_is_an_error_result(toolbox, tmp_path, monkeypatch):
    from cnl.errors import OptionalDependencyMissing
    from cnl.learn import base_model

    def missing():
        raise OptionalDependencyMissing("the learned parser", "torch", "install the 'model' extra")

    monkeypatch.setattr(base_model, "require_model_stack", missing)
    result = toolbox.call("translate", {"question": QUESTION}, mode="cnl")
    assert not result.ok and "learned parser" in result.text


def test_unreachable_model_and_missing_config(toolbox, monkeypatch):
    from tests.kg_fixtures import free_port

    client = ChatClient(ModelConfig(f"http://127.0.0.1:{free_port()}/v1", "m", timeout=2))
    with pytest.raises(ModelEndpointError, match="cannot reach"):
        run_agent(QUESTION, toolbox, client)
    for var in ("CNL_AGENT_BASE_URL", "OPENAI_BASE_URL"):
        monkeypatch.delenv(var, raising=False)
    with pytest.raises(AgentError, match="base-url"):
        ModelConfig.from_env(model="m")
