"""`cnl2sparql serve`: the HTTP API (Text2SPARQL contract, compile, run, tools, health)."""
from __future__ import annotations


from cnl.cli.cmd_kg import add_allow_service, positive_float, positive_int


def register(subparsers) -> None:
    parser = subparsers.add_parser("serve", help="serve the Text2SPARQL / compile / run / tools HTTP API")
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--config", help="JSON configuration: datasets by IRI and limits (see docs/agent.md)")
    source.add_argument("--store", help="serve one embedded store as a single dataset")
    parser.add_argument("--dataset", default=None,
                        help="the IRI of the --store dataset (default: http://www.wikidata.org/)")
    parser.add_argument("--host", default="127.0.0.1", help="bind address (default: loopback only)")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--timeout", type=positive_float, default=None,
                        help="seconds per request, its queries included (default 30; 504 past it)")
    parser.add_argument("--query-workers", type=positive_int, default=None,
                        help="long queries (past the 0.5 s fast lane) that may run at once per store (default 2)")
    parser.add_argument("--query-memory", type=positive_int, default=None, metavar="MIB",
                        help="memory a query worker may use, in MiB (default 1024); a query past it gets 507")
    parser.add_argument("--cors-origin", action="append", default=[], metavar="ORIGIN",
                        help="let web pages from this origin (e.g. https://example.org) call the API; repeatable, "
                             "'*' for any. Default: no cross-origin access (403)")
    parser.add_argument("--preload", action="store_true",
                        help="load the learned parser at start-up instead of on the first question")
    add_allow_service(parser)
    parser.add_argument("--fallback-status", type=int, default=None,
                        help="HTTP status of /text2sparql when no query can be produced (default 503)")
    parser.add_argument("--log-level", default="info")
    parser.set_defaults(func=run)


def config_from_args(args):
    from cnl.agent.server import DEFAULT_DATASET, ServerConfig

    if args.config:
        config = ServerConfig.from_file(args.config)
    else:
        iri = args.dataset or DEFAULT_DATASET
        config = ServerConfig.from_dict({"datasets": {iri: {"store": args.store}}})
    if args.timeout is not None:
        config.timeout_s = args.timeout
    if args.query_workers is not None:
        config.query_workers = args.query_workers
    if args.query_memory is not None:
        config.query_memory_mb = args.query_memory
    config.cors_origins = list(config.cors_origins) + list(args.cors_origin)
    if args.preload:
        config.preload_translator = True
    for ds in config.datasets.values():
        ds.allow_service = list(ds.allow_service) + list(args.allow_service)
    if args.fallback_status is not None:
        config.fallback_status = args.fallback_status
    config.validate()
    return config


def run(args) -> int:
    from cnl.agent.server import serve

    serve(config_from_args(args), host=args.host, port=args.port, log_level=args.log_level)
    return 0
