"""Tool schemas, bounded tables, argument checking and CLI errors of the agent layer (no data needed)."""
from __future__ import annotations

import pytest

from cnl.agent.tools import Toolbox, format_table, tool_schema
from cnl.cli import main as cli_main
from cnl.errors import ToolCallError


def test_schemas_are_generated_from_signatures():
    names = {m: set(Toolbox.tool_names(m)) for m in ("sparql", "cnl", "all")}
    common = {"search_entity", "search_property", "search_property_of_entity",
              "search_object_of_property", "list_triples", "answer", "cancel"}
    assert names["sparql"] == common | {"execute_sparql"}
    assert names["cnl"] == common | {"execute_cnl", "translate", "complete_cnl"}
    assert names["all"] == names["cnl"] | {"execute_sparql"}
    schema = tool_schema(Toolbox.list_triples)["function"]
    assert schema["parameters"]["required"] == []
    assert schema["parameters"]["properties"]["subject"]["type"] == "string"
    assert "Q25188" in schema["parameters"]["properties"]["subject"]["description"]
    answer = {s["function"]["name"]: s for s in Toolbox.schemas("sparql")}["answer"]["function"]
    assert answer["parameters"]["required"] == ["sparql", "answer"]
    cancel = tool_schema(Toolbox.cancel)["function"]["parameters"]
    assert cancel["required"] == ["explanation"]


def test_long_tables_show_first_and_last_rows():
    rows = [[f"r{i}", "x" * 200] for i in range(25)]
    text = format_table(["a", "b"], rows)
    lines = text.splitlines()
    assert lines[1].startswith("r0 |") and lines[6] == "…" and lines[-2].startswith("r24 |")
    assert "(25 rows, showing the first 5 and last 5)" in text and max(map(len, lines)) < 100


def test_arguments_are_checked():
    box = Toolbox(kg=None)
    with pytest.raises(ToolCallError, match="unknown tool"):
        box.call("drop", {})
    assert "needs the argument 'query'" in box.call("search_entity", {}).text
    assert "must be a string" in box.call("search_entity", {"query": 3}).text
    assert "not valid JSON" in box.call("search_entity", "{oops").text
    assert "not an ID or IRI" in box.call("list_triples", {"subject": "Nolan; DROP"}).text


def test_cli_errors_have_agent_exit_codes(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("CNL_AGENT_MODEL", raising=False)
    (tmp_path / "c.json").write_text('{"datasets": {}}')
    assert cli_main(["serve", "--config", str(tmp_path / "c.json")]) == 53
    assert "no dataset" in capsys.readouterr().err
    assert cli_main(["agent", "q", "--store", str(tmp_path), "--base-url", "http://127.0.0.1:9/v1"]) == 50
    assert "model name" in capsys.readouterr().err
