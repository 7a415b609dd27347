"""Near readings of a written query, tried when no written reading has an answer on the KG.

Slips of a parser that the KG itself can tell, all in the commonest question there is
(what one property relates to one named thing):

- **the direction of the property.** ``Which [music genre] has <genre> [The Beatles]?`` asks for
  genres whose genre is the Beatles, where the Beatles have the genres. The KG's own use of the
  property says which side the named thing and the asked class belong on: the values of
  *genre* are genres, its subjects bands, works and people (:mod:`cnl.learn.slot_fit`'s slot
  profiles). The reversed reading is offered only where it fits those profiles better, so a
  property whose two sides are alike (*child*, *spouse*, *follows*) is never turned round;
- **a class the KG does not use for the answers.** ``Which [team] is a <member of sports team> of
  [LeBron James]?`` finds nothing, since Wikidata types the Miami Heat as a *basketball team*,
  not a *team*. Without the class, the query's answers are kept only where each is typed, by the
  KG, with a class named after the asked one: its label ends in the asked class's head noun
  ("basketball team", "association football club" for "club"), or is that class. A class named
  as the property is (``Which [award received] is a <award received> of ...``) says nothing and
  is left out without more;
- **a qualifier that repeats the statement's named thing** (``at <character role> [Titanic] of
  [Titanic]``): left out, and the near readings below are of the rest;
- **a near property.** ``Which [continent] is a <country> of [Japan]?``: of the question's
  property candidates, the one in the written property's place whose answers are of the asked
  class (the class test stays in the query, so only such answers come back): ``<continent>``.

- **the question's own relational noun**, first of all. "What is the capital of France?" written
  ``Which [capital] has <country> [France] and has the highest <population>?``, "Who are the
  children of Barack Obama?" written ``Which [human] has <child> [Barack Obama]?``: where the
  question says "the N of X" or "X's N", N the label of one of its property candidates (or its
  plural) and X words a candidate was linked from, it asks for the N of X: ``What is the
  <capital> of [France]?`` (:func:`relational_noun_readings`).

- **a named thing that cannot fill its property's slot.** ``Which [film] has <part of the series>
  [50 Cent] ...``: the values of *part of the series* are series, and the KG knows 50 Cent as a
  human; where the KG states the thing in the same slot of one of the question's property
  candidates (50 Cent is a *cast member*), that property is read in the written one's place
  (:func:`refitted_property_readings`). It needs no answer, so it is tried before the written
  text: the KG states the fact the query rests on.

- **a class that keeps only some of what the KG names after it**, even where the written query
  answers. ``Which [country] is a <country of citizenship> of [Albert Einstein]?`` gives the
  countries the KG types as *country* and leaves out the German Empire and Austria-Hungary,
  typed *historical country*; where every thing the relation gives is typed with the asked
  class or one named after it (as above), the class is left out
  (:func:`completed_without_class`).

A near reading is another query, so it is printed back as CNL: what a person reads is what ran.
Nothing here is about a particular question, property or data set.
"""
from __future__ import annotations

import dataclasses
import re

from cnl.dialects.squall.parser import parse_squall
from cnl.dialects.squall.printer import print_squall
from cnl.errors import CNLError
from cnl.ir import nodes as ir
from cnl.learn.slot_fit import SlotFit, slot_fit, slots
from cnl.sparql.compiler import compile_query
from cnl.sparql.namespaces import WD

# answers of the class-free reading whose classes are read (one query)
TYPED_ANSWERS = 10
# near readings judged for one question at most (each is one query on the KG, and a remote
# endpoint may take seconds for each): the first ones, of the first written texts
MAX_NEAR_READINGS = 12
_WORD = re.compile(r"[a-z]+")
_OTHER_SIDE = {"value": "subject", "subject": "value"}


def _plain_quant(np, dets) -> bool:
    return (isinstance(np, ir.Quant) and np.det in dets and not np.rels and np.order is None
            and np.number is None and np.var is None)


