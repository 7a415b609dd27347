"""What a newcomer meets in the HTTP API (issue 32): API docs that need no CDN, an update refusal
that names no flag the server lacks, and the documented /text2sparql fallback (503 with an empty
query) when the parser abstains or runs out of time."""
from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from cnl.agent.server import NO_ANSWER_QUERY, ServerConfig, create_app
from tests.kg_fixtures import store_from_ttl
from tests.test_agent_server import DATASET, TTL


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    return store_from_ttl(TTL, tmp_path_factory.mktemp("films"))


def client(store, **options) -> TestClient:
    config = ServerConfig.from_dict({"datasets": {DATASET: {"store": str(store)}}, "use_translator": False} | options)
    return TestClient(create_app(config))


@pytest.fixture(scope="module")
def api(store, tmp_path_factory):
    import os

    os.environ["CNL_CACHE_DIR"] = str(tmp_path_factory.mktemp("cache"))
    with client(store) as c:
        yield c


def test_docs_page_loads_nothing_from_elsewhere(api):
    response = api.get("/docs")
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/html")
    page = response.text
    for path in ("/text2sparql", "/compile", "/run", "/tools/{name}", "/health"):
        assert f"<code>{path}</code>" in page
    assert "<script" not in page.lower()
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page)  # no other origin, no CDN
    assert "default-src 'none'" in response.headers["content-security-policy"]
    assert "cnl" in page and "dataset" in page  # the request bodies' fields are described
    assert api.get("/openapi.json").status_code == 200
    assert api.get("/redoc").status_code == 404


def test_the_update_refusal_names_no_flag_the_server_lacks(api):
    response = api.post("/run", json={"sparql": "DELETE WHERE { ?s ?p ?o }"})
    assert response.status_code == 403
    error = response.json()["error"]
    assert error["type"] == "QueryRejected" and "read-only" in error["message"]
    assert "--allow-updates" not in error["message"]


def test_a_question_out_of_time_gets_the_documented_fallback(store, monkeypatch):
    """The first question also loads the learned parser: past the request's deadline the answer
    is the documented fallback (503, a query with no solutions), not a 504."""
    import time

    import cnl.agent.tools

    def slow_loader():
        # a parser still loading: a stand-in that takes longer than the deadline whatever the
        # machine (the real load's time depends on what this process loaded before)
        def translate(question, **options):
            time.sleep(3)
            raise AssertionError("never reached within the deadline")
        return translate

    monkeypatch.setattr(cnl.agent.tools, "load_translator", slow_loader)
    with client(store, use_translator=True, timeout_s=0.2) as c:
        response = c.get("/text2sparql", params={"question": "fjdksl qwpoe zzxv", "dataset": DATASET})
    assert response.status_code == 503, response.text
    doc = response.json()
    assert doc["query"] == NO_ANSWER_QUERY and doc["question"] == "fjdksl qwpoe zzxv"
    assert doc["error"]["type"] == "NoTranslation" and "longer than" in doc["error"]["message"]
    assert response.headers["X-CNL-Source"] == "timeout"


def test_an_abstaining_parser_gets_the_documented_fallback(store, monkeypatch):
    """The parser's abstention (a translation without CNL, its reason in ``error``; the real one
    is issue 32's parser work, a stand-in here) is a 503 with an empty query and the reason."""
    import cnl.agent.tools
    from cnl.learn.inference import Translation

    monkeypatch.setattr(cnl.agent.tools, "load_translator", lambda: lambda question, **options: Translation(
        question, None, None, error="abstained: the question asks for nothing the CNL can say"))
    with client(store, use_translator=True) as c:
        response = c.get("/text2sparql", params={"question": "hello", "dataset": DATASET})
    assert response.status_code == 503, response.text
    doc = response.json()
    assert doc["query"] == NO_ANSWER_QUERY and "abstained" in doc["error"]["message"]
    with client(store, use_translator=True, fallback_status=200) as c:
        fallback_200 = c.get("/text2sparql", params={"question": "hello", "dataset": DATASET})
    assert fallback_200.status_code == 200 and fallback_200.json()["query"] == NO_ANSWER_QUERY


def test_run_answers_read_as_labels_and_an_empty_one_is_explained(api):
    films = api.post("/run", json={"cnl": "What has <P57> <Q25191>?"}).json()
    rows = films["results"]["results"]["bindings"]
    assert {row["answer"]["label"] for row in rows} == {"Inception", "Memento"}
    assert all(row["answer"]["value"].startswith("http://www.wikidata.org/entity/Q") for row in rows)  # IDs kept
    number = api.post("/run", json={"sparql": "SELECT ?n WHERE { BIND(2145906 AS ?n) }"}).json()
    assert number["results"]["results"]["bindings"][0]["n"] | {} == {
        "type": "literal", "value": "2145906", "datatype": "http://www.w3.org/2001/XMLSchema#integer",
        "label": "2,145,906"}
    empty = api.post("/run", json={"cnl": "What is the <P57> of <Q25191>?"}).json()
    assert empty["results"]["results"]["bindings"] == []
    assert any("other way round" in line and "Inception" in line for line in empty["why"]), empty["why"]
