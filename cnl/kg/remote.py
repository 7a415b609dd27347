"""The remote backend: any SPARQL 1.1 endpoint over HTTP (WDQS, QLever, Virtuoso, Oxigraph server)."""
from __future__ import annotations

import http.client
import json
import socket
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

from cnl.errors import (EndpointError, EndpointUnreachable, KGError, QueryTimeout, ResultTooLarge,
                        SPARQLSyntaxError)
from cnl.kg.base import KnowledgeGraph
from cnl.kg.limits import effective_limits
from cnl.kg.results import ResultTable, Term
from cnl.kg.sparql import ParsedSPARQL, with_prefixes
from cnl.sparql.namespaces import PREFIXES

USER_AGENT = "cnl2sparql/0.1 (https://github.com/; question answering over knowledge graphs)"
# Statuses worth retrying: rate limiting and overloaded or restarting servers.
_TRANSIENT_STATUS = {429, 502, 503, 504}
# GET keeps queries cacheable on public endpoints; longer queries go by POST.
_MAX_GET_CHARS = 2000


class _Transient(Exception):
    def __init__(self, error: KGError, retry_after: float | None = None) -> None:
        self.error, self.retry_after = error, retry_after


class _Deadline:
    """Closes a request's sockets when its time is up, so that no server — not even one that
    sends a byte a second — can hold a query past ``timeout`` (a socket timeout alone bounds
    each read, not the whole exchange)."""

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds
        self.expired = False
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self._timer = None if seconds is None else threading.Timer(seconds, self._expire)
        if self._timer is not None:
            self._timer.daemon = True

    def __enter__(self):
        if self._timer is not None:
            self._timer.start()
        return self

    def __exit__(self, *exc) -> None:
        if self._timer is not None:
            self._timer.cancel()

    def watch(self, sock: socket.socket) -> None:
        with self._lock:
            self._sockets.append(sock)
            if self.expired:
                self._shut(sock)

    def _expire(self) -> None:
        with self._lock:
            self.expired = True
            for sock in self._sockets:
                self._shut(sock)

    @staticmethod
    def _shut(sock: socket.socket) -> None:
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def opener(self) -> urllib.request.OpenerDirector:
        deadline = self

        class HTTPConnection(http.client.HTTPConnection):
            def connect(self):
                super().connect()
                deadline.watch(self.sock)

        class HTTPSConnection(http.client.HTTPSConnection):
            def connect(self):
                super().connect()
                deadline.watch(self.sock)

        class HTTPHandler(urllib.request.HTTPHandler):
            def http_open(self, req):
                return self.do_open(HTTPConnection, req)

        class HTTPSHandler(urllib.request.HTTPSHandler):
            def https_open(self, req):
                return self.do_open(HTTPSConnection, req, context=self._context)

        return urllib.request.build_opener(HTTPHandler, HTTPSHandler)


def check_endpoint_url(url: str) -> str:
    """``url`` if it is an http(s) URL with a host; EndpointUnreachable saying why not."""
    try:
        parts = urllib.parse.urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError for a bad port
    except (ValueError, TypeError):
        parts = None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname \
            or any(ord(c) <= 0x20 for c in url):
        raise EndpointUnreachable(f"{url!r} is not an http:// or https:// URL of a SPARQL endpoint")
    return url


