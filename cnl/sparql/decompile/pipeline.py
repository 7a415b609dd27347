"""The decompiler's pipeline: SPARQL text -> (IR query, profile options), one stage at a time
over a :class:`Decompilation`."""
from __future__ import annotations

from cnl import ir
from cnl.errors import MeaningChangeError, UnsupportedSPARQLError
from cnl.sparql.decompile.binds import read_binds
from cnl.sparql.decompile.build import build
from cnl.sparql.decompile.choice import read_choice
from cnl.sparql.decompile.flatten import flatten
from cnl.sparql.decompile.fold import SUBCLASS_AS_PATH
from cnl.sparql.decompile.guard import check_reading
from cnl.sparql.decompile.named_values import read_named_values
from cnl.sparql.decompile.modifiers import read_columns, read_modifiers, read_orders
from cnl.sparql.decompile.options import MIXED_CLASS_TESTS, drop_ranks, profile_options
from cnl.sparql.decompile.parse import parse
from cnl.sparql.decompile.sentence import choose_root, write_query
from cnl.sparql.decompile.state import Decompilation
from cnl.sparql.decompile.ties import read_ties
from cnl.sparql.decompile.units import read_unit_tests


def decompile_to_ir(sparql: str) -> tuple[ir.Query, dict]:
    """SPARQL text -> (IR query, Wikidata profile options that recompile it equivalently).
    The reading is checked first (the meaning guard, :mod:`~cnl.sparql.decompile.guard`): one
    that compiles to another query raises :class:`cnl.errors.MeaningChangeError`."""
    reading = _read(sparql, focus_columns=False)
    if reading.options["projection"] == "focus":
        # Not every variable is an answer column: mark the columns "which".
        return _checked(sparql, _focus_reading(sparql))
    try:
        return _checked(sparql, reading)
    except MeaningChangeError:
        # every variable is a column, but "all" would show more: a value the compiler BINDs for
        # a "such that" sentence ("such that (the length of ?l) is less than 5"); the columns
        # named one by one instead, or the first refusal
        try:
            return _checked(sparql, _focus_reading(sparql))
        except UnsupportedSPARQLError:
            pass
        raise


def _focus_reading(sparql: str) -> Decompilation:
    reading = _read(sparql, focus_columns=True)
    reading.options["projection"] = "focus"
    return reading


def _checked(sparql: str, reading: Decompilation) -> tuple[ir.Query, dict]:
    check_reading(sparql, reading.query, reading.options)
    return reading.query, reading.options


def _read(sparql: str, focus_columns: bool) -> Decompilation:
    try:
        return _read_once(sparql, focus_columns)
    except UnsupportedSPARQLError as err:
        if err.construct != MIXED_CLASS_TESTS:
            raise
    token = SUBCLASS_AS_PATH.set(True)  # the closed class tests said as property paths
    try:
        return _read_once(sparql, focus_columns)
    finally:
        SUBCLASS_AS_PATH.reset(token)


def _read_once(sparql: str, focus_columns: bool) -> Decompilation:
    state = Decompilation(sparql, focus_columns)
    parse(state)
    read_modifiers(state)
    read_columns(state)
    state.top = flatten(state.pattern)
    read_ties(state)
    read_unit_tests(state)
    if read_named_values(state):  # a BIND over values of named things: no tree to read
        return state
    read_choice(state)
    read_binds(state)
    read_orders(state)
    choose_root(state)
    build(state)
    write_query(state)
    state.options = profile_options(state)
    drop_ranks(state)
    return state
