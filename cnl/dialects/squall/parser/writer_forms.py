"""The callbacks of the writer forms (issue 29): what other SQUALL writers write, read into the IR
that the canonical forms already give, so that printing gives the canonical form back. The rules
are the grammar file ``squall_writer_forms.lark`` (beside ``squall.lark``);
``docs/cnl-reference.md`` section 11 shows each form with its canonical form.

Separate from :mod:`~cnl.dialects.squall.parser.transform` because these are variants of forms
it already reads: each callback states the variant in terms of the canonical one (mostly by
calling its callback), and nothing else depends on them. The forms that compare or count are in
:mod:`~cnl.dialects.squall.parser.writer_comparisons`."""
from __future__ import annotations

import contextvars

import re
from dataclasses import replace

from lark import Token, Transformer, v_args

from cnl import ir
from cnl.ir.traverse import map_children, walk
from cnl.dialects.squall.parser.reading import error_at
from cnl.dialects.squall.parser.terms import (checked_property, property_noun, read_entity, read_head, read_property,
                                              read_string, token_span)

_PROPERTY_TOKENS = ("PROP", "VERB_PROP", "ENT")


def _nodes(args):
    return [a for a in args if not isinstance(a, Token)]


def _and(vps) -> ir.And | object:
    """One verb phrase for several (a conjunction, flattened), or the one."""
    items = []
    for vp in vps:
        items.extend(vp.items if isinstance(vp, ir.And) else (vp,))
    return items[0] if len(items) == 1 else ir.And(tuple(items))


def _is_head(value) -> bool:
    """A noun head (what ``noun_head`` gives: a term read as a class or a property)."""
    return hasattr(value, "as_class")


def _question_quant(np, what: str) -> ir.Quant:
    """``np`` as the question word's noun phrase (``which``/``how many``) a form needs."""
    if isinstance(np, ir.Quant) and np.det in ("which", "how_many") and np.var is None:
        return np
    raise error_at(None, f"{what} needs a question word: 'Which <C> ...' or 'How many <C> ...'")


def _without_of(args) -> list:
    """The children of a rule but its ``OF`` token (kept by Lark as a named terminal)."""
    return [a for a in args if not (isinstance(a, Token) and a.type == "OF")]


