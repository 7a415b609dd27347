"""The LALR loop a parse runs: Lark's own parse table and callbacks, driven by a tighter loop.

Lark's ``ParserState.feed_token`` looks each reduction's callback up by its ``Rule`` (a hash and
an ``__eq__`` in Python per reduction), checks every shifted token against the callbacks, and
reaches each transformer method through three wrappers; on the SQUALL grammar that was most of
a parse. Here each parse-table row is flattened once into token -> next state (a shift) or
(length, callback, rule name) (a reduction), with the ``v_args(inline=True)`` wrapper of each
callback replaced by a direct call of the method. The callbacks, their order and the values
they build are Lark's, so the IR is the same.

Anything but a successful parse is left to Lark: on a token that the table rejects, or a
character the lexer rejects, :meth:`LalrLoop.parse` runs Lark's parser on the same text, which
raises the error (with its interactive parser) exactly as before. Errors raised by the callbacks
themselves pass through unchanged, as they do from Lark's loop."""
from __future__ import annotations

from itertools import chain

from lark import Lark, Token
from lark.exceptions import UnexpectedInput
from lark.parse_tree_builder import ChildFilterLALR_NoPlaceholders, ExpandSingleChild
from lark.parsers.lalr_analysis import Shift
from lark.visitors import _VArgsWrapper, _vargs_inline  # noqa: PLC2701 - unwrapped below, checked by type


class _Rejected(Exception):
    """The table has no action for a token: Lark's parser reports it."""


class LalrLoop:
    """Parses with ``lark``'s (LALR, one start symbol) table, callbacks and lexer."""

    def __init__(self, lark: Lark, lexer):
        parser = lark.parser.parser.parser  # ParsingFrontend -> LALR_Parser -> _Parser
        table, callbacks = parser.parse_table, parser.callbacks
        (start,) = lark.options.start
        self.lark, self.lexer, self.postlex = lark, lexer, lark.options.postlex
        self.start_state, self.end_state = table.start_states[start], table.end_states[start]
        # a terminal callback (a transformer method named like a terminal) applies on shift
        self.token_callbacks = {name: f for name, f in callbacks.items() if isinstance(name, str)}
        reductions = {}
        # the rows in a list indexed by state (Lark numbers the states 0..n-1): a list index is
        # cheaper than a dict lookup, and the loop takes two per action
        if sorted(table.states) != list(range(len(table.states))):
            raise ValueError("the LALR loop expects the parse table's states numbered 0..n-1")
        self.rows = [None] * len(table.states)
        for state, row in table.states.items():
            flat = {}
            for symbol, (action, arg) in row.items():
                if action is Shift:
                    flat[symbol] = arg
                else:
                    if arg not in reductions:
                        size, callback = len(arg.expansion), callbacks[arg]
                        if size == 1 and type(callback) is ExpandSingleChild:
                            reductions[arg] = (size, None, arg.origin.name, False)
                        else:
                            method = _inline_method(callback)  # called with the children spread
                            reductions[arg] = (size, method or _direct(callback), arg.origin.name, method is not None)
                    flat[symbol] = reductions[arg]
            self.rows[state] = flat

    def parse(self, text: str):
        """The transformer's value for ``text``; Lark's exception where Lark's parser fails."""
        try:
            tokens = self.lexer.lex(text)
            return self._run(tokens if self.postlex is None else self.postlex.process(tokens))
        except (_Rejected, UnexpectedInput):
            return self.lark.parse(text)  # raises the error as Lark reports it

    def _run(self, tokens):
        rows, token_callbacks, end_state = self.rows, self.token_callbacks, self.end_state
        state = self.start_state
        states, values = [state], []
        for token in chain(tokens, (_END,)):
            kind = token.type
            while True:
                action = rows[state].get(kind)
                if action.__class__ is int:  # shift
                    if token is _END:
                        raise _Rejected
                    states.append(action)
                    state = action
                    values.append(token if kind not in token_callbacks else token_callbacks[kind](token))
                    break
                if action is None:
                    raise _Rejected
                size, callback, name, spread = action
                if callback is None:  # "?rule: x": the one child is the value
                    state = states[-1] = rows[states[-2]][name]
                else:
                    if size:
                        children = values[-size:]
                        del states[-size:]
                        del values[-size:]
                    else:
                        children = []
                    values.append(callback(*children) if spread else callback(children))
                    state = rows[states[-1]][name]
                    states.append(state)
                if state == end_state and token is _END:
                    return values[-1]


_END = Token("$END", "")


def _direct(callback):
    """``callback`` with an inline-``v_args`` transformer method called directly (Lark reaches it
    through ``apply_visit_wrapper`` -> ``_vargs_inline`` -> ``_VArgsWrapper``); the child filter
    and single-child expansion around it are kept. Any other callback is returned as it is."""
    if isinstance(callback, ExpandSingleChild):
        inner = _direct(callback.node_builder)
        return callback if inner is callback.node_builder else ExpandSingleChild(inner)
    if isinstance(callback, ChildFilterLALR_NoPlaceholders):
        inner = _direct(callback.node_builder)
        return callback if inner is callback.node_builder else ChildFilterLALR_NoPlaceholders(callback.to_include, inner)
    method = _inline_method(callback)
    if method is not None:

        def call(children):
            return method(*children)

        return call
    return callback


def _inline_method(callback):
    """The transformer method behind ``callback`` if Lark calls it with the children spread
    (``v_args(inline=True)``, through ``apply_visit_wrapper``), else None."""
    wrapped = getattr(callback, "__wrapped__", None)
    closure = getattr(callback, "__closure__", None) or ()
    if isinstance(wrapped, _VArgsWrapper) and any(cell.cell_contents is _vargs_inline for cell in closure):
        return wrapped.base_func
    return None
