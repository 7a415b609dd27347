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


# --- what a weak model does (the real-server run: tests/test_agent_real_server.py) ------------------

def text_turn(content: str) -> dict:
    return {"role": "assistant", "content": content}


def raw_call(name, arguments) -> dict:
    return {"role": "assistant", "content": None,
            "tool_calls": [{"id": "c1", "type": "function", "function": {"name": name, "arguments": arguments}}]}


def test_malformed_calls_become_error_results_and_history_stays_json(toolbox, tmp_path):
    script = [
        raw_call("search_entity", '{"query": "Christopher Nolan"'),        # arguments not JSON
        raw_call("search_entity", '["Christopher Nolan"]'),                 # JSON, not an object
        raw_call("search_entity", {"query": "Nolan"}),                       # an object, not a string
        raw_call("search_entitty", '{"query": "Nolan"}'),                   # no such tool
        {"role": "assistant", "content": None, "tool_calls": [{"id": "x", "function": {"arguments": "{}"}}]},
        {"role": "assistant", "content": None, "tool_calls": "search_entity"},  # not a list of calls
        tool_call("cancel", explanation="cannot"),
    ]
    result, requests, events = _run(script, toolbox, "cnl", tmp_path, max_steps=10, max_idle=5)
    assert result.status == "cancelled" and result.steps == 7 and result.message
    tool_texts = [m["content"] for m in requests[-1]["body"]["messages"] if m["role"] == "tool"]
    assert "not valid JSON" in tool_texts[0]
    assert "must be a JSON object" in tool_texts[1]
    assert "Christopher Nolan (wd:Q25191)" in tool_texts[2]
    assert "unknown tool 'search_entitty'" in tool_texts[3]
    user_notes = [m["content"] for m in requests[-1]["body"]["messages"] if m["role"] == "user"][1:]
    assert any("no tool name" in n for n in user_notes)
    # every call sent back as history carries a JSON object, whatever the model wrote
    for message in requests[-1]["body"]["messages"]:
        for call in message.get("tool_calls") or []:
            assert isinstance(json.loads(call["function"]["arguments"]), dict)
    assert [e["event"] for e in events].count("model") == 7


def test_calls_written_as_text_are_recovered(toolbox, tmp_path):
    script = [
        text_turn('<tool_call>\n{"name": "search_entity", "arguments": {"query": "Christopher Nolan"}}\n</tool_call>'),
        text_turn('Sure:\n```python\nsearch_entity_function(\n  {"name": "search_property", "arguments": '
                  '{"query": "director"}}\n)\n```'),
        text_turn('<tool_call>\n{"name": "execute_cnl", "arguments": {"cnl": "What has <P57> <Q25191>?"\n</tool_call>'),
        text_turn('{"name": "answer", "parameters": {"cnl": "What has <P57> <Q25191>?", "answer": "films"}}'),
    ]
    result, requests, events = _run(script, toolbox, "cnl", tmp_path)
    assert result.status == "answered" and result.steps == 4
    assert _films(toolbox, result.sparql) == NOLAN_FILMS
    tools = [e for e in events if e["event"] == "tool"]
    assert [t["name"] for t in tools] == ["search_entity", "search_property", "answer"]
    model = [e for e in events if e["event"] == "model"]
    assert all(c["source"] == "text" for c in model[0]["tool_calls"])
    assert "could not be read" in model[2]["notes"][0]   # the unterminated JSON: told, not run


def test_no_tool_call_and_repeated_text_stop_cleanly(toolbox, tmp_path):
    result, requests, events = _run([text_turn("The Dark Knight.")] * 6, toolbox, "sparql", tmp_path, max_idle=10)
    assert result.status == "repeated" and result.steps == 4 and "repeated" in result.message
    assert "No tool was called" in requests[1]["body"]["messages"][-1]["content"]
    result, _, events = _run([text_turn(f"answer {i}") for i in range(6)], toolbox, "sparql", tmp_path)
    assert result.status == "no_tool_call" and result.steps == 3
    assert events[-1]["event"] == "end" and events[-1]["status"] == "no_tool_call"


def test_server_errors_are_retried_then_stop(toolbox, tmp_path):
    script = [{"http_status": 500}, tool_call("search_entity", query="Nolan"), tool_call("cancel", explanation="x")]
    result, requests, events = _run(script, toolbox, "cnl", tmp_path)
    assert result.status == "cancelled" and result.steps == 3
    assert "could not read your last reply (HTTP 500)" in requests[1]["body"]["messages"][-1]["content"]
    assert [e["event"] for e in events][1] == "model_error"
    result, requests, _ = _run([{"http_status": 503}] * 5, toolbox, "cnl", tmp_path)
    assert result.status == "model_error" and result.steps == 3 and len(requests) == 3
    assert "HTTP 503" in result.message
    with pytest.raises(ModelEndpointError, match="HTTP 401"):
        _run([{"http_status": 401}], toolbox, "cnl", tmp_path)


def test_max_tokens_is_sent(toolbox, tmp_path):
    server = ScriptedChatServer([tool_call("cancel", explanation="x")])
    client = ChatClient(ModelConfig(server.base_url, "m", max_tokens=77))
    try:
        run_agent(QUESTION, toolbox, client)
    finally:
        client.close()
        server.stop()
    assert server.requests[0]["body"]["max_tokens"] == 77