@v_args(inline=True)
class WriterForms(Transformer):
    """Mixed into :class:`~cnl.dialects.squall.parser.transform.ToIR`; the canonical callbacks
    (``fronted_object``, ``has_value``, ``has_prop``, ...) are its own."""

    # Forms 1 and 9: more of the question's verb phrase after it, joined by "and".
    def clause_more(self, subject, vp, *more):
        return ir.Query(subject, _and((vp, *more)))

    # "has the most <P> that ...": the clauses describe the values counted or ordered
    def has_superlative_values(self, det, order, prop_tok, *rest):
        stmt = self.has_value(det, prop_tok, *rest)
        return replace(stmt, obj=replace(stmt.obj, order=order))

    # Form 2: a question that is only a question word's noun phrase: its clauses are the verb
    # phrase ("Which <film> that has X?" = "Which <film> has X?"); without any, "are there".
    def np_question(self, np):
        quant = _question_quant(np, "a question without a verb")
        if quant.noun is None:
            raise error_at(None, "a question without a verb needs a noun: 'Which <C> that ...?'")
        if not quant.rels:
            return ir.Query(quant, ir.Exists())
        bare = ir.Quant(quant.det, quant.noun, (), quant.order, quant.number, quant.var)
        return ir.Query(bare, _and(quant.rels))

    # Form 3: "How many <P> has X?" = "How many <P> of X are there?"
    def possessed_question(self, np, _has, name):
        quant = _question_quant(np, "'<C> has <X>'")
        noun = quant.noun
        if isinstance(noun, ir.ClassNoun) and (noun.cls.id or "").startswith("Q"):
            raise error_at(token_span(name), f"'has {name.value}' needs a property before the name "
                                             f"('has <P57> {name.value}'); only a property noun has a possessor "
                                             f"('How many <P40> has {name.value}?')")
        return self.fronted_object(quant, ir.Ref(read_entity(name)), ("possessed",))

    # "Which <award> did <X> <P166>?" = "Which <award> <X> did <P166>?", and the other fronted
    # objects (a possessed noun, a qualifier's value) in English word order.
    def gap_prop_quals(self, *args):
        prop_tok = next(a for a in args if isinstance(a, Token) and a.type == "PROP")
        return ("prop", read_property(prop_tok), False, tuple(a for a in args if isinstance(a, ir.Qual)))

    def fronted_object_do(self, np, _aux, subject, gap):
        quant = _question_quant(np, "'... did <X> <P>'")
        return self.fronted_object(quant, subject, gap)

    # Form 4: a plural mark on a property term says nothing more.
    def plural_prop(self, tok, _plural):
        return tok

    # Form 5: a superlative without "the" is one with it ("before"/"after": writer_comparisons).
    def who_among(self, _who, among, np, *rels):
        return ir.Quant("which", None, (self.rel_among(among, np), *rels))

    def thing_bare_superlative(self, *rest):
        return self.thing(("the", None), *rest)

    def quant_bare_superlative(self, *rest):
        return self.quant(("the", None), *rest)

    def has_superlative_bare(self, order, prop_tok, *quals):
        return self.has_superlative(("the", None), order, prop_tok, *quals)

    def has_superlative_object_bare(self, order, prop_tok, obj, *quals):
        return self.has_superlative_object(("the", None), order, prop_tok, obj, *quals)

    # Form 4: "<film>-s that ..." without a determiner = "the <film>-s that ..."
    def bare_plural(self, tok, _plural, *rels):
        return self.quant(("the", None), self.noun(self.noun_head(tok)), *rels)

    # "Which of X and Y ...?" = "Which thing among X and Y ...?"
    def which_of(self, which, _of, np):
        return ir.Quant("which", None, (self.rel_among(None, np),))

    # Form 2: "Which is the <P> of X?" = "What is the <P> of X?"
    def which_is(self, which, _be, vp):
        return self.clause(self.what_np(which), vp)

    # Form 6: "has not <P>" without an object = "has no <P>".
    def has_not_bare(self, *args):
        prop_tok = next(a for a in args if isinstance(a, Token) and a.type in _PROPERTY_TOKENS)
        return self.has_value(("no", None), prop_tok, *_nodes(args))

    def has_bare(self, _have, prop_tok, *quals):
        return self.has_value_bare(prop_tok, *quals)

    def ask_has_bare(self, has, subject, prop_tok, *quals):
        return self.ask_has(has, self.ent_np(subject), self.has_bare(has, prop_tok, *quals))

    # Form 7: "the <C> <X>" = "the <C> that is <X>".
    def apposition(self, det, head, name, *rels):
        if head.path is not None or (head.id or "").startswith("P"):
            raise error_at(head.span, "a name in apposition follows a class ('the <rock band> [Queen]'), "
                                      "not a property")
        is_name = ir.Be(ir.Ref(read_entity(name)))
        return ir.Quant(det[0], ir.ClassNoun(head.as_class()), (is_name, *rels), None, det[1])

    # Dropped words (the grammar's "more of the same forms").
    def has_value_compare_bare(self, prop_tok, *rest):
        return self.has_value(("a", None), prop_tok, *rest)

    def rel_with_superlative(self, _with, *args):
        return self.has_superlative(*args)

    def rel_with_compare(self, _with, det, prop_tok, *rest):
        return self.has_value(det, prop_tok, *_without_of(rest))

    def has_names_in_a_row(self, *args):
        args = [a for a in args if not isinstance(a, tuple)]  # the determiner: "has a <P> X Y"
        names = tuple(ir.Ref(read_entity(a)) for a in args[1:] if isinstance(a, Token) and a.type == "ENT")
        rest = [a for a in args[1:] if not (isinstance(a, Token) and a.type == "ENT")]
        return self.has_prop(args[0], ir.Coord("and", names), *rest)

    def has_bare_property(self, *args):
        # the words as the bracketed label they stand for (WORD holds letters, "'" and "." only)
        words = [a for a in args if isinstance(a, Token) and a.type == "WORD"]
        label = Token.new_borrow_pos("PROP", "<" + " ".join(w.value for w in words) + ">", words[0])
        value, *quals = args[len(words):]
        return self.has_prop(label, ir.Ref(read_entity(value)), *quals)

    def has_how_many(self, _how, _many, prop_tok):
        return ir.Stmt(read_property(prop_tok), ir.Quant("how_many"))

    def has_same(self, _the, _same, prop_tok, _as, other):
        return _value_also_of(read_property(prop_tok), other, "the")

    def has_same_as_own(self, _the, _same, prop_tok, _as, own_tok):
        return ir.Stmt(read_property(prop_tok), ir.Quant("a", None, (ir.Be(ir.Its(read_property(own_tok))),)))

    def shares_with(self, _share, _det, prop_tok, _with, other):
        return _value_also_of(read_property(prop_tok), other, "a")

    # "shares with <Q76> a <P19>" = "shares a <P19> with <Q76>"
    def shares_with_first(self, share, with_, other, det, prop_tok):
        return self.shares_with(share, det, prop_tok, with_, other)

    # "the <P57> of which is <Q25191>" = "whose <P57> is <Q25191>"
    def rel_the_of_which(self, _the, prop_tok, _of, _which, vp):
        return self.rel_whose(prop_tok, vp)

    # "<Q13133> is whose <P26>?" = "<Q13133> is a <P26> of what?"
    def be_whose(self, _whose, prop_tok):
        return ir.Be(ir.Quant("a", ir.RelNoun(read_property(prop_tok), ir.Quant("which"))))

    def has_shared_value(self, *args):
        props = [a for a in args if isinstance(a, Token) and a.type in ("PROP", "ENT")]
        rest = [a for a in args if not isinstance(a, Token)]
        return ir.And(tuple(self.has_prop(p, *rest) for p in props))

    def rel_whose_shared(self, *args):
        props = [a for a in args if isinstance(a, Token) and a.type == "PROP"]
        return ir.And(tuple(self.rel_whose(p, args[-1]) for p in props))

    def number_per(self, det, noun, *rest):
        per, prop_tok = rest[-2], rest[-1]
        if det[0] not in ("number_of", "the"):
            raise error_at(token_span(per), "'per <P>' groups a count or an aggregate: 'the number of <C>-s per <P>', "
                                            "'the average <P> of the <C>-s per <P>'")
        # "the <C>-s per <P>" groups only where an aggregate takes it ("the average <P1082> of the
        # <Q515>-s per <P17>"): a mark that settle_groups turns into the question word or refuses
        if det[0] != "number_of":
            _GROUPING.set(True)
        per_class = _per_class(det, noun, prop_tok)
        if per_class is not None:
            return ir.Quant(det[0], per_class, rest[:-2])
        if det[0] == "the" and (prop_tok.value.startswith("[") or re.match(r"<Q\d", prop_tok.value)):
            raise error_at(token_span(prop_tok), "'per' after 'the <C>-s' takes a property, the value the groups "
                                                 "share: 'the average <P2048> of the <Q5>-s per <P27>'")
        grouped = ir.Stmt(read_property(prop_tok), ir.Quant("which") if det[0] == "number_of" else _GroupedBy("which"))
        return ir.Quant(det[0], noun, (*rest[:-2], grouped))

    def number_per_var(self, det, noun, *rest):
        per, var = rest[-2], rest[-1]
        if det[0] != "number_of":
            raise error_at(token_span(per), "'per X' groups a count: 'the number of <C>-s ... per X'")
        name = var.value.lstrip("?")
        found = []
        rels = tuple(_asked_value(rel, name, found) for rel in rest[:-2])
        if not found:
            raise error_at(token_span(var), f"'per {var.value}' groups by a value the clauses name "
                                            f"{var.value} ('whose <P50> has some <P1416> {var.value} per {var.value}')")
        return ir.Quant(det[0], noun, rels)  # det[0]: "number_of", maybe with an aggregate

    def number_per_value(self, det, head, var, *rest):
        per, value = rest[-2], rest[-1]
        name = var.value.lstrip("?")
        props = []
        while (isinstance(value, ir.Quant) and value.det in ("a", "the") and isinstance(value.noun, ir.RelNoun)
               and not value.rels and value.order is None and value.var is None and not value.noun.quals):
            props.append(value.noun.prop)
            value = value.noun.of
        if det[0] != "number_of" or not props or value != ir.Ref(ir.Var(name)):
            raise error_at(token_span(per), f"'per' groups a count by a value of the counted thing: 'the number of "
                                            f"<C>-s {var.value} per the <P> of {var.value}'")
        grouped = ir.Stmt(props[0], ir.Quant("which"))
        for prop in props[1:]:
            grouped = ir.Stmt(prop, ir.Quant("a", None, (grouped,)))
        rels = rest[:-2]
        if any(node == ir.Var(name) for rel in rels for node in ir.walk(rel)):
            raise error_at(token_span(var), f"'the number of <C>-s {var.value} per ...': {var.value} names the counted "
                                            "thing for 'per' only")
        # X only says what "per" reads from: the count of the things, per value (X itself no column)
        return ir.Quant(det[0], ir.ClassNoun(head.as_class()), (*rels, grouped))

    def whether(self, _whether, subject, vp):
        return ir.Query(subject, vp)

    def passive_by(self, prop_tok, _by, *rest):
        return self.has_prop(prop_tok, *rest)

    def rel_with_value(self, _with, det, prop_tok, *rels):
        return self.has_value(det, prop_tok, *rels)

    def rel_without(self, _without, *args):
        det = args[0] if isinstance(args[0], tuple) else ("a", None)
        prop_tok, rels = (args[1], args[2:]) if isinstance(args[0], tuple) else (args[0], args[1:])
        return ir.Not(self.has_value(det, prop_tok, *rels))

    def maybe_has(self, _maybe, _have, *args):
        args = [a for a in args if not (isinstance(a, Token) and a.type in ("A", "AN"))]
        return self.has_value(("maybe", None), args[0], *args[1:])

    def quant_top_n(self, det, count, noun, *rels):
        found = []
        rels = tuple(_counted_superlative(rel, int(count.value), found) for rel in rels)
        if len(found) != 1:
            raise error_at(token_span(count), f"'the {count} <C>-s ...' needs one superlative after it to count "
                                              f"('the {count} <C>-s with the highest <P>')")
        return ir.Quant(det[0], noun, rels, None, det[1])

    def qual_described_bare(self, at, prop_tok, test):
        # "at <P585> whose year is 2000", "with <P580> after 2000": "at a <P585> ..."
        return self.qual_described(at, ("a", None), prop_tok, test)

    qual_compare_bare = qual_described_bare

    def has_value_of_compare(self, det, prop_tok, *rest):
        return self.has_value(det, prop_tok, *_without_of(rest))

    def be_prop_compare(self, prop_tok, *rest):
        return self.has_value(("a", None), prop_tok, *rest)

    def possessive(self, owner, possessive, prop_tok, *rels):
        return self.possessive_superlative(owner, possessive, None, prop_tok, *rels)

    def possessive_superlative(self, owner, _possessive, order, prop_tok, *rels):
        # "<Q25191>'s latest <P800>" = "the latest <P800> of <Q25191>"
        rels = tuple(r for r in rels if not (isinstance(r, Token) and r.type == "PLURAL"))
        return ir.Quant("the", self.rel_noun(read_head(prop_tok), owner), rels, order=order)

    def np_and_both(self, _both, *args):
        return self.np_and(*args)

    def be_but_not_of(self, np, but_not_of, other):
        # "is a <P161> of X but not of Y": the relational noun said once, denied of Y
        noun = getattr(np, "noun", None)
        if not isinstance(np, ir.Quant) or not isinstance(noun, ir.RelNoun) or noun.of is None:
            raise error_at(token_span(but_not_of), "'but not of Y' follows a relational noun: 'is a <P161> of "
                                                   "<Q25188> but not of <Q190525>'")
        return ir.And((ir.Be(np), ir.Not(ir.Be(replace(np, noun=replace(noun, of=other))))))

    def has_but_not_value(self, _have, statement, and_not, value):
        # the denied value takes the statement's property: "has <P37> X but not Y"
        if not isinstance(statement, ir.Stmt) or isinstance(statement.obj, ir.Quant):
            raise error_at(token_span(and_not), "'but not X' (or 'and not X') follows a statement with its "
                                                "value: 'has <P37> <Q1860> but not <Q150>'")
        return ir.And((statement, ir.Not(ir.Stmt(statement.prop, value, inverse=statement.inverse))))

    def has_neither(self, _neither, first, _nor, second):
        return ir.And((ir.Not(first), ir.Not(second)))

    def count_command(self, _count, np):
        if not isinstance(np, ir.Quant) or np.noun is None or np.det not in ("a", "the", "every", "all"):
            raise error_at(None, "'Count' counts a noun phrase with a noun: 'Count the <C> that ...'")
        return ir.Query(ir.Quant("how_many", np.noun), _and(np.rels) if np.rels else ir.Exists())

    def is_there(self, _be, _there, np):
        if isinstance(np, ir.Quant) and np.det == "the":  # "Are there <film>-s that ...": some such thing
            np = replace(np, det="a")
        return ir.Query(np, ir.Exists())

    def is_there_class(self, be, there, head, *rels):
        return self.is_there(be, there, ir.Quant("a", ir.ClassNoun(read_head(head).as_class()), rels))

    def be_not_prop(self, _not, *args):
        return ir.Not(self.has_prop(*args))

    def ask_names(self, _verb, names, vp):
        return ir.Query(ir.Coord("and", tuple(names)), vp)

    def names(self, *args):
        return [a for a in args if not isinstance(a, Token)]

    def year_question(self, _year_question, _be, np):
        return ir.Query(ir.Quant("which", None), ir.Be(ir.Quant("the", ir.YearOf(np))))

    def give_me_bare_relational(self, *args):
        # the words of the command before the property: "give", "me" or the imperative
        i = next(k for k, a in enumerate(args) if isinstance(a, Token) and a.type == "PROP")
        return self.give_me(self.bare_relational(args[i], *args[i + 1:]))

    def year_question_bare(self, year_question, be, prop_tok, *rest):
        return self.year_question(year_question, be, self.bare_relational(prop_tok, *rest))

    def has_value_bare(self, prop_tok, *rest):
        return self.has_value(("a", None), prop_tok, *rest)

    def how_many_of(self, how, _many, _of, det, noun, *rels):
        # "How many of the <P527> of <Q1> ..." counts the noun phrase's own referents
        if det[0] not in ("the", "every") or det[1] is not None:
            raise error_at(token_span(how), "'How many of' counts a noun phrase with 'the': 'How many of the <C>-s "
                                            "that ...?'")
        return ir.Quant("how_many", noun, rels)

    def be_rel_noun_bare(self, prop_tok, *rest):
        return ir.Be(lifted_relational_conjuncts(self.bare_relational(prop_tok, *rest)))

    def bare_relational(self, prop_tok, *rest):
        values = [a for a in rest if not (isinstance(a, Token) and a.type in ("PLURAL", "OF"))]
        return ir.Quant("the", self.rel_noun(read_head(prop_tok), *values))

    def np_of_and(self, *args):
        coord = self.np_and(*args)
        kept = _OF_COORDINATIONS.get()
        if kept is None:
            kept = {}
            _OF_COORDINATIONS.set(kept)
        kept[id(coord)] = coord  # see lifted_relational_conjuncts
        return coord

    def props_and(self, *_separator):
        # a comma between statements under one "has" joins them as "and" does
        return Token("AND", "and")

    def has_props_elliptic(self, *args):
        statements, part, either = [], [], False
        for arg in (*args, None):
            if arg is None or (isinstance(arg, Token) and arg.type in ("AND", "OR")):
                either = either or (arg is not None and arg.type == "OR")
                compared = any(isinstance(v, ir.Compare) for v in part)  # "and <P577> after 2010"
                statements.append(self.has_value_compare_bare(*part) if compared else self.has_prop(*part))
                part = []
            else:
                part.append(arg)
        return ir.Or(tuple(statements)) if either else _and(statements)

    def which_class(self, _what, *rest):
        return self.which(_what, *(ir.ClassNoun(r.as_class()) if _is_head(r) else r for r in rest))

    # "has which <P495> X": the value asked and named ("has which <P>", "which <C> X")
    def has_which_var(self, which, prop_tok, var, *quals):
        stmt = self.has_which(which, prop_tok, *quals)
        return replace(stmt, obj=ir.Quant("which", var=var.value.lstrip("?")))

    # "Whose <P26> is <Q13133>?" = "What has a <P26> that is <Q13133>?" (the thing asked owns the value)
    def whose_question(self, _whose, prop_tok, vp):
        return ir.Query(ir.Quant("which"), self.rel_whose(prop_tok, vp))

    # "is <Q13133> the <P26> of" = "has <P26> <Q13133>" (Y is the <P> of X: X has <P> Y)
    def be_stranded_of(self, _be, subject, _det, *rest):
        stmts = tuple(ir.Stmt(read_property(t), subject) for t in rest if isinstance(t, Token) and t.type == "PROP")
        return stmts[0] if len(stmts) == 1 else ir.And(stmts)

    # "has a <P20> same as its <P19>" = "has a <P20> that is its <P19>"; "same as <P19>" the same
    def has_value_same(self, det, prop_tok, _same, _as, other):
        return self.has_value(det, prop_tok, ir.Be(other))

    def has_value_same_as_own(self, det, prop_tok, _same, _as, own_tok):
        return self.has_value(det, prop_tok, ir.Be(ir.Its(read_property(own_tok))))

    # "starting with "Jo"" = "starts with "Jo""; "containing "Star"" = "contains "Star""
    def rel_starting_with(self, _starting_with, string):
        return ir.StrTest("starts", read_string(string))

    def rel_containing(self, _containing, string):
        return ir.StrTest("contains", read_string(string))

    # "ends with "son"" = "matches "son$"" (the text escaped for a regular expression)
    def ends_with(self, _ends_with, string):
        return ir.StrTest("matches", _REGEX_SPECIAL.sub(r"\\\g<0>", read_string(string)) + "$")

    # "the <P585> at which X has <P166> Y" = "the thing at which <P585> X has <P166> Y"
    def quant_qualifier_head(self, det, noun, _at_which, subject, vp):
        if not (isinstance(noun, ir.ClassNoun) and (noun.cls.id or "").startswith("P") or
                isinstance(noun, ir.ClassNoun) and noun.cls.id is None):
            raise error_at(getattr(getattr(noun, "cls", None) or getattr(noun, "prop", None), "span", None),
                           "'the <Q> at which X has <P> Y' needs a qualifier property before 'at which'")
        prop = checked_property(noun.cls.id, noun.cls.label, noun.cls.span)
        det_word, number = det
        return ir.Quant(det_word, None, (ir.QualifierOf(prop, subject, vp),), None, number)

    # "belongs to" (Ferré's class membership verb): the subject is an instance of the NP's classes
    def belongs_to(self, *args):
        return ir.BelongsTo(_nodes(args)[-1])

    def gap_belongs(self, *_):
        return ("belongs",)

    def to_which_belongs(self, *args):
        np, subject = _nodes(args)
        return ir.Query(_question_quant(np, "'To which <C> X belongs?'"), ir.BelongsTo(subject, inverse=True))

    def rel_to_which_belongs(self, *args):
        return ir.BelongsTo(_nodes(args)[-1], inverse=True)

    def maybe_has_which(self, _maybe, _have, _which, prop_tok, *quals):
        return self.has_value(("maybe", None), prop_tok, ir.Be(ir.Quant("which")), *quals)

    # "the class <Q1003>" = <Q1003> (a class named as a thing)
    def the_class(self, _the_class, tok):
        return ir.Ref(read_entity(tok))

    # "whose str is "08"" = "whose text is "08"" (ir.TextIs); a string test on the text is the test
    def rel_whose_text(self, _whose, _str, vp):
        return vp if _is_string_test(vp) else ir.TextIs(vp)

    def has_str(self, det, word, *rels):
        if det[0] not in ("a", "the") or not all(_is_string_test(r) for r in rels):
            raise error_at(token_span(word), f"'has a {word.value} that ...' tests the string: 'has a {word.value} that "
                                             f"matches \"^http\"' (or write 'whose {word.value} is \"x\"')")
        return _and(rels)

    # Form 8: the fronted question word is the value of a qualifier of the statement:
    # "How many <film> <X> did <P166> <Y> at <P1686>?" = films that are the <P1686> of the
    # statement "<X> has <P166> <Y>" ("How many <film> at which <P1686> <X> has <P166> <Y>?").
    def gap_qualifier(self, *args):
        tokens = [a for a in args if isinstance(a, Token)]
        prop_tok = next(t for t in tokens if t.type in ("PROP", "VERB_PROP"))
        qualifier = tokens[-1]
        if qualifier.type not in _PROPERTY_TOKENS:
            raise error_at(token_span(qualifier), "a qualifier is a property: 'at <P1686>'")
        stmt = self.has_prop(prop_tok, *_nodes(args))
        return ("qualifier", read_property(qualifier, path=False), stmt)

    @staticmethod
    def qualifier_question(quant, subject, gap):
        """The query of a fronted object whose gap is a qualifier's value (form 8)."""
        _kind, qualifier, stmt = gap
        return ir.Query(quant, ir.QualifierOf(qualifier, subject, stmt))

    def gap_qualifier_noun(self, *args):
        prop_tok = next(a for a in args if isinstance(a, Token) and a.type in ("PROP", "VERB_PROP"))
        return ("qualifier_noun", self.has_prop(prop_tok, *_nodes(args)))

    @staticmethod
    def qualifier_noun_question(quant, subject, gap):
        """``which <Q> X has <P> Y?``: the question's noun is a qualifier of X's statement, its value
        asked (the IR of "At which <Q> has X <P> Y?")."""
        noun = quant.noun
        if not (isinstance(noun, ir.ClassNoun) and quant.det in ("which", "how_many") and not quant.rels
                and quant.var is None and not (noun.cls.id or "").startswith("Q")):
            raise error_at(getattr(getattr(noun, "cls", None) or getattr(noun, "prop", None), "span", None),
                           "'which <Q> X has <P> Y?' asks a qualifier's value: its noun is a property "
                           "('which <P585> X has <P166> Y?'), or write 'Which <C> has ...'")
        qual = ir.Qual(checked_property(noun.cls.id, noun.cls.label, noun.cls.span),
                       ir.Quant(quant.det, None, order=quant.order))
        stmt = gap[1]
        return ir.Query(subject, replace(stmt, quals=stmt.quals + (qual,)))


