"""The tree -> IR transformation: :class:`ToIR`, one Lark callback per rule alias, run inside the
LALR parser (no parse tree is built), grouped by construct family: sentences and fronted
questions, noun phrases and determiners, superlatives, nouns, relative clauses, verb phrases,
qualifiers, comparisons and literals."""
from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType

from lark import Token, Transformer, v_args

from cnl import ir
from cnl.dialects.notation import unescape
from cnl.dialects.squall.parser.reading import error_at
from cnl.dialects.squall.parser.terms import (
    checked_property, is_temporal, property_noun, read_entity, read_head, read_language, read_ordinal, read_property,
    read_string, read_typed_literal, token_span,
)
from cnl.dialects.squall.parser.sparql_forms import (IN_SI_UNITS, InUnit, SparqlForms, StatementMark, class_of_which,
                                                     settle_count_aggregates)
from cnl.dialects.squall.parser.writer_comparisons import ComparisonForms
from cnl.dialects.squall.parser.writer_forms import (WriterForms, forget_of_coordinations, lifted_from_literal,
                                                      lifted_relational_conjuncts, settle_groups)
from cnl.dialects.squall.parser.ferre_forms import FerreForms, optional_answers


def _values(args):
    """Drop keyword tokens; keep IR nodes and the tuples the det rules return."""
    return [a for a in args if not isinstance(a, Token)]


class _AnyRank(StatementMark):
    """``at any rank`` where qualifiers stand: a mark of the statement (``Stmt.any_rank``,
    ``RelNoun.any_rank``), not a qualifier."""


_ANY_RANK = _AnyRank()


def _quals(vals):
    """(the qualifiers among ``vals``, the statement's marks among them as the keyword arguments
    of ``Stmt`` and ``RelNoun``: ``any_rank`` (``at any rank``), ``normalized`` (``in SI
    units``), ``unit`` (``in unit <Q11573>``))."""
    for v in vals:
        if isinstance(v, StatementMark):
            break
    else:  # no mark (nearly every statement): one pass
        return tuple(v for v in vals if isinstance(v, ir.Qual)), _NO_MARKS
    units = [v.unit for v in vals if isinstance(v, InUnit)]
    marks = {"any_rank": any(v is _ANY_RANK for v in vals), "normalized": any(v is IN_SI_UNITS for v in vals),
             "unit": units[0] if units else None}
    if len(units) > 1 or (units and marks["normalized"]):
        raise error_at(units[-1].span, "a quantity is said in one unit ('in unit <Q>' or 'in SI units', once)")
    return tuple(v for v in vals if isinstance(v, ir.Qual)), marks


# no mark: no keyword argument, so Stmt's and RelNoun's defaults (False, False, None) apply
_NO_MARKS = MappingProxyType({})


def _flatten(kind, items):
    out = []
    for item in items:
        if isinstance(item, kind):
            out.extend(item.items)
        else:
            out.append(item)
    return tuple(out)


