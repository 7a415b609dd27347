"""The playground's page and endpoints over real HTTP (uvicorn on loopback, a real store): the page
and its assets under an explicit Content-Security-Policy, /complete, /analyze and /translate
bounded like the other endpoints, the complete_cnl tool. The page in a real browser:
tests/test_playground_browser.py."""
from __future__ import annotations

import re

import httpx
import pytest

from cnl.agent.playground import content_security_policy, static_file
from cnl.agent.server import ServerConfig, create_app
# the API tests' small film graph and its store (a fixture: one per module)
from tests.test_agent_server import DATASET, LoopbackServer, store  # noqa: F401


@pytest.fixture(scope="module")
def base(store, tmp_path_factory):
    # a cache of its own for this module only: left set, it sent later modules' subprocesses
    # (the browser tests' `cnl2sparql ui`) to an empty cache, converting the model again
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CNL_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
        config = ServerConfig.from_dict({"datasets": {DATASET: {"store": str(store)}}, "max_body_bytes": 4096,
                                         "max_question_chars": 500, "use_translator": False})
        server = LoopbackServer(create_app(config))
        yield server.url
        server.stop()


def test_the_page_is_served_with_a_content_security_policy(base):
    response = httpx.get(f"{base}/")
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/html")
    policy = response.headers["content-security-policy"]
    nonce = re.search(r"'nonce-([A-Za-z0-9_-]{20,})'", policy).group(1)
    assert policy == content_security_policy(nonce)
    assert "script-src 'self';" in policy and "default-src 'none'" in policy and "frame-ancestors 'none'" in policy
    assert f'<meta name="csp-nonce" content="{nonce}">' in response.text
    assert nonce not in httpx.get(f"{base}/").headers["content-security-policy"]  # one per page
    assert response.headers["x-content-type-options"] == "nosniff"
    html = response.text
    # nothing inline that the policy would have to allow: scripts by src only, no style attributes or handlers
    assert all("src=" in tag for tag in re.findall(r"<script[^>]*>", html))
    assert not re.search(r"\sstyle=|\son[a-z]+=", html)
    assert not re.search(r"https?://(?!www\.w3\.org)", html.split("<footer")[0])  # no CDN: every asset is ours
    for name in re.findall(r'(?:src|href)="/static/([^"]+)"', html):
        asset = httpx.get(f"{base}/static/{name}")
        assert asset.status_code == 200 and asset.headers["content-security-policy"] == content_security_policy(), name
    assert httpx.get(f"{base}/static/playground.js").headers["content-type"].startswith("text/javascript")


@pytest.mark.parametrize("name", ["../server.py", "..%2Fserver.py", "%2e%2e%2fserver.py", "nothing.js", "server.py",
                                  "static", ".hidden.js"])
def test_only_the_shipped_assets_are_served(base, name):
    assert httpx.get(f"{base}/static/{name}").status_code == 404
    assert static_file(name) is None


def test_the_bundle_is_shipped_with_its_licences():
    assert static_file("playground.js") is not None and static_file("playground.css") is not None
    from importlib import resources

    licences = resources.files("cnl.agent").joinpath("static", "playground.js.LICENSE.txt").read_text()
    assert "@codemirror/view" in licences and "MIT" in licences


def test_complete(base):
    response = httpx.post(f"{base}/complete", json={"cnl": "which [film] has "})
    assert response.status_code == 200, response.text
    doc = response.json()
    assert (doc["from"], doc["to"], doc["parses"]) == (17, 17, True)
    first = doc["items"][0]
    # the property the KG has around the instances of film comes first
    assert (first["kind"], first["insert"], first["id"]) == ("property", "<director>", "P57")
    assert {"kind": "keyword", "label": "the", "insert": "the"} in doc["items"]
    doc = httpx.post(f"{base}/complete", json={"cnl": "which [film] has <director> [Christ", "cursor": 35}).json()
    assert doc["items"][0]["insert"] == "[Christopher Nolan]" and doc["items"][0]["id"] == "Q25191"


