"""The meaning guard: what the decompiler returns says what its input says, or it is refused.

A decompiled reading is checked twice before any caller receives it:

- :func:`check_reading`: the IR, compiled under the profile options the decompiler returns, is
  equivalent to the input query (strictly: duplicates too, ``equivalent(..., distinct=True)``);
- :func:`check_text`: the text a dialect prints for it, parsed and compiled again, is equivalent
  to the input query (the printer or the parser could otherwise attach a clause elsewhere).

A failed check raises :class:`cnl.errors.MeaningChangeError` (an ``UnsupportedSPARQLError``)
naming the first difference. The checks rely on the equivalence checker being sound (it never
calls two different queries equivalent); where it misses an equivalence the query is refused,
never changed.
"""
from __future__ import annotations

from cnl import ir
from cnl.errors import CNLError, LexiconError, MeaningChangeError, NoValueToRank, PrintError, UnsupportedSPARQLError
from cnl.sparql.compiler import compile_query
from cnl.sparql.equivalence import equivalent, explain_difference


def check_reading(sparql: str, query: ir.Query, options: dict) -> None:
    """Raise MeaningChangeError unless ``query`` compiles (under ``options``) to a query
    equivalent to ``sparql``."""
    try:
        compiled = compile_query(query, "wikidata", None, **options)
    except NoValueToRank as err:
        # the query itself ranks items by their IRIs: refused by name, not a meaning change
        raise UnsupportedSPARQLError(NoValueToRank.CONSTRUCT, _first_line(err)) from None
    except CNLError as err:
        raise MeaningChangeError(f"the reading does not compile: {_first_line(err)}") from None
    _check_same(compiled, sparql)


def check_text(dialect, text: str, notation: str, sparql: str, options: dict, resolver=None) -> None:
    """Raise MeaningChangeError unless ``text`` (printed by ``dialect`` in ``notation``) reads
    back as a query equivalent to ``sparql``. ``resolver`` resolves the labels of the label
    notation (the IDs the printed labels stand for)."""
    try:
        back = dialect.parse(text, notation=notation)
        compiled = compile_query(back, "wikidata", resolver, **options)
    except PrintError:
        raise
    except CNLError as err:
        raise MeaningChangeError(f"the printed text does not read back: {_first_line(err)}") from None
    _check_same(compiled, sparql)


def _check_same(compiled: str, sparql: str) -> None:
    # WDQS's label service only adds label columns: presentation, which the decompiler drops
    if not equivalent(compiled, sparql, distinct=True, drop_label_service=True):
        why = explain_difference(compiled, sparql, distinct=True, drop_label_service=True) or "the canonical forms differ"
        raise MeaningChangeError(f"read back, it would mean another query ({why})")


class LabelTable:
    """A resolver from the labels a labelled IR prints to the IDs they stand for
    (``ir.labelled_ids``): the label notation's text read back with exactly those IDs."""

    def __init__(self, query: ir.Query):
        self.ids: dict = {}
        for (kind, label), ident in ir.labelled_ids(query).items():
            self.ids.setdefault((kind, _key(label)), ident)
            self.ids.setdefault(("any", _key(label)), ident)

    def resolve(self, label: str, kind: str, span=None) -> str:
        ident = self.ids.get((kind, _key(label))) or self.ids.get(("any", _key(label)))
        if ident is None:
            raise LexiconError(f"no ID for the printed label {label!r}", label=label, kind=kind)
        return ident


def _key(label: str) -> str:
    return " ".join(label.replace("_", " ").lower().split())


def _first_line(err: Exception) -> str:
    return (str(err).splitlines() or [""])[0]
