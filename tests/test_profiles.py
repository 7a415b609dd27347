"""KG profiles from TOML files and `cnl2sparql grammar-test`."""
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import cnl
from cnl.sparql.profiles import FileProfile, WikidataProfile, get_profile
from cnl.errors import GrammarTestFailed, GrammarTestFileError, ProfileFileError
from cnl.eval.grammar_test import load_cases, run_cases

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "films"


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "cnl", *args], capture_output=True, text=True,
                          cwd=EXAMPLE.parent.parent)


@pytest.fixture
def films_ttl(tmp_path):
    """The example graph, written where the test controls it."""
    path = tmp_path / "films.ttl"
    shutil.copyfile(EXAMPLE / "films.ttl", path)
    return path


def test_example_profile_loads():
    profile = get_profile(str(EXAMPLE / "profile.toml"))
    assert isinstance(profile, FileProfile)
    assert profile.name == "example-films" and profile.statement_scheme == "direct"
    assert profile.prefixes["ex"] == "http://example.org/films/"


def test_example_grammar_test_runs_green(films_ttl):
    run = _cli("grammar-test", str(EXAMPLE / "profile.toml"), str(EXAMPLE / "cases.toml"),
               "--data", str(films_ttl), "--lexicon", str(EXAMPLE / "lexicon.json"))
    assert run.returncode == 0, run.stdout + run.stderr
    assert "8/8 cases pass" in run.stdout
    assert run.stdout.count("PASS") == 8


def test_failing_cases_are_reported_and_exit_non_zero(tmp_path, films_ttl):
    cases = tmp_path / "cases.json"
    cases.write_text(json.dumps([
        {"cnl": "Which [film] has <director> [Christopher Nolan]?", "answers": ["ex:titanic"]},
        {"cnl": "Which [film] has <director> [James Cameron]?",
         "sparql": "SELECT ?f WHERE { ?f ex:director ex:cameron }"},
        {"cnl": "Which [film] has <producer> [James Cameron]?"},
        {"cnl": "Has [Avatar] <director> [James Cameron]?", "answers": True},
    ]))
    run = _cli("grammar-test", str(EXAMPLE / "profile.toml"), str(cases), "--data", str(films_ttl),
               "--lexicon", str(EXAMPLE / "lexicon.json"))
    assert run.returncode == GrammarTestFailed.exit_code
    lines = run.stdout.splitlines()
    assert lines[0].startswith("FAIL   1") and "answers differ" in lines[1]
    assert any(line.startswith("FAIL   2") for line in lines)
    assert any("does not compile" in line and "producer" in line for line in lines)
    assert any(line.startswith("PASS   4") for line in lines)
    assert "1/4 cases pass" in run.stdout
    assert run.stderr.startswith("error: 3 of 4 grammar-test cases failed")


def test_wikibase_statement_scheme(tmp_path):
    path = tmp_path / "wb.toml"
    path.write_text(
        'name = "my-wikibase"\n'
        'class_predicate = "wdt:P1"\n'
        '[prefixes]\nwd = "https://kb.example.org/entity/"\nwdt = "https://kb.example.org/prop/direct/"\n'
        '[statements]\nscheme = "wikibase"\np = "https://kb.example.org/prop/"\n'
        'ps = "https://kb.example.org/prop/statement/"\npq = "https://kb.example.org/prop/qualifier/"\n'
    )
    lexicon = {"human": "wd:Q5", "position": "P39", "start": "P580", "mayor": "wd:Q30185"}
    sparql = cnl.compile("Which [human] has <position> [mayor] at <start> 2000?", kg=str(path), lexicon=lexicon)
    assert "?human wdt:P1 wd:Q5 ." in sparql
    assert "?human p:P39 [ ps:P39 wd:Q30185 ; pq:P580 2000 ] ." in sparql
    assert "PREFIX p: <https://kb.example.org/prop/>" in sparql


def test_compile_cli_accepts_a_profile_file():
    run = _cli("compile", "Which [film] has <director> [Christopher Nolan]?",
               "--kg", str(EXAMPLE / "profile.toml"), "--lexicon", str(EXAMPLE / "lexicon.json"))
    assert run.returncode == 0, run.stderr
    assert "?film ex:director ex:nolan ." in run.stdout