class RemoteKG(KnowledgeGraph):
    """A SPARQL endpoint reached over HTTP (requests built by SPARQLWrapper).

    ``timeout`` bounds each request as a whole (seconds), however slowly the server answers;
    the enclosing :func:`cnl.kg.limits.query_limits` narrows it. Transient failures (HTTP 429/502/503/504, connection
    reset) are retried ``retries`` times with exponential backoff from ``backoff`` seconds,
    honouring ``Retry-After``; refused connections, timeouts and bad queries fail at once.
    ``max_rows`` truncates a result, ``max_bytes`` refuses one whose response is bigger.
    """

    label_batch = 100  # keeps GET URLs short enough for public endpoints

    def __init__(self, endpoint: str, *, update_endpoint: str | None = None, timeout: float = 30.0,
                 retries: int = 3, backoff: float = 0.5, max_rows: int | None = 10_000,
                 max_bytes: int = 50_000_000, allow_updates: bool = False,
                 prefixes: dict[str, str] = PREFIXES, allow_service=()) -> None:
        self.endpoint = check_endpoint_url(endpoint)
        self.update_endpoint = check_endpoint_url(update_endpoint or endpoint)
        self.allow_service = frozenset(allow_service)
        self.timeout, self.retries, self.backoff = timeout, retries, backoff
        self.max_rows, self.max_bytes = max_rows, max_bytes
        self.allow_updates = allow_updates
        self.prefixes = prefixes

    def _wrapper(self, sparql: str, *, update: bool = False):
        from SPARQLWrapper import GET, JSON, POST, URLENCODED, SPARQLWrapper

        wrapper = SPARQLWrapper(self.endpoint, updateEndpoint=self.update_endpoint, agent=USER_AGENT)
        wrapper.setQuery(sparql)
        wrapper.setReturnFormat(JSON)
        if update or len(sparql) > _MAX_GET_CHARS:
            wrapper.setMethod(POST)
            wrapper.setRequestMethod(URLENCODED)
        else:
            wrapper.setMethod(GET)
        return wrapper

    def _send(self, sparql: str, *, update: bool = False) -> bytes:
        """The response body, after retrying transient failures with exponential backoff; the
        whole exchange (retries and waits included) ends within the timeout."""
        timeout, _ = effective_limits(self.timeout, None)
        deadline = None if timeout is None else time.monotonic() + timeout
        for attempt in range(self.retries + 1):
            left = None if deadline is None else deadline - time.monotonic()
            try:
                if left is not None and left <= 0:
                    raise self._timeout(update, timeout)
                return self._send_once(sparql, update=update, timeout=left, total=timeout)
            except _Transient as transient:
                delay = max(self.backoff * 2 ** attempt, transient.retry_after or 0)
                if attempt == self.retries or (deadline is not None and time.monotonic() + delay >= deadline):
                    raise transient.error from None
                time.sleep(delay)
        raise AssertionError("unreachable")

    def _timeout(self, update: bool, total: float | None) -> QueryTimeout:
        where = self.update_endpoint if update else self.endpoint
        return QueryTimeout(f"{where} did not answer within {total:g} s")

    def _send_once(self, sparql: str, *, update: bool, timeout: float | None, total: float | None) -> bytes:
        where = self.update_endpoint if update else self.endpoint
        request = self._wrapper(sparql, update=update)._createRequest()
        with _Deadline(timeout) as deadline:
            try:
                response = deadline.opener().open(request, timeout=timeout)
                body = bytearray()
                while len(body) <= self.max_bytes:
                    chunk = response.read(min(65536, self.max_bytes + 1 - len(body)))
                    if not chunk:
                        break
                    body += chunk
                if deadline.expired:
                    raise TimeoutError
                body = bytes(body)
            except urllib.error.HTTPError as err:
                if deadline.expired:
                    raise self._timeout(update, total) from None
                raise self._http_error(err, where) from None
            except (TimeoutError, socket.timeout):
                raise self._timeout(update, total) from None
            except (urllib.error.URLError, http.client.HTTPException, OSError) as err:
                reason = getattr(err, "reason", err)
                if deadline.expired or isinstance(reason, (TimeoutError, socket.timeout)):
                    raise self._timeout(update, total) from None
                if isinstance(reason, (ConnectionResetError, ConnectionAbortedError, http.client.RemoteDisconnected)):
                    raise _Transient(EndpointUnreachable(f"{where} dropped the connection")) from None
                if isinstance(err, http.client.HTTPException):
                    raise EndpointError(f"{where} did not answer in HTTP: {type(err).__name__}") from None
                raise EndpointUnreachable(f"cannot reach the SPARQL endpoint {where}: {reason}") from None
        if len(body) > self.max_bytes:
            raise ResultTooLarge(f"the result from {where} exceeds the {self.max_bytes:,}-byte cap; "
                                 "add a LIMIT or raise max_bytes")
        return body

    def _results(self, sparql: str, parsed: ParsedSPARQL) -> dict:
        body = self._send(with_prefixes(sparql, parsed, self.prefixes))
        try:
            return json.loads(body)
        except ValueError:
            raise EndpointError(f"{self.endpoint} did not return SPARQL JSON results "
                                f"(got {body[:80]!r}); is it a SPARQL endpoint?") from None

    def _select(self, sparql: str, parsed: ParsedSPARQL) -> ResultTable:
        doc = self._results(sparql, parsed)
        columns = doc.get("head", {}).get("vars", [])
        bindings = doc.get("results", {}).get("bindings", [])
        truncated = self.max_rows is not None and len(bindings) > self.max_rows
        if truncated:
            bindings = bindings[: self.max_rows]
        rows = [tuple(Term.from_sparql_json(b[c]) if c in b else None for c in columns) for b in bindings]
        return ResultTable(columns, rows, truncated=truncated)

    def _ask(self, sparql: str, parsed: ParsedSPARQL) -> bool:
        return bool(self._results(sparql, parsed).get("boolean"))

    def _update(self, sparql: str, parsed: ParsedSPARQL) -> None:
        self._send(with_prefixes(sparql, parsed, self.prefixes), update=True)


    def _http_error(self, err: urllib.error.HTTPError, where: str) -> Exception:
        """An HTTP error status as the error it means (400: the query is malformed)."""
        try:
            text = err.read(2000).decode("utf-8", "replace")
        except (OSError, http.client.HTTPException):
            text = ""
        message = " ".join(text.split())[:300] or f"HTTP {err.code} {err.reason}"
        if err.code == 400:
            return SPARQLSyntaxError(f"the endpoint rejected the query as malformed: {message}")
        if err.code in _TRANSIENT_STATUS:
            return _Transient(EndpointError(f"{where} answered HTTP {err.code} {err.reason}"), _retry_after(err))
        if err.code in (401, 404, 414, 500):
            return EndpointError(f"{where} answered with an error: HTTP {err.code}: {message}")
        return EndpointError(f"{where} answered HTTP {err.code} {err.reason}")


def _retry_after(err) -> float | None:
    try:
        return float(err.headers.get("Retry-After"))
    except (TypeError, ValueError, AttributeError):
        return None
