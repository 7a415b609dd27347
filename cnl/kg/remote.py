"""The remote backend: any SPARQL 1.1 endpoint over HTTP (WDQS, QLever, Virtuoso, Oxigraph server)."""
from __future__ import annotations

import json
import socket
import time
import urllib.error

from cnl.errors import (EndpointError, EndpointUnreachable, KGError, QueryTimeout, ResultTooLarge,
                        SPARQLSyntaxError)
from cnl.kg.base import KnowledgeGraph
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


class RemoteKG(KnowledgeGraph):
    """A SPARQL endpoint reached through SPARQLWrapper.

    ``timeout`` is per request (seconds). Transient failures (HTTP 429/502/503/504, connection
    reset) are retried ``retries`` times with exponential backoff from ``backoff`` seconds,
    honouring ``Retry-After``; refused connections, timeouts and bad queries fail at once.
    ``max_rows`` truncates a result, ``max_bytes`` refuses one whose response is bigger.
    """

    label_batch = 100  # keeps GET URLs short enough for public endpoints

    def __init__(self, endpoint: str, *, update_endpoint: str | None = None, timeout: float = 30.0,
                 retries: int = 3, backoff: float = 0.5, max_rows: int | None = 10_000,
                 max_bytes: int = 50_000_000, allow_updates: bool = False,
                 prefixes: dict[str, str] = PREFIXES) -> None:
        self.endpoint = endpoint
        self.update_endpoint = update_endpoint or endpoint
        self.timeout, self.retries, self.backoff = timeout, retries, backoff
        self.max_rows, self.max_bytes = max_rows, max_bytes
        self.allow_updates = allow_updates
        self.prefixes = prefixes

    def _wrapper(self, sparql: str, *, update: bool = False):
        from SPARQLWrapper import GET, JSON, POST, URLENCODED, SPARQLWrapper

        wrapper = SPARQLWrapper(self.endpoint, updateEndpoint=self.update_endpoint, agent=USER_AGENT)
        # setTimeout() truncates to int, so 0.5 s would become 0 = no timeout at all.
        wrapper.timeout = float(self.timeout)
        wrapper.setQuery(sparql)
        wrapper.setReturnFormat(JSON)
        if update or len(sparql) > _MAX_GET_CHARS:
            wrapper.setMethod(POST)
            wrapper.setRequestMethod(URLENCODED)
        else:
            wrapper.setMethod(GET)
        return wrapper

    def _send(self, sparql: str, *, update: bool = False) -> bytes:
        """The response body, after retrying transient failures with exponential backoff."""
        for attempt in range(self.retries + 1):
            try:
                return self._send_once(sparql, update=update)
            except _Transient as transient:
                if attempt == self.retries:
                    raise transient.error from None
                delay = self.backoff * 2 ** attempt
                time.sleep(max(delay, transient.retry_after or 0))
        raise AssertionError("unreachable")

    def _send_once(self, sparql: str, *, update: bool) -> bytes:
        from SPARQLWrapper.SPARQLExceptions import QueryBadFormed, SPARQLWrapperException

        where = self.update_endpoint if update else self.endpoint
        try:
            response = self._wrapper(sparql, update=update).query().response
            body = response.read(self.max_bytes + 1)
        except QueryBadFormed as err:
            raise SPARQLSyntaxError(f"the endpoint rejected the query as malformed: {_server_message(err)}") from None
        except SPARQLWrapperException as err:  # 401, 404, 414, 500: mapped by SPARQLWrapper
            raise EndpointError(f"{where} answered with an error: {_server_message(err)}") from None
        except urllib.error.HTTPError as err:
            error = EndpointError(f"{where} answered HTTP {err.code} {err.reason}")
            if err.code in _TRANSIENT_STATUS:
                raise _Transient(error, _retry_after(err)) from None
            raise error from None
        except (TimeoutError, socket.timeout):
            raise QueryTimeout(f"{where} did not answer within {self.timeout:g} s") from None
        except urllib.error.URLError as err:
            reason = err.reason
            if isinstance(reason, (TimeoutError, socket.timeout)):
                raise QueryTimeout(f"{where} did not answer within {self.timeout:g} s") from None
            if isinstance(reason, ConnectionResetError):
                raise _Transient(EndpointUnreachable(f"{where} reset the connection")) from None
            raise EndpointUnreachable(f"cannot reach the SPARQL endpoint {where}: {reason}") from None
        except (ConnectionResetError, ConnectionAbortedError):
            raise _Transient(EndpointUnreachable(f"{where} dropped the connection")) from None
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


def _server_message(err) -> str:
    # SPARQLWrapper prefixes the server's body with a generic sentence; keep the first useful line.
    text = str(err).split("Response:", 1)[-1].strip()
    text = text.strip("b'\"").replace("\\n", " ")
    return " ".join(text.split())[:300] or type(err).__name__


def _retry_after(err) -> float | None:
    try:
        return float(err.headers.get("Retry-After"))
    except (TypeError, ValueError, AttributeError):
        return None
