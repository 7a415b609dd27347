"""The query worker: one child process that opens a store read-only and answers queries.

Run as a script (``python .../cnl/kg/worker.py STORE``, never imported by the parent) so that it
starts in tens of milliseconds: it imports only the standard library and pyoxigraph. The parent
(:mod:`cnl.kg.executor`) kills it when a query passes its deadline, which is the only way to
stop a pyoxigraph query (it cannot be cancelled in-process and ignores SIGINT).

Protocol on stdin/stdout: frames of a 4-byte big-endian length and a payload.
- parent → worker, first: JSON ``{"prefixes": {...}, "isolate_network": bool, "memory_limit": int|null}``;
  worker → parent: ``OK`` + JSON ``{"network_isolated": bool}`` or ``ER`` + JSON error.
- then per query: JSON ``{"q": str, "max_rows": int|null, "max_bytes": int}``;
  reply ``OK`` + JSON ``{"vars": [...], "rows": [[term|null, ...]], "truncated": bool}`` or
  ``{"boolean": bool}``, where a term is ``[kind, value, lang, datatype]``; or ``ER`` + JSON
  ``{"type": "syntax"|"store"|"too_large"|"memory"|"query", "message": str}``.

``memory_limit`` caps the process's data segment (``RLIMIT_DATA``: heap and private anonymous
mappings, the memory a query grows; not the mapped code or the page cache). Its address space
reservations count too, so the resident size stays below the limit (a 256 MiB ceiling stopped a
product query at a peak of ~187 MiB). An allocation past it aborts the query engine (Rust aborts on a
failed allocation: the process dies with SIGABRT, "memory allocation of N bytes failed" on
stderr) or raises MemoryError in Python; either way the parent reports the limit and starts a
fresh worker. ``RLIMIT_AS`` would not do: RocksDB reserves ~600 MB of address space it never
touches.
"""
import ctypes
import json
import os
import resource
import signal
import struct
import sys
import threading
import time

CLONE_NEWUSER, CLONE_NEWNET = 0x10000000, 0x40000000


def _read_frame(stream):
    head = stream.read(4)
    if len(head) < 4:
        return None
    (size,) = struct.unpack(">I", head)
    data = stream.read(size)
    return data if len(data) == size else None


def _write_frame(stream, status: bytes, doc) -> None:
    payload = status + json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "surrogatepass")
    stream.write(struct.pack(">I", len(payload)) + payload)
    stream.flush()


def _isolate_network() -> bool:
    """A new, empty network namespace: SERVICE cannot reach anything even if a check upstream
    missed it. Best effort: needs unprivileged user namespaces (may be off in containers)."""
    libc = ctypes.CDLL(None, use_errno=True)
    return libc.unshare(CLONE_NEWUSER | CLONE_NEWNET) == 0


def _limit_memory(limit: int | None) -> None:
    if limit:
        resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))


def _die_with_parent() -> None:
    """End this process when the parent is gone, even in the middle of a query (the query
    releases the GIL, so this thread runs). Not PR_SET_PDEATHSIG: that fires when the parent
    *thread* that started the worker ends, and servers start workers from short-lived threads."""
    parent = os.getppid()

    def watch() -> None:
        while True:
            time.sleep(0.5)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def _term(node, kinds):
    named, blank, literal = kinds
    if isinstance(node, named):
        return ["iri", node.value, None, None]
    if isinstance(node, blank):
        return ["bnode", node.value, None, None]
    if isinstance(node, literal):
        if node.language:
            return ["literal", node.value, node.language, None]
        return ["literal", node.value, None, node.datatype.value]
    return ["literal", str(node), None, None]  # RDF-star triple terms: shown as text


def _answer(store, request, prefixes, kinds):
    import pyoxigraph

    result = store.query(request["q"], prefixes=prefixes)
    if isinstance(result, pyoxigraph.QueryBoolean):
        return {"boolean": bool(result)}
    if not isinstance(result, pyoxigraph.QuerySolutions):
        raise ValueError("only SELECT and ASK queries can be run here")
    columns = [v.value for v in result.variables]
    max_rows, budget = request.get("max_rows"), request.get("max_bytes") or 50_000_000
    rows, truncated, size = [], False, 0
    for solution in result:  # lazy: a capped streaming plan stops early
        if max_rows is not None and len(rows) >= max_rows:
            truncated = True
            break
        row = []
        for column in columns:
            node = solution[column]
            if node is None:
                row.append(None)
                continue
            term = _term(node, kinds)
            # the bytes this term adds to a JSON answer: its text in UTF-8 and its tags, with room
            # for the keys and quotes around them
            size += len(term[1].encode("utf-8", "surrogatepass")) + len(term[2] or "") + len(term[3] or "") + 32
            row.append(term)
        if size > budget:
            return {"error": "too_large",
                    "message": f"the result exceeds the {budget:,}-byte cap; add a LIMIT"}
        rows.append(row)
    return {"vars": columns, "rows": rows, "truncated": truncated}


def main(store_path: str) -> int:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when this process ends
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    first = _read_frame(stdin)
    if first is None:
        return 0
    config = json.loads(first)
    isolated = _isolate_network() if config.get("isolate_network") else False  # needs a single thread
    _limit_memory(config.get("memory_limit"))
    _die_with_parent()
    try:
        import pyoxigraph

        store = pyoxigraph.Store.read_only(store_path)
    except (OSError, ImportError, ValueError) as err:
        _write_frame(stdout, b"ER", {"type": "store", "message": str(err)})
        return 1
    kinds = (pyoxigraph.NamedNode, pyoxigraph.BlankNode, pyoxigraph.Literal)
    prefixes = config.get("prefixes") or {}
    _write_frame(stdout, b"OK", {"network_isolated": isolated, "pid": os.getpid()})
    while True:
        frame = _read_frame(stdin)
        if frame is None:
            return 0  # the parent closed the pipe
        try:
            reply = _answer(store, json.loads(frame), prefixes, kinds)
        except MemoryError:
            reply = {"error": "memory", "message": "out of memory"}
        except SyntaxError as err:
            reply = {"error": "syntax", "message": str(err)}
        except OSError as err:
            reply = {"error": "store", "message": str(err)}
        except Exception as err:  # evaluation errors (RuntimeError, ValueError, TypeError...)
            reply = {"error": "query", "message": f"{type(err).__name__}: {err}"}
        if "error" in reply:
            _write_frame(stdout, b"ER", {"type": reply["error"], "message": reply["message"]})
        else:
            _write_frame(stdout, b"OK", reply)


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1]))
    except (BrokenPipeError, KeyboardInterrupt):
        sys.exit(0)
