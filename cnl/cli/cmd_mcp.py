"""`cnl2sparql mcp --store DIR`: the agent tools as an MCP server on stdio."""
from __future__ import annotations


from cnl.cli.cmd_kg import add_allow_service, positive_float, positive_int


def register(subparsers) -> None:
    parser = subparsers.add_parser("mcp", help="serve the KG tools to MCP clients over stdio")
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--store", help="embedded store folder (see `kg load`)")
    where.add_argument("--endpoint", help="SPARQL endpoint URL (no search indices)")
    parser.add_argument("--know-before-use", action="store_true",
                        help="refuse IDs that no earlier tool call showed")
    parser.add_argument("--timeout", type=positive_float, default=30.0,
                        help="seconds a tool call may take, its queries included (default 30)")
    parser.add_argument("--query-memory", type=positive_int, default=1024, metavar="MIB",
                        help="memory a query worker may use, in MiB (default 1024)")
    add_allow_service(parser)
    parser.set_defaults(func=run)


def run(args) -> int:
    from cnl.agent.mcp_server import run_stdio
    from cnl.agent.tools import Toolbox
    from cnl.errors import OptionalDependencyMissing
    from cnl.kg import open_kg

    try:
        import mcp  # noqa: F401
    except ImportError:
        raise OptionalDependencyMissing("the MCP server", "mcp", "pip install 'cnl2sparql[agent]'") from None
    kg_options = {"timeout": args.timeout, "allow_service": args.allow_service}
    if args.store:
        toolbox = Toolbox.for_store(args.store, know_before_use=args.know_before_use,
                                    kg_options=kg_options | {"memory_limit": args.query_memory << 20})
    else:
        toolbox = Toolbox(open_kg(endpoint=args.endpoint, **kg_options), know_before_use=args.know_before_use)
    try:
        run_stdio(toolbox, timeout=args.timeout)
    finally:
        toolbox.kg.close()
    return 0
