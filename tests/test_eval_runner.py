"""The runner's configuration, scoring and report, without a model (gold strings as predictions)."""
import json

import pytest

from cnl.errors import EvalConfigError
from cnl.linking.resolver import ChainResolver
from cnl.eval.runner import Runner, compile_prediction, load_config, prediction_resolver

CONFIG = """
name = "t"
out = "out"
cache = "cache"
test_size = 6
[[experiment]]
name = "sample_efficiency"
languages = ["squall-label", "sparql-id"]
el = ["implicit"]
train_sizes = [100, 200]
[[experiment]]
name = "el"
languages = ["squall-label"]
el = ["none", "explicit", "implicit", "hybrid"]
train_sizes = [200]
"""


def write(tmp_path, text):
    path = tmp_path / "exp.toml"
    path.write_text(text)
    return path


def test_config_cells_are_pooled_and_deduplicated(tmp_path):
    config = load_config(write(tmp_path, CONFIG))
    cells = config.cells()
    assert len(cells) == len(set(cells)) == 4 + 3
    assert config.out == tmp_path / "out" and config.cache == tmp_path / "cache"


@pytest.mark.parametrize("text, message", [
    ("name = 1\n", "no [[experiment]]"),
    ("bogus = 1\n" + CONFIG, "unknown key"),
    (CONFIG.replace('"sparql-id"', '"cypher-id"'), "unknown language"),
    (CONFIG.replace('"hybrid"', '"magic"'), "unknown EL variant"),
    ("[[experiment]]\nname = 'x'\nlanguages = ['squall-label']\n", "lacks 'train_sizes'"),
    ("name = [", "not valid TOML"),
])
def test_bad_configs_are_clear_errors(tmp_path, text, message):
    with pytest.raises(EvalConfigError, match=message.replace("[", r"\[")):
        load_config(write(tmp_path, text))


def test_missing_config(tmp_path):
    with pytest.raises(EvalConfigError, match="not found"):
        load_config(tmp_path / "nope.toml")


def _resolver(entities, classes, properties, **kw):
    tables = [{ChainResolver.key(kind, label): ident for label, ident in table.items()}
              for kind, table in (("entity", entities), ("class", classes), ("property", properties))]
    return ChainResolver(*tables, **kw)


def test_label_resolver_ignores_case_and_underscores():
    resolver = _resolver({"jon favreau": "Q295964"}, {"film": "Q11424"}, {"director": "P57"}, cross_kinds=False)
    assert resolver.resolve("Jon_Favreau", "entity") == "Q295964"
    assert resolver.resolve("Director", "property") == "P57"
    from cnl.errors import LexiconError

    with pytest.raises(LexiconError):
        resolver.resolve("Jon Favro", "entity")
    with pytest.raises(LexiconError):  # the grid looks a label up only under its own kind
        resolver.resolve("film", "entity")
    assert _resolver({}, {"film": "Q11424"}, {}).resolve("film", "entity") == "Q11424"


def test_compile_prediction_reports_errors_not_tracebacks():
    resolver = _resolver({}, {"film": "Q11424"}, {"director": "P57"})
    sparql, error = compile_prediction("which [film] has <director> [Nobody]?", "squall-label", resolver)
    assert sparql is None and "Nobody" in error
    sparql, error = compile_prediction("which [film] has has", "squall-label", resolver)
    assert sparql is None and error
    sparql, error = compile_prediction("SELECT ?x WHERE { ?x wdt:P57 wd:Q1 }", "sparql-id", resolver)
    assert error is None and "PREFIX wd:" in sparql
    assert compile_prediction("SELECT ?x WHERE {", "sparql-id", resolver)[0] is None


def test_gold_predictions_score_perfectly_offline(shared_data, tmp_path):
    from cnl.eval.examples import build_examples
    from cnl.eval.report import write_report
    from cnl.eval.runner import grid_tables

    config = load_config(write(tmp_path, CONFIG))
    runner = Runner(config, progress=False)
    tables = grid_tables()
    results = []
    for language in ("squall-label", "squall-id", "sparql-id"):
        examples = build_examples("test", language, "implicit")[:6]
        gold = runner.gold_answers([language], {language: examples}, None, tables)
        # the gold strings themselves, and one broken prediction
        raw = [e.completion for e in examples[:-1]] + ["which which"]
        scored = runner.score_cell(language, "implicit", 100, examples, raw, None, gold, tables, None)
        f = scored["figures"]
        assert f["exact_match"] == pytest.approx(5 / 6)
        assert f["ta_offline"] == pytest.approx(5 / 6), [r["error"] for r in scored["rows"]]
        assert f["ta"] is None and f["scored_by"] == "TA-offline"
        assert scored["rows"][-1]["category"] is not None
        assert sum(f["errors"].values()) == 1
        results.append(scored)
    data = write_report(config, results, wall_seconds=1.0, log=[])
    out = tmp_path / "out"
    assert json.loads((out / "results.json").read_text())["cells"][0]["language"] == "squall-label"
    report = (out / "report.md").read_text()
    assert "ΔTA against SPARQL-ID" in report and "not run" in report
    assert data["out"] == str(out)