def _asked_value(node, name: str, found: list):
    """``node`` with its first statement whose value is the variable ``name`` ("has some <P1416> A")
    asking that value instead ("has which <P1416> ?A"); appended to ``found`` when changed."""
    if found:
        return node
    if isinstance(node, ir.Stmt) and node.obj == ir.Ref(ir.Var(name)):
        found.append(node)
        return replace(node, obj=ir.Quant("which", var=name))
    return ir.map_children(node, lambda child: _asked_value(child, name, found))


def _is_string_test(vp) -> bool:
    """A string test (``matches``, ``contains``, ``starts with``, negated or joined): each tests
    the string of its subject (``STR(?x)``) already."""
    if isinstance(vp, (ir.And, ir.Or)):
        return all(_is_string_test(i) for i in vp.items)
    return isinstance(vp.vp if isinstance(vp, ir.Not) else vp, ir.StrTest)


def _counted_superlative(vp, count: int, found: list):
    """``vp`` with its plain superlative ("has the highest <P>", also inside "and") given
    ``count`` ("the 10 highest"); each one changed is appended to ``found``."""
    if isinstance(vp, ir.And):
        return ir.And(tuple(_counted_superlative(item, count, found) for item in vp.items))
    if not (isinstance(vp, ir.Stmt) and isinstance(vp.obj, ir.Quant) and vp.obj.order is not None):
        return vp
    order = vp.obj.order
    if order.rank != 1 or order.count is not None or order.to_rank is not None or not order.limit or order.ties:
        return vp
    found.append(vp)
    return replace(vp, obj=replace(vp.obj, order=replace(order, count=count)))


