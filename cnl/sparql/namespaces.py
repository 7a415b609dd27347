"""The one namespace table: the prefixes Wikidata's query service predefines.

Queries written for Wikidata rarely declare them, so every stage that reads or runs such a
query (the decompiler, the equivalence checker, the stores) declares the missing ones from
here; compiled queries declare the ones they use. The order is the order of declarations in
compiled queries."""
from __future__ import annotations

import re

PREFIXES: dict[str, str] = {
    "wd": "http://www.wikidata.org/entity/",
    "wdt": "http://www.wikidata.org/prop/direct/",
    "p": "http://www.wikidata.org/prop/",
    "ps": "http://www.wikidata.org/prop/statement/",
    "pq": "http://www.wikidata.org/prop/qualifier/",
    "rdfs": "http://www.w3.org/2000/01/rdf-schema#",
    "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    "xsd": "http://www.w3.org/2001/XMLSchema#",
    "schema": "http://schema.org/",
    "skos": "http://www.w3.org/2004/02/skos/core#",
    "wds": "http://www.wikidata.org/entity/statement/",
    "wikibase": "http://wikiba.se/ontology#",
    "owl": "http://www.w3.org/2002/07/owl#",
    "bd": "http://www.bigdata.com/rdf#",
    "psn": "http://www.wikidata.org/prop/statement/value-normalized/",
    "psv": "http://www.wikidata.org/prop/statement/value/",
    "geof": "http://www.opengis.net/def/function/geosparql/",
}

WD = PREFIXES["wd"]
WDT = PREFIXES["wdt"]
P = PREFIXES["p"]
PS = PREFIXES["ps"]
PQ = PREFIXES["pq"]
PSN = PREFIXES["psn"]
PSV = PREFIXES["psv"]
STATEMENT = PREFIXES["wds"]
WIKIBASE = PREFIXES["wikibase"]
RDFS_LABEL = PREFIXES["rdfs"] + "label"
SKOS_ALT_LABEL = PREFIXES["skos"] + "altLabel"
SCHEMA_DESCRIPTION = PREFIXES["schema"] + "description"

_DECLARED = re.compile(r"PREFIX\s+([A-Za-z][\w.-]*)?\s*:", re.I)


def declarations(names=None, prefixes: dict[str, str] = PREFIXES) -> str:
    """``PREFIX name: <iri>`` lines (each ending in a newline) for ``names`` (default: all)."""
    return "".join(f"PREFIX {name}: <{prefixes[name]}>\n" for name in (names or prefixes))


def declared_prefixes(sparql: str) -> set[str]:
    """The prefix names a query declares itself (lower-cased)."""
    return {(m.group(1) or "").lower() for m in _DECLARED.finditer(sparql)}


def declare_missing(sparql: str, prefixes: dict[str, str] = PREFIXES) -> str:
    """``sparql`` with a declaration for each prefix of the table it does not declare itself."""
    declared = declared_prefixes(sparql)
    return declarations([n for n in prefixes if n.lower() not in declared], prefixes) + sparql


_PROLOGUE_ITEM = re.compile(r"\s*(?:PREFIX\s+(?:[A-Za-z][\w.-]*)?\s*:\s*<[^<>\s]*>|BASE\s*<[^<>\s]*>)", re.I)


def prologue_on_own_lines(sparql: str) -> str:
    """``sparql`` with the blank after each PREFIX/BASE declaration of its prologue made a line
    break. rdflib (7.x) reads a SERVICE block by searching the whole text again, and that search
    fails where a declaration shares its line with the query: a valid query copied as one line
    (``PREFIX wd: <...> SELECT ... { ... SERVICE wikibase:label { ... } }``) was refused as
    malformed. Readers parse the text as written first and this form only when that fails, so the
    positions in their error messages stay the writer's."""
    out, at = [], 0
    while (found := _PROLOGUE_ITEM.match(sparql, at)) is not None:
        out.append(sparql[at:found.end()])
        at = found.end()
        if at < len(sparql) and sparql[at] in " \t":
            out.append("\n")
            at += 1
    return "".join(out) + sparql[at:]


def parse_again_with_prologue_lines(parse, sparql: str, error: type[Exception]):
    """``parse(prologue_on_own_lines(sparql))`` where that can help (a SERVICE block) and works,
    else None: the caller then reports its first error, at the writer's positions."""
    if "SERVICE" not in sparql.upper():
        return None
    try:
        return parse(prologue_on_own_lines(sparql))
    except error:
        return None
