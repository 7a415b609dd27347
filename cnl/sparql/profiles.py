"""KG profiles: how IR terms and statements become SPARQL for one knowledge graph.

A profile decides IRIs, the class test and the statement pattern; the compiler
(:mod:`cnl.sparql.compiler`) decides everything else. Profiles are small dataclasses whose
options are explicit, so a compiled query can always be reproduced from (text, profile).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import lru_cache, partial
from importlib import resources

from cnl.errors import CompileError
from cnl.sparql.namespaces import PREFIXES
from cnl.sparql.wikidata_properties import property_labels
from cnl.sparql.syntax import IRI_FORBIDDEN_CHARS, LANGUAGE_TAG

_QID = re.compile(r"^Q[1-9][0-9]*$")
_PID = re.compile(r"^P[1-9][0-9]*$")
# SPARQL's IRIREF: no spaces, no control characters, none of <>"{}|^`\
_IRI = re.compile(f"^<?([a-zA-Z][a-zA-Z0-9+.-]*:[^{IRI_FORBIDDEN_CHARS}]*)>?$")
_CURIE = re.compile(r"^([A-Za-z][A-Za-z0-9_-]*):([A-Za-z0-9_][A-Za-z0-9_.-]*)?$")

_NUMBER = re.compile(r"^[0-9]+(\.[0-9]+)?$")

# --- typed options: every value that reaches the SPARQL text is checked here ----------------------

MAX_LIMIT = 1_000_000
_PREFIX_NAME = re.compile(r"^([A-Za-z]([A-Za-z0-9_.-]*[A-Za-z0-9_-])?)?$")
_NAMESPACE = re.compile(f"^[a-zA-Z][a-zA-Z0-9+.-]*:[^{IRI_FORBIDDEN_CHARS}]*$")
# a property path: IRIs, prefixed names, `a` and the path operators / | ^ * + ? ! ( )
_PATH_TOKEN = re.compile(f"\\s*(?:(<[^{IRI_FORBIDDEN_CHARS}]*>)|"
                         r"([A-Za-z][A-Za-z0-9_.-]*|):"
                         r"([A-Za-z0-9_]([A-Za-z0-9_.-]*[A-Za-z0-9_-])?)?|(\ba\b)|([/|^*+?!()]))")


def _option_error(profile: str, option: str, value, expected: str) -> CompileError:
    return CompileError(f"profile option {option} must be {expected}, not {value!r}" +
                        (f" (profile {profile!r})" if profile else ""))


def check_path(profile: "KGProfile", option: str, value, *, single: bool = False) -> None:
    """``value`` is a property path (``single``: one predicate) made of IRIs and prefixed names
    with the profile's prefixes, so it cannot change the query around it."""
    expected = ("a predicate: an IRI in <> or a prefixed name with a declared prefix" if single
                else "a property path of IRIs and prefixed names with declared prefixes")
    if not isinstance(value, str) or not value.strip() or len(value) > 500:
        raise _option_error(profile.name, option, value, expected)
    pos, predicates, depth = 0, 0, 0
    text = value.strip()
    while pos < len(text):
        match = _PATH_TOKEN.match(text, pos)
        if match is None or match.end() == pos:
            raise _option_error(profile.name, option, value, expected)
        iri, prefix, _, _, keyword, operator = match.groups()
        if prefix is not None and prefix not in profile.prefixes:
            raise _option_error(profile.name, option, value, expected)
        if operator:
            if single:
                raise _option_error(profile.name, option, value, expected)
            depth += {"(": 1, ")": -1}.get(operator, 0)
            if depth < 0:
                raise _option_error(profile.name, option, value, expected)
        elif iri is not None or prefix is not None or keyword:
            predicates += 1
        pos = match.end()
        while pos < len(text) and text[pos].isspace():
            pos += 1
    if depth or not predicates or (single and predicates != 1):
        raise _option_error(profile.name, option, value, expected)


