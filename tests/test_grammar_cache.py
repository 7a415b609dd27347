"""Analysed grammars are cached in the project's cache folder, keyed by grammar and options."""
from cnl.dialects.grammar_cache import cached_lark

GRAMMAR = 'start: "a" NAME\nNAME: /[a-z]+/\n%ignore " "\n'


def test_the_cache_is_written_once_and_keyed_by_the_grammar(tmp_path, monkeypatch):
    monkeypatch.setenv("CNL_CACHE_DIR", str(tmp_path))
    first = cached_lark("toy", GRAMMAR, parser="lalr")
    files = list((tmp_path / "grammars").iterdir())
    assert len(files) == 1 and files[0].name.startswith("toy-")
    assert cached_lark("toy", GRAMMAR, parser="lalr").parse("a bc") == first.parse("a bc")
    assert len(list((tmp_path / "grammars").iterdir())) == 1  # read back, not rewritten
    cached_lark("toy", GRAMMAR.replace('"a"', '"b"'), parser="lalr")  # an edited grammar: its own file
    assert len(list((tmp_path / "grammars").iterdir())) == 2


def test_an_unusable_cache_folder_only_costs_the_rebuild(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("CNL_CACHE_DIR", str(blocker))
    assert cached_lark("toy", GRAMMAR, parser="lalr").parse("a bc")


def test_a_corrupt_cache_file_is_rebuilt(tmp_path, monkeypatch):
    monkeypatch.setenv("CNL_CACHE_DIR", str(tmp_path))
    cached_lark("toy", GRAMMAR, parser="lalr")
    (cached,) = (tmp_path / "grammars").iterdir()
    cached.write_bytes(b"garbage")
    assert cached_lark("toy", GRAMMAR, parser="lalr").parse("a bc")