def _named(np) -> bool:
    return isinstance(np, ir.Ref) and isinstance(np.term, ir.Entity)


def _plain_property(prop) -> bool:
    """A property, or one property's steps (``<P131>+``: a near property may be one step of
    another, as the country of Paris is of its administrative units)."""
    return isinstance(prop, ir.Property) or (
        isinstance(prop, ir.PropPath) and prop.op in ("+", "*") and len(prop.items) == 1
        and isinstance(prop.items[0], ir.Property))


def _statement(vp):
    """The part of a verb phrase that holds a property, its named thing and its qualifiers:
    ``has <P> X`` itself (an ``ir.Stmt``), or the ``<P> of X`` of ``is a/the <P> of X`` (an
    ``ir.RelNoun``); None for any other verb phrase."""
    if isinstance(vp, ir.Stmt):
        return vp
    if isinstance(vp, ir.Be) and _plain_quant(vp.np, ("a", "the")) and isinstance(vp.np.noun, ir.RelNoun):
        return vp.np.noun
    return None


def _with_statement(query: ir.Query, statement) -> ir.Query:
    """``query`` with its verb phrase's :func:`_statement` replaced by ``statement``."""
    if isinstance(statement, ir.Stmt):
        return dataclasses.replace(query, vp=statement)
    return dataclasses.replace(query, vp=ir.Be(np=dataclasses.replace(query.vp.np, noun=statement)))


def _named_of(statement):
    """The named thing of a statement: a Stmt's object, a RelNoun's ``of``."""
    return statement.obj if isinstance(statement, ir.Stmt) else statement.of


def _relation(query: ir.Query):
    """The one statement of a question "which (class) has/is the <P> of a named thing" (see
    :func:`_statement`), or None for any other query."""
    if not isinstance(query, ir.Query) or not _plain_quant(query.subject, ("which",)):
        return None
    if query.subject.noun is not None and not isinstance(query.subject.noun, ir.ClassNoun):
        return None
    statement = _statement(query.vp)
    if (statement is None or not _plain_property(statement.prop) or not _named(_named_of(statement))
            or statement.quals or getattr(statement, "order", None) is not None
            or statement.any_rank or statement.normalized or statement.unit):
        return None
    return statement


def without_echoed_qualifiers(query: ir.Query) -> ir.Query | None:
    """The question without the qualifiers of its one statement whose value is the statement's
    own named thing (``Which [human] is a <cast member> at <character role> [Titanic] of
    [Titanic]?``: the film is no character of itself), or None when it has none."""
    if not isinstance(query, ir.Query) or not _plain_quant(query.subject, ("which",)):
        return None
    statement = _statement(query.vp)
    if statement is None or not statement.quals or not _named(_named_of(statement)):
        return None
    kept = tuple(q for q in statement.quals if q.value != _named_of(statement))
    if len(kept) == len(statement.quals):
        return None
    return _with_statement(query, dataclasses.replace(statement, quals=kept))


def reversed_reading(query: ir.Query) -> ir.Query | None:
    """The question with its one property read the other way round ("which has <P> X" ↔ "which
    is a <P> of X"), or None when the query is not of that one-relation form."""
    statement = _relation(query)
    if statement is None:
        return None
    if isinstance(statement, ir.Stmt):
        return dataclasses.replace(query, vp=dataclasses.replace(statement, inverse=not statement.inverse))
    return dataclasses.replace(query, vp=ir.Stmt(prop=statement.prop, obj=statement.of))


def with_property(query: ir.Query, label: str) -> ir.Query | None:
    """The one-relation question with an answer class, its property replaced by the property
    labelled ``label`` (a near property of the question's: ``Which [continent] is a <country> of
    [Japan]?`` → ``... <continent> of ...``); None for another form, or without a class (the
    class is what tells a near property's answers right: they must be of it)."""
    statement = _relation(query)
    if statement is None or query.subject.noun is None or getattr(statement.prop, "label", None) == label:
        return None
    return _with_statement(query, dataclasses.replace(statement, prop=ir.Property(id=None, label=label)))


