"""GRASP-style tools an LLM agent (or an MCP client, or an HTTP caller) uses to query a KG.

Every tool is a typed method of :class:`Toolbox` whose docstring describes it; the OpenAI
tool schema (``{"type": "function", "function": {name, description, parameters}}``) is
generated from the signature and the docstring's ``Args:`` section, so the schema and the
code cannot drift apart. Results are compact, bounded text tables whose IRI cells read
``label (wd:Q…)``: long tables show their first and last rows, as in GRASP.

Two generation modes share the search tools: in ``sparql`` mode the model writes SPARQL
(``execute_sparql``, ``answer(sparql=…)``); in ``cnl`` mode it writes SQUALL CNL
(``execute_cnl``, ``translate``, ``answer(cnl=…)``) and the compiler produces the SPARQL.

With ``know_before_use=True`` a query may only use entity and property IRIs that an earlier
tool result showed (GRASP's rule against invented IDs); the error names the unknown ones.
"""
from __future__ import annotations

import inspect
import json
import re
import threading
import types
import typing
from dataclasses import dataclass, field, fields

from cnl.agent.completion_tools import CompletionTools
from cnl.errors import (CNLError, CNLSyntaxError, ModelError, OptionalDependencyMissing, ToolCallError,
                        TranslatorUnavailable, UnknownIRIError)
from cnl.sparql.namespaces import PREFIXES
from cnl.sparql.syntax import NOT_IRI_CHAR, sparql_string

WD = PREFIXES["wd"]
WIKIDATA_NAMESPACES = {name: PREFIXES[name] for name in ("wd", "wdt", "p", "ps", "pq")}
# vocabulary any query may use without having seen it in a tool result
VOCABULARY = ("http://www.w3.org/", "http://schema.org/", "http://wikiba.se/ontology#",
              "http://www.wikidata.org/entity/statement/")
ALWAYS_KNOWN = frozenset({"P31", "P279"})  # instance of / subclass of: schema, not content
ID_PATTERN = re.compile(r"^[PQ][0-9]+$")
PREFIXED_ID = re.compile(r"\b(wd|wdt|p|ps|pq|psv|pqv|wdno):([PQ][0-9]+)\b")
FULL_IRI = re.compile(r"<(https?://[^>\s]*)>")

SPARQL_MODE, CNL_MODE, ALL_MODE = "sparql", "cnl", "all"
MAX_ARGUMENT_CHARS = 20_000
_UNWRITABLE = re.compile("[\x00\ud800-\udfff]")
# an RDF literal as a model writes it: "text", "text"@en, "12"^^xsd:integer, "x"^^<http://…>
_LITERAL = re.compile(r'^"((?:[^"\\]|\\.)*)"(?:@([a-zA-Z]{1,8}(?:-[a-zA-Z0-9]{1,8})*)|\^\^(<[^<>]*>|[A-Za-z][\w-]*:[\w.-]+))?$',
                      re.S)
_ESCAPES = {"t": "\t", "n": "\n", "r": "\r", "b": "\b", "f": "\f", '"': '"', "'": "'", "\\": "\\"}
MODES = (SPARQL_MODE, CNL_MODE, ALL_MODE)


@dataclass
class ToolResult:
    """What a tool call returns: text for the model, plus the final query when it ends a run."""

    tool: str
    ok: bool
    text: str
    final: bool = False            # answer/cancel: the agent loop stops
    status: str | None = None      # "answered" or "cancelled" for final results
    sparql: str | None = None
    cnl: str | None = None
    answer: str | None = None
    # the error behind a failed call (not shown to the model; a server maps it to a status)
    error: Exception | None = field(default=None, repr=False, compare=False)

    def to_json(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self)
                if f.name != "error" and getattr(self, f.name) is not None}


def tool(name: str | None = None, *, modes: tuple[str, ...] = (SPARQL_MODE, CNL_MODE, ALL_MODE)):
    """Mark a Toolbox method as a tool exposed as ``name`` (default: the method name) in ``modes``."""
    def mark(func):
        func._tool = (name or func.__name__, modes)
        return func
    return mark


# --- schema generation ----------------------------------------------------------------------

_JSON_TYPES = {str: "string", int: "integer", float: "number", bool: "boolean"}


