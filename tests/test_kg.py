"""KG layer: embedded store vs. a real oxigraph server, errors and exit codes, rendering."""
from __future__ import annotations

import gzip
import itertools
import json
import subprocess
import sys

import pytest

from cnl.cli import main as cli_main
from cnl.errors import (CNLError, EndpointError, EndpointUnreachable, QueryRejected, QueryTimeout,
                        SPARQLSyntaxError, StoreError)
from cnl.kg import open_kg, parse_sparql
from cnl.kg.embedded import EmbeddedKG
from cnl.kg.remote import RemoteKG
from tests.kg_fixtures import FlakyServer, OxigraphServer, SilentServer, free_port

TINY_TTL = """\
@prefix wd: <http://www.wikidata.org/entity/> .
@prefix wdt: <http://www.wikidata.org/prop/direct/> .
@prefix p: <http://www.wikidata.org/prop/> .
@prefix ps: <http://www.wikidata.org/prop/statement/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix skos: <http://www.w3.org/2004/02/skos/core#> .
@prefix schema: <http://schema.org/> .
wd:Q25191 rdfs:label "Christopher Nolan"@en ; skos:altLabel "Chris Nolan"@en ;
    schema:description "British-American filmmaker"@en ; wdt:P31 wd:Q5 .
wd:Q25188 rdfs:label "Inception"@en ; rdfs:label "Origine"@fr ; wdt:P31 wd:Q11424 ; wdt:P57 wd:Q25191 ;
    p:P57 [ ps:P57 wd:Q25191 ] .
wd:Q163872 rdfs:label "The Dark Knight"@en ; wdt:P31 wd:Q11424 ; wdt:P57 wd:Q25191 .
wd:Q429969 wdt:P31 wd:Q11424 ; wdt:P57 wd:Q25191 .
wd:Q11424 rdfs:label "film"@en .
wd:Q5 rdfs:label "human"@en .
wd:Q42 rdfs:label "Douglas Adams"@en ; wdt:P31 wd:Q5 .
"""

SAME_RESULT_QUERIES = [
    "SELECT ?film WHERE { ?film wdt:P31 wd:Q11424 ; wdt:P57 wd:Q25191 } ORDER BY ?film",
    "SELECT ?film ?label WHERE { ?film wdt:P57 wd:Q25191 OPTIONAL { ?film rdfs:label ?label "
    "FILTER(LANG(?label) = 'en') } } ORDER BY ?film",
    "SELECT ?c (COUNT(?x) AS ?n) WHERE { ?x wdt:P31 ?c } GROUP BY ?c ORDER BY ?c",
    "SELECT ?film WHERE { ?film p:P57 ?st . ?st ps:P57 wd:Q25191 }",
    "PREFIX e: <http://www.wikidata.org/entity/> SELECT ?s WHERE { ?s wdt:P31 e:Q5 } ORDER BY ?s",
]


@pytest.fixture(scope="module")
def tiny_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("rdf") / "tiny.ttl"
    path.write_text(TINY_TTL)
    return path


@pytest.fixture(scope="module")
def embedded(tiny_file, tmp_path_factory):
    kg = EmbeddedKG(tmp_path_factory.mktemp("store") / "s")
    kg.load(tiny_file, progress=False)
    yield kg
    kg.close()


@pytest.fixture(scope="module")
def server(tiny_file, tmp_path_factory):
    srv = OxigraphServer(tmp_path_factory.mktemp("oxi") / "db", tiny_file)
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def remote(server):
    return RemoteKG(server.query_url, update_endpoint=server.update_url, timeout=10)


@pytest.mark.parametrize("sparql", SAME_RESULT_QUERIES)
def test_embedded_and_server_agree(embedded, remote, sparql):
    local, served = embedded.select(sparql), remote.select(sparql)
    assert local.columns == served.columns
    assert sorted(local.values(), key=str) == sorted(served.values(), key=str)
    assert len(local) > 0


def test_ask_and_labels_agree(embedded, remote):
    q = "ASK { wd:Q25188 wdt:P57 wd:Q25191 }"
    assert embedded.ask(q) is True and remote.ask(q) is True
    assert embedded.ask("ASK { wd:Q42 wdt:P57 ?x }") is False
    table = "SELECT ?film WHERE { ?film wdt:P57 wd:Q25191 }"
    assert embedded.add_labels(embedded.select(table)).labels == remote.add_labels(remote.select(table)).labels
    rendered = embedded.add_labels(embedded.select(table)).to_text()
    # labels where the KG has one, the ID only as a fallback
    assert "Inception\n" in rendered and "wd:Q25188" not in rendered and "wd:Q429969" in rendered


