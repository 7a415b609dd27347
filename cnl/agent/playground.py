"""The playground: a web page at ``/`` where a person asks a question, reads and fixes the CNL
with completions, and sees the SPARQL and the answers; and the endpoints it uses.

``GET /`` serves the page and ``GET /static/…`` its assets (shipped in the package, built once
with npm: ``web/``), under an explicit Content-Security-Policy: scripts, styles and requests
only from this server, no inline script, no framing. The page calls

* ``POST /translate`` {question} → the learned parser's CNL, its n-best alternatives, the SPARQL
  and the entity candidates (entities linked over the dataset's KG);
* ``POST /complete`` {cnl, cursor} → what may be written at the cursor (:mod:`cnl.linking.completion`:
  the grammar's LALR state for the words, the KG for the terms); the agent tool ``complete_cnl``
  is the same call;
* ``POST /analyze`` {cnl} → the terms with their IDs and descriptions (highlighting, tooltips),
  the first error with its position, message and hint (the underline), and the SPARQL;
* ``POST /run`` (the API's) → the answers.

Routes are added to the server's app by :func:`add_playground_routes` with the server's own
request deadline and admission limit, so they are bounded like every other endpoint.
"""
# no `from __future__ import annotations`: FastAPI must see the request models defined in add_playground_routes
import collections
import re
import secrets
import threading
import weakref
from importlib import resources

from cnl.errors import CNLError, CNLSyntaxError, LexiconError, OptionalDependencyMissing, TranslatorUnavailable
from cnl.linking.resolver import pin_terms

# Scripts, styles, images and requests from this server only; no inline script, no plugin, no
# framing, no form posted elsewhere. Two allowances, both for the editor: CodeMirror writes its
# theme into a <style> element, allowed by a nonce drawn for each page (CONTENT_SECURITY_POLICY
# with {nonce} filled; the assets are served under the policy without it), and the browser's own
# editing of a contenteditable (typing over a selection) sets style attributes, which cannot run
# script (style-src-attr; <style> elements and stylesheets still need 'self' or the nonce).
CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'{nonce}; style-src-attr 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'none'; frame-ancestors 'none'")
OTHER_HEADERS = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY"}
NONCE_PLACEHOLDER = b"{{csp-nonce}}"


def content_security_policy(nonce: str | None = None) -> str:
    """The policy of the page (with the nonce its editor's <style> element carries) or of an asset."""
    return CONTENT_SECURITY_POLICY.format(nonce=f" 'nonce-{nonce}'" if nonce else "")
STATIC_TYPES = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
                ".svg": "image/svg+xml", ".png": "image/png", ".html": "text/html; charset=utf-8"}
_STATIC_NAME = re.compile(r"^[a-z0-9][a-z0-9._-]{0,63}$")
ID_PATTERN = r"^(?:Q|P)[0-9]{1,12}$"
WIKIDATA_ITEM = "https://www.wikidata.org/wiki/"
WDQS = "https://query.wikidata.org/#"
MAX_CANDIDATES = 50

_completers: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
_completers_lock = threading.Lock()
_translate_lock = threading.Lock()  # one generation at a time: the model is shared
# the last readings, by (store, profile, question, beams): a question asked again (a reload, a
# second tab, going back) answers at once instead of generating again; the parser is deterministic
_READINGS: "collections.OrderedDict" = collections.OrderedDict()
MAX_READINGS = 128


def static_file(name: str) -> tuple[bytes, str] | None:
    """The bytes and content type of a shipped asset, or None (no such file, or a name that
    is not a plain file name of a known type)."""
    if not _STATIC_NAME.match(name) or ".." in name:
        return None
    suffix = name[name.rfind("."):] if "." in name else ""
    if suffix not in STATIC_TYPES:
        return None
    path = resources.files("cnl.agent").joinpath("static", name)
    try:
        return path.read_bytes(), STATIC_TYPES[suffix]
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        return None


def completer_for(toolbox):
    """The :class:`~cnl.linking.completion.Completer` of a toolbox's KG (one per toolbox, kept:
    it caches the properties found around each entity)."""
    with _completers_lock:
        completer = _completers.get(toolbox)
        if completer is None:
            from cnl.linking.completion import Completer

            profile = toolbox.kg_profile
            class_predicate = getattr(profile, "class_predicate", "wdt:P31") if not isinstance(profile, str) else (
                "wdt:P31" if profile.startswith("wikidata") else "rdf:type")
            completer = Completer(toolbox.kg, entities=toolbox.entities, properties=toolbox.properties,
                                  resolver=toolbox.lexicon, class_predicate=class_predicate,
                                  prefixes=getattr(profile, "prefixes", None))
            _completers[toolbox] = completer
        return completer


def is_wikidata(profile) -> bool:
    name = profile if isinstance(profile, str) else getattr(profile, "name", "")
    return name.startswith("wikidata")


def item_url(ident: str | None, wikidata: bool) -> str | None:
    """A link to an item or property page: Wikidata's for its IDs, the IRI itself otherwise."""
    if not ident:
        return None
    if wikidata and re.match(r"^[PQ][0-9]+$", ident):
        return WIKIDATA_ITEM + ("Property:" + ident if ident.startswith("P") else ident)
    return ident if re.match(r"^https?://[^\s<>\"]+$", ident) else None