def classless_reading(query: ir.Query) -> ir.Query | None:
    """The one-relation question without its answer's class ("which <team> is a <P> of X" →
    "what is a <P> of X"), or None when it has no class or another form."""
    if _relation(query) is None or query.subject.noun is None:
        return None
    return dataclasses.replace(query, subject=dataclasses.replace(query.subject, noun=None))


def class_echoes_property(query: ir.Query) -> bool:
    """Whether the one-relation question's answer class is named as its property is (``Which
    [award received] is a <award received> of [Marie Curie]?``): the property's name written
    again where a class goes, which says nothing of the answers."""
    from cnl.linking.lexicon import normalize_label

    statement = _relation(query)
    if statement is None or not isinstance(query.subject.noun, ir.ClassNoun):
        return False
    prop, cls = statement.prop, query.subject.noun.cls
    return bool(isinstance(prop, ir.Property) and prop.label and cls.label
                and normalize_label(prop.label) == normalize_label(cls.label))


def text_without_echoed_class(text: str, notation: str) -> str | None:
    """The one-relation question ``text`` without an answer class named as its property is
    (:func:`class_echoes_property`), printed back in ``notation``; None when it has none (or
    does not parse)."""
    try:
        query = parse_squall(text, notation=notation)
    except CNLError:
        return None
    if not class_echoes_property(query):
        return None
    return print_squall(classless_reading(query), notation)


def text_with_class_as_property(text: str, notation: str, property_id) -> str | None:
    """The one-relation question ``text`` whose answer class is no class but a property's name
    (``property_id``: the ID of the property a label names, or None), read as that property of its named
    thing: ``Which [home venue] is a <home team> of [New York Yankees]?`` (no KG has a class
    "home venue") → ``What is the <home venue> of [New York Yankees]?``, printed back in
    ``notation``; None otherwise (or when it does not parse). Tried where the text does not
    compile: a class the KG has stays a class."""
    try:
        query = parse_squall(text, notation=notation)
    except CNLError:
        return None
    reading = class_as_property_reading(query, property_id)
    return None if reading is None else print_squall(reading, notation)


def class_as_property_reading(query: ir.Query, property_id) -> ir.Query | None:
    """The one-relation question whose answer class is named as a property is (``property_id``:
    the ID of the property a label names, or None) read as that property of its named thing
    (``Which [sport] has <member of sports team> [Lionel Messi]?`` → ``What is the <sport> of
    [Lionel Messi]?``); None for another form, a class no property is named as, or one named as
    the written property is ("[team]", an alias of <member of sports team>: that is the class
    left out, :func:`classless_reading`)."""
    statement = _relation(query)
    if statement is None or not isinstance(query.subject.noun, ir.ClassNoun):
        return None
    label = query.subject.noun.cls.label
    named = property_id(label) if label else None
    prop = statement.prop if isinstance(statement.prop, ir.Property) else statement.prop.items[0]
    if named is None or named.lstrip("^") == (prop.id or property_id(prop.label) or "").lstrip("^"):
        return None
    return _the_property_of(label, _named_of(statement))


def _the_property_of(label: str, named) -> ir.Query:
    """``What is the <label> of X?``, X the noun phrase ``named``."""
    return ir.Query(ir.Quant("which"), ir.Be(ir.Quant("the", ir.RelNoun(ir.Property(id=None, label=label), named))))


def resolves_as_property(resolver):
    """A function that gives the ID of the property ``resolver`` reads a label as, or None."""
    def property_id(label: str | None) -> str | None:
        if not label:
            return None
        try:
            return str(resolver.resolve(label, "property"))
        except CNLError:
            return None
    return property_id


