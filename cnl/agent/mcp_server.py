"""The tools as an MCP server over stdio (`cnl2sparql mcp`), for any MCP-capable assistant.

The tool list and input schemas are exactly :meth:`Toolbox.schemas` (mode ``all``: the search
tools, ``execute_sparql``, ``execute_cnl``, ``translate``, ``answer``, ``cancel``); a tool's
input error comes back as an MCP error result (``isError``) with the same text the agent loop
would see. Each tool call runs under the ``--timeout`` deadline: its queries are killed at it,
its other work stops at its next deadline check, and a call the client cancels stops too.

The stdio transport is this module's own (:func:`json_rpc_stdio`), not the SDK's: the SDK's
reader drops every message it cannot validate without a word (issue 30: non-JSON input, a batch,
a request without a method, string params, an object id, 5,000-deep JSON and a lone surrogate in
the arguments all went unanswered). Here every malformed message gets its JSON-RPC error —
-32700 parse error, -32600 invalid request, -32602 invalid params — with the request's id
when it has a usable one; the only messages never answered are notifications, as JSON-RPC 2.0
requires (a malformed one is reported on stderr). Replies are written as ASCII JSON, so no
text in them can break their encoding.
"""
from __future__ import annotations

import contextlib
import json
import os
import sys

from cnl.agent.http_guard import BodyRefused, check_json_body
from cnl.agent.tools import ALL_MODE, Toolbox
from cnl.errors import CNLError
from cnl.version import __version__

PARSE_ERROR, INVALID_REQUEST, INVALID_PARAMS, INTERNAL_ERROR = -32700, -32600, -32602, -32603
MAX_MESSAGE_BYTES = 1 << 20


def build_server(toolbox: Toolbox, *, timeout: float | None = None):
    """A low-level MCP server whose tools call ``toolbox``, each call within ``timeout`` s."""
    import anyio
    import mcp_types as types
    from mcp.server.lowlevel.server import Server

    from cnl.kg.limits import Cancellation, query_limits

    schemas = {s["function"]["name"]: s["function"] for s in toolbox.schemas(ALL_MODE)}

    async def list_tools(ctx, params) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[
            types.Tool(name=name, description=f["description"], input_schema=f["parameters"])
            for name, f in schemas.items()])

    def error_result(text: str) -> types.CallToolResult:
        return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=True)

    async def call_tool(ctx, params) -> types.CallToolResult:
        cancel = Cancellation()

        def bounded():
            with query_limits(timeout=timeout, cancel=cancel):
                return toolbox.call(params.name, dict(params.arguments or {}), mode=ALL_MODE)

        try:
            result = await anyio.to_thread.run_sync(bounded, abandon_on_cancel=True)
        except CNLError as err:
            return error_result(f"error: {err}")
        except anyio.get_cancelled_exc_class():
            cancel.cancel("the client cancelled the call")  # its queries are killed, its loops stop
            raise
        except Exception as err:  # a bug in a tool: an error result, never a silent drop
            return error_result(f"error: the tool failed ({type(err).__name__})")
        return types.CallToolResult(content=[types.TextContent(type="text", text=result.text)],
                                    structured_content=result.to_json(), is_error=not result.ok)

    return Server("cnl2sparql", version=__version__,
                  instructions="Query a knowledge graph: search entities and properties, then write "
                               "SQUALL CNL (execute_cnl) or SPARQL (execute_sparql).",
                  on_list_tools=list_tools, on_call_tool=call_tool)


# --- the transport ------------------------------------------------------------------------------

def rpc_error(code: int, message: str, id_=None) -> dict:
    return {"jsonrpc": "2.0", "id": id_, "error": {"code": code, "message": message}}


def _usable_id(doc: dict):
    """The request's id when JSON-RPC allows it (a string or an integer), else None."""
    value = doc.get("id")
    return value if isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool)) else None


def check_message(line: bytes):
    """``(message, None)`` for a well-formed JSON-RPC message (a dict), or ``(None, error)``
    where ``error`` is the JSON-RPC error reply to send (None for a notification: no reply)."""
    try:
        check_json_body(line)
    except BodyRefused as refused:
        return None, rpc_error(PARSE_ERROR, f"Parse error: {refused.message.replace('the request body', 'the message')}")
    doc = json.loads(line)
    if isinstance(doc, list):
        return None, rpc_error(INVALID_REQUEST, "Invalid Request: batches are not supported (MCP sends one "
                                                "message per line)")
    if not isinstance(doc, dict):
        return None, rpc_error(INVALID_REQUEST, f"Invalid Request: a message is a JSON object, not "
                                                f"{type(doc).__name__}")
    id_ = _usable_id(doc)
    if "id" in doc and id_ is None:
        return None, rpc_error(INVALID_REQUEST, "Invalid Request: id must be a string or an integer")
    if doc.get("jsonrpc") != "2.0":
        return None, rpc_error(INVALID_REQUEST, 'Invalid Request: "jsonrpc" must be "2.0"', id_)
    if "method" not in doc:
        if id_ is not None and ("result" in doc or "error" in doc):
            return doc, None  # a response to one of our requests
        return None, rpc_error(INVALID_REQUEST, "Invalid Request: no method", id_)
    if not isinstance(doc["method"], str):
        return None, rpc_error(INVALID_REQUEST, "Invalid Request: method must be a string", id_)
    if "params" in doc and not isinstance(doc["params"], dict):
        error = rpc_error(INVALID_PARAMS, f"Invalid params: params must be an object, not "
                                          f"{type(doc['params']).__name__}", id_)
        return None, error if id_ is not None else None
    return doc, None