def analyze(cnl: str, compile_fn, lexicon, entities=None, *, wikidata: bool = True) -> dict:
    """What the page shows of a CNL text: its terms (kind, offsets, ID, label, description,
    link, or why the label does not resolve), the first error with its offsets, and the SPARQL.
    Offsets are character offsets into ``cnl`` as given."""
    from cnl.dialects.squall.completion import terms_in

    lead = len(cnl) - len(cnl.lstrip())
    terms = []
    for term in terms_in(cnl):
        kind = term.kind
        entry = {"kind": kind, "from": term.start, "to": term.end, "text": term.text, "label": term.label,
                 "id": term.id}
        if term.id is None and term.label:
            try:
                entry["id"] = lexicon.resolve(term.label, kind) if lexicon is not None else None
            except LexiconError as err:
                entry["problem"] = str(err).splitlines()[0]
                entry["suggestions"] = list(err.suggestions) + list(err.candidates)
        if entry["id"]:
            entry["url"] = item_url(entry["id"], wikidata)
            described = _describe(entry["id"], lexicon, entities)
            entry["description"] = described[1]
            entry["name"] = described[0]
        terms.append(entry)
    out = {"cnl": cnl, "terms": terms, "ok": False, "wikidata": wikidata}
    try:
        sparql = compile_fn(cnl)
    except CNLSyntaxError as err:
        start = _offset(cnl.strip(), err.line, err.column) + lead
        length = len(err.token) if err.token else 0
        out["error"] = {"type": "syntax", "message": err.reason, "from": start, "to": min(len(cnl), start + max(length, 1)),
                        "token": err.token, "expected": list(err.expected), "hint": err.hint, "text": str(err)}
    except LexiconError as err:
        start = lead + err.position if err.position is not None else 0
        span = next(((t["from"], t["to"]) for t in terms if t["from"] <= start < t["to"]), (start, start + 1))
        out["error"] = {"type": "label", "message": str(err).splitlines()[0], "from": span[0], "to": span[1],
                        "suggestions": list(err.suggestions) + list(err.candidates), "text": str(err)}
    except CNLError as err:
        out["error"] = {"type": type(err).__name__, "message": str(err).splitlines()[0], "from": lead,
                        "to": len(cnl.rstrip()), "text": str(err)}
    else:
        out["ok"] = True
        out["sparql"] = sparql
        if wikidata:
            from urllib.parse import quote

            out["wdqs"] = WDQS + quote(sparql, safe="")
    return out


def _describe(ident: str, lexicon, entities) -> tuple[str | None, str | None]:
    """(name, description) of an ID from the entity index or the lexicon."""
    if entities is not None:
        entity = entities.get(ident)
        if entity is not None:
            return entity.label, entity.description or None
    if lexicon is not None:
        return lexicon.name(ident), lexicon.descriptions.get(ident)
    return None, None


def _offset(text: str, line: int, column: int) -> int:
    lines = text.split("\n")
    return sum(len(x) + 1 for x in lines[:max(line - 1, 0)]) + max(column - 1, 0)


def translate(question: str, toolbox, store, *, beams: int = 4, profile="wikidata") -> dict:
    """The learned parser's reading of ``question`` over ``toolbox``'s KG (entities linked over
    it): the chosen CNL, the n-best CNL strings (best first), the SPARQL and the candidates."""
    from cnl.agent.query_tools import TRANSLATOR  # the state /health reads

    try:
        from cnl.learn.base_model import require_model_stack

        require_model_stack()
        translator = TRANSLATOR.inference().get_translator()
    except OptionalDependencyMissing as err:
        raise TranslatorUnavailable(f"the learned parser is not installed: {err}") from None
    except (ImportError, OSError) as err:
        raise TranslatorUnavailable(f"the learned parser cannot be loaded: {err}") from None
    key = (str(store), str(profile), question, beams)
    with _translate_lock:
        result = _READINGS.get(key)
        cached = result is not None
        if cached:
            _READINGS.move_to_end(key)
        else:
            result = translator.translate(question, store=store, kg=toolbox.kg, num_beams=beams, profile=profile)
            if not result.error:
                _READINGS[key] = result
                while len(_READINGS) > MAX_READINGS:
                    _READINGS.popitem(last=False)
    # the parser resolves labels through the question's candidates first; the page compiles with
    # the server's lexicon: a label the two read differently is written with its ID
    meant = translator.resolver(result.candidates, None, store, toolbox.kg)
    pin = lambda text: pin_terms(text, meant, toolbox.lexicon) if text else text  # noqa: E731
    nbest = list(dict.fromkeys(pin(text) for text in result.nbest if text))
    cnl = pin(result.cnl)
    completer = completer_for(toolbox)
    ids = [c.get("id") for c in result.candidates if isinstance(c.get("id"), str)]
    threading.Thread(target=_warm, args=(completer, ids), daemon=True).start()
    return {"question": question, "cnl": cnl, "nbest": nbest, "sparql": result.sparql,
            "candidates": [{k: c.get(k) for k in ("id", "label", "description", "mention")} for c in result.candidates],
            "error": result.error, "warnings": result.warnings, "seconds": result.seconds, "cached": cached}


