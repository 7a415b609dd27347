"""Queries that can be stopped: a small pool of worker processes over one on-disk store.

pyoxigraph has no timeout and no cancellation, and a running query ignores SIGINT; the only way
to stop one is to end the process running it. Each query therefore runs in a worker process
(:mod:`cnl.kg.worker`, the store opened read-only) and the caller waits for the answer with
``select()`` up to the deadline; past it the worker is killed (SIGKILL, then reaped: it uses no
CPU afterwards) and a fresh one takes its place. Ctrl-C in the caller kills the worker too.

One query per worker at a time; callers wait for a free worker up to their own deadline, so the
pool size bounds the CPU that queries can take.
"""
from __future__ import annotations

import json
import os
import select
import signal
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path

from cnl.errors import KGError, QueryTimeout, ResultTooLarge, SPARQLSyntaxError, StoreError

WORKER_SCRIPT = Path(__file__).with_name("worker.py")
START_TIMEOUT = 60.0  # opening a big store read-only takes well under a second; this is a backstop


class _WorkerDied(Exception):
    pass


class Worker:
    """One worker process; ``query`` returns its decoded reply or raises."""

    def __init__(self, store_path: Path, *, prefixes: dict, isolate_network: bool,
                 timeout: float = START_TIMEOUT) -> None:
        self.store_path = store_path
        self.proc = subprocess.Popen(
            [sys.executable, str(WORKER_SCRIPT), str(store_path)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            bufsize=0, start_new_session=True)  # a terminal's Ctrl-C reaches the parent only
        self.rfd = self.proc.stdout.fileno()
        self.network_isolated = False
        try:
            status, doc = self._exchange({"prefixes": prefixes, "isolate_network": isolate_network},
                                         time.monotonic() + timeout)
        except BaseException:
            self.kill()
            raise
        if status != b"OK":
            self.kill()
            raise StoreError(f"cannot open the store at {store_path}: {doc.get('message')}")
        self.network_isolated = bool(doc.get("network_isolated"))

    @property
    def pid(self) -> int:
        return self.proc.pid

    def _read_exact(self, n: int, deadline: float | None) -> bytes:
        buf = bytearray()
        while len(buf) < n:
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                raise QueryTimeout("deadline")
            ready, _, _ = select.select([self.rfd], [], [], left)
            if not ready:
                raise QueryTimeout("deadline")
            chunk = os.read(self.rfd, n - len(buf))
            if not chunk:
                raise _WorkerDied(f"the query worker exited (status {self.proc.poll()})")
            buf += chunk
        return bytes(buf)

    def _exchange(self, request: dict, deadline: float | None) -> tuple[bytes, dict]:
        data = json.dumps(request, ensure_ascii=False).encode("utf-8", "surrogatepass")
        try:
            self.proc.stdin.write(struct.pack(">I", len(data)) + data)
        except (BrokenPipeError, OSError) as err:
            raise _WorkerDied(f"the query worker is gone ({err})") from None
        (size,) = struct.unpack(">I", self._read_exact(4, deadline))
        payload = self._read_exact(size, deadline)
        return payload[:2], json.loads(payload[2:])

    def query(self, sparql: str, *, timeout: float | None, max_rows: int | None, max_bytes: int) -> dict:
        deadline = None if timeout is None else time.monotonic() + timeout
        status, doc = self._exchange({"q": sparql, "max_rows": max_rows, "max_bytes": max_bytes}, deadline)
        if status == b"OK":
            return doc
        kind, message = doc.get("type"), doc.get("message", "")
        if kind == "syntax":
            raise SPARQLSyntaxError(f"malformed SPARQL: {message}")
        if kind == "too_large":
            raise ResultTooLarge(message)
        if kind == "store":
            raise StoreError(f"query failed in the store at {self.store_path}: {message}")
        raise KGError(f"the query failed: {message}")

    def kill(self) -> None:
        """SIGKILL and reap: afterwards the process and its threads are gone."""
        if self.proc.poll() is None:
            try:
                os.kill(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                stream.close()
            except OSError:
                pass


class WorkerPool:
    """Up to ``size`` workers over ``store_path``, started on demand (or all at once with
    :meth:`warm`); a killed worker is replaced in the background when ``keep_warm``."""

    def __init__(self, store_path, *, size: int = 1, prefixes: dict | None = None,
                 isolate_network: bool = True, keep_warm: bool = False) -> None:
        if size < 1:
            raise ValueError("a worker pool needs at least one worker")
        self.store_path = Path(store_path)
        self.size = size
        self.prefixes = dict(prefixes or {})
        self.isolate_network = isolate_network
        self.keep_warm = keep_warm
        self._idle: list[Worker] = []
        self._count = 0            # workers alive or being started
        self._generation = 0       # bumped by restart(): older workers are not reused
        self._closed = False
        self._cond = threading.Condition()
        self.kills = 0             # queries stopped at their deadline (for /health and tests)

    # -- the workers ---------------------------------------------------------------------------
    def _start(self, timeout: float = START_TIMEOUT) -> Worker:
        return Worker(self.store_path, prefixes=self.prefixes, isolate_network=self.isolate_network,
                      timeout=timeout)

    def warm(self) -> None:
        """Start every worker now (a server does, so the first requests do not wait)."""
        with self._cond:
            missing = self.size - self._count
            self._count += missing
            generation = self._generation
        for _ in range(missing):
            self._add(generation)

    def _add(self, generation: int) -> None:
        try:
            worker = self._start()
        except (KGError, OSError):
            with self._cond:
                self._count -= 1
                self._cond.notify()
            return
        self._release(worker, generation)

    def _acquire(self, deadline: float | None) -> tuple[Worker, int]:
        with self._cond:
            while True:
                if self._closed:
                    raise StoreError(f"the store at {self.store_path} is closed")
                if self._idle:
                    return self._idle.pop(), self._generation
                if self._count < self.size:
                    self._count += 1
                    generation = self._generation
                    break
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    raise QueryTimeout(f"all {self.size} query workers stayed busy until the deadline")
                self._cond.wait(left)
        try:
            left = START_TIMEOUT if deadline is None else max(0.05, deadline - time.monotonic())
            return self._start(min(START_TIMEOUT, left)), generation
        except BaseException:
            with self._cond:
                self._count -= 1
                self._cond.notify()
            raise

    def _release(self, worker: Worker, generation: int) -> None:
        with self._cond:
            if self._closed or generation != self._generation:
                self._count -= 1
                self._cond.notify()
                stale = True
            else:
                self._idle.append(worker)
                self._cond.notify()
                stale = False
        if stale:
            worker.kill()

    def _discard(self, worker: Worker) -> None:
        worker.kill()
        with self._cond:
            self._count -= 1
            self.kills += 1
            replace = self.keep_warm and not self._closed
            if replace:
                self._count += 1
            generation = self._generation
            self._cond.notify()
        if replace:
            threading.Thread(target=self._add, args=(generation,), daemon=True).start()

    # -- queries -------------------------------------------------------------------------------
    def query(self, sparql: str, *, timeout: float | None, max_rows: int | None,
              max_bytes: int = 50_000_000) -> dict:
        """The worker's reply for ``sparql``; QueryTimeout after ``timeout`` seconds (waiting for
        a free worker included), the worker then killed."""
        started = time.monotonic()
        deadline = None if timeout is None else started + timeout
        worker, generation = self._acquire(deadline)
        left = None if deadline is None else deadline - time.monotonic()
        if left is not None and left <= 0.005:  # no time to run it: the worker stays as it is
            self._release(worker, generation)
            raise QueryTimeout(f"the query could not start before its {timeout:.3g} s deadline "
                               f"(all {self.size} query workers were busy)")
        try:
            reply = worker.query(sparql, timeout=left, max_rows=max_rows, max_bytes=max_bytes)
        except QueryTimeout:
            self._discard(worker)
            raise QueryTimeout(f"the query was stopped at its {timeout:.3g} s deadline "
                               f"(add a LIMIT or narrow it down)") from None
        except _WorkerDied as err:
            self._discard(worker)
            raise StoreError(f"{err}; the query was not answered") from None
        except BaseException:  # Ctrl-C, or anything else: the query must not keep running
            self._discard(worker)
            raise
        self._release(worker, generation)
        return reply

    # -- life cycle ----------------------------------------------------------------------------
    def restart(self) -> None:
        """Workers opened before now are retired (they do not see later writes to the store)."""
        self._retire(closing=False)

    def close(self) -> None:
        self._retire(closing=True)

    def _retire(self, *, closing: bool) -> None:
        """Kill the idle workers now; busy ones are killed when they come back."""
        with self._cond:
            self._generation += 1
            self._closed = self._closed or closing
            stale, self._idle = self._idle, []
            self._count -= len(stale)
            self._cond.notify_all()
        for worker in stale:
            worker.kill()

    def status(self) -> dict:
        with self._cond:
            return {"workers": self.size, "started": self._count, "idle": len(self._idle),
                    "stopped_at_deadline": self.kills}