def test_renderings(embedded):
    table = embedded.add_labels(embedded.select("SELECT ?film WHERE { ?film wdt:P57 wd:Q25191 } ORDER BY ?film"))
    doc = json.loads(table.to_json())
    assert doc["head"]["vars"] == ["film"]
    assert {b["film"].get("label") for b in doc["results"]["bindings"]} >= {"Inception", "The Dark Knight"}
    csv_lines = table.to_csv().splitlines()
    assert csv_lines[0] == "film,filmLabel" and len(csv_lines) == 4


def test_row_cap_truncates(tiny_file, tmp_path):
    kg = EmbeddedKG(tmp_path / "s", max_rows=2)
    kg.load(tiny_file, progress=False)
    table = kg.select("SELECT ?s ?p ?o WHERE { ?s ?p ?o }")
    assert len(table) == 2 and table.truncated and "truncated" in table.to_text()


def test_parse_detects_forms_and_updates():
    assert parse_sparql("SELECT * WHERE { ?s ?p ?o }").form == "SELECT"
    assert parse_sparql("ASK { ?s ?p ?o }").form == "ASK"
    assert parse_sparql("PREFIX x: <http://x/> DELETE WHERE { ?s x:p ?o }").is_update
    # a comment mentioning INSERT is not an update: the query is parsed, not grepped
    assert not parse_sparql("# INSERT DATA { }\nSELECT * WHERE { ?s ?p ?o }").is_update
    with pytest.raises(SPARQLSyntaxError, match="line 1, column"):
        parse_sparql("SELECT ?x WHERE { ?x ?y }")


@pytest.mark.parametrize("kg_name", ["embedded", "remote"])
def test_update_refused_by_default(request, kg_name):
    kg = request.getfixturevalue(kg_name)
    with pytest.raises(QueryRejected, match="read-only"):
        kg.query("INSERT DATA { wd:Q1 wdt:P1 wd:Q2 }")
    assert not kg.ask("ASK { wd:Q1 wdt:P1 wd:Q2 }")


def test_update_allowed_when_asked(server, tmp_path):
    remote = RemoteKG(server.query_url, update_endpoint=server.update_url, allow_updates=True)
    remote.query("INSERT DATA { wd:Q900 wdt:P900 wd:Q901 }")
    assert remote.ask("ASK { wd:Q900 wdt:P900 wd:Q901 }")
    local = EmbeddedKG(tmp_path / "s", allow_updates=True)
    local.update("INSERT DATA { wd:Q900 wdt:P900 wd:Q901 }")
    assert local.ask("ASK { wd:Q900 wdt:P900 wd:Q901 }")


@pytest.mark.parametrize("kg_name", ["embedded", "remote"])
def test_malformed_sparql(request, kg_name):
    with pytest.raises(SPARQLSyntaxError):
        request.getfixturevalue(kg_name).select("SELECT ?x WHERE { ?x wdt:P31 ")


def test_server_side_syntax_error_is_specific(remote):
    # parses as SPARQL 1.1 but oxigraph rejects the unknown prefix: the server's 400 is mapped
    with pytest.raises(SPARQLSyntaxError, match="malformed"):
        remote.select("SELECT ?x WHERE { ?x nosuchprefix:p ?y }")


def test_endpoint_down():
    kg = RemoteKG(f"http://127.0.0.1:{free_port()}/sparql", timeout=2)
    with pytest.raises(EndpointUnreachable, match="cannot reach"):
        kg.select("SELECT * WHERE { ?s ?p ?o }")


def test_timeout():
    silent = SilentServer()
    try:
        with pytest.raises(QueryTimeout, match="within 0.5 s"):
            RemoteKG(silent.url, timeout=0.5, retries=0).select("SELECT * WHERE { ?s ?p ?o }")
    finally:
        silent.stop()


def test_transient_errors_are_retried_with_backoff():
    flaky = FlakyServer(failures=2, status=503)
    try:
        table = RemoteKG(flaky.url, retries=3, backoff=0.01).select("SELECT ?x WHERE { ?x ?p ?o }")
        assert table.values() == [("ok",)] and flaky.requests == 3
    finally:
        flaky.stop()


def test_permanent_errors_are_not_retried():
    flaky = FlakyServer(failures=99, status=403)
    try:
        with pytest.raises(EndpointError, match="403"):
            RemoteKG(flaky.url, retries=3, backoff=0.01).select("SELECT ?x WHERE { ?x ?p ?o }")
        assert flaky.requests == 1
    finally:
        flaky.stop()