def main_slot(sparql: str):
    """(entity, property, side) of the query's one property slot, and its class (the QID of its
    ``wdt:P31`` test, or None); None when the query has other than one such slot."""
    found = slots(sparql)
    relations = [s for s in found if s[1] != "P31"]
    classes = [q for q, p, side in found if p == "P31" and side == "value"]
    if len(relations) != 1 or len(classes) > 1:
        return None
    return relations[0], (classes[0] if classes else None)


def reverse_fits_better(sparql: str, reversed_sparql: str, fit: SlotFit) -> bool:
    """Whether the reversed query puts its named thing and its class where the KG's own use of
    the property puts such things, better than the written query does (by the slot profiles
    alone: that the KG states the reversed fact is what the answer will show)."""
    written, turned = main_slot(sparql), main_slot(reversed_sparql)
    if written is None or turned is None:
        return False

    def score(found) -> float:
        (qid, prop, side), cls = found
        classes, words = fit.entity(qid)
        total = slot_fit(False, classes, words, fit.profile(prop, side), fit.baseline())
        if cls is not None:  # the answer's class, on the property's other side
            total += fit.profile(prop, _OTHER_SIDE[side]).class_share({cls})
        return total

    return score(turned) > score(written)


def head_noun(label: str | None) -> str | None:
    """The last word of a class label, lower-cased: what kind of thing it names ("team" of
    "basketball team")."""
    found = _WORD.findall((label or "").lower())
    return found[-1] if found else None


def named_after_class(kg, answers: list[str], cls: str, cls_label: str | None, *, timeout: float) -> bool:
    """Whether every one of the answer items (IRIs; the first :data:`TYPED_ANSWERS`) is typed by
    the KG with ``cls`` itself or with a class whose label ends in the head noun of
    ``cls_label``. An answer the KG does not type is no evidence, so it fails: without the class
    test, nothing else says the answers are what was asked for."""
    from cnl.errors import CNLError
    from cnl.kg.limits import query_limits

    head = head_noun(cls_label)
    items = answers[:TYPED_ANSWERS]
    if not items or head is None:
        return False
    values = " ".join(f"<{iri}>" for iri in items)
    try:
        with query_limits(timeout=timeout, max_rows=TYPED_ANSWERS * 20):
            result = kg.query(f"SELECT ?x ?c ?l WHERE {{ VALUES ?x {{ {values} }} ?x wdt:P31 ?c . "
                              f"OPTIONAL {{ ?c rdfs:label ?l }} }}")
    except CNLError:
        return False
    named = set()
    for x, c, label in getattr(result, "rows", None) or ():
        if c is not None and (c.value == WD + cls or (label is not None and head_noun(label.value) == head)):
            named.add(x.value)
    return named == set(items)


def class_label(kg, cls: str, query: ir.Query, *, timeout: float) -> str | None:
    """The label of the query's answer class: as written, else the KG's."""
    from cnl.errors import CNLError
    from cnl.kg.limits import query_limits

    written = getattr(getattr(query.subject.noun, "cls", None), "label", None)
    if written:
        return written
    try:
        with query_limits(timeout=timeout, max_rows=1):
            result = kg.query(f"SELECT ?l WHERE {{ <{WD}{cls}> rdfs:label ?l }} LIMIT 1")
    except CNLError:
        return None
    rows = getattr(result, "rows", None) or ()
    return rows[0][0].value if rows and rows[0][0] is not None else None


# plurals a relational noun may have in a question (its label is singular: <child>, <sibling>)
_IRREGULAR_PLURALS = {"child": "children", "person": "people", "wife": "wives", "man": "men", "woman": "women",
                      "life": "lives", "foot": "feet", "mouse": "mice", "tooth": "teeth", "leaf": "leaves"}


def _noun_forms(label: str) -> set[str]:
    """The words a property label may be said with as a noun: itself and its plural (of its last
    word: "official languages", "children", "countries")."""
    words = _WORD.findall(label.lower())
    if not words:
        return set()
    *head, last = words
    plurals = {last, last + "s", last + "es", _IRREGULAR_PLURALS.get(last, last)}
    if last.endswith("y") and len(last) > 2:
        plurals.add(last[:-1] + "ies")
    return {" ".join([*head, plural]) for plural in plurals}


