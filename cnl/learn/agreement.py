"""The CNL the model writes, made to agree with the question's own words where they leave no doubt.

- **Which way a comparison goes.** "Is Joe Biden older than Bernie Sanders?" was written ``Is the
  <date of birth> of [Joe Biden] later than the <date of birth> of [Bernie Sanders]?``: older is
  an *earlier* date of birth, and the data the adapter learned from says "later" for "older" (and
  "earlier than" for "after" twice), so it answers the opposite question. The question's
  comparative ("older", "taller", "after", "fewer") or superlative ("tallest", "youngest",
  "last") says which way; where the CNL has one comparison (or one superlative) and it goes the
  other way, its word is turned round (:func:`agree_directions`). "older"/"younger"/"newer" say
  which way only of times (an earlier birth, inception, publication): they are read so only where
  the CNL compares times. When the CNL names the question's two things the other way round ("the
  <date of birth> of [Bernie Sanders] earlier than ... of [Joe Biden]"), its word goes the other
  way too. A comparative also says which of the things a CNL chooses among ("Which is older,
  the Louvre or the Prado?": ``... among [Louvre] and [Prado] has the earliest <inception>``).
  A question that negates ("not before 2006") is left alone unless the CNL negates too:
  the model may have said the negation by turning the comparison round.
- **A when-question's answer is its time.** "When was Albert Einstein born?" was written ``What is
  the year of (the <date of birth> of [Albert Einstein])?`` (10 of the 26 *when* targets the
  adapter learned from ask for a year): the question asks when, and the KG's date says it
  (:func:`asked_time`). A question that asks for a year ("In what year ...", "What year ...")
  keeps its year.

- **The Nth is the Nth of an order.** "What was Michael Crichton's sixth novel?" was written
  ``... has the earliest <publication date>?``: the question's ordinal ranks the CNL's one
  superlative (``the 6th earliest``), where the CNL has no rank and uses that number nowhere
  else (:func:`ranked_superlative`). "the second to last" is the 2nd of the other end, which the
  superlative's direction (see above) already says.

- **A negation the question says is said.** "Which Harry Potter novel was not released before
  2006?" was written ``... has a <publication date> whose year is earlier than 2006?``: the
  small model drops a "not" it has seen few of. Where the question negates and the CNL does not,
  the words the negation governs (up to the clause's end) name what is negated: a thing the CNL
  names ("did not star Paul Walker": the statement with ``[Paul Walker]``) or a comparison
  ("not released before 2006": the statement that compares the other way than "before" would
  leave it alone, since the model may have said "not before" as "later than"); exactly one
  statement of the CNL must hold it, and that one is negated (:func:`restored_negation`).

- **A year said with "in" is that year.** "Which book by Dan Brown was released in 2000?" was
  written ``... has a <publication date> whose year is greater than 2000?``: the question says
  no comparative, and "in 2000" is the year itself (``whose year is 2000``, as the adapter's own
  targets write it) (:func:`in_the_year`).

- **One property, one way round.** "Which actor starred in both Billy Madison and Happy Gilmore?"
  was written ``Which [human] is (a <cast member> of [Billy Madison]) and has <cast member> [Billy
  Madison] and [Happy Gilmore]?``: the same property with the same named thing both ways round
  (the human a cast member of the film, then the human with the film as a cast member) is a
  slip, since a thing is seldom both. The later statement is written the way of the first,
  without the things the first says already (``... and is a <cast member> of [Happy Gilmore]``;
  :func:`one_way_round`).
  This one reads the CNL alone, not the question.

Only words are read: nothing of a particular question, data set or KG. English only.
"""
from __future__ import annotations

import re

from cnl.dialects.squall.parser import parse_squall
from cnl.dialects.squall.printer import print_squall
from cnl.errors import CNLError
from cnl.ir import nodes as ir
from cnl.ir.traverse import map_children, walk
from cnl.learn.numbers import blank_terms, ordinal_value

# CNL comparison words, each with the word that goes the other way (grammar tokens CMP_GT/CMP_LT
# and the writer forms "before/after", "over/under", "above/below")
_CMP_UP = {"greater": "less", "higher": "lower", "later": "earlier", "larger": "smaller", "bigger": "smaller",
           "longer": "shorter", "more": "fewer", "after": "before", "over": "under", "above": "below"}