def test_gzip_load_and_format_errors(tmp_path):
    gz = tmp_path / "g.nt.gz"
    with gzip.open(gz, "wt") as out:
        out.write('<http://x/a> <http://x/b> "c" .\n<http://x/a> <http://x/b> "d" .\n')
    assert EmbeddedKG(tmp_path / "s").load(gz, progress=False) == 2
    (tmp_path / "g.txt").write_text("x")
    with pytest.raises(StoreError, match="RDF format"):
        EmbeddedKG(tmp_path / "s2").load(tmp_path / "g.txt", progress=False)
    (tmp_path / "bad.nt").write_text("<http://x/a> <http://x/b> .\n")
    with pytest.raises(StoreError, match="cannot load"):
        EmbeddedKG(tmp_path / "s3").load(tmp_path / "bad.nt", progress=False)


def test_open_kg_missing_store(tmp_path):
    with pytest.raises(StoreError, match="no store"):
        open_kg(store=tmp_path / "missing")


# --- CLI: exit codes, no tracebacks ---------------------------------------------------------


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cnl", *args], capture_output=True, text=True, timeout=60)


def test_cli_load_and_query(tiny_file, tmp_path, capsys):
    store = str(tmp_path / "store")
    assert cli_main(["kg", "load", str(tiny_file), "--store", store, "--quiet"]) == 0
    assert cli_main(["query", "SELECT ?film WHERE { ?film wdt:P57 wd:Q25191 }", "--store", store]) == 0
    out = capsys.readouterr().out
    assert "The Dark Knight\n" in out and "(3 rows)" in out
    assert cli_main(["query", "ASK { wd:Q25188 wdt:P57 wd:Q25191 }", "--store", store, "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["boolean"] is True


def test_cli_remote_csv(server, capsys):
    assert cli_main(["query", "SELECT ?film WHERE { wd:Q25188 wdt:P57 ?film }", "--endpoint",
                     server.query_url, "--format", "csv"]) == 0
    assert capsys.readouterr().out.splitlines()[1].endswith(",Christopher Nolan")


@pytest.mark.parametrize("args, code, message", [
    (["--endpoint", "http://127.0.0.1:{port}/sparql"], 11, "cannot reach"),
    (["--store", "{tmp}/missing"], 17, "no store"),
])
def test_cli_connection_errors(args, code, message, tmp_path):
    args = [a.format(port=free_port(), tmp=tmp_path) for a in args]
    proc = run_cli("query", "SELECT * WHERE { ?s ?p ?o }", *args)
    assert proc.returncode == code and message in proc.stderr and "Traceback" not in proc.stderr


def test_cli_timeout_malformed_and_update(server):
    silent = SilentServer()
    try:
        proc = run_cli("query", "SELECT * WHERE { ?s ?p ?o }", "--endpoint", silent.url, "--timeout", "0.5")
    finally:
        silent.stop()
    assert proc.returncode == 12 and "within 0.5 s" in proc.stderr and "Traceback" not in proc.stderr
    proc = run_cli("query", "SELECT ?x WHERE { ?x ?y }", "--endpoint", server.query_url)
    assert proc.returncode == 14 and "malformed SPARQL" in proc.stderr and "Traceback" not in proc.stderr
    proc = run_cli("query", "DELETE WHERE { ?s ?p ?o }", "--endpoint", server.query_url)
    assert proc.returncode == 13 and "read-only" in proc.stderr and "Traceback" not in proc.stderr
    assert "pass --allow-updates" in proc.stderr  # the flag this command has


# --- a few thousand real triples from the slice -----------------------------------------------


@pytest.mark.data
def test_slice_sample_same_results(shared_data, tmp_path):
    sample = tmp_path / "sample.nt"
    with gzip.open(shared_data / "wikidata" / "wikidata-slice.nt.gz", "rt") as src:
        sample.write_text("".join(itertools.islice(src, 5000)))
    local = EmbeddedKG(tmp_path / "store")
    assert local.load(sample, progress=False) > 4000
    srv = OxigraphServer(tmp_path / "oxi", sample)
    try:
        remote = RemoteKG(srv.query_url, timeout=10)
        for q in ["SELECT ?p (COUNT(*) AS ?n) WHERE { ?s ?p ?o } GROUP BY ?p",
                  "SELECT ?s ?o WHERE { ?s wdt:P31 ?o }",
                  "SELECT ?st ?q ?v WHERE { ?st ?q ?v FILTER(STRSTARTS(STR(?q), STR(pq:))) }"]:
            assert sorted(local.select(q).values(), key=str) == sorted(remote.select(q).values(), key=str)
    finally:
        srv.stop()


def test_cli_run_compiles_and_executes(tiny_file, tmp_path, capsys):
    pytest.importorskip("cnl.sparql.compiler")
    store = str(tmp_path / "store")
    assert cli_main(["kg", "load", str(tiny_file), "--store", store, "--quiet"]) == 0
    assert cli_main(["run", "What has <P57:director> <Q25191:Christopher_Nolan>?", "--store", store]) == 0
    out = capsys.readouterr().out  # wdt: truthy triples: the three films
    assert "Inception\n" in out and "(3 rows)" in out
    assert cli_main(["run", "What has <P57:director> <Q25191:Christopher_Nolan>?", "--store", store,
                     "--kg", "wikidata-ecai"]) == 0
    out = capsys.readouterr().out  # p:/ps: statements: only Inception has one here
    assert "Inception" in out and "(1 row)" in out
    proc = run_cli("run", "which film has", "--store", store)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr


def test_load_creates_missing_parent_folders(tmp_path):
    """`kg load FILE --store .cache/slice` on a fresh checkout, where .cache does not exist yet."""
    from cnl.cli import main

    data = tmp_path / "g.nt"
    data.write_text('<http://example.org/a> <http://www.w3.org/2000/01/rdf-schema#label> "a"@en .\n')
    store = tmp_path / "not" / "yet" / "there"
    assert main(["kg", "load", str(data), "--store", str(store)]) == 0
    assert store.is_dir()


# --- deadlines, caps, federation and store states (issues 16 and 17) -----------------------------

# 19 triples to the 7th power: ~9e8 rows, minutes of work, whatever the machine (five factors ran in 0.4 s)
HEAVY = ("SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l . ?m ?n2 ?o . "
         "?p ?q ?r . ?s ?t ?u }")


def test_embedded_query_stops_at_its_deadline(embedded):
    import time

    from cnl.kg.limits import query_limits

    embedded.timeout = 0.5
    try:
        started = time.monotonic()
        with pytest.raises(QueryTimeout, match="deadline"):
            embedded.select(HEAVY)
        assert time.monotonic() - started < 2
        assert embedded.ask("ASK { wd:Q25188 wdt:P57 wd:Q25191 }")  # a fresh worker answers
    finally:
        embedded.timeout = 30.0
    with query_limits(timeout=0.3), pytest.raises(QueryTimeout):  # a caller's deadline narrows it
        embedded.select(HEAVY)
    with query_limits(max_rows=2):
        table = embedded.select("SELECT ?s ?p ?o WHERE { ?s ?p ?o }")
    assert len(table) == 2 and table.truncated


def test_result_byte_cap(tiny_file, tmp_path):
    from cnl.errors import ResultTooLarge

    kg = EmbeddedKG(tmp_path / "s", max_bytes=200)
    kg.load(tiny_file, progress=False)
    with pytest.raises(ResultTooLarge, match="200-byte cap"):
        kg.select("SELECT ?s ?p ?o WHERE { ?s ?p ?o }")
    kg.close()


@pytest.mark.parametrize("query, construct", [
    ("SELECT * WHERE { SERVICE <http://127.0.0.1:9/sparql> { ?s ?p ?o } }", "SERVICE"),
    ("select * where { service silent <http://127.0.0.1:9/> { ?s ?p ?o } }", "SERVICE"),
    ("SELECT * WHERE { SERVICE wikibase:label { ?s ?p ?o } }", "SERVICE"),
    ("SELECT * WHERE { VALUES ?e { <http://127.0.0.1:9/> } SERVICE ?e { ?s ?p ?o } }", "SERVICE"),
    ("LOAD <http://127.0.0.1:9/data.ttl>", "LOAD"),
])
def test_federation_is_refused_before_running(embedded, query, construct):
    from cnl.errors import FederationRefused

    with pytest.raises(FederationRefused, match=f"^refused {construct}"):
        embedded.query(query)


# A query copied from query.wikidata.org: one line, its own PREFIX declarations, WDQS's label
# service naming only its languages. rdflib's reader refused any SERVICE after a PREFIX on the
# same line ("malformed SPARQL"); the embedded store has no label service, so it writes out what
# the service does instead of refusing it as federation.
WDQS_ONE_LINE = ("PREFIX wd: <http://www.wikidata.org/entity/> PREFIX wdt: <http://www.wikidata.org/prop/direct/> "
                 "PREFIX wikibase: <http://wikiba.se/ontology#> PREFIX bd: <http://www.bigdata.com/rdf#> "
                 "SELECT ?film ?filmLabel ?dirDescription WHERE { ?film wdt:P57 ?dir . "
                 "SERVICE wikibase:label { bd:serviceParam wikibase:language \"[AUTO_LANGUAGE],fr,en\". } } "
                 "ORDER BY ?film")


def test_a_wdqs_query_with_the_label_service_runs_on_the_embedded_store(embedded):
    table = embedded.select(WDQS_ONE_LINE)
    assert table.columns[:3] == ["film", "filmLabel", "dirDescription"]
    rows = {row[0].value.rsplit("/", 1)[-1]: (row[1].value, row[2].value) for row in table.rows}
    # the first language with a label (AUTO_LANGUAGE is English here), else the item's ID as WDQS gives
    assert rows == {"Q25188": ("Inception", "British-American filmmaker"),
                    "Q163872": ("The Dark Knight", "British-American filmmaker"),
                    "Q429969": ("Q429969", "British-American filmmaker")}


def test_the_label_service_may_come_first_in_its_group(embedded):
    # the service runs after the rest of its group: written first, it still labels ?film only
    table = embedded.select('SELECT ?filmLabel WHERE { SERVICE wikibase:label { bd:serviceParam '
                            'wikibase:language "fr" } ?film wdt:P31 wd:Q11424 . } ORDER BY ?filmLabel')
    assert [row[0].value for row in table.rows] == ["Origine", "Q163872", "Q429969"]


def test_a_one_line_prologue_with_a_service_block_parses():
    assert parse_sparql(WDQS_ONE_LINE).remote == (("SERVICE", "http://wikiba.se/ontology#label"),)
    with pytest.raises(SPARQLSyntaxError, match="line 1, column 149 near .end of query."):  # the writer's position
        parse_sparql("PREFIX wd: <http://www.wikidata.org/entity/> SELECT ?a WHERE { wd:Q76 wdt:P26 ?a "
                     "SERVICE wikibase:label { bd:serviceParam wikibase:language \"en\". } ")


@pytest.mark.parametrize("query", [
    'SELECT ?x WHERE { ?x ?p "customer service" }', "SELECT ?service WHERE { ?service ?p ?o } # SERVICE <http://e/>",
    "SELECT ?x WHERE { ?x <http://e/SERVICE> ?o }", 'SELECT ?x WHERE { ?x ?p """LOAD <http://e/>""" }',
])
def test_the_words_service_and_load_elsewhere_are_fine(query):
    assert parse_sparql(query).remote == ()


def test_allowed_service_target(tiny_file, tmp_path):
    from cnl.errors import FederationRefused

    kg = EmbeddedKG(tmp_path / "s", allow_service=["http://127.0.0.1:9/sparql"])
    kg.load(tiny_file, progress=False)
    # allowed, so it runs (and fails to connect: nothing listens on port 9) — a KG error, not a refusal
    with pytest.raises(CNLError) as caught:
        kg.select("SELECT * WHERE { SERVICE <http://127.0.0.1:9/sparql> { ?s ?p ?o } }")
    assert not isinstance(caught.value, FederationRefused)
    with pytest.raises(FederationRefused):
        kg.select("SELECT * WHERE { SERVICE <http://127.0.0.1:9/other> { ?s ?p ?o } }")
    kg.close()


def test_interrupted_load_is_refused_then_resumed(tiny_file, tmp_path, capsys):
    store = tmp_path / "s"
    kg = EmbeddedKG(store)
    kg._write_record({"state": "loading", "files": [], "loading": {"file": str(tiny_file)}})
    kg.close()
    with pytest.raises(StoreError, match="incomplete: loading .* did not finish; run `cnl2sparql kg load"):
        open_kg(store=store)
    assert cli_main(["query", "ASK {}", "--store", str(store)]) == 17
    assert cli_main(["kg", "load", str(tiny_file), "--store", str(store), "--quiet"]) == 0
    assert "complete" in capsys.readouterr().err
    assert open_kg(store=store).ask("ASK { wd:Q25188 wdt:P57 wd:Q25191 }")


def test_second_load_of_the_same_file_is_skipped(tiny_file, tmp_path, capsys):
    store = str(tmp_path / "s")
    assert cli_main(["kg", "load", str(tiny_file), "--store", store, "--quiet"]) == 0
    capsys.readouterr()
    assert cli_main(["kg", "load", str(tiny_file), "--store", store, "--quiet"]) == 0
    assert "already loaded" in capsys.readouterr().err
    assert cli_main(["kg", "load", str(tiny_file), "--store", store, "--quiet", "--force"]) == 0
    with open_kg(store=store) as kg:
        assert kg.select("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }").values() == [("19",)]  # replaced, not added
        record = kg.load_record()
    assert record["state"] == "complete" and len(record["files"]) == 1


@pytest.mark.parametrize("make, message", [
    (lambda p: p.write_text("x"), "is a file, not a store folder"),
    (lambda p: p.mkdir(), "not a store"),
])
def test_bad_store_paths(tmp_path, make, message):
    path = tmp_path / "store"
    make(path)
    proc = run_cli("query", "ASK {}", "--store", str(path))
    assert proc.returncode == 17 and message in proc.stderr and "Traceback" not in proc.stderr


def test_a_store_written_by_another_process_is_reported(tiny_file, tmp_path):
    store = tmp_path / "s"
    writer = EmbeddedKG(store)
    writer.load(tiny_file, progress=False)
    try:
        proc = run_cli("kg", "load", str(tiny_file), "--store", str(store), "--force", "--quiet")
        assert proc.returncode == 17 and "another process" in proc.stderr and "Traceback" not in proc.stderr
        # readers are fine meanwhile
        assert run_cli("query", "ASK { wd:Q25188 wdt:P57 wd:Q25191 }", "--store", str(store)).returncode == 0
    finally:
        writer.close()


@pytest.mark.parametrize("args, code, message", [
    (["query", "", "--store", "{store}"], 14, "empty SPARQL"),
    (["query", "SELECT * WHERE { ?s ?p ?o } #" + "x" * 100_001, "--store", "{store}"], 14, "the limit is 100,000"),
    (["query", "SELECT * WHERE { ?s ?p ?o }", "--endpoint", "not a url"], 11, "not an http"),
    (["query", "SELECT * WHERE { ?s ?p ?o }", "--store", "{store}", "--timeout", "-1"], 2, "positive number"),
    (["run", "", "--store", "{store}"], 2, "empty query"),
])
def test_cli_bad_input_is_one_line(tiny_file, tmp_path, args, code, message):
    store = tmp_path / "s"
    EmbeddedKG(store).load(tiny_file, progress=False)
    proc = run_cli(*[a.replace("{store}", str(store)) for a in args])
    assert proc.returncode == code and message in proc.stderr and "Traceback" not in proc.stderr


def test_binary_stdin(tiny_file, tmp_path):
    store = tmp_path / "s"
    EmbeddedKG(store).load(tiny_file, progress=False)
    proc = subprocess.run([sys.executable, "-m", "cnl", "query", "-", "--store", str(store)],
                          input=b"\xff\xfe\x00\x01", capture_output=True, timeout=60)
    assert proc.returncode in (2, 14) and b"Traceback" not in proc.stderr and proc.stderr.count(b"\n") == 1


def test_remote_timeout_covers_a_slow_drip():
    """A server that sends one byte a second cannot hold a query past its timeout."""
    import socket
    import threading
    import time

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(4)

    def drip():
        conn, _ = listener.accept()
        conn.recv(65536)
        try:
            for byte in b"HTTP/1.1 200 OK\r\nContent-Type: application/sparql-results+json\r\n\r\n" + b" " * 100:
                conn.sendall(bytes([byte]))
                time.sleep(0.1)
        except OSError:
            pass
        conn.close()

    threading.Thread(target=drip, daemon=True).start()
    started = time.monotonic()
    with pytest.raises(QueryTimeout, match="within 1 s"):
        RemoteKG(f"http://127.0.0.1:{listener.getsockname()[1]}/sparql", timeout=1, retries=0).select(
            "SELECT * WHERE { ?s ?p ?o }")
    assert time.monotonic() - started < 1.5
    listener.close()


def test_query_runner_uses_the_same_deadline(tiny_file, tmp_path):
    from cnl.eval.execution import QueryRunner

    store = tmp_path / "s"
    EmbeddedKG(store).load(tiny_file, progress=False)
    with QueryRunner(store, timeout=0.5) as runner:
        assert runner.run(HEAVY) == (None, "timeout after 0.5 s") and runner.timeouts == 1
        assert runner.run("ASK { wd:Q25188 wdt:P57 wd:Q25191 }") == (True, None)
