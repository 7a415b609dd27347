"""The interface every knowledge-graph backend implements."""
from __future__ import annotations

from abc import ABC, abstractmethod

from cnl.errors import FederationRefused, QueryRejected
from cnl.kg.results import ResultTable
from cnl.sparql.syntax import LANGUAGE_TAG, NOT_IRI_CHAR
from cnl.kg.sparql import ASK, SELECT, UPDATE, ParsedSPARQL, parse_sparql

RDFS_LABEL = "http://www.w3.org/2000/01/rdf-schema#label"


class KnowledgeGraph(ABC):
    """A SPARQL-queryable graph. Read-only unless constructed with ``allow_updates=True``."""

    allow_updates: bool = False
    max_rows: int | None = None
    # SERVICE/LOAD targets (exact IRIs) an operator allows; every other federated or remote
    # operation is refused before the query runs.
    allow_service: frozenset[str] = frozenset()
    # IRIs per label lookup; remote backends lower it to keep request URLs short.
    label_batch: int = 10_000

    @abstractmethod
    def _select(self, sparql: str, parsed: ParsedSPARQL) -> ResultTable: ...

    @abstractmethod
    def _ask(self, sparql: str, parsed: ParsedSPARQL) -> bool: ...

    @abstractmethod
    def _update(self, sparql: str, parsed: ParsedSPARQL) -> None: ...

    def close(self) -> None:
        """Release the store or connection; the object must not be used afterwards."""

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _parse(self, sparql: str, expected: str | None) -> ParsedSPARQL:
        parsed = parse_sparql(sparql)
        for construct, target in parsed.remote:
            if target is None or target not in self.allow_service:
                raise FederationRefused(construct, target, allowed=len(self.allow_service))
        if parsed.is_update and not self.allow_updates:
            raise QueryRejected(
                "refused a SPARQL Update: the connection is read-only "
                "(pass --allow-updates, or allow_updates=True in Python)"
            )
        if expected and parsed.form != expected:
            raise QueryRejected(f"expected a {expected} query, got {parsed.form}")
        return parsed

    def select(self, sparql: str) -> ResultTable:
        return self._select(sparql, self._parse(sparql, SELECT))

    def ask(self, sparql: str) -> bool:
        return self._ask(sparql, self._parse(sparql, ASK))

    def update(self, sparql: str) -> None:
        self._update(sparql, self._parse(sparql, UPDATE))

    def query(self, sparql: str) -> ResultTable | bool | None:
        """Run any supported form: SELECT → table, ASK → bool, update (if allowed) → None."""
        parsed = self._parse(sparql, None)
        if parsed.form == SELECT:
            return self._select(sparql, parsed)
        if parsed.form == ASK:
            return self._ask(sparql, parsed)
        if parsed.form == UPDATE:
            return self._update(sparql, parsed)
        raise QueryRejected(f"{parsed.form} queries are not supported; use SELECT or ASK")

    def labels(self, iris, lang: str = "en") -> dict[str, str]:
        """English ``rdfs:label`` of each IRI that has one, in as few queries as batching allows."""
        if not LANGUAGE_TAG.fullmatch(lang):
            raise QueryRejected(f"not a BCP 47 language tag: {lang!r}")
        iris = sorted(i for i in set(iris) if not NOT_IRI_CHAR.search(i))  # IRIs an endpoint sent us
        found: dict[str, str] = {}
        for start in range(0, len(iris), self.label_batch):
            values = " ".join(f"<{i}>" for i in iris[start:start + self.label_batch])
            table = self.select(
                f"SELECT ?item ?label WHERE {{ VALUES ?item {{ {values} }} "
                f"?item <{RDFS_LABEL}> ?label FILTER(LANGMATCHES(LANG(?label), \"{lang}\")) }}"
            )
            for item, label in table.rows:
                found.setdefault(item.value, label.value)
        return found

    def add_labels(self, table: ResultTable) -> ResultTable:
        """Fill ``table.labels`` for the IRIs it contains (one extra query, or one per ``label_batch`` IRIs)."""
        if table.rows:
            table.labels.update(self.labels(table.iris()))
        return table
