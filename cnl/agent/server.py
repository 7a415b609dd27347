"""The HTTP API (FastAPI + uvicorn): the Text2SPARQL contract, compile, run, the tools, health.

``GET /text2sparql?question=…&dataset=…`` answers ``{"dataset", "question", "query"}`` as the
Text2SPARQL challenge asks. The question goes through, in order: the CNL compiler (a question
already written in CNL compiles deterministically), the learned parser (``cnl.translate``, when
installed), the agent (when a chat model is configured). When none of them yields a query the
answer is still a JSON object with a ``query`` — a valid SPARQL query with no solutions — and
an ``error``, under the configured ``fallback_status`` (503 by default; 200 for challenge
harnesses that only accept 200).

All queries are read-only (an update is refused with 403), and none may fetch from elsewhere
(SERVICE, LOAD: 403 naming the construct, unless the operator allows the target); requests
choose profiles by registered name only, never by file. Request bodies, questions and CNL are
size-limited (413/422/400); each request has a time limit that also stops its queries (they run
in worker processes killed at the deadline: 504) and its other work; at most ``max_pending``
requests that run queries are admitted at once (503 beyond, with Retry-After), and ``/health``
is answered on the event loop, so no query can block it. Each query worker has a memory ceiling
(507), short queries have a lane of their own, responses are capped in bytes (413), and
connections are bounded and timed (:mod:`cnl.agent.connections`); cross-origin requests are
refused unless the operator allows their origin (:mod:`cnl.agent.http_guard`). Every error is a
JSON object ``{"error": {"type", "message", "status"}}`` — never a traceback. See
docs/security.md.
"""
# no `from __future__ import annotations`: FastAPI must see the request models defined in create_app

import asyncio
import contextlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from cnl.errors import (
    CNLError, CNLSyntaxError, CompileError, EndpointError, EndpointUnreachable, KGError, LexiconError, LinkingError,
    ModelEndpointError, ModelError, QueryCapacityExceeded, QueryMemoryExceeded, QueryRejected, QueryTimeout,
    ResultTooLarge, ServerConfigError, SPARQLSyntaxError, StoreError, ToolCallError, TranslatorUnavailable,
    UnknownIRIError, UnsupportedSPARQLError,
)
from cnl.sparql.compiler import compile_cnl
from cnl.version import __version__

NO_ANSWER_QUERY = "SELECT * WHERE { FILTER(false) }"  # valid SPARQL, no solutions
CORS_ORIGIN = re.compile(r"https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?|https?://\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?")
_UNWRITABLE = re.compile("[\x00\ud800-\udfff]")
DEFAULT_DATASET = "http://www.wikidata.org/"


@dataclass
class DatasetConfig:
    iri: str
    store: str | None = None
    endpoint: str | None = None
    kg: str = "wikidata"                       # compiler profile: a name, or a TOML file the operator wrote
    profile: dict = field(default_factory=dict)  # profile options (statements, default_limit…)
    allow_service: list = field(default_factory=list)  # SERVICE/LOAD targets allowed (none by default)


