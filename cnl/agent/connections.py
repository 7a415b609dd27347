"""Connection hygiene for `cnl2sparql serve`: uvicorn's HTTP/1.1 protocol (h11) with the timeouts
and the connection bound a public server needs.

uvicorn's own settings are used where they exist: ``timeout_keep_alive`` closes a connection
idle after a response, ``h11_max_incomplete_event_size`` bounds a request head. What it lacks
is added here, and only that (measured on uvicorn 0.54, issue 30):

- **a deadline for the request head**: uvicorn arms no timer before the first request, and a
  byte of a new request cancels the keep-alive timer without arming another, so an idle or
  slow (slowloris) connection stayed open for ever (one was still open after 180 s);
- **a deadline for the body**: a POST declaring 1,000 bytes and sending 10 was held until the
  client gave up; here it gets a 408 after ``body_timeout`` seconds;
- **a deadline for the whole exchange**: a client that never reads its response cannot hold a
  connection (and the response's memory) past ``request_timeout``;
- **a bound on connections that never refuses a new client for idle ones**: uvicorn's
  ``limit_concurrency`` counts idle connections too and answers 503 to every request beyond it,
  so 256 idle sockets denied service to everyone, ``/health`` included. Here, when
  ``max_connections`` are open, a new connection evicts the one that has been waiting longest
  for a request; only when every connection has a request in progress is the new one refused
  (a plain 503, ``Connection: close``).
"""
from __future__ import annotations

import json

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol


def _raw_response(status: int, reason: str, kind: str, message: str) -> bytes:
    """A complete HTTP/1.1 error response with a JSON body, written outside h11's state machine
    (used only on a connection about to be closed)."""
    body = json.dumps({"error": {"type": kind, "message": message, "status": status}}).encode()
    head = (f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\ncontent-length: {len(body)}\r\n"
            f"connection: close\r\n\r\n").encode()
    return head + body


def guarded_protocol(*, max_connections: int, header_timeout: float, body_timeout: float,
                     request_timeout: float) -> type[H11Protocol]:
    """An H11Protocol subclass with these limits, for ``uvicorn.Config(http=...)``."""

    class GuardedH11Protocol(H11Protocol):
        def connection_made(self, transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._timer = None
            self._seen_cycle = None
            self._idle_since = self.loop.time()
            if len(self.connections) > max_connections and not self._evict_an_idle_connection():
                self.transport.write(_raw_response(503, "Service Unavailable", "Busy",
                                                   f"all {max_connections} connections have a request in "
                                                   f"progress; try again shortly"))
                self.transport.close()
                return
            self._arm(header_timeout, self._head_timed_out)

        # -- timers --------------------------------------------------------------------------
        def _arm(self, seconds: float, callback) -> None:
            self._disarm()
            self._timer = self.loop.call_later(seconds, callback)
            self._timing = callback.__name__  # which deadline runs now

        def _disarm(self) -> None:
            if getattr(self, "_timer", None) is not None:
                self._timer.cancel()
                self._timer = None

        def _waiting_for_a_request(self) -> bool:
            return self.cycle is None or self.cycle.response_complete

        def _head_timed_out(self) -> None:
            self._timer = None
            if self._waiting_for_a_request() and not self.transport.is_closing():
                self.transport.close()  # idle, or a head that never finished: nothing to answer

        def _body_timed_out(self) -> None:
            self._timer = None
            cycle = self.cycle
            if cycle is not None and cycle.more_body and not cycle.response_started \
                    and not self.transport.is_closing():
                self.transport.write(_raw_response(408, "Request Timeout", "RequestTimeout",
                                                   f"the request body did not arrive within {body_timeout:g} s"))
                self.transport.close()
            elif cycle is not None and not cycle.response_complete:
                self._arm(request_timeout, self._exchange_timed_out)

        def _exchange_timed_out(self) -> None:
            self._timer = None
            if self.cycle is not None and not self.cycle.response_complete and not self.transport.is_closing():
                self.transport.close()  # the response was not taken in time

        # -- the request cycle ---------------------------------------------------------------
        def handle_events(self) -> None:
            super().handle_events()
            cycle = self.cycle
            if cycle is None or self.transport.is_closing():
                return
            if cycle is not self._seen_cycle and not cycle.response_complete:  # a new request head
                self._seen_cycle = cycle
                if cycle.more_body:
                    self._arm(body_timeout, self._body_timed_out)
                else:
                    self._arm(request_timeout, self._exchange_timed_out)
            elif cycle is self._seen_cycle and not cycle.more_body and not cycle.response_complete \
                    and self._timer is not None and self._timing == "_body_timed_out":
                self._arm(request_timeout, self._exchange_timed_out)  # the body is complete

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if self.transport.is_closing():
                self._disarm()
                return
            self._idle_since = self.loop.time()
            if self._waiting_for_a_request():
                self._arm(header_timeout, self._head_timed_out)

        def connection_lost(self, exc) -> None:
            self._disarm()
            super().connection_lost(exc)

        # -- the bound on connections ---------------------------------------------------------
        def _evict_an_idle_connection(self) -> bool:
            idle = [c for c in self.connections
                    if c is not self and isinstance(c, GuardedH11Protocol) and c._waiting_for_a_request()
                    and not c.transport.is_closing()]
            if not idle:
                return False
            oldest = min(idle, key=lambda c: c._idle_since)
            if oldest.conn.our_state not in (h11.ERROR, h11.CLOSED):
                try:
                    oldest.conn.send(h11.ConnectionClosed())
                except h11.LocalProtocolError:
                    pass
            oldest.transport.close()
            oldest.connections.discard(oldest)  # counted out now, not when the loop gets to it
            return True

    return GuardedH11Protocol