def _value_also_of(prop, other, det: str) -> ir.Stmt:
    """"has a <P> that is <det> <P> of X": a value the subject shares with X ("the same <P> as
    X" with "the", "shares a <P> with X" with "a")."""
    return ir.Stmt(prop, ir.Quant("a", None, (ir.Be(ir.Quant(det, ir.RelNoun(prop, other))),)))


def _per_class(det, noun, tok):
    """"the number of <P166> per <Q5>": after a count of a relational noun's values, a class
    ("per" a thing of the class: an item ID, or a [label] in the label notation) is what the values
    are of: "the number of <P166> of which <Q5>" (a count per human). None where "per" names a
    property (or may: the ECAI notation writes both as <label>)."""
    prop = property_noun(ir.Quant("a", noun)) if isinstance(noun, ir.ClassNoun) else None
    if not (det[0] == "number_of" and prop is not None and (tok.value.startswith("[") or re.match(r"<Q\d", tok.value))):
        return None
    cls = read_entity(tok)
    return ir.RelNoun(prop, ir.Quant("which", ir.ClassNoun(ir.Class(cls.id, cls.label, cls.span))))


class _GroupedBy(ir.Quant):
    """The value "per <P>" names after "the <C>-s", before it is known to be an aggregate's group
    key (never left in a parsed query: settle_groups)."""