def _check_options(profile: "KGProfile") -> None:
    name = profile.name
    if not isinstance(name, str) or not name or len(name) > 100:
        raise _option_error("", "name", name, "a short name")
    prefixes = profile.prefixes
    if not isinstance(prefixes, dict) or len(prefixes) > 200:
        raise _option_error(name, "prefixes", prefixes, "a table of prefix names and namespace IRIs")
    for key, namespace in prefixes.items():
        if not isinstance(key, str) or not _PREFIX_NAME.fullmatch(key) or not isinstance(namespace, str) \
                or not _NAMESPACE.fullmatch(namespace):
            raise _option_error(name, "prefixes", {key: namespace}, "a prefix name and a namespace IRI")
    for option in ("label_columns", "order_columns", "numeric_cast", "year_cast", "count_distinct", "having"):
        if not isinstance(getattr(profile, option), bool):
            raise _option_error(name, option, getattr(profile, option), "true or false")
    limit = profile.default_limit
    if limit is not None and (not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= MAX_LIMIT):
        raise _option_error(name, "default_limit", limit, f"a whole number from 1 to {MAX_LIMIT:,}")
    language = profile.label_language
    if language is not None and (not isinstance(language, str) or not LANGUAGE_TAG.fullmatch(language)):
        raise _option_error(name, "label_language", language, "a BCP 47 language tag such as en or pt-BR")
    check_path(profile, "class_predicate", profile.class_predicate)
    if profile.class_path is not None:
        check_path(profile, "class_path", profile.class_path)
    check_path(profile, "label_predicate", profile.label_predicate, single=True)
    if profile.projection not in ("all", "focus"):
        raise CompileError(f"projection must be 'all' or 'focus', not {profile.projection!r}")
    if profile.duplicates not in DUPLICATES:
        raise _option_error(name, "duplicates", profile.duplicates, "one of " + ", ".join(DUPLICATES))
    if profile.order_cast not in (None, *ORDER_CASTS):
        raise _option_error(name, "order_cast", profile.order_cast, "none or one of " + ", ".join(ORDER_CASTS))
    if profile.today is not None and not _is_iso_date(profile.today):  # written into queries as a literal
        raise _option_error(name, "today", profile.today, "a date as YYYY-MM-DD")


def _is_iso_date(value) -> bool:
    import datetime

    if not isinstance(value, str) or not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", value):
        return False
    try:
        datetime.date.fromisoformat(value)
    except ValueError:
        return False
    return True


# the XSD number types an ordering's keys may be cast to (see KGProfile.order_cast)
ORDER_CASTS = ("integer", "decimal", "double")


_DATE_LITERAL = re.compile(r'^"(-?[0-9]{4,}-[0-9]{2}-[0-9]{2})"\^\^xsd:date$')


def as_date_time(term: str) -> str:
    """``"2009-01-20"^^xsd:date`` as the dateTime of that day's start (Wikidata's form of a
    date); any other term unchanged."""
    found = _DATE_LITERAL.match(term)
    return f'"{found.group(1)}T00:00:00Z"^^xsd:dateTime' if found else term


@lru_cache(maxsize=4)
def _properties_of_type(datatype: str) -> frozenset[str]:
    """PIDs of Wikidata's properties of a datatype (``Time``: date of birth, publication date,
    ...; ``Monolingualtext``: title, official name, ...)."""
    from cnl.sparql.wikidata_properties import wikidata_properties

    return frozenset(p.id for p in wikidata_properties() if p.datatype == datatype)


@lru_cache(maxsize=1)
def wikidata_string_properties() -> frozenset[str]:
    """PIDs whose values are strings (shipped list, see the file's header)."""
    text = resources.files("cnl.sparql").joinpath("wikidata_string_properties.txt").read_text("utf-8")
    ids: set[str] = set()
    for token in " ".join(line for line in text.splitlines() if not line.startswith("#")).split():
        low, _, high = token.partition("-")
        for n in range(int(low), int(high or low) + 1):
            ids.add(f"P{n}")
    return frozenset(ids)


# How a SELECT treats repeated answer rows: removed (SELECT DISTINCT), kept (SELECT), or
# reduced (SELECT REDUCED: the engine may remove some).
DUPLICATES = ("removed", "kept", "reduced")


