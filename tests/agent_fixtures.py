"""Helpers for the agent tests: a Nolan slice store and a scripted chat-completions stub server."""
from __future__ import annotations

import http.server
import json
import threading
from pathlib import Path

from cnl.agent.slices import write_slice
from cnl.linking.cache import cache_root

# Questions the stub-driven tests answer; the gold answer is Nolan's seven films in the slice.
NOLAN = "Q25191"
NOLAN_FILMS = {"Q25188", "Q166262", "Q46551", "Q189330", "Q163872", "Q190525", "Q429969"}


def nolan_slice(shared_data: Path) -> Path:
    """The few-thousand-triple slice around Christopher Nolan, cut once and cached on disk."""
    source = shared_data / "wikidata" / "wikidata-slice.nt.gz"
    stat = source.stat()
    target = cache_root() / "test-slices" / f"nolan-{stat.st_size}-{int(stat.st_mtime)}.nt"
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_suffix(".part")
        write_slice(source, partial)
        partial.rename(target)
    return target


def load_store(rdf_file: Path, folder: Path) -> Path:
    from cnl.kg.embedded import EmbeddedKG

    with EmbeddedKG(folder) as kg:
        kg.load(rdf_file, progress=False)
    return folder


def tool_call(name: str, **arguments) -> dict:
    """A scripted assistant turn that calls one tool."""
    return {"role": "assistant", "content": None, "tool_calls": [
        {"id": f"call_{name}", "type": "function",
         "function": {"name": name, "arguments": json.dumps(arguments)}}]}


class ScriptedChatServer:
    """A test double for an OpenAI-compatible chat-completions endpoint on 127.0.0.1.

    It replays a fixed list of assistant turns (usually tool calls; ``{"http_status": 500}`` answers
    that status instead), one per request, and keeps
    every request body so a test can check what the agent sent (messages, tools, tool results).
    """

    def __init__(self, script: list[dict]) -> None:
        outer = self
        self.script = list(script)
        self.requests: list[dict] = []

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
                outer.requests.append({"path": self.path, "body": body,
                                       "authorization": self.headers.get("Authorization")})
                if self.path != "/v1/chat/completions":
                    self._send(404, {"error": {"message": f"no route {self.path}"}})
                elif not outer.script:
                    self._send(200, _completion({"role": "assistant", "content": "I am out of script."}))
                else:
                    turn = outer.script.pop(0)
                    if "http_status" in turn:   # a server failing on this turn
                        self._send(turn["http_status"], {"error": {"message": "scripted failure"}})
                    else:
                        self._send(200, _completion(turn))

            def _send(self, status: int, doc: dict) -> None:
                data = json.dumps(doc).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base_url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def _completion(message: dict) -> dict:
    return {"id": "chatcmpl-stub", "object": "chat.completion", "model": "stub",
            "choices": [{"index": 0, "message": message,
                         "finish_reason": "tool_calls" if message.get("tool_calls") else "stop"}]}


class TransformersServer:
    """`transformers serve MODEL_DIR` on a free loopback port: a real OpenAI-compatible server.

    Started as a child process (offline: HF_HUB_OFFLINE=1, the model is a local folder), its
    output kept in ``log``; ``stop()`` terminates it (then kills it)."""

    def __init__(self, model_dir: Path, log: Path, *, startup_s: float = 300.0) -> None:
        import os
        import subprocess
        import sys
        import time

        import httpx

        from tests.kg_fixtures import free_port

        self.model = str(model_dir)
        self.port = free_port()
        self.base_url = f"http://127.0.0.1:{self.port}/v1"
        self.log = log
        env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
        with open(log, "wb") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-c", ("import sys; from transformers.cli.transformers import main; "
                                        "sys.argv[0] = 'transformers'; sys.exit(main())"),
                 "serve", self.model, "--host", "127.0.0.1", "--port", str(self.port), "--device", "cpu",
                 "--log-level", "info"], stdout=out, stderr=subprocess.STDOUT, env=env)
        deadline = time.monotonic() + startup_s
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"transformers serve exited with {self.process.returncode}:\n"
                                   + log.read_text(errors="replace")[-3000:])
            try:
                if httpx.get(f"http://127.0.0.1:{self.port}/health", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(1)
        self.stop()
        raise RuntimeError(f"transformers serve did not answer /health within {startup_s:g} s")

    def stop(self) -> None:
        stop_process(self.process)


def stop_process(process, timeout: float = 20) -> None:
    """Terminate a child process, then kill it if it has not ended within ``timeout`` seconds."""
    import subprocess

    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
