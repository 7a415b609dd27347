"""The HTTP API (FastAPI + uvicorn): the Text2SPARQL contract, compile, run, the tools, health.

``GET /text2sparql?question=…&dataset=…`` answers ``{"dataset", "question", "query"}`` as the
Text2SPARQL challenge asks. The question goes through, in order: the CNL compiler (a question
already written in CNL compiles deterministically), the learned parser (``cnl.translate``, when
installed), the agent (when a chat model is configured). When none of them yields a query the
answer is still a JSON object with a ``query`` — a valid SPARQL query with no solutions — and
an ``error``, under the configured ``fallback_status`` (503 by default; 200 for challenge
harnesses that only accept 200).

All queries are read-only (an update is refused with 403); request bodies and questions are
size-limited (413/422); each request has a time limit (504); every error is a JSON object
``{"error": {"type", "message", "status"}}`` — never a traceback.
"""
# no `from __future__ import annotations`: FastAPI must see the request models defined in create_app

import asyncio
import contextlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from cnl.errors import (
    CNLError, CNLSyntaxError, CompileError, EndpointError, EndpointUnreachable, LexiconError,
    ModelEndpointError, QueryRejected, QueryTimeout, ResultTooLarge, ServerConfigError,
    SPARQLSyntaxError, ToolCallError, TranslatorUnavailable, UnknownIRIError, UnsupportedSPARQLError,
)
from cnl.sparql.compiler import compile_cnl
from cnl.version import __version__

NO_ANSWER_QUERY = "SELECT * WHERE { FILTER(false) }"  # valid SPARQL, no solutions
DEFAULT_DATASET = "http://www.wikidata.org/"


@dataclass
class DatasetConfig:
    iri: str
    store: str | None = None
    endpoint: str | None = None
    kg: str = "wikidata"                       # compiler profile
    profile: dict = field(default_factory=dict)  # profile options (statements, default_limit…)


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
    agent: dict | None = None  # {"base_url", "model", "api_key"?, "mode"?, "max_steps"?}

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


def http_status(err: CNLError) -> int:
    """The HTTP status of an error: 4xx for bad input, 5xx for what the server cannot do."""
    for types_, status in (
        ((QueryRejected,), 403),
        ((ToolCallError, CNLSyntaxError, SPARQLSyntaxError), 400),
        ((LexiconError, CompileError, UnsupportedSPARQLError, UnknownIRIError), 422),
        ((ResultTooLarge,), 413),
        ((QueryTimeout,), 504),
        ((EndpointUnreachable, EndpointError, ModelEndpointError), 502),
        ((TranslatorUnavailable,), 503),
    ):
        if isinstance(err, types_):
            return status
    return 500 if type(err).__name__ in ("StoreError", "KGError", "LinkingError") else 400


def error_body(kind: str, message: str, status: int) -> dict:
    return {"error": {"type": kind, "message": message, "status": status}}


