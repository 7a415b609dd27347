"""The request guard of `cnl2sparql serve`: an ASGI middleware in front of every route.

For each HTTP request it
- applies the cross-origin policy: a browser request from another origin (its ``Origin``
  header names neither this server nor an origin the operator allowed) is refused with 403
  before any work, so a web page elsewhere cannot make visitors' browsers spend this server's
  CPU; the allowed origins also get CORS headers (Starlette's CORSMiddleware, added by the
  server only when some are configured);
- reads the body, counting bytes as they arrive (413 past ``max_body_bytes``), and checks a
  JSON body before any parser builds objects from it: UTF-8 text, at most ``MAX_JSON_DEPTH``
  levels of nesting, numbers of at most ``MAX_NUMBER_DIGITS`` digits (422 naming what is wrong;
  Python's parser answered deep nesting with RecursionError and 5,000-digit integers with
  ValueError, which the framework turned into 400);
- gives the request a :class:`~cnl.kg.limits.Cancellation` (:data:`REQUEST_CANCEL`) that is
  cancelled when the client disconnects before its response, and when the response has been
  sent: the work done for the request (its queries, its tool loops) stops then, even if it
  was still running past a 504.
"""
from __future__ import annotations

import asyncio
import json
import re
from contextvars import ContextVar

from cnl.kg.limits import Cancellation

MAX_JSON_DEPTH = 64
MAX_NUMBER_DIGITS = 100
REQUEST_CANCEL: ContextVar[Cancellation | None] = ContextVar("cnl_request_cancel", default=None)
_JSON_STRUCTURE = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.S)


class BodyRefused(ValueError):
    def __init__(self, status: int, kind: str, message: str) -> None:
        super().__init__(message)
        self.status, self.kind, self.message = status, kind, message


def check_json_body(body: bytes) -> None:
    """Raise BodyRefused (422) unless ``body`` is UTF-8 JSON within the depth and digit limits."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as err:
        raise BodyRefused(422, "InvalidRequest", f"the request body is not UTF-8 text (byte {err.start + 1} "
                                                 f"is {body[err.start]:#04x})") from None
    depth = deepest = 0
    for match in _JSON_STRUCTURE.finditer(text):  # strings skipped whole: brackets in them do not count
        token = match.group()
        if token in "[{":
            depth += 1
            deepest = max(deepest, depth)
            if deepest > MAX_JSON_DEPTH:
                raise BodyRefused(422, "InvalidRequest", f"the request body nests JSON deeper than "
                                                         f"{MAX_JSON_DEPTH} levels")
        elif token in "]}":
            depth -= 1

    def number(kind):
        def parse(digits: str):
            if sum(c.isdigit() for c in digits) > MAX_NUMBER_DIGITS:
                raise BodyRefused(422, "InvalidRequest", f"the request body has a number of more than "
                                                         f"{MAX_NUMBER_DIGITS} digits")
            return kind(digits)
        return parse

    try:
        json.loads(text, parse_int=number(int), parse_float=number(float))
    except BodyRefused:
        raise
    except ValueError as err:
        raise BodyRefused(422, "InvalidRequest", f"the request body is not valid JSON: {err}") from None


def _header(scope, name: bytes) -> str | None:
    for key, value in scope.get("headers") or ():
        if key == name:
            return value.decode("latin-1")
    return None


class RequestGuard:
    """See the module's docstring. ``render_error(status, kind, message)`` builds the body of
    a refusal (the server's JSON error shape)."""

    def __init__(self, app, *, max_body_bytes: int, cors_origins=(), render_error) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes
        self.cors_origins = frozenset(cors_origins)
        self.render_error = render_error

    async def _refuse(self, send, status: int, kind: str, message: str) -> None:
        body = self.render_error(status, kind, message)
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})

    def _origin_allowed(self, scope, origin: str) -> bool:
        if "*" in self.cors_origins or origin in self.cors_origins:
            return True
        # the server's own pages: the origin names the host the request was sent to (the scheme
        # is not compared: behind a TLS proxy the page is https and the server sees http)
        host = _header(scope, b"host")
        return host is not None and "://" in origin and origin.split("://", 1)[1].lower() == host.lower()

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        origin = _header(scope, b"origin")
        if origin is not None and not self._origin_allowed(scope, origin):
            await self._refuse(send, 403, "CrossOriginRefused",
                               f"requests from web pages at {origin[:100]!r} are not allowed by this server's "
                               f"cross-origin policy (an operator can allow origins with --cors-origin)")
            return
        declared = _header(scope, b"content-length")
        if declared is not None and (not declared.strip().isdigit() or int(declared) > self.max_body_bytes):
            await self._refuse(send, 413, "RequestTooLarge", f"request bodies are limited to {self.max_body_bytes} bytes")
            return
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return  # gone before its body arrived: nothing to answer
            body += message.get("body", b"")
            if len(body) > self.max_body_bytes:
                await self._refuse(send, 413, "RequestTooLarge",
                                   f"request bodies are limited to {self.max_body_bytes} bytes")
                return
            if not message.get("more_body", False):
                break
        if body and scope["method"] in ("POST", "PUT", "PATCH"):
            try:
                check_json_body(bytes(body))
            except BodyRefused as refused:
                await self._refuse(send, refused.status, refused.kind, refused.message)
                return
        await self._serve(scope, bytes(body), receive, send)

    async def _serve(self, scope, body: bytes, receive, send) -> None:
        cancel = Cancellation()
        token = REQUEST_CANCEL.set(cancel)
        gone = asyncio.Event()
        state = {"replayed": False, "answered": False}

        async def watch() -> None:
            # the one reader of the connection from now on: a disconnect before the response
            # has been sent stops the request's work
            while True:
                message = await receive()
                if message["type"] == "http.disconnect":
                    if not state["answered"]:
                        cancel.cancel("the client went away")
                    gone.set()
                    return

        async def replay():
            if not state["replayed"]:
                state["replayed"] = True
                return {"type": "http.request", "body": body, "more_body": False}
            await gone.wait()
            return {"type": "http.disconnect"}

        async def sending(message) -> None:
            if message["type"] == "http.response.body" and not message.get("more_body", False):
                state["answered"] = True
            await send(message)

        watcher = asyncio.ensure_future(watch())
        try:
            await self.app(scope, replay, sending)
        finally:
            watcher.cancel()
            cancel.cancel("its response was sent")  # nothing more is computed for this request
            REQUEST_CANCEL.reset(token)
