"""SQUALL text -> IR.

The Lark grammar (``cnl/grammar/squall.lark``) is LALR(1); the transformer runs inside the
parser (no parse tree is built), which keeps parsing a typical question well under 100 µs.
Errors become :class:`cnl.errors.CNLSyntaxError` with the position, the offending token, what
was expected (from the interactive parser's ``accepts()``) and, for known mistakes, a hint.
"""
from __future__ import annotations

import contextlib
import contextvars
import re
from dataclasses import replace
from functools import lru_cache
from importlib import resources

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.lexer import Lexer

from cnl.errors import CNLSyntaxError
from cnl import ir
from cnl.dialects.notation import ID_RE, NOTATIONS, detect_notation, split_angle, unescape
from cnl.dialects.grammar_cache import cached_lark
from cnl.dialects.limits import check_depth, check_text, too_deep

_notation: contextvars.ContextVar[str] = contextvars.ContextVar("squall_notation", default="ecai")
_text: contextvars.ContextVar[str] = contextvars.ContextVar("squall_text", default="")


class SquallLexer(Lexer):
    """One-regex lexer built from the grammar's own terminal definitions.

    Lark's generic lexer spends most of a parse here; one combined regex (ordered by terminal
    priority, then length, as Lark orders them) plus a keyword table does the same work in a
    single ``match`` per token. It also retypes terms: ``<P..>`` is a PROP, ``<Q..>`` and
    ``[...]`` an ENT, and a bare ``<label>`` a PROP in the label notation and an ENT in the
    ECAI notation (see ``squall.lark``).
    """

    def __init__(self, lexer_conf):
        keywords: dict[str, str] = {}
        patterns = []
        for term in lexer_conf.terminals:
            pattern = term.pattern
            if term.name in lexer_conf.ignore:
                continue
            if pattern.type == "str" and pattern.value.isalpha():
                keywords[pattern.value.lower()] = term.name
                continue
            patterns.append(term)
        patterns.sort(key=lambda t: (-t.priority, -t.pattern.max_width, t.name))
        self.keywords = keywords
        alternatives = [(t.name, t.pattern.to_regexp()) for t in patterns]
        # leading blanks are part of the match: one regex call per token
        self.master = _alternation(alternatives)
        self.by_first_char = _first_char_dispatch(alternatives)
        self.space = re.compile(r"\s*")

    def lex(self, text):
        tokens = self._lex(text)
        if _MAY_HAVE_PATH.search(text) is None:
            return tokens
        return _merge_paths(list(tokens), text)

    def _lex(self, text):
        label_notation = _notation.get() == "label"
        keywords, master, space, by_first_char = self.keywords, self.master, self.space, self.by_first_char
        pos, end, line, line_start = 0, len(text), 1, 0
        while True:
            while pos < end and text[pos] in " \t\r\n":
                pos += 1
            match = by_first_char.get(text[pos], master).match(text, pos) if pos < end else None
            if match is None:
                pos = space.match(text, pos).end()
                if pos >= end:
                    return
                line = text.count("\n", 0, pos) + 1
                column = pos - (text.rfind("\n", 0, pos) + 1) + 1
                raise UnexpectedCharacters(text, pos, line, column, allowed=None)
            kind = match.lastgroup
            pos, value = match.start(kind), match.group(kind)
            if kind == "WORD":
                kind = keywords.get(value.lower(), "WORD")
            elif kind == "ANGLE":
                ident = ID_RE.match(value[1:-1])  # raw: <\P1> is a label
                if ident:
                    kind = "ENT" if ident.group(1) == "Q" else "PROP"
                else:
                    kind = "PROP" if label_notation else "ENT"
            elif kind == "BRACKET":
                kind = "ENT"
            if text.find("\n", line_start, pos) >= 0:
                line = text.count("\n", 0, pos) + 1
                line_start = text.rfind("\n", 0, pos) + 1
            new_end = match.end()
            yield Token(kind, value, pos, line, pos - line_start + 1, line, new_end - line_start + 1, new_end)
            pos = new_end


def _alternation(alternatives) -> re.Pattern:
    """One regex trying ``alternatives`` ((name, pattern) pairs) in order after any blanks."""
    return re.compile(r"\s*(?:" + "|".join(f"(?P<{name}>{pattern})" for name, pattern in alternatives) + ")")


def _first_char_dispatch(alternatives) -> dict:
    """Printable ASCII character -> the alternation of only those ``alternatives`` a token may
    start with there, in the same order (a word need not try the thirty multi-word terminals
    listed before WORD). A pattern with a look-behind is kept everywhere: what it tests lies
    before the token. Other characters use the whole alternation."""
    import regex  # partial matching tells whether a pattern can start with a character

    compiled = [(name, pattern, "(?<" in pattern and "(?<P" not in pattern, regex.compile(pattern))
                for name, pattern in alternatives]
    table, shared = {}, {}
    for code in range(33, 127):
        char = chr(code)
        names = tuple(name for name, _, behind, rx in compiled
                      if behind or rx.match(char, partial=True) is not None)
        if names not in shared:
            kept = set(names)
            shared[names] = _alternation([(n, p) for n, p in alternatives if n in kept])
        table[char] = shared[names]
    return table


