"""The decompiled IR in a dialect's words: printing is the dialect's job; this checks first that
the dialect can say the query, and fills in labels for the label notation."""
from __future__ import annotations

from dataclasses import replace

from cnl import ir
from cnl.dialects import get_dialect
from cnl.sparql.compiler import compile_query
from cnl.sparql.decompile.guard import LabelTable, check_text
from cnl.sparql.decompile.pipeline import decompile_to_ir


def decompile(sparql: str, *, dialect="squall", notation: str = "id", lexicon=None) -> str:
    """SPARQL -> CNL text in ``dialect`` (a name or a :class:`cnl.dialects.Dialect`) and
    ``notation`` (id: ``<Q…>``/``<P…>``; label: names from ``lexicon``). The text is read back
    before it is returned (the meaning guard): a text that would mean another query raises
    :class:`cnl.errors.MeaningChangeError`."""
    speaker = get_dialect(dialect)
    query, options = decompile_to_ir(sparql)
    check_says(speaker, query, options, sparql)
    if lexicon is None:
        return speaker.print(speaker.printable(query), notation, id_labels=False)
    labelled = with_labels(query, lexicon)
    text = speaker.print(speaker.printable(labelled), notation, id_labels=True)
    if notation != "id":
        # the labels read back: two terms printed with one label would read as one
        check_text(speaker, text, notation, sparql, options, LabelTable(labelled))
    return text


def check_says(dialect, query: ir.Query, options: dict, sparql: str | None = None) -> None:
    """Raise UnsupportedSPARQLError unless ``dialect`` can say ``query``: its own check on the
    IR, then a read-back: the text it prints (ID notation), parsed and compiled again, must be
    equivalent to ``sparql`` (default: the query compiled under ``options``), else
    :class:`cnl.errors.MeaningChangeError`. A printer's own refusal (PrintError) is raised as is."""
    dialect = get_dialect(dialect)
    dialect.check_expressible(query)
    if sparql is None:
        sparql = compile_query(query, "wikidata", None, **options)
    text = dialect.print(dialect.printable(query), "id", id_labels=False)
    check_text(dialect, text, "id", sparql, options)


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