# what may come before the "N of X" a question asks for ("what is the", "who are", "tell me the")
# and after it ("called"): nothing else, so the pair is the whole question ("what province is
# canada's capital located in?" asks something else of the capital)
_ASKING = {"what", "who", "whom", "which", "is", "are", "was", "were", "s", "the", "a", "an", "tell", "me", "give",
           "list", "name", "all"}  # "s": "what's"
_AFTER = {"called", "named", "now", "currently", "today"}
# a name may go on past the words a candidate was linked from ("queen elizabeth the first's
# mother", linked from "queen elizabeth"): up to two more words, none of them a preposition
_NAME_MORE = r"(?: (?!(?:in|on|at|of|for|from|to|by|with|and|or|during|before|after|since)\b)[a-z]+){0,2}"


def relational_noun_readings(question: str, candidates, properties) -> list[ir.Query]:
    """``What is the <N> of X?`` for each pair the whole question says as "the N of X" or "X's N"
    (only question words before it, as in "Who are the children of X?"): N a property
    candidate's label or alias (or its plural), X the words a candidate was linked from (its
    ``mention``), read as that candidate; in the question's order, each pair once. A property
    whose label ends in "of" ("part of") is no relational noun."""
    text = _words_of(question)
    if not text:
        return []
    mentions = []  # (normalized mention, candidate), in the candidates' order
    for c in candidates or ():
        mention, label = c.get("mention"), c.get("label")
        words = _words_of(mention)
        if words and label and c.get("id") and all(words != m for m, _ in mentions):
            mentions.append((words, c))
    found = []
    for prop in properties or ():
        names = [n for n in (prop.label, *getattr(prop, "aliases", ())) if n and not n.lower().endswith(" of")]
        forms = set().union(*(_noun_forms(n) for n in names)) if names else set()
        for words, cand in mentions:
            for form in forms:
                said = re.search(rf"(?<![a-z])(?:{re.escape(form)} of (?:the )?{re.escape(words)}{_NAME_MORE}|"
                                 rf"{re.escape(words)}{_NAME_MORE} s {re.escape(form)})(?![a-z])", text)
                if said and set(text[:said.start()].split()) <= _ASKING and set(text[said.end():].split()) <= _AFTER:
                    found.append((said.start(), prop.label, cand))
                    break
    out, seen = [], set()
    for _, label, cand in sorted(found, key=lambda f: f[0]):
        if (label, cand["id"]) in seen:
            continue
        seen.add((label, cand["id"]))
        out.append(_the_property_of(label, ir.Ref(ir.Entity(id=cand["id"], label=cand["label"]))))
    return out


_PROPERTY_IDS = re.compile(r"\b(?:wdt|p|ps|pq):(P\d+)\b")


def unwritten_relational_readings(written, *, question: str, candidates, nouns, notation: str, resolver,
                                  profile) -> list[tuple[str, str]]:
    """(text, SPARQL) of the question's relational-noun readings (:func:`relational_noun_readings`)
    whose property no ``written`` (text, SPARQL) uses: "What is the population of Germany?"
    written ``What has <country> [Germany]?`` (which answers, with all of Germany) never says
    the population the question asks for. A caller tries them before the written texts."""
    used = {pid for _, sparql in written for pid in _PROPERTY_IDS.findall(sparql or "")}
    out = []
    for reading in relational_noun_readings(question, candidates, nouns):
        try:
            text = print_squall(reading, notation)
            sparql = compile_query(parse_squall(text, notation=notation), profile, resolver)
        except CNLError:
            continue
        pids = set(_PROPERTY_IDS.findall(sparql)) - {"P31"}
        if pids and not pids & used:
            out.append((text, sparql))
    return out


_PROPERTY_TERM = re.compile(r"<((?:[^<>\\]|\\.)*)>")


