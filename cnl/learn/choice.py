"""Choosing among the beams by what their queries return on the KG.

A question's wh-phrase says what kind of answer it wants — *who* a person (or an organisation),
*when* a date, *how many* a number, *where* a place — and a KG with types and dates says what
kind each beam's answers are: an item that is an instance of human (``wdt:P31 wd:Q5``), a date
literal, a number, an item with a location (coordinates, a country, an administrative unit).
A beam whose answers are of the wrong kind says something other than what was asked, and a beam
with no answer on the KG says nothing the KG knows.

:func:`expected_kind` reads the question; :func:`answer_kinds` reads a result;
:func:`kind_fits` says whether one fits the other. The rules are English wh-words and Wikidata's
own modelling (P31, P625, P17, P131, ...), nothing of a particular question or data set.
"""
from __future__ import annotations

import re

from cnl.sparql.namespaces import WD

PERSON, DATE, NUMBER, PLACE = "person", "date", "number", "place"
KINDS = (PERSON, DATE, NUMBER, PLACE)

_XSD = "http://www.w3.org/2001/XMLSchema#"
_DATES = {_XSD + t for t in ("dateTime", "date", "gYear", "gYearMonth", "dateTimeStamp")}
_NUMBERS = {_XSD + t for t in ("integer", "decimal", "double", "float", "int", "long", "short",
                              "nonNegativeInteger", "positiveInteger", "negativeInteger", "nonPositiveInteger",
                              "unsignedInt", "unsignedLong")}
HUMAN = WD + "Q5"
# properties only a place has in Wikidata: coordinates, country, administrative unit, continent,
# shared border, capital, contained units, population, location, terrain
PLACE_PROPERTIES = ("P625", "P17", "P131", "P30", "P47", "P36", "P150", "P1082", "P276", "P706")
# at most this many answer items are typed (one query each for classes and places)
TYPED_ITEMS = 10

_LEADING = r"^\W*(?:(?:and|so|then|please|tell me|do you know|can you tell me)\W+)*"
_RULES = (
    (NUMBER, re.compile(_LEADING + r"how\s+(?:many|much)\b", re.I)),
    (DATE, re.compile(_LEADING + r"(?:when\b|(?:in|on|at|during|by|since|until)?\s*(?:what|which)\s+"
                      r"(?:year|date|day|month|decade|century)\b)", re.I)),
    (PLACE, re.compile(_LEADING + r"(?:where\b|(?:from|in|to|at)\s+where\b)", re.I)),
    (PERSON, re.compile(_LEADING + r"(?:who|whom)\b", re.I)),
)


def expected_kind(question: str) -> str | None:
    """The kind of answer the question's leading wh-phrase asks for (``person``, ``date``,
    ``number``, ``place``), or None: "what", "which", yes/no questions and any other form say
    nothing certain about it."""
    for kind, rule in _RULES:
        if rule.search(question):
            return kind
    return None


def answer_kinds(result, kg=None) -> set[str]:
    """The kinds among a SELECT result's values: ``date`` and ``number`` for such literals;
    for items (typed through ``kg``, the first :data:`TYPED_ITEMS`), ``person`` for an instance
    of human, ``place`` for an item with a location property, ``item`` otherwise; ``text`` for
    other literals. An ASK result has none."""
    rows = getattr(result, "rows", None)
    if not rows:
        return set()
    kinds, items = set(), []
    for row in rows:
        for term in row:
            if term is None:
                continue
            if getattr(term, "is_iri", False):
                if term.value not in items:
                    items.append(term.value)
            elif term.datatype in _DATES:
                kinds.add(DATE)
            elif term.datatype in _NUMBERS:
                kinds.add(NUMBER)
            else:
                kinds.add("text")
    items = items[:TYPED_ITEMS]
    if items and kg is not None:
        kinds |= _item_kinds(kg, items)
    elif items:
        kinds.add("item")
    return kinds


def _item_kinds(kg, items: list[str]) -> set[str]:
    from cnl.errors import CNLError
    from cnl.kg.limits import query_limits

    values = " ".join(f"<{iri}>" for iri in items)
    places = "|".join(f"wdt:{p}" for p in PLACE_PROPERTIES)
    kinds = set()
    try:
        with query_limits(timeout=2.0, max_rows=len(items)):
            people = kg.query(f"SELECT DISTINCT ?x WHERE {{ VALUES ?x {{ {values} }} ?x wdt:P31 <{HUMAN}> }}")
            located = kg.query(f"SELECT DISTINCT ?x WHERE {{ VALUES ?x {{ {values} }} ?x {places} ?v }}")
    except CNLError:
        return {"item"}
    humans = {row[0].value for row in people.rows}
    where = {row[0].value for row in located.rows} - humans
    if humans:
        kinds.add(PERSON)
    if where:
        kinds.add(PLACE)
    if len(humans | where) < len(items):
        kinds.add("item")
    return kinds


