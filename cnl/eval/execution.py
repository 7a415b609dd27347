"""Running queries for the execution metrics, with a real timeout.

pyoxigraph cannot cancel a query; the embedded store runs each one in a worker process that is
killed at the deadline (:mod:`cnl.kg.executor`). A query that failed or timed out has no answer
(``None``).
"""
from __future__ import annotations

from pathlib import Path


class QueryRunner:
    """Answers of SPARQL queries on an embedded store, each bounded by ``timeout`` seconds."""

    def __init__(self, store_dir: str | Path, timeout: float = 20.0) -> None:
        from cnl.errors import StoreError
        from cnl.kg.embedded import EmbeddedKG

        if not Path(store_dir).is_dir():
            raise StoreError(f"no store at {store_dir}: create it with `cnl2sparql kg load FILE --store {store_dir}`")
        self.store_dir, self.timeout = str(store_dir), timeout
        self.kg = EmbeddedKG(store_dir, read_only=True, timeout=timeout, max_rows=10_000)
        self.timeouts = 0

    def run(self, sparql: str | None):
        """(answer, error): answer is a list of row tuples, a bool, or None on failure."""
        from cnl.errors import CNLError, QueryTimeout

        if sparql is None:
            return None, "no query"
        try:
            result = self.kg.query(sparql)
        except QueryTimeout:
            self.timeouts += 1
            return None, f"timeout after {self.timeout:g} s"
        except CNLError as err:
            return None, f"{type(err).__name__}: {err}"[:300]
        return (result, None) if isinstance(result, bool) else (result.values(), None)

    def close(self) -> None:
        self.kg.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()