def _read_line(stream) -> tuple[bytes, bool]:
    """One line and whether it fitted MAX_MESSAGE_BYTES (the rest of an over-long line is read
    and dropped); ``b""`` at the end of input."""
    line = stream.readline(MAX_MESSAGE_BYTES + 1)
    if len(line) <= MAX_MESSAGE_BYTES or line.endswith(b"\n"):
        return line, True
    while True:
        rest = stream.readline(1 << 16)
        if not rest or rest.endswith(b"\n"):
            return b"x", False


@contextlib.asynccontextmanager
async def json_rpc_stdio():
    """``(read_stream, write_stream)`` for ``Server.run`` over this process's stdin/stdout.

    While serving, fd 0 reads from the null device and fd 1 goes to stderr, so a library that
    prints cannot corrupt the wire; both are restored on exit."""
    import anyio
    import mcp_types as types
    from mcp.shared.message import SessionMessage

    wire_in, wire_out = os.dup(0), os.dup(1)
    saved_in, saved_out = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    reader = os.fdopen(wire_in, "rb", buffering=1 << 16)
    writer = os.fdopen(wire_out, "wb", buffering=0)
    write_lock = anyio.Lock()

    async def write(doc: dict) -> None:
        data = json.dumps(doc, ensure_ascii=True, separators=(",", ":")).encode("ascii") + b"\n"
        async with write_lock:
            await anyio.to_thread.run_sync(writer.write, data)

    read_send, read_stream = anyio.create_memory_object_stream(0)
    write_stream, write_receive = anyio.create_memory_object_stream(0)

    async def read_wire() -> None:
        async with read_send:
            while True:
                line, fits = await anyio.to_thread.run_sync(_read_line, reader, abandon_on_cancel=True)
                if not line:
                    return  # the client closed stdin
                if not fits:
                    await write(rpc_error(INVALID_REQUEST, f"Invalid Request: a message is limited to "
                                                           f"{MAX_MESSAGE_BYTES:,} bytes"))
                    continue
                if not line.strip():
                    continue
                doc, error = check_message(line.strip())
                if doc is None:
                    if error is not None:
                        await write(error)
                    else:
                        print("mcp: ignored a malformed notification", file=sys.stderr)
                    continue
                try:
                    message = types.jsonrpc_message_adapter.validate_python(doc, by_name=False)
                except ValueError as err:
                    problem = str(err).splitlines()[1:2] or ["does not fit the JSON-RPC message shapes"]
                    if _usable_id(doc) is not None or "method" not in doc:
                        await write(rpc_error(INVALID_REQUEST, f"Invalid Request: {problem[0].strip()}"[:300],
                                              _usable_id(doc)))
                    continue
                await read_send.send(SessionMessage(message))

    async def write_wire() -> None:
        async with write_receive:
            async for session_message in write_receive:
                message = session_message.message
                try:
                    doc = message.model_dump(by_alias=True, exclude_unset=True, mode="json")
                except ValueError:
                    doc = rpc_error(INTERNAL_ERROR, "Internal error: the reply could not be encoded",
                                    getattr(message, "id", None))
                await write(doc)

    try:
        async with anyio.create_task_group() as group:
            group.start_soon(read_wire)
            group.start_soon(write_wire)
            yield read_stream, write_stream
            group.cancel_scope.cancel()
    finally:
        os.dup2(saved_in, 0)
        os.dup2(saved_out, 1)
        for fd in (saved_in, saved_out):
            os.close(fd)


def run_stdio(toolbox: Toolbox, *, timeout: float | None = None) -> None:
    """Serve ``toolbox`` on stdin/stdout until the client closes the connection."""
    import anyio

    server = build_server(toolbox, timeout=timeout)

    async def main() -> None:
        async with json_rpc_stdio() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    anyio.run(main)


__all__ = ["build_server", "check_message", "json_rpc_stdio", "run_stdio", "MAX_MESSAGE_BYTES"]
