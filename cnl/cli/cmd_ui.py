"""`cnl2sparql ui`: the playground page in the browser (`serve` with the page opened for you)."""
from __future__ import annotations

import sys

from cnl.cli.cmd_kg import positive_float


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "ui", help="start the server and open the playground page (question -> CNL -> SPARQL -> answers)")
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--store", help="the embedded store to query (e.g. .cache/slice)")
    source.add_argument("--config", help="a server configuration (see `cnl2sparql serve --help`)")
    parser.add_argument("--host", default="127.0.0.1", help="bind address (default: loopback only)")
    parser.add_argument("--port", type=int, default=8000,
                        help="port (default 8000; another free one when it is taken)")
    parser.add_argument("--timeout", type=positive_float, default=None,
                        help="seconds per request (default 30)")
    parser.add_argument("--no-browser", action="store_true", help="only print the page's address")
    parser.add_argument("--log-level", default="warning")
    parser.set_defaults(func=run)


def free_port(host: str, wanted: int) -> int:
    """``wanted`` when nothing listens there, else a port the system picks."""
    import socket

    with socket.socket() as sock:
        try:
            sock.bind((host, wanted))
            return wanted
        except OSError:
            sock.bind((host, 0))
            return sock.getsockname()[1]


def open_when_up(url: str, open_browser: bool, timeout: float = 120.0) -> None:
    """Wait until the server answers, then say where the page is (and open it)."""
    import time
    import urllib.request
    import webbrowser

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url + "health", timeout=2):
                break
        except OSError:
            time.sleep(0.2)
    print(f"the playground is at {url} (Ctrl-C stops it)", file=sys.stderr, flush=True)
    if open_browser:
        webbrowser.open(url)


def run(args) -> int:
    import threading

    from cnl.agent.playground import preload_translator
    from cnl.agent.server import serve
    from cnl.cli.cmd_serve import config_from_args

    for name, default in (("dataset", None), ("query_workers", None), ("query_memory", None), ("cors_origin", []),
                          ("preload", False), ("allow_service", []), ("fallback_status", None)):
        setattr(args, name, getattr(args, name, default))
    config = config_from_args(args)
    port = free_port(args.host, args.port)
    host = f"[{args.host}]" if ":" in args.host else args.host
    url = f"http://{host}:{port}/"
    threading.Thread(target=open_when_up, args=(url, not args.no_browser), daemon=True).start()
    # the model loads while the page opens, not on the first question
    threading.Thread(target=preload_translator, daemon=True).start()
    serve(config, host=args.host, port=port, log_level=args.log_level)
    return 0
