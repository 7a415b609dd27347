"""The parser's entry point: :func:`parse_squall` checks the text, sets what the parse reads with
(the notation, the text) and runs :func:`lark_parser`, the Lark LALR parser built (and its
analysis cached) from the grammar (:func:`~cnl.dialects.squall.grammar.grammar_text`) with the
lexer and the transformer of this package."""
from __future__ import annotations

from functools import lru_cache

from lark import Lark
from lark.exceptions import UnexpectedInput

from cnl import ir
from cnl.dialects.grammar_cache import cached_lark
from cnl.dialects.limits import check_depth, check_text, too_deep
from cnl.dialects.notation import NOTATIONS, detect_notation
from cnl.dialects.squall.grammar import grammar_text
from cnl.dialects.squall.parser.lalr import LalrLoop
from cnl.dialects.squall.parser.lexer import KeepTermTokens, SquallLexer
from cnl.dialects.squall.parser.reading import current_notation, current_text, reading_again
from cnl.dialects.squall.parser.syntax_errors import SPARKLIS_HINT, to_syntax_error
from cnl.dialects.squall.parser.transform import ToIR
from cnl.dialects.squall.parser.writer_tokens import may_read_again
from cnl.errors import CNLSyntaxError


@lru_cache(maxsize=1)
def lark_parser() -> Lark:
    return cached_lark(
        "squall",
        grammar_text(),
        parser="lalr",
        lexer=SquallLexer,
        postlex=KeepTermTokens(),
        transformer=ToIR(),
        propagate_positions=False,
        maybe_placeholders=False,
    )


@lru_cache(maxsize=1)
def _lalr_loop() -> LalrLoop:
    lark = lark_parser()
    lexer = lark.parser.lexer
    while not isinstance(lexer, SquallLexer):  # the postlexer's and Lark's custom-lexer wrappers
        lexer = lexer.lexer
    return LalrLoop(lark, lexer)


def _parse_raw(text: str):
    return _lalr_loop().parse(text)


def _parse_again(text: str):
    """The text's parse; one that does not parse as written is read again with the writer forms
    tried only then (:data:`~cnl.dialects.squall.parser.reading.reading_again`); where that
    fails too, the error of the reading that went further is raised."""
    try:
        return _parse_raw(text)
    except UnexpectedInput as err:
        if not may_read_again(text):
            raise
        token = reading_again.set(True)
        try:
            return _parse_raw(text)
        except UnexpectedInput as again:
            # the reading that went further says where the text goes wrong
            raise again if _position(again) > _position(err) else err from None
        finally:
            reading_again.reset(token)


def _position(err: UnexpectedInput) -> int:
    return getattr(err, "pos_in_stream", None) or -1


def parse_squall(text: str, notation: str | None = None) -> ir.Query:
    """Parse SQUALL text (any of the three notations) into an :class:`ir.Query`."""
    if not isinstance(text, str):
        raise CNLSyntaxError(f"expected text, got {type(text).__name__}")
    stripped = text.strip()
    if not stripped:
        raise CNLSyntaxError("empty query", text=text)
    check_text(stripped, "SQUALL")
    if notation is None:
        notation = detect_notation(stripped)
    elif notation not in NOTATIONS:
        raise CNLSyntaxError(f"unknown notation {notation!r}; choose one of {', '.join(NOTATIONS)}")
    tok_n = current_notation.set(notation)
    tok_t = current_text.set(stripped)
    try:
        query = check_depth(_parse_again(stripped), "SQUALL")
    except UnexpectedInput as err:
        raise to_syntax_error(err, stripped, _parse_raw) from None
    except RecursionError:
        raise too_deep("SQUALL") from None
    except CNLSyntaxError as err:
        if err.hint is None and SPARKLIS_HINT.search(stripped):
            err.with_hint("this looks like Sparklis, not SQUALL: try dialect 'sparklis'")
        raise
    finally:
        current_notation.reset(tok_n)
        current_text.reset(tok_t)
    if _is_statement(stripped, query):
        raise CNLSyntaxError(
            "a sentence that ends in '.' without a question word states a fact (SQUALL's update, which "
            "cnl2sparql does not write: it only reads); to ask whether it holds, end it with '?'", text=text)
    return query


# the words that begin a yes/no question ("Has <Q76> ... ." is still a question, sloppily ended)
_AUXILIARIES = {"has", "have", "had", "is", "are", "was", "were", "does", "do", "did", "can"}


def _is_statement(text: str, query: ir.Query) -> bool:
    """Whether ``text`` is a declarative sentence: it ends in "." (no "?"), says something of a
    subject (a yes/no query) and does not begin as a question. SQUALL reads such a sentence as
    an update (an insertion); compiling it as ASK would change what it means."""
    mark = text[len(text.rstrip("?.! ")):]
    if "." not in mark or "?" in mark or query.vp is None or ir.asks_for_values(query):
        return False
    first = text.split(None, 1)[0].lower()
    return first not in _AUXILIARIES
