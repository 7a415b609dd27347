"""The embedded backend: a pyoxigraph store persisted in a folder on disk."""
from __future__ import annotations

import gzip
import os
from pathlib import Path

from cnl.errors import KGError, SPARQLSyntaxError, StoreError
from cnl.kg.base import KnowledgeGraph
from cnl.kg.limits import effective_limits
from cnl.kg.results import BNODE, IRI, LITERAL, ResultTable, Term
from cnl.kg.sparql import ParsedSPARQL
from cnl.sparql.namespaces import PREFIXES
from cnl.sparql.label_service import emulate_label_service

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


MARKER = "cnl2sparql-load.json"  # written by `kg load`: what was loaded, and whether it finished
DEFAULT_QUERY_MEMORY = 1 << 30   # bytes of data a query worker may use (RLIMIT_DATA)


def _lock_store(path: Path, *, exclusive: bool) -> int:
    """A ``flock`` on the store folder itself (no file is written): readers hold it shared for
    as long as they have the store open, a load or an update takes it exclusively. Released by
    the kernel when the process ends, so it is never stale. Raises BlockingIOError when taken."""
    import fcntl

    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(fd, (fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH) | fcntl.LOCK_NB)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _holders(path: Path) -> list[int]:
    """The processes holding a flock on ``path`` (Linux's /proc/locks; empty elsewhere)."""
    try:
        inode = os.stat(path).st_ino
        lines = Path("/proc/locks").read_text().splitlines()
    except OSError:
        return []
    found = []
    for line in lines:
        fields = line.split()
        if "FLOCK" in fields and len(fields) >= 6 and fields[-3].rsplit(":", 1)[-1] == str(inode):
            pid = int(fields[-4]) if fields[-4].isdigit() else None
            if pid and pid != os.getpid() and pid not in found:
                found.append(pid)
    return sorted(found)


def _sha256(path: Path) -> str:
    import hashlib

    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _open_error(path: Path, err: OSError) -> StoreError:
    text = str(err)
    if "LOCK" in text:
        return StoreError(f"cannot open the store at {path} for writing: another process (a `kg load`, "
                          "or a program with the store open read-write) holds it; wait for it to finish")
    if "not a directory" in text.lower():
        return StoreError(f"{path} is a file, not a store folder")
    if "CURRENT" in text and ("No such file" in text or isinstance(err, FileNotFoundError)):
        return StoreError(f"{path} is not a store (no store files in it): create one with "
                          f"`cnl2sparql kg load FILE --store {path}`")
    return StoreError(f"cannot open the store at {path}: {text}")