@dataclass(frozen=True)
class KGProfile:
    """Base profile: direct properties (``?s <p> ?o``) and ``rdf:type`` classes."""

    name: str = "rdf"
    prefixes: dict = field(default_factory=lambda: dict(PREFIXES))
    class_predicate: str = "rdf:type"
    # "P31" style: instances only; set to e.g. "rdf:type/rdfs:subClassOf*" for closure.
    class_path: str | None = None
    label_predicate: str = "rdfs:label"
    # the CNL's pseudo-property "description" (a short text about a thing), None where the
    # KG has none: Wikidata's schema:description
    description_predicate: str | None = None
    # the CNL's pseudo-property "alias" (another name of a thing), None where the KG has
    # none: Wikidata's skos:altLabel ("also known as")
    alias_predicate: str | None = None
    # the CNL's pseudo-property "sitelinks" (the number of wiki pages about a thing, a measure of
    # how well known it is), None where the KG has none: Wikidata's wikibase:sitelinks
    sitelinks_predicate: str | None = None
    label_language: str | None = "en"
    # Add an OPTIONAL label column for every projected variable.
    label_columns: bool = False
    # LIMIT added to plain (unordered, non-count) selects; None for none.
    default_limit: int | None = None
    # "focus": only the question's focus (which/what/how many) and its grouping keys, as
    # queries written for Wikidata do; "all": every variable in scope (what Sparklis and the
    # ECAI gold queries do: the wikidata-ecai preset).
    projection: str = "focus"
    # Under projection "focus": also list the ordering keys. False by default: "which film
    # has the earliest <publication date>" asks for the film, and hand-written Wikidata queries
    # (WikiWebQuestions, QALD) order by a value they do not show.
    # Under either projection, False also leaves out the count "the most" ranks by
    # (ORDER BY DESC(COUNT(?x))).
    order_columns: bool = False
    # True: compare with a number as xsd:double(STR(x)) (Sparklis' form, also in the ECAI
    # golds: it also matches values typed as strings or with units); False: x itself.
    numeric_cast: bool = False
    # True: the year of a date is YEAR(xsd:dateTime(x)) (as some ECAI golds write it).
    year_cast: bool = False
    # The day the questions are asked on (an ISO date, "2023-04-20"): "now" is that day and "the
    # year of now" its year, as a number, for a data set whose answers are as of the day it was
    # written ("How old is ...?" answered with 2023 - the year of birth); None: SPARQL's NOW().
    today: str | None = None
    # An ordering's keys cast to this XSD number type (ORDER BY ASC(xsd:integer(?x))): values
    # written as strings ("10" after "9", as Wikidata's series ordinals are) ordered as numbers;
    # None: the values as they are.
    order_cast: str | None = None
    # Answer rows of a SELECT: "removed" (SELECT DISTINCT: answers are a set, SQUALL's
    # semantics), "kept" (SELECT: one row per solution) or "reduced" (SELECT REDUCED).
    # A count grouped by the answer columns has one row per group either way.
    duplicates: str = "removed"
    # True: a count counts distinct values (COUNT(DISTINCT ?x), SQUALL's "how many");
    # False: one per solution (COUNT(?x)), as many hand-written queries count.
    count_distinct: bool = True
    # How "that has at least 3 <P166>" is written: False, a counting sub-query joined to the
    # query (SQUALL's form, any depth); True, GROUP BY the answers HAVING(COUNT(...) >= 3), as
    # hand-written queries do (only about the answers of a question that lists them).
    having: bool = False

    def __post_init__(self):
        _check_options(self)

    # -- terms
    def iri(self, ident: str, role: str) -> str:
        """An entity/class IRI for ``ident`` (an IRI or a CURIE with a known prefix)."""
        return self._iri_or_curie(ident, role)

    def predicate(self, ident: str) -> str:
        return self._iri_or_curie(ident, "property")

    def _iri_or_curie(self, ident: str, role: str) -> str:
        curie = _CURIE.fullmatch(ident)
        if curie and curie.group(1) in self.prefixes and not ident.startswith(("http:", "https:", "urn:")):
            return ident
        iri = _IRI.fullmatch(ident)
        if iri and ":" in iri.group(1):
            return f"<{iri.group(1)}>"
        raise CompileError(f"{ident!r} is not a valid {role} IRI for profile {self.name!r}")

    def property_labels(self) -> dict[str, str]:
        """Lower-case label -> property ID of the KG's property vocabulary, as far as the profile
        knows it without a store (read Sparklis text that shows properties by bare labels)."""
        return {}

    def time_valued(self, prop_id: str) -> bool:
        """Whether the property's values are dates (so that a bare year compared with one is a
        year, not a number a date never equals); unknown here."""
        return False

    def language_tagged(self, prop_id: str) -> bool:
        """Whether the property's values are texts with a language tag (so that a plain string
        given for one is compared with its text); unknown here."""
        return False

    # -- patterns
    def class_test(self, subject: str, cls: str) -> str:
        path = self.class_path or self.class_predicate
        return f"{subject} {path} {cls} ."

    def statement(self, subject: str, prop_id: str, obj: str | None, quals: list[tuple[str, str]],
                  node: str | None = None, any_rank: bool = False) -> str:
        """``subject P obj`` with qualifiers; ``node``: the statement written through that
        named node (so that the query can say more about the statement itself); ``obj`` None:
        the statement without its value (``has a <P> statement``); ``any_rank``: a statement
        of any rank, not only the best-ranked (``at any rank``)."""
        if quals or node is not None or obj is None or any_rank:
            raise CompileError(f"profile {self.name!r} has no statement qualifiers, ranks or statements without "
                               "a value")
        return f"{subject} {self.predicate(prop_id)} {obj} ."

    def qualifier(self, node: str, qual_id: str, value: str) -> str:
        """``node``'s qualifier ``qual_id`` is ``value`` (a statement node named by ``statement``)."""
        raise CompileError(f"profile {self.name!r} has no statement qualifiers")

    def normalized_statement(self, subject: str, prop_id: str, obj: str, quals: list[tuple[str, str]]) -> str:
        """A statement whose value is its quantity in SI units (``has a <P2048> in SI units``)."""
        raise CompileError(f"profile {self.name!r} has no quantities in SI units ('in SI units')")

    def unit_statement(self, subject: str, prop_id: str, obj: str, unit: str, quals: list[tuple[str, str]]) -> str:
        """A statement whose value is its quantity's amount in ``unit`` (``has a <P2044> in unit <Q11573>``)."""
        raise CompileError(f"profile {self.name!r} has no quantities in a given unit ('in unit <Q>')")

    # -- property paths
    def path_predicate(self, ident: str) -> str:
        """One step of a property path (``<P131>+``): the KG's direct property."""
        return self.predicate(ident)

    def alternative_statement(self, subject: str, prop_ids: tuple[str, ...], obj: str,
                              quals: list[tuple[str, str]], any_rank: bool = False) -> str:
        """A statement of any of ``prop_ids`` (``<P22> or <P25>``)."""
        if quals or any_rank:
            raise CompileError(f"profile {self.name!r} has no statement qualifiers or ranks")
        return f"{subject} {'|'.join(self.predicate(p) for p in prop_ids)} {obj} ."


