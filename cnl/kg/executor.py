"""Queries that can be stopped: a small pool of worker processes over one on-disk store.

pyoxigraph has no timeout and no cancellation, and a running query ignores SIGINT; the only way
to stop one is to end the process running it. Each query therefore runs in a worker process
(:mod:`cnl.kg.worker`, the store opened read-only) and the caller waits for the answer with
``select()`` up to the deadline; past it the worker is killed (SIGKILL, then reaped: it uses no
CPU afterwards) and a fresh one takes its place. Ctrl-C in the caller kills the worker too, and
so does the caller's :class:`~cnl.kg.limits.Cancellation` (a server request that has ended).

Each worker's data segment is capped (``memory_limit``): a query that needs more is stopped by
the kernel, reported as :class:`~cnl.errors.QueryMemoryExceeded` with the worker's peak resident
size, and the worker replaced.

**Lanes.** Without a fast lane (``fast_workers=0``, the CLI), ``size`` workers take queries in
turn; callers wait for a free one up to their own deadline. With a fast lane (a server), every
query starts in one of ``fast_workers`` workers; one still running after ``fast_lane_s`` seconds
is *promoted*: its worker leaves the fast lane (a fresh worker replaces it there), is reniced so
that short work keeps the CPU, and finishes in one of ``size`` slots for long queries. When
those are all taken the query is stopped instead (QueryCapacityExceeded: try again later). So
short queries never wait behind long ones, and the number of long queries, and the CPU and
memory they take, stays bounded — a cost estimate by observation rather than by guess.
"""
from __future__ import annotations

import json
import os
import select
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from cnl.errors import (KGError, QueryCancelled, QueryCapacityExceeded, QueryMemoryExceeded, QueryTimeout,
                        ResultTooLarge, SPARQLSyntaxError, StoreError)
from cnl.kg.limits import current_cancellation

WORKER_SCRIPT = Path(__file__).with_name("worker.py")
START_TIMEOUT = 60.0  # opening a big store read-only takes well under a second; this is a backstop
LONG_LANE_NICENESS = 10  # promoted (long) queries yield the CPU to the fast lane
MIB = 1 << 20


class _WorkerDied(Exception):
    pass


class _Waited(Exception):
    """The time given to one wait for a reply ran out (the query may still be running)."""


