"""The peft-free LoRA merge gives the weights peft's own merge gives, and declines what it
does not know (so that the translator falls back to peft)."""
import json

import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")
peft = pytest.importorskip("peft")

from cnl.learn.lora import merge_lora, plain_lora  # noqa: E402


def tiny_model():
    config = transformers.LlamaConfig(vocab_size=64, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                                      num_attention_heads=4, num_key_value_heads=2)
    torch.manual_seed(0)
    return transformers.LlamaForCausalLM(config)


def saved_adapter(tmp_path, **options):
    lora = peft.LoraConfig(r=4, lora_alpha=8, target_modules=["q_proj", "v_proj", "o_proj"],
                           init_lora_weights=False, **options)  # random B: a merge that changes the weights
    model = peft.get_peft_model(tiny_model(), lora)
    model.save_pretrained(tmp_path)
    return model


@pytest.mark.parametrize("options", [{}, {"use_rslora": True}, {"layers_to_transform": [1]}])
def test_merge_matches_peft(tmp_path, options):
    reference = saved_adapter(tmp_path, **options).merge_and_unload().state_dict()
    model = tiny_model()
    assert merge_lora(model, tmp_path)
    merged = model.state_dict()
    assert reference.keys() == merged.keys()
    for name, tensor in reference.items():
        assert torch.allclose(tensor, merged[name], atol=1e-6), name
    assert not torch.equal(merged["model.layers.1.self_attn.q_proj.weight"],
                           tiny_model().state_dict()["model.layers.1.self_attn.q_proj.weight"])


def test_other_adapters_are_left_to_peft(tmp_path):
    saved_adapter(tmp_path, use_dora=True)
    model = tiny_model()
    before = {k: v.clone() for k, v in model.state_dict().items()}
    assert not merge_lora(model, tmp_path)
    assert all(torch.equal(before[k], v) for k, v in model.state_dict().items())
    config = json.loads((tmp_path / "adapter_config.json").read_text())
    assert not plain_lora(config) and plain_lora({**config, "use_dora": False})


def test_an_adapter_for_another_model_is_declined(tmp_path):
    saved_adapter(tmp_path)
    config = transformers.LlamaConfig(vocab_size=64, hidden_size=48, intermediate_size=64, num_hidden_layers=2,
                                      num_attention_heads=4, num_key_value_heads=2)
    assert not merge_lora(transformers.LlamaForCausalLM(config), tmp_path)


def test_translate_verbose_says_where_the_time_went(capsys):
    """--verbose: each stage's seconds (loading, linking, writing the query) on standard error,
    the answer on standard out."""
    from cnl.cli import main
    from cnl.learn.inference import default_adapter_dir, is_adapter

    if not is_adapter(default_adapter_dir()):
        pytest.skip("no default adapter shipped")
    main(["translate", "Who directed Inception?", "--no-validate", "--verbose"])
    captured = capsys.readouterr()
    for stage in ("loading the model: ", "linking entities: ", "writing the query: "):
        assert stage in captured.err and stage not in captured.out
    assert captured.out.strip()