@dataclass
class ServerConfig:
    datasets: dict[str, DatasetConfig]
    default_dataset: str | None = None
    timeout_s: float = 30.0
    max_body_bytes: int = 64 * 1024
    max_question_chars: int = 2000
    max_rows: int = 1000
    fallback_status: int = 503
    use_translator: bool = True
    preload_translator: bool = False   # load the learned parser at start-up, not on first use
    agent: dict | None = None  # {"base_url", "model", "api_key"?, "mode"?, "max_steps"?}
    query_workers: int = 2     # long-query slots per embedded dataset: queries past the fast lane at once
    fast_query_workers: int = 2  # query processes every query starts in (the fast lane)
    fast_lane_s: float = 0.5   # a query still running after this long moves to a long-query slot
    query_memory_mb: int = 1024  # data a query worker may use (RLIMIT_DATA); 507 past it
    max_pending: int = 32      # requests that run queries admitted at once; 503 beyond
    max_response_bytes: int = 4 * 1024 * 1024  # a response's JSON, counted as it is produced; 413 past it
    max_connections: int = 1000  # open connections; beyond, the longest-idle one is closed
    header_timeout_s: float = 10.0  # a new or idle connection must send a request head within this
    body_timeout_s: float = 10.0    # a request's body must arrive within this (408 past it)
    keep_alive_s: float = 5.0       # uvicorn's timeout_keep_alive: idle after a response
    cors_origins: list = field(default_factory=list)  # origins whose web pages may call the API (none)

    @classmethod
    def from_dict(cls, doc: dict) -> "ServerConfig":
        try:
            raw = doc.get("datasets") or {}
            datasets = {iri: DatasetConfig(iri, **spec) for iri, spec in raw.items()}
            options = {k: v for k, v in doc.items() if k != "datasets"}
            config = cls(datasets, **options)
        except TypeError as err:
            raise ServerConfigError(f"bad server configuration: {err}") from None
        config.validate()
        return config

    @classmethod
    def from_file(cls, path: str | Path) -> "ServerConfig":
        try:
            doc = json.loads(Path(path).read_text())
        except OSError as err:
            raise ServerConfigError(f"cannot read the server configuration {path}: {err}") from None
        except ValueError as err:
            raise ServerConfigError(f"the server configuration {path} is not valid JSON: {err}") from None
        return cls.from_dict(doc)

    def validate(self) -> None:
        if not self.datasets:
            raise ServerConfigError("the server configuration names no dataset")
        for ds in self.datasets.values():
            if (ds.store is None) == (ds.endpoint is None):
                raise ServerConfigError(f"dataset {ds.iri!r} needs exactly one of store or endpoint")
        if self.default_dataset is not None and self.default_dataset not in self.datasets:
            raise ServerConfigError(f"default_dataset {self.default_dataset!r} is not among the datasets")
        if not 100 <= self.fallback_status <= 599:
            raise ServerConfigError(f"fallback_status {self.fallback_status} is not an HTTP status")
        for name, low in (("timeout_s", 0.1), ("max_body_bytes", 1), ("max_question_chars", 1), ("max_rows", 1),
                          ("query_workers", 1), ("fast_query_workers", 0), ("fast_lane_s", 0.01),
                          ("query_memory_mb", 64), ("max_pending", 1), ("max_response_bytes", 1024),
                          ("max_connections", 8), ("header_timeout_s", 0.1), ("body_timeout_s", 0.1),
                          ("keep_alive_s", 0.1)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value < low:
                raise ServerConfigError(f"{name} must be a number of at least {low}, not {value!r}")
        if not isinstance(self.cors_origins, list) or not all(
                isinstance(o, str) and (o in ("*", "null") or CORS_ORIGIN.fullmatch(o)) for o in self.cors_origins):
            raise ServerConfigError("cors_origins must be a list of origins such as https://example.org "
                                    "(scheme, host and port only), \"null\" or \"*\"")
        for ds in self.datasets.values():
            if not isinstance(ds.allow_service, list) or not all(isinstance(i, str) for i in ds.allow_service):
                raise ServerConfigError(f"dataset {ds.iri!r}: allow_service must be a list of endpoint IRIs")


def http_status(err: CNLError) -> int:
    """The HTTP status of an error: 4xx for bad input, 5xx for what the server cannot do."""
    for types_, status in (
        ((QueryMemoryExceeded,), 507),
        ((QueryCapacityExceeded,), 503),
        ((QueryRejected,), 403),
        ((ToolCallError, CNLSyntaxError, SPARQLSyntaxError), 400),
        ((LexiconError, CompileError, UnsupportedSPARQLError, UnknownIRIError), 422),
        ((ResultTooLarge,), 413),
        ((QueryTimeout,), 504),
        ((EndpointUnreachable, EndpointError, ModelEndpointError), 502),
        ((TranslatorUnavailable, ModelError, StoreError, LinkingError), 503),
        ((KGError,), 422),  # a query the store could not evaluate
    ):
        if isinstance(err, types_):
            return status
    return 400


def error_body(kind: str, message: str, status: int) -> dict:
    return {"error": {"type": kind, "message": message, "status": status}}


class Dataset:
    """One configured dataset: its KG connection and its toolbox (search indices, lexicon)."""

    def __init__(self, config: DatasetConfig, server: "ServerConfig") -> None:
        from cnl.agent.tools import Toolbox
        from cnl.kg import open_kg
        from cnl.sparql.profiles import get_profile

        self.config = config
        # the operator's profile (a name or a file), resolved once; requests only name registered ones
        self.profile = get_profile(config.kg, **config.profile)
        kg_options = {"max_rows": server.max_rows, "timeout": server.timeout_s,
                      "allow_service": tuple(config.allow_service), "max_bytes": server.max_response_bytes}
        if config.store is not None:
            store_options = {"workers": server.query_workers, "fast_workers": server.fast_query_workers,
                             "fast_lane_s": server.fast_lane_s, "memory_limit": server.query_memory_mb << 20}
            self.toolbox = Toolbox.for_store(config.store, kg_profile=self.profile,
                                             kg_options=kg_options | store_options)
            self.toolbox.kg.warm()  # the query workers start now, not on the first request
        else:
            self.toolbox = Toolbox(open_kg(endpoint=config.endpoint, **kg_options), kg_profile=self.profile)
        # built now, not by the first requests racing for them: the lexicon and the LALR tables
        _ = self.toolbox.lexicon
        self.compile("What has <P57> <Q25191>?")

    def compile(self, cnl: str, profile=None) -> str:
        return compile_cnl(cnl, kg=profile or self.profile, resolver=self.toolbox.lexicon)

    def status(self) -> dict:
        status = getattr(self.toolbox.kg, "status", None)
        return status() if status is not None else {}

    def close(self) -> None:
        self.toolbox.kg.close()


def create_app(config: ServerConfig):
    """The FastAPI application serving ``config``'s datasets."""
    from fastapi import Body, FastAPI, Query, Request
    from fastapi.exceptions import RequestValidationError
    from fastapi.responses import JSONResponse
    from pydantic import BaseModel, Field
    from starlette.concurrency import run_in_threadpool
    from starlette.exceptions import HTTPException as StarletteHTTPException

    from cnl.agent.http_guard import REQUEST_CANCEL, RequestGuard
    from cnl.agent.tools import ALL_MODE, Toolbox
    from cnl.kg.limits import Cancellation, query_limits

    datasets = {}
    try:
        for iri, ds in config.datasets.items():
            datasets[iri] = Dataset(ds, config)
    except BaseException:
        for ds in datasets.values():
            ds.close()
        raise
    default_iri = config.default_dataset or next(iter(datasets))
    if config.use_translator and config.preload_translator:
        _preload_translator()

    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        for ds in datasets.values():
            ds.close()

    class ASCIIJSONResponse(JSONResponse):
        # \u-escapes: any text, even an unpaired surrogate in an echoed question, encodes.
        # The bytes are counted as they are produced: past max_response_bytes it stops.
        def render(self, content) -> bytes:
            try:
                return encode_capped(content, config.max_response_bytes)
            except ResponseTooLarge:
                raise ErrorResponse(413, "ResultTooLarge",
                                    f"the response is over the {config.max_response_bytes:,}-byte limit "
                                    f"(max_response_bytes); add a LIMIT or ask for fewer columns") from None

    # /docs is our own page (cnl/agent/api_docs.py): FastAPI's loads Swagger UI from a CDN, blank offline
    app = FastAPI(title="cnl2sparql", version=__version__, lifespan=lifespan, default_response_class=ASCIIJSONResponse,
                  description="Questions and CNL to SPARQL over knowledge graphs (read-only).",
                  docs_url=None, redoc_url=None)
    app.state.datasets = datasets
    # requests running queries now, until their work has stopped (the event loop is one thread: no lock)
    pending = {"n": 0}

    class ErrorResponse(Exception):
        def __init__(self, status: int, kind: str, message: str, extra: dict | None = None, headers=None) -> None:
            self.status, self.kind, self.message, self.extra = status, kind, message, extra or {}
            self.headers = headers

    def dataset_for(iri: str | None) -> Dataset:
        iri = iri or default_iri
        if iri not in datasets:
            raise ErrorResponse(404, "UnknownDataset", f"unknown dataset {iri!r}; known: {', '.join(datasets)}")
        return datasets[iri]

    async def limited(func, *args, queries: bool = True):
        """``func`` in a worker thread under the request's deadline and cancellation: its queries
        are stopped at that deadline (query_limits) or as soon as the request ends (the client
        left, or the 504 was sent), its other work at its next check_deadline; the response does
        not wait past the deadline either. ``pending`` counts the work until it has stopped."""
        if queries and pending["n"] >= config.max_pending:
            raise ErrorResponse(503, "Busy", f"{config.max_pending} requests are running queries; try again shortly",
                                headers={"Retry-After": "1"})
        cancel = REQUEST_CANCEL.get() or Cancellation()

        def bounded():
            with query_limits(timeout=config.timeout_s, cancel=cancel):
                return func(*args)

        def stopped(done) -> None:
            pending["n"] -= queries
            if not done.cancelled():
                done.exception()  # retrieved: an error after a 504 is not logged as unhandled

        pending["n"] += queries
        work = asyncio.ensure_future(run_in_threadpool(bounded))
        work.add_done_callback(stopped)
        try:
            return await asyncio.wait_for(asyncio.shield(work), config.timeout_s + 0.5)
        except asyncio.TimeoutError:
            cancel.cancel("its deadline passed")
            raise ErrorResponse(504, "RequestTimeout", f"the request took longer than {config.timeout_s:g} s") from None
        except asyncio.CancelledError:
            cancel.cancel("the request was cancelled")
            raise

    def error_response(kind: str, message: str, status: int, extra: dict | None = None, headers=None):
        return ASCIIJSONResponse(error_body(kind, message, status) | (extra or {}), status_code=status, headers=headers)

    @app.exception_handler(ErrorResponse)
    async def _own(request: Request, err: ErrorResponse):
        return error_response(err.kind, err.message, err.status, err.extra, err.headers)

    @app.exception_handler(CNLError)
    async def _cnl(request: Request, err: CNLError):
        status = http_status(err)
        return error_response(type(err).__name__, str(err), status, headers=retry_after(status))

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, err: RequestValidationError):
        problems = "; ".join(f"{'.'.join(str(p) for p in e.get('loc', ()))}: {e.get('msg')}" for e in err.errors())
        return error_response("InvalidRequest", problems, 422)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, err: StarletteHTTPException):
        return error_response("HTTPError", str(err.detail), err.status_code)

    @app.exception_handler(Exception)
    async def _internal(request: Request, err: Exception):
        # no traceback leaves the server; the type is enough to report a bug
        return error_response("InternalError", f"internal error ({type(err).__name__})", 500)

    def render_error(status: int, kind: str, message: str) -> bytes:
        return json.dumps(error_body(kind, message, status), ensure_ascii=True).encode("ascii")

    # the guard reads and checks bodies and gives each request its cancellation; CORS (only for
    # the origins an operator allows) sits outside it, so that allowed preflights are answered
    app.add_middleware(RequestGuard, max_body_bytes=config.max_body_bytes, cors_origins=config.cors_origins,
                       render_error=render_error)
    if config.cors_origins:
        from starlette.middleware.cors import CORSMiddleware

        app.add_middleware(CORSMiddleware, allow_origins=list(config.cors_origins), allow_credentials=False,
                           allow_methods=["GET", "HEAD", "POST"], allow_headers=["Content-Type"], max_age=600)

    # --- routes ---------------------------------------------------------------------------

    @app.get("/health")
    async def health():
        # on the event loop, touching no store, no lock a query holds and no module being imported
        return ASCIIJSONResponse({
            "status": "ok", "version": __version__, "datasets": list(datasets),
            "default_dataset": default_iri, "translator": _translator_health(config),
            "agent": bool(config.agent), "pending_requests": pending["n"],
            "query_workers": {iri: ds.status() for iri, ds in datasets.items()}})

    app.add_api_route("/health", health, methods=["HEAD"], include_in_schema=False)  # monitors probe with HEAD

    def text2sparql_query(question: str, ds: Dataset) -> tuple[str | None, str, str | None]:
        """(query, source, reason for no query)."""
        reasons = []
        try:
            return ds.compile(question), "cnl", None
        except CNLSyntaxError:
            pass  # not CNL: a natural-language question
        except CNLError as err:
            reasons.append(f"as CNL: {err}")
        if config.use_translator:
            from cnl.agent.tools import load_translator

            try:
                # entities linked over the dataset's KG: the parser's prompt gets their candidates
                # and the parser can abstain ("hello") instead of guessing
                output = load_translator()(question, store=ds.config.store, kg=ds.toolbox.kg)
                text = getattr(output, "cnl", output)
                if text is None:  # the parser abstained, or wrote nothing that compiles
                    reasons.append(f"learned parser: {getattr(output, 'error', None) or 'no query'}")
                else:  # its own SPARQL resolved labels through the question's candidates first
                    return getattr(output, "sparql", None) or ds.compile(text), "translate", None
            except CNLError as err:
                reasons.append(f"learned parser: {err}")
        if config.agent:
            from cnl.agent.loop import ChatClient, ModelConfig, run_agent

            agent = dict(config.agent)
            mode, steps = agent.pop("mode", "cnl"), agent.pop("max_steps", 15)
            client = ChatClient(ModelConfig.from_env(**agent))
            try:
                result = run_agent(question, ds.toolbox, client, mode=mode, max_steps=steps)
            except CNLError as err:
                reasons.append(f"agent: {err}")
            else:
                if result.sparql:
                    return result.sparql, "agent", None
                reasons.append(f"agent: no query ({result.status})")
            finally:
                client.close()
        if not reasons:
            reasons.append("the question is not CNL and no learned parser or agent is configured")
        return None, "none", "; ".join(reasons)

    @app.get("/text2sparql", summary="Text2SPARQL challenge contract")
    async def text2sparql(question: str = Query(..., min_length=1, max_length=config.max_question_chars),
                          dataset: str | None = Query(None, description="dataset IRI")):
        ds = dataset_for(dataset)
        if _UNWRITABLE.search(question):
            raise ErrorResponse(422, "InvalidRequest", "the question contains a NUL or an unpaired surrogate")
        try:
            query, source, reason = await limited(text2sparql_query, question, ds)
        except ErrorResponse as err:
            if err.status != 504:
                raise
            # out of time (a first question also loads the parser): the documented fallback
            query, source, reason = None, "timeout", err.message
        doc = {"dataset": ds.config.iri, "question": question, "query": query or NO_ANSWER_QUERY}
        if query is None:
            doc |= error_body("NoTranslation", reason, config.fallback_status)
            return JSONResponse(doc, status_code=config.fallback_status, headers={"X-CNL-Source": source})
        return JSONResponse(doc, headers={"X-CNL-Source": source})

    class CompileRequest(BaseModel):
        cnl: str = Field(..., min_length=1, description="a SQUALL query")
        dataset: str | None = Field(None, description="dataset whose labels resolve [label] terms")
        kg: str | None = Field(None, description="a registered compiler profile: wikidata, rdf, a preset "
                                                 "(never a file); default: the dataset's")
        options: dict = Field(default_factory=dict, description="profile options, e.g. {\"default_limit\": 10}; "
                                                                 "each is type-checked")

    @app.post("/compile")
    async def compile_(request: CompileRequest) -> dict:
        from cnl.sparql.profiles import get_profile, named_profile

        ds = dataset_for(request.dataset)

        def work():
            if request.kg is not None:
                profile = named_profile(request.kg, dict(ds.config.profile) | request.options)
            else:
                profile = get_profile(ds.profile, **request.options)
            return ds.compile(request.cnl, profile)

        sparql = await limited(work, queries=False)
        return {"cnl": request.cnl, "sparql": sparql}

    class RunRequest(BaseModel):
        cnl: str | None = Field(None, description="a SQUALL query (or give sparql)")
        sparql: str | None = Field(None, description="a SPARQL SELECT or ASK query")
        dataset: str | None = None

    @app.post("/run")
    async def run(request: RunRequest):
        if (request.cnl is None) == (request.sparql is None):
            raise ErrorResponse(422, "InvalidRequest", "give exactly one of cnl or sparql")
        ds = dataset_for(request.dataset)

        def work():
            sparql = ds.compile(request.cnl) if request.cnl is not None else request.sparql
            result = ds.toolbox.kg.query(sparql)  # read-only: updates raise QueryRejected (403)
            if isinstance(result, bool):
                return {"sparql": sparql, "boolean": result}
            ds.toolbox.kg.add_labels(result)
            doc = {"sparql": sparql, "results": result.to_dict()}
            if not len(result):  # what can be known instead of nothing (issue 32)
                from cnl.kg.explain import explain_empty

                doc["why"] = [finding.message for finding in explain_empty(sparql, ds.toolbox.kg)]
            return doc

        return ASCIIJSONResponse(await limited(work))  # rendered here, its bytes counted: no copy

    @app.post("/tools/{name}")
    async def call_tool(name: str, arguments: dict = Body(default_factory=dict),
                        dataset: str | None = Query(None)):
        ds = dataset_for(dataset)
        if name not in Toolbox.tool_names(ALL_MODE):
            raise ErrorResponse(404, "UnknownTool", f"unknown tool {name!r}; available: "
                                f"{', '.join(Toolbox.tool_names(ALL_MODE))}")
        result = await limited(lambda: ds.toolbox.call(name, arguments, mode=ALL_MODE))
        if result.error is not None:  # the tool's text, under the status its error means
            status = http_status(result.error)
            return ASCIIJSONResponse(result.to_json() | error_body(type(result.error).__name__, str(result.error), status),
                                     status_code=status, headers=retry_after(status))
        return ASCIIJSONResponse(result.to_json())

    @app.get("/tools")
    def list_tools() -> list[dict]:
        return Toolbox.schemas(ALL_MODE)

    @app.get("/docs", include_in_schema=False)
    def docs_page():
        from fastapi.responses import HTMLResponse

        from cnl.agent.api_docs import CONTENT_SECURITY_POLICY, openapi_html

        return HTMLResponse(openapi_html(app.openapi()), headers={"Content-Security-Policy": CONTENT_SECURITY_POLICY})

    from cnl.agent.playground import add_playground_routes  # the page at / and its endpoints

    add_playground_routes(app, dataset_for=dataset_for, limited=limited, max_chars=config.max_question_chars,
                          use_translator=config.use_translator)
    return app


