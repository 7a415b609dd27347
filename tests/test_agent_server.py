"""The HTTP API over real HTTP on loopback: uvicorn in a thread, httpx as the client."""
from __future__ import annotations

import threading
import time

import httpx
import pytest

from cnl.agent.server import NO_ANSWER_QUERY, ServerConfig, create_app
from cnl.errors import ServerConfigError
from tests.kg_fixtures import free_port

TTL = """\
@prefix wd: <http://www.wikidata.org/entity/> .
@prefix wdt: <http://www.wikidata.org/prop/direct/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix schema: <http://schema.org/> .
@prefix wikibase: <http://wikiba.se/ontology#> .
@prefix p: <http://www.wikidata.org/prop/> .
@prefix ps: <http://www.wikidata.org/prop/statement/> .
@prefix wds: <http://www.wikidata.org/entity/statement/> .
wd:Q25191 rdfs:label "Christopher Nolan"@en ; schema:description "British-American filmmaker"@en ; wdt:P31 wd:Q5 .
wd:Q25188 rdfs:label "Inception"@en ; wdt:P57 wd:Q25191 ; wdt:P31 wd:Q11424 .
wd:Q190525 rdfs:label "Memento"@en ; wdt:P57 wd:Q25191 ; wdt:P31 wd:Q11424 .
wd:Q25188 p:P57 wds:Q25188-1 . wds:Q25188-1 ps:P57 wd:Q25191 .
wd:Q190525 p:P57 wds:Q190525-1 . wds:Q190525-1 ps:P57 wd:Q25191 .
wd:Q11424 rdfs:label "film"@en .
wd:Q5 rdfs:label "human"@en .
wd:P57 rdfs:label "director"@en ; wikibase:propertyType wikibase:WikibaseItem .
wd:P31 rdfs:label "instance of"@en ; wikibase:propertyType wikibase:WikibaseItem .
"""
DATASET = "https://example.org/films/"


class LoopbackServer:
    def __init__(self, app) -> None:
        import uvicorn

        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.05)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    from cnl.kg.embedded import EmbeddedKG

    folder = tmp_path_factory.mktemp("films")
    (folder / "g.ttl").write_text(TTL)
    with EmbeddedKG(folder / "store") as kg:
        kg.load(folder / "g.ttl", progress=False)
    return folder / "store"


