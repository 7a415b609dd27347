"""SQUALL text -> IR.

The Lark grammar (``cnl/dialects/squall/squall.lark``) is LALR(1); the transformer runs inside the
parser (no parse tree is built), and the parse runs Lark's table and callbacks in a loop of our own
(``lalr``), which keeps parsing a typical ECAI question near 120 µs (bench_compile).
Errors become :class:`cnl.errors.CNLSyntaxError` with the position, the offending token, what
was expected (from the interactive parser's ``accepts()``) and, for known mistakes, a hint.

One module per part of the parse:

- ``driver``: :func:`parse_squall` and :func:`lark_parser`, the Lark parser built from the grammar;
- ``lalr``: :class:`~cnl.dialects.squall.parser.lalr.LalrLoop`, the LALR loop a parse runs (Lark's
  table and callbacks; Lark's own parser reports the errors);
- ``lexer``: :class:`SquallLexer`, and a property path's tokens merged into one;
- ``terms``: term tokens read in the current notation (properties, paths, entities, noun heads);
- ``transform``: the Lark callbacks that build the IR, by construct family;
- ``syntax_errors``: parse errors as a writer reads them, with hints for known mistakes;
- ``reading``: what one parse reads with (notation, text; :func:`reading_notation`).
"""
from cnl.dialects.squall.parser.driver import lark_parser, parse_squall
from cnl.dialects.squall.parser.lexer import SquallLexer
from cnl.dialects.squall.parser.reading import reading_notation, reading_prefix

__all__ = ["parse_squall", "lark_parser", "SquallLexer", "reading_notation", "reading_prefix"]