def test_complete_with_the_question_candidates(base):
    doc = httpx.post(f"{base}/complete", json={"cnl": "What is the <director> of [", "candidates": ["Q190525"]}).json()
    assert doc["items"][0]["insert"] == "[Memento]"


@pytest.mark.parametrize("body, status", [
    ({"cnl": "which ", "cursor": -1}, 422),
    ({"cnl": "which ", "candidates": ["Q1", "<x>"]}, 400),
    ({"cnl": "which ", "candidates": ["Q1"] * 51}, 422),
    ({"cnl": "x" * 501}, 422),
    ({"cursor": 3}, 422),
    ({"cnl": "which ", "limit": 0}, 422),
    ({"cnl": "which ", "dataset": "https://example.org/none/"}, 404),
])
def test_complete_rejects_bad_requests(base, body, status):
    response = httpx.post(f"{base}/complete", json=body)
    assert response.status_code == status, response.text
    assert set(response.json()["error"]) == {"type", "message", "status"}


def test_bodies_are_bounded(base):
    response = httpx.post(f"{base}/complete", content=b'{"cnl": "' + b"x" * 5000 + b'"}',
                          headers={"content-type": "application/json"})
    assert response.status_code == 413


def test_a_cursor_past_the_end_is_the_end(base):
    doc = httpx.post(f"{base}/complete", json={"cnl": "which [film] h", "cursor": 999}).json()
    assert (doc["from"], doc["to"]) == (13, 14) and {"has", "have", "had"} <= {i["insert"] for i in doc["items"]}


def test_analyze_a_query(base):
    doc = httpx.post(f"{base}/analyze", json={"cnl": "  which [film] has <director> [Christopher Nolan]?"}).json()
    assert doc["ok"] and "wdt:P57" in doc["sparql"] and doc["wdqs"].startswith("https://query.wikidata.org/#")
    terms = [(t["kind"], t["from"], t["to"], t["id"]) for t in doc["terms"]]
    assert terms == [("entity", 8, 14, "Q11424"), ("property", 19, 29, "P57"), ("entity", 30, 49, "Q25191")]
    nolan = doc["terms"][2]
    assert nolan["url"] == "https://www.wikidata.org/wiki/Q25191" and nolan["description"] == "British-American filmmaker"


def test_analyze_a_syntax_error(base):
    text = "which [film] has has <director>?"
    doc = httpx.post(f"{base}/analyze", json={"cnl": text}).json()
    error = doc["error"]
    assert not doc["ok"] and error["type"] == "syntax" and "sparql" not in doc
    assert text[error["from"]:error["to"]] == "has" and error["from"] == 17
    assert error["message"] == "unexpected token" and any("property" in e for e in error["expected"])
    assert "column 18" in error["text"]


def test_analyze_an_unknown_label(base):
    text = "which [film] has <director> [Christofer Nolan]?"
    doc = httpx.post(f"{base}/analyze", json={"cnl": text}).json()
    error = doc["error"]
    assert error["type"] == "label" and text[error["from"]:error["to"]] == "[Christofer Nolan]"
    assert "Christopher Nolan" in error["suggestions"]
    assert doc["terms"][2]["problem"].startswith("unknown entity label 'Christofer Nolan'")


def test_analyze_an_injection_attempt_stays_text(base):
    text = 'which [film] has <director> [x"} . ?s ?p ?o . FILTER("]?'
    doc = httpx.post(f"{base}/analyze", json={"cnl": text}).json()
    assert not doc["ok"] and doc["error"]["type"] == "label"  # a label, never SPARQL


def test_translate_when_the_learned_parser_is_off(base):
    response = httpx.post(f"{base}/translate", json={"question": "Who directed Inception?"})
    assert response.status_code == 503 and "turned off" in response.json()["error"]["message"]
    assert httpx.post(f"{base}/translate", json={"question": ""}).status_code == 422
    assert httpx.post(f"{base}/translate", json={"question": "x", "beams": 99}).status_code == 422


