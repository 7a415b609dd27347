"""Which reading of an ambiguous entity label fits the query it sits in, by the KG's own use of
the property around it.

A label several of the question's candidates share ("The Hunger Games" the 2012 film, the
novel and the film series; "Child's Play" a play and a film franchise) is read, by default, as
the linker's first candidate. The query says more: in ``?film p:P179 [ ps:P179 X ]`` X is a
value of *part of the series*, and the KG shows what the values of P179 are like — their
classes (film series, television series, video game series) and the words of their
descriptions ("series", "franchise"). :func:`slot_fit` scores one entity in one slot from
that profile; :class:`SlotFit` keeps the profiles of one KG and scores a whole query.

Three signals, strongest first: the KG states the entity in that slot (it is a value of the
property, or has it); a class of the entity is common among the slot's entities; a word of its
description is more common among the slot's entities than among the KG's descriptions at
large (the head noun: what the description says the thing is). All are read from the KG at run time: nothing of a particular question, data set or
property is written here.
"""
from __future__ import annotations

import re
from collections import Counter

from cnl.sparql.namespaces import WD

# the entities of a slot that are read to profile it (their classes and descriptions)
PROFILED = 400
# a slot with fewer entities in the KG tells nothing by their classes and descriptions (three
# subjects of a property are not a profile of them)
MIN_PROFILED = 10
# descriptions read once per KG as the baseline frequency of each word
BASELINE = 4000
# seconds each profile or entity query may run
QUERY_TIMEOUT = 2.0
# an entity the KG states in the slot outweighs any profile score (each at most 1)
ATTESTED = 2.0
# evidence against: an entity whose classes and description the KG knows, none of which is
# like the slot's entities, scores below one the KG says nothing of (no evidence either way)
MISFIT = 0.5
# classes and words too general to tell readings apart
_IGNORED_CLASSES = {"Q35120", "Q488383", "Q16889133"}  # entity, object, class
_STOP = {"the", "and", "for", "from", "with", "that", "which", "its", "his", "her", "their", "was", "are",
         "has", "had", "been", "this", "into", "also", "who", "whose", "one", "born", "based"}

# a value slot: the object of a (statement or truthy) property or a qualifier; a subject slot: an
# entity with a statement of the property
_OBJECT = re.compile(r"\b(?:ps|wdt|pq):(P\d+)\s+wd:(Q\d+)\b")
_SUBJECT = re.compile(r"\bwd:(Q\d+)\s+(?:p|wdt):(P\d+)\b")
_WORD = re.compile(r"[a-z]{3,}")


def slots(sparql: str) -> list[tuple[str, str, str]]:
    """(entity QID, property PID, "value" or "subject") for each entity of the query that fills
    a property's slot. Classes (``wdt:P31 wd:Q5``) are slots too: a class label shared by two
    items is told apart the same way."""
    found = [(q, p, "value") for p, q in _OBJECT.findall(sparql)]
    found += [(q, p, "subject") for q, p in _SUBJECT.findall(sparql)]
    return found


def other_side_class(sparql: str, qid: str, prop: str, side: str) -> str | None:
    """The QID of the one class the query gives the thing on the other side of ``qid``'s slot
    of ``prop`` (``?f wdt:P31 wd:Q7725634 . ?f p:P179 [ ps:P179 wd:Q8337 ]``: literary work), or
    None (no class, several, or a slot the query does not write so)."""
    if side == "value":
        pattern = rf"(\?\w+)\s+(?:p|wdt):{prop}\s+(?:\[\s*ps:{prop}\s+)?wd:{qid}\b"
    else:
        pattern = rf"wd:{qid}\s+(?:p|wdt):{prop}\s+(?:\[\s*ps:{prop}\s+)?(\?\w+)"
    variables = set(re.findall(pattern, sparql))
    if len(variables) != 1:
        return None
    var = re.escape(variables.pop())
    classes = set(re.findall(rf"{var}\s+wdt:P31(?:/wdt:P279\*)?\s+wd:(Q\d+)\b", sparql))
    return classes.pop() if len(classes) == 1 else None


# where the noun phrase that says what a thing is ends in a description ("2012 film by Gary
# Ross", "fictional character of the ... series", "Major League Baseball franchise in Denver")
_HEAD_END = re.compile(r"[,;:(]|\b(?:by|of|in|from|for|on|at|with|about|and|or|that|which|who|where|directed|"
                       r"written|created|produced|published|released|starring|featuring|focusing|based|set|"
                       r"located|founded|named|known|composed)\b")