def _json_type(annotation) -> tuple[str, bool]:
    """(JSON type, optional?) of a parameter annotation such as ``str`` or ``str | None``."""
    optional = False
    if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) is typing.Union:
        members = [a for a in typing.get_args(annotation) if a is not type(None)]
        optional = len(members) < len(typing.get_args(annotation))
        annotation = members[0]
    if annotation not in _JSON_TYPES:
        raise TypeError(f"tool parameters must be str, int, float or bool, not {annotation!r}")
    return _JSON_TYPES[annotation], optional


def _parse_docstring(doc: str) -> tuple[str, dict[str, str]]:
    """The description (text before ``Args:``) and each argument's description."""
    doc = inspect.cleandoc(doc or "")
    head, _, args = doc.partition("\nArgs:\n")
    described: dict[str, str] = {}
    current = None
    for line in args.splitlines():
        match = re.match(r"^\s{0,8}(\w+):\s*(.*)$", line)
        if match and match.group(1) not in described:
            current = match.group(1)
            described[current] = match.group(2).strip()
        elif current and line.strip():
            described[current] += " " + line.strip()
    return " ".join(head.split()), described


def tool_schema(func, name: str | None = None) -> dict:
    """The OpenAI tool definition of a typed function (``self`` is skipped)."""
    hints = typing.get_type_hints(func)
    description, arg_docs = _parse_docstring(func.__doc__)
    properties, required = {}, []
    for param in inspect.signature(func).parameters.values():
        if param.name == "self":
            continue
        json_type, optional = _json_type(hints[param.name])
        prop = {"type": json_type}
        if param.name in arg_docs:
            prop["description"] = arg_docs[param.name]
        if param.default is not inspect.Parameter.empty and param.default is not None:
            prop["default"] = param.default
        properties[param.name] = prop
        if param.default is inspect.Parameter.empty and not optional:
            required.append(param.name)
    return {"type": "function", "function": {
        "name": name or func.__name__, "description": description,
        "parameters": {"type": "object", "properties": properties, "required": required,
                       "additionalProperties": False}}}


# --- rendering ------------------------------------------------------------------------------

def format_table(columns: list[str], rows: list[list[str]], *, max_rows: int = 10, max_cols: int = 10,
                 max_cell: int = 80, total: int | None = None) -> str:
    """A plain-text table; more than ``max_rows`` rows (columns) show the first and last half."""
    def clip(cells: list, limit: int, filler):
        if len(cells) <= limit:
            return list(cells)
        half = limit // 2
        return list(cells[:half]) + [filler] + list(cells[-half:])

    n_rows = len(rows) if total is None else total
    cols = clip(columns, max_cols, "…")
    shown = clip([clip(r, max_cols, "…") for r in rows], max_rows, None)
    cell = lambda v: (v if len(v) <= max_cell else v[:max_cell - 1] + "…").replace("\n", " ")
    lines = [" | ".join(cols)]
    for row in shown:
        lines.append("…" if row is None else " | ".join(cell(v) for v in row))
    footer = f"({n_rows} row{'s' if n_rows != 1 else ''}"
    if len(rows) > max_rows:
        footer += f", showing the first {max_rows // 2} and last {max_rows // 2}"
    if len(columns) > max_cols:
        footer += f", {len(columns)} columns"
    return "\n".join(lines + [footer + ")"])


def compact(iri: str) -> str:
    """``wd:Q25191``, ``wdt:P57``… for Wikidata IRIs; ``<iri>`` otherwise."""
    for prefix, base in WIKIDATA_NAMESPACES.items():
        if iri.startswith(base) and ID_PATTERN.match(iri[len(base):]):
            return f"{prefix}:{iri[len(base):]}"
    from cnl.kg.results import compact_iri

    return compact_iri(iri)


def _known_key(iri: str) -> str:
    """What know-before-use remembers of an IRI: the Q/P ID for Wikidata, else the IRI."""
    for base in WIKIDATA_NAMESPACES.values():
        if iri.startswith(base) and ID_PATTERN.match(iri[len(base):]):
            return iri[len(base):]
    return iri


# --- the toolbox ----------------------------------------------------------------------------

@dataclass
class ToolboxOptions:
    know_before_use: bool = False
    max_rows: int = 10            # table rows shown (first and last half beyond it)
    max_chars: int = 4000         # hard cap on a result's text
    search_k: int = 10
    semantic_properties: bool = False  # MiniLM similarity in search_property (needs torch)
    profile_options: dict = field(default_factory=dict)