def test_direct_profile_has_no_qualifiers():
    with pytest.raises(cnl.CompileError, match="no statement qualifiers"):
        cnl.compile("Which [film] has <director> [Christopher Nolan] at <year> 2010?",
                    kg=str(EXAMPLE / "profile.toml"), lexicon=str(EXAMPLE / "lexicon.json"))


@pytest.mark.parametrize("text,message", [
    ("name = ", "not valid TOML"),
    ('colour = "red"', "unknown field(s) colour"),
    ('[statements]\nscheme = "wikibase"', "needs the namespace IRIs p, ps, pq"),
    ('[statements]\nscheme = "reified"', "statement scheme must be 'direct' or 'wikibase'"),
    ('default_prefix = "zz"', "default_prefix 'zz' is not in [prefixes]"),
])
def test_bad_profile_files(tmp_path, text, message):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(ProfileFileError, match=message.replace("(", r"\(").replace(")", r"\)").replace("[", r"\[").replace("]", r"\]")):
        get_profile(str(path))
    run = _cli("compile", "Which [film] has <director> [Christopher Nolan]?", "--kg", str(path),
               "--lexicon", str(EXAMPLE / "lexicon.json"))
    assert run.returncode == ProfileFileError.exit_code and run.stderr.startswith("error: ")


def test_missing_profile_file():
    with pytest.raises(ProfileFileError, match="cannot read profile file"):
        get_profile("no/such/profile.toml")


@pytest.mark.parametrize("name,text", [
    ("cases.json", "[]"),
    ("cases.json", '[{"sparql": "ASK {}"}]'),
    ("cases.toml", '[[case]]\ncnl = "x"\ncolour = 1'),
    ("cases.json", "{not json"),
])
def test_bad_cases_files(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(GrammarTestFileError):
        load_cases(path)


def test_run_cases_api(films_ttl):
    profile = get_profile(str(EXAMPLE / "profile.toml"))
    results = run_cases(load_cases(EXAMPLE / "cases.toml"), profile,
                        lexicon=cnl_lexicon(), data=films_ttl)
    assert all(r.ok for r in results) and len(results) == 8


def cnl_lexicon():
    from cnl.linking.lexicon import Lexicon

    return Lexicon.from_file(EXAMPLE / "lexicon.json")


def test_options_override_a_profile_instance():
    base = WikidataProfile(statements="always")
    profile = get_profile(base, projection="all")
    assert (profile.statements, profile.projection) == ("always", "all") and base.projection == "focus"


# --- typed options (issue 17): nothing a caller passes can change the query's structure ----------

@pytest.mark.parametrize("options, message", [
    ({"default_limit": "1 OFFSET 5"}, "default_limit must be a whole number"),
    ({"default_limit": True}, "default_limit must be a whole number"),
    ({"label_language": 'en") } #'}, "BCP 47"),
    ({"label_language": "en\n"}, "BCP 47"),
    ({"label_predicate": "?anything"}, "label_predicate must be a predicate"),
    ({"label_predicate": "nope:label"}, "label_predicate must be a predicate"),
    ({"class_path": "wdt:P31 } ?x ?y ?z {"}, "class_path must be a property path"),
    ({"prefixes": {"x": "http://a> } #"}}, "prefixes must be"),
    ({"subclasses": "yes"}, "subclasses must be true or false"),
])
def test_profile_options_are_typed(options, message):
    from cnl.errors import CompileError

    with pytest.raises(CompileError, match=message):
        get_profile("wikidata", **options)


def test_good_options_and_the_registry():
    from cnl.errors import CompileError
    from cnl.sparql.profiles import named_profile

    profile = get_profile("wikidata", default_limit=5, label_language="pt-BR", class_path="wdt:P31/wdt:P279*",
                          label_predicate="<http://www.w3.org/2004/02/skos/core#prefLabel>")
    assert profile.default_limit == 5 and get_profile(profile, default_limit=7).default_limit == 7
    assert named_profile("wikidata", {"default_limit": 3}).default_limit == 3
    with pytest.raises(CompileError, match="unknown KG profile"):
        named_profile(str(EXAMPLE / "profile.toml"))  # a server never reads a file named by a request


def test_lexicon_iris_with_control_characters_are_refused():
    from cnl.errors import CompileError
    from cnl.linking.lexicon import Lexicon

    lexicon = Lexicon()
    lexicon.add("Bad Thing", "http://example.org/a\x01b")
    with pytest.raises(CompileError, match="not a valid entity IRI"):
        cnl.compile("What has <P57> [Bad Thing]?", lexicon=lexicon)
