"""Helpers for KG tests: a real oxigraph server on loopback, and servers that misbehave."""
from __future__ import annotations

import http.server
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest


def oxigraph_binary() -> str:
    found = shutil.which("oxigraph") or str(Path(sys.executable).parent / "oxigraph")
    if not Path(found).exists():
        pytest.skip("the oxigraph server binary is not installed (pip install oxigraph)")
    return found


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class OxigraphServer:
    """`oxigraph serve` on a free loopback port over a store pre-loaded with `oxigraph load`."""

    def __init__(self, location: Path, rdf_file: Path) -> None:
        binary = oxigraph_binary()
        subprocess.run([binary, "load", "--location", str(location), "--file", str(rdf_file)],
                       check=True, capture_output=True, timeout=120)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = subprocess.Popen(
            [binary, "serve", "--location", str(location), "--bind", f"127.0.0.1:{self.port}"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        self._wait_ready()

    @property
    def query_url(self) -> str:
        return f"{self.url}/query"

    @property
    def update_url(self) -> str:
        return f"{self.url}/update"

    def _wait_ready(self, timeout: float = 20.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"oxigraph exited: {self.process.stderr.read().decode()[-500:]}")
            try:
                with urllib.request.urlopen(f"{self.query_url}?query=ASK%7B%7D", timeout=1):
                    return
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError("oxigraph server did not become ready")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


class SilentServer:
    """Accepts connections and never answers: every request times out."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.port = self.sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}/sparql"
        self._held: list[socket.socket] = []
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self._held.append(conn)

    @property
    def connections(self) -> int:
        """Connections accepted so far (a canary: tests assert nothing reached it)."""
        return len(self._held)

    def stop(self) -> None:
        self.sock.close()
        for conn in self._held:
            conn.close()


class FlakyServer:
    """Answers HTTP ``status`` to the first ``failures`` requests, then a fixed SPARQL JSON result."""

    BODY = b'{"head":{"vars":["x"]},"results":{"bindings":[{"x":{"type":"literal","value":"ok"}}]}}'

    def __init__(self, failures: int, status: int = 503) -> None:
        outer = self
        self.requests = 0

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                outer.requests += 1
                if outer.requests <= failures:
                    self.send_response(status)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                self.send_response(200)
                self.send_header("Content-Type", "application/sparql-results+json")
                self.send_header("Content-Length", str(len(outer.BODY)))
                self.end_headers()
                self.wfile.write(outer.BODY)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/sparql"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def store_from_ttl(ttl: str, folder: Path) -> Path:
    """An embedded store at ``folder``/store holding the Turtle text ``ttl``."""
    from cnl.kg.embedded import EmbeddedKG

    folder.mkdir(parents=True, exist_ok=True)
    (folder / "g.ttl").write_text(ttl)
    with EmbeddedKG(folder / "store") as kg:
        kg.load(folder / "g.ttl", progress=False)
    return folder / "store"