# whether this parse made a _GroupedBy mark: the query is walked only then (every sentence
# ends in settle_groups, and a walk of the whole query cost a fifth of a parse)
_GROUPING: contextvars.ContextVar[bool] = contextvars.ContextVar("squall_grouping", default=False)


def settle_groups(query):
    """``query`` with each "the <C>-s per <P>" inside an aggregate read as "the <C> that has which
    <P>" (a value per group, SPARQL's GROUP BY: "the average <P1082> of the <Q515>-s per <P17>");
    elsewhere "per" is refused (a group needs a count or an aggregate)."""
    if not _GROUPING.get():
        return query
    _GROUPING.set(False)
    if not any(isinstance(node, _GroupedBy) for node in walk(query)):
        return query
    inside = {id(node) for aggregate in walk(query) if isinstance(aggregate, ir.Aggregate)
              for node in walk(aggregate) if isinstance(node, _GroupedBy)}
    if any(isinstance(node, _GroupedBy) and id(node) not in inside for node in walk(query)):
        raise error_at(None, "'per <P>' groups a count or an aggregate: 'the number of <C>-s per <P>', "
                             "'the average <P> of the <C>-s per <P>'")

    def plain(node):
        return ir.Quant("which") if isinstance(node, _GroupedBy) else map_children(node, plain)
    return plain(query)