# ------------------------------------------------------------------------------ property paths
# A text that may hold a path: an operator glued to a term or a parenthesis, or two properties
# joined by "or" (checked before any path work, so that other texts lex at full speed).
_MAY_HAVE_PATH = re.compile(r"[>)](?:[+*/]|\{0,1\})|\^[<(]|>\s+or\s+[<(^]", re.I)
_PATH_MODS = ("+", "*", "{0,1}")


def _merge_paths(tokens: list, text: str) -> list:
    """Each property path (``<P131>+``, ``<P22> or <P25>``, ``(<P1>/<P2>)*``, ``^<P131>``) as
    one PROP token (VERB_PROP when it starts with ``is-<P>``) whose value is the path's text;
    :func:`_prop` reads the path. "or" between two properties can only be an alternative of
    properties (no rule puts a property right after "or"), so nothing else is merged."""
    out, i, n = [], 0, len(tokens)
    while i < n:
        tok = tokens[i]
        end = _path_end(tokens, i, True) if tok.type in ("PROP", "VERB_PROP", "_LPAR", "PATH_OP") else None
        if end is not None and end > i + 1:
            last = tokens[end - 1]
            out.append(Token("VERB_PROP" if tok.type == "VERB_PROP" else "PROP", text[tok.start_pos:last.end_pos],
                             tok.start_pos, tok.line, tok.column, last.end_line, last.end_column, last.end_pos))
            i = end
        else:
            out.append(tok)
            i += 1
    return out


def _path_end(tokens, i, first=False):
    """The index after the path alternative that starts at ``i``, or None."""
    j = _path_seq(tokens, i, first)
    while j is not None and j + 1 < len(tokens) and tokens[j].type == "OR" and _path_starts(tokens, j + 1):
        k = _path_seq(tokens, j + 1)
        if k is None:
            return None
        j = k
    return j


def _path_starts(tokens, i) -> bool:
    if i >= len(tokens):
        return False
    tok = tokens[i]
    if tok.type == "PROP" or (tok.type == "PATH_OP" and tok.value == "^"):
        return True
    return tok.type == "_LPAR" and i + 1 < len(tokens) and _path_starts(tokens, i + 1)


def _path_seq(tokens, i, first=False):
    j = _path_step(tokens, i, first)
    while j is not None and j < len(tokens) and tokens[j].type == "PATH_OP" and tokens[j].value == "/":
        j = _path_step(tokens, j + 1)
    return j


def _path_step(tokens, i, first=False):
    if i >= len(tokens):
        return None
    tok = tokens[i]
    if tok.type == "PATH_OP" and tok.value == "^":
        return _path_step(tokens, i + 1)
    if tok.type == "PROP" or (first and tok.type == "VERB_PROP"):
        j = i + 1
    elif tok.type == "_LPAR" and _path_starts(tokens, i + 1):
        j = _path_end(tokens, i + 1)
        if j is None or j >= len(tokens) or tokens[j].type != "_RPAR":
            return None
        j += 1
    else:
        return None
    if j < len(tokens) and tokens[j].type == "PATH_OP" and tokens[j].value in _PATH_MODS:
        j += 1
    return j


class _KeepTermTokens:
    """Keeps ANGLE/BRACKET (and the path operators) in the lexer's terminal set: the grammar's
    rules only name ENT and PROP, which SquallLexer derives from them."""

    always_accept = ("ANGLE", "BRACKET", "PATH_OP")

    def process(self, stream):
        return stream


class _Head:
    """A noun head before its role (class or relational noun) is known."""

    __slots__ = ("id", "label", "span", "path")

    def __init__(self, id_, label, span, path=None):
        self.id, self.label, self.span, self.path = id_, label, span, path

    def as_class(self) -> ir.Class:
        if self.path is not None:
            raise _error_at(self.span, "a property path names no class: write 'the <P>+ of X'")
        return ir.Class(self.id, self.label, self.span)

    def as_property(self):
        if self.path is not None:
            return self.path
        return _checked_property(self.id, self.label, self.span)


def _span(tok: Token) -> tuple[int, int]:
    return (tok.start_pos, tok.end_pos)


def _raw_term(tok: Token) -> tuple[str | None, str | None]:
    value = tok.value
    if tok.type == "VERB_PROP":
        value = value[value.index("<"):]
    if value.startswith("["):
        return None, unescape(value[1:-1]).strip()
    id_, label, _ = split_angle(value[1:-1], _notation.get())
    return id_, label


