"""The library behaves the same without ../shared/data: compile, decompile and translate read
no data set at run time (CNL_DATA_DIR pointing at an empty folder hides the shared data)."""
import json
import os
import subprocess
import sys

import pytest

CASES = [
    ["compile", "Which <Q11424:film> has <P57:director> <Q25191:Christopher_Nolan>?"],
    ["compile", "which [film] has <director> [Jon Favreau] and has the highest <publication date>?",
     "--lexicon", "LEXICON"],
    ["compile", "give me every <Q11424> that has as a genre <Q1054574>", "--dialect", "sparklis", "--notation", "id"],
    ["compile", "Which <Q11424:film> has <P57:director> <Q25191:Christopher_Nolan>?", "--kg", "wikidata-ecai"],
    ["compile", "which <Q11424> has <P57> <Q295964>?", "--format", "cnl", "--to-dialect", "sparklis",
     "--to-notation", "id"],
    ["decompile", "SELECT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P57 wd:Q25191 }", "--to", "sparklis"],
]


def _run(args, data_dir):
    env = dict(os.environ, CNL_DATA_DIR=str(data_dir))
    return subprocess.run([sys.executable, "-m", "cnl", *args], capture_output=True, text=True, env=env,
                          cwd=data_dir, timeout=300)


def test_compile_is_the_same_with_and_without_the_data(shared_data, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    lexicon = tmp_path / "lexicon.json"
    lexicon.write_text(json.dumps({"film": "Q11424", "Jon Favreau": "Q295964", "director": "P57",
                                   "publication date": "P577"}))
    for case in CASES:
        args = [str(lexicon) if a == "LEXICON" else a for a in case]
        with_data, without = _run(args, shared_data), _run(args, empty)
        assert with_data.returncode == 0, with_data.stderr
        assert (with_data.returncode, with_data.stdout) == (without.returncode, without.stdout), args


@pytest.mark.slow
def test_translate_is_the_same_with_and_without_the_data(shared_data, tmp_path):
    pytest.importorskip("torch")
    empty = tmp_path / "empty"
    empty.mkdir()
    args = ["translate", "Which country has the largest population in Europe?", "--format", "json",
            "--no-validate"]
    with_data, without = _run(args, shared_data), _run(args, empty)
    assert with_data.returncode == without.returncode
    assert json.loads(with_data.stdout) == json.loads(without.stdout)
