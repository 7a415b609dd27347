"""Stage: SPARQL text -> rdflib's algebra (the namespace table's missing declarations added);
only SELECT and ASK have a CNL form."""
from __future__ import annotations

from cnl.errors import SPARQLParseError, UnsupportedSPARQLError
from cnl.sparql.algebra import parse_algebra
from cnl.sparql.decompile.state import Decompilation


def parse(state: Decompilation) -> None:
    try:
        state.algebra = parse_algebra(state.sparql)
    except SPARQLParseError as err:
        lines = (err.text or "").splitlines()
        at = lines[err.line - 1][err.column - 1:] if err.line and err.column and err.line <= len(lines) else ""
        if at[:7].upper() == "SERVICE":
            # rdflib's reader stops at every SERVICE block: valid SPARQL, but none we can read
            raise UnsupportedSPARQLError("SERVICE", "a SERVICE block the SPARQL reader cannot read") from None
        raise
    state.form = state.algebra.name
    if state.form in ("ConstructQuery", "DescribeQuery"):
        raise UnsupportedSPARQLError(state.form[: -len("Query")].upper())
