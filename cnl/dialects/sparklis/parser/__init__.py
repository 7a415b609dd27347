"""Sparklis verbalizations -> IR (the same IR as SQUALL).

Sparklis (Ferré, SWJ 2017) builds queries by clicking and shows them as English
(``give me every film that has as a <P179:part_of_the_series> Marvel Cinematic Universe``);
it has no parser of its own. This one reads its verbalizations, as found in the ECAI-2023
data, with an LALR(1) grammar (``cnl/dialects/sparklis/sparklis.lark``) over word-level tokens:
entities and classes are bare labels, which :class:`SparklisLexer` groups into one LABEL
token each (see the grammar's header for how).

Meaning, as Sparklis has it: every variable of the query is an answer column, so the
indefinites of a sentence without ``give me`` are questions (``which``) and those under
``give me every C`` are projected with it. ``highest-to-lowest`` orders without a limit
(``Order(limit=False)``). The trailing clauses refer back to a noun or a property already
mentioned: ``and give me the number of film`` counts the films, ``and give me the year of
the <P577>`` adds the year of that date as a column, ``and where the year of the <P577> = 1997``
filters it.

One module per part of the parse:

- ``driver``: :func:`parse_sparklis`, the Lark parser built from the grammar;
- ``lexer``: :func:`tokenize` and :class:`SparklisLexer`: words, keyword phrases, labels;
- ``terms``: term tokens read in the current notation (properties, entities, classes, literals);
- ``transform``: the Lark callbacks that build the IR, by construct family;
- ``references``: the trailing clauses, resolved against what the sentence mentioned;
- ``syntax_errors``: refusals and parse errors as a writer reads them;
- ``reading``: what one parse reads with (notation, property and entity lexicons).
"""
from cnl.dialects.sparklis.parser.driver import parse_sparklis
from cnl.dialects.sparklis.parser.lexer import SparklisLexer, tokenize
from cnl.dialects.sparklis.parser.references import value_of
from cnl.dialects.sparklis.parser.transform import INSTANCE_OF, LABEL_PROPERTY

__all__ = ["parse_sparklis", "tokenize", "SparklisLexer", "value_of", "INSTANCE_OF", "LABEL_PROPERTY"]
