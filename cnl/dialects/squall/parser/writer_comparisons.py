"""The writer forms that compare or count (issue 29): comparison words and symbols ("before",
"above", "at least", ">="), counts compared ("has more <P40> than <Q76>", "has between 2 and 4
<P40>", "has a number of <P37> greater than 2"), values computed after "has" ("has the <P2048> *
the <P2049> equal to 100"), and the words of superlatives and ordinals ("the largest number of",
"the greater <P>", "the most recent", "the 2nd to last"). Each is read into the IR a canonical
form gives, as in :mod:`~cnl.dialects.squall.parser.writer_forms` (the rules are in
``squall_writer_forms.lark``); split from it by what the forms say."""
from __future__ import annotations

from dataclasses import replace

from lark import Token, Transformer, v_args

from cnl import ir
from cnl.dialects.squall.parser.reading import error_at
from cnl.dialects.squall.parser.terms import is_temporal, property_noun, read_ordinal, read_property, token_span

_OWN_VALUES = ("a value computed after 'has' is made of the subject's own values and numbers: "
               "'has the <P1> * the <P2> equal to 100', '2 * (the <P1> + the <P2>)'")


# Form 5's comparison symbols, as SPARQL's operators
_SYMBOL_OPERATORS = {">": ">", "<": "<", ">=": ">=", "<=": "<=", "=": "=", "!=": "!=",
                     "≥": ">=", "≤": "<=", "≠": "!="}


def _count_order(words) -> str:
    """The count superlative that "the largest number of" / "the smallest number of" means."""
    return "least" if words.value.split()[0].lower() in ("smallest", "lowest", "fewest", "least") else "most"


# "the greater <P>" ranks as "the greatest <P>" (COMPARATIVE_AS_SUPERLATIVE)
_COMPARATIVE_TO_SUPERLATIVE = {
    "greater": "greatest", "larger": "largest", "bigger": "biggest", "higher": "highest", "longer": "longest",
    "smaller": "smallest", "lower": "lowest", "shorter": "shortest", "earlier": "earliest", "later": "latest",
    "fewer": "fewest", "lesser": "lowest"}


def _things_of_a_class(np) -> bool:
    """``the <television show> that ...``: a noun phrase whose referents are things of a class (which
    have values), not values (``the <P2044>``, a property written as a noun, is a value)."""
    return (isinstance(np, ir.Quant) and isinstance(np.noun, ir.ClassNoun)
            and property_noun(replace(np, rels=(), order=None, var=None)) is None)


# The count determiner a comparison of a number of values says ("greater than 2" = "more than 2")
_COUNT_DETS = {">": "more_than", "<": "fewer_than", ">=": "at_least", "<=": "at_most", "=": "exactly"}


def _count_det(comparison: ir.Compare) -> tuple[str, int]:
    value = comparison.args[0] if len(comparison.args) == 1 else None
    term = value.term if isinstance(value, ir.Ref) else None
    if comparison.op not in _COUNT_DETS or not isinstance(term, ir.Literal) or not term.value.isdigit():
        raise error_at(None, "a number of values is compared with a whole number: 'a number of <P> greater "
                             "than 2' (or 'more than 2 <P>', 'at least 2 <P>', 'exactly 2 <P>')")
    return _COUNT_DETS[comparison.op], int(term.value)