def _checked_property(id_, label, span) -> ir.Property:
    if id_ is not None and id_.startswith("Q"):
        if label:
            return ir.Property(None, label, span)
        raise _error_at(span, f"{id_} is an item ID, not a property; write a property as <P123> or <label>")
    return ir.Property(id_, label, span)


def _prop(tok: Token, path: bool = True):
    """The property a PROP/VERB_PROP/ENT token names: an ``ir.Property``, or an
    ``ir.PropPath`` where the lexer merged a path (``path`` False: a position that takes a
    property only, such as a qualifier)."""
    value = tok.value
    if value[-1] == ">" and (value[0] == "<" or tok.type == "VERB_PROP") and value.count("<") == 1:
        id_, label = _raw_term(tok)
        return _checked_property(id_, label, _span(tok))
    if not path:
        raise _error_at(_span(tok), "a property path cannot be a qualifier: write one property here")
    return _PathReader(value, tok.start_pos).read()


_PATH_PART = re.compile(r"\s*(?:(?:is|are|was|were|has|have)-)?(?:(<(?:[^<>\\\n]|\\.)+>)|(or)\b|([()+*/^]|\{0,1\}))",
                        re.I)


class _PathReader:
    """The text of a merged path token -> ``ir.PropPath`` (see ``_merge_paths``): alternatives
    (``or``) of sequences (``/``) of steps, a step an optional ``^``, a property or a
    parenthesized path, and an optional ``+``/``*``/``{0,1}``."""

    def __init__(self, text: str, offset: int):
        self.parts, pos = [], 0
        while pos < len(text):
            match = _PATH_PART.match(text, pos)
            if match is None or match.end() == pos:
                raise _error_at((offset + pos, offset + len(text)), "unreadable property path")
            angle, word, op = match.groups()
            if angle is not None:
                start = offset + match.start(1)
                id_, label, _ = split_angle(angle[1:-1], _notation.get())
                self.parts.append(_checked_property(id_, label, (start, start + len(angle))))
            else:
                self.parts.append((word or op).lower())
            pos = match.end()
        self.i, self.offset, self.text = 0, offset, text

    def read(self):
        path = self.alternative()
        if self.i != len(self.parts):
            raise _error_at((self.offset, self.offset + len(self.text)), "unreadable property path")
        return path

    def _peek(self):
        return self.parts[self.i] if self.i < len(self.parts) else None

    def alternative(self):
        items = [self.sequence()]
        while self._peek() == "or":
            self.i += 1
            items.append(self.sequence())
        return items[0] if len(items) == 1 else ir.PropPath("|", tuple(items))

    def sequence(self):
        items = [self.step()]
        while self._peek() == "/":
            self.i += 1
            items.append(self.step())
        return items[0] if len(items) == 1 else ir.PropPath("/", tuple(items))

    def step(self):
        part = self._peek()
        self.i += 1
        if part == "^":
            return ir.PropPath("^", (self.step(),))
        if isinstance(part, ir.Property):
            inner = part
        elif part == "(":
            inner = self.alternative()
            if self._peek() != ")":
                raise _error_at((self.offset, self.offset + len(self.text)), "unbalanced parentheses in a property path")
            self.i += 1
        else:
            raise _error_at((self.offset, self.offset + len(self.text)), "unreadable property path")
        mod = self._peek()
        if mod in ("+", "*", "{0,1}"):
            self.i += 1
            return ir.PropPath("?" if mod == "{0,1}" else mod, (inner,))
        return inner


def _entity(tok: Token) -> ir.Entity:
    id_, label = _raw_term(tok)
    return ir.Entity(id_, label, _span(tok))


def _head(tok: Token) -> _Head:
    prop = _prop(tok) if tok.type == "PROP" else None
    if isinstance(prop, ir.PropPath):
        return _Head(None, None, _span(tok), prop)
    id_, label = _raw_term(tok)
    return _Head(id_, label, _span(tok))


def _error_at(span, message: str) -> CNLSyntaxError:
    text = _text.get()
    start = span[0] if span else 0
    line = text.count("\n", 0, start) + 1
    column = start - (text.rfind("\n", 0, start) + 1) + 1
    token = text[span[0]:span[1]] if span else None
    return CNLSyntaxError(message, text=text, line=line, column=column, token=token)


def _values(args):
    """Drop keyword tokens; keep IR nodes and the tuples the det rules return."""
    return [a for a in args if not isinstance(a, Token)]


class _AnyRank:
    """``at any rank`` where qualifiers stand: a mark of the statement (``Stmt.any_rank``,
    ``RelNoun.any_rank``), not a qualifier."""


_ANY_RANK = _AnyRank()


def _quals(vals):
    """(the qualifiers among ``vals``, whether ``at any rank`` is among them)."""
    return tuple(v for v in vals if isinstance(v, ir.Qual)), any(v is _ANY_RANK for v in vals)


