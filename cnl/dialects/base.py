"""The Dialect base class: one CNL dialect = its parser, its printer and its own readings.

Modelled on sqlglot's ``Dialect``: a subclass names itself and is registered on definition,
so a new dialect is one folder under ``cnl/dialects/`` whose ``__init__`` defines a
``Dialect`` subclass; ``cnl.parse``/``compile``/``to_cnl``/``decompile`` and the CLI look
dialects up by name (:func:`cnl.dialects.get_dialect`) and never branch on it.
"""
from __future__ import annotations

from typing import ClassVar

from cnl import ir
from cnl.dialects.notation import NOTATIONS


class Dialect:
    """A controlled natural language that reads into and prints from the IR.

    Subclasses set ``name`` and implement :meth:`parse` and :meth:`print`; the rest has
    defaults that suit a dialect whose printed text always reads back as the same query."""

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""          # the name as written in prose ("SQUALL", "Sparklis")
    description: ClassVar[str] = ""
    notations: ClassVar[tuple[str, ...]] = NOTATIONS
    # True when printing an IR and reading the text back may give another query (Sparklis reads
    # every indefinite of a sentence as an answer): callers that print IRs they did not parse
    # (the decompiler) then check that the text compiles back to the same query.
    reads_back_differently: ClassVar[bool] = False

    registry: ClassVar[dict[str, type["Dialect"]]] = {}

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if cls.name:
            Dialect.registry[cls.name] = cls

    # -- reading and writing ---------------------------------------------------------------
    def parse(self, text: str, *, notation: str | None = None, properties=None, entities=None) -> ir.Query:
        """Text -> IR. ``notation`` (``ecai``, ``id``, ``label``) is detected when None.
        ``properties``/``entities``: labels the KG knows (a dict label -> ID, a list of labels),
        for dialects that write terms without brackets; others ignore them."""
        raise NotImplementedError

    def print(self, query: ir.Query, notation: str = "label", *, id_labels: bool = True) -> str:
        """IR -> text in ``notation``; ``id_labels``: write ``<P57:director>`` rather than ``<P57>``
        in the ID notation. Raises :class:`cnl.errors.PrintError` for what it cannot say."""
        raise NotImplementedError

    # -- the dialect's own readings -------------------------------------------------------------
    def printable(self, query: ir.Query) -> ir.Query:
        """``query`` rewritten into the forms this dialect writes (same meaning)."""
        return query

    def check_expressible(self, query: ir.Query) -> None:
        """Raise :class:`cnl.errors.UnsupportedSPARQLError` for a query this dialect has no
        form for; judged on the IR alone (see ``reads_back_differently`` for the rest)."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"
