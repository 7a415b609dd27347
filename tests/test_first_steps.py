"""A newcomer's first steps (issue 32): the one-time preparations with progress (``prepare``, and
``ask`` doing the missing ones itself), one error line and no note on every call, each batch
row's own seconds, and inference threads that follow the free cores."""
from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from cnl.cli import main
from tests.kg_fixtures import store_from_ttl

TTL = """\
@prefix wd: <http://www.wikidata.org/entity/> .
@prefix wdt: <http://www.wikidata.org/prop/direct/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix schema: <http://schema.org/> .
@prefix wikibase: <http://wikiba.se/ontology#> .
wd:Q25191 rdfs:label "Christopher Nolan"@en ; schema:description "British-American filmmaker"@en ; wdt:P31 wd:Q5 .
wd:Q25188 rdfs:label "Inception"@en ; schema:description "2010 film by Christopher Nolan"@en ;
    wdt:P31 wd:Q11424 ; wdt:P57 wd:Q25191 .
wd:Q190525 rdfs:label "Memento"@en ; wdt:P31 wd:Q11424 ; wdt:P57 wd:Q25191 .
wd:Q11424 rdfs:label "film"@en .
wd:Q5 rdfs:label "human"@en .
wd:Q2283 rdfs:label "Microsoft"@en ; wdt:P31 wd:Q4830453 .
wd:Q4830453 rdfs:label "business"@en .
wd:P57 rdfs:label "director"@en ; wikibase:propertyType wikibase:WikibaseItem .
wd:P112 rdfs:label "founded by"@en ; wikibase:propertyType wikibase:WikibaseItem .
"""


def _model_or_skip():
    pytest.importorskip("torch")
    from cnl.learn.base_model import smollm2_gguf
    from cnl.errors import ModelNotFound

    try:
        smollm2_gguf()
    except ModelNotFound as err:
        pytest.skip(str(err))


@pytest.fixture()
def store(tmp_path):
    """A small store of its own (a new store: its search index is not built yet)."""
    return str(store_from_ttl(TTL, tmp_path))


# -- progress ---------------------------------------------------------------------------------

def test_a_step_shows_its_name_and_time_in_a_log(capsys):
    from cnl.progress import Stages, step

    with step("converting something (once)"):
        pass
    err = capsys.readouterr().err
    assert "converting something (once) …" in err and "converting something (once): done in" in err
    stages = Stages(verbose=True)
    with stages.stage("linking entities", lambda: "3 entity candidates"):
        pass
    assert capsys.readouterr().err.startswith("linking entities: 0.0") and set(stages.seconds) == {"linking entities"}


def test_a_bar_writes_progress_to_a_log_too(capsys):
    from cnl.progress import bar

    with bar(3, "embedding", unit="text") as shown:
        shown.update(3)
    err = capsys.readouterr().err  # written although standard error is no terminal here
    assert "embedding" in err and "3/3" in err


# -- the preparations ------------------------------------------------------------------------

def test_prepare_is_idempotent_and_says_what_is_ready(store, capsys):
    _model_or_skip()
    assert main(["prepare", "--store", store, "--no-load"]) == 0  # may do the work, with progress
    first = capsys.readouterr().err
    assert "ready in" in first
    assert main(["prepare", "--store", store, "--no-load"]) == 0
    again = capsys.readouterr().err
    for name in ("the base model", "the property index", "the store's search index"):
        assert f"{name}: ready" in again, again
    assert "done in" not in again


def test_prepare_refuses_a_missing_store_clearly(tmp_path, capsys):
    _model_or_skip()
    assert main(["prepare", "--store", str(tmp_path / "nowhere")]) == 17
    err = capsys.readouterr().err
    assert err.startswith("error:") and "Traceback" not in err


def test_ask_does_the_missing_preparations_with_progress_and_times_its_stages(store, capsys):
    _model_or_skip()
    assert main(["ask", "Who directed Inception?", "--store", store, "-v"]) == 0
    captured = capsys.readouterr()
    assert "Christopher Nolan" in captured.out
    assert f"indexing the names in {store} (once per store) …" in captured.err  # a new store: indexed first
    for stage in ("loading the model:", "loading the store's search index:", "linking entities:",
                  "writing the query:", "querying the knowledge graph:"):
        assert stage in captured.err, captured.err


def test_ask_shows_the_reading_it_answers_before_the_answer(store, capsys):
    """The CNL a person can read and correct comes with every answer, not only an empty one: a
    reading that answers another question than the one asked is seen at once."""
    _model_or_skip()
    assert main(["ask", "Who directed Inception?", "--store", store]) == 0
    captured = capsys.readouterr()
    assert "Christopher Nolan" in captured.out
    assert "read as: What is the <director> of [Inception]?\n" in captured.err, captured.err
    assert "warning:" not in captured.err


# -- one line, once ------------------------------------------------------------------------

def test_translate_without_a_kg_prints_one_error_line_and_no_note(capsys):
    _model_or_skip()
    code = main(["translate", "Who directed Inception?"])
    err = capsys.readouterr().err
    assert code == 33
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: the generated CNL does not compile"), err
    assert "no --store or --endpoint" in lines[0] and "note:" not in err


def test_the_note_comes_only_with_verbose(store, capsys):
    _model_or_skip()
    assert main(["ask", "Who directed Inception?", "--store", store]) == 0
    assert "note:" not in capsys.readouterr().err
    assert main(["ask", "Who directed Inception?", "--store", store, "--verbose"]) == 0
    assert capsys.readouterr().err.count("note: entities are linked over the store") == 1


# -- a batch's rows ----------------------------------------------------------------------------