@pytest.fixture(scope="module")
def base(store, tmp_path_factory):
    with pytest.MonkeyPatch.context() as patch:  # this module's own cache, not left set for later modules
        patch.setenv("CNL_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
        config = ServerConfig.from_dict({"datasets": {DATASET: {"store": str(store), "profile": {"statements": "qualified"}}},
                                         "max_body_bytes": 4096, "use_translator": False})
        server = LoopbackServer(create_app(config))
        yield server.url
        server.stop()


def test_text2sparql_contract(base):
    response = httpx.get(f"{base}/text2sparql", params={
        "question": "Which [film] has <director> [Christopher Nolan]?", "dataset": DATASET})
    assert response.status_code == 200
    doc = response.json()
    assert set(doc) == {"dataset", "question", "query"} and doc["dataset"] == DATASET
    assert "wd:Q25191" in doc["query"] and "wd:Q11424" in doc["query"]
    assert response.headers["X-CNL-Source"] == "cnl"
    run = httpx.post(f"{base}/run", json={"sparql": doc["query"], "dataset": DATASET}).json()
    films = {b["film"]["label"] for b in run["results"]["results"]["bindings"]}
    assert films == {"Inception", "Memento"}


def test_text2sparql_without_parser_still_returns_a_query(base):
    response = httpx.get(f"{base}/text2sparql", params={"question": "Who directed Inception?", "dataset": DATASET})
    assert response.status_code == 503
    doc = response.json()
    assert doc["query"] == NO_ANSWER_QUERY and doc["question"] == "Who directed Inception?"
    assert doc["error"]["type"] == "NoTranslation" and "no learned parser" in doc["error"]["message"]


def test_unknown_dataset_is_404(base):
    response = httpx.get(f"{base}/text2sparql", params={"question": "What has <P57> <Q25191>?",
                                                         "dataset": "https://example.org/nope/"})
    assert response.status_code == 404
    assert response.json()["error"]["type"] == "UnknownDataset"


@pytest.mark.parametrize("method,path,kwargs,status,kind", [
    ("post", "/compile", {"json": {"cnl": "Which [film] has has <director>?"}}, 400, "CNLSyntaxError"),
    ("post", "/compile", {"json": {"cnl": "Which [movie] has <director> [Christopher Nolan]?"}}, 422, "LexiconError"),
    ("post", "/compile", {"json": {"text": "x"}}, 422, "InvalidRequest"),
    ("post", "/compile", {"content": b"{not json", "headers": {"Content-Type": "application/json"}}, 422, "InvalidRequest"),
    ("post", "/compile", {"json": {"cnl": "What has <P57> <Q25191>?", "options": {"colour": 1}}}, 422, "CompileError"),
    ("post", "/compile", {"json": {"cnl": "x" * 5000}}, 413, "RequestTooLarge"),
    ("post", "/run", {"json": {"sparql": "SELECT ?x WHERE { ?x wdt:P57 "}}, 400, "SPARQLSyntaxError"),
    ("post", "/run", {"json": {}}, 422, "InvalidRequest"),
    ("get", "/text2sparql", {"params": {"question": "q" * 3000}}, 422, "InvalidRequest"),
    ("get", "/text2sparql", {"params": {}}, 422, "InvalidRequest"),
    ("post", "/tools/drop_tables", {"json": {}}, 404, "UnknownTool"),
    ("get", "/nowhere", {}, 404, "HTTPError"),
])
def test_bad_input_is_a_json_4xx(base, method, path, kwargs, status, kind):
    response = getattr(httpx, method)(f"{base}{path}", **kwargs)
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert error["type"] == kind and error["status"] == status and "Traceback" not in error["message"]


@pytest.mark.parametrize("update", [
    "INSERT DATA { wd:Q1 wdt:P57 wd:Q2 }",
    "DELETE WHERE { ?s ?p ?o }",
    "DROP ALL",
])
def test_updates_are_refused(base, update):
    response = httpx.post(f"{base}/run", json={"sparql": update})
    assert response.status_code == 403
    assert response.json()["error"]["type"] == "QueryRejected"
    tool = httpx.post(f"{base}/tools/execute_sparql", json={"sparql": update}).json()
    assert tool["ok"] is False and "read-only" in tool["text"]
    count = httpx.post(f"{base}/run", json={"sparql": "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"}).json()
    assert int(count["results"]["results"]["bindings"][0]["n"]["value"]) > 10


def test_compile_run_tools_health_and_docs(base):
    compiled = httpx.post(f"{base}/compile", json={"cnl": "What has <P57> <Q25191>?",
                                                   "options": {"default_limit": 5}}).json()
    assert "LIMIT 5" in compiled["sparql"]
    asked = httpx.post(f"{base}/run", json={"cnl": "Has <Q25188> a <P57> <Q25191>?"}).json()
    assert asked["boolean"] is True
    found = httpx.post(f"{base}/tools/search_entity", json={"query": "nolan"}).json()
    assert found["ok"] and "Christopher Nolan (wd:Q25191)" in found["text"]
    bad = httpx.post(f"{base}/tools/execute_cnl", json={"cnl": "What has has <P57>?"}).json()
    assert bad["ok"] is False and "column 10" in bad["text"]
    wrong_args = httpx.post(f"{base}/tools/search_entity", json={"name": "nolan"}).json()
    assert wrong_args["ok"] is False and "no argument 'name'" in wrong_args["text"]  # the caller can fix it
    health = httpx.get(f"{base}/health").json()
    assert health["status"] == "ok" and health["datasets"] == [DATASET]
    openapi = httpx.get(f"{base}/openapi.json").json()
    assert {"/text2sparql", "/compile", "/run", "/tools/{name}", "/health"} <= set(openapi["paths"])
    assert httpx.get(f"{base}/docs").status_code == 200
    assert len(httpx.get(f"{base}/tools").json()) == 11  # complete_cnl included


def test_config_errors(tmp_path):
    with pytest.raises(ServerConfigError, match="no dataset"):
        ServerConfig.from_dict({})
    with pytest.raises(ServerConfigError, match="exactly one of store or endpoint"):
        ServerConfig.from_dict({"datasets": {"x": {}}})
    with pytest.raises(ServerConfigError, match="bad server configuration"):
        ServerConfig.from_dict({"datasets": {"x": {"store": "s", "colour": 1}}})
    (tmp_path / "c.json").write_text("{")
    with pytest.raises(ServerConfigError, match="not valid JSON"):
        ServerConfig.from_file(tmp_path / "c.json")
