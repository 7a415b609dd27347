"""The `cnl2sparql compile` command: output, formats, batches, and clean errors."""
import json
import subprocess
import sys

import pytest

from cnl.cli import main


def run(*args, stdin=None):
    proc = subprocess.run([sys.executable, "-m", "cnl", *args], input=stdin, capture_output=True, text=True)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc


def test_compile_prints_sparql():
    proc = run("compile", "which <Q11424> has <P57> <Q295964>?")
    assert proc.returncode == 0
    assert "SELECT DISTINCT ?q11424 WHERE" in proc.stdout


def test_ir_json_and_cnl_formats(capsys):
    assert main(["compile", "which <Q11424:film> has <P57:director> <Q295964>?", "--format", "ir-json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["type"] == "Query" and data["vp"]["prop"]["id"] == "P57"
    assert main(["compile", "Which <film> has <P57:director> <Jon_Favreau>?", "--format", "cnl"]) == 0
    assert capsys.readouterr().out.strip() == "Which [film] has <director> [Jon Favreau]?"


def test_lexicon_option(tmp_path):
    lex = tmp_path / "lex.json"
    lex.write_text(json.dumps({"film": "Q11424", "director": "P57", "Jon Favreau": "Q295964"}))
    proc = run("compile", "which [film] has <director> [Jon Favreau]?", "--lexicon", str(lex),
               "--statements", "qualified")
    assert proc.returncode == 0 and "?film wdt:P57 wd:Q295964" in proc.stdout


def test_syntax_error_exits_2_with_a_caret():
    proc = run("compile", "which [film] has has <director> [X]?")
    assert proc.returncode == 2
    assert "line 1, column 18" in proc.stderr and "^" in proc.stderr and proc.stdout == ""


def test_unknown_label_exits_3(tmp_path):
    lex = tmp_path / "lex.json"
    lex.write_text(json.dumps({"film": "Q11424", "director": "P57"}))
    proc = run("compile", "which [film] has <director> [Jon Favreau]?", "--lexicon", str(lex))
    assert proc.returncode == 3 and "unknown entity label 'Jon Favreau'" in proc.stderr


def test_missing_lexicon_file_is_a_clear_error(tmp_path):
    proc = run("compile", "which [film] has <director> [X]?", "--lexicon", str(tmp_path / "nope.json"))
    assert proc.returncode != 0 and "not found" in proc.stderr


def test_stdin_batch_keeps_going_and_reports_line_numbers():
    proc = run("compile", "-", stdin="which <Q11424> has <P57> <Q295964>?\n\nnot a query at all\nWho is the <P26> of <Q1>?\n")
    assert proc.returncode == 2
    assert proc.stdout.count("SELECT") == 2
    assert "line 3" in proc.stderr


@pytest.mark.parametrize("args", [["compile"], ["nope"], ["compile", "x", "--notation", "klingon"]])
def test_usage_errors_exit_2(args):
    proc = run(*args)
    assert proc.returncode == 2


def test_each_command_parses_with_its_own_module_alone():
    """A call imports only its command's module (COMMANDS names it); the full parser, for help
    and for an unknown command, has every command, each registered by the module COMMANDS names."""
    import argparse
    import importlib

    from cnl.cli import COMMAND_MODULES, COMMANDS, build_parser

    registered = {}
    for module in COMMAND_MODULES:
        sub = argparse.ArgumentParser().add_subparsers()
        importlib.import_module(module).register(sub)
        registered.update({name: module for name in sub.choices})
    assert registered == COMMANDS
    assert set(build_parser().parse_args(["link", "q", "--store", "s"]).__dict__) >= {"question", "store"}
    assert list(build_parser("link")._subparsers._group_actions[0].choices) == ["link"]


def test_link_starts_without_the_compiler_or_the_data_sets(tmp_path):
    """`cnl2sparql link` imports neither the dialects nor the data sets' presets: start-up is
    most of a cold call on a cached index."""
    code = ("import sys; from cnl.cli import main; main(['link', 'Who?', '--store', sys.argv[1]]); "
            "print(sorted(m for m in sys.modules if m.startswith(('cnl.dialects', 'cnl.datasets', 'cnl.sparql.compiler'))))")
    proc = subprocess.run([sys.executable, "-c", code, str(tmp_path / "absent")], capture_output=True, text=True)
    assert proc.stdout.strip().splitlines()[-1] == "[]", proc.stdout + proc.stderr