class Toolbox(CompletionTools):
    """The tools over one knowledge graph, with its search indices and a lexicon built from them.

    ``kg`` is a :class:`cnl.kg.KnowledgeGraph`; ``entities``/``properties`` are the search
    indices (:func:`cnl.linking.indices.indices_for_store` builds them for a store);
    ``translator`` maps a question to CNL (default: ``cnl.translate`` when installed).
    """

    def __init__(self, kg, *, entities=None, properties=None, lexicon=None, kg_profile="wikidata",
                 translator=None, options: ToolboxOptions | None = None, **option_values) -> None:
        self.kg = kg
        self.entities = entities
        self.properties = properties
        self._lexicon = lexicon
        self.kg_profile = kg_profile
        self._translator = translator
        self.options = options or ToolboxOptions(**option_values)
        self.known: set[str] = set(ALWAYS_KNOWN)
        self._lexicon_lock = threading.Lock()
        self._property_by_id = {p.id: p for p in properties.properties} if properties is not None else {}

    @classmethod
    def for_store(cls, store, *, rebuild_indices: bool = False, kg_options: dict | None = None,
                  **kwargs) -> "Toolbox":
        """A toolbox over an embedded store (opened read-only), with its cached search indices;
        ``kg_options`` go to :func:`cnl.kg.open_kg` (timeout, max_rows, workers, allow_service)."""
        from cnl.kg import open_kg
        from cnl.linking.indices import indices_for_store

        kg = open_kg(store=store, **(kg_options or {}))  # first: a bad store fails before indexing
        try:
            entities, properties = indices_for_store(store, rebuild=rebuild_indices, verbose=False)
        except BaseException:
            kg.close()
            raise
        return cls(kg, entities=entities, properties=properties, **kwargs)

    # --- registry ---------------------------------------------------------------------------

    @classmethod
    def _tools(cls, mode: str) -> dict[str, typing.Callable]:
        if mode not in MODES:
            raise ToolCallError(f"unknown tool mode {mode!r}; choose one of {', '.join(MODES)}")
        found = {}
        for attr in dir(cls):
            func = getattr(cls, attr)
            marker = getattr(func, "_tool", None)
            if marker and mode in marker[1]:
                found[marker[0]] = func
        return dict(sorted(found.items()))

    @classmethod
    def tool_names(cls, mode: str = ALL_MODE) -> list[str]:
        return list(cls._tools(mode))

    @classmethod
    def schemas(cls, mode: str = ALL_MODE) -> list[dict]:
        """OpenAI tool definitions of the tools available in ``mode``."""
        return [tool_schema(func, name) for name, func in cls._tools(mode).items()]

    def call(self, name: str, arguments: dict | str | None = None, *, mode: str = ALL_MODE) -> ToolResult:
        """Run tool ``name``; errors in the input come back as a ``ok=False`` result for the model.

        Arguments that do not fit the schema raise :class:`ToolCallError` only when the tool does
        not exist; otherwise they too become an error result, so a model can correct itself."""
        tools = self._tools(mode)
        if name not in tools:
            raise ToolCallError(f"unknown tool {name!r}; available: {', '.join(tools)}")
        func = tools[name]
        try:
            kwargs = self._check_arguments(name, func, arguments)
            result = func(self, **kwargs)
        except CNLError as err:
            result = ToolResult(name, False, f"error: {err}", error=err)
        result.text = self._bound(result.text)
        return result

    def _check_arguments(self, name: str, func, arguments) -> dict:
        if isinstance(arguments, str):
            try:
                arguments = json.loads(arguments) if arguments.strip() else {}
            except ValueError as err:
                raise ToolCallError(f"arguments of {name} are not valid JSON: {err}") from None
        if arguments is not None and not isinstance(arguments, dict):
            raise ToolCallError(f"arguments of {name} must be a JSON object such as "
                                f'{{"query": "…"}}, not {type(arguments).__name__} {str(arguments)[:80]!r}')
        arguments = dict(arguments or {})
        schema = tool_schema(func, name)["function"]["parameters"]
        unknown = sorted(set(arguments) - set(schema["properties"]))
        if unknown:
            raise ToolCallError(f"{name} has no argument {', '.join(map(repr, unknown))}; "
                                f"its arguments are {', '.join(schema['properties'])}")
        missing = [a for a in schema["required"] if arguments.get(a) is None]
        if missing:
            raise ToolCallError(f"{name} needs the argument {', '.join(map(repr, missing))}")
        checked = {}
        for key, value in arguments.items():
            expected = schema["properties"][key]["type"]
            if value is None:
                continue
            if expected == "integer" and isinstance(value, str) and value.strip().lstrip("-").isdigit():
                value = int(value)  # models often quote numbers
            python_type = {"string": str, "integer": int, "number": (int, float), "boolean": bool}[expected]
            if not isinstance(value, python_type) or (expected == "integer" and isinstance(value, bool)):
                raise ToolCallError(f"argument {key!r} of {name} must be a {expected}, not {value!r}"[:300])
            if isinstance(value, str):
                if len(value) > MAX_ARGUMENT_CHARS:
                    raise ToolCallError(f"argument {key!r} of {name} is {len(value):,} characters long; "
                                        f"the limit is {MAX_ARGUMENT_CHARS:,}")
                if _UNWRITABLE.search(value):
                    raise ToolCallError(f"argument {key!r} of {name} contains a NUL or an unpaired surrogate")
            checked[key] = value
        return checked

    def _bound(self, text: str) -> str:
        limit = self.options.max_chars
        if len(text) <= limit:
            return text
        return text[:limit - 40].rstrip() + f"\n… (cut at {limit} characters)"

    # --- helpers ----------------------------------------------------------------------------

    @property
    def lexicon(self):
        """Labels of the indexed entities and properties, so CNL may name them as ``[label]``."""
        if self._lexicon is None and (self.entities is not None or self.properties is not None):
            with self._lexicon_lock:
                if self._lexicon is None:
                    self._lexicon = self._build_lexicon()
        return self._lexicon

    def _build_lexicon(self):
        from cnl.linking.lexicon import Lexicon

        lexicon = Lexicon()
        for entity in (self.entities.entities if self.entities is not None else ()):
            lexicon.add(entity.label, entity.id, description=entity.description or None)
            for alias in entity.aliases:
                lexicon.add(alias, entity.id, primary=False)
        for prop in (self.properties.properties if self.properties is not None else ()):
            lexicon.add(prop.label, prop.id, kind="property", description=prop.description or None)
            for alias in prop.aliases:
                lexicon.add(alias, prop.id, kind="property", primary=False)
        return lexicon

    def _remember(self, iris) -> None:
        self.known.update(_known_key(i) for i in iris)

    def _label(self, ident: str) -> str | None:
        if self.entities is not None and (entity := self.entities.get(ident)) is not None:
            return entity.label
        if ident in self._property_by_id:
            return self._property_by_id[ident].label
        return None

    def _labels(self, iris) -> dict[str, str]:
        found, missing = {}, []
        for iri in set(iris):
            key = _known_key(iri)
            label = self._label(key) if key != iri else None
            if label is not None:
                found[iri] = label
            else:
                missing.append(iri)
        if missing:
            try:
                # a property IRI (wdt:P57) carries the label of its entity (wd:P57)
                by_entity = {WD + _known_key(i) if _known_key(i) != i else i: i for i in missing}
                for entity_iri, label in self.kg.labels(by_entity).items():
                    found[by_entity[entity_iri]] = label
            except CNLError:
                pass  # labels are a courtesy; the IRIs are still shown
        return found

    def _cell(self, term, labels: dict[str, str]) -> str:
        if term is None:
            return ""
        if term.is_iri:
            short = compact(term.value)
            return f"{labels[term.value]} ({short})" if term.value in labels else short
        if term.lang:
            return f'"{term.value}"@{term.lang}'
        return term.value

    def _table_text(self, table) -> str:
        iris = table.iris()
        self._remember(iris)
        labels = self._labels(iris)
        rows = [[self._cell(t, labels) for t in row] for row in table.rows]
        text = format_table(table.columns, rows, max_rows=self.options.max_rows)
        if table.truncated:
            text += f"\n(the result was cut at {len(table.rows)} rows)"
        return text

    def _iri(self, value: str, kind: str = "entity") -> str:
        """A full IRI from ``Q25191``, ``wd:Q25191``, ``wdt:P57``, ``<http://…>`` or ``http://…``."""
        value = value.strip()
        if value.startswith("<") and value.endswith(">"):
            value = value[1:-1]
        if value.startswith(("http://", "https://")):
            if NOT_IRI_CHAR.search(value):
                raise ToolCallError(f"not a valid IRI: {value!r}"[:300])
            return value
        if ":" in value:
            prefix, local = value.split(":", 1)
            if prefix in PREFIXES and re.match(r"^[\w-]+$", local):
                return PREFIXES[prefix] + local
            raise ToolCallError(f"unknown prefix in {value!r}; use wd:, wdt:, a bare ID or a full IRI")
        if ID_PATTERN.fullmatch(value):
            base = WIKIDATA_NAMESPACES["wdt"] if kind == "property" else WD
            return base + value
        raise ToolCallError(f"not an ID or IRI: {value!r} (search for it first)")

    def _literal(self, text: str) -> str:
        """A literal the model wrote, rewritten through the one escaping path: its text, language
        tag and datatype are checked and re-escaped, so it cannot end the pattern around it."""
        match = _LITERAL.fullmatch(text)
        if match is None:
            raise ToolCallError(f"not a literal: {text[:100]!r}; write \"text\", \"text\"@en or "
                                f"\"12\"^^xsd:integer")
        body, lang, datatype = match.groups()
        try:
            value = re.sub(r"\\(u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|.)",
                           lambda m: chr(int(m.group(1)[1:], 16)) if m.group(1)[0] in "uU" else _ESCAPES[m.group(1)],
                           body, flags=re.S)
        except (KeyError, ValueError):
            raise ToolCallError(f"bad escape in the literal {text[:100]!r}") from None
        if _UNWRITABLE.search(value):
            raise ToolCallError("the literal contains a NUL or an unpaired surrogate")
        out = sparql_string(value)
        if lang:
            return f"{out}@{lang}"
        if datatype:
            return f"{out}^^<{self._iri(datatype)}>"
        return out

    def _require_known(self, iris) -> None:
        if not self.options.know_before_use:
            return
        unknown = sorted({_known_key(i) for i in iris if not i.startswith(VOCABULARY)} - self.known)
        if unknown:
            raise UnknownIRIError(
                "know-before-use: " + ", ".join(unknown) + (" was" if len(unknown) == 1 else " were")
                + " not shown by any earlier tool call; search for it first")

    def _sparql_iris(self, sparql: str) -> list[str]:
        iris = [WIKIDATA_NAMESPACES.get(p, WD) + i for p, i in PREFIXED_ID.findall(sparql)]
        return iris + FULL_IRI.findall(sparql)

    def _compile(self, cnl: str) -> str:
        from cnl import ir
        from cnl.dialects import get_dialect
        from cnl.sparql.compiler import compile_cnl

        query = get_dialect("squall").parse(cnl)
        if self.options.know_before_use:
            ids = [t.id.lstrip("^") for t in ir.terms(query) if t.id]
            self._require_known([WD + i if ID_PATTERN.match(i) else i for i in ids])
        return compile_cnl(query, kg=self.kg_profile, resolver=self.lexicon, **self.options.profile_options)

    def _run_sparql(self, sparql: str) -> str:
        result = self.kg.query(sparql)
        if isinstance(result, bool):
            return "yes" if result else "no"
        if result is None:
            return "done"
        return self._table_text(result)

    # --- search tools -----------------------------------------------------------------------

    @tool()
    def search_entity(self, query: str) -> ToolResult:
        """Search the knowledge graph for entities (people, places, works, classes) by name.

        Uses a prefix-keyword index over labels and aliases; results are ranked by match quality
        and popularity. Returns up to 10 entities with their IDs and descriptions.

        Args:
            query: words of the entity's name, e.g. "Christopher Nolan" or "nolan"
        """
        if self.entities is None:
            raise ToolCallError("this knowledge graph has no entity index")
        hits = self.entities.search(query, k=self.options.search_k)
        self._remember(WD + e.id for e, _ in hits)
        rows = [[f"{e.label} ({compact(WD + e.id)})", e.description, str(e.popularity)] for e, _ in hits]
        if not rows:
            return ToolResult("search_entity", True, f"no entity matches {query!r}")
        return ToolResult("search_entity", True, format_table(["entity", "description", "popularity"], rows))

    def _property_rows(self, hits) -> list[list[str]]:
        self._remember(WD + p.id for p, _ in hits)
        return [[f"{p.label} ({compact(WIKIDATA_NAMESPACES['wdt'] + p.id)})", ", ".join(p.aliases[:4]),
                 p.description] for p, _ in hits]

    def _lexical_property_search(self, query: str, candidates, k: int):
        """Properties ranked by the best fuzzy match of the query against label and aliases."""
        from rapidfuzz import fuzz

        from cnl.linking.text import normalize

        q = normalize(query)
        scored = []
        for prop in candidates:
            names = [normalize(n) for n in (prop.label, *prop.aliases)]
            score = max((100.0 if n == q else fuzz.WRatio(q, n) for n in names if n), default=0.0)
            scored.append((prop, score / 100))
        scored.sort(key=lambda ps: ps[1], reverse=True)
        return scored[:k]

    @tool()
    def search_property(self, query: str) -> ToolResult:
        """Search the knowledge graph for properties (relations) by name or meaning.

        Returns up to 10 properties with their IDs, aliases and descriptions.

        Args:
            query: what the relation is about, e.g. "director" or "place of birth"
        """
        if self.properties is None or not len(self.properties):
            raise ToolCallError("this knowledge graph has no property index")
        k = self.options.search_k
        if self.options.semantic_properties:
            hits = self.properties.search(query, k=k)
        else:
            exact = self.properties.search(query, k=k, semantic=False)
            seen = {p.id for p, _ in exact}
            hits = exact + [h for h in self._lexical_property_search(query, self.properties.properties, k)
                            if h[0].id not in seen]
            hits = hits[:k]
        return ToolResult("search_property", True,
                          format_table(["property", "aliases", "description"], self._property_rows(hits)))

    @tool()
    def search_property_of_entity(self, entity: str, query: str = "") -> ToolResult:
        """Search the properties an entity actually has, as subject (outgoing) or as object (incoming).

        Lists each property with its direction, an example value and how many triples use it,
        best match for the query first.

        Args:
            entity: the entity's ID, e.g. "Q25191" or "wd:Q25191"
            query: what the relation is about, e.g. "director"; empty lists the most used
        """
        iri = self._iri(entity)
        self._require_known([iri])
        wdt = WIKIDATA_NAMESPACES["wdt"]
        found = []  # (property ID, direction, example term, count)
        for direction, pattern in (("outgoing", f"<{iri}> ?p ?x"), ("incoming", f"?x ?p <{iri}>")):
            table = self.kg.select(
                f"SELECT ?p (SAMPLE(?x) AS ?example) (COUNT(*) AS ?n) WHERE {{ {pattern} "
                f"FILTER(STRSTARTS(STR(?p), \"{wdt}\")) }} GROUP BY ?p")
            for p, example, n in table.rows:
                found.append((p.value[len(wdt):], direction, example, int(n.value)))
        if not found:
            return ToolResult("search_property_of_entity", True, f"{compact(iri)} has no {wdt} properties")
        from cnl.linking.property_index import Property

        props = {pid: self._property_by_id.get(pid) or Property(pid, self._label(pid) or pid) for pid, *_ in found}
        if query.strip():
            order = {p.id: s for p, s in self._lexical_property_search(query, props.values(), len(props))}
            found.sort(key=lambda f: (-order.get(f[0], 0.0), -f[3]))
        else:
            found.sort(key=lambda f: -f[3])
        self._remember(WD + f[0] for f in found)
        examples = [f[2] for f in found if f[2] is not None and f[2].is_iri]
        self._remember(t.value for t in examples)
        labels = self._labels(t.value for t in examples)
        rows = [[f"{props[pid].label} ({compact(wdt + pid)})", direction, self._cell(example, labels), str(n)]
                for pid, direction, example, n in found]
        return ToolResult("search_property_of_entity", True,
                          format_table(["property", "direction", "example", "triples"], rows,
                                       max_rows=self.options.max_rows))

    @tool()
    def search_object_of_property(self, property: str, query: str = "") -> ToolResult:
        """Search the values (objects) a property takes anywhere in the knowledge graph.

        Lists entities and literals found in object position of the property, best match for
        the query first, then the most frequent.

        Args:
            property: the property's ID, e.g. "P57" or "wdt:P57"
            query: words of the value's name; empty lists the most frequent values
        """
        iri = self._iri(property, "property")
        self._require_known([iri])
        table = self.kg.select(f"SELECT ?o (COUNT(*) AS ?n) WHERE {{ ?s <{iri}> ?o }} "
                               f"GROUP BY ?o ORDER BY DESC(?n) LIMIT 5000")
        labels = self._labels(t.value for t, _ in table.rows if t.is_iri)
        values = [(t, labels.get(t.value, t.value) if t.is_iri else t.value, int(n.value)) for t, n in table.rows]
        if query.strip():
            from rapidfuzz import fuzz

            from cnl.linking.text import normalize

            q = normalize(query)
            values.sort(key=lambda v: (-fuzz.WRatio(q, normalize(v[1]) or "?"), -v[2]))
        shown = values[: self.options.search_k]
        self._remember(t.value for t, _, _ in shown if t.is_iri)
        rows = [[self._cell(t, labels), str(n)] for t, _, n in shown]
        if not rows:
            return ToolResult("search_object_of_property", True, f"no triple uses {compact(iri)}")
        return ToolResult("search_object_of_property", True,
                          format_table(["value", "triples"], rows, total=len(values)))

    @tool()
    def list_triples(self, subject: str | None = None, property: str | None = None,
                     object: str | None = None) -> ToolResult:
        """List up to 10 triples matching the given subject, property and/or object (all optional).

        Prefers diverse triples (different properties) so one call gives a sense of an entity.
        Without a property only direct (wdt:) statements are listed.

        Args:
            subject: an entity ID such as "Q25188", or empty
            property: a property ID such as "P57", or empty
            object: an entity ID, or a literal in double quotes such as "\\"Inception\\"@en", or empty
        """
        patterns, filters = [], []
        s = f"<{self._iri(subject)}>" if subject else "?s"
        p = f"<{self._iri(property, 'property')}>" if property else "?p"
        if object and object.strip().startswith('"'):
            o = self._literal(object.strip())
        else:
            o = f"<{self._iri(object)}>" if object else "?o"
        self._require_known([t[1:-1] for t in (s, p, o) if t.startswith("<")])
        if not property:
            filters.append(f'FILTER(STRSTARTS(STR(?p), "{WIKIDATA_NAMESPACES["wdt"]}"))')
        patterns.append(f"{s} {p} {o} .")
        table = self.kg.select(f"SELECT * WHERE {{ {' '.join(patterns + filters)} }} LIMIT 500")
        # round-robin over properties (or subjects) so ten rows show ten different facts
        from cnl.kg.results import IRI, Term

        fixed = {"s": s, "p": p, "o": o}
        columns = table.columns
        full_rows = []
        for row in table.rows:
            bound = dict(zip(columns, row))
            full_rows.append(tuple(bound.get(k) or (Term(IRI, fixed[k][1:-1]) if fixed[k].startswith("<") else
                                                     Term("literal", fixed[k])) for k in "spo"))
        groups: dict[str, list] = {}
        for row in full_rows:
            groups.setdefault(row[1].value if not property else row[0].value, []).append(row)
        picked, queues = [], list(groups.values())
        while queues and len(picked) < 10:
            queues = [q for q in queues if q]
            for q in queues:
                if len(picked) < 10 and q:
                    picked.append(q.pop(0))
        if not picked:
            return ToolResult("list_triples", True, "no matching triples")
        from cnl.kg.results import ResultTable

        text = self._table_text(ResultTable(["subject", "property", "object"], picked))
        text = text.rsplit("\n", 1)[0] + f"\n({len(picked)} of {len(full_rows)}{'+' if len(full_rows) == 500 else ''} triples)"
        return ToolResult("list_triples", True, text)

    # --- execution --------------------------------------------------------------------------

    @tool(modes=(SPARQL_MODE, ALL_MODE))
    def execute_sparql(self, sparql: str) -> ToolResult:
        """Run a SPARQL SELECT or ASK query on the knowledge graph and show its result table.

        The usual Wikidata prefixes (wd:, wdt:, p:, ps:, pq:, rdfs:, schema:) are predefined.
        Tables longer than 10 rows show the first and last 5. Errors come back as text.

        Args:
            sparql: the SPARQL query
        """
        self._require_known(self._sparql_iris(sparql))
        return ToolResult("execute_sparql", True, self._run_sparql(sparql), sparql=sparql)

    @tool(modes=(CNL_MODE, ALL_MODE))
    def execute_cnl(self, cnl: str) -> ToolResult:
        """Compile a SQUALL CNL query to SPARQL, run it, and show the SPARQL and the result table.

        Name terms by ID (<Q25191>, <P57>, optionally <P57:director>) or by exact label
        ([Christopher Nolan], <director>). A syntax error comes back with its position, what
        was expected, and a caret under the offending word, so the query can be repaired.

        Args:
            cnl: the SQUALL query, e.g. "Which <Q11424> has <P57> <Q25191>?"
        """
        try:
            sparql = self._compile(cnl)
        except CNLSyntaxError as err:
            return ToolResult("execute_cnl", False, f"syntax error in the CNL: {err}", cnl=cnl, error=err)
        text = self._run_sparql(sparql)
        return ToolResult("execute_cnl", True, f"SPARQL:\n{sparql}\n\nresult:\n{text}", sparql=sparql, cnl=cnl)

    @tool(modes=(CNL_MODE, ALL_MODE))
    def translate(self, question: str) -> ToolResult:
        """Translate a natural-language question into a SQUALL CNL query with the learned parser.

        The suggestion may need repairs: check it with execute_cnl.

        Args:
            question: the question in English
        """
        translator = self._translator or load_translator()
        output = translator(question)
        text = getattr(output, "cnl", output)
        if not isinstance(text, str) or not text.strip():
            raise TranslatorUnavailable(f"the learned parser returned no CNL for {question!r}")
        return ToolResult("translate", True, f"CNL suggestion: {text}", cnl=text)

    # --- ending a run -----------------------------------------------------------------------

    @tool("answer", modes=(SPARQL_MODE,))
    def answer_with_sparql(self, sparql: str, answer: str) -> ToolResult:
        """Give the final SPARQL query and a short human-readable answer; this ends the run.

        Args:
            sparql: the final SPARQL query that answers the question
            answer: the answer in words, from the query's result
        """
        from cnl.kg.sparql import parse_sparql

        parse_sparql(sparql)
        self._require_known(self._sparql_iris(sparql))
        return ToolResult("answer", True, "answer recorded", final=True, status="answered",
                          sparql=sparql, answer=answer)

    @tool("answer", modes=(CNL_MODE, ALL_MODE))
    def answer_with_cnl(self, cnl: str, answer: str) -> ToolResult:
        """Give the final CNL query and a short human-readable answer; this ends the run.

        The CNL is compiled to the final SPARQL; if it does not compile, the error comes back
        and the run goes on.

        Args:
            cnl: the final SQUALL query that answers the question
            answer: the answer in words, from the query's result
        """
        try:
            sparql = self._compile(cnl)
        except CNLSyntaxError as err:
            return ToolResult("answer", False, f"syntax error in the CNL: {err}", cnl=cnl, error=err)
        return ToolResult("answer", True, "answer recorded", final=True, status="answered",
                          sparql=sparql, cnl=cnl, answer=answer)

    @tool()
    def cancel(self, explanation: str, best_attempt: str | None = None) -> ToolResult:
        """Give up when no satisfying query can be found, with the reason; this ends the run.

        Args:
            explanation: why no query answers the question
            best_attempt: the best query found so far (SPARQL, or CNL in CNL mode), if any
        """
        sparql = cnl = None
        if best_attempt:
            try:
                from cnl.kg.sparql import parse_sparql

                parse_sparql(best_attempt)
                sparql = best_attempt
            except CNLError:
                try:
                    cnl, sparql = best_attempt, self._compile(best_attempt)
                except CNLError:
                    cnl = best_attempt
        return ToolResult("cancel", True, "cancelled", final=True, status="cancelled",
                          sparql=sparql, cnl=cnl, answer=explanation)


def load_translator():
    """The learned parser's translate (issue 5), or TranslatorUnavailable saying why not."""
    def run(question: str):
        from cnl.learn.base_model import require_model_stack

        try:
            require_model_stack()
        except OptionalDependencyMissing as err:
            raise TranslatorUnavailable(f"the learned parser is not installed: {err}") from None
        try:
            from cnl.learn.inference import get_translator

            translator = get_translator()
        except ModelError as err:  # not installed, or a failed load (tried again next time)
            raise TranslatorUnavailable(str(err)) from None
        except (ImportError, OSError) as err:
            raise TranslatorUnavailable(f"the learned parser cannot be loaded: {err}") from None
        try:
            return translator.translate(question)
        except CNLError:
            raise
        except Exception as err:  # a model that fails mid-generation: an answer, not a crash
            raise TranslatorUnavailable(f"the learned parser failed on this question "
                                        f"({type(err).__name__}: {str(err)[:200]})") from None

    return run
