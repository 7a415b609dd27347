"""Running queries for the execution metrics, with a real timeout.

pyoxigraph cannot cancel a query, so queries run in a child process that is killed and
restarted when one runs past the timeout; a query that failed or timed out has no answer
(``None``).
"""
from __future__ import annotations

import multiprocessing as mp
from pathlib import Path


def _worker(store_dir: str, inbox, outbox) -> None:
    from cnl.kg import open_kg

    kg = open_kg(store=store_dir, max_rows=None)
    while True:
        sparql = inbox.get()
        if sparql is None:
            return
        try:
            result = kg.query(sparql)
            if isinstance(result, bool):
                outbox.put(("ok", result))
            else:
                outbox.put(("ok", [tuple(v for v in row) for row in result.values()][:10_000]))
        except Exception as err:  # noqa: BLE001 — any failure means "no answer"
            outbox.put(("error", f"{type(err).__name__}: {err}"[:300]))


class QueryRunner:
    """Answers of SPARQL queries on an embedded store, each bounded by ``timeout`` seconds."""

    def __init__(self, store_dir: str | Path, timeout: float = 20.0) -> None:
        from cnl.errors import StoreError

        if not Path(store_dir).is_dir():
            raise StoreError(f"no store at {store_dir}: create it with `cnl2sparql kg load FILE --store {store_dir}`")
        self.store_dir, self.timeout = str(store_dir), timeout
        self._ctx = mp.get_context("spawn")
        self._proc = None
        self.timeouts = 0

    def _start(self) -> None:
        self._inbox, self._outbox = self._ctx.Queue(), self._ctx.Queue()
        self._proc = self._ctx.Process(target=_worker, args=(self.store_dir, self._inbox, self._outbox),
                                       daemon=True)
        self._proc.start()

    def run(self, sparql: str | None):
        """(answer, error): answer is a list of row tuples, a bool, or None on failure."""
        import queue

        if sparql is None:
            return None, "no query"
        if self._proc is None or not self._proc.is_alive():
            self._start()
        self._inbox.put(sparql)
        try:
            status, value = self._outbox.get(timeout=self.timeout)
        except queue.Empty:
            self.timeouts += 1
            self._proc.kill()
            self._proc.join()
            self._proc = None
            return None, f"timeout after {self.timeout:g} s"
        return (value, None) if status == "ok" else (None, value)

    def close(self) -> None:
        if self._proc is not None and self._proc.is_alive():
            self._inbox.put(None)
            self._proc.join(timeout=5)
            if self._proc.is_alive():
                self._proc.kill()
        self._proc = None

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()