class EmbeddedKG(KnowledgeGraph):
    """A persistent on-disk pyoxigraph store.

    Wikidata's usual prefixes (wd:, wdt:, p:, ps:, pq:, rdfs:…) are predefined as on
    query.wikidata.org. Queries run in worker processes (:mod:`cnl.kg.executor`) so that each
    one stops at ``timeout`` seconds (``QueryTimeout``) and returns at most ``max_rows`` rows
    (the table then says it was truncated) and ``max_bytes`` of values (``ResultTooLarge``);
    ``workers`` bounds how many run at once. ``isolate=False`` runs them in this process
    instead: faster for trusted bulk reads, but nothing can stop them.

    ``allow_service``: SERVICE/LOAD target IRIs an operator allows (none by default: every
    query that would fetch from elsewhere is refused before it runs).

    ``memory_limit``: bytes of data each query worker may use (1 GiB by default; None: no
    limit); ``fast_workers``/``fast_lane_s``: a fast lane for short queries (see
    :mod:`cnl.kg.executor`; a server uses one). A read-only store holds a shared lock on the
    store folder while open, so that `kg load` into it is refused instead of leaving this reader
    answering from the old data.
    """

    def __init__(self, store_dir: str | os.PathLike, *, read_only: bool = False,
                 allow_updates: bool = False, max_rows: int | None = None, timeout: float | None = 30.0,
                 max_bytes: int = 50_000_000, workers: int = 1, isolate: bool = True,
                 allow_service=(), memory_limit: int | None = DEFAULT_QUERY_MEMORY, fast_workers: int = 0,
                 fast_lane_s: float = 0.5) -> None:
        import pyoxigraph

        self.path = Path(store_dir)
        self.read_only = read_only
        self.allow_updates = allow_updates
        self.max_rows, self.timeout, self.max_bytes = max_rows, timeout, max_bytes
        self.allow_service = frozenset(allow_service)
        self.isolate = isolate
        self.memory_limit, self.fast_workers, self.fast_lane_s = memory_limit, fast_workers, fast_lane_s
        self._workers = workers
        self._pool = None
        self._lock_fd: int | None = None
        self.store = None
        if self.path.exists() and not self.path.is_dir():
            raise StoreError(f"{self.path} is a file, not a store folder")
        if read_only:
            if not self.path.is_dir():
                raise StoreError(f"no store at {self.path}: create it with `cnl2sparql kg load FILE --store {self.path}`")
            try:
                self._lock_fd = _lock_store(self.path, exclusive=False)
            except BlockingIOError:
                holders = ", ".join(map(str, _holders(self.path))) or "another process"
                raise StoreError(f"the store at {self.path} is being written by process {holders} "
                                 f"(a `kg load`); wait for it to finish") from None
            except OSError:
                pass  # a folder that cannot be opened for locking: the store open below says why
            try:
                self.check_complete()
            except BaseException:
                self._unlock()
                raise
        try:
            if read_only:
                self.store = pyoxigraph.Store.read_only(str(self.path))
            else:
                self.path.parent.mkdir(parents=True, exist_ok=True)  # `--store .cache/slice` on a fresh checkout
                self.store = pyoxigraph.Store(str(self.path))
        except OSError as err:
            self._unlock()
            raise _open_error(self.path, err) from None
        if read_only and self.load_record() is None and next(self.store.quads_for_pattern(None, None, None), None) is None:
            self._unlock()
            raise StoreError(f"the store at {self.path} is empty: load data with "
                             f"`cnl2sparql kg load FILE --store {self.path}`")

    # -- completeness ----------------------------------------------------------------------------
    @property
    def marker_path(self) -> Path:
        return self.path / MARKER

    def load_record(self) -> dict | None:
        """What `kg load` recorded in the store (None for a store built otherwise)."""
        import json

        try:
            return json.loads(self.marker_path.read_text("utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError):
            return {"state": "unreadable"}

    def check_complete(self) -> None:
        """Refuse a store whose last `kg load` did not finish (interrupted, killed, failed)."""
        record = self.load_record()
        if record is None or record.get("state") == "complete":
            return
        loading = (record.get("loading") or {}).get("file", "a file")
        raise StoreError(f"the store at {self.path} is incomplete: loading {loading} did not finish; "
                         f"run `cnl2sparql kg load {loading} --store {self.path}` again to complete it")

    def _write_record(self, record: dict) -> None:
        import json

        tmp = self.marker_path.with_suffix(".tmp")
        tmp.write_text(json.dumps(record, indent=2, ensure_ascii=False), "utf-8")
        os.replace(tmp, self.marker_path)  # atomic: the marker is either old or new, never half

    # -- life cycle ------------------------------------------------------------------------------
    def close(self) -> None:
        if self._pool is not None:
            self._pool.close()
            self._pool = None
        self.store = None
        self._unlock()

    def _unlock(self) -> None:
        fd, self._lock_fd = self._lock_fd, None
        if fd is not None:
            os.close(fd)  # releases the flock

    def _exclusive(self, action: str) -> int:
        """The store's lock for a write: refused while a reader (a server, `mcp`, a query) has
        the store open, since it would go on answering from the data it opened."""
        try:
            return _lock_store(self.path, exclusive=True)
        except BlockingIOError:
            holders = _holders(self.path)
            who = f"process {', '.join(map(str, holders))}" if holders else "another process"
            raise StoreError(f"refused to {action} the store at {self.path}: {who} has it open for reading "
                             f"(a `cnl2sparql serve`, `mcp` or query), and would go on answering from the old "
                             f"data; stop it first, or load into a new folder and point the server at it") from None

    def __len__(self) -> int:
        return len(self.store)

    def _executor(self):
        if self._pool is None:
            from cnl.kg.executor import WorkerPool

            self._pool = WorkerPool(self.path, size=self._workers, prefixes=PREFIXES,
                                    isolate_network=not self.allow_service, memory_limit=self.memory_limit,
                                    fast_workers=self.fast_workers, fast_lane_s=self.fast_lane_s)
        return self._pool

    def warm(self, keep_warm: bool = True) -> dict:
        """Start the query workers now (servers do); returns the pool's status."""
        if not self.isolate:
            return {"workers": 0}
        pool = self._executor()
        pool.keep_warm = keep_warm
        pool.warm()
        return pool.status()

    def status(self) -> dict:
        return self._pool.status() if self._pool is not None else {"workers": self._workers, "started": 0}

    def _written(self) -> None:
        """After a write: flush, and retire workers (a read-only open does not see later writes)."""
        self.store.flush()
        if self._pool is not None:
            self._pool.restart()

    # -- loading ---------------------------------------------------------------------------------
    def load(self, path: str | os.PathLike, *, progress: bool = True, force: bool = False) -> int:
        """Bulk-load an RDF file (N-Triples, Turtle…, gzip too); returns the triples added.

        The store records its loads in ``cnl2sparql-load.json``: "loading" before the first
        triple, "complete" after the last one is flushed, so an interrupted load leaves a store
        that is refused until the same command is run again (which loads the file again: triples
        are a set, so nothing is duplicated but blank nodes). A file already loaded (same
        content) is skipped, returning -1; ``force`` replaces the store's content with the file
        (refused when the store also holds other files), and so is a load into a store that a
        running server (any reader) has open."""
        if self.read_only:
            raise StoreError(f"the store at {self.path} was opened read-only")
        path = Path(path)
        if not path.is_file():
            raise StoreError(f"RDF file not found: {path}")
        fmt = rdf_format(path)
        digest = _sha256(path)
        record = self.load_record() or {}
        if record.get("state") == "unreadable":
            record = {}
        files = list(record.get("files", []))
        if record.get("state") is None and len(self.store):
            files.append({"file": "(loaded before load records were kept)", "sha256": None})
        if force:
            others = [f["file"] for f in files if f.get("sha256") != digest]
            if others:
                raise StoreError(f"--force replaces the store's content with {path.name}, but the store at "
                                 f"{self.path} also holds {', '.join(others)}; load everything into a new store "
                                 f"folder instead")
            files = []
        elif record.get("state") == "complete" and any(f.get("sha256") == digest for f in files):
            return -1
        lock = self._exclusive("load into")
        try:
            return self._load(path, fmt, digest, files, force=force, progress=progress)
        finally:
            os.close(lock)

    def _load(self, path: Path, fmt, digest: str, files: list, *, force: bool, progress: bool) -> int:
        import datetime

        from tqdm import tqdm

        self._write_record({"state": "loading", "files": files,
                            "loading": {"file": str(path), "sha256": digest}})
        if force:
            self.store.clear()
        before = len(self.store)
        with open(path, "rb") as raw, tqdm(total=path.stat().st_size, unit="B", unit_scale=True,
                                           desc=f"loading {path.name}", disable=not progress) as bar:
            reader = _CountingReader(raw, bar)
            source = gzip.GzipFile(fileobj=reader) if path.suffix.lower() == ".gz" else reader
            try:
                self.store.bulk_load(source, fmt)
            except (SyntaxError, ValueError, OSError, EOFError) as err:
                raise StoreError(f"cannot load {path}: {err}; the store is incomplete: fix the file and "
                                 f"run the load again") from None
        self._written()
        if force:
            self.store.optimize()  # reclaim the space of what was cleared
        added = len(self.store) - before
        files = [f for f in files if f.get("sha256") != digest]
        files.append({"file": str(path), "sha256": digest, "added": added,
                      "loaded": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")})
        self._write_record({"state": "complete", "files": files, "triples": len(self.store)})
        return added

    # -- queries ---------------------------------------------------------------------------------
    def _run(self, sparql: str):
        try:
            return self.store.query(sparql, prefixes=PREFIXES)
        except SyntaxError as err:
            raise SPARQLSyntaxError(f"malformed SPARQL: {err}") from None
        except OSError as err:
            raise StoreError(f"query failed in the store at {self.path}: {err}") from None
        except RuntimeError as err:
            raise KGError(f"the query failed: {err}") from None

    def _as_run_here(self, sparql: str) -> str:
        # WDQS's label service (?xLabel columns), which queries copied from query.wikidata.org
        # name, is written out as label lookups: no other server is asked
        return emulate_label_service(sparql)

    def _in_worker(self, sparql: str) -> dict:
        timeout, max_rows = effective_limits(self.timeout, self.max_rows)
        return self._executor().query(sparql, timeout=timeout, max_rows=max_rows, max_bytes=self.max_bytes)

    def _select(self, sparql: str, parsed: ParsedSPARQL) -> ResultTable:
        if self.isolate:
            doc = self._in_worker(sparql)
            rows = [tuple(None if t is None else Term(*t) for t in row) for row in doc["rows"]]
            return ResultTable(doc["vars"], rows, truncated=doc["truncated"])
        _, max_rows = effective_limits(None, self.max_rows)
        solutions = self._run(sparql)
        columns = [v.value for v in solutions.variables]
        rows, truncated = [], False
        for solution in solutions:
            if max_rows is not None and len(rows) >= max_rows:
                truncated = True
                break
            rows.append(tuple(None if solution[c] is None else _term(solution[c]) for c in columns))
        return ResultTable(columns, rows, truncated=truncated)

    def _ask(self, sparql: str, parsed: ParsedSPARQL) -> bool:
        if self.isolate:
            return bool(self._in_worker(sparql)["boolean"])
        return bool(self._run(sparql))

    def _update(self, sparql: str, parsed: ParsedSPARQL) -> None:
        lock = self._exclusive("update")
        try:
            self.store.update(sparql, prefixes=PREFIXES)
        except SyntaxError as err:
            raise SPARQLSyntaxError(f"malformed SPARQL Update: {err}") from None
        except OSError as err:
            raise StoreError(f"the update failed in the store at {self.path}: {err}") from None
        finally:
            os.close(lock)
        self._written()
