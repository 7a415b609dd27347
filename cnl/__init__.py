"""cnl2sparql: question answering over knowledge graphs through controlled natural languages.

    >>> import cnl
    >>> print(cnl.compile("which <Q11424> has <P57> <Q295964>?"))      # doctest: +SKIP

Public API: :func:`parse`, :func:`compile`, :func:`to_cnl`, and the error types in
:mod:`cnl.errors`. Heavy parts (models, embeddings) load lazily in their own modules.
"""
from __future__ import annotations

from cnl.errors import CNLError, CNLSyntaxError, CompileError, LexiconError

__version__ = "0.1.0"

DIALECTS = ("squall", "sparklis")


def parse(text: str, dialect: str = "squall", *, notation: str | None = None, properties=None, entities=None):
    """Parse CNL text into the typed IR (:class:`cnl.parser.ir.Query`).

    The notation (``ecai``, ``id``, ``label``) is detected unless given. ``properties`` (Sparklis
    only): the KG's property labels (a dict label -> PID, a list of labels, or a Lexicon), to
    read a property shown by its bare label ("has as a genre romance film"). ``entities``
    (Sparklis only): known entity labels (a list or a Lexicon), to read "X and Y" as two
    values when X and Y are known labels and "X and Y" is not."""
    if dialect == "squall":
        from cnl.parser.squall import parse_squall

        return parse_squall(text, notation=notation)
    if dialect == "sparklis":
        try:
            from cnl.parser.sparklis import parse_sparklis
        except ImportError:
            raise CNLError("the Sparklis dialect is not available in this version") from None
        if hasattr(properties, "labels") and callable(properties.labels):
            properties = properties.labels("property")
        if hasattr(entities, "labels") and callable(entities.labels):
            entities = entities.labels("item")
        return parse_sparklis(text, notation=notation, properties=properties, entities=entities)
    raise CNLError(f"unknown dialect {dialect!r}; choose one of {', '.join(DIALECTS)}")


def compile(text, *, dialect: str = "squall", kg="wikidata", lexicon=None, notation: str | None = None,
            **profile_options) -> str:
    """Compile CNL text (or an already parsed IR query) to SPARQL.

    ``kg`` is a profile name (``wikidata``, ``rdf``) or a profile instance; profile options
    (``statements``, ``subclasses``, ``label_columns``, ``default_limit``, ``projection``) may be
    passed as keywords. ``lexicon`` (a :class:`cnl.linking.lexicon.Lexicon`, a file path or a dict
    label -> ID) resolves labels written without IDs; in Sparklis text its property labels also
    read properties shown by a bare label."""
    from cnl.compiler.sparql import compile_query
    from cnl.linking.lexicon import as_lexicon
    from cnl.parser.ir import Query

    resolver = as_lexicon(lexicon)
    query = text if isinstance(text, Query) else parse(text, dialect, notation=notation, properties=resolver,
                                                       entities=resolver)
    return compile_query(query, kg=kg, resolver=resolver, **profile_options)


def to_cnl(query, notation: str = "label", dialect: str = "squall", *, id_labels: bool = True) -> str:
    """Print an IR query as CNL text in ``notation``."""
    if dialect == "sparklis":
        from cnl.parser.sparklis_printer import print_sparklis

        return print_sparklis(query, notation, id_labels=id_labels)
    if dialect != "squall":
        raise CNLError(f"unknown dialect {dialect!r}; choose one of {', '.join(DIALECTS)}")
    from cnl.parser.printer import print_squall

    return print_squall(query, notation, id_labels=id_labels)




def decompile(sparql: str, *, dialect: str = "squall", notation: str = "id", lexicon=None) -> str:
    """SPARQL -> CNL text in ``dialect`` and ``notation``.

    ``lexicon`` (a Lexicon, a file path or a dict label -> ID) supplies the labels the label
    notation prints; without one, terms are printed by ID (``<Q…>``/``<P…>``). A construct CNL
    cannot express raises :class:`cnl.errors.UnsupportedSPARQLError` naming it; use
    :func:`cnl.compiler.decompile.decompile_to_ir` for the IR and the profile options that
    recompile it to an equivalent query."""
    from cnl.compiler.decompile import decompile as _decompile
    from cnl.linking.lexicon import as_lexicon

    if dialect not in DIALECTS:
        raise CNLError(f"unknown dialect {dialect!r}; choose one of {', '.join(DIALECTS)}")
    return _decompile(sparql, dialect=dialect, notation=notation, lexicon=as_lexicon(lexicon))


def translate(question: str, *, el: str = "hybrid", kg=None, lexicon=None, constrained: bool = True,
              validate: bool = True, adapter=None, base_model=None, **options):
    """Question -> CNL -> SPARQL with the learned parser (the shipped adapter unless
    ``adapter`` names another); returns a :class:`cnl.model.inference.Translation`.
    Needs the ``model`` extra (torch, transformers, peft)."""
    from cnl.model.base import _require_model_stack

    _require_model_stack()
    from cnl.model.inference import get_translator

    return get_translator(adapter, base_model).translate(
        question, el=el, kg=kg, lexicon=lexicon, constrained=constrained, validate=validate, **options)


__all__ = ["parse", "compile", "to_cnl", "decompile", "translate", "CNLError", "CNLSyntaxError", "CompileError",
           "LexiconError"]
