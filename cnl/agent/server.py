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
in worker processes killed at the deadline: 504); at most ``max_pending`` requests that run
queries are admitted at once (503 beyond, with Retry-After), and ``/health`` is answered on the
event loop, so no query can block it. Every error is a JSON object
``{"error": {"type", "message", "status"}}`` — never a traceback. See docs/security.md.
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
    ModelEndpointError, ModelError, QueryRejected, QueryTimeout, ResultTooLarge, ServerConfigError,
    SPARQLSyntaxError, StoreError, ToolCallError, TranslatorUnavailable, UnknownIRIError, UnsupportedSPARQLError,
)
from cnl.sparql.compiler import compile_cnl
from cnl.version import __version__

NO_ANSWER_QUERY = "SELECT * WHERE { FILTER(false) }"  # valid SPARQL, no solutions
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
    query_workers: int = 2     # query processes per embedded dataset: queries running at once
    max_pending: int = 32      # requests that run queries admitted at once; 503 beyond

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
                          ("query_workers", 1), ("max_pending", 1)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value < low:
                raise ServerConfigError(f"{name} must be a number of at least {low}, not {value!r}")
        for ds in self.datasets.values():
            if not isinstance(ds.allow_service, list) or not all(isinstance(i, str) for i in ds.allow_service):
                raise ServerConfigError(f"dataset {ds.iri!r}: allow_service must be a list of endpoint IRIs")


def http_status(err: CNLError) -> int:
    """The HTTP status of an error: 4xx for bad input, 5xx for what the server cannot do."""
    for types_, status in (
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
                      "allow_service": tuple(config.allow_service)}
        if config.store is not None:
            self.toolbox = Toolbox.for_store(config.store, kg_profile=self.profile,
                                             kg_options=kg_options | {"workers": server.query_workers})
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

    from cnl.agent.tools import ALL_MODE, Toolbox
    from cnl.kg.limits import query_limits

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
        # \u-escapes: any text, even an unpaired surrogate in an echoed question, encodes
        def render(self, content) -> bytes:
            return json.dumps(content, ensure_ascii=True, allow_nan=False, separators=(",", ":")).encode("ascii")

    app = FastAPI(title="cnl2sparql", version=__version__, lifespan=lifespan, default_response_class=ASCIIJSONResponse,
                  description="Questions and CNL to SPARQL over knowledge graphs (read-only).")
    app.state.datasets = datasets
    pending = {"n": 0}  # requests running queries now (the event loop is one thread: no lock needed)

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
        """``func`` in a worker thread under the request's deadline: its queries are stopped at
        that deadline (query_limits), and the response does not wait past it either."""
        if queries and pending["n"] >= config.max_pending:
            raise ErrorResponse(503, "Busy", f"{config.max_pending} requests are running queries; try again shortly",
                                headers={"Retry-After": "1"})

        def bounded():
            with query_limits(timeout=config.timeout_s):
                return func(*args)

        pending["n"] += queries
        try:
            return await asyncio.wait_for(run_in_threadpool(bounded), config.timeout_s + 1.0)
        except asyncio.TimeoutError:
            raise ErrorResponse(504, "RequestTimeout", f"the request took longer than {config.timeout_s:g} s") from None
        finally:
            pending["n"] -= queries

    def error_response(kind: str, message: str, status: int, extra: dict | None = None, headers=None):
        return ASCIIJSONResponse(error_body(kind, message, status) | (extra or {}), status_code=status, headers=headers)

    @app.exception_handler(ErrorResponse)
    async def _own(request: Request, err: ErrorResponse):
        return error_response(err.kind, err.message, err.status, err.extra, err.headers)

    @app.exception_handler(CNLError)
    async def _cnl(request: Request, err: CNLError):
        return error_response(type(err).__name__, str(err), http_status(err))

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

    @app.middleware("http")
    async def _body_limit(request: Request, call_next):
        declared = request.headers.get("content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > config.max_body_bytes):
            return error_response("RequestTooLarge", f"request bodies are limited to {config.max_body_bytes} bytes", 413)
        if declared is None and request.method in ("POST", "PUT", "PATCH"):
            body = b""
            async for chunk in request.stream():  # chunked upload: count as it comes
                body += chunk
                if len(body) > config.max_body_bytes:
                    return error_response("RequestTooLarge",
                                          f"request bodies are limited to {config.max_body_bytes} bytes", 413)
            request._body = body
        return await call_next(request)

    # --- routes ---------------------------------------------------------------------------

    @app.get("/health")
    async def health() -> dict:
        # on the event loop, touching no store and no lock a query holds: always answers
        return {"status": "ok", "version": __version__, "datasets": list(datasets),
                "default_dataset": default_iri, "translator": _translator_health(config),
                "agent": bool(config.agent), "pending_requests": pending["n"],
                "query_workers": {iri: ds.status() for iri, ds in datasets.items()}}

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
                output = load_translator()(question)
                return ds.compile(getattr(output, "cnl", output)), "translate", None
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
        query, source, reason = await limited(text2sparql_query, question, ds)
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
            return {"sparql": sparql, "results": json.loads(result.to_json())}

        return await limited(work)

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
                                     status_code=status)
        return result.to_json()

    @app.get("/tools")
    def list_tools() -> list[dict]:
        return Toolbox.schemas(ALL_MODE)

    from cnl.agent.playground import add_playground_routes  # the page at / and its endpoints

    add_playground_routes(app, dataset_for=dataset_for, limited=limited, max_chars=config.max_question_chars,
                          use_translator=config.use_translator)
    return app


def _translator_health(config: ServerConfig) -> dict | bool:
    """The learned parser's state for /health, without loading it."""
    if not config.use_translator:
        return False
    import sys

    if "cnl.learn.inference" not in sys.modules:  # never asked for yet
        return {"loaded": False, "loading": False, "error": None}
    return sys.modules["cnl.learn.inference"].translator_status()


def _preload_translator() -> None:
    """Load the learned parser before serving (``--preload``); a failure is shown by /health and
    the next request tries again."""
    import sys

    try:
        from cnl.learn.base_model import require_model_stack
        from cnl.learn.inference import get_translator

        require_model_stack()
        get_translator()
    except CNLError as err:
        print(f"warning: the learned parser did not load: {err}", file=sys.stderr)


def serve(config: ServerConfig, host: str = "127.0.0.1", port: int = 8000, log_level: str = "info") -> None:
    import uvicorn

    uvicorn.run(create_app(config), host=host, port=port, log_level=log_level,
                limit_concurrency=256, timeout_keep_alive=10)