@v_args(inline=True)
class ToIR(WriterForms, ComparisonForms, SparqlForms, FerreForms, Transformer):
    """Lark callbacks, one per rule alias; each returns an IR node (or a small tuple). The writer
    forms' callbacks (issue 29) are :class:`WriterForms`' and :class:`ComparisonForms`'."""

    def pass_last(self, *args):
        return args[-1]

    def do_aux(self, tok):
        return tok

    have_kw = be_kw = does_kw = whose_kw = do_aux

    # ---- sentences
    def start(self, *args):
        forget_of_coordinations()
        return settle_groups(settle_count_aggregates(_values(args)[0]))

    def give_me(self, *args):
        return ir.Query(_values(args)[0], None)

    def clause(self, subject, vp):
        return optional_answers(ir.Query(subject, vp))

    def fronted_object(self, quant, subject, gap):
        kind = gap[0]
        if kind == "prop":
            # "How many <Academy_Awards> <John_Wayne> did <award_received>" = awards that are an
            # <award_received> of John Wayne.
            vp = ir.Be(ir.Quant("a", ir.RelNoun(gap[1], subject, quals=gap[3])))
            return ir.Query(quant, ir.Not(vp) if gap[2] else vp)
        if kind == "relnoun":
            # "Which <film> <Brad_Pitt> is the <producer> and <cast_member> of" = films whose
            # <producer> and <cast_member> is Brad Pitt.
            stmts = tuple(ir.Stmt(p, subject) for p in gap[1])
            return ir.Query(quant, stmts[0] if len(stmts) == 1 else ir.And(stmts))
        if kind == "qualifier":
            return self.qualifier_question(quant, subject, gap)
        if kind == "qualifier_noun":
            return self.qualifier_noun_question(quant, subject, gap)
        if kind == "belongs":  # "Which <C> does X belong to?": the classes of X that are <C>-s
            return ir.Query(quant, ir.BelongsTo(subject, inverse=True))
        # "How many <spouse> <Woodrow_Wilson> has": the noun is a relational noun of the subject.
        noun = quant.noun
        if not isinstance(noun, ir.ClassNoun):
            raise error_at(None, "a possessive 'How many <P> <X> has' needs a property noun")
        prop = checked_property(noun.cls.id, noun.cls.label, noun.cls.span)
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
            raise error_at(head.span, "a property path cannot be a qualifier: write one property here")
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
        return ("prop", read_property(tok), False, ())

    def gap_prop_not(self, *args):
        return ("prop", read_property(args[-1]), True, ())

    def gap_rel_noun(self, *args):
        return ("relnoun", tuple(read_property(t) for t in args if isinstance(t, Token) and t.type == "PROP"))

    def gap_possessed(self, *_):
        return ("possessed",)

    # ---- noun phrases
    def np_and(self, *args):
        return ir.Coord("and", _shared_of(_flatten(ir.Coord, _values(args))))

    def np_or(self, *args):
        return ir.Coord("or", _shared_of(tuple(_values(args))))

    def np_list(self, *args):
        op = "or" if any(isinstance(a, Token) and a.type == "OR" for a in args) else "and"
        return ir.Coord(op, tuple(_values(args)))

    def arithmetic(self, left, right):
        return ir.Arith("-", left, right)

    def ent_np(self, tok):
        return ir.Ref(read_entity(tok))

    def var_np(self, tok):
        return ir.Ref(ir.Var(tok.value.lstrip("?")))

    def who_np(self, _tok):
        return ir.Quant("which")

    what_np = who_np

    def bare_words(self, *words):
        label = " ".join(w.value for w in words)
        span = (words[0].start_pos, words[-1].end_pos)
        raise error_at(
            span,
            f"bare label {label!r}: write entities and classes as <{label.replace(' ', '_')}> "
            f"or [{label}] and properties as <P123:label>",
        )

    def quant(self, det, *rest):
        det_word, number = det
        order, rest = _take_order(rest)
        noun, rels = rest[0], tuple(rest[1:])
        # "a <P161> of A and a <P57> of B": two relational noun phrases, not "of A and of B's <P57>"
        return lifted_relational_conjuncts(ir.Quant(det_word, noun, rels, order, number))

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
        quals, marks = _quals(vals)
        of = next(v for v in vals if not isinstance(v, (ir.Qual, StatementMark)))
        return ir.Aggregate(_AGGREGATE_WORDS[word.value.lower()],
                            ir.Quant("a", ir.RelNoun(read_property(prop_tok), of, quals, **marks)))

    def aggregate_of(self, _the, word, _of, np):
        return ir.Aggregate(_AGGREGATE_WORDS[word.value.lower()], np)

    def something(self, *args):
        return ir.Quant("a", None, tuple(_values(args)))

    def something_var(self, _something, var, *rels):
        # "something ?l whose language is "en"": a value described and named for a "such that"
        return ir.Quant("a", None, rels, var=var.value.lstrip("?"))

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

    def sup_joint(self, words):
        return ir.Order(words.value.split()[-1].lower(), ties=True)

    def sup_sorted(self, word):
        return ir.Order(word.value.lower().split("-")[0], limit=False)

    def sup_ordinal(self, ordinal, word):
        return ir.Order(word.value.lower(), rank=read_ordinal(ordinal))

    def sup_top(self, count, word):
        return ir.Order(word.value.lower(), count=int(count))

    def sup_range(self, first, _to, last, word):
        return ir.Order(word.value.lower(), rank=read_ordinal(first), to_rank=read_ordinal(last))

    def noun(self, head, *quals):
        if quals:
            quals, marks = _quals(quals)
            return ir.RelNoun(head.as_property(), None, quals, **marks)
        return ir.ClassNoun(head.as_class())

    def rel_noun(self, head, *rest):
        vals = _values(rest)
        quals, marks = _quals(vals)
        of = next(v for v in vals if not isinstance(v, (ir.Qual, StatementMark)))
        grouped = class_of_which(head, of, vals)  # "<Q571>-s of which <P50>" (Ferré's grouping)
        if grouped is not None:
            return grouped
        return ir.RelNoun(head.as_property(), of, quals, **marks)

    def date_part_of(self, part, _of, np):
        return ir.DatePart(part.value.lower(), np)

    def measure_of(self, kind, _of, np):
        kind = " ".join(kind.value.lower().split())  # "absolute  value": one space
        return ir.Measure(_MEASURE_WORDS.get(kind, kind), np)

    def now(self, _tok):
        return ir.Now()

    def rel_language(self, *args):
        return ir.LangIs(read_language(args[-1]))

    def has_language(self, *args):
        return ir.LangIs(read_language(args[-1]))

    def its(self, its, prop_tok, *quals):
        quals, marks = _quals(quals)
        if any(marks.values()):
            raise error_at(token_span(its), "'at any rank', 'in SI units' and 'in unit <Q>' are said of a statement "
                                        "('has <P> X at any rank'), not of 'its <P>'")
        return ir.Its(read_property(prop_tok), quals)

    def difference(self, *args):
        left, right = _values(args)
        return ir.Arith("-", left, right)

    def year_of(self, _year, _of, np):
        return ir.YearOf(np)

    def year_of_bare(self, *args):
        vals = _values(args)
        prop_tok = next(a for a in args if isinstance(a, Token) and a.type == "PROP")
        quals, marks = _quals(vals)
        of = vals[-1]
        return ir.YearOf(ir.Quant("the", ir.RelNoun(read_property(prop_tok), of, quals, **marks)))

    def noun_head(self, tok, *_plural):
        return read_head(tok)

    # ---- relative clauses
    def rel_vp(self, _tok, vp):
        return vp

    def rel_gap(self, _that, subject, gap):
        if gap[0] == "belongs":  # "a <C> that X belongs to"
            return ir.BelongsTo(subject, inverse=True)
        vp = ir.Be(ir.Quant("a", ir.RelNoun(gap[1], subject, quals=gap[3])))
        return ir.Not(vp) if gap[2] else vp

    def rel_whose(self, *args):
        prop_tok = next(a for a in args if isinstance(a, Token) and a.type in ("PROP", "ENT"))
        return ir.Stmt(read_property(prop_tok), ir.Quant("a", None, (args[-1],)))

    def rel_whose_year(self, *args):
        return ir.YearIs(args[-1])

    def rel_with(self, _with, prop, np):
        return ir.Stmt(read_property(prop), np)

    def rel_among(self, _among, np):
        items = np.items if isinstance(np, ir.Coord) else (np,)
        return ir.Be(ir.Coord("or", items) if len(items) > 1 else items[0])

    def rel_except(self, _except, np):
        return ir.Not(ir.Be(np))

    def rel_matches(self, _kw, string):
        return ir.StrTest("matches", read_string(string))

    def rel_contains(self, _kw, string):
        return ir.StrTest("contains", read_string(string))

    def rel_starts_with(self, _kw, _with, string):
        return ir.StrTest("starts", read_string(string))

    def cased_matches(self, _cs, _kw, string):
        return ir.StrTest("matches", read_string(string), case_sensitive=True)

    def cased_contains(self, _cs, _kw, string):
        return ir.StrTest("contains", read_string(string), case_sensitive=True)

    def cased_starts_with(self, _cs, _kw, _with, string):
        return ir.StrTest("starts", read_string(string), case_sensitive=True)

    def cased_str_test(self, test):
        return test

    def rel_qualifier(self, _at_which, prop, subject, vp):
        return ir.QualifierOf(read_property(prop, path=False), subject, vp)

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
        quals, marks = _quals(vals)
        obj = next(v for v in vals if not isinstance(v, (ir.Qual, tuple, StatementMark)))
        stmt = ir.Stmt(read_property(prop_tok), obj, quals, **marks)
        det = next((v[0] for v in vals if isinstance(v, tuple) and v and isinstance(v[0], str)), None)
        # "has a <P> X" / "has the <P> X" name the value; the other determiners say something
        # of it that dropping them would lose ("has no <P26> X" is not "has <P26> X")
        if det is None or det in ("a", "the"):
            return stmt
        if det == "no":
            return ir.Not(stmt)
        if det == "maybe" and isinstance(obj, ir.Ref) and isinstance(obj.term, ir.Var):
            return ir.Stmt(stmt.prop, ir.Quant("maybe", var=obj.term.name), quals, **marks)
        raise error_at(token_span(prop_tok), f"'{det.replace('_', ' ')}' before a property and its value says "
                                             f"nothing of that value: write 'has <P> X', 'has no <P> X' or "
                                             f"'has maybe a <P> ?x'")

    def has_value(self, det, prop_tok, *rest):
        vals = _values(rest)
        quals, marks = _quals(vals)
        rels, lifted = lifted_from_literal(tuple(v for v in vals if not isinstance(v, (ir.Qual, StatementMark))))
        stmt = ir.Stmt(read_property(prop_tok), ir.Quant(det[0], None, rels, None, det[1]), quals, **marks)
        return ir.And((stmt, *lifted)) if lifted else stmt

    has_value_compare = has_value

    def has_statement(self, det, prop_tok, _statement, *quals):
        # "has a <P69> statement at <P812> X": a statement whose value is not said
        if det != ("a", None):
            raise error_at(token_span(_statement), "a statement without its value is 'a <P> statement'")
        quals, marks = _quals(quals)
        return ir.Stmt(read_property(prop_tok), ir.AnyValue(), quals, **marks)

    def has_superlative(self, det, order, prop_tok, *quals):
        quals, marks = _quals(quals)
        return ir.Stmt(read_property(prop_tok), ir.Quant(det[0], None, (), order, det[1]), quals, **marks)

    def has_which(self, _which, prop_tok, *quals):
        quals, marks = _quals(quals)
        return ir.Stmt(read_property(prop_tok), ir.Quant("which"), quals, **marks)

    def has_superlative_object(self, det, order, prop_tok, obj, *quals):
        quals, marks = _quals(quals)
        return ir.Stmt(read_property(prop_tok), obj, quals, order=order, **marks)

    def be_np(self, np):
        return ir.Be(np)

    def be_not_np(self, _not, np):
        return ir.Not(ir.Be(np))

    def be_comparison(self, comparison):
        return comparison

    def be_not_comparison(self, _not, comparison):
        return ir.Not(comparison)

    def matches(self, _kw, string):
        return ir.StrTest("matches", read_string(string))

    def contains(self, _kw, string):
        return ir.StrTest("contains", read_string(string))

    def not_contains(self, *args):
        return ir.Not(ir.StrTest("contains", read_string(args[-1])))

    def starts_with(self, _kw, _with, string):
        return ir.StrTest("starts", read_string(string))

    def exists(self, *_):
        return ir.Exists()

    def has_year(self, *args):
        return ir.YearIs(ir.Be(args[-1]))

    # ---- qualifiers and comparisons
    def qual_any_rank(self, _tok):
        return _ANY_RANK

    def qual_value(self, _at, prop_tok, np):
        return ir.Qual(read_property(prop_tok, path=False), np)

    def qual_described(self, _at, det, prop_tok, *rels):
        return ir.Qual(read_property(prop_tok, path=False), ir.Quant(det[0], None, rels, None, det[1]))

    qual_compare = qual_described

    def qual_superlative(self, _at, *rest):
        det = rest[0] if isinstance(rest[0], tuple) else ("the", None)
        order, prop_tok = rest[-2], rest[-1]
        return ir.Qual(read_property(prop_tok, path=False), ir.Quant(det[0], None, (), order, det[1]))

    def cmp_gt(self, word, _than, np):
        return ir.Compare(">", (np,), is_temporal(word))

    def cmp_lt(self, word, _than, np):
        return ir.Compare("<", (np,), is_temporal(word))

    def cmp_ge(self, word, np):
        return ir.Compare(">=", (np,), is_temporal(word))

    def cmp_le(self, word, np):
        return ir.Compare("<=", (np,), is_temporal(word))

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
        return ir.Ref(ir.Literal(read_string(tok), "string"))

    def lit_typed(self, tok):
        return ir.Ref(read_typed_literal(tok))

    def lit_lang_string(self, tok):
        text, _, lang = tok.value.rpartition("@")
        return ir.Ref(ir.Literal(unescape(text[1:-1]), "string", lang.lower()))


# Ferré's words for a value's string (SPARQL's STR), "text" in this project
_MEASURE_WORDS = {"str": "text", "string": "text"}
_AGGREGATE_WORDS = {"sum": "sum", "total": "sum", "average": "avg", "minimum": "min", "maximum": "max"}


def _take_order(rest):
    if rest and isinstance(rest[0], ir.Order):
        return rest[0], rest[1:]
    return None, rest


def _shared_of(items: tuple) -> tuple:
    """"the <author> or the <publisher> of X": the last item's ``of`` is every item's, where
    the items before it are properties written as nouns without an ``of`` of their own (English
    shares the complement; without it "the <author>" would be the author of anything)."""
    last = items[-1] if items else None
    if not ir.is_relational_phrase(last):
        return items
    shared = []
    for item in items[:-1]:
        prop = property_noun(item)
        if prop is None:
            return items
        shared.append(replace(item, noun=ir.RelNoun(prop, last.noun.of)))
    return (*shared, last)
