"""Which of the model's outputs to keep, and in which reading: each compiled, and, with a KG,
judged by what it returns (:mod:`cnl.learn.choice`), with the readings of its labels
(:mod:`cnl.learn.slot_fit`) and its near readings (:mod:`cnl.learn.repairs`).
:meth:`cnl.learn.inference.Translator.choose` calls :func:`choose_output` with its own settings."""
from __future__ import annotations

from cnl.dialects.squall.parser import parse_squall
from cnl.errors import CNLError
from cnl.learn.choice import entity_readings, judge, mention_readings
from cnl.learn.repairs import (completed_without_class, near_readings, refitted_property_readings,
                               resolves_as_property,
                               text_with_class_as_property, text_without_echoed_class,
                               unwritten_relational_readings)
from cnl.learn.slot_fit import best_reading_first
from cnl.linking.resolver import ChainResolver
from cnl.sparql.compiler import compile_query

# the question's property candidates tried in a near reading's place of the written property
NEAR_PROPERTIES = 5


def choose_output(nbest, resolver, *, notation: str, chooser, fit, timeout: float | None, kg=None,
                  validate: bool = True, profile="wikidata", question: str = "", candidates=(), properties=()):
    """(text, SPARQL, error) of the n-best SQUALL candidate to keep; without ``validate`` only the
    first is tried, without a KG the first that compiles with ``resolver`` is kept. A text that
    does not compile is read without a class named as its property, or with a class that is
    another property's name read as that property (:mod:`cnl.learn.repairs`), if that compiles.

    With a KG the candidates are judged by what they return (:mod:`cnl.learn.choice`, the
    signals in ``chooser``): in beam order, the first whose answer says something ("answers")
    and is of the kind the question asks for ("type": who a person, when a date, how many a
    number, where a place) wins; "readings" also tries, for an entity label several of the
    question's ``candidates`` share, their other readings ("Colorado Rockies" the baseball team
    when the ice-hockey team has no mascot), kept only when they answer; "fit" puts first, of a
    text's readings, the one whose entities fit the slots they fill by the KG's own use of the
    properties there (``fit``: a function that gives the KG's :class:`~cnl.learn.slot_fit.SlotFit`;
    "The Hunger Games" the film series as a value of <part of the series>), so it is the one
    kept when none answers; and it puts before a written text the text with a property the KG
    states its named thing in, where the written property's slot misfits it
    (:func:`cnl.learn.repairs.refitted_property_readings`: "a film that has <part of the
    series> [50 Cent]" read with <cast member>). "near" puts before all of them the question's
    own relational noun where no written text uses its property ("What is the population of Germany?" as
    ``What is the <population> of [Germany]?``; :func:`cnl.learn.repairs.unwritten_relational_readings`).
    Last, after every text and reading above, "readings" tries the other candidates linked from
    the same words of the question as a label (:func:`cnl.learn.choice.mention_readings`), kept
    only when they answer. Then "near" tries the near readings of the written texts
    (:func:`cnl.learn.repairs.near_readings`): the question's relational noun, the property the
    other way round, the answer's class left out, a near property of the question's first
    :data:`NEAR_PROPERTIES` property candidates, each kept only when it answers (and, for a
    class left out, the KG names every answer's class after the asked one). When none answers,
    the first whose query cannot give the asked kind is passed over ("type"), else the first
    that compiles is kept. Last, with "near", a chosen one-relation question whose class keeps
    only some of the things the KG states in its relation, each typed by the KG with that class
    or one named after it, is read without the class
    (:func:`cnl.learn.repairs.completed_without_class`: the *historical country* among the
    countries of a citizenship)."""
    signals = set(chooser) if kg is not None and validate else set()
    options, error = [], None  # (text, SPARQL, another reading of its labels)
    by_mention = []  # readings by the question's words, tried after every written one
    for text in nbest if validate else nbest[:1]:
        try:
            query = parse_squall(text, notation=notation)
            sparql = compile_query(query, profile, resolver)
        except CNLError as err:
            error = error or f"{text!r}: {str(err).splitlines()[0]}"
            # a class named as the property ("Which [award received] is a <award received>
            # of ..."), which no KG has: the text without it; a class that is another
            # property's name ("Which [home venue] is a <home team> of X?"): that property
            # of X; the first that compiles
            repaired = None
            for other in (text_without_echoed_class(text, notation),
                          text_with_class_as_property(text, notation, resolves_as_property(resolver))):
                if not other:
                    continue
                try:
                    query = parse_squall(other, notation=notation)
                    sparql = compile_query(query, profile, resolver)
                except CNLError:
                    continue
                repaired = other
                break
            text = repaired
            if not text:
                continue
        if not signals:
            return text, sparql, None
        options.append((text, sparql, False))
        if "readings" in signals:
            for readings, into in ((entity_readings(text, candidates), options),
                                   (mention_readings(text, candidates), by_mention)):
                for reading in readings:
                    try:
                        other = compile_query(query, profile, ChainResolver(ChainResolver.table(
                            ("entity", label, ident) for label, ident in reading.items()), resolver))
                    except CNLError:
                        continue
                    if other != sparql and all(other != known for _, known, _ in options + by_mention):
                        into.append((text, other, True))
    if not options:
        return (nbest[0] if nbest else None), None, error or "the model produced no output"
    if "fit" in signals and len(options) > 1:  # of a label's readings, the one that fits its slots comes first
        options = best_reading_first(options, fit())
    written = [(text, sparql) for text, sparql, alternative in options if not alternative]
    refitted = []  # a named thing the KG states in another property's slot: that property
    if "fit" in signals:
        refitted = refitted_property_readings(written, notation=notation, resolver=resolver, profile=profile,
                                              properties=properties, fit=fit(), question=question,
                                              first=NEAR_PROPERTIES)
    if len(options) == 1 and not by_mention and not refitted and "near" not in signals:  # nothing to choose
        return options[0][0], options[0][1], None
    first = []  # the question's own relational noun, where no written text says it
    if "near" in signals:
        first = unwritten_relational_readings(written, question=question, candidates=candidates, nouns=properties,
                                              notation=notation, resolver=resolver, profile=profile)
        options = [(text, sparql, True) for text, sparql in first] + options
    options = options[:len(first)] + [(text, sparql, False) for text, sparql in refitted] + options[len(first):]
    # a reading by the question's words only where no written reading answers; a near reading
    # of a written text only where none of those answers either
    chosen = judge(options + by_mention, kg, question, signals, timeout=timeout,
                   near=(lambda: near_readings(written, notation=notation, resolver=resolver, kg=kg,
                                               profile=profile, properties=properties[:NEAR_PROPERTIES],
                                               question=question, candidates=candidates, nouns=properties,
                                               tried=[sparql for _, sparql in first], fit=fit(), timeout=timeout))
                   if "near" in signals else None)
    if "near" in signals:  # a class that keeps only some of what the KG names after it: left out
        completed = completed_without_class(chosen[0], chosen[1], kg=kg, notation=notation, resolver=resolver,
                                            profile=profile, timeout=timeout)
        if completed is not None:
            return completed[0], completed[1], None
    return chosen[0], chosen[1], None


__all__ = ["choose_output", "NEAR_PROPERTIES"]