def words(description: str | None) -> set[str]:
    """The head noun of a description, the word that says what the thing is ("film" in "2012
    film by Gary Ross", "series" in "dystopian film series"), as a set of at most one word."""
    text = (description or "").lower()
    end = _HEAD_END.search(text)
    found = [w for w in _WORD.findall(text[:end.start()] if end else text) if w not in _STOP]
    return {found[-1]} if found else set()


class SlotProfile:
    """What the entities of one slot are like: the share of them in each class, and the share of
    their descriptions that use each word."""

    def __init__(self, entities: int, classes: Counter, described: int, word_counts: Counter):
        self.entities = entities
        self.classes = classes
        self.described = described
        self.word_counts = word_counts

    def class_share(self, classes) -> float:
        if self.entities < MIN_PROFILED:
            return 0.0
        return max((self.classes[c] / self.entities for c in classes if c not in _IGNORED_CLASSES), default=0.0)

    def word_lift(self, description_words, baseline: "SlotProfile") -> float:
        """How much more often the description's head noun describes the slot's entities than the
        KG's entities at large (0 when it does not)."""
        if self.described < MIN_PROFILED:
            return 0.0
        best = 0.0
        for w in description_words:
            share = self.word_counts[w] / self.described
            base = baseline.word_counts[w] / baseline.described if baseline.described else 0.0
            best = max(best, share - base)
        return best


def slot_fit(attested: bool, classes, description_words, profile: SlotProfile, baseline: SlotProfile) -> float:
    """The score of one entity in one slot: :data:`ATTESTED` when the KG states it there, plus
    its best class share and its best description word's lift (each between 0 and 1); less
    :data:`MISFIT` when what the KG knows of it (its classes, its description's head noun) is
    all unlike the slot's entities, which a profiled slot can tell ("fictional character" as a
    value of <part of the series>)."""
    share, lift = profile.class_share(classes), profile.word_lift(description_words, baseline)
    score = (ATTESTED if attested else 0.0) + share + lift
    known_classes = {c for c in classes if c not in _IGNORED_CLASSES} if profile.entities >= MIN_PROFILED else set()
    known_words = description_words if profile.described >= MIN_PROFILED else set()
    if not attested and (known_classes or known_words) and share == 0.0 and lift == 0.0:
        score -= MISFIT
    return score


