"""Helpers for the round-trip tests of new constructs: SPARQL decompiled, printed as SQUALL in
the ID notation, parsed and compiled again; paraphrases compiled to one query."""
from __future__ import annotations

from rdflib.plugins.sparql import prepareQuery

import cnl
from cnl.dialects.squall.parser import parse_squall
from cnl.dialects.squall.printer import print_squall
from cnl.sparql.compiler import compile_query
from cnl.sparql.decompile import decompile_to_ir
from cnl.sparql.equivalence import equivalent

PREFIXES = ("PREFIX wd: <http://www.wikidata.org/entity/> PREFIX wdt: <http://www.wikidata.org/prop/direct/> "
            "PREFIX p: <http://www.wikidata.org/prop/> PREFIX ps: <http://www.wikidata.org/prop/statement/> "
            "PREFIX pq: <http://www.wikidata.org/prop/qualifier/> ")


def round_trip(sparql: str) -> tuple[str, str]:
    """(the SQUALL text ``sparql`` decompiles to, that text compiled under the options returned)."""
    query, options = decompile_to_ir(sparql)
    text = print_squall(query, "id", id_labels=False)
    return text, compile_query(parse_squall(text, notation="id"), "wikidata", None, **options)


def check_paraphrases(texts, sparql: str, lexicon, marker: str) -> list[str]:
    """The paraphrases compile to one query (rdflib parses each), equivalent to the hand-written
    ``sparql`` (prefixes added), which decompiles to a text with ``marker`` and compiles back
    equivalently. Returns the compiled paraphrases."""
    source = PREFIXES + sparql
    compiled = [cnl.compile(t, lexicon=lexicon) for t in texts]
    for c in compiled:
        prepareQuery(c)
    assert all(equivalent(c, compiled[0], distinct=True) for c in compiled[1:]), compiled
    assert equivalent(compiled[0], source, distinct=True), compiled[0]
    printed, back = round_trip(source)
    assert marker in printed, printed
    assert equivalent(back, source, distinct=True), (printed, back)
    return compiled
