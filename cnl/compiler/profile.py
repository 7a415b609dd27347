"""KG profiles: how IR terms and statements become SPARQL for one knowledge graph.

A profile decides IRIs, the class test and the statement pattern; the compiler
(:mod:`cnl.compiler.sparql`) decides everything else. Profiles are small dataclasses whose
options are explicit, so a compiled query can always be reproduced from (text, profile).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

from cnl.errors import CompileError

_QID = re.compile(r"^Q[1-9][0-9]*$")
_PID = re.compile(r"^P[1-9][0-9]*$")
_IRI = re.compile(r"^<?([a-zA-Z][a-zA-Z0-9+.-]*:[^<>\"{}|^`\\\s]*)>?$")
_CURIE = re.compile(r"^([A-Za-z][A-Za-z0-9_-]*):([A-Za-z0-9_][A-Za-z0-9_.-]*)?$")

_NUMBER = re.compile(r"^[0-9]+(\.[0-9]+)?$")


@lru_cache(maxsize=1)
def wikidata_string_properties() -> frozenset[str]:
    """PIDs whose values are strings (shipped list, see the file's header)."""
    text = resources.files("cnl.compiler").joinpath("wikidata_string_properties.txt").read_text("utf-8")
    ids: set[str] = set()
    for token in " ".join(line for line in text.splitlines() if not line.startswith("#")).split():
        low, _, high = token.partition("-")
        for n in range(int(low), int(high or low) + 1):
            ids.add(f"P{n}")
    return frozenset(ids)


# Every prefix Wikidata's query service predefines (queries written for it rarely declare them).
WDQS_PREFIXES = {
    "wd": "http://www.wikidata.org/entity/",
    "wds": "http://www.wikidata.org/entity/statement/",
    "wdt": "http://www.wikidata.org/prop/direct/",
    "p": "http://www.wikidata.org/prop/",
    "ps": "http://www.wikidata.org/prop/statement/",
    "pq": "http://www.wikidata.org/prop/qualifier/",
    "wikibase": "http://wikiba.se/ontology#",
    "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    "rdfs": "http://www.w3.org/2000/01/rdf-schema#",
    "skos": "http://www.w3.org/2004/02/skos/core#",
    "schema": "http://schema.org/",
    "xsd": "http://www.w3.org/2001/XMLSchema#",
    "owl": "http://www.w3.org/2002/07/owl#",
}

# The prefixes compiled queries may use (each declared only when used).
WIKIDATA_PREFIXES = {
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
}


@dataclass(frozen=True)
class KGProfile:
    """Base profile: direct properties (``?s <p> ?o``) and ``rdf:type`` classes."""

    name: str = "rdf"
    prefixes: dict = field(default_factory=lambda: dict(WIKIDATA_PREFIXES))
    class_predicate: str = "rdf:type"
    # "P31" style: instances only; set to e.g. "rdf:type/rdfs:subClassOf*" for closure.
    class_path: str | None = None
    label_predicate: str = "rdfs:label"
    label_language: str | None = "en"
    # Add an OPTIONAL label column for every projected variable.
    label_columns: bool = False
    # LIMIT added to plain (unordered, non-count) selects; None for none.
    default_limit: int | None = None
    # "all": every variable in scope (what Sparklis and the ECAI gold queries do);
    # "focus": only the question's focus (which/what/how many) and its grouping keys.
    projection: str = "all"
    # Under projection "focus": also list the ordering keys (False: only the focus, as
    # hand-written queries that order by a value they do not show).
    order_columns: bool = True

    def __post_init__(self):
        if self.projection not in ("all", "focus"):
            raise CompileError(f"projection must be 'all' or 'focus', not {self.projection!r}")

    # -- terms
    def iri(self, ident: str, role: str) -> str:
        """An entity/class IRI for ``ident`` (an IRI or a CURIE with a known prefix)."""
        return self._iri_or_curie(ident, role)

    def predicate(self, ident: str) -> str:
        return self._iri_or_curie(ident, "property")

    def _iri_or_curie(self, ident: str, role: str) -> str:
        curie = _CURIE.match(ident)
        if curie and curie.group(1) in self.prefixes and not ident.startswith(("http:", "https:", "urn:")):
            return ident
        iri = _IRI.match(ident)
        if iri and ":" in iri.group(1):
            return f"<{iri.group(1)}>"
        raise CompileError(f"{ident!r} is not a valid {role} IRI for profile {self.name!r}")

    # -- patterns
    def class_test(self, subject: str, cls: str) -> str:
        path = self.class_path or self.class_predicate
        return f"{subject} {path} {cls} ."

    def statement(self, subject: str, prop_id: str, obj: str, quals: list[tuple[str, str]]) -> str:
        if quals:
            raise CompileError(f"profile {self.name!r} has no statement qualifiers")
        return f"{subject} {self.predicate(prop_id)} {obj} ."


@dataclass(frozen=True)
class WikidataProfile(KGProfile):
    """Wikidata's statement model: ``wdt:P31`` classes, ``p:/ps:/pq:`` statements."""

    name: str = "wikidata"
    class_predicate: str = "wdt:P31"
    # "always": p:/ps: statements everywhere (as the ECAI gold queries do); "qualified": the
    # truthy wdt: shortcut unless the statement has qualifiers (simpler and faster on WDQS).
    statements: str = "always"
    # True: instances of subclasses too (wdt:P31/wdt:P279*).
    subclasses: bool = False

    def __post_init__(self):
        super().__post_init__()
        if self.statements not in ("always", "qualified"):
            raise CompileError(f"statements must be 'always' or 'qualified', not {self.statements!r}")

    def iri(self, ident: str, role: str) -> str:
        if _QID.match(ident):
            return f"wd:{ident}"
        if _PID.match(ident):
            raise CompileError(f"{ident} is a property ID; a {role} needs an item ID (Q...)")
        return super().iri(ident, role)

    def class_test(self, subject: str, cls: str) -> str:
        path = "wdt:P31/wdt:P279*" if self.subclasses else "wdt:P31"
        return f"{subject} {path} {cls} ."

    def value(self, prop_id: str, term: str) -> str:
        """Numbers given for string-valued properties (series ordinal 3) become strings."""
        if _NUMBER.match(term) and prop_id in wikidata_string_properties():
            return f'"{term}"'
        return term

    def statement(self, subject: str, prop_id: str, obj: str, quals: list[tuple[str, str]]) -> str:
        obj = self.value(prop_id, obj)
        quals = [(q, self.value(q, v)) for q, v in quals]
        if not _PID.match(prop_id):
            if quals:
                raise CompileError(f"qualifiers need a Wikidata property, not {prop_id!r}")
            return f"{subject} {self.predicate(prop_id)} {obj} ."
        if self.statements == "qualified" and not quals:
            return f"{subject} wdt:{prop_id} {obj} ."
        parts = [f"ps:{prop_id} {obj}"]
        for qual_id, value in quals:
            if not _PID.match(qual_id):
                raise CompileError(f"a qualifier must be a Wikidata property, not {qual_id!r}")
            parts.append(f"pq:{qual_id} {value}")
        return f"{subject} p:{prop_id} [ {' ; '.join(parts)} ] ."


PROFILES = {
    "wikidata": WikidataProfile,
    "rdf": KGProfile,
}


def get_profile(kg, **options) -> KGProfile:
    """A profile by name (``wikidata``, ``rdf``) or an existing profile instance."""
    if isinstance(kg, KGProfile):
        return kg
    try:
        cls = PROFILES[kg]
    except KeyError:
        raise CompileError(f"unknown KG profile {kg!r}; choose one of {', '.join(sorted(PROFILES))}") from None
    try:
        return cls(**options)
    except TypeError as err:
        raise CompileError(f"bad option for profile {kg!r}: {err}") from None