def preload_translator() -> None:
    """Load the learned parser now (for ``cnl2sparql ui``: while the browser opens); a failure
    is shown by ``/health`` and by the first question."""
    from cnl.agent.query_tools import TRANSLATOR  # the state /health reads

    try:
        from cnl.learn.base_model import require_model_stack

        require_model_stack()
        TRANSLATOR.inference().get_translator()
    except (CNLError, ImportError, OSError):
        pass


def _warm(completer, ids) -> None:
    """Find the properties around a question's candidates before the person asks for them."""
    for ident in ids[:10]:
        completer.properties_around(ident)


def add_playground_routes(app, *, dataset_for, limited, max_chars: int, use_translator: bool = True) -> None:
    """Add the page, its assets and ``/translate``, ``/complete``, ``/analyze`` to ``app``.
    ``dataset_for(iri)`` gives a configured dataset (404 for an unknown one); ``limited(func,
    queries=…)`` runs ``func`` under the server's deadline and admission limit;
    ``use_translator``: False when the operator turned the learned parser off."""
    from fastapi import Response
    from pydantic import BaseModel, Field

    class TranslateRequest(BaseModel):
        question: str = Field(..., min_length=1, max_length=max_chars, description="a question in English")
        dataset: str | None = Field(None, description="dataset IRI (default: the server's default)")
        beams: int = Field(4, ge=1, le=8, description="readings generated; the others are the n-best alternatives")

    class CompleteRequest(BaseModel):
        cnl: str = Field(..., max_length=max_chars, description="the CNL being written")
        cursor: int | None = Field(None, ge=0, description="character offset of the cursor (default: the end)")
        dataset: str | None = None
        candidates: list[str] = Field(default_factory=list, max_length=MAX_CANDIDATES,
                                      description="entity IDs linked from the question, offered first")
        question: str | None = Field(None, max_length=max_chars,
                                     description="the question asked: properties it names are offered first")
        limit: int = Field(40, ge=1, le=200)

    class AnalyzeRequest(BaseModel):
        cnl: str = Field(..., min_length=1, max_length=max_chars, description="a SQUALL query")
        dataset: str | None = None

    for ds in getattr(app.state, "datasets", {}).values():
        # the completion indices are built in the background while the server starts answering
        threading.Thread(target=completer_for(ds.toolbox).warm, daemon=True).start()

    def page_response(name: str, *, cache: str = "no-cache", nonce: str | None = None):
        found = static_file(name)
        headers = OTHER_HEADERS | {"Content-Security-Policy": content_security_policy(nonce)}
        if found is None:
            return Response(b"not found", status_code=404, media_type="text/plain", headers=headers)
        body, media_type = found
        if nonce is not None:
            body = body.replace(NONCE_PLACEHOLDER, nonce.encode("ascii"))
        return Response(body, media_type=media_type, headers=headers | {"Cache-Control": cache})

    @app.get("/", include_in_schema=False)
    async def page():
        return page_response("index.html", cache="no-store", nonce=secrets.token_urlsafe(18))

    @app.get("/static/{name}", include_in_schema=False)
    async def asset(name: str):
        return page_response(name, cache="max-age=300")

    @app.post("/translate", summary="Question to CNL with the learned parser (n-best included)")
    async def translate_route(request: TranslateRequest) -> dict:
        ds = dataset_for(request.dataset)
        if not use_translator:
            raise TranslatorUnavailable("the learned parser is turned off in this server's configuration")
        if not request.question.strip():
            raise CNLSyntaxError("the question is empty")
        return await limited(lambda: translate(request.question, ds.toolbox, ds.config.store, beams=request.beams,
                                               profile=ds.profile))

    @app.post("/complete", summary="What may be written at the cursor of a CNL text")
    async def complete_route(request: CompleteRequest) -> dict:
        ds = dataset_for(request.dataset)
        bad = [c for c in request.candidates if not re.match(ID_PATTERN, c)]
        if bad:
            raise CNLSyntaxError(f"candidates must be entity IDs such as Q42, not {bad[0][:40]!r}")
        completer = completer_for(ds.toolbox)
        result = await limited(lambda: completer.complete(request.cnl, request.cursor, limit=request.limit,
                                                          candidates=request.candidates, question=request.question))
        return result.to_json()

    @app.post("/analyze", summary="A CNL text's terms, first error and SPARQL (for the editor)")
    async def analyze_route(request: AnalyzeRequest) -> dict:
        ds = dataset_for(request.dataset)
        toolbox = ds.toolbox
        return await limited(lambda: analyze(request.cnl, ds.compile, toolbox.lexicon, toolbox.entities,
                                             wikidata=is_wikidata(ds.profile)), queries=False)


__all__ = ["CONTENT_SECURITY_POLICY", "add_playground_routes", "content_security_policy", "analyze", "completer_for", "static_file",
           "translate"]