@dataclass(frozen=True)
class WikidataProfile(KGProfile):
    """Wikidata's statement model: ``wdt:P31`` classes, ``p:/ps:/pq:`` statements."""

    name: str = "wikidata"
    class_predicate: str = "wdt:P31"
    description_predicate: str | None = "schema:description"
    alias_predicate: str | None = "skos:altLabel"
    sitelinks_predicate: str | None = "wikibase:sitelinks"
    # "qualified": the truthy wdt: shortcut unless the statement has qualifiers (Wikidata
    # practice: simpler and faster on WDQS); "always": p:/ps: statements everywhere (as the
    # ECAI gold queries do: the wikidata-ecai preset).
    statements: str = "qualified"
    # True: instances of subclasses too (wdt:P31/wdt:P279*).
    subclasses: bool = False

    def __post_init__(self):
        super().__post_init__()
        if self.statements not in ("always", "qualified"):
            raise CompileError(f"statements must be 'always' or 'qualified', not {self.statements!r}")
        if not isinstance(self.subclasses, bool):
            raise _option_error(self.name, "subclasses", self.subclasses, "true or false")

    def iri(self, ident: str, role: str) -> str:
        if _QID.match(ident):
            return f"wd:{ident}"
        if _PID.match(ident):
            raise CompileError(f"{ident} is a property ID; a {role} needs an item ID (Q...)")
        return super().iri(ident, role)

    def property_labels(self) -> dict[str, str]:
        return property_labels()

    def time_valued(self, prop_id: str) -> bool:
        return prop_id in _properties_of_type("Time")

    def language_tagged(self, prop_id: str) -> bool:
        return prop_id in _properties_of_type("Monolingualtext")

    def class_test(self, subject: str, cls: str) -> str:
        path = "wdt:P31/wdt:P279*" if self.subclasses else "wdt:P31"
        return f"{subject} {path} {cls} ."

    def value(self, prop_id: str, term: str) -> str:
        """Numbers given for string-valued properties (series ordinal 3) become strings; a day
        given for a date-valued property is the dateTime Wikidata stores ("2009-01-20" is
        ``"2009-01-20T00:00:00Z"^^xsd:dateTime``: an ``xsd:date`` equals no Wikidata date)."""
        if _NUMBER.match(term) and prop_id in wikidata_string_properties():
            return f'"{term}"'
        if term.endswith('"^^xsd:date') and self.time_valued(prop_id):
            return as_date_time(term)
        return term

    def path_predicate(self, ident: str) -> str:
        # a path walks the truthy graph: wdt:P131+ (p:/ps: statements do not chain)
        return f"wdt:{ident}" if _PID.match(ident) else super().path_predicate(ident)

    def alternative_statement(self, subject: str, prop_ids: tuple[str, ...], obj: str,
                              quals: list[tuple[str, str]], any_rank: bool = False) -> str:
        """``wdt:P22|wdt:P25``; with qualifiers (or under ``statements="always"``, or of any
        rank) one statement node of either property: ``p:P22|p:P25 [ ps:P22|ps:P25 ?x ]``."""
        if not all(_PID.match(p) for p in prop_ids):
            if quals or any_rank:
                raise CompileError("qualifiers and ranks need Wikidata properties")
            return f"{subject} {'|'.join(self.path_predicate(p) for p in prop_ids)} {obj} ."
        if all(p in wikidata_string_properties() for p in prop_ids):
            obj = self.value(prop_ids[0], obj)
        quals = [(q, self.value(q, v)) for q, v in quals]
        if self.statements == "qualified" and not quals and not any_rank:
            return f"{subject} {'|'.join(f'wdt:{p}' for p in prop_ids)} {obj} ."
        parts = [f"{'|'.join(f'ps:{p}' for p in prop_ids)} {obj}"]
        for qual_id, value in quals:
            if not _PID.match(qual_id):
                raise CompileError(f"a qualifier must be a Wikidata property, not {qual_id!r}")
            parts.append(f"pq:{qual_id} {value}")
        return f"{subject} {'|'.join(f'p:{p}' for p in prop_ids)} [ {' ; '.join(parts)} ] ."

    def qualifier(self, node: str, qual_id: str, value: str) -> str:
        if not _PID.match(qual_id):
            raise CompileError(f"a qualifier must be a Wikidata property, not {qual_id!r}")
        return f"{node} pq:{qual_id} {self.value(qual_id, value)} ."

    def normalized_statement(self, subject: str, prop_id: str, obj: str, quals: list[tuple[str, str]]) -> str:
        """Wikidata's normalised quantity: ``subject p:P [ psn:P/wikibase:quantityAmount obj ]``
        (a statement of any rank, its amount converted to SI units)."""
        if not _PID.match(prop_id) or not all(_PID.match(q) for q, _ in quals):
            raise CompileError("a quantity in SI units needs Wikidata properties")
        parts = [f"psn:{prop_id}/wikibase:quantityAmount {obj}"]
        parts += [f"pq:{q} {self.value(q, v)}" for q, v in quals]
        return f"{subject} p:{prop_id} [ {' ; '.join(parts)} ] ."

    def unit_statement(self, subject: str, prop_id: str, obj: str, unit: str, quals: list[tuple[str, str]]) -> str:
        """Wikidata's full value node: ``subject p:P [ psv:P [ wikibase:quantityAmount obj ;
        wikibase:quantityUnit unit ] ]`` (a statement of any rank, its amount as written, in that
        unit only)."""
        if not _PID.match(prop_id) or not all(_PID.match(q) for q, _ in quals):
            raise CompileError("a quantity in a given unit needs Wikidata properties")
        parts = [f"psv:{prop_id} [ wikibase:quantityAmount {obj} ; wikibase:quantityUnit {unit} ]"]
        parts += [f"pq:{q} {self.value(q, v)}" for q, v in quals]
        return f"{subject} p:{prop_id} [ {' ; '.join(parts)} ] ."

    def statement(self, subject: str, prop_id: str, obj: str | None, quals: list[tuple[str, str]],
                  node: str | None = None, any_rank: bool = False) -> str:
        quals = [(q, self.value(q, v)) for q, v in quals]
        if not _PID.match(prop_id):
            if quals or obj is None or any_rank:
                raise CompileError(f"qualifiers, ranks and statements need a Wikidata property, not {prop_id!r}")
            return f"{subject} {self.predicate(prop_id)} {self.value(prop_id, obj)} ."
        if self.statements == "qualified" and not quals and node is None and obj is not None and not any_rank:
            return f"{subject} wdt:{prop_id} {self.value(prop_id, obj)} ."
        for qual_id, _ in quals:
            if not _PID.match(qual_id):
                raise CompileError(f"a qualifier must be a Wikidata property, not {qual_id!r}")
        return wikibase_statement(subject, ("p", "ps", "pq"), prop_id,
                                  None if obj is None else self.value(prop_id, obj), quals, node)