# The coordinations of an of-phrase made by this sentence's parse ("the <P> of A and B"), by id:
# a later conjunct of one that is itself "a <Q> of Y" belongs to the outer noun phrase
# (lifted_relational_conjuncts); emptied at each sentence's end (forget_of_coordinations).
_OF_COORDINATIONS: contextvars.ContextVar[dict | None] = contextvars.ContextVar("squall_of_coordinations",
                                                                                 default=None)


def lifted_relational_conjuncts(quant: ir.Quant):
    """``quant`` ("a <P161> of A and a <P57> of B", parsed as the cast member of A and of B's
    director, since an of-phrase takes the coordination after it: "the <P> of A and B") as the
    coordination of the two relational noun phrases it says: "a <P161> of A" and "a <P57> of
    B". Only where every conjunct from the first relational one on is relational, and only for
    an of-phrase's own coordination: "a <P161> of (A and a <P57> of B)", in parentheses, keeps
    the other reading."""
    noun, kept = quant.noun, _OF_COORDINATIONS.get()
    if not (kept and isinstance(noun, ir.RelNoun) and isinstance(noun.of, ir.Coord)
            and kept.get(id(noun.of)) is noun.of and noun.of.op == "and"):
        return quant
    items = noun.of.items
    first = next((i for i in range(1, len(items)) if ir.is_relational_phrase(items[i])), None)
    if first is None or not all(ir.is_relational_phrase(item) for item in items[first:]):
        return quant
    head = items[0] if first == 1 else ir.Coord("and", items[:first])
    return ir.Coord("and", (replace(quant, noun=replace(noun, of=head)), *items[first:]))


