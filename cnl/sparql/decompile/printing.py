"""The decompiled IR in a dialect's words: printing is the dialect's job; this checks first that
the dialect can say the query, and fills in labels for the label notation."""
from __future__ import annotations

from dataclasses import replace

from cnl import ir
from cnl.dialects import get_dialect
from cnl.errors import CNLError, UnsupportedSPARQLError
from cnl.sparql.compiler import compile_query
from cnl.sparql.decompile.pipeline import decompile_to_ir
from cnl.sparql.equivalence import equivalent


def decompile(sparql: str, *, dialect="squall", notation: str = "id", lexicon=None) -> str:
    """SPARQL -> CNL text in ``dialect`` (a name or a :class:`cnl.dialects.Dialect`) and
    ``notation`` (id: ``<Q…>``/``<P…>``; label: names from ``lexicon``)."""
    speaker = get_dialect(dialect)
    query, options = decompile_to_ir(sparql)
    check_says(speaker, query, options)
    if lexicon is not None:
        query = with_labels(query, lexicon)
    return speaker.print(speaker.printable(query), notation, id_labels=lexicon is not None)


def check_says(dialect, query: ir.Query, options: dict) -> None:
    """Raise UnsupportedSPARQLError unless ``dialect`` can say ``query``: its own check on the
    IR, and, for a dialect that reads some texts as other queries, a read-back: the text it
    prints, parsed and compiled again, must be equivalent to the query compiled."""
    dialect = get_dialect(dialect)
    dialect.check_expressible(query)
    if not dialect.reads_back_differently:
        return
    try:
        back = dialect.parse(dialect.print(dialect.printable(query), "id", id_labels=False), notation="id")
        same = equivalent(compile_query(back, "wikidata", None, **options),
                          compile_query(query, "wikidata", None, **options))
    except CNLError:
        return  # the printer's own refusal is raised when printing
    if not same:
        raise UnsupportedSPARQLError(f"a query that {dialect.title} text would read differently",
                                     "e.g. a value that is not an answer, in a sentence that lists every value")


def with_labels(query: ir.Query, labels) -> ir.Query:
    """``query`` with each term's label filled from ``labels`` (a Lexicon or a dict ID -> label)."""
    name = _id_labels(labels)

    def fill(term):
        label = name(term.id) if term.id else None
        return replace(term, label=label) if label and not term.label else term

    return ir.map_terms(query, fill)


def _id_labels(labels):
    """A function ID -> label from a dict or anything with ``name(id)`` (a Lexicon)."""
    if isinstance(labels, dict):
        return labels.get
    if hasattr(labels, "name"):
        return labels.name
    raise TypeError(f"labels must be a dict ID -> label or a lexicon, not {type(labels).__name__}")