def test_the_complete_cnl_tool_over_http(base):
    response = httpx.post(f"{base}/tools/complete_cnl", json={"cnl": "which [film] has "})
    assert response.status_code == 200, response.text
    text = response.json()["text"]
    assert text.startswith("at character 17 the grammar accepts:")
    assert "properties: <director> (P57 · around film" in text and "words: " in text and "the" in text
    doc = httpx.post(f"{base}/tools/complete_cnl", json={"cnl": "What is the <director> of [Inception]?",
                                                         "cursor": 14}).json()
    assert "replacing '<director>'" in doc["text"]
    bad = httpx.post(f"{base}/tools/complete_cnl", json={"cnl": "which", "cursor": 9})
    assert bad.status_code == 400 and "cursor must be between 0 and 5" in bad.json()["error"]["message"]


def test_the_tool_makes_what_it_shows_known(store):
    from cnl.agent.tools import Toolbox

    toolbox = Toolbox.for_store(store, know_before_use=True)
    try:
        assert not toolbox.call("execute_cnl", {"cnl": "What has <P57> <Q25191>?"}).ok
        result = toolbox.call("complete_cnl", {"cnl": "which [film] has <director> [Christopher Nol"}, mode="cnl")
        assert result.ok and "[Christopher Nolan] (Q25191" in result.text
        assert "<director> (P57" in toolbox.call("complete_cnl", {"cnl": "which [film] has <dir"}, mode="cnl").text
        assert toolbox.call("execute_cnl", {"cnl": "What has <P57> <Q25191>?"}).ok
    finally:
        toolbox.kg.close()


def test_ui_starts_the_server_and_says_where_the_page_is(store, tmp_path):
    import os
    import socket
    import subprocess
    import sys
    import time

    from cnl.cli.cmd_ui import free_port
    from tests.browser import ROOT

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        busy = taken.getsockname()[1]
        assert free_port("127.0.0.1", busy) != busy  # a taken port: another one
    env = dict(os.environ, PYTHONPATH=str(ROOT), CNL_CACHE_DIR=str(tmp_path / "cache"))
    process = subprocess.Popen([sys.executable, "-m", "cnl", "ui", "--store", str(store), "--no-browser",
                                "--port", str(busy)], stderr=subprocess.PIPE, text=True, env=env)
    try:
        deadline = time.monotonic() + 300
        line = ""
        while "the playground is at" not in line and time.monotonic() < deadline:
            line = process.stderr.readline()
            assert line or process.poll() is None, "cnl2sparql ui exited"
        url = line.split("the playground is at ", 1)[1].split()[0]
        assert url.startswith("http://127.0.0.1:") and url.endswith("/")
        page = httpx.get(url)
        assert page.status_code == 200 and "cnl2sparql playground" in page.text
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_labels_the_server_reads_otherwise_are_pinned_to_the_parsers_ids():
    from cnl.linking.resolver import pin_terms
    from cnl.linking.lexicon import Lexicon

    server = Lexicon()
    for label, ident in (("Paris", "Q90"), ("Paris", "Q830149"), ("film", "Q11424"), ("Inception", "Q25188")):
        server.add(label, ident)
    server.add("written by", "P58", kind="property")
    server.add("written by", "P86", kind="property")
    parser = Lexicon()  # the question's candidates first: one reading each
    for label, ident in (("Paris", "Q90"), ("film", "Q11424"), ("Inception", "Q1")):
        parser.add(label, ident)
    parser.add("written by", "P58", kind="property")
    text = "which [film] has <written by> [Paris] and is-<P57> [Inception] and has <genre> [Nowhere]?"
    assert pin_terms(text, parser, server) == ("which [film] has <P58:written by> <Q90:Paris> and is-<P57> "
                                               "<Q1:Inception> and has <genre> [Nowhere]?")