class Dataset:
    """One configured dataset: its KG connection and its toolbox (search indices, lexicon)."""

    def __init__(self, config: DatasetConfig, max_rows: int) -> None:
        from cnl.agent.tools import Toolbox
        from cnl.kg import open_kg

        self.config = config
        if config.store is not None:
            self.toolbox = Toolbox.for_store(config.store, kg_profile=config.kg,
                                             profile_options=dict(config.profile))
            self.toolbox.kg.max_rows = max_rows
        else:
            self.toolbox = Toolbox(open_kg(endpoint=config.endpoint, max_rows=max_rows),
                                   kg_profile=config.kg, profile_options=dict(config.profile))
        # built now, not by the first requests racing for them: the lexicon and the LALR tables
        _ = self.toolbox.lexicon
        self.compile("What has <P57> <Q25191>?")

    def compile(self, cnl: str) -> str:
        return compile_cnl(cnl, kg=self.config.kg, resolver=self.toolbox.lexicon, **self.config.profile)

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

    datasets = {iri: Dataset(ds, config.max_rows) for iri, ds in config.datasets.items()}
    default_iri = config.default_dataset or next(iter(datasets))
    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        for ds in datasets.values():
            ds.close()

    app = FastAPI(title="cnl2sparql", version=__version__, lifespan=lifespan,
                  description="Questions and CNL to SPARQL over knowledge graphs (read-only).")
    app.state.datasets = datasets

    class ErrorResponse(Exception):
        def __init__(self, status: int, kind: str, message: str, extra: dict | None = None) -> None:
            self.status, self.kind, self.message, self.extra = status, kind, message, extra or {}

    def dataset_for(iri: str | None) -> Dataset:
        iri = iri or default_iri
        if iri not in datasets:
            raise ErrorResponse(404, "UnknownDataset", f"unknown dataset {iri!r}; known: {', '.join(datasets)}")
        return datasets[iri]

    async def limited(func, *args):
        try:
            return await asyncio.wait_for(run_in_threadpool(func, *args), config.timeout_s)
        except asyncio.TimeoutError:
            raise ErrorResponse(504, "RequestTimeout", f"the request took longer than {config.timeout_s:g} s") from None

    @app.exception_handler(ErrorResponse)
    async def _own(request: Request, err: ErrorResponse):
        return JSONResponse(error_body(err.kind, err.message, err.status) | err.extra, status_code=err.status)

    @app.exception_handler(CNLError)
    async def _cnl(request: Request, err: CNLError):
        status = http_status(err)
        return JSONResponse(error_body(type(err).__name__, str(err), status), status_code=status)

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, err: RequestValidationError):
        problems = "; ".join(f"{'.'.join(str(p) for p in e.get('loc', ()))}: {e.get('msg')}" for e in err.errors())
        return JSONResponse(error_body("InvalidRequest", problems, 422), status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, err: StarletteHTTPException):
        return JSONResponse(error_body("HTTPError", str(err.detail), err.status_code), status_code=err.status_code)

    @app.exception_handler(Exception)
    async def _internal(request: Request, err: Exception):
        # no traceback leaves the server; the type is enough to report a bug
        return JSONResponse(error_body("InternalError", f"internal error ({type(err).__name__})", 500),
                            status_code=500)

    @app.middleware("http")
    async def _body_limit(request: Request, call_next):
        declared = request.headers.get("content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > config.max_body_bytes):
            return JSONResponse(error_body("RequestTooLarge", f"request bodies are limited to "
                                           f"{config.max_body_bytes} bytes", 413), status_code=413)
        if declared is None and request.method in ("POST", "PUT", "PATCH"):
            body = b""
            async for chunk in request.stream():  # chunked upload: count as it comes
                body += chunk
                if len(body) > config.max_body_bytes:
                    return JSONResponse(error_body("RequestTooLarge", f"request bodies are limited to "
                                                   f"{config.max_body_bytes} bytes", 413), status_code=413)
            request._body = body
        return await call_next(request)

    # --- routes ---------------------------------------------------------------------------

    @app.get("/health")
    def health() -> dict:
        from cnl.agent.tools import load_translator

        try:
            load_translator()
            translator = True
        except CNLError:
            translator = False
        return {"status": "ok", "version": __version__, "datasets": list(datasets),
                "default_dataset": default_iri, "translator": translator and config.use_translator,
                "agent": bool(config.agent)}

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
        query, source, reason = await limited(text2sparql_query, question, ds)
        doc = {"dataset": ds.config.iri, "question": question, "query": query or NO_ANSWER_QUERY}
        if query is None:
            doc |= error_body("NoTranslation", reason, config.fallback_status)
            return JSONResponse(doc, status_code=config.fallback_status, headers={"X-CNL-Source": source})
        return JSONResponse(doc, headers={"X-CNL-Source": source})

    class CompileRequest(BaseModel):
        cnl: str = Field(..., min_length=1, description="a SQUALL query")
        dataset: str | None = Field(None, description="dataset whose labels resolve [label] terms")
        kg: str | None = Field(None, description="compiler profile: wikidata or rdf")
        options: dict = Field(default_factory=dict, description="profile options, e.g. {\"default_limit\": 10}")

    @app.post("/compile")
    async def compile_(request: CompileRequest) -> dict:
        ds = dataset_for(request.dataset)

        def work():
            profile = dict(ds.config.profile) | request.options
            return compile_cnl(request.cnl, kg=request.kg or ds.config.kg, resolver=ds.toolbox.lexicon, **profile)

        try:
            sparql = await limited(work)
        except TypeError as err:  # an unknown profile option
            raise ErrorResponse(422, "InvalidOption", str(err)) from None
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
        return result.to_json()

    @app.get("/tools")
    def list_tools() -> list[dict]:
        return Toolbox.schemas(ALL_MODE)

    return app


def serve(config: ServerConfig, host: str = "127.0.0.1", port: int = 8000, log_level: str = "info") -> None:
    import uvicorn

    uvicorn.run(create_app(config), host=host, port=port, log_level=log_level,
                limit_concurrency=256, timeout_keep_alive=10)
