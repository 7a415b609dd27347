"""The MCP server over stdio: a real `cnl2sparql mcp` subprocess and the `mcp` package's client."""
from __future__ import annotations

import sys

import anyio
import pytest

from tests.test_agent_server import TTL

pytest.importorskip("mcp")


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    from cnl.kg.embedded import EmbeddedKG

    folder = tmp_path_factory.mktemp("mcp")
    (folder / "g.ttl").write_text(TTL)
    with EmbeddedKG(folder / "store") as kg:
        kg.load(folder / "g.ttl", progress=False)
    return folder


async def _session(store_folder, calls):
    from mcp.client.client import Client
    from mcp.client.stdio import StdioServerParameters

    import os
    from pathlib import Path

    env = dict(os.environ, CNL_CACHE_DIR=str(store_folder / "cache"),
               PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    params = StdioServerParameters(command=sys.executable, args=["-m", "cnl", "mcp", "--store",
                                                                 str(store_folder / "store")], env=env)
    async with Client(params, read_timeout_seconds=60) as client:
        tools = await client.list_tools()
        results = [await client.call_tool(name, args) for name, args in calls]
    return tools, results


def test_mcp_lists_tools_and_runs_cnl(store):
    tools, (ok, broken) = anyio.run(_session, store, [
        ("execute_cnl", {"cnl": "Has <Q25188> a <P57> <Q25191>?"}),
        ("execute_cnl", {"cnl": "What has has <P57> <Q25191>?"}),
    ])
    names = {t.name for t in tools.tools}
    assert names == {"search_entity", "search_property", "search_property_of_entity",
                     "search_object_of_property", "list_triples", "execute_sparql", "execute_cnl",
                     "translate", "answer", "cancel", "complete_cnl"}
    execute = next(t for t in tools.tools if t.name == "execute_cnl")
    assert execute.input_schema["required"] == ["cnl"]
    assert not ok.is_error and "result:\nyes" in ok.content[0].text
    assert broken.is_error and "column 10" in broken.content[0].text and "^" in broken.content[0].text
