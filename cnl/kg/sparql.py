"""Recognising what a SPARQL string is, by parsing it (rdflib's SPARQL grammar), not by regex.

The form decides how it runs (SELECT → table, ASK → bool) and whether it is an update, which
a read-only connection must refuse.
"""
from __future__ import annotations

import re
import sys
import threading
from dataclasses import dataclass
from functools import lru_cache

from cnl.sparql.namespaces import PREFIXES, parse_again_with_prologue_lines
from cnl.sparql.syntax import IRI_FORBIDDEN_CHARS
from cnl.errors import FederationRefused, SPARQLSyntaxError

SELECT, ASK, CONSTRUCT, DESCRIBE, UPDATE = "SELECT", "ASK", "CONSTRUCT", "DESCRIBE", "UPDATE"
_FORMS = {"SelectQuery": SELECT, "AskQuery": ASK, "ConstructQuery": CONSTRUCT, "DescribeQuery": DESCRIBE}


@dataclass(frozen=True)
class ParsedSPARQL:
    form: str  # SELECT, ASK, CONSTRUCT, DESCRIBE or UPDATE
    declared_prefixes: frozenset[str]
    # What the query would fetch from elsewhere: ("SERVICE", IRI or None for a variable) and
    # ("LOAD", IRI) pairs, from the parse tree and, as a second opinion, a lexical scan.
    remote: tuple[tuple[str, str | None], ...] = ()

    @property
    def is_update(self) -> bool:
        return self.form == UPDATE


_PARSE_LOCK = threading.Lock()  # rdflib's pyparsing grammar is not safe to use from two threads at once
# pyparsing recurses ~20 frames per triple pattern and per bracket: 100 triple patterns already
# passed Python's default 1,000 frames. Within the shape limits below a parse needs < 6,000;
# Python 3.11 calls between Python functions do not use the C stack, so this is safe in threads.
PARSE_RECURSION_LIMIT = 10_000


def parse_sparql(sparql: str) -> ParsedSPARQL:
    """The form, declared prefixes and remote operations of a query or update;
    SPARQLSyntaxError if neither parses. Thread-safe; recent results are remembered."""
    if not isinstance(sparql, str):
        raise SPARQLSyntaxError(f"expected SPARQL text, got {type(sparql).__name__}")
    with _PARSE_LOCK:
        return _parse_cached(sparql) if len(sparql) <= 10_000 else _parse(sparql)


@lru_cache(maxsize=512)
def _parse_cached(sparql: str) -> ParsedSPARQL:
    return _parse(sparql)


def _parse(sparql: str) -> ParsedSPARQL:
    from pyparsing import ParseException
    from rdflib.plugins.sparql.parser import parseQuery, parseUpdate

    if not sparql.strip():
        raise SPARQLSyntaxError("empty SPARQL query")
    if len(sparql) > MAX_SPARQL_CHARS:
        raise SPARQLSyntaxError(f"the SPARQL query is {len(sparql):,} characters long; "
                                f"the limit is {MAX_SPARQL_CHARS:,}")
    if _SURROGATE.search(sparql) or "\x00" in sparql:
        raise SPARQLSyntaxError("the SPARQL query contains a NUL or an unpaired surrogate character")
    check_shape(sparql)
    if nested_service(sparql):  # refused before rdflib, which recurses without end on one
        raise FederationRefused("SERVICE", None, nested=True)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, PARSE_RECURSION_LIMIT))
    try:
        try:
            try:
                parsed = parseQuery(sparql)
            except ParseException:
                # rdflib's SERVICE reader and a one-line prologue (namespaces.prologue_on_own_lines)
                parsed = parse_again_with_prologue_lines(parseQuery, sparql, ParseException)
                if parsed is None:
                    raise
            prologue, body = parsed[0], parsed[1]
            return ParsedSPARQL(_FORMS[body.name], _declared(prologue),
                                _remote_operations(sparql, parsed, _namespaces(prologue)))
        except ParseException as query_err:
            try:
                parsed = parseUpdate(sparql)
            except ParseException:
                # Report the query parse error: most people typing SPARQL here mean a query.
                raise _syntax_error(sparql, query_err) from None
            prologues = parsed.get("prologue") or []
            declared = frozenset().union(*(_declared(p) for p in prologues)) if prologues else frozenset()
            namespaces = {}
            for p in prologues:
                namespaces.update(_namespaces(p))
            return ParsedSPARQL(UPDATE, declared, _remote_operations(sparql, parsed, namespaces))
    except RecursionError:
        raise SPARQLSyntaxError("the SPARQL query is nested too deeply to be parsed") from None
    finally:
        sys.setrecursionlimit(limit)


