"""Deadlines and row caps that follow a piece of work through every query it makes.

A backend has its own defaults (``timeout``, ``max_rows``); a caller narrows them for a block
of work with :func:`query_limits` — a server request, a tool call, the validation of a model's
candidate queries — and every query inside that block (in this thread, or in a thread started
with a copy of its context, as Starlette's thread pool does) gets the tighter of the two::

    with query_limits(timeout=5, max_rows=1):
        kg.query(candidate)          # cut at 5 s from the ``with``, one row at most

Limits only ever tighten: a nested block cannot extend its caller's deadline.
"""
from __future__ import annotations

import time
from contextlib import contextmanager
from contextvars import ContextVar

from cnl.errors import QueryTimeout

# (absolute deadline on time.monotonic(), row cap); None: no limit from the caller
_LIMITS: ContextVar[tuple[float | None, int | None]] = ContextVar("cnl_kg_limits", default=(None, None))


@contextmanager
def query_limits(timeout: float | None = None, max_rows: int | None = None):
    """Every query inside the block ends within ``timeout`` seconds of entering it and returns
    at most ``max_rows`` rows (on top of the backend's own limits and any enclosing block's)."""
    deadline, rows = _LIMITS.get()
    if timeout is not None:
        mine = time.monotonic() + timeout
        deadline = mine if deadline is None else min(deadline, mine)
    if max_rows is not None:
        rows = max_rows if rows is None else min(rows, max_rows)
    token = _LIMITS.set((deadline, rows))
    try:
        yield
    finally:
        _LIMITS.reset(token)


def effective_limits(timeout: float | None, max_rows: int | None) -> tuple[float | None, int | None]:
    """(seconds left, row cap) for a query about to start: a backend's own ``timeout`` and
    ``max_rows`` narrowed by the enclosing :func:`query_limits` blocks. Raises QueryTimeout when
    the caller's deadline has already passed."""
    deadline, rows = _LIMITS.get()
    if deadline is not None:
        left = deadline - time.monotonic()
        if left <= 0:
            raise QueryTimeout("the time allowed for this request ran out before the query could start")
        timeout = left if timeout is None else min(timeout, left)
    if rows is not None:
        max_rows = rows if max_rows is None else min(max_rows, rows)
    return timeout, max_rows
