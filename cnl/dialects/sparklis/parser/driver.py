"""The parser's entry point: :func:`parse_sparklis` checks the text, sets what the parse reads
with (the notation, the lexicons) and runs the Lark LALR parser built (and its analysis cached)
from ``sparklis.lark`` with the lexer and the transformer of this package; every failure
becomes a :class:`cnl.errors.CNLSyntaxError`."""
from __future__ import annotations

from functools import lru_cache
from importlib import resources

from lark import Lark
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

from cnl import ir
from cnl.dialects.grammar_cache import cached_lark
from cnl.dialects.limits import check_depth, check_text, too_deep
from cnl.dialects.notation import NOTATIONS
from cnl.dialects.sparklis.parser.lexer import SparklisLexer
from cnl.dialects.sparklis.parser.reading import current_entities, current_notation, current_properties
from cnl.dialects.sparklis.parser.syntax_errors import Refused, expected_words, hint_for, syntax_error
from cnl.dialects.sparklis.parser.transform import ToIR
from cnl.errors import CNLSyntaxError


@lru_cache(maxsize=1)
def _parser() -> Lark:
    grammar = resources.files("cnl.dialects.sparklis").joinpath("sparklis.lark").read_text("utf-8")
    return cached_lark("sparklis", grammar, parser="lalr", lexer=SparklisLexer, transformer=ToIR(),
                       maybe_placeholders=False)


def parse_sparklis(text: str, notation: str | None = None, properties=None, entities=None) -> ir.Query:
    """Parse a Sparklis verbalization into the IR. ``notation`` (``ecai``, ``id``, ``label``)
    only changes how ``<...>`` terms read: in ``label`` underscores are kept. ``properties``:
    a KG's property lexicon (a dict label -> PID, or just labels) to read a property shown by
    its bare label before its value ("has as a genre romance film"); without it such a string
    is refused. ``entities``: known entity labels, to read "X and Y" as two values where the
    whole is not a known label but X and Y are."""
    if notation is not None and notation not in NOTATIONS:
        raise CNLSyntaxError(f"unknown notation {notation!r}; choose one of {', '.join(NOTATIONS)}")
    if not text or not text.strip():
        raise CNLSyntaxError("empty Sparklis query", text=text or "")
    check_text(text, "Sparklis")
    reset = current_notation.set(notation or "ecai")
    lexicon = ({k.lower(): v for k, v in properties.items()} if isinstance(properties, dict)
               else {k.lower(): None for k in properties or ()})
    reset_props = current_properties.set(lexicon)
    reset_entities = current_entities.set(frozenset(str(e).lower() for e in entities or ()))
    try:
        return check_depth(_parser().parse(text.strip().rstrip(".?").rstrip()), "Sparklis")
    except CNLSyntaxError:
        raise
    except RecursionError:
        raise too_deep("Sparklis") from None
    except Refused as inner:
        pos = inner.token.start_pos if inner.token is not None else 0
        raise syntax_error(text, pos, inner.reason, str(inner.token) if inner.token else None) from None
    except VisitError as err:
        inner = err.orig_exc
        if isinstance(inner, Refused):
            pos = inner.token.start_pos if inner.token is not None else 0
            raise syntax_error(text, pos, inner.reason, str(inner.token) if inner.token else None) from None
        if isinstance(inner, CNLSyntaxError):
            raise inner from None
        raise
    except UnexpectedToken as err:
        token = err.token
        if token.type == "$END":
            raise syntax_error(text, len(text.rstrip()), "unexpected end of the query",
                                expected=expected_words(err.expected)) from None
        raise syntax_error(text, token.start_pos, "unexpected token", str(token),
                            expected=expected_words(err.expected), hint=hint_for(text, token)) from None
    except UnexpectedEOF as err:
        raise syntax_error(text, len(text), "unexpected end of the query", expected=expected_words(err.expected)) from None
    except (UnexpectedCharacters, UnexpectedInput) as err:
        raise syntax_error(text, getattr(err, "pos_in_stream", 0) or 0, "unexpected input") from None
    finally:
        current_notation.reset(reset)
        current_properties.reset(reset_props)
        current_entities.reset(reset_entities)