def _declared(prologue) -> frozenset[str]:
    return frozenset(p.get("prefix") or "" for p in prologue if getattr(p, "name", "") == "PrefixDecl")


def _namespaces(prologue) -> dict[str, str]:
    return {p.get("prefix") or "": str(p.get("iri")) for p in prologue if getattr(p, "name", "") == "PrefixDecl"}


# --- federation: SERVICE and LOAD make the store fetch URLs ------------------------------------------

MAX_SPARQL_CHARS = 100_000
_SURROGATE = re.compile("[\ud800-\udfff]")
# strings, IRIs and comments: blanked out before looking for the keywords
_NOT_KEYWORDS = re.compile("|".join([
    r'"""(?:[^"\\]|\\.|"(?!""))*"""', r"'{3}(?:[^'\\]|\\.|'(?!''))*'{3}",  # long strings
    r'"(?:[^"\\\n\r]|\\.)*"', r"'(?:[^'\\\n\r]|\\.)*'",                    # strings
    f"<[^{IRI_FORBIDDEN_CHARS}]*>",                                          # IRIs
    r"#[^\n\r]*",                                                           # comments
]), re.S)
_REMOTE_KEYWORD = re.compile(r"(?<![\w:?$\-.])(SERVICE|LOAD)(?![\w:\-])", re.I)


# --- shape: what the query engines can take ---------------------------------------------------------

# Measured on pyoxigraph 0.5.13 (issue 30): a flat `1 + 1 + …` of 15,000 terms, 3,000 nested
# braces, 1,000 nested CONCATs or a 1,000-step property path overflow its stack (the worker
# dies); 500 path steps take 27 s. rdflib's parser in the server takes ~1.4 ms of CPU per
# operator. Real queries are far below the limits: over 3,352 gold queries (WikiWebQuestions,
# QALD-9-plus, ECAI) at most 7 bracket levels, 9 operators and 14 triple-pattern separators.
MAX_SPARQL_NESTING = 32
MAX_SPARQL_OPERATORS = 100
MAX_SPARQL_PATTERNS = 250
_OPERATOR = re.compile(r"\|\||&&|!=|<=|>=|[=<>+*/!|^-]")


def blank_literals(sparql: str) -> str:
    """The query with its strings, IRIs and comments replaced by spaces of the same length, so
    that what is left is keywords, names, variables, numbers and punctuation, in place."""
    return _NOT_KEYWORDS.sub(lambda m: " " * len(m.group()), sparql)