def _flatten(kind, items):
    out = []
    for item in items:
        if isinstance(item, kind):
            out.extend(item.items)
        else:
            out.append(item)
    return tuple(out)


@v_args(inline=True)
class _ToIR(Transformer):
    """Lark callbacks, one per rule alias; each returns an IR node (or a small tuple)."""

    def pass_last(self, *args):
        return args[-1]

    def do_aux(self, tok):
        return tok

    have_kw = be_kw = does_kw = whose_kw = do_aux

    # ---- sentences
    def start(self, *args):
        return _values(args)[0]

    def give_me(self, *args):
        return ir.Query(_values(args)[0], None)

    def clause(self, subject, vp):
        return ir.Query(subject, vp)

    def fronted_object(self, quant, subject, gap):
        kind = gap[0]
        if kind == "prop":
            # "How many <Academy_Awards> <John_Wayne> did <award_received>" = awards that are an
            # <award_received> of John Wayne.
            vp = ir.Be(ir.Quant("a", ir.RelNoun(gap[1], subject)))
            return ir.Query(quant, ir.Not(vp) if gap[2] else vp)
        if kind == "relnoun":
            # "Which <film> <Brad_Pitt> is the <producer> and <cast_member> of" = films whose
            # <producer> and <cast_member> is Brad Pitt.
            stmts = tuple(ir.Stmt(p, subject) for p in gap[1])
            return ir.Query(quant, stmts[0] if len(stmts) == 1 else ir.And(stmts))
        # "How many <spouse> <Woodrow_Wilson> has": the noun is a relational noun of the subject.
        noun = quant.noun
        if not isinstance(noun, ir.ClassNoun):
            raise _error_at(None, "a possessive 'How many <P> <X> has' needs a property noun")
        prop = _checked_property(noun.cls.id, noun.cls.label, noun.cls.span)
        new_quant = ir.Quant(quant.det, ir.RelNoun(prop, subject), quant.rels, quant.order, quant.number, quant.var)
        return ir.Query(new_quant, ir.Exists())

    def fronted_qualifier(self, *args):
        vals = _values(args)
        order = vals[0] if isinstance(vals[0], ir.Order) else None
        head, subject, stmt = vals[-3], vals[-2], vals[-1]
        return self._qualifier_question(ir.Quant("which", None, order=order), head, subject, stmt)

    def fronted_qualifier_count(self, *args):
        head, subject, stmt = _values(args)[-3:]
        return self._qualifier_question(ir.Quant("how_many"), head, subject, stmt)

    @staticmethod
    def _qualifier_question(quant, head, subject, stmt):
        if head.path is not None:
            raise _error_at(head.span, "a property path cannot be a qualifier: write one property here")
        qual = ir.Qual(head.as_property(), quant)
        stmt = replace(stmt, quals=stmt.quals + (qual,))
        return ir.Query(subject, stmt)

    def ask_has(self, _has, subject, vp):
        return ir.Query(subject, vp)

    ask_be = ask_has

    def ask_does(self, *args):
        subject, vp = _values(args)
        return ir.Query(subject, vp)

    def gap_prop(self, *args):
        tok = args[-1]
        return ("prop", _prop(tok), False)

    def gap_prop_not(self, *args):
        return ("prop", _prop(args[-1]), True)

    def gap_rel_noun(self, *args):
        return ("relnoun", tuple(_prop(t) for t in args if isinstance(t, Token) and t.type == "PROP"))

    def gap_possessed(self, *_):
        return ("possessed",)

    # ---- noun phrases
    def np_and(self, *args):
        return ir.Coord("and", _flatten(ir.Coord, _values(args)))

    def np_or(self, *args):
        return ir.Coord("or", tuple(_values(args)))

    def np_list(self, *args):
        op = "or" if any(isinstance(a, Token) and a.type == "OR" for a in args) else "and"
        return ir.Coord(op, tuple(_values(args)))

    def arithmetic(self, left, right):
        return ir.Arith("-", left, right)

    def ent_np(self, tok):
        return ir.Ref(_entity(tok))

    def var_np(self, tok):
        return ir.Ref(ir.Var(tok.value.lstrip("?")))

    def who_np(self, _tok):
        return ir.Quant("which")

    what_np = who_np

    def bare_words(self, *words):
        label = " ".join(w.value for w in words)
        span = (words[0].start_pos, words[-1].end_pos)
        raise _error_at(
            span,
            f"bare label {label!r}: write entities and classes as <{label.replace(' ', '_')}> "
            f"or [{label}] and properties as <P123:label>",
        )

    def quant(self, det, *rest):
        det_word, number = det
        order, rest = _take_order(rest)
        noun, rels = rest[0], tuple(rest[1:])
        return ir.Quant(det_word, noun, rels, order, number)

    def quant_var(self, det, *rest):
        det_word, number = det
        order, rest = _take_order(rest)
        head, var = rest[0], rest[1]
        return ir.Quant(det_word, ir.ClassNoun(head.as_class()), tuple(rest[2:]), order, number, var.value.lstrip("?"))

    def which(self, _which, *rest):
        order, rest = _take_order(rest)
        return ir.Quant("which", rest[0], tuple(rest[1:]), order)

    def which_var(self, _which, *rest):
        order, rest = _take_order(rest)
        head, var = rest[0], rest[1]
        return ir.Quant("which", ir.ClassNoun(head.as_class()), tuple(rest[2:]), order, None, var.value.lstrip("?"))

    def how_many(self, _how, _many, noun, *rels):
        return ir.Quant("how_many", noun, rels)

    def aggregate_of_prop(self, _the, word, prop_tok, *rest):
        vals = _values(rest)
        quals, rank = _quals(vals)
        of = next(v for v in vals if not isinstance(v, (ir.Qual, _AnyRank)))
        return ir.Aggregate(_AGGREGATE_WORDS[word.value.lower()],
                            ir.Quant("a", ir.RelNoun(_prop(prop_tok), of, quals, rank)))

    def aggregate_of(self, _the, word, _of, np):
        return ir.Aggregate(_AGGREGATE_WORDS[word.value.lower()], np)

    def something(self, *args):
        return ir.Quant("a", None, tuple(_values(args)))

    def thing(self, det, *rest):
        order, rest = _take_order(_values(rest))
        return ir.Quant(det[0], None, tuple(rest), order, det[1])

    def everything(self, _tok, *rels):
        return ir.Quant("every", None, rels)

    def det_a(self, _):
        return ("a", None)

    def det_the(self, _):
        return ("the", None)

    def det_every(self, _):
        return ("every", None)

    def det_no(self, _):
        return ("no", None)

    def det_maybe(self, *_):
        return ("maybe", None)

    def det_at_least(self, _kw, n):
        return ("at_least", int(n))

    def det_at_most(self, _kw, n):
        return ("at_most", int(n))

    def det_exactly(self, _kw, n):
        return ("exactly", int(n))

    def count_det(self, tok):
        words = tok.value.split()
        return ("more_than" if words[0].lower() == "more" else "fewer_than", int(words[-1]))

    def det_number_of(self, *_):
        return ("number_of", None)

    def sup(self, word):
        return ir.Order(word.value.lower())

    def sup_sorted(self, word):
        return ir.Order(word.value.lower().split("-")[0], limit=False)

    def sup_ordinal(self, ordinal, word):
        return ir.Order(word.value.lower(), rank=_ordinal(ordinal))

    def sup_top(self, count, word):
        return ir.Order(word.value.lower(), count=int(count))

    def sup_range(self, first, _to, last, word):
        return ir.Order(word.value.lower(), rank=_ordinal(first), to_rank=_ordinal(last))

    def noun(self, head, *quals):
        if quals:
            return ir.RelNoun(head.as_property(), None, *_quals(quals))
        return ir.ClassNoun(head.as_class())

    def rel_noun(self, head, *rest):
        vals = _values(rest)
        quals, rank = _quals(vals)
        of = next(v for v in vals if not isinstance(v, (ir.Qual, _AnyRank)))
        return ir.RelNoun(head.as_property(), of, quals, rank)

    def date_part_of(self, part, _of, np):
        return ir.DatePart(part.value.lower(), np)

    def now(self, _tok):
        return ir.Now()

    def rel_language(self, *args):
        return ir.LangIs(_language(args[-1]))

    def has_language(self, *args):
        return ir.LangIs(_language(args[-1]))

    def its(self, its, prop_tok, *quals):
        quals, rank = _quals(quals)
        if rank:
            raise _error_at(_span(its), "'at any rank' is said of a statement ('has <P> X at any rank'), "
                                        "not of 'its <P>'")
        return ir.Its(_prop(prop_tok), quals)

    def difference(self, *args):
        left, right = _values(args)
        return ir.Arith("-", left, right)

    def year_of(self, _year, _of, np):
        return ir.YearOf(np)

    def year_of_bare(self, *args):
        vals = _values(args)
        prop_tok = next(a for a in args if isinstance(a, Token) and a.type == "PROP")
        quals, rank = _quals(vals)
        of = vals[-1]
        return ir.YearOf(ir.Quant("the", ir.RelNoun(_prop(prop_tok), of, quals, rank)))

    def noun_head(self, tok, *_plural):
        return _head(tok)

    # ---- relative clauses
    def rel_vp(self, _tok, vp):
        return vp

    def rel_gap(self, _that, subject, gap):
        vp = ir.Be(ir.Quant("a", ir.RelNoun(gap[1], subject)))
        return ir.Not(vp) if gap[2] else vp

    def rel_whose(self, *args):
        prop_tok = next(a for a in args if isinstance(a, Token) and a.type == "PROP")
        return ir.Stmt(_prop(prop_tok), ir.Quant("a", None, (args[-1],)))

    def rel_whose_year(self, *args):
        return ir.YearIs(args[-1])

    def rel_with(self, _with, prop, np):
        return ir.Stmt(_prop(prop), np)

    def rel_among(self, _among, np):
        items = np.items if isinstance(np, ir.Coord) else (np,)
        return ir.Be(ir.Coord("or", items) if len(items) > 1 else items[0])

    def rel_except(self, _except, np):
        return ir.Not(ir.Be(np))

    def rel_matches(self, _kw, string):
        return ir.StrTest("matches", _string(string))

    def rel_contains(self, _kw, string):
        return ir.StrTest("contains", _string(string))

    def rel_starts_with(self, _kw, _with, string):
        return ir.StrTest("starts", _string(string))

    def cased_matches(self, _cs, _kw, string):
        return ir.StrTest("matches", _string(string), case_sensitive=True)

    def cased_contains(self, _cs, _kw, string):
        return ir.StrTest("contains", _string(string), case_sensitive=True)

    def cased_starts_with(self, _cs, _kw, _with, string):
        return ir.StrTest("starts", _string(string), case_sensitive=True)

    def cased_str_test(self, test):
        return test

    def rel_qualifier(self, _at_which, prop, subject, vp):
        return ir.QualifierOf(_prop(prop, path=False), subject, vp)

    # ---- verb phrases
    def vp_or(self, *args):
        return ir.Or(_flatten(ir.Or, _values(args)))

    def vp_and(self, *args):
        return ir.And(_flatten(ir.And, _values(args)))

    def vp_not(self, *args):
        return ir.Not(_values(args)[-1])

    def has_prop(self, *args):
        prop_tok = next(a for a in args if isinstance(a, Token) and a.type in ("PROP", "ENT", "VERB_PROP"))
        vals = _values(args)
        quals, rank = _quals(vals)
        obj = next(v for v in vals if not isinstance(v, (ir.Qual, tuple, _AnyRank)))
        return ir.Stmt(_prop(prop_tok), obj, quals, any_rank=rank)

    def has_value(self, det, prop_tok, *rest):
        vals = _values(rest)
        quals, rank = _quals(vals)
        rels = tuple(v for v in vals if not isinstance(v, (ir.Qual, _AnyRank)))
        return ir.Stmt(_prop(prop_tok), ir.Quant(det[0], None, rels, None, det[1]), quals, any_rank=rank)

    has_value_compare = has_value

    def has_statement(self, det, prop_tok, _statement, *quals):
        # "has a <P69> statement at <P812> X": a statement whose value is not said
        if det != ("a", None):
            raise _error_at(_span(_statement), "a statement without its value is 'a <P> statement'")
        quals, rank = _quals(quals)
        return ir.Stmt(_prop(prop_tok), ir.AnyValue(), quals, any_rank=rank)

    def has_superlative(self, det, order, prop_tok, *quals):
        quals, rank = _quals(quals)
        return ir.Stmt(_prop(prop_tok), ir.Quant(det[0], None, (), order, det[1]), quals, any_rank=rank)

    def has_which(self, _which, prop_tok, *quals):
        quals, rank = _quals(quals)
        return ir.Stmt(_prop(prop_tok), ir.Quant("which"), quals, any_rank=rank)

    def has_superlative_object(self, det, order, prop_tok, obj, *quals):
        quals, rank = _quals(quals)
        return ir.Stmt(_prop(prop_tok), obj, quals, order=order, any_rank=rank)

    def be_np(self, np):
        return ir.Be(np)

    def be_not_np(self, _not, np):
        return ir.Not(ir.Be(np))

    def be_comparison(self, comparison):
        return comparison

    def be_not_comparison(self, _not, comparison):
        return ir.Not(comparison)

    def matches(self, _kw, string):
        return ir.StrTest("matches", _string(string))

    def contains(self, _kw, string):
        return ir.StrTest("contains", _string(string))

    def not_contains(self, *args):
        return ir.Not(ir.StrTest("contains", _string(args[-1])))

    def starts_with(self, _kw, _with, string):
        return ir.StrTest("starts", _string(string))

    def exists(self, *_):
        return ir.Exists()

    def has_year(self, *args):
        return ir.YearIs(ir.Be(args[-1]))

    # ---- qualifiers and comparisons
    def qual_any_rank(self, _tok):
        return _ANY_RANK

    def qual_value(self, _at, prop_tok, np):
        return ir.Qual(_prop(prop_tok, path=False), np)

    def qual_described(self, _at, det, prop_tok, *rels):
        return ir.Qual(_prop(prop_tok, path=False), ir.Quant(det[0], None, rels, None, det[1]))

    qual_compare = qual_described

    def qual_superlative(self, _at, *rest):
        det = rest[0] if isinstance(rest[0], tuple) else ("the", None)
        order, prop_tok = rest[-2], rest[-1]
        return ir.Qual(_prop(prop_tok, path=False), ir.Quant(det[0], None, (), order, det[1]))

    def cmp_gt(self, word, _than, np):
        return ir.Compare(">", (np,), _temporal(word))

    def cmp_lt(self, word, _than, np):
        return ir.Compare("<", (np,), _temporal(word))

    def cmp_ge(self, word, np):
        return ir.Compare(">=", (np,), _temporal(word))

    def cmp_le(self, word, np):
        return ir.Compare("<=", (np,), _temporal(word))

    def cmp_eq(self, _w, _to, np):
        return ir.Compare("=", (np,))

    def cmp_ne(self, _w, _from, np):
        return ir.Compare("!=", (np,))

    def cmp_between(self, _w, low, _and, high):
        return ir.Compare("between", (low, high))

    def lit_int(self, tok):
        return ir.Ref(ir.Literal(tok.value, "integer"))

    def lit_decimal(self, tok):
        return ir.Ref(ir.Literal(tok.value, "decimal"))

    def lit_date(self, tok):
        # 2004-09-07 is a date; 2004-09-07T00:00:00Z (Wikidata's time values) a dateTime
        return ir.Ref(ir.Literal(tok.value, "dateTime" if "T" in tok.value else "date"))

    def lit_string(self, tok):
        return ir.Ref(ir.Literal(_string(tok), "string"))

    def lit_lang_string(self, tok):
        text, _, lang = tok.value.rpartition("@")
        return ir.Ref(ir.Literal(unescape(text[1:-1]), "string", lang.lower()))


