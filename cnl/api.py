"""The public API: parse, compile, to_cnl, decompile, translate (re-exported by ``cnl``).

A thin facade over the stages (text -> dialect parser -> IR -> SPARQL compiler -> KG): each
function looks its dialect up in :mod:`cnl.dialects` and coerces the user's lexicon argument
(a Lexicon, a file path or a dict label -> ID). Nothing inside the package imports this module.
"""
from __future__ import annotations

import cnl.datasets  # noqa: F401  (registers the data sets' profile presets, e.g. wikidata-ecai)
from cnl.dialects import dialect_names, get_dialect
from cnl.errors import CNLError
from cnl.ir import Query
from cnl.linking.lexicon import as_lexicon
from cnl.sparql.compiler import compile_cnl
from cnl.sparql.decompile import decompile as decompile_sparql


def parse(text: str, dialect: str = "squall", *, notation: str | None = None, properties=None, entities=None) -> Query:
    """Parse CNL text into the typed IR (:class:`cnl.ir.Query`).

    The notation (``ecai``, ``id``, ``label``) is detected unless given. ``properties`` and
    ``entities`` (used by dialects that write terms without brackets, such as Sparklis'
    "has as a genre romance film"): the KG's labels, as a dict label -> ID, a list of labels,
    or a Lexicon."""
    return get_dialect(dialect).parse(text, notation=notation, properties=properties, entities=entities)


def compile(text, *, dialect: str = "squall", kg="wikidata", lexicon=None, notation: str | None = None,
            store=None, endpoint=None, **profile_options) -> str:
    """Compile CNL text (or an already parsed IR query) to SPARQL.

    ``kg`` is a profile name (``wikidata``, ``rdf``, a registered preset such as
    ``wikidata-ecai``), a TOML profile file or a profile instance; profile options
    (``statements``, ``subclasses``, ``label_columns``, ``default_limit``, ``projection``...)
    may be passed as keywords. Labels written without IDs (``[Inception]``, ``<director>``)
    resolve through ``lexicon`` (a Lexicon, a file path or a dict label -> ID), then through the
    knowledge graph given as ``store`` (an embedded store's folder) or ``endpoint`` (a SPARQL
    endpoint URL): an unknown or ambiguous label is a :class:`cnl.errors.LexiconError` naming
    the candidates (:mod:`cnl.linking.kg_labels`)."""
    resolver = as_lexicon(lexicon)
    if store is None and endpoint is None:
        return compile_cnl(text, dialect=dialect, kg=kg, resolver=resolver, notation=notation, **profile_options)
    from cnl.linking.kg_labels import labels_through

    with labels_through(store=store, endpoint=endpoint, lexicon=resolver, profile=kg) as labels:
        return compile_cnl(text, dialect=dialect, kg=kg, resolver=labels, notation=notation, **profile_options)


def to_cnl(query: Query, notation: str = "label", dialect: str = "squall", *, id_labels: bool = True) -> str:
    """Print an IR query as CNL text of ``dialect`` in ``notation`` (in the forms that dialect
    writes: a SQUALL question becomes Sparklis' "give me every ... that ...")."""
    speaker = get_dialect(dialect)
    return speaker.print(speaker.printable(query), notation, id_labels=id_labels)


def decompile(sparql: str, *, dialect: str = "squall", notation: str = "id", lexicon=None) -> str:
    """SPARQL -> CNL text in ``dialect`` and ``notation``.

    ``lexicon`` (a Lexicon, a file path or a dict label -> ID) supplies the labels the label
    notation prints; without one, terms are printed by ID (``<Q…>``/``<P…>``). A construct CNL
    cannot express raises :class:`cnl.errors.UnsupportedSPARQLError` naming it; use
    :func:`cnl.sparql.decompile.decompile_to_ir` for the IR and the profile options that
    recompile it to an equivalent query."""
    return decompile_sparql(sparql, dialect=get_dialect(dialect), notation=notation, lexicon=as_lexicon(lexicon))


def translate(question: str, *, el: str = "hybrid", kg=None, lexicon=None, constrained: bool = True,
              validate: bool = True, adapter=None, base_model=None, **options):
    """Question -> CNL -> SPARQL with the learned parser (the shipped adapter unless
    ``adapter`` names another); returns a :class:`cnl.learn.inference.Translation`.
    Needs the ``model`` extra (torch, transformers, peft)."""
    from cnl.learn.base_model import require_model_stack

    require_model_stack()
    from cnl.learn.inference import get_translator

    return get_translator(adapter, base_model).translate(
        question, el=el, kg=kg, lexicon=lexicon, constrained=constrained, validate=validate, **options)


DIALECTS = dialect_names()

__all__ = ["parse", "compile", "to_cnl", "decompile", "translate", "DIALECTS", "CNLError"]
