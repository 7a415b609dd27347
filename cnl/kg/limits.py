"""Deadlines, row caps and cancellation that follow a piece of work through every query it makes.

A backend has its own defaults (``timeout``, ``max_rows``); a caller narrows them for a block
of work with :func:`query_limits` — a server request, a tool call, the validation of a model's
candidate queries — and every query inside that block (in this thread, or in a thread started
with a copy of its context, as Starlette's thread pool does) gets the tighter of the two::

    with query_limits(timeout=5, max_rows=1):
        kg.query(candidate)          # cut at 5 s from the ``with``, one row at most

Limits only ever tighten: a nested block cannot extend its caller's deadline.

Work that is not a query (a fuzzy search over an index, a decoding loop) calls
:func:`check_deadline` between small steps, so the same deadline stops it too. A
:class:`Cancellation` given to the block ends it early from another thread — a server uses one
per request and cancels it when the client goes away or the response has been sent: a query
waiting in a worker process is then killed at once, and the next ``check_deadline`` raises.
"""
from __future__ import annotations

import os
import threading
import time
from contextlib import contextmanager
from contextvars import ContextVar

from cnl.errors import QueryCancelled, QueryTimeout


class Cancellation:
    """A one-way switch another thread can flip; :meth:`fileno` becomes readable when it is
    flipped, so a thread blocked in ``select()`` on a query worker wakes at once."""

    def __init__(self) -> None:
        self._event = threading.Event()
        self._lock = threading.Lock()
        self._pipe: tuple[int, int] | None = None
        self.reason = "the request ended"

    def cancel(self, reason: str | None = None) -> None:
        with self._lock:
            if self._event.is_set():
                return
            if reason:
                self.reason = reason
            self._event.set()
            if self._pipe is not None:
                os.write(self._pipe[1], b"x")

    def is_set(self) -> bool:
        return self._event.is_set()

    def fileno(self) -> int:
        with self._lock:
            if self._pipe is None:
                self._pipe = os.pipe()
                if self._event.is_set():
                    os.write(self._pipe[1], b"x")
            return self._pipe[0]

    def close(self) -> None:
        """Close the pipe behind :meth:`fileno` (when no thread waits on it any more; a
        cancellation dropped by everyone closes it too)."""
        with self._lock:
            pipe, self._pipe = self._pipe, None
        for fd in pipe or ():
            os.close(fd)

    def __del__(self) -> None:
        pipe, self._pipe = getattr(self, "_pipe", None), None
        for fd in pipe or ():
            try:
                os.close(fd)
            except OSError:
                pass


# (absolute deadline on time.monotonic(), row cap, cancellation); None: no limit from the caller
_LIMITS: ContextVar[tuple[float | None, int | None, Cancellation | None]] = ContextVar(
    "cnl_kg_limits", default=(None, None, None))


@contextmanager
def query_limits(timeout: float | None = None, max_rows: int | None = None, cancel: Cancellation | None = None):
    """Every query inside the block ends within ``timeout`` seconds of entering it, returns at
    most ``max_rows`` rows, and stops as soon as ``cancel`` is cancelled (on top of the
    backend's own limits and any enclosing block's)."""
    deadline, rows, outer_cancel = _LIMITS.get()
    if timeout is not None:
        mine = time.monotonic() + timeout
        deadline = mine if deadline is None else min(deadline, mine)
    if max_rows is not None:
        rows = max_rows if rows is None else min(rows, max_rows)
    token = _LIMITS.set((deadline, rows, cancel or outer_cancel))
    try:
        yield
    finally:
        _LIMITS.reset(token)


def current_cancellation() -> Cancellation | None:
    """The cancellation of the enclosing :func:`query_limits` block, if any."""
    return _LIMITS.get()[2]


def check_deadline() -> None:
    """Raise QueryTimeout when the enclosing block's deadline has passed, QueryCancelled when it
    was cancelled; cheap enough to call every few milliseconds of work."""
    deadline, _, cancel = _LIMITS.get()
    if cancel is not None and cancel.is_set():
        raise QueryCancelled(f"stopped: {cancel.reason}")
    if deadline is not None and time.monotonic() >= deadline:
        raise QueryTimeout("the time allowed for this request ran out")


def time_left() -> float | None:
    """Seconds until the enclosing block's deadline (None: no deadline); check_deadline first."""
    check_deadline()
    deadline = _LIMITS.get()[0]
    return None if deadline is None else max(0.0, deadline - time.monotonic())


def effective_limits(timeout: float | None, max_rows: int | None) -> tuple[float | None, int | None]:
    """(seconds left, row cap) for a query about to start: a backend's own ``timeout`` and
    ``max_rows`` narrowed by the enclosing :func:`query_limits` blocks. Raises QueryTimeout when
    the caller's deadline has already passed (QueryCancelled when the block was cancelled)."""
    deadline, rows, cancel = _LIMITS.get()
    if cancel is not None and cancel.is_set():
        raise QueryCancelled(f"stopped: {cancel.reason}")
    if deadline is not None:
        left = deadline - time.monotonic()
        if left <= 0:
            raise QueryTimeout("the time allowed for this request ran out before the query could start")
        timeout = left if timeout is None else min(timeout, left)
    if rows is not None:
        max_rows = rows if max_rows is None else min(rows, max_rows)
    return timeout, max_rows