def wikibase_statement(subject: str, prefixes, prop: str, obj: str | None, quals: list[tuple[str, str]],
                       node: str | None) -> str:
    """``subject p:P [ ps:P obj ; pq:Q v ]`` in the namespaces ``prefixes`` (p, ps, pq), through
    ``node`` when it is named; ``obj`` None: no ``ps:`` value (``subject p:P []`` without
    qualifiers)."""
    p, ps, pq = prefixes
    parts = [] if obj is None else [f"{ps}:{prop} {obj}"]
    parts += [f"{pq}:{qual_id} {value}" for qual_id, value in quals]
    if node is not None:
        return f"{subject} {p}:{prop} {node} ." + (f"\n{node} {' ; '.join(parts)} ." if parts else "")
    return f"{subject} {p}:{prop} [ {' ; '.join(parts)} ] ." if parts else f"{subject} {p}:{prop} [] ."


_LOCAL_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.-]*$")


@dataclass(frozen=True)
class FileProfile(KGProfile):
    """A profile described by a TOML file (see docs/profiles.md and :func:`load_profile_file`).

    ``statement_scheme`` "direct": ``?s <p> ?o``; "wikibase": ``?s p:P [ ps:P ?o ; pq:Q ?v ]``
    with the three namespaces given in the file (qualifiers only exist in this scheme)."""

    statement_scheme: str = "direct"
    statement_prefixes: tuple = ()   # the prefix names of the p:, ps:, pq: namespaces
    label_predicates: tuple = ("rdfs:label",)
    # Bare names (``alice``) in IDs are read as ``default_prefix:alice``.
    default_prefix: str | None = None

    def __post_init__(self):
        super().__post_init__()
        if self.statement_scheme not in ("direct", "wikibase"):
            raise CompileError(f"statement scheme must be 'direct' or 'wikibase', not {self.statement_scheme!r}")
        if self.statement_scheme == "wikibase" and (
                len(self.statement_prefixes) != 3 or any(p not in self.prefixes for p in self.statement_prefixes)):
            raise _option_error(self.name, "statement_prefixes", self.statement_prefixes,
                                "the three declared prefixes of the p:, ps: and pq: namespaces")
        if not isinstance(self.label_predicates, tuple):
            raise _option_error(self.name, "label_predicates", self.label_predicates, "a list of predicates")
        for predicate in self.label_predicates:
            check_path(self, "label_predicates", predicate, single=True)
        if self.default_prefix is not None and self.default_prefix not in self.prefixes:
            raise _option_error(self.name, "default_prefix", self.default_prefix, "a declared prefix")

    def _iri_or_curie(self, ident: str, role: str) -> str:
        if self.default_prefix and _LOCAL_NAME.match(ident) and ":" not in ident:
            ident = f"{self.default_prefix}:{ident}"
        return super()._iri_or_curie(ident, role)

    def statement(self, subject: str, prop_id: str, obj: str | None, quals: list[tuple[str, str]],
                  node: str | None = None, any_rank: bool = False) -> str:
        if self.statement_scheme == "direct":
            return super().statement(subject, prop_id, obj, quals, node, any_rank)
        if node is not None or obj is None:
            return wikibase_statement(subject, self.statement_prefixes, self._local(prop_id), obj,
                                      [(self._local(q), v) for q, v in quals], node)
        return self.alternative_statement(subject, (prop_id,), obj, quals)

    def qualifier(self, node: str, qual_id: str, value: str) -> str:
        if self.statement_scheme == "direct":
            return super().qualifier(node, qual_id, value)
        return f"{node} {self.statement_prefixes[2]}:{self._local(qual_id)} {value} ."

    def _local(self, ident: str) -> str:
        name = ident.split(":", 1)[1] if ":" in ident and ident.split(":", 1)[0] in self.prefixes else ident
        if not _LOCAL_NAME.match(name):
            raise CompileError(f"{ident!r} is not a property name of profile {self.name!r}")
        return name

    def path_predicate(self, ident: str) -> str:
        if self.statement_scheme == "wikibase":
            raise CompileError(f"profile {self.name!r} writes statements (p:/ps:), which a property path cannot chain")
        return super().path_predicate(ident)

    def alternative_statement(self, subject, prop_ids, obj, quals, any_rank: bool = False) -> str:
        if self.statement_scheme == "direct":
            return super().alternative_statement(subject, prop_ids, obj, quals, any_rank)
        p, ps, pq = self.statement_prefixes
        names = [self._local(i) for i in prop_ids]
        parts = [f"{'|'.join(f'{ps}:{n}' for n in names)} {obj}"] + [f"{pq}:{self._local(q)} {v}" for q, v in quals]
        return f"{subject} {'|'.join(f'{p}:{n}' for n in names)} [ {' ; '.join(parts)} ] ."


