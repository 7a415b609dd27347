"""`cnl2sparql ensemble` writes a folder the translator loads as one adapter, and refuses
members that would not read the same prompts. (Decoding an ensemble: tests/test_native.py.)"""
from __future__ import annotations

import json

import pytest

from cnl.cli import main
from cnl.errors import ModelError
from cnl.learn.ensemble import make_ensemble
from cnl.learn.inference import adapter_members

LORA = {"peft_type": "LORA", "r": 4, "lora_alpha": 8, "bias": "none", "target_modules": ["q_proj"]}


def adapter(path, **settings):
    path.mkdir()
    (path / "adapter_config.json").write_text(json.dumps(LORA))
    (path / "adapter_model.safetensors").write_bytes(b"weights of " + path.name.encode())
    (path / "train_config.json").write_text(json.dumps({"target": "squall", "notation": "label",
                                                        "property_candidates": 10, **settings}))
    (path / "property_pool.json").write_text(json.dumps({"pool of": path.name}))
    return path


def test_an_ensemble_folder_lists_copies_of_its_members_and_the_first_ones_prompt_files(tmp_path):
    first, second = adapter(tmp_path / "a"), adapter(tmp_path / "b", seed=1)
    out = make_ensemble([first, second], tmp_path / "ensemble")
    members = adapter_members(out)
    assert [m.name for m in members] == ["member-1", "member-2"]
    assert [(m / "adapter_model.safetensors").read_bytes() for m in members] == [b"weights of a", b"weights of b"]
    assert json.loads((out / "property_pool.json").read_text()) == {"pool of": "a"}
    assert json.loads((out / "train_config.json").read_text())["property_candidates"] == 10


def test_members_trained_on_other_prompts_are_refused(tmp_path):
    first, other = adapter(tmp_path / "a"), adapter(tmp_path / "b", property_candidates=0)
    with pytest.raises(ModelError, match="different property_candidates"):
        make_ensemble([first, other], tmp_path / "ensemble")
    assert not (tmp_path / "ensemble").exists()


def test_the_command_says_what_is_wrong_and_exits_non_zero(tmp_path, capsys):
    first, second = adapter(tmp_path / "a"), adapter(tmp_path / "b")
    assert main(["ensemble", str(first), "--out", str(tmp_path / "one")]) != 0
    assert "at least two adapters" in capsys.readouterr().err
    assert main(["ensemble", str(first), str(tmp_path / "missing"), "--out", str(tmp_path / "x")]) != 0
    assert "no adapter in" in capsys.readouterr().err
    assert main(["ensemble", str(first), str(second), "--out", str(tmp_path / "ens")]) == 0
    assert main(["ensemble", str(first), str(second), "--out", str(tmp_path / "ens")]) != 0
    assert "not empty" in capsys.readouterr().err
    assert main(["ensemble", str(tmp_path / "ens"), str(first), "--out", str(tmp_path / "nested")]) != 0
    assert "is an ensemble itself" in capsys.readouterr().err
