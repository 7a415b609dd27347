"""The embedded backend: a pyoxigraph store persisted in a folder on disk."""
from __future__ import annotations

import gzip
import os
from pathlib import Path

from cnl.errors import SPARQLSyntaxError, StoreError
from cnl.kg.base import KnowledgeGraph
from cnl.kg.results import BNODE, IRI, LITERAL, ResultTable, Term
from cnl.kg.sparql import ParsedSPARQL
from cnl.sparql.namespaces import PREFIXES

_FORMATS = {".nt": "N_TRIPLES", ".ttl": "TURTLE", ".nq": "N_QUADS", ".trig": "TRIG",
            ".rdf": "RDF_XML", ".owl": "RDF_XML", ".xml": "RDF_XML", ".n3": "N3", ".jsonld": "JSON_LD"}


def rdf_format(path: Path):
    """The pyoxigraph format for a file name, looking through a trailing .gz."""
    import pyoxigraph

    suffixes = [s.lower() for s in path.suffixes]
    if suffixes and suffixes[-1] == ".gz":
        suffixes = suffixes[:-1]
    name = _FORMATS.get(suffixes[-1] if suffixes else "")
    if name is None:
        raise StoreError(f"cannot tell the RDF format of {path.name}: use one of "
                         + ", ".join(sorted(_FORMATS)) + " (optionally .gz)")
    return getattr(pyoxigraph.RdfFormat, name)


class _CountingReader:
    """A binary reader that reports the bytes read from the file on disk to a progress bar."""

    def __init__(self, raw, bar) -> None:
        self.raw, self.bar = raw, bar

    def read(self, size: int = -1) -> bytes:
        data = self.raw.read(size)
        self.bar.update(len(data))
        return data

    def readinto(self, buf) -> int:
        n = self.raw.readinto(buf)
        self.bar.update(n or 0)
        return n

    def readable(self) -> bool:
        return True

    def close(self) -> None:
        self.raw.close()


def _term(node) -> Term:
    import pyoxigraph

    if isinstance(node, pyoxigraph.NamedNode):
        return Term(IRI, node.value)
    if isinstance(node, pyoxigraph.BlankNode):
        return Term(BNODE, node.value)
    if isinstance(node, pyoxigraph.Literal):
        return Term(LITERAL, node.value, node.language, node.datatype.value if not node.language else None)
    return Term(LITERAL, str(node))  # RDF-star triple terms: shown as text


class EmbeddedKG(KnowledgeGraph):
    """A persistent on-disk pyoxigraph store.

    Queries run in-process; Wikidata's usual prefixes (wd:, wdt:, p:, ps:, pq:, rdfs:…) are
    predefined as on query.wikidata.org. There is no query timeout: pyoxigraph cannot cancel a
    running query, so ``timeout`` is accepted for interface parity and ignored.
    """

    def __init__(self, store_dir: str | os.PathLike, *, read_only: bool = False,
                 allow_updates: bool = False, max_rows: int | None = None) -> None:
        import pyoxigraph

        self.path = Path(store_dir)
        self.allow_updates = allow_updates
        self.max_rows = max_rows
        try:
            if read_only:
                if not self.path.is_dir():
                    raise StoreError(f"no store at {self.path}: create it with `cnl2sparql kg load FILE --store {self.path}`")
                self.store = pyoxigraph.Store.read_only(str(self.path))
            else:
                self.path.parent.mkdir(parents=True, exist_ok=True)  # `--store .cache/slice` on a fresh checkout
                self.store = pyoxigraph.Store(str(self.path))
        except OSError as err:
            raise StoreError(f"cannot open the store at {self.path}: {err}") from None

    def close(self) -> None:
        self.store = None

    def __len__(self) -> int:
        return len(self.store)

    def load(self, path: str | os.PathLike, *, progress: bool = True) -> int:
        """Bulk-load an RDF file (N-Triples, Turtle…, gzip too); returns the triples added."""
        from tqdm import tqdm

        path = Path(path)
        if not path.is_file():
            raise StoreError(f"RDF file not found: {path}")
        fmt = rdf_format(path)
        before = len(self.store)
        with open(path, "rb") as raw, tqdm(total=path.stat().st_size, unit="B", unit_scale=True,
                                           desc=f"loading {path.name}", disable=not progress) as bar:
            reader = _CountingReader(raw, bar)
            source = gzip.GzipFile(fileobj=reader) if path.suffix.lower() == ".gz" else reader
            try:
                self.store.bulk_load(source, fmt)
            except (SyntaxError, ValueError, OSError, EOFError) as err:
                raise StoreError(f"cannot load {path}: {err}") from None
        self.store.flush()
        return len(self.store) - before

    def _run(self, sparql: str):
        try:
            return self.store.query(sparql, prefixes=PREFIXES)
        except SyntaxError as err:
            raise SPARQLSyntaxError(f"malformed SPARQL: {err}") from None
        except OSError as err:
            raise StoreError(f"query failed in the store at {self.path}: {err}") from None

    def _select(self, sparql: str, parsed: ParsedSPARQL) -> ResultTable:
        solutions = self._run(sparql)
        columns = [v.value for v in solutions.variables]
        rows, truncated = [], False
        for solution in solutions:
            if self.max_rows is not None and len(rows) >= self.max_rows:
                truncated = True
                break
            rows.append(tuple(None if solution[c] is None else _term(solution[c]) for c in columns))
        return ResultTable(columns, rows, truncated=truncated)

    def _ask(self, sparql: str, parsed: ParsedSPARQL) -> bool:
        return bool(self._run(sparql))

    def _update(self, sparql: str, parsed: ParsedSPARQL) -> None:
        try:
            self.store.update(sparql, prefixes=PREFIXES)
        except SyntaxError as err:
            raise SPARQLSyntaxError(f"malformed SPARQL Update: {err}") from None