def kind_fits(expected: str | None, kinds: set[str], *, counts: bool = False) -> bool | None:
    """Whether answers of ``kinds`` fit the ``expected`` kind: None when nothing is expected or
    there is no answer to judge; ``counts``: the query counts (a number by construction).
    Dates and numbers are literals, so *when* and *how many* need one. Items are typed only as
    far as the KG types them (a place without coordinates or country in it is a plain item), so
    *who* takes a person or an untyped item (organisations, bands and teams ask "who" too) and
    *where* a place or an untyped item: what they refuse is an answer of another known kind."""
    if expected is None or (not kinds and not counts):
        return None
    if expected == NUMBER:
        return counts or NUMBER in kinds
    if expected == DATE:
        return DATE in kinds
    if expected == PERSON:
        return PERSON in kinds or "item" in kinds
    return PLACE in kinds or "item" in kinds


_ENTITY_TERM = re.compile(r"\[((?:[^\]\\]|\\.)*)\]")


def _label_ids(candidates) -> tuple[dict, dict, dict]:
    """The question's candidates by normalized label (IDs in order), the mentions each label's
    candidates were linked from, and the candidates of each mention ((-probability, order, ID))."""
    from cnl.linking.lexicon import normalize_label

    ids: dict[str, list[str]] = {}
    mentions_of: dict[str, list[str]] = {}
    by_mention: dict[str, list[tuple[float, int, str]]] = {}
    for order, c in enumerate(candidates):
        label, ident, mention = c.get("label"), c.get("id"), c.get("mention")
        if not (label and ident):
            continue
        key = normalize_label(label)
        found = ids.setdefault(key, [])
        if ident not in found:
            found.append(ident)
        if mention:
            words = normalize_label(mention)
            if words not in mentions_of.setdefault(key, []):
                mentions_of[key].append(words)
            by_mention.setdefault(words, []).append((-float(c.get("probability") or 0.0), order, ident))
    return ids, mentions_of, by_mention


def _entity_labels(text: str) -> list[tuple[str, str]]:
    """(label, normalized label) of each distinct ``[label]`` of a CNL text, in order."""
    from cnl.dialects.notation import unescape
    from cnl.linking.lexicon import normalize_label

    out, seen = [], set()
    for match in _ENTITY_TERM.finditer(text):
        label = unescape(match.group(1))
        key = normalize_label(label)
        if key not in seen:
            seen.add(key)
            out.append((label, key))
    return out


def entity_readings(text: str, candidates, limit: int = 3) -> list[dict]:
    """Other readings of a CNL's entity labels that several of the question's candidates share
    ("Colorado Rockies" the baseball team or the ice-hockey team; "Child's Play" the play or the
    film series): label -> ID maps, one label changed at a time, the candidates' order kept,
    at most ``limit``. The reading the resolver gives first (the linker's best) is not among
    them."""
    ids = _label_ids(candidates)[0]
    out: list[dict] = []
    for label, key in _entity_labels(text):
        for ident in ids.get(key, [])[1:]:
            out.append({label: ident})
            if len(out) >= limit:
                return out
    return out


def mention_readings(text: str, candidates, limit: int = 3) -> list[dict]:
    """Readings of a CNL's entity labels by the question's words they were linked from: the
    other candidates of the same mention, likeliest first, one label changed at a time, at most
    ``limit``. The model's label is its guess at what those words name, and the linker's other
    readings of them may be what the question means ("Fast and Furious movies": the franchise,
    where the model wrote "[The Fast and the Furious]", the 2001 film). Only for a label that is
    not those very words (the model guessed a name). Weaker evidence than a
    shared label (the model did not write their name): a caller tries them only after every
    reading it wrote (see ``Translator.choose``)."""
    ids, mentions_of, by_mention = _label_ids(candidates)
    out: list[dict] = []
    for label, key in _entity_labels(text):
        named = ids.get(key, [])
        # a label that is the question's own words guessed nothing: the resolver reads it as the
        # linker's best reading of them (the Japan asked for, not the Empire of Japan)
        guessed_from = [words for words in mentions_of.get(key, []) if words != key]
        for _, _, ident in sorted(x for words in guessed_from for x in by_mention.get(words, [])):
            if ident not in named and {label: ident} not in out:
                out.append({label: ident})
                if len(out) >= limit:
                    return out
    return out