class SlotFit:
    """Slot profiles, entity classes and descriptions of one KG, read as needed and kept."""

    def __init__(self, kg, timeout: float = QUERY_TIMEOUT):
        self.kg = kg
        self.timeout = timeout
        self._profiles: dict = {}
        self._entities: dict = {}
        self._attested: dict = {}
        self._baseline: SlotProfile | None = None

    def _rows(self, sparql: str, max_rows: int):
        from cnl.errors import CNLError
        from cnl.kg.limits import query_limits

        try:
            with query_limits(timeout=self.timeout, max_rows=max_rows):
                result = self.kg.query(sparql)
        except CNLError:
            return []
        return getattr(result, "rows", None) or []

    def baseline(self) -> SlotProfile:
        if self._baseline is None:
            rows = self._rows(f"SELECT ?d WHERE {{ ?x schema:description ?d }} LIMIT {BASELINE}", BASELINE)
            counts = Counter(w for (d,) in rows if d is not None for w in words(d.value))
            self._baseline = SlotProfile(len(rows), Counter(), len(rows), counts)
        return self._baseline

    def profile(self, prop: str, side: str) -> SlotProfile:
        key = (prop, side)
        if key not in self._profiles:
            pattern = f"?x wdt:{prop} ?o" if side == "subject" else f"?o wdt:{prop} ?x"
            sample = self._rows(f"SELECT DISTINCT ?x WHERE {{ {pattern} FILTER(isIRI(?x)) }} LIMIT {PROFILED}", PROFILED)
            items = [row[0].value for row in sample if row[0] is not None]
            classes, counts, described = Counter(), Counter(), 0
            if items:
                values = " ".join(f"<{iri}>" for iri in items)
                for x, c in self._rows(f"SELECT DISTINCT ?x ?c WHERE {{ VALUES ?x {{ {values} }} ?x wdt:P31 ?c }}",
                                       PROFILED * 20):
                    classes[c.value.rsplit("/", 1)[-1]] += 1
                for _x, d in self._rows(f"SELECT ?x ?d WHERE {{ VALUES ?x {{ {values} }} ?x schema:description ?d }}",
                                        PROFILED * 2):
                    described += 1
                    counts.update(words(d.value))
            self._profiles[key] = SlotProfile(len(items), classes, described, counts)
        return self._profiles[key]

    def entity(self, qid: str) -> tuple[set, set]:
        """(classes, description words) of an item."""
        if qid not in self._entities:
            classes = {row[0].value.rsplit("/", 1)[-1]
                       for row in self._rows(f"SELECT ?c WHERE {{ <{WD}{qid}> wdt:P31 ?c }}", 50) if row[0] is not None}
            described = self._rows(f"SELECT ?d WHERE {{ <{WD}{qid}> schema:description ?d }}", 1)
            self._entities[qid] = (classes, words(described[0][0].value) if described and described[0][0] else set())
        return self._entities[qid]

    def attested(self, qid: str, prop: str, side: str) -> bool:
        key = (qid, prop, side)
        if key not in self._attested:
            where = (f"<{WD}{qid}> p:{prop} ?s" if side == "subject" else f"?s ps:{prop} <{WD}{qid}>")
            self._attested[key] = bool(self._rows(f"SELECT ?s WHERE {{ {where} }} LIMIT 1", 1))
        return self._attested[key]

    def attested_with(self, qid: str, prop: str, side: str, cls: str) -> bool:
        """Whether the KG states the item in the slot with a thing of class ``cls`` on the other
        side (a film of the series, not only films where the query asks for books)."""
        key = (qid, prop, side, cls)
        if key not in self._attested:
            if side == "subject":
                where = f"<{WD}{qid}> p:{prop} ?s . ?s ps:{prop} ?o . ?o wdt:P31 <{WD}{cls}>"
            else:
                where = f"?o p:{prop} ?s . ?s ps:{prop} <{WD}{qid}> . ?o wdt:P31 <{WD}{cls}>"
            self._attested[key] = bool(self._rows(f"SELECT ?s WHERE {{ {where} }} LIMIT 1", 1))
        return self._attested[key]

    def attested_with_class(self, sparql: str, only=None) -> bool:
        """Whether the KG states one of the query's items (``only``: those QIDs) in its slot with
        a thing of the class the query gives the slot's other side."""
        for qid, prop, side in slots(sparql):
            other = other_side_class(sparql, qid, prop, side) if only is None or qid in only else None
            if other is not None and self.attested_with(qid, prop, side, other):
                return True
        return False

    def score(self, sparql: str, only=None, *, by_class: bool = False) -> float:
        """The sum of the fits of the query's entities in their slots (``only``: those QIDs).
        ``by_class`` (where another reading is stated with the asked class, see
        :func:`best_reading_first`): a slot whose other side the query gives a class is attested
        only by the KG's statements with a thing of that class there, and an item the KG states
        there with things of other classes only is evidence against (the film series of the
        films, where the query asks for the books of a series and the book series is stated with
        a book)."""
        total = 0.0
        for qid, prop, side in slots(sparql):
            if only is not None and qid not in only:
                continue
            classes, description = self.entity(qid)
            attested = self.attested(qid, prop, side)
            other = other_side_class(sparql, qid, prop, side) if by_class else None
            if attested and other is not None and not self.attested_with(qid, prop, side, other):
                total -= MISFIT
                attested = False
            total += slot_fit(attested, classes, description, self.profile(prop, side), self.baseline())
        return total


def best_reading_first(options, fit: SlotFit) -> list:
    """``options`` ((text, SPARQL, another reading) in order, see ``Translator.choose``) with,
    for each text that has several readings, the reading whose entities fit their slots best
    as its first, not-another reading (the others follow as other readings, in order); ties
    keep the linker's order. Where the KG states one reading in its slot with a thing of the
    class the query asks for on the other side, the statements of the others count only so too
    (:meth:`SlotFit.score` ``by_class``)."""
    out, i = [], 0
    while i < len(options):
        j = i + 1
        while j < len(options) and options[j][0] == options[i][0] and options[j][2]:
            j += 1
        group = options[i:j]
        if len(group) > 1:
            varying = _varying_entities([sparql for _, sparql, _ in group])
            # the asked class tells the readings apart only where the KG states one with it
            by_class = any(fit.attested_with_class(sparql, only=varying) for _, sparql, _ in group)
            scores = [fit.score(sparql, only=varying, by_class=by_class) for _, sparql, _ in group]
            best = max(range(len(group)), key=lambda k: (scores[k], -k))
            group = [group[best]] + [g for k, g in enumerate(group) if k != best]
            group = [(group[0][0], group[0][1], False)] + [(t, s, True) for t, s, _ in group[1:]]
        out += group
        i = j
    return out


def _varying_entities(queries: list[str]) -> set[str]:
    """The QIDs not in every one of ``queries`` (what tells their readings apart)."""
    sets = [set(re.findall(r"\bwd:(Q\d+)\b", q)) for q in queries]
    return set().union(*sets) - set.intersection(*sets)
