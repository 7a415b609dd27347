"""The toolbox's core: the KG and its indices, the tool registry, argument checking, the bound
on a result's text, and the helpers the tools share (labels, IRIs, literals, know-before-use,
compiling and running a query)."""
from __future__ import annotations

import json
import re
import threading
import typing
from dataclasses import dataclass, field

from cnl.agent.tool_schema import ALL_MODE, MODES, ToolResult, tool_schema
from cnl.agent.tool_text import ID_PATTERN, WD, WIKIDATA_NAMESPACES, compact, format_table, known_key
from cnl.errors import CNLError, ToolCallError, UnknownIRIError
from cnl.sparql.namespaces import PREFIXES
from cnl.sparql.syntax import NOT_IRI_CHAR, sparql_string

# vocabulary any query may use without having seen it in a tool result
VOCABULARY = ("http://www.w3.org/", "http://schema.org/", "http://wikiba.se/ontology#",
              "http://www.wikidata.org/entity/statement/")
ALWAYS_KNOWN = frozenset({"P31", "P279"})  # instance of / subclass of: schema, not content
PREFIXED_ID = re.compile(r"\b(wd|wdt|p|ps|pq|psv|pqv|wdno):([PQ][0-9]+)\b")
FULL_IRI = re.compile(r"<(https?://[^>\s]*)>")

MAX_ARGUMENT_CHARS = 20_000
# the search text of the search tools (an argument named ``query``): a name or a relation, never
# a document; fuzzy matching costs time in its length (19,800 characters took 31 s, issue 30)
MAX_SEARCH_CHARS = 300
_UNWRITABLE = re.compile("[\x00\ud800-\udfff]")
# an RDF literal as a model writes it: "text", "text"@en, "12"^^xsd:integer, "x"^^<http://…>
_LITERAL = re.compile(r'^"((?:[^"\\]|\\.)*)"(?:@([a-zA-Z]{1,8}(?:-[a-zA-Z0-9]{1,8})*)|\^\^(<[^<>]*>|[A-Za-z][\w-]*:[\w.-]+))?$',
                      re.S)
_ESCAPES = {"t": "\t", "n": "\n", "r": "\r", "b": "\b", "f": "\f", '"': '"', "'": "'", "\\": "\\"}


@dataclass
class ToolboxOptions:
    know_before_use: bool = False
    max_rows: int = 10            # table rows shown (first and last half beyond it)
    max_chars: int = 4000         # hard cap on a result's text
    search_k: int = 10
    semantic_properties: bool = False  # MiniLM similarity in search_property (needs torch)
    profile_options: dict = field(default_factory=dict)


class ToolboxBase:
    """What every group of tools shares: the KG, its search indices and lexicon, the registry of
    ``@tool`` methods (found on the concrete class, mixins included), argument checking and the
    helpers. :class:`cnl.agent.tools.Toolbox` combines the groups."""

    def __init__(self, kg, *, entities=None, properties=None, lexicon=None, kg_profile="wikidata",
                 translator=None, options: ToolboxOptions | None = None, **option_values) -> None:
        self.kg = kg
        self.entities = entities
        self.properties = properties
        self._lexicon = lexicon
        self.kg_profile = kg_profile
        self.translator = translator
        self.options = options or ToolboxOptions(**option_values)
        self.known: set[str] = set(ALWAYS_KNOWN)
        self._lexicon_lock = threading.Lock()
        self.property_by_id = {p.id: p for p in properties.properties} if properties is not None else {}

    @classmethod
    def for_store(cls, store, *, rebuild_indices: bool = False, kg_options: dict | None = None,
                  **kwargs) -> "ToolboxBase":
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
            marker = getattr(func, "cnl_tool", None)
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
                limit = MAX_SEARCH_CHARS if key == "query" else MAX_ARGUMENT_CHARS
                if len(value) > limit:
                    raise ToolCallError(f"argument {key!r} of {name} is {len(value):,} characters long; "
                                        f"the limit is {limit:,}")
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

    def remember_iris(self, iris) -> None:
        self.known.update(known_key(i) for i in iris)

    def label_of(self, ident: str) -> str | None:
        if self.entities is not None and (entity := self.entities.get(ident)) is not None:
            return entity.label
        if ident in self.property_by_id:
            return self.property_by_id[ident].label
        return None

    def labels_for(self, iris) -> dict[str, str]:
        found, missing = {}, []
        for iri in set(iris):
            key = known_key(iri)
            label = self.label_of(key) if key != iri else None
            if label is not None:
                found[iri] = label
            else:
                missing.append(iri)
        if missing:
            try:
                # a property IRI (wdt:P57) carries the label of its entity (wd:P57)
                by_entity = {WD + known_key(i) if known_key(i) != i else i: i for i in missing}
                for entity_iri, label in self.kg.labels(by_entity).items():
                    found[by_entity[entity_iri]] = label
            except CNLError:
                pass  # labels are a courtesy; the IRIs are still shown
        return found

    def cell_text(self, term, labels: dict[str, str]) -> str:
        if term is None:
            return ""
        if term.is_iri:
            short = compact(term.value)
            return f"{labels[term.value]} ({short})" if term.value in labels else short
        if term.lang:
            return f'"{term.value}"@{term.lang}'
        return term.value

    def table_text(self, table) -> str:
        iris = table.iris()
        self.remember_iris(iris)
        labels = self.labels_for(iris)
        rows = [[self.cell_text(t, labels) for t in row] for row in table.rows]
        text = format_table(table.columns, rows, max_rows=self.options.max_rows)
        if table.truncated:
            text += f"\n(the result was cut at {len(table.rows)} rows)"
        return text

    def parse_iri(self, value: str, kind: str = "entity") -> str:
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

    def parse_literal(self, text: str) -> str:
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
            return f"{out}^^<{self.parse_iri(datatype)}>"
        return out

    def require_known(self, iris) -> None:
        if not self.options.know_before_use:
            return
        unknown = sorted({known_key(i) for i in iris if not i.startswith(VOCABULARY)} - self.known)
        if unknown:
            raise UnknownIRIError(
                "know-before-use: " + ", ".join(unknown) + (" was" if len(unknown) == 1 else " were")
                + " not shown by any earlier tool call; search for it first")

    def sparql_iris(self, sparql: str) -> list[str]:
        iris = [WIKIDATA_NAMESPACES.get(p, WD) + i for p, i in PREFIXED_ID.findall(sparql)]
        return iris + FULL_IRI.findall(sparql)

    def compile_cnl(self, cnl: str) -> str:
        from cnl import ir
        from cnl.dialects import get_dialect
        from cnl.sparql.compiler import compile_cnl

        query = get_dialect("squall").parse(cnl)
        if self.options.know_before_use:
            ids = [t.id.lstrip("^") for t in ir.terms(query) if t.id]
            self.require_known([WD + i if ID_PATTERN.match(i) else i for i in ids])
        return compile_cnl(query, kg=self.kg_profile, resolver=self.lexicon, **self.options.profile_options)

    def run_sparql(self, sparql: str) -> str:
        result = self.kg.query(sparql)
        if isinstance(result, bool):
            return "yes" if result else "no"
        if result is None:
            return "done"
        return self.table_text(result)