def refitted_property_readings(written, *, notation: str, resolver, profile, properties, fit: SlotFit,
                               question: str = "", first: int = 5) -> list[tuple[str, str]]:
    """(text, SPARQL) for each ``written`` (text, SPARQL) one of whose named things misfits the
    slot of its property (:func:`cnl.learn.slot_fit.slot_fit` below 0: the KG knows what the
    thing is, and nothing it knows is like the property's values there, nor does it state the
    thing there), with that property replaced by the first of the question's ``first`` property
    candidates ``properties`` (best first) in whose same slot the KG states the thing, and that
    ranks above the written property. A property the question speaks for (one of its candidates
    ranked above the others, or its label or an alias among the question's words: "won by" for
    *winner*) stays: a KG may lack the fact ("the Super Bowls the Ravens won", where the slice
    states the team only as a participant, never as a winner). Only a property written once is
    replaced, and only one per text. The slot's profile, the costly part, is read last, only for
    a slot that another candidate would fill."""
    property_id = resolves_as_property(resolver)
    said = f" {_words_of(question)} "
    names = {c.id: (c.label, *c.aliases) for c in properties}
    rank = {}
    for i, c in enumerate(properties):
        rank.setdefault(c.id, i)
    out = []
    for text, sparql in written:
        for qid, pid, side in slots(sparql or ""):
            if pid == "P31" or fit.attested(qid, pid, side):
                continue
            terms = [m for m in _PROPERTY_TERM.finditer(text) if (property_id(m.group(1)) or "").lstrip("^") == pid]
            if len(terms) != 1 or any(f" {_words_of(name)} " in said
                                      for name in (terms[0].group(1), *names.get(pid, ())) if _words_of(name)):
                continue
            stated = [c for c in properties[:first] if rank[c.id] < rank.get(pid, len(properties))
                      and fit.attested(qid, c.id, side)]
            if not stated:
                continue
            classes, words = fit.entity(qid)
            if slot_fit(False, classes, words, fit.profile(pid, side), fit.baseline()) >= 0:
                continue
            refitted = None
            for candidate in stated:
                written_as = f"<{candidate.label}>" if notation == "label" else f"<{candidate.id}>"
                other = text[:terms[0].start()] + written_as + text[terms[0].end():]
                try:
                    refitted = (other, compile_query(parse_squall(other, notation=notation), profile, resolver))
                    break
                except CNLError:
                    continue
            if refitted is not None:
                out.append(refitted)
                break
    return out


def completed_without_class(text: str, sparql: str, *, kg, notation: str, resolver, profile,
                            timeout: float | None) -> tuple[str, str] | None:
    """(text, SPARQL) of the one-relation question ``text`` without its answer's class, where the
    class test keeps only some of the things the KG states in the relation, and the KG types
    every one of them (at most :data:`TYPED_ANSWERS`) with the asked class or one named after it
    (:func:`named_after_class`): "Which [country] is a <country of citizenship> of [Albert
    Einstein]?" keeps the countries the KG types as *country*, and leaves out the German Empire
    and Austria-Hungary, which it types as *historical country*. None otherwise (a class that
    tells the answers apart from others, "Which [film] has <director> X" leaving out the
    television series, stays)."""
    from cnl.kg.limits import query_limits

    try:
        query = parse_squall(text, notation=notation)
    except CNLError:
        return None
    classless, found = classless_reading(query), main_slot(sparql)
    if classless is None or found is None or found[1] is None:
        return None
    try:
        other_text = print_squall(classless, notation)
        other = compile_query(parse_squall(other_text, notation=notation), profile, resolver)
        with query_limits(timeout=timeout, max_rows=TYPED_ANSWERS + 1):
            kept, stated = (list(dict.fromkeys(_items(kg.query(q)))) for q in (sparql, other))
    except CNLError:
        return None
    if not kept or not set(kept) < set(stated) or len(stated) > TYPED_ANSWERS:
        return None
    label = class_label(kg, found[1], query, timeout=timeout)
    if not named_after_class(kg, stated, found[1], label, timeout=timeout):
        return None
    return other_text, other