def _language(tok: Token) -> str:
    lang = _string(tok).strip().lower()
    if not re.fullmatch(r"[a-z]{1,8}(?:-[a-z0-9]{1,8})*", lang):
        raise _error_at(_span(tok), f"{lang!r} is not a language tag (en, fr, pt-br)")
    return lang


def _temporal(word: Token) -> bool:
    return word.value.lower().startswith(("earlier", "later"))


def _string(tok: Token) -> str:
    return unescape(tok.value[1:-1])


_AGGREGATE_WORDS = {"sum": "sum", "total": "sum", "average": "avg", "minimum": "min", "maximum": "max"}

_ORDINAL_WORDS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5,
    "sixth": 6, "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10,
}


def _ordinal(tok: Token) -> int:
    word = tok.value.lower()
    return _ORDINAL_WORDS.get(word) or int(re.match(r"\d+", word).group())


def _take_order(rest):
    if rest and isinstance(rest[0], ir.Order):
        return rest[0], rest[1:]
    return None, rest


# ------------------------------------------------------------------------------ the parser


@contextlib.contextmanager
def reading_notation(notation: str):
    """Lex ``<...>`` terms as ``notation`` does (``<label>`` is a property in the label notation,
    an entity in the ECAI one) inside the block: for callers that drive the lexer or the
    interactive parser themselves."""
    token = _notation.set(notation)
    try:
        yield
    finally:
        _notation.reset(token)