class ResponseTooLarge(Exception):
    pass


_ENCODER = json.JSONEncoder(ensure_ascii=True, allow_nan=False, separators=(",", ":"))  # one-shot: the C encoder


def encode_capped(content, limit: int) -> bytes:
    """``content`` as ASCII JSON, refused (ResponseTooLarge) as soon as it passes ``limit``
    bytes: the outer objects and lists are written part by part and each part (a result row, a
    text) is encoded by the C encoder and counted before the next, so an oversized answer is
    never encoded whole."""
    parts: list[str] = []
    size = 0

    def emit(text: str) -> None:
        nonlocal size
        size += len(text)
        if size > limit:
            raise ResponseTooLarge
        parts.append(text)

    dumps = _ENCODER.encode

    def walk(value, depth: int) -> None:
        if depth < 4 and isinstance(value, dict) and all(isinstance(k, str) for k in value):
            emit("{")
            for i, (key, item) in enumerate(value.items()):
                emit(("," if i else "") + dumps(key) + ":")
                walk(item, depth + 1)
            emit("}")
        elif depth < 4 and isinstance(value, (list, tuple)):
            emit("[")
            for i, item in enumerate(value):
                if i:
                    emit(",")
                walk(item, depth + 1)
            emit("]")
        else:
            emit(dumps(value))

    walk(content, 0)
    return "".join(parts).encode("ascii")