_CMP_DOWN = {"less": "greater", "lesser": "greater", "lower": "higher", "earlier": "later", "smaller": "larger",
             "shorter": "longer", "fewer": "more", "before": "after", "under": "over", "below": "above"}
# CNL superlatives (grammar token SUPERLATIVE; "oldest"/"youngest" say nothing of a direction
# without the thing compared, and a CNL that writes them is left alone)
_SUP_UP = {"highest": "lowest", "largest": "smallest", "biggest": "smallest", "most": "fewest",
           "greatest": "smallest", "latest": "earliest", "longest": "shortest"}
_SUP_DOWN = {"lowest": "highest", "smallest": "largest", "least": "most", "fewest": "most",
             "earliest": "latest", "shortest": "longest"}
_CNL_TIME_WORDS = {"later", "earlier", "after", "before", "latest", "earliest"}

# the question's words: up (a greater value, a later time) or down
_Q_CMP_UP = {"more", "greater", "higher", "taller", "bigger", "larger", "longer", "heavier", "wider", "deeper",
             "richer", "later", "after", "farther", "further"}
_Q_CMP_DOWN = {"less", "fewer", "lower", "shorter", "smaller", "lighter", "cheaper", "narrower", "shallower",
               "poorer", "earlier", "before"}
_Q_SUP_UP = {"most", "highest", "tallest", "biggest", "largest", "greatest", "longest", "heaviest", "widest",
             "deepest", "richest", "latest", "farthest", "furthest"}
_Q_SUP_DOWN = {"least", "fewest", "lowest", "shortest", "smallest", "lightest", "cheapest", "narrowest",
               "shallowest", "poorest", "earliest", "closest", "nearest"}
# of times only: an older thing began earlier
_Q_TIME_CMP = {"older": "down", "elder": "down", "younger": "up", "newer": "up"}
_Q_TIME_SUP = {"oldest": "down", "eldest": "down", "youngest": "up", "newest": "up"}
# "the first", "the last": a superlative only where the question says no other
_Q_WEAK_SUP = {"first": "down", "last": "up"}
# bounds, not comparisons or superlatives
_Q_BOUNDS = re.compile(r"\bat\s+(?:least|most)\b|\bmost\s+of\b", re.I)
_NEGATION = re.compile(r"\b(?:not|never|no|none|without)\b|n't\b", re.I)
_CNL_NEGATION = re.compile(r"(?<![\w-])(?:not|no)(?![\w-])", re.I)

_ENTITY = re.compile(r"\[((?:[^\]\\]|\\.)*)\]|<(?:Q\d+:)((?:[^<>\\]|\\.)*)>")
_PROPERTY = re.compile(r"<((?:[^<>\\]|\\.)*)>")
# a word of the CNL outside terms and strings, not part of a hyphenated word ("highest-to-lowest")
_CNL_WORD = re.compile(r"(?<![\w-])[a-z]+(?![\w-])", re.I)
# a word of the question; a hyphenated one is its words ("highest-grossing", "second-largest")
_Q_WORD = re.compile(r"[a-z]+", re.I)


def _words(masked: str, table):
    """(start, end, word) of each word of the (masked) CNL that is in ``table``."""
    return [(m.start(), m.end(), m.group(0)) for m in _CNL_WORD.finditer(masked) if m.group(0).lower() in table]


def _cues(question: str, up: set, down: set, time: dict, weak: dict, *, times: bool):
    """(position, "up"/"down") of the question's words of one kind (comparative or superlative);
    time words only when ``times``, the weak ones only where no other is said."""
    text = _Q_BOUNDS.sub(lambda m: " " * len(m.group(0)), question)
    found, weak_found = [], []
    for match in _Q_WORD.finditer(text):
        word = match.group(0).lower()
        if word in up:
            found.append((match.start(), "up"))
        elif word in down:
            found.append((match.start(), "down"))
        elif word in time and times:
            found.append((match.start(), time[word]))
        elif word in weak:
            weak_found.append((match.start(), weak[word]))
    return found or weak_found