@lru_cache(maxsize=1)
def lark_parser() -> Lark:
    grammar = resources.files("cnl.dialects.squall").joinpath("squall.lark").read_text(encoding="utf-8")
    return cached_lark(
        "squall",
        grammar,
        parser="lalr",
        lexer=SquallLexer,
        postlex=_KeepTermTokens(),
        transformer=_ToIR(),
        propagate_positions=False,
        maybe_placeholders=False,
    )


# Human words for the grammar's terminals, used in "expected one of ..." messages.
_TERMINAL_WORDS = {
    "ENT": "an entity or class (<Label> or [Label])",
    "PROP": "a property (<P123:label> or <label>)",
    "VERB_PROP": "a property verb (is-<P123:label>)",
    "INT": "a number",
    "DECIMAL": "a number",
    "DATE": "a date (YYYY-MM-DD or YYYY-MM-DDThh:mm:ssZ)",
    "STRING": 'a quoted string',
    "LANG_STRING": 'a quoted string with a language tag',
    "VAR_NAME": "a variable",
    "ORDINAL": "an ordinal (2nd)",
    "SUPERLATIVE": "a superlative (highest, earliest, ...)",
    "DATE_PART": '"month" or "day"',
    "AGGREGATE": "an aggregate (sum, total, average, minimum, maximum)",
    "CMP_GT": "a comparison (greater than ...)",
    "CMP_LT": "a comparison (less than ...)",
    "CMP_GE": "a comparison",
    "CMP_LE": "a comparison",
    "AND_VP": '"and" + a verb phrase',
    "AND_THAT": '"and that"',
    "AND_WHOSE": '"and whose"',
    "OR_VP": '"or" + a verb phrase',
    "AT_WHICH": '"at which"',
    "AT_LEAST": '"at least"',
    "AT_MOST": '"at most"',
    "CASE_SENSITIVELY": '"case-sensitively"',
    "COUNT_DET": '"more than N" or "fewer than N"',
    "_END": '"?" or "." (end)',
    "$END": "end of text",
    "PLURAL": '"-s"',
    "_MINUS": '"-"',
    "_COMMA": '","',
    "_LPAR": '"("',
    "_RPAR": '")"',
    "WORD": "a word",
}

