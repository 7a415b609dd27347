"""The tools as an MCP server over stdio (`cnl2sparql mcp`), for any MCP-capable assistant.

The tool list and input schemas are exactly :meth:`Toolbox.schemas` (mode ``all``: the search
tools, ``execute_sparql``, ``execute_cnl``, ``translate``, ``answer``, ``cancel``); a tool's
input error comes back as an MCP error result with the same text the agent loop would see.
"""
from __future__ import annotations

from cnl.agent.tools import ALL_MODE, Toolbox
from cnl.errors import CNLError
from cnl.version import __version__


def build_server(toolbox: Toolbox):
    """A low-level MCP server whose tools call ``toolbox``."""
    import mcp_types as types
    from mcp.server.lowlevel.server import Server


    schemas = {s["function"]["name"]: s["function"] for s in toolbox.schemas(ALL_MODE)}

    async def list_tools(ctx, params) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[
            types.Tool(name=name, description=f["description"], input_schema=f["parameters"])
            for name, f in schemas.items()])

    async def call_tool(ctx, params) -> types.CallToolResult:
        from starlette.concurrency import run_in_threadpool

        try:
            result = await run_in_threadpool(
                lambda: toolbox.call(params.name, dict(params.arguments or {}), mode=ALL_MODE))
        except CNLError as err:
            return types.CallToolResult(content=[types.TextContent(type="text", text=f"error: {err}")],
                                        is_error=True)
        return types.CallToolResult(content=[types.TextContent(type="text", text=result.text)],
                                    structured_content=result.to_json(), is_error=not result.ok)

    return Server("cnl2sparql", version=__version__,
                  instructions="Query a knowledge graph: search entities and properties, then write "
                               "SQUALL CNL (execute_cnl) or SPARQL (execute_sparql).",
                  on_list_tools=list_tools, on_call_tool=call_tool)


def run_stdio(toolbox: Toolbox) -> None:
    """Serve ``toolbox`` on stdin/stdout until the client closes the connection."""
    import anyio
    from mcp.server.stdio import stdio_server

    server = build_server(toolbox)

    async def main() -> None:
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    anyio.run(main)