def _norm(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


def _find_words(words: str | None, said: str):
    """Where ``words`` (normalized) stand as whole words in ``said`` (normalized), or None."""
    return re.search(rf"(?<![a-z0-9]){re.escape(words)}(?![a-z0-9])", said) if words else None


def _mentions(candidates) -> dict[str, str]:
    """The words each candidate label was linked from, both normalized (the first candidate of
    a label gives them)."""
    mentions = {}
    for c in candidates or ():
        if c.get("label") and c.get("mention"):
            mentions.setdefault(_norm(c["label"]), _norm(c["mention"]))
    return mentions


def _positions(question: str, text: str, candidates) -> list[tuple[int, int]]:
    """(position in the CNL, position in the question) of each entity label of the CNL found in
    the question: by its own words, or by the words its candidate was linked from."""
    said = _norm(question)
    mentions = _mentions(candidates)
    out = []
    for match in _ENTITY.finditer(text):
        label = _norm(match.group(1) if match.group(1) is not None else match.group(2))
        for words in (label, mentions.get(label)):
            found = _find_words(words, said)
            if found:
                out.append((match.start(), found.start()))
                break
    return out


def _question_offset(question: str, position: int) -> int:
    """The position in the normalized question of the word at ``position`` of the question."""
    return len(_norm(question[:position])) + (1 if _norm(question[:position]) else 0)


def _turned(text: str, start: int, end: int, table: dict) -> str:
    word = text[start:end]
    other = table[word.lower()]
    if word[:1].isupper():
        other = other[:1].upper() + other[1:]
    return text[:start] + other + text[end:]


def _time_property(label: str) -> bool:
    """Whether a property term names a property whose values are times (Wikidata's list: by its
    ID in the ID notation, by its label or alias in the label notation)."""
    global _TIME_PROPERTIES
    if _TIME_PROPERTIES is None:
        from cnl.sparql.wikidata_properties import wikidata_properties

        times = set()
        for prop in wikidata_properties():
            if prop.datatype == "Time":
                times.add(prop.id.lower())
                times.update(_norm(name) for name in (prop.label, *prop.aliases) if name)
        _TIME_PROPERTIES = times
    term = label.split(":", 1)
    return term[0].lower() in _TIME_PROPERTIES or _norm(term[-1].replace("_", " ")) in _TIME_PROPERTIES


_TIME_PROPERTIES = None


def _compares_times(text: str, masked: str) -> bool:
    """Whether the CNL's comparison or superlative is over times: it says so with a time word,
    a year, or a property whose values are times."""
    if _words(masked, _CNL_TIME_WORDS):
        return True
    if re.search(r"\byear\b", masked, re.I):
        return True
    return any(_time_property(m.group(1)) for m in _PROPERTY.finditer(text) if not m.group(1).startswith("Q"))


def agree_directions(question: str, text: str, candidates=()) -> str:
    """``text`` (a CNL) with its one comparison word, and its one superlative, turned round where
    the question's comparatives (superlatives) all go the other way; ``text`` unchanged
    otherwise. ``candidates``: the question's entity candidates (their ``mention``), to find the
    CNL's two compared things in the question when the model wrote another label."""
    if not question or not text:
        return text
    if bool(_NEGATION.search(question)) != bool(_CNL_NEGATION.search(blank_terms(text))):
        return text
    masked = blank_terms(text)
    times = None
    for cnl_up, cnl_down, q_up, q_down, q_time, q_weak, comparison in (
            (_CMP_UP, _CMP_DOWN, _Q_CMP_UP, _Q_CMP_DOWN, _Q_TIME_CMP, {}, True),
            (_SUP_UP, _SUP_DOWN, _Q_SUP_UP, _Q_SUP_DOWN, _Q_TIME_SUP, _Q_WEAK_SUP, False)):
        table = {**cnl_up, **cnl_down}
        written = _words(masked, table)
        # "at least 2", "at most 2" in the CNL are bounds, not superlatives
        written = [w for w in written if not re.search(r"\bat\s+$", masked[:w[0]], re.I)]
        if len(written) != 1:
            continue
        if times is None:
            times = _compares_times(text, masked)
        cues = _cues(question, q_up, q_down, q_time, q_weak, times=times)
        if not comparison and not cues and re.search(r"\bamong\b", masked, re.I):
            # "Which is older, the Louvre or the Prado?": a comparative says which of the things
            # named ("Which thing among [Louvre] and [Prado] has the earliest <inception>?")
            cues = _cues(question, _Q_CMP_UP, _Q_CMP_DOWN, _Q_TIME_CMP, {}, times=times)
        if not cues or len({direction for _, direction in cues}) != 1:
            continue
        start, end, word = written[0]
        wanted = cues[0][1]
        if comparison and _reversed(question, text, candidates, cues[0][0], start):
            wanted = "down" if wanted == "up" else "up"
        going = "up" if word.lower() in cnl_up else "down"
        if going != wanted:
            text = _turned(text, start, end, table)
            masked = blank_terms(text)
    return text


def _reversed(question: str, text: str, candidates, cue: int, comparator: int) -> bool:
    """Whether the CNL names the compared things in the other order than the question: a thing
    the CNL names before its comparison word is named after the question's comparative, or one
    after it before it."""
    at = _question_offset(question, cue)
    score = 0
    for in_text, in_question in _positions(question, text, candidates):
        before_cnl, before_question = in_text < comparator, in_question < at
        score += 1 if before_cnl == before_question else -1
    return score < 0


# "What is the year of X?", "Give me the year of (X)."
_YEAR_OF_ANSWER = re.compile(r"^\s*(What is|Give me)\s+the year of\s+(.+?)\s*([?.])\s*$", re.I | re.S)
_ASKS_WHEN = re.compile(r"^\W*when\b", re.I)
_ASKS_YEAR = re.compile(r"\byears?\b", re.I)


def asked_time(question: str, text: str, parses=None) -> str:
    """``text`` (a CNL) answering a when-question with the year of a time, written to answer with
    the time itself; ``text`` unchanged where the question asks for a year, or the CNL answers
    otherwise. ``parses``: a function that tells whether a CNL text parses (the rewritten text
    is kept only then)."""
    if not (question and text) or not _ASKS_WHEN.search(question) or _ASKS_YEAR.search(question):
        return text
    match = _YEAR_OF_ANSWER.match(text)
    if not match:
        return text
    head, answered, end = match.groups()
    if answered.startswith("(") and _closing(answered) == len(answered) - 1:
        answered = answered[1:-1].strip()
    rewritten = f"{head} {answered}{end}"
    if parses is not None and not parses(rewritten):
        return text
    return rewritten


# the question's ordinals of 2 and more ("sixth", "6th", "twenty-first"; "first" ranks nothing)
_Q_ORDINAL_DIGITS = re.compile(r"(?<![\w.])(\d+)(?:st|nd|rd|th)\b", re.I)
_SUFFIX = {1: "st", 2: "nd", 3: "rd"}


def _question_ordinals(question: str) -> set[int]:
    found = {int(m.group(1)) for m in _Q_ORDINAL_DIGITS.finditer(question)}
    for word in re.findall(r"[a-z]+(?:-[a-z]+)*", question.lower()):
        # "twenty-first" is one ordinal; "second-to-last" has one among its words
        values = [ordinal_value(word)] if ordinal_value(word) is not None else map(ordinal_value, word.split("-"))
        found |= {value for value in values if value is not None}
    return {value for value in found if value >= 2}


def _ordinal(value: int) -> str:
    suffix = "th" if 10 <= value % 100 <= 20 else _SUFFIX.get(value % 10, "th")
    return f"{value}{suffix}"


def ranked_superlative(question: str, text: str, parses=None) -> str:
    """``text`` (a CNL) with its one superlative ranked by the question's one ordinal ("the sixth
    novel": ``the earliest`` written ``the 6th earliest``); ``text`` unchanged where the CNL
    already ranks, or uses the ordinal's number elsewhere (``at <series ordinal> 6``), or the
    question says several ordinals. ``parses``: a function that tells whether a CNL text parses
    (the rewritten text is kept only then)."""
    if not (question and text):
        return text
    ordinals = _question_ordinals(question)
    if len(ordinals) != 1:
        return text
    rank = next(iter(ordinals))
    masked = blank_terms(text)
    if re.search(rf"(?<![\w.-]){rank}(?![\w.-]*\w)|\b\d+(?:st|nd|rd|th)\b|\bjoint\b", masked, re.I):
        return text
    written = [w for w in _words(masked, {**_SUP_UP, **_SUP_DOWN})
               if not re.search(r"\bat\s+$", masked[:w[0]], re.I)]
    if len(written) != 1 or not re.search(r"\bthe\s+$", masked[:written[0][0]], re.I):
        return text
    start = written[0][0]
    rewritten = text[:start] + _ordinal(rank) + " " + text[start:]
    if parses is not None and not parses(rewritten):
        return text
    return rewritten


# a negation of the question and the words it governs, up to the clause's end
_Q_NEGATED = re.compile(r"(?<!\bor )\b(?:not(?!\s+only\b)|never|without)\b|n't\b", re.I)
_CLAUSE_END = re.compile(r"[,;:?!.]|\b(?:and|but|or|who|which|that|whose|while|although)\b", re.I)
# the CNL says a negation already (its own words or a set difference)
_CNL_NEGATES = re.compile(r"(?<![\w-])(?:not|no|except|without)(?![\w-])", re.I)


def restored_negation(question: str, text: str, candidates=(), *, notation: str = "label", parses=None) -> str:
    """``text`` (a CNL) with the one statement that holds what the question's negation governs
    negated, where the question negates and the CNL does not; ``text`` unchanged otherwise (no
    or several such statements, a comparison already turned the other way, or a text that does
    not parse). ``candidates``: the question's entity candidates (their ``mention``), to find a
    thing of the CNL among the negated words when the model wrote another label."""
    if not (question and text) or _CNL_NEGATES.search(blank_terms(text)):
        return text
    negations = list(_Q_NEGATED.finditer(question))
    if len(negations) != 1:
        return text
    governed = question[negations[0].end():]
    end = _CLAUSE_END.search(governed)
    governed = _norm(governed[:end.start()] if end else governed)
    if not governed:
        return text
    try:
        query = parse_squall(text, notation=notation)
    except CNLError:
        return text
    mentions = _mentions(candidates)

    def names_governed(node) -> bool:
        for term in walk(node):
            if isinstance(term, ir.Entity) and term.label:
                label = _norm(term.label.replace("_", " "))
                if _find_words(label, governed) or _find_words(mentions.get(label), governed):
                    return True
        return False

    cue = _cues(governed, _Q_CMP_UP, _Q_CMP_DOWN, {}, {}, times=False)

    def compares_as_governed(node) -> bool:
        if len(cue) != 1:
            return False
        for found in walk(node):
            if isinstance(found, ir.Compare) and found.op in (">", ">=", "<", "<="):
                going = "up" if found.op in (">", ">=") else "down"
                return going == cue[0][1]  # turned the other way: the model said the negation so
        return False

    statements = [n for n in walk(query) if isinstance(n, (ir.Stmt, ir.Be))]
    negated = {id(n.vp) for n in walk(query) if isinstance(n, ir.Not)}
    held = [n for n in statements if id(n) not in negated and (names_governed(n) or compares_as_governed(n))]
    # the innermost: a statement inside another that holds it too is the one that says it
    inner = [n for n in held if not any(o is not n and any(x is o for x in walk(n)) for o in held)]
    if len(inner) != 1:
        return text
    target = inner[0]

    def negate(node):
        return ir.Not(node) if node is target else map_children(node, negate)

    try:
        rewritten = print_squall(negate(query), notation)
    except CNLError:
        return text
    if parses is not None and not parses(rewritten):
        return text
    return rewritten


# "in 2000", "in the year 2000" (not "in the 1990s", "in 2000's")
_IN_YEAR = re.compile(r"\bin\s+(?:the\s+year\s+)?(\d{3,4})\b(?!'?s\b)", re.I)
# the question's words that compare or bound a value: then "in 2000" may be part of a comparison
_Q_COMPARES = _Q_CMP_UP | _Q_CMP_DOWN | set(_Q_TIME_CMP) | {"since", "until", "till", "between", "than", "prior"}
# ... and those that do before a number only ("by 2000", "from 1989 to 1999", but "by Dan Brown")
_Q_COMPARES_A_NUMBER = re.compile(r"\b(?:by|from|to|around|about|within|through)\s+(?:the\s+year\s+)?\d",
                                  re.I)
_CNL_ALL_CMP = "|".join(sorted({*_CMP_UP, *_CMP_DOWN}, key=len, reverse=True))


def in_the_year(question: str, text: str, parses=None) -> str:
    """``text`` (a CNL) with a comparison to a year the question says with "in" ("released in
    2000": ``whose year is greater than 2000``) written as that year (``whose year is 2000``),
    where the question has no word that compares; ``text`` unchanged otherwise. ``parses``: a
    function that tells whether a CNL text parses (the rewritten text is kept only then)."""
    if not (question and text):
        return text
    years = {m.group(1) for m in _IN_YEAR.finditer(question)}
    if (not years or any(w.lower() in _Q_COMPARES for w in _Q_WORD.findall(question))
            or _Q_COMPARES_A_NUMBER.search(question)):
        return text
    masked = blank_terms(text)
    pattern = re.compile(rf"(?<![\w-])is\s+(?:{_CNL_ALL_CMP})(?:\s+than)?(?:\s+or\s+equal\s+to)?\s+"
                         rf"({'|'.join(sorted(years))})(?![\w.-])", re.I)
    found = list(pattern.finditer(masked))
    if len(found) != 1:
        return text
    match = found[0]
    rewritten = text[:match.start()] + "is " + match.group(1) + text[match.end():]
    if parses is not None and not parses(rewritten):
        return text
    return rewritten


# a property term and a named thing (label or ID notation); "is (a <P> of [A])" and "has <P> [A]
# and [B]", the same statement either way round
_TERM = r"<(?!Q\d)(?:[^<>\\]|\\.)*>"
_NAME = r"\[(?:[^\]\\]|\\.)*\]|<Q\d+(?::(?:[^<>\\]|\\.)*)?>"
_IS_OF = re.compile(rf"(?<![\w-])is\s+(\()?(?:a|an|the)\s+({_TERM})\s+of\s+((?:{_NAME})"
                    rf"(?:\s*,?\s+and\s+(?:{_NAME}))*)(?(1)\))", re.I)
_HAS = re.compile(rf"(?<![\w-])has\s+({_TERM})\s+((?:{_NAME})(?:\s*,?\s+and\s+(?:{_NAME}))*)", re.I)


def one_way_round(text: str, parses=None) -> str:
    """``text`` (a CNL) with a statement that says a property with a named thing the other way
    round than an earlier statement of the same property with the same thing (``is a <P> of
    [A]``, then ``has <P> [A] and [B]``) written the earlier statement's way, with the named
    things the earlier one does not say (``is a <P> of [B]``; none: the later statement goes);
    ``text`` unchanged where there is no such pair or more than one. ``parses``: a
    function that tells whether a CNL text parses (the rewritten text is kept only then)."""
    if not text:
        return text
    statements = [(m, "is", m.group(2), m.group(3)) for m in _IS_OF.finditer(text)]
    statements += [(m, "has", m.group(1), m.group(2)) for m in _HAS.finditer(text)]
    statements.sort(key=lambda s: s[0].start())
    pairs = []
    for i, (first, way, term, names) in enumerate(statements):
        for later, other_way, other_term, other_names in statements[i + 1:]:
            if (other_way != way and _norm(other_term) == _norm(term)
                    and set(re.findall(_NAME, names)) & set(re.findall(_NAME, other_names))):
                said = set(re.findall(_NAME, names))
                # the things the earlier statement says already are not said again
                rest = [name for name in re.findall(_NAME, other_names) if name not in said]
                pairs.append((way, later, other_term, " and ".join(rest)))
    if len(pairs) != 1:
        return text
    way, later, term, names = pairs[0]
    if not names:  # the later statement says nothing more: it goes, with its "and"
        return _without_statement(text, later, parses)
    written = f"is a {term} of {names}" if way == "is" else f"has {term} {names}"
    rewritten = text[:later.start()] + written + text[later.end():]
    if parses is not None and not parses(rewritten):
        return text
    return rewritten


def _without_statement(text: str, statement, parses=None) -> str:
    """``text`` without ``statement`` (a match) and the "and" that joins it to the one before
    or after it; ``text`` where it has no such "and"."""
    before = re.search(r"\s+and\s+$", text[:statement.start()])
    after = re.match(r"\s+and\s+", text[statement.end():])
    if before:
        rewritten = text[:before.start()] + text[statement.end():]
    elif after:
        rewritten = text[:statement.start()] + text[statement.end() + after.end():]
    else:
        return text
    if parses is not None and not parses(rewritten):
        return text
    return rewritten


def _closing(text: str) -> int:
    """The position of the parenthesis that closes the one ``text`` opens (outside terms and
    strings), or -1."""
    depth = 0
    for i, char in enumerate(blank_terms(text)):
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return i
    return -1


__all__ = ["agree_directions", "asked_time", "in_the_year", "one_way_round", "ranked_superlative", "restored_negation"]