_SPARKLIS_HINT = re.compile(
    r"\bhas as an?\b|\band give me\b|\band where\b|highest-to-lowest|lowest-to-highest|^give me every \w",
    re.I,
)

# Known mistakes, recognised by the parser state they fail in (Lark's match_examples).
_NAMED_ERRORS = {
    'inverted possessive: write "How many <P> of <X> are there?"': [
        "How many <P26:spouse> has <X>?",
        "How many <part(s)> has <NSYNC>?",
    ],
    'two noun phrases in a row: join them with "and" or "of"': [
        "Which <film> has <P57:director> <A> <B>?",
        "Which <member> <Twice> has not a <P19:place_of_birth>?",
        "Which <part(s)> of the <band> <Queen> has a <P570:date_of_death>?",
    ],
    "in 'How many <C> <S> did <P>?' the question word is the object: <P> takes no other object": [
        "How many <film> <Clint_Eastwood> did <P166:award_received> <X> at <P1686:for_work>?",
    ],
    "a verb must be a property: write 'does <X> <P123:label>'": [
        "Which <species> does <Chewbacca> belong to?",
    ],
    'a class needs a determiner here: write "a <film>"': [
        "At which <P585:point_in_time> did <film> that is <P179:series> <X>?",
    ],
    "an ordinal needs a superlative: write 'the 3rd earliest <P577:publication_date> of ...'": [
        "What is the <P1476:title> of the 3rd <album> of <Led_Zeppelin>?",
    ],
}


