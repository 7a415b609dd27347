"""The parser's callbacks for the SPARQL 1.1 forms of issue 29 (squall.lark, section "SPARQL 1.1
forms"): choices (``Give me A if S VP, else B``), arithmetic beside "-", language ranges,
normalised quantities and the other constructs of hand-written SPARQL; each builds the IR the
printer writes back in the same words."""
from __future__ import annotations

import contextvars
from dataclasses import replace

from lark import Token, Transformer, v_args

from cnl import ir
from cnl.ir.traverse import map_children
from cnl.dialects.squall.parser.reading import current_notation, current_text, error_at
from cnl.dialects.squall.parser.terms import property_noun, read_entity, read_language_range, read_string, token_span


class StatementMark:
    """A mark of the statement written where its qualifiers are (``at any rank``, ``in SI
    units``): no qualifier, a flag of the ``Stmt`` or ``RelNoun``."""


# "in SI units": the statement's normalised quantity (Stmt.normalized, RelNoun.normalized)
IN_SI_UNITS = StatementMark()


class InUnit(StatementMark):
    """``in unit <Q11573>``: the statement's quantity as written in that unit (Stmt.unit,
    RelNoun.unit); ``in unit ?u``: in its unit, whichever, named ``?u``."""

    def __init__(self, unit: ir.Entity | ir.Var):
        self.unit = unit


def _values(args):
    return [a for a in args if not isinstance(a, Token)]


@v_args(inline=True)
class SparqlForms(Transformer):
    """ToIR's callbacks for the SPARQL 1.1 forms (a mixin, as WriterForms is for writer forms)."""

    def distance_between(self, *args):
        left, right = _values(args)
        return ir.Distance(left, right)

    def give_me_choice(self, *args):
        then, subject, test, otherwise = _values(args)
        return ir.Query(ir.Choice(subject, test, then, otherwise), None)

    def choice_np(self, *args):
        then, subject, test, otherwise = _values(args)
        return ir.Choice(subject, test, then, otherwise)

    def not_matches(self, *args):
        return ir.Not(ir.StrTest("matches", read_string(args[-1])))

    def arithmetic_op(self, left, op, right):
        return ir.Arith(op.value, left, right)

    def rel_language_range(self, *args):
        return ir.LangIs(read_language_range(args[-1]), range=True)

    has_language_range = rel_language_range

    def is_term_kind(self, _be, _a, kind):
        return ir.TermKind(kind.value.lower())

    def is_not_term_kind(self, _be, _not, _a, kind):
        return ir.Not(ir.TermKind(kind.value.lower()))

    def qual_mark(self, mark):
        return mark

    def qual_in_si_units(self, _tok):
        return IN_SI_UNITS

    def qual_in_unit(self, _tok, unit):
        return InUnit(read_entity(unit))

    def qual_in_unit_var(self, _tok, var):
        return InUnit(ir.Var(var.value.lstrip("?")))

    def rel_such_that(self, _such_that, subject, vp):
        return ir.SuchThat(subject, vp)

    def rel_such_that_or(self, *args):
        # "such that A or such that B": one test, either sentence holding (FILTER(a || b))
        vals = _values(args)
        return ir.Or(tuple(ir.SuchThat(vals[i], vals[i + 1]) for i in range(0, len(vals), 2)))

    def det_aggregate_number_of(self, _the, word, _number, _of):
        # "the average number of": "the number of", its Quant wrapped in the aggregate once the
        # sentence is read (settle_count_aggregates)
        det = _AggregatedCount("number_of")
        det.op = _AGGREGATE_OPS[word.value.lower()]
        _AGGREGATED.set(True)
        return (det, None)

    def number_per_best(self, det, order, *rest):
        return self.number_per(_best_count(det, order, rest[-2]), *rest)

    def number_per_var_best(self, det, order, *rest):
        return self.number_per_var(_best_count(det, order, rest[-2]), *rest)

    def sample_of_prop(self, _a, _sample, prop_tok, *rest):
        # "a sample <P> of X" reads as "the maximum <P> of X" does (its qualifiers and marks too)
        aggregate = self.aggregate_of_prop(None, Token("AGGREGATE", "maximum"), prop_tok, *rest)
        return replace(aggregate, op="sample")

    def sample_of(self, _a, _sample, _of, np):
        return ir.Aggregate("sample", np)

    def concatenation_of(self, _the, _concatenation, _of, np, _separated_by=None, separator=None):
        return ir.Aggregate("group_concat", np, read_string(separator) if separator is not None else None)

    def which_thing(self, _which, _thing, *rels):
        return ir.Quant("which", None, rels)

    def which_thing_var(self, _which, _thing, var, *rels):
        return ir.Quant("which", None, rels, var=var.value.lstrip("?"))