def retry_after(status: int) -> dict | None:
    """A 503 (busy: the long-query slots or the admitted requests) is worth retrying shortly."""
    return {"Retry-After": "1"} if status == 503 else None


def _translator_health(config: ServerConfig) -> dict | bool:
    """The learned parser's state for /health, without loading it or reading a half-imported
    module (a status that exists before any model import)."""
    if not config.use_translator:
        return False
    from cnl.agent.query_tools import TRANSLATOR

    return TRANSLATOR.status()


def _preload_translator() -> None:
    """Load the learned parser before serving (``--preload``); a failure is shown by /health and
    the next request tries again."""
    import sys

    from cnl.agent.query_tools import TRANSLATOR

    try:
        from cnl.learn.base_model import require_model_stack

        require_model_stack()
        TRANSLATOR.inference().get_translator()
    except CNLError as err:
        print(f"warning: the learned parser did not load: {err}", file=sys.stderr)


def serve(config: ServerConfig, host: str = "127.0.0.1", port: int = 8000, log_level: str = "info") -> None:
    """Serve ``config`` with uvicorn: its own keep-alive timeout and head-size bound, plus the
    connection limits of :mod:`cnl.agent.connections` (its ``limit_concurrency`` is left off:
    it counted idle connections and refused everyone beyond them, /health included)."""
    import uvicorn

    from cnl.agent.connections import guarded_protocol

    _raise_open_files(config.max_connections + 256)  # sockets, store files, worker pipes
    protocol = guarded_protocol(max_connections=config.max_connections, header_timeout=config.header_timeout_s,
                                body_timeout=config.body_timeout_s,
                                request_timeout=config.timeout_s + config.body_timeout_s + 30)
    uvicorn.run(create_app(config), host=host, port=port, log_level=log_level, http=protocol,
                limit_concurrency=None, timeout_keep_alive=config.keep_alive_s,
                h11_max_incomplete_event_size=16 * 1024)


def _raise_open_files(wanted: int) -> None:
    """Lift the soft limit on open files towards ``wanted`` (as far as the hard limit allows)."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