@v_args(inline=True)
class ComparisonForms(Transformer):
    """ToIR's callbacks for the writer forms that compare or count (a mixin, as
    :class:`~cnl.dialects.squall.parser.writer_forms.WriterForms` is for the others)."""

    # Form 5: "before"/"after" = "earlier/later than"; "above", "at least", ">=" the same
    def cmp_before(self, _word, np):
        return ir.Compare("<", (np,), True)

    def cmp_after(self, _word, np):
        return ir.Compare(">", (np,), True)

    def cmp_in_year(self, _in, year):
        return ir.YearIs(ir.Be(ir.Ref(ir.Literal(year.value, "integer"))))

    def cmp_above(self, _word, np):
        return ir.Compare(">", (np,))

    def cmp_below(self, _word, np):
        return ir.Compare("<", (np,))

    def cmp_at_least(self, _word, np):
        return ir.Compare(">=", (np,))

    def cmp_at_most(self, _word, np):
        return ir.Compare("<=", (np,))

    def cmp_symbol(self, symbol, np):
        return ir.Compare(_SYMBOL_OPERATORS[str(symbol)], (np,))

    vp_symbol_comparison = cmp_symbol

    def sup_number(self, words):
        return ir.Order(_count_order(words))

    def sup_ordinal_number(self, ordinal, words):
        return ir.Order(_count_order(words), rank=read_ordinal(ordinal))

    def has_more_than(self, word, prop_tok, _than, other):
        more = word.value.lower()
        if more not in ("more", "fewer", "less"):
            raise error_at(token_span(word), f"'has {more} <P> than X' compares nothing: counts are compared "
                                             "with 'more', 'fewer' or 'less' ('has more <P166> than <Q76>')")
        prop = read_property(prop_tok)
        if (isinstance(other, ir.Ref) and isinstance(other.term, ir.Literal) and other.term.datatype == "integer"):
            det = "more_than" if more == "more" else "fewer_than"
            return ir.Stmt(prop, ir.Quant(det, None, (), None, int(other.term.value)))
        return ir.CountComparison(">" if more == "more" else "<", prop, other)

    def has_between_count(self, between, low, _and, high, prop_tok, *rels):
        low, high = int(low.value), int(high.value)
        if low > high:
            raise error_at(token_span(between), f"'between {low} and {high}': the first number is the smaller")
        prop = read_property(prop_tok)
        rels = tuple(r for r in rels if not (isinstance(r, Token) and r.type == "PLURAL"))
        at_most = ir.Not(ir.Stmt(prop, ir.Quant("at_least", None, rels, None, high + 1)))
        if low == 0:
            return at_most
        return ir.And((ir.Stmt(prop, ir.Quant("at_least", None, rels, None, low)), at_most))

    def has_comparative(self, det, word, prop_tok, _than, other):
        prop = read_property(prop_tok)
        if isinstance(other, ir.Ref) and isinstance(other.term, (ir.Entity, ir.Var)) or _things_of_a_class(other):
            # "than [K2]": than the <P> of [K2]; "than the <C> that ...": than the <P> of that thing
            other = ir.Quant("the", ir.RelNoun(prop, other))
        op = "<" if word.type == "CMP_LT" else ">"
        return self.has_value(det, prop_tok, ir.Compare(op, (other,), is_temporal(word)))

    def has_as_many(self, _as, _many, prop_tok, _as2, other):
        return ir.CountComparison("=", read_property(prop_tok), other)

    def sup_comparative(self, word):
        return ir.Order(_COMPARATIVE_TO_SUPERLATIVE[word.value.lower()])

    # A computed value compared after "has": "has the <P2048> * the <P2049> equal to 100" =
    # "such that (its <P2048> * its <P2049>) is equal to 100" (the subject's own values).
    def own_value(self, det, prop_tok):
        if det[0] not in ("a", "the"):
            raise error_at(token_span(prop_tok), _OWN_VALUES)
        return ir.Its(read_property(prop_tok))

    def has_computed_own(self, first, op, right, comparison):
        # "the <P>" read as "has the <P>" (has_tail): a plain one is the subject's own value
        obj = first.obj if isinstance(first, ir.Stmt) else None
        if not (isinstance(obj, ir.Quant) and obj.det in ("a", "the") and obj.noun is None and not obj.rels
                and obj.order is None and obj.var is None and not first.quals and not first.inverse
                and first.order is None and not first.any_rank and not first.normalized and first.unit is None):
            raise error_at(token_span(op), _OWN_VALUES)
        return ir.SuchThat(ir.Arith(op.value, ir.Its(first.prop), right), comparison)

    def has_computed(self, left, op, right, comparison):
        return ir.SuchThat(ir.Arith(op.value, left, right), comparison)

    def has_computed_minus(self, left, right, comparison):
        return ir.SuchThat(ir.Arith("-", left, right), comparison)

    def has_computed_paren(self, value, comparison):
        return ir.SuchThat(value, comparison)

    # "has a year between 1980 and 1990" (the year of a date, Ferré's) = "whose year is between ..."
    def has_year_compare(self, *args):
        det = next((a for a in args if isinstance(a, tuple)), ("a", None))
        if det[0] not in ("a", "the"):
            raise error_at(None, "a date has one year: 'has a year between 1980 and 1990'")
        value = args[-1]
        if isinstance(value, ir.YearIs):  # "has a year in 1961": the year is 1961
            return value
        return ir.YearIs(value if isinstance(value, ir.Compare) else ir.Be(value))

    # "has the highest <P2044> lesser than X" = "has <P2044> the highest thing that is less than X"
    def has_superlative_compare(self, *args):
        det = args[0] if isinstance(args[0], tuple) else ("the", None)
        order, prop_tok, comparison, *quals = args[1:] if isinstance(args[0], tuple) else args
        stmt = self.has_superlative(det, order, prop_tok, *quals)
        return replace(stmt, obj=replace(stmt.obj, rels=(comparison,)))

    # "has a number of <P37> greater than 2" = "has more than 2 <P37>" (a count compared)
    def has_number_compare(self, _a, _number, _of, prop_tok, comparison):
        return self.has_value(_count_det(comparison), prop_tok)

    # "whose number of <P40> is greater than 3" = "that has more than 3 <P40>"
    def rel_whose_number(self, _whose, _number, _of, prop_tok, _be, comparison):
        return self.has_value(_count_det(comparison), prop_tok)

    # "has a later <P570> than <P569>" = "has a <P570> later than its <P569>"
    def has_comparative_own(self, det, word, prop_tok, _than, own_tok):
        op = "<" if word.type == "CMP_LT" else ">"
        return self.has_value(det, prop_tok, ir.Compare(op, (ir.Its(read_property(own_tok)),), is_temporal(word)))

    # "other than X" = "different from X"
    def cmp_other_than(self, _other_than, other):
        return ir.Compare("!=", (other,))

    # "Are there more <film>-s than <book>-s?" = "Is the number of <film> greater than the number of <book>?"
    def more_things(self, _are, _there, word, *rest):
        more = word.value.lower()
        if more not in ("more", "fewer", "less"):
            raise error_at(token_span(word), f"'are there {more} X than Y' compares nothing: counts are compared "
                                             "with 'more', 'fewer' or 'less' ('Are there more <C>-s than <C>-s?')")
        than = next(i for i, a in enumerate(rest) if isinstance(a, Token) and a.type == "THAN")
        mine, theirs = (ir.Quant("number_of", part[0], tuple(part[1:])) for part in (rest[:than], rest[than + 1:]))
        return ir.Query(mine, ir.Compare(">" if more == "more" else "<", (theirs,)))

    # "has more <P40> than <P3373>" = "has more <P40> than its <P3373>"
    def has_more_than_own(self, word, prop_tok, than, own_tok, *_plural):
        return self.has_more_than(word, prop_tok, than, ir.Its(read_property(own_tok)))

    # "has more <P40> than <Q76> does" = "has more <P40> than <Q76>"
    def has_more_than_does(self, word, prop_tok, than, other, _does):
        return self.has_more_than(word, prop_tok, than, other)

    def sup_to_last(self, ordinal, to_last, *_superlative):
        raise error_at((ordinal.start_pos, to_last.end_pos),
                       f"'{ordinal.value} to last' is not read (the {ordinal.value} from the end, or from the "
                       f"{ordinal.value} on?): write 'the {ordinal.value} lowest <P>' (the {ordinal.value} from the "
                       f"end of 'highest') or a range ('the {ordinal.value} to 10th highest <P>')")

    def sup_first(self, count, ordinal):
        raise error_at((count.start_pos, ordinal.end_pos),
                       f"'the {count.value} {ordinal.value}' ranks by no value: say which value ranks them "
                       f"('the <C>-s that have the {count.value} earliest <P577>')")

    # "maybe has which <P968>" = "has maybe a <P968> that is what" (an optional answer column)
    # "the most recent <P>" = "the latest <P>", "the least recent" = "the earliest"
    def sup_recency(self, words):
        return ir.Order("latest" if words.value.lower().startswith("most") else "earliest")

    def sup_ordinal_recency(self, ordinal, words):
        return replace(self.sup_recency(words), rank=self.sup_ordinal(ordinal, words).rank)
