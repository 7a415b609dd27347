"""What one parse reads with: the notation ``<...>`` terms are read in and the text being
parsed, set by :func:`~cnl.dialects.squall.parser.driver.parse_squall` for the duration of one
parse and read by the lexer and the term readers deep inside Lark's callbacks (context variables,
so that parses in several threads never mix); and errors located in that text.

Separate because the lexer, the term readers and the transformer all need them, and none of
them owns them."""
from __future__ import annotations

import contextlib
import contextvars

from cnl.errors import CNLSyntaxError

current_notation: contextvars.ContextVar[str] = contextvars.ContextVar("squall_notation", default="ecai")
current_text: contextvars.ContextVar[str] = contextvars.ContextVar("squall_text", default="")
# whether the text lexed is a prefix that goes on (the prefix checker, completion): its end is
# then no end of a phrase
lexing_prefix: contextvars.ContextVar[bool] = contextvars.ContextVar("squall_prefix", default=False)
# whether a text that did not parse as written is read again with the writer forms a grammar rule
# would take older readings from (cnl/dialects/squall/parser/writer_tokens.py: the "of" a
# relational noun left out before a name, "has" as the perfect's auxiliary): a second reading,
# so that no text that parses changes its reading
reading_again: contextvars.ContextVar[bool] = contextvars.ContextVar("squall_reading_again", default=False)


@contextlib.contextmanager
def reading_notation(notation: str):
    """Lex ``<...>`` terms as ``notation`` does (``<label>`` is a property in the label notation,
    an entity in the ECAI one) inside the block: for callers that drive the lexer or the
    interactive parser themselves."""
    token = current_notation.set(notation)
    try:
        yield
    finally:
        current_notation.reset(token)


@contextlib.contextmanager
def reading_prefix():
    """Lex the text inside the block as a prefix that may go on (what its end closes is not
    known yet): for the prefix checker and completion."""
    token = lexing_prefix.set(True)
    try:
        yield
    finally:
        lexing_prefix.reset(token)


def error_at(span, message: str) -> CNLSyntaxError:
    text = current_text.get()
    start = span[0] if span else 0
    line = text.count("\n", 0, start) + 1
    column = start - (text.rfind("\n", 0, start) + 1) + 1
    token = text[span[0]:span[1]] if span else None
    return CNLSyntaxError(message, text=text, line=line, column=column, token=token)
