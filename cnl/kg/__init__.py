"""Knowledge-graph access: one interface, an embedded (pyoxigraph) and a remote (HTTP) backend.

This layer only runs SPARQL; of the stages before it, it uses only the namespace table.
"""
from __future__ import annotations

from cnl.kg.base import KnowledgeGraph
from cnl.kg.limits import query_limits
from cnl.kg.results import ResultTable, Term, compact_iri
from cnl.kg.sparql import parse_sparql


def open_kg(*, store=None, endpoint=None, timeout: float | None = 30.0, allow_updates: bool = False,
            read_only: bool = True, max_rows: int | None = 10_000, allow_service=(),
            workers: int = 1, **store_options) -> KnowledgeGraph:
    """The embedded store at ``store`` or the endpoint at ``endpoint`` (exactly one).

    ``timeout``: seconds per query, on both (an embedded query runs in a worker process that is
    killed at the deadline); ``max_rows``: rows kept (the table says when it was cut);
    ``allow_service``: SERVICE/LOAD targets allowed (none by default); ``workers``: queries
    that may run at once on a store; ``store_options``: the rest of
    :class:`~cnl.kg.embedded.EmbeddedKG`'s (``memory_limit``, ``fast_workers``, ``fast_lane_s``,
    ``max_bytes``), for a store only."""
    if (store is None) == (endpoint is None):
        raise ValueError("give exactly one of store= or endpoint=")
    if store is not None:
        from cnl.kg.embedded import EmbeddedKG

        return EmbeddedKG(store, read_only=read_only and not allow_updates, allow_updates=allow_updates,
                          max_rows=max_rows, timeout=timeout, allow_service=allow_service, workers=workers,
                          **store_options)
    from cnl.kg.remote import RemoteKG

    remote_options = {k: v for k, v in store_options.items() if k == "max_bytes"}
    return RemoteKG(endpoint, timeout=timeout, allow_updates=allow_updates, max_rows=max_rows,
                    allow_service=allow_service, **remote_options)


__all__ = ["KnowledgeGraph", "ResultTable", "Term", "compact_iri",
           "parse_sparql", "open_kg", "query_limits"]
