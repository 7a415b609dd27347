"""Recognising what a SPARQL string is, by parsing it (rdflib's SPARQL grammar), not by regex.

The form decides how it runs (SELECT → table, ASK → bool) and whether it is an update, which
a read-only connection must refuse.
"""
from __future__ import annotations

from dataclasses import dataclass

from cnl.sparql.namespaces import PREFIXES
from cnl.errors import SPARQLSyntaxError

SELECT, ASK, CONSTRUCT, DESCRIBE, UPDATE = "SELECT", "ASK", "CONSTRUCT", "DESCRIBE", "UPDATE"
_FORMS = {"SelectQuery": SELECT, "AskQuery": ASK, "ConstructQuery": CONSTRUCT, "DescribeQuery": DESCRIBE}


@dataclass(frozen=True)
class ParsedSPARQL:
    form: str  # SELECT, ASK, CONSTRUCT, DESCRIBE or UPDATE
    declared_prefixes: frozenset[str]

    @property
    def is_update(self) -> bool:
        return self.form == UPDATE


def parse_sparql(sparql: str) -> ParsedSPARQL:
    """The form and declared prefixes of a query or update; SPARQLSyntaxError if neither parses."""
    from pyparsing import ParseException
    from rdflib.plugins.sparql.parser import parseQuery, parseUpdate

    try:
        parsed = parseQuery(sparql)
        prologue, body = parsed[0], parsed[1]
        return ParsedSPARQL(_FORMS[body.name], _declared(prologue))
    except ParseException as query_err:
        try:
            parsed = parseUpdate(sparql)
        except ParseException:
            # Report the query parse error: most people typing SPARQL here mean a query.
            raise _syntax_error(sparql, query_err) from None
        prologues = parsed.get("prologue") or []
        declared = frozenset().union(*(_declared(p) for p in prologues)) if prologues else frozenset()
        return ParsedSPARQL(UPDATE, declared)


def _declared(prologue) -> frozenset[str]:
    return frozenset(p.get("prefix") or "" for p in prologue if getattr(p, "name", "") == "PrefixDecl")


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
