"""Stage: SPARQL text -> rdflib's algebra (the namespace table's missing declarations added);
only SELECT and ASK have a CNL form."""
from __future__ import annotations

from cnl.errors import UnsupportedSPARQLError
from cnl.sparql.algebra import parse_algebra
from cnl.sparql.decompile.state import Decompilation


def parse(state: Decompilation) -> None:
    state.algebra = parse_algebra(state.sparql)
    state.form = state.algebra.name
    if state.form in ("ConstructQuery", "DescribeQuery"):
        raise UnsupportedSPARQLError(state.form[: -len("Query")].upper())