def _expected_words(names) -> tuple[str, ...]:
    words = []
    for name in sorted(names):
        if name == "WORD":  # only there to report bare labels
            continue
        word = _TERMINAL_WORDS.get(name, f'"{name.lower()}"')
        if word not in words:
            words.append(word)
    return tuple(words)


def _to_syntax_error(err: UnexpectedInput, text: str) -> CNLSyntaxError:
    hint = None
    tok = getattr(err, "token", None)
    if _SPARKLIS_HINT.search(text):
        hint = "this looks like Sparklis, not SQUALL: try dialect 'sparklis'"
    elif tok is not None and tok.type == "WORD":
        hint = (f"bare word {tok.value!r}: write properties as <P123:label> or <label>, "
                "entities and classes as <Label> or [Label]")
    elif tok is not None and tok.type == "PROP" and "ENT" in (err.expected or ()):
        hint = f"{tok.value} is a property; an entity, a class or a value is expected here"
    else:
        try:
            hint = err.match_examples(_parse_raw, _NAMED_ERRORS, use_accepts=True)
        except Exception:  # pragma: no cover - a hint is a nicety, never a crash
            hint = None
    if isinstance(err, UnexpectedCharacters):
        char = text[err.pos_in_stream] if err.pos_in_stream < len(text) else ""
        return CNLSyntaxError(
            "unexpected character", text=text, line=err.line, column=err.column, token=char,
            expected=_expected_words(err.allowed or ()), hint=hint,
        )
    if isinstance(err, UnexpectedEOF):
        lines = text.splitlines() or [""]
        return CNLSyntaxError(
            "unexpected end of text", text=text, line=len(lines), column=len(lines[-1]) + 1,
            expected=_expected_words(err.expected), hint=hint,
        )
    assert isinstance(err, UnexpectedToken)
    if tok.type == "$END":
        lines = text.splitlines() or [""]
        line, column, shown = len(lines), len(lines[-1]) + 1, None
        message = "unexpected end of text"
    else:
        line, column, shown = tok.line, tok.column, tok.value
        message = "unexpected token"
    expected = err.accepts or err.expected
    return CNLSyntaxError(
        message, text=text, line=line, column=column, token=shown,
        expected=_expected_words(expected), hint=hint,
    )


def _parse_raw(text: str):
    return lark_parser().parse(text)


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
    tok_n = _notation.set(notation)
    tok_t = _text.set(stripped)
    try:
        return check_depth(_parse_raw(stripped), "SQUALL")
    except UnexpectedInput as err:
        raise _to_syntax_error(err, stripped) from None
    except RecursionError:
        raise too_deep("SQUALL") from None
    except CNLSyntaxError as err:
        if err.hint is None and _SPARKLIS_HINT.search(stripped):
            err.with_hint("this looks like Sparklis, not SQUALL: try dialect 'sparklis'")
        raise
    finally:
        _notation.reset(tok_n)
        _text.reset(tok_t)