def test_prediction_resolver_uses_candidates_and_gold(shared_data):
    from cnl.eval.examples import build_examples

    example = build_examples("test", "squall-label", "implicit")[0]
    resolver = prediction_resolver(example, {}, {})
    for c in example.candidates:
        if c.label:
            assert resolver.resolve(c.label, "entity").startswith("Q")


def test_cli_reports_config_errors_with_their_exit_code(tmp_path, capsys):
    from cnl.cli import main

    assert main(["eval", "--config", str(tmp_path / "missing.toml")]) == 41
    assert capsys.readouterr().err.startswith("error: configuration not found")
    bad = write(tmp_path, "[[experiment]]\nname = 'x'\nlanguages = ['squall-label']\ntrain_sizes = [99999]\n")
    assert main(["eval", "--config", str(bad), "--quiet"]) in (41, 5)  # 5 when the data is absent


SMOKE = """
name = "smoke"
out = "out"
cache = "cache"
test_size = 2
threads = 1
generation_batch = 2
[train]
max_steps = 2
batch_size = 2
lora_layers = 2
[[experiment]]
name = "languages"
languages = ["squall-label"]
el = ["implicit", "hybrid"]
train_sizes = [4]
"""


def test_runner_trains_generates_and_reports_end_to_end(shared_data, tmp_path):
    """The whole grid path on a tiny cell: cnl.learn.train trains an adapter, cnl.learn's
    Translator generates, the cell is scored and reported; a rerun reuses the caches."""
    pytest.importorskip("peft")
    from cnl.eval.runner import run_config

    path = write(tmp_path, SMOKE)
    data = run_config(path, progress=False)
    cells = data["cells"] if "cells" in data else json.loads((tmp_path / "out" / "results.json").read_text())["cells"]
    assert [(c["language"], c["el"], c["train_size"]) for c in cells] == [
        ("squall-label", "implicit", 4), ("squall-label", "hybrid", 4)]
    assert cells[0]["train"]["examples"] == 4 and cells[0]["train"]["tokens_per_second"] > 0
    adapters = list((tmp_path / "cache" / "adapters").glob("*/n4/adapter_model.safetensors"))
    assert len(adapters) == 1
    report = (tmp_path / "out" / "report.md").read_text()
    assert "squall-label" in report.lower() or "SQUALL" in report
    before = adapters[0].stat().st_mtime
    run_config(path, progress=False)
    assert adapters[0].stat().st_mtime == before


def test_unknown_training_setting_is_a_config_error(tmp_path):
    config = load_config(write(tmp_path, CONFIG.replace('test_size = 6', 'test_size = 6\n[train]\nmax_len = 3')))
    with pytest.raises(EvalConfigError, match="max_len"):
        Runner(config, progress=False).train_settings()


def test_explicit_el_labels_resolve_through_the_entity_map(shared_data, tmp_path):
    """Explicit/hybrid EL replace entity labels by EntityMap labels; the scorer must then take
    their IDs from the map (a label the question's candidates lack is not an error)."""
    pytest.importorskip("sentence_transformers")
    from cnl.eval.examples import build_examples
    from cnl.eval.runner import grid_tables
    from cnl.linking.entity_map import EntityMap

    config = load_config(write(tmp_path, CONFIG))
    runner = Runner(config, progress=False)
    tables = grid_tables()
    example = build_examples("test", "squall-label", "implicit")[0]
    gold = runner.gold_answers(["squall-label"], {"squall-label": [example]}, None, tables)
    prediction = "Which [human] has <sex or gender> [Xyzzy Plugh Entity]?"
    emap = EntityMap().add_pairs([("Xyzzy Plugh Entity", "Q4"), ("human", "Q5")])
    implicit = runner.score_cell("squall-label", "implicit", 1, [example], [prediction], None, gold, tables, emap)
    explicit = runner.score_cell("squall-label", "explicit", 1, [example], [prediction], None, gold, tables, emap)
    assert not implicit["rows"][0]["compiled"]
    assert explicit["rows"][0]["compiled"], explicit["rows"][0]["error"]
