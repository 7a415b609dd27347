"""SPARQL text -> rdflib's algebra: the reading the decompiler and the equivalence checker share
(with :mod:`cnl.sparql.algebra_rewrites`' meaning-preserving rewrites applied).

Queries written for Wikidata rarely declare their prefixes, so the namespace table's missing
declarations are added first; a syntax error still points at the line of the text given.
"""
from __future__ import annotations

from pyparsing import ParseException
from rdflib.plugins.sparql.algebra import translateQuery
from rdflib.plugins.sparql.parser import parseQuery

from cnl.errors import SPARQLParseError
from cnl.sparql.algebra_rewrites import simplify
from cnl.sparql.label_service import read_label_service
from cnl.sparql.namespaces import declare_missing, parse_again_with_prologue_lines


def parse_algebra(sparql: str):
    """The algebra of ``sparql`` (an rdflib CompValue named ``SelectQuery``, ``AskQuery``...);
    :class:`SPARQLParseError` for text that is not SPARQL."""
    if not isinstance(sparql, str) or not sparql.strip():
        raise SPARQLParseError("empty SPARQL query", text=sparql or "")
    # WDQS's label service with its triples written out is those triples (see label_service)
    text = declare_missing(read_label_service(sparql))
    declaration_lines = text.count("\n") - sparql.count("\n")
    try:
        algebra = translateQuery(_parse_query(text)).algebra
    except ParseException as exc:
        raise SPARQLParseError(f"SPARQL syntax error: {exc.msg}", text=sparql,
                               line=max(1, exc.lineno - declaration_lines), column=exc.col) from None
    except Exception as exc:  # noqa: BLE001 — rdflib raises plain Exceptions for bad prefixes etc.
        raise SPARQLParseError(f"invalid SPARQL: {_reason(exc)}", text=sparql) from None
    # the rewrites every reader shares (a plain sub-SELECT inlined, an unused BIND dropped, ...)
    return simplify(algebra)


def _parse_query(text: str):
    try:
        return parseQuery(text)
    except ParseException:
        # rdflib's SERVICE reader and a one-line prologue (see prologue_on_own_lines)
        parsed = parse_again_with_prologue_lines(parseQuery, text, ParseException)
        if parsed is None:
            raise
        return parsed


def _reason(exc: Exception) -> str:
    """rdflib's message, an undeclared prefix named the way it is written (``:a`` for ``_:a``
    uses the empty prefix, which rdflib reports as ``None``)."""
    text = str(exc)
    if text.startswith("Unknown namespace prefix : "):
        prefix = text[len("Unknown namespace prefix : "):].strip()
        prefix = "" if prefix == "None" else prefix
        hint = " (a blank node is written _:name)" if not prefix else ""
        return f"the prefix '{prefix}:' is used but not declared{hint}"
    return text