MAX_PROFILE_BYTES = 1_000_000


def load_profile_file(path, **options) -> FileProfile:
    """A :class:`FileProfile` from a TOML file; ``options`` override the file's settings.

    Fields: ``name``, ``[prefixes]``, ``class_predicate`` or ``class_path``,
    ``label_predicates`` (list), ``label_language``, ``default_prefix``, ``default_limit``,
    ``projection``, ``today``, and ``[statements]`` with ``scheme`` ("direct" | "wikibase") and, for
    wikibase, ``p``, ``ps``, ``pq`` (namespace IRIs)."""
    import tomllib
    from pathlib import Path

    from cnl.errors import ProfileFileError

    file = Path(path)
    try:
        if not file.exists():
            raise ProfileFileError(f"cannot read profile file {file}: no such file")
        if not file.is_file():  # not a device, a FIFO or a folder
            raise ProfileFileError(f"cannot read profile file {file}: not a regular file")
        with open(file, "rb") as handle:
            raw = handle.read(MAX_PROFILE_BYTES + 1)
        if len(raw) > MAX_PROFILE_BYTES:
            raise ProfileFileError(f"profile file {file} is larger than {MAX_PROFILE_BYTES:,} bytes")
        data = tomllib.loads(raw.decode("utf-8"))
    except OSError as err:
        raise ProfileFileError(f"cannot read profile file {file}: {err.strerror or err}") from None
    except UnicodeDecodeError:
        raise ProfileFileError(f"profile file {file} is not UTF-8 text") from None
    except tomllib.TOMLDecodeError as err:
        raise ProfileFileError(f"profile file {file} is not valid TOML: {err}") from None
    known = {"name", "prefixes", "class_predicate", "class_path", "label_predicates", "label_language",
             "default_prefix", "default_limit", "projection", "statements", "label_columns", "today"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise ProfileFileError(f"profile file {file}: unknown field(s) {', '.join(unknown)}; "
                               f"known: {', '.join(sorted(known))}")
    prefixes = data.get("prefixes", {})
    if not isinstance(prefixes, dict) or not all(isinstance(v, str) for v in prefixes.values()):
        raise ProfileFileError(f"profile file {file}: [prefixes] must map names to namespace IRIs")
    prefixes = {"rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
                "rdfs": "http://www.w3.org/2000/01/rdf-schema#",
                "xsd": "http://www.w3.org/2001/XMLSchema#", **prefixes}
    statements = data.get("statements", {"scheme": "direct"})
    if not isinstance(statements, dict):
        raise ProfileFileError(f"profile file {file}: [statements] must be a table with 'scheme'")
    scheme = statements.get("scheme", "direct")
    statement_prefixes: tuple = ()
    if scheme == "wikibase":
        missing = [k for k in ("p", "ps", "pq") if not isinstance(statements.get(k), str)]
        if missing:
            raise ProfileFileError(f"profile file {file}: the wikibase statement scheme needs the "
                                   f"namespace IRIs {', '.join(missing)} in [statements]")
        for key in ("p", "ps", "pq"):
            prefixes.setdefault(key, statements[key])
            if prefixes[key] != statements[key]:
                raise ProfileFileError(f"profile file {file}: prefix {key!r} is declared as another namespace")
        statement_prefixes = ("p", "ps", "pq")
    labels = data.get("label_predicates", ["rdfs:label"])
    if isinstance(labels, str):
        labels = [labels]
    fields = {
        "name": data.get("name", file.stem),
        "prefixes": prefixes,
        "class_predicate": data.get("class_predicate", "rdf:type"),
        "class_path": data.get("class_path"),
        "label_predicates": tuple(labels),
        "label_predicate": labels[0] if labels else "rdfs:label",
        "label_language": data.get("label_language", "en"),
        "default_prefix": data.get("default_prefix"),
        "default_limit": data.get("default_limit"),
        "projection": data.get("projection", "focus"),
        "label_columns": data.get("label_columns", False),
        "today": data.get("today"),
        "statement_scheme": scheme,
        "statement_prefixes": statement_prefixes,
    }
    if fields["default_prefix"] and fields["default_prefix"] not in prefixes:
        raise ProfileFileError(f"profile file {file}: default_prefix {fields['default_prefix']!r} is not in [prefixes]")
    fields.update(options)
    try:
        return FileProfile(**fields)
    except CompileError as err:
        raise ProfileFileError(f"profile file {file}: {err}") from None
    except TypeError as err:
        raise ProfileFileError(f"bad option for profile file {file}: {err}") from None


# Profiles by name: name -> a callable taking profile options. Data sets add their conventions
# as named presets (register_profile), e.g. "wikidata-ecai" in cnl.datasets.ecai.
PROFILES: dict = {
    "wikidata": WikidataProfile,
    "rdf": KGProfile,
}


def register_profile(name: str, factory) -> None:
    """Make ``factory(**options)`` (a profile class, or a partial of one with a preset's
    settings) available as ``kg=name``."""
    PROFILES[name] = factory


def profile_names() -> list[str]:
    return sorted(PROFILES)


def named_profile(name, options: dict | None = None) -> KGProfile:
    """A registered profile by name (``wikidata``, ``rdf``, a preset), never a file: what a
    server lets its requests choose. ``options`` are checked like every profile's."""
    if not isinstance(name, str) or name not in PROFILES:
        shown = repr(name if len(name) <= 60 else name[:60] + "…") if isinstance(name, str) else \
            f"of type {type(name).__name__}"
        raise CompileError(f"unknown KG profile {shown}; choose one of {', '.join(profile_names())}")
    if options is not None and not isinstance(options, dict):
        raise CompileError("profile options must be a table of option names and values")
    return get_profile(name, **(options or {}))


def get_profile(kg, **options) -> KGProfile:
    """A profile by name (``wikidata``, ``rdf``, a registered preset), a TOML profile file's
    path, or an instance; ``options`` override its settings."""
    if isinstance(kg, KGProfile):
        if not options:
            return kg
        factory, kg = partial(replace, kg), kg.name
    elif kg not in PROFILES and (str(kg).endswith(".toml") or "/" in str(kg) or hasattr(kg, "is_file")):
        return load_profile_file(kg, **options)
    elif kg in PROFILES:
        factory = PROFILES[kg]
    else:
        raise CompileError(f"unknown KG profile {kg!r}; choose one of {', '.join(profile_names())}")
    try:
        if isinstance(options.get("prefixes"), dict):
            # prefixes given as an option extend the profile's table (its statement and default
            # prefixes must stay declared); a name given again takes the new namespace
            options = options | {"prefixes": factory().prefixes | options["prefixes"]}
        return factory(**options)
    except TypeError as err:
        raise CompileError(f"bad option for profile {kg!r}: {err}") from None