class Worker:
    """One worker process. :meth:`send` a query, then :meth:`receive` its reply (possibly in
    several waits: a partial reply is kept between them)."""

    def __init__(self, store_path: Path, *, prefixes: dict, isolate_network: bool,
                 memory_limit: int | None = None, timeout: float = START_TIMEOUT) -> None:
        self.store_path = store_path
        self.memory_limit = memory_limit
        self.peak_rss: int | None = None   # bytes, known once the process has been reaped
        self._stderr = tempfile.TemporaryFile()  # what the process says when it aborts
        self.proc = subprocess.Popen(
            [sys.executable, str(WORKER_SCRIPT), str(store_path)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr,
            bufsize=0, start_new_session=True)  # a terminal's Ctrl-C reaches the parent only
        self.rfd = self.proc.stdout.fileno()
        self._buffer = bytearray()
        self.network_isolated = False
        try:
            self.send({"prefixes": prefixes, "isolate_network": isolate_network, "memory_limit": memory_limit})
            status, doc = self.receive(time.monotonic() + timeout)
        except (_Waited, _WorkerDied) as err:
            self.kill()
            why = f"did not start within {timeout:.3g} s" if isinstance(err, _Waited) else \
                f"exited at start (status {self.proc.returncode}: {self.death_note()[-200:].strip()})"
            raise StoreError(f"the query worker for the store at {store_path} {why}") from None
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

    def send(self, request: dict) -> None:
        data = json.dumps(request, ensure_ascii=False).encode("utf-8", "surrogatepass")
        try:
            self.proc.stdin.write(struct.pack(">I", len(data)) + data)
        except (BrokenPipeError, OSError) as err:
            raise _WorkerDied(f"the query worker is gone ({err})") from None

    def receive(self, until: float | None, cancel=None) -> tuple[bytes, dict]:
        """The next reply frame; _Waited when ``until`` (time.monotonic) passes first,
        QueryCancelled when ``cancel`` is cancelled first."""
        while True:
            if len(self._buffer) >= 4:
                (size,) = struct.unpack(">I", self._buffer[:4])
                if len(self._buffer) >= 4 + size:
                    payload = bytes(self._buffer[4:4 + size])
                    del self._buffer[:4 + size]
                    return payload[:2], json.loads(payload[2:])
            left = None if until is None else until - time.monotonic()
            if left is not None and left <= 0:
                raise _Waited()
            watched = [self.rfd] if cancel is None else [self.rfd, cancel.fileno()]
            ready, _, _ = select.select(watched, [], [], left)
            if cancel is not None and cancel.is_set():
                raise QueryCancelled(f"the query was stopped: {cancel.reason}")
            if self.rfd in ready:
                chunk = os.read(self.rfd, 1 << 16)
                if not chunk:
                    raise _WorkerDied("the query worker exited")
                self._buffer += chunk

    def renice(self, niceness: int) -> None:
        """Lower the priority of every thread of the process (nice is per thread on Linux)."""
        try:
            threads = [int(t) for t in os.listdir(f"/proc/{self.pid}/task")]
        except OSError:
            threads = [self.pid]
        for tid in threads:
            try:
                os.setpriority(os.PRIO_PROCESS, tid, niceness)
            except OSError:
                pass  # the thread ended, or the platform refuses: a priority is a courtesy

    def kill(self) -> None:
        """SIGKILL and reap: afterwards the process and its threads are gone; ``peak_rss`` says
        how much memory it used at most."""
        if self.proc.returncode is None:
            try:
                os.kill(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            try:
                _, status, usage = os.wait4(self.proc.pid, 0)
                self.proc.returncode = os.waitstatus_to_exitcode(status)
                self.peak_rss = usage.ru_maxrss * 1024
            except ChildProcessError:  # reaped elsewhere
                self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                stream.close()
            except OSError:
                pass

    def death_note(self) -> str:
        """The end of what the process wrote to stderr (read after :meth:`kill`)."""
        try:
            self._stderr.seek(0, os.SEEK_END)
            size = self._stderr.tell()
            self._stderr.seek(max(0, size - 2000))
            return self._stderr.read().decode("utf-8", "replace")
        except (OSError, ValueError):
            return ""
        finally:
            self._stderr.close()

    def ran_out_of_memory(self) -> bool:
        """Whether the process (killed and reaped) died of its memory limit."""
        if not self.memory_limit:
            return False
        note = self.death_note()
        return (self.proc.returncode == -signal.SIGABRT
                or any(sign in note for sign in ("memory allocation", "MemoryError", "bad_alloc")))


class WorkerPool:
    """Worker processes over ``store_path``, started on demand (or all at once with
    :meth:`warm`); a killed worker is replaced in the background when ``keep_warm``.

    ``size``: queries that may run at once (without a fast lane), or long queries that may run
    at once (with one); ``fast_workers``/``fast_lane_s``: the fast lane (see the module's
    docstring); ``memory_limit``: bytes of data each worker may use."""

    def __init__(self, store_path, *, size: int = 1, prefixes: dict | None = None,
                 isolate_network: bool = True, keep_warm: bool = False, memory_limit: int | None = None,
                 fast_workers: int = 0, fast_lane_s: float = 0.5) -> None:
        if size < 1:
            raise ValueError("a worker pool needs at least one worker")
        self.store_path = Path(store_path)
        self.size = size
        self.fast_workers = fast_workers
        self.fast_lane_s = fast_lane_s
        self.memory_limit = memory_limit
        self.prefixes = dict(prefixes or {})
        self.isolate_network = isolate_network
        self.keep_warm = keep_warm
        self._idle: list[Worker] = []
        self._count = 0            # workers of the entry lane alive or being started
        self._long = 0             # promoted queries running now (fast lane only)
        self._generation = 0       # bumped by restart(): older workers are not reused
        self._closed = False
        self._cond = threading.Condition()
        # for /health and tests
        self.kills = 0             # queries stopped at their deadline (or cancelled)
        self.memory_kills = 0      # queries stopped at the memory limit
        self.promoted = 0          # queries that outgrew the fast lane
        self.refused = 0           # ... while every long slot was taken
        self.last_memory_kill: dict | None = None

    @property
    def entry_size(self) -> int:
        """Workers that take new queries: the fast lane's, or all of them without one."""
        return self.fast_workers or self.size

    # -- the workers ---------------------------------------------------------------------------
    def _start(self, timeout: float = START_TIMEOUT) -> Worker:
        return Worker(self.store_path, prefixes=self.prefixes, isolate_network=self.isolate_network,
                      memory_limit=self.memory_limit, timeout=timeout)

    def warm(self) -> None:
        """Start every worker of the entry lane now (a server does, so the first requests do
        not wait)."""
        with self._cond:
            missing = self.entry_size - self._count
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

    def _replace_later(self) -> None:
        """Account for a worker that left the entry lane; start its successor in the background."""
        with self._cond:
            self._count -= 1
            replace = self.keep_warm and not self._closed
            if replace:
                self._count += 1
            generation = self._generation
            self._cond.notify()
        if replace:
            threading.Thread(target=self._add, args=(generation,), daemon=True).start()

    def _acquire(self, deadline: float | None, cancel) -> tuple[Worker, int]:
        with self._cond:
            while True:
                if self._closed:
                    raise StoreError(f"the store at {self.store_path} is closed")
                if cancel is not None and cancel.is_set():
                    raise QueryCancelled(f"the query was not started: {cancel.reason}")
                if self._idle:
                    return self._idle.pop(), self._generation
                if self._count < self.entry_size:
                    self._count += 1
                    generation = self._generation
                    break
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    raise QueryTimeout(f"all {self.entry_size} query workers stayed busy until the deadline")
                # wake now and then to notice a cancellation
                self._cond.wait(0.25 if left is None else min(left, 0.25))
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
        self._replace_later()

    # -- queries -------------------------------------------------------------------------------
    def query(self, sparql: str, *, timeout: float | None, max_rows: int | None,
              max_bytes: int = 50_000_000) -> dict:
        """The worker's reply for ``sparql``; QueryTimeout after ``timeout`` seconds (waiting for
        a free worker included), the worker then killed. The caller's cancellation (see
        :func:`cnl.kg.limits.query_limits`) stops it at once."""
        cancel = current_cancellation()
        started = time.monotonic()
        deadline = None if timeout is None else started + timeout
        worker, generation = self._acquire(deadline, cancel)
        left = None if deadline is None else deadline - time.monotonic()
        if left is not None and left <= 0.005:  # no time to run it: the worker stays as it is
            self._release(worker, generation)
            raise QueryTimeout(f"the query could not start before its {timeout:.3g} s deadline "
                               f"(all {self.entry_size} query workers were busy)")
        promoted = False
        try:
            worker.send({"q": sparql, "max_rows": max_rows, "max_bytes": max_bytes})
            if self.fast_workers:
                budget = time.monotonic() + self.fast_lane_s
                try:
                    status, doc = worker.receive(budget if deadline is None else min(budget, deadline), cancel)
                except _Waited:
                    if deadline is not None and time.monotonic() >= deadline:
                        raise
                    self._promote(worker)  # raises QueryCapacityExceeded when no long slot is free
                    promoted = True
                    status, doc = worker.receive(deadline, cancel)
            else:
                status, doc = worker.receive(deadline, cancel)
        except _Waited:
            self._stopped(worker, promoted)
            raise QueryTimeout(f"the query was stopped at its {timeout:.3g} s deadline "
                               f"(add a LIMIT or narrow it down)") from None
        except _WorkerDied:
            self._stopped(worker, promoted, counted=False)
            raise self._death_error(worker) from None
        except QueryCapacityExceeded:
            raise
        except BaseException:  # Ctrl-C, a cancellation, anything else: the query must not keep running
            self._stopped(worker, promoted)
            raise
        if promoted or (status == b"ER" and doc.get("type") == "memory"):
            self._stopped(worker, promoted, counted=False)  # reniced or bloated: not reused
        else:
            self._release(worker, generation)
        return self._decode(worker, status, doc)

    def _promote(self, worker: Worker) -> None:
        with self._cond:
            slot = self._long < self.size and not self._closed
            if slot:
                self._long += 1
                self.promoted += 1
            else:
                self.refused += 1
        if not slot:
            self._stopped(worker, False)
            raise QueryCapacityExceeded(
                f"the query ran past the {self.fast_lane_s:g} s fast lane while all {self.size} slots for long "
                f"queries were taken; try again shortly")
        worker.renice(LONG_LANE_NICENESS)
        self._replace_later()  # the fast lane gets a fresh worker while this one finishes the query

    def _stopped(self, worker: Worker, promoted: bool, *, counted: bool = True) -> None:
        """End a worker whose query was stopped (or that must not be reused)."""
        worker.kill()
        if promoted:
            with self._cond:
                self._long -= 1
                self._cond.notify()
        else:
            self._replace_later()
        if counted:
            with self._cond:
                self.kills += 1

    def _death_error(self, worker: Worker) -> KGError:
        if worker.ran_out_of_memory():
            return self._memory_error(worker)
        return StoreError(f"the query worker exited (status {worker.proc.returncode}); the query was not answered")

    def _memory_error(self, worker: Worker) -> QueryMemoryExceeded:
        peak = worker.peak_rss
        with self._cond:
            self.memory_kills += 1
            self.last_memory_kill = {"limit_bytes": self.memory_limit, "peak_rss_bytes": peak}
        shown = f"; its peak resident size was {peak / MIB:.0f} MiB" if peak else ""
        return QueryMemoryExceeded(
            f"the query needed more than the {self.memory_limit / MIB:.0f} MiB of memory a query worker may use "
            f"(it was stopped{shown}); narrow it down, or add a LIMIT without ORDER BY")

    def _decode(self, worker: Worker, status: bytes, doc: dict) -> dict:
        if status == b"OK":
            return doc
        kind, message = doc.get("type"), doc.get("message", "")
        if kind == "memory":
            raise self._memory_error(worker)
        if kind == "syntax":
            raise SPARQLSyntaxError(f"malformed SPARQL: {message}")
        if kind == "too_large":
            raise ResultTooLarge(message)
        if kind == "store":
            raise StoreError(f"query failed in the store at {self.store_path}: {message}")
        raise KGError(f"the query failed: {message}")

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
            doc = {"workers": self.entry_size, "started": self._count, "idle": len(self._idle),
                   "stopped_at_deadline": self.kills, "stopped_at_memory_limit": self.memory_kills}
            if self.memory_limit:
                doc["memory_limit_bytes"] = self.memory_limit
            if self.last_memory_kill:
                doc["last_memory_stop"] = dict(self.last_memory_kill)
            if self.fast_workers:
                doc |= {"fast_lane_s": self.fast_lane_s, "long_slots": self.size, "long_running": self._long,
                        "promoted": self.promoted, "refused_for_capacity": self.refused}
            return doc