def check_shape(sparql: str) -> None:
    """Refuse, before any parser or engine sees it, a query nested deeper than
    MAX_SPARQL_NESTING brackets, with more than MAX_SPARQL_OPERATORS operators or more than
    MAX_SPARQL_PATTERNS triple patterns and list items (``.``, ``;``, ``,``). VALUES data and
    long strings do not count."""
    text = blank_literals(sparql)
    depth = deepest = 0
    for char in text:
        if char in "({[":
            depth += 1
            deepest = max(deepest, depth)
        elif char in ")}]":
            depth -= 1
    if deepest > MAX_SPARQL_NESTING:
        raise SPARQLSyntaxError(f"the SPARQL query nests {deepest} levels of brackets; the limit is "
                                f"{MAX_SPARQL_NESTING}")
    operators = len(_OPERATOR.findall(text))
    if operators > MAX_SPARQL_OPERATORS:
        raise SPARQLSyntaxError(f"the SPARQL query has {operators:,} operators; the limit is "
                                f"{MAX_SPARQL_OPERATORS} (longer expressions can crash the query engine)")
    patterns = text.count(".") + text.count(";") + text.count(",")
    if patterns > MAX_SPARQL_PATTERNS:
        raise SPARQLSyntaxError(f"the SPARQL query has {patterns:,} triple patterns and list items; the limit "
                                f"is {MAX_SPARQL_PATTERNS}")


def nested_service(sparql: str) -> bool:
    """Whether a SERVICE keyword stands inside the block of another SERVICE."""
    text = blank_literals(sparql)
    depth, open_services, pending = 0, [], False
    for match in re.finditer(r"[{}]|(?<![\w:?$\-.])SERVICE(?![\w:\-])", text, re.I):
        token = match.group()
        if token == "{":
            depth += 1
            if pending:
                open_services.append(depth)
                pending = False
        elif token == "}":
            if open_services and open_services[-1] == depth:
                open_services.pop()
            depth -= 1
        else:
            if open_services:
                return True
            pending = True
    return False


def remote_keywords(sparql: str) -> set[str]:
    """SERVICE/LOAD used as keywords (outside strings, IRIs and comments): a conservative scan
    that does not depend on any parser."""
    return {m.group(1).upper() for m in _REMOTE_KEYWORD.finditer(_NOT_KEYWORDS.sub(" ", sparql))}


def _remote_operations(sparql: str, tree, namespaces: dict[str, str]) -> tuple:
    from pyparsing import ParseResults
    from rdflib.plugins.sparql.parserutils import CompValue
    from rdflib.term import URIRef

    def iri(term) -> str | None:
        if isinstance(term, URIRef):
            return str(term)
        if isinstance(term, CompValue) and term.name == "pname":
            prefix = term.get("prefix") or ""
            base = namespaces.get(prefix, PREFIXES.get(prefix))
            return None if base is None else base + (term.get("localname") or "")
        return None  # a variable: the target is only known while the query runs

    found: list[tuple[str, str | None]] = []
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, CompValue):
            if node.name == "ServiceGraphPattern":
                found.append(("SERVICE", iri(node.get("term"))))
            elif node.name == "Load":
                found.append(("LOAD", iri(node.get("iri"))))
            stack.extend(node.values())
        elif isinstance(node, (list, tuple, ParseResults)):  # ParseResults is not a list
            stack.extend(node)
        elif isinstance(node, dict):
            stack.extend(node.values())
    seen = {kind for kind, _ in found}
    # the lexical scan catches what the tree walk might miss; the target is then unknown
    found += [(kind, None) for kind in sorted(remote_keywords(sparql) - seen)]
    return tuple(dict.fromkeys(found))


def _syntax_error(sparql: str, err) -> SPARQLSyntaxError:
    lines = sparql.splitlines() or [""]
    line = lines[err.lineno - 1] if 0 < err.lineno <= len(lines) else ""
    found = line[err.col - 1 : err.col + 19].split("\n")[0] or "end of query"
    return SPARQLSyntaxError(
        f"malformed SPARQL at line {err.lineno}, column {err.col} near {found!r}\n"
        f"  {line}\n  {' ' * (err.col - 1)}^"
    )


def with_prefixes(sparql: str, parsed: ParsedSPARQL, prefixes: dict[str, str] = PREFIXES) -> str:
    """The query with PREFIX declarations added for the known prefixes it does not declare."""
    missing = [f"PREFIX {name}: <{iri}>" for name, iri in prefixes.items() if name not in parsed.declared_prefixes]
    return "\n".join(missing + [sparql]) if missing else sparql