def forget_of_coordinations() -> None:
    if _OF_COORDINATIONS.get():
        _OF_COORDINATIONS.set({})


# The characters a SPARQL (XPath) regular expression gives a meaning; each escaped is itself
_REGEX_SPECIAL = re.compile(r"[\\|.?*+(){}\[\]^$-]")


# Tests that only a literal passes: a value they are said of is a literal (a date, a number, a
# string), and a literal has no properties (RDF: it is never a subject).
_LITERAL_TESTS = (ir.Compare, ir.YearIs, ir.TextIs, ir.StrTest, ir.LangIs)


def _tests_a_literal(vp) -> bool:
    if isinstance(vp, ir.Not):
        return _tests_a_literal(vp.vp)
    if isinstance(vp, ir.Be):
        return isinstance(vp.np, ir.Ref) and isinstance(vp.np.term, ir.Literal)
    return isinstance(vp, _LITERAL_TESTS)


def _says_a_property(vp) -> bool:
    return isinstance(vp.vp if isinstance(vp, ir.Not) else vp, ir.Stmt)


def lifted_from_literal(rels: tuple) -> tuple[tuple, tuple]:
    """(``rels`` kept, verb phrases lifted) of the clauses said of a property's value: where one
    clause joins a test only a literal passes with a statement of a property ("has a <P577>
    whose year is 2019 and has a <P2142> greater than 1400000000", "has a <P577> that is later
    than 2000 and has a <P2142> ..."), the value is a literal, which has no properties, so the
    statement is said of the subject that has the value, as writers mean it; the rest stay."""
    kept, lifted = [], []
    for rel in rels:
        inner = rel.vp if isinstance(rel, ir.YearIs) else rel
        items = inner.items if isinstance(inner, ir.And) else ()
        tests = [item for item in items if _tests_a_literal(item)]
        others = [item for item in items if not _tests_a_literal(item)]
        if not tests or not others or not all(_says_a_property(item) for item in others):
            kept.append(rel)
            continue
        rest = tests[0] if len(tests) == 1 else ir.And(tuple(tests))
        kept.append(ir.YearIs(rest) if isinstance(rel, ir.YearIs) else rest)
        lifted += others
    return tuple(kept), tuple(lifted)