def _best_count(det, order, per):
    """The determiner "the maximum number of" that "the highest number of ... per" says (the
    minimum for "the lowest number of", "the fewest")."""
    if det[0] != "the" or order.word not in ("most", "least", "fewest") or order != ir.Order(order.word):
        raise error_at(token_span(per), "a superlative before 'per' is the best count per group: 'the highest "
                                        "number of <C>-s per <P>' (or 'the maximum number of ...')")
    best = _AggregatedCount("number_of")
    best.op = "max" if order.word == "most" else "min"
    _AGGREGATED.set(True)
    return (best, None)


_AGGREGATE_OPS = {"sum": "sum", "total": "sum", "average": "avg", "minimum": "min", "maximum": "max"}


class _AggregatedCount(str):
    """The determiner "number_of" said with an aggregate word ("the average number of"): the
    aggregate's ``op``; never left in a parsed query (settle_count_aggregates)."""

    op: str


# whether this parse read "the <aggregate> number of": the query is walked only then
_AGGREGATED: contextvars.ContextVar[bool] = contextvars.ContextVar("squall_count_aggregate", default=False)


def settle_count_aggregates(query):
    """``query`` with each "the average number of NP" read as "the average of (the number of
    NP)": the aggregate of one count per group (ir.Aggregate over a ``number_of`` Quant); and
    each "<C>-s of which <P>" as "<C> that has which <P>" (class_of_which)."""
    if not _AGGREGATED.get():
        return query
    _AGGREGATED.set(False)

    def settle(node):
        node = map_children(node, settle)
        if isinstance(node, ir.Quant) and isinstance(node.noun, _ClassOfWhich):
            node = replace(node, noun=ir.ClassNoun(node.noun.cls), rels=(node.noun.clause, *node.rels))
        if isinstance(node, ir.Quant) and isinstance(node.det, _AggregatedCount):
            return ir.Aggregate(node.det.op, replace(node, det="number_of"))
        return node
    return settle(query)


class _ClassOfWhich(ir.ClassNoun):
    """``<Q571>-s of which <P50>``: the class noun and the clause ``that has which <P50>`` its
    noun phrase takes (settle_count_aggregates moves it there)."""

    __slots__ = ("clause",)


def class_of_which(head, of, vals):
    """Ferré's "the number of <Q571>-s of which <P50>" (books per author): a class (an item ID, a
    [label] in the label notation, an ECAI name) before "of which <P>", <P> written as a property,
    is the class with the clause "that has which <P>"; None for a relational noun ("the <P50> of
    which <Q571>")."""
    if not (isinstance(of, ir.Quant) and of.det == "which" and not of.rels and of.order is None and of.var is None
            and isinstance(of.noun, ir.ClassNoun) and len(vals) == 1 and head.path is None):
        return None
    prop = property_noun(replace(of, det="a"))
    notation = current_notation.get()
    written = current_text.get()[head.span[0]:head.span[0] + 1] if head.span else ""
    is_class = ((head.id or "").startswith("Q") if notation == "id" else written == "[" if notation == "label"
                else head.id is None)
    if prop is None or not is_class or (notation == "ecai" and of.noun.cls.id is None):
        return None
    noun = _ClassOfWhich(ir.Class(head.id, head.label, head.span))
    object.__setattr__(noun, "clause", ir.Stmt(prop, ir.Quant("which")))
    _AGGREGATED.set(True)
    return noun