def answered(result) -> bool:
    """Whether a query result says something: a true ASK, or rows with a value that is not a
    count of zero (a COUNT over nothing still returns its row)."""
    if isinstance(result, bool) or result is None:
        return result is True
    rows = getattr(result, "rows", None) or ()
    for row in rows:
        for term in row:
            if term is None:
                continue
            if term.datatype in _NUMBERS and not getattr(term, "is_iri", False):
                try:
                    if float(term.value) == 0:
                        continue
                except ValueError:
                    pass
            return True
    return False


# rows of a candidate's answer that are read to judge it (and to type its items)
JUDGED_ROWS = 20


def judge(options, kg, question: str, signals, *, timeout: float | None = None, near=None):
    """(text, SPARQL) of the option to keep among (text, SPARQL, another reading) options, in
    order (see ``Translator.choose``): the first whose answer on ``kg`` says something and fits
    the kind the question asks for; else the first near reading (``near``: a function that gives
    (text, SPARQL, accept) triples, called only then; :mod:`cnl.learn.repairs`) whose answer says
    something, fits the kind asked for and is accepted by its ``accept(result)``; else, when a
    kind is asked, the first (not another reading) whose answer or query is not of a wrong kind;
    else the first that is not another reading.
    ``signals``: "answers", "type", "readings" (and "fit", which orders the options before:
    ``Translator.choose``)."""
    from cnl.errors import CNLError
    from cnl.kg.limits import query_limits

    expected = expected_kind(question) if "type" in signals and question else None
    needs_answers = bool(set(signals) & {"answers", "readings"})

    def run(sparql):
        """(result, whether it says something, whether it fits the kind asked for)."""
        try:
            # enough rows to type the answers, and no candidate may stall the question
            with query_limits(timeout=timeout, max_rows=JUDGED_ROWS):
                result = kg.query(sparql)
        except CNLError:
            result = None
        says = answered(result)
        fits = None
        if expected is not None:
            if says and not isinstance(result, bool):
                fits = kind_fits(expected, answer_kinds(result, kg), counts=NUMBER in (query_kinds(sparql) or ()))
            else:
                fits = kind_fits(expected, query_kinds(sparql) or set())
        return result, says, fits

    not_misfit = None
    for text, sparql, alternative in options:
        _, says, fits = run(sparql)
        if says and fits is not False and (needs_answers or fits) and (not alternative or "readings" in signals):
            return text, sparql
        if not alternative and not_misfit is None and fits is not False:
            not_misfit = (text, sparql)
    for text, sparql, accept in (near() if near is not None else ()):
        result, says, fits = run(sparql)
        if says and fits is not False and accept(result):
            return text, sparql
    if not_misfit is not None and expected is not None:
        return not_misfit
    return next((text, sparql) for text, sparql, alternative in options if not alternative)


# what a value of a property of each Wikidata datatype is
_DATATYPE_KINDS = {"Time": DATE, "Quantity": NUMBER, "WikibaseItem": "item", "GlobeCoordinate": PLACE,
                   "String": "text", "Monolingualtext": "text", "ExternalId": "text", "Url": "text"}
_HEAD = re.compile(r"\bSELECT\b(.*?)\bWHERE\b", re.I | re.S)
_COUNT = re.compile(r"\bCOUNT\s*\(", re.I)


def query_kinds(sparql: str) -> set[str] | None:
    """The kinds the query's answers can have, read from the query alone: ``number`` for a
    count, else the kinds of the Wikidata datatypes of the properties whose values it selects
    (``?x wdt:P569 ?date`` selecting ``?date``: a date). None when that cannot be told (an ASK,
    a selected variable no property gives a value to, a property of unknown datatype)."""
    from cnl.sparql.wikidata_properties import wikidata_properties

    head = _HEAD.search(sparql)
    if head is None:
        return None
    if _COUNT.search(head.group(1)):
        return {NUMBER}
    datatypes = _datatypes(wikidata_properties)
    kinds = set()
    for var in set(re.findall(r"\?(\w+)", head.group(1))):
        found = re.findall(r"(?:wdt|ps|pq):(P\d+)[*+?]?\s+\?" + var + r"\b", sparql)
        if not found:
            return None
        for pid in found:
            kind = _DATATYPE_KINDS.get(datatypes.get(pid))
            if kind is None:
                return None
            kinds.add(kind)
    return kinds or None


def _datatypes(properties) -> dict:
    global _DATATYPE_TABLE
    if _DATATYPE_TABLE is None:
        _DATATYPE_TABLE = {p.id: p.datatype for p in properties()}
    return _DATATYPE_TABLE


_DATATYPE_TABLE = None


__all__ = ["expected_kind", "answer_kinds", "kind_fits", "query_kinds", "entity_readings", "answered", "judge", "KINDS", "PERSON", "DATE", "NUMBER",
           "PLACE"]
