"""The interface every knowledge-graph backend implements."""
from __future__ import annotations

from abc import ABC, abstractmethod

from cnl.errors import FederationRefused, QueryRejected
from cnl.kg.results import ResultTable
from cnl.sparql.namespaces import P, PQ, PS, WD, WDT
from cnl.sparql.syntax import LANGUAGE_TAG, NOT_IRI_CHAR
from cnl.kg.sparql import ASK, SELECT, UPDATE, ParsedSPARQL, parse_sparql

RDFS_LABEL = "http://www.w3.org/2000/01/rdf-schema#label"
# how each Wikidata namespace of property IRIs is read after the property's label
_PROPERTY_NAMESPACES = ((WDT, ""), (PS, " (statement value)"), (PQ, " (qualifier)"), (P, " (statement)"))


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
            raise QueryRejected("refused a SPARQL Update: the knowledge graph is open read-only", update=True)
        if expected and parsed.form != expected:
            raise QueryRejected(f"expected a {expected} query, got {parsed.form}")
        return parsed

    def _as_run_here(self, sparql: str) -> str:
        """The query as this backend runs it (a backend without a service the query names may
        write out what the service does)."""
        return sparql

    def select(self, sparql: str) -> ResultTable:
        sparql = self._as_run_here(sparql)
        return self._select(sparql, self._parse(sparql, SELECT))

    def ask(self, sparql: str) -> bool:
        sparql = self._as_run_here(sparql)
        return self._ask(sparql, self._parse(sparql, ASK))

    def update(self, sparql: str) -> None:
        self._update(sparql, self._parse(sparql, UPDATE))

    def query(self, sparql: str) -> ResultTable | bool | None:
        """Run any supported form: SELECT → table, ASK → bool, update (if allowed) → None."""
        sparql = self._as_run_here(sparql)
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
        """Fill ``table.labels`` for the IRIs it contains (one extra query, or one per ``label_batch`` IRIs);
        Wikidata's property IRIs (``wdt:P57``, ``p:``, ``ps:``, ``pq:``) by their property's label."""
        if table.rows:
            iris = table.iris()
            table.labels.update(self.labels(iris))
            table.labels.update(self.property_labels(iri for iri in iris if iri not in table.labels))
        return table

    def property_labels(self, iris) -> dict[str, str]:
        """Labels of Wikidata's property IRIs (a predicate of a namespace, named by its property:
        ``wdt:P57`` "director", ``pq:P580`` "start time (qualifier)"), from this KG's labels of
        the properties, else from Wikidata's names shipped with the package."""
        found = {}
        for iri in iris:
            for namespace, suffix in _PROPERTY_NAMESPACES:
                pid = iri[len(namespace):] if iri.startswith(namespace) else ""
                if pid[:1] == "P" and pid[1:].isdigit():
                    found[iri] = (pid, suffix)
                    break
        if not found:
            return {}
        names = {iri[len(WD):]: label for iri, label in self.labels(WD + pid for pid, _ in found.values()).items()}
        missing = {pid for pid, _ in found.values()} - set(names)
        if missing:
            from cnl.sparql.wikidata_properties import wikidata_properties

            names.update((p.id, p.label) for p in wikidata_properties() if p.id in missing and p.label)
        return {iri: names[pid] + suffix for iri, (pid, suffix) in found.items() if pid in names}