def test_each_batch_row_has_its_own_seconds_and_an_empty_one_says_why(store, monkeypatch, capsys):
    _model_or_skip()
    questions = "Who directed Inception?\nWhich films did Christopher Nolan direct?\nWho founded Microsoft?\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(questions))
    assert main(["ask", "--batch", "-", "--store", store]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(rows) == 3
    seconds = [row["seconds"] for row in rows]
    assert all(s > 0 for s in seconds) and len(set(seconds)) == 3, seconds  # not one average for all
    for row in rows:
        if row["answers"] is not None and not isinstance(row["answers"], bool) \
                and not row["answers"]["results"]["bindings"]:
            assert row["why"], row


def test_row_clock_shares_a_chunk_by_output_length(monkeypatch):
    """Two questions generated together: linking and validation are each their own, the
    chunk's generation is shared by the length of what each generated."""
    import cnl.learn.inference as inference

    now = iter([0.0, 0.0, 1.0, 1.0, 1.5, 1.5, 4.5]).__next__  # a fake clock, one reading per call
    monkeypatch.setattr(inference.time, "perf_counter", now)
    clock = inference.RowClock(2)                        # t=0
    clock.own(0, lambda: None)                            # linking q0: 0 -> 1
    clock.own(1, lambda: None)                            # linking q1: 1 -> 1.5
    clock.start_generation()                              # t=1.5
    clock.chunk_done(2)                                   # t=4.5: 3 s for both
    assert clock.generated([10, 20]) == pytest.approx([1.0 + 1.0, 0.5 + 2.0])


# -- threads --------------------------------------------------------------------------------

def test_inference_threads_follow_the_free_cores(monkeypatch):
    import cnl.cpu as cpu

    monkeypatch.delenv("CNL_THREADS", raising=False)
    monkeypatch.setattr(cpu, "available_cores", lambda: 2)
    monkeypatch.setattr(cpu.os, "getloadavg", lambda: (0.1, 0.1, 0.1))
    assert cpu.inference_threads() == 2
    monkeypatch.setattr(cpu.os, "getloadavg", lambda: (1.2, 1.0, 1.0))
    assert cpu.inference_threads() == 1
    monkeypatch.setattr(cpu.os, "getloadavg", lambda: (12.0, 10.0, 9.0))
    assert cpu.inference_threads() == 1
    monkeypatch.setenv("CNL_THREADS", "2")
    assert cpu.inference_threads() == 2


def test_the_readme_first_command_is_what_this_file_checks():
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    assert "cnl2sparql prepare --store .cache/slice && .venv/bin/cnl2sparql ask \"Who directed Inception?\"" in readme


def test_properties_around_reads_both_directions_and_qualifiers_in_one_query(tmp_path):
    """The property candidates' KG signal: the properties of a question's entities as subject,
    as object and as qualifiers of their statements — one query for all of them."""
    from cnl.kg import open_kg
    from cnl.linking.property_candidates import properties_around

    ttl = TTL + """
@prefix p: <http://www.wikidata.org/prop/> .
@prefix ps: <http://www.wikidata.org/prop/statement/> .
@prefix pq: <http://www.wikidata.org/prop/qualifier/> .
wd:Q25191 p:P166 wd:statement1 . wd:statement1 ps:P166 wd:Q1 ; pq:P585 "2024" .
"""
    with open_kg(store=store_from_ttl(ttl, tmp_path)) as kg:
        queries = []
        select = kg.select
        kg.select = lambda sparql: queries.append(sparql) or select(sparql)
        found = properties_around(kg, ["Q25191", "Q2283", "P57", "Q25191"])
    assert found == {"P31", "P57", "P166", "P585"}  # its type, films' director, an award and its qualifier
    assert len(queries) == 1 and properties_around(None, ["P57"]) == set()


# -- the reading a person corrects ---------------------------------------------------------------

AMBIGUOUS_TTL = TTL + """\
wd:Q24871 rdfs:label "Avatar"@en ; schema:description "2009 film by James Cameron"@en ; wdt:P31 wd:Q11424 .
wd:Q83090 rdfs:label "Avatar"@en ; schema:description "incarnation of a deity on earth in Hinduism"@en .
wd:Q152402 rdfs:label "Avatar"@en ; schema:description "graphical representation of a user"@en .
"""


def test_the_reading_shown_runs_as_it_reads_though_the_kg_has_its_label_several_times(tmp_path, capsys):
    """"Avatar" names three items of the store: the parser reads it through the question's
    candidates, `run` through the store's names, where it is ambiguous (an error). The "read as"
    line of an empty answer and `translate`'s CNL write such a label with the ID that was meant,
    so the line a person corrects and runs means what was run."""
    import re

    _model_or_skip()
    store = str(store_from_ttl(AMBIGUOUS_TTL, tmp_path))
    assert main(["ask", "Who directed Avatar?", "--store", store]) == 0
    err = capsys.readouterr().err
    reading = re.search(r"^read as: (.*)$", err, re.M).group(1)
    assert re.search(r"<Q\d+:Avatar>", reading), reading
    assert main(["run", reading, "--store", store]) == 0
    capsys.readouterr()
    assert main(["translate", "Who directed Avatar?", "--store", store]) == 0
    written = capsys.readouterr().out.splitlines()[0]
    assert re.search(r"<Q\d+:Avatar>", written), written
    assert main(["run", written, "--store", store]) == 0
    # the store's own reading of the bare label is still refused as ambiguous, with the choices
    capsys.readouterr()
    assert main(["run", re.sub(r"<Q\d+:Avatar>", "[Avatar]", written), "--store", store]) != 0
    assert "ambiguous" in capsys.readouterr().err