def _items(result) -> list[str]:
    """The IRIs of a query result's rows, in order."""
    return [t.value for row in getattr(result, "rows", None) or () for t in row
            if t is not None and getattr(t, "is_iri", False)]


def _words_of(text: str | None) -> str:
    """The words of ``text``, lower-cased, one space apart (``"what's"`` is ``what s``)."""
    return " ".join(_WORD.findall((text or "").lower()))


def near_readings(written, *, notation: str, resolver, kg, profile, properties, fit: SlotFit,
                  timeout: float, question: str = "", candidates=(), nouns=(), tried=()) -> list:
    """(text, SPARQL, accept) of the near readings of the ``written`` (text, SPARQL) pairs, in
    order: for each text, the property turned round where the KG's use of it fits that reading
    better, then each of those readings without its answer's class (kept by ``accept`` only
    where the KG names every answer's class after the asked one; without more where the class
    is named as the property is); last, for each text, each of the question's ``properties``
    (candidates) in the written property's place; then each text's answer class read as the
    property it names (:func:`class_as_property_reading`). Before all of them, the question's own
    relational nouns (:func:`relational_noun_readings` of ``question``, its entity
    ``candidates`` and its property candidates ``nouns``). Each is printed back as CNL in ``notation``
    and compiled from that text, so what a person reads is what runs; one whose query is that of
    a written text, of an earlier near reading or ``tried`` (SPARQL the caller judged already) is
    left out; at most :data:`MAX_NEAR_READINGS`."""
    out, seen = [], {sparql for _, sparql in written} | set(tried)

    def add(variant, accept):
        try:
            text = print_squall(variant, notation)
            sparql = compile_query(parse_squall(text, notation=notation), profile, resolver)
        except CNLError:
            return
        if sparql not in seen:
            seen.add(sparql)
            out.append((text, sparql, accept))

    def typed_after(cls, label):
        def accept(result):
            return named_after_class(kg, _items(result), cls, label, timeout=timeout)
        return accept

    for reading in relational_noun_readings(question, candidates, nouns):
        add(reading, lambda result: True)
    queries = []
    for text, sparql in written:
        try:
            query = parse_squall(text, notation=notation)
        except CNLError:
            continue
        cleaned = without_echoed_qualifiers(query)
        if cleaned is not None:  # the slip undone first; the near readings below are of the rest
            try:
                sparql = compile_query(cleaned, profile, resolver)
            except CNLError:
                continue
            add(cleaned, lambda result: True)
            query = cleaned
        queries.append(query)
        readings = [(query, sparql)]
        turned = reversed_reading(query)
        if turned is not None:
            try:
                turned_sparql = compile_query(turned, profile, resolver)
            except CNLError:
                turned_sparql = None
            if turned_sparql is not None and reverse_fits_better(sparql, turned_sparql, fit):
                add(turned, lambda result: True)
                readings.append((turned, turned_sparql))
        for reading, reading_sparql in readings:  # each without the answer's class
            classless, found = classless_reading(reading), main_slot(reading_sparql)
            if classless is None:
                continue
            if class_echoes_property(reading):
                add(classless, lambda result: True)
            elif found is not None and found[1] is not None:
                add(classless, typed_after(found[1], class_label(kg, found[1], reading, timeout=timeout)))
    for query in queries:
        for candidate in properties:
            swapped = with_property(query, candidate.label)
            if swapped is not None:
                add(swapped, lambda result: True)
    # last, a class named as a property is: that property of the named thing (no class test
    # stays to tell its answers right, so after the near properties, which keep it)
    for query in queries:
        reading = class_as_property_reading(query, resolves_as_property(resolver))
        if reading is not None:
            add(reading, lambda result: True)
    return out[:MAX_NEAR_READINGS]
