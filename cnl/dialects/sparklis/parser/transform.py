"""The tree -> IR transformation: :class:`ToIR`, one Lark callback per rule, by construct family
(terms, relative clauses, qualifiers, objects, verb phrases, sentences, trailing clauses), and
Sparklis' reading of a sentence without ``give me``: its indefinites are what it asks for."""
from __future__ import annotations

from dataclasses import replace

from lark import Token, Transformer

from cnl import ir
from cnl.dialects.sparklis.parser.references import Extra, ValueOf, apply_extra, resolve_value_refs
from cnl.dialects.sparklis.parser.syntax_errors import Refused
from cnl.dialects.sparklis.parser.terms import (
    read_bare_property, read_class, read_entity, read_literal, read_of_property, read_order, read_property,
)

INSTANCE_OF = ir.Property(id="P31", label="instance of")


def _toks(items, *types):
    return [t for t in items if isinstance(t, Token) and t.type in types]


def _nodes(items, cls):
    return [x for x in items if isinstance(x, cls)]


def _rels(items):
    """The relative clauses among ``items``: single ones and chains (tuples)."""
    out = []
    for x in items:
        if isinstance(x, tuple):
            out.extend(x)
        elif isinstance(x, _VP_TYPES):
            out.append(x)
    return out


class _ValueThen:
    def __init__(self, np, vp):
        self.np, self.vp = np, vp


def _flat(vp):
    return vp.items if isinstance(vp, ir.And) else (vp,)


class _Conj:
    def __init__(self, subject, vp):
        self.subject, self.vp = subject, vp


_VP_TYPES = (ir.Stmt, ir.Be, ir.Compare, ir.Not, ir.And, ir.Or, ir.StrTest, ir.Exists, ir.YearIs, ir.QualifierOf)
_NP_TYPES = (ir.Ref, ir.Quant, ir.Coord, ir.Arith, ValueOf)


class ToIR(Transformer):
    """Lark callbacks, one per rule; each returns an IR node, or a marker the sentence resolves
    later (a trailing clause, a value compared with "the <P>")."""

    # -- terms
    def entity(self, items):
        return read_entity(items[0])

    def literal(self, items):
        return read_literal(items[0])

    def value(self, items):
        return ir.Ref(items[0])

    def noun(self, items):
        return ir.ClassNoun(read_class(items[0]))

    def counted(self, items):
        return items[0]

    def subject(self, items):
        return ir.Ref(items[0])

    # -- relative clauses
    def rel(self, items):
        return _nodes(items, _VP_TYPES)[0]

    def rel_chain(self, items):
        return tuple(vp for item in _nodes(items, _VP_TYPES) for vp in _flat(item))

    def cmp(self, items):
        op = _toks(items, "OP")[0]
        return ir.Compare(str(op), (items[-1],))

    def cmp_value_of(self, items):
        # "where the <P577> > the <P570>": compared with the value of a property mentioned
        # before; resolved to that value's variable once the sentence is read (resolve_value_refs)
        op = _toks(items, "OP")[0]
        return ir.Compare(str(op), (ValueOf(_toks(items, "PROP")[0]),))

    # -- qualifiers
    def qual_value(self, items):
        return ir.Qual(read_property(_toks(items, "PROP")[0]), items[-1])

    def qual_some(self, items):
        # "with a <P453:character_role> that is the <P463> Jedi": the clause describes the value
        return ir.Qual(read_property(_toks(items, "PROP")[0]), ir.Quant("a", None, tuple(_rels(items))))

    def qual_order(self, items):
        return ir.Qual(read_property(_toks(items, "PROP")[0]), ir.Quant("the", order=read_order(_toks(items, "ORDER")[0])))

    # -- objects
    def obj_value(self, items):
        rels = _rels(items)
        if not rels:
            return items[0]
        return _ValueThen(items[0], tuple(rels))

    def obj_coord(self, items):
        return ir.Coord("and", tuple(_nodes(items, _NP_TYPES)))

    def obj_a(self, items):
        noun = _nodes(items, ir.ClassNoun)[0]
        return ir.Quant("a", noun, tuple(_rels(items)))

    def obj_something(self, items):
        return ir.Quant("a", None, tuple(_rels(items)))

    # -- verb phrases
    def _stmt(self, items, inverse=False, prop=None):
        prop = prop or read_property(_toks(items, "PROP")[0])
        quals = tuple(_nodes(items, ir.Qual))
        then = _nodes(items, _ValueThen)
        if then:
            # "has as a <P> X that ...": the clause describes X
            named = ir.Quant("the", None, (ir.Be(then[0].np),) + then[0].vp)
            return ir.Stmt(prop, named, quals, inverse=inverse)
        objs = _nodes(items, _NP_TYPES)
        # "is the <P> of X and of Y": both statements hold
        obj = objs[0] if len(objs) == 1 else ir.Coord("and", tuple(objs))
        return ir.Stmt(prop, obj, quals, inverse=inverse)

    def is_the_forward(self, items):
        return self._stmt(items)

    def qual_a(self, items):
        return ir.Qual(read_property(_toks(items, "PROP")[0]), ir.Quant("a", _nodes(items, ir.ClassNoun)[0]))

    def has_as(self, items):
        return self._stmt(items)

    def verb(self, items):
        return self._stmt(items)

    def is_prop(self, items):
        return self._stmt(items)

    def is_the_of_either(self, items):
        stmt = self.is_the_of(items)
        return replace(stmt, obj=replace(stmt.obj, op="or"))

    def is_the_of(self, items):
        token = _toks(items, "PROP")[0]
        forward = read_of_property(token)
        if forward is not None:
            return self._stmt(items, prop=forward)
        return self._stmt(items, inverse=True)

    def has_a(self, items):
        prop = read_property(_toks(items, "PROP")[0])
        return ir.Stmt(prop, ir.Quant("a", None, tuple(_rels(items))), tuple(_nodes(items, ir.Qual)))

    has_a_cmp = has_a

    # Sparklis shows some properties by label only ("has a part(s)", "is the member of X");
    # they become properties without ID, resolved like any label (lexicon or alignment).
    def has_a_bare(self, items):
        label = _toks(items, "LABEL")[0]
        prop, flipped = read_bare_property(label)
        return ir.Stmt(prop, ir.Quant("a", None, tuple(_nodes(items, _VP_TYPES))), inverse=flipped)

    def is_the_of_bare(self, items):
        label = _toks(items, "LABEL")[0]
        forward = read_of_property(label)
        if forward is not None:
            return self._stmt(items, prop=forward)
        prop, flipped = read_bare_property(label)
        return self._stmt(items, inverse=not flipped, prop=prop)

    def has_order(self, items):
        prop = read_property(_toks(items, "PROP")[0])
        return ir.Stmt(prop, ir.Quant("the", order=read_order(_toks(items, "ORDER")[0])), tuple(_nodes(items, ir.Qual)))

    def not_vp(self, items):
        return ir.Not(_nodes(items, _VP_TYPES)[0])

    def instance_of(self, items):
        return self._stmt(items, prop=INSTANCE_OF)

    def be_a(self, items):
        noun = _nodes(items, ir.ClassNoun)[0]
        return ir.Be(ir.Quant("a", noun, tuple(_nodes(items, _VP_TYPES))))

    def matches(self, items):
        # "give me every film that matches ace ventura": Sparklis' filter on the label (as
        # SQUALL's "has a <label> matching "ace ventura"")
        return _label_matches(items[-1])

    def be_either(self, items):
        # "that is Red or Lover": one of them
        return ir.Be(ir.Coord("or", tuple(ir.Ref(e) for e in _nodes(items, ir.Entity))))

    def obj_either(self, items):
        return ir.Coord("or", tuple(_nodes(items, _NP_TYPES)))

    def be_entity(self, items):
        return ir.Be(ir.Ref(_nodes(items, ir.Entity)[0]))

    # -- sentences
    def give_every(self, items):
        noun = _nodes(items, ir.ClassNoun)[0]
        rels = next((x for x in items if isinstance(x, tuple)), ())
        return ir.Quant("which", noun, rels)

    def give_everything(self, items):
        rels = next((x for x in items if isinstance(x, tuple)), ())
        return ir.Quant("which", None, rels)

    def give_ordered(self, items):
        noun = _nodes(items, ir.ClassNoun)[0]
        rels = next((x for x in items if isinstance(x, tuple)), ())
        return ir.Quant("which", noun, rels, order=read_order(_toks(items, "ORDER")[0]))

    def give_sentence(self, items):
        return ir.Query(_nodes(items, ir.Quant)[0], None, dialect="sparklis")

    def conj_vp(self, items):
        return _Conj(None, items[0])

    def conj_sentence(self, items):
        return _Conj(items[0], items[1])

    def subject_sentence(self, items):
        subject, vp = items[0], items[1]
        vps, subjects = [vp], [subject]
        for conj in items[2:]:
            if not isinstance(conj, _Conj):
                continue
            if conj.subject is None:
                vps.append(conj.vp)
            else:
                if len(vps) > 1 or conj.vp != vp:
                    raise Refused("two sentences about different things cannot be one query "
                                   "(only 'X has a <P> and Y has a <P>', with the same verb phrase)")
                subjects.append(conj.subject)
        vps = [item for vp_ in vps for item in _flat(vp_)]
        main_vp = vps[0] if len(vps) == 1 else ir.And(tuple(vps))
        subj = subjects[0] if len(subjects) == 1 else ir.Coord("and", tuple(subjects))
        return ir.Query(subj, _as_questions(main_vp), dialect="sparklis")

    # -- trailing clauses
    def year_is(self, items):
        return ir.Be(items[-1])

    def year_test(self, items):
        return items[0]

    def year_between(self, items):
        low, high = _nodes(items, _NP_TYPES)
        return ir.Compare("between", (low, high))

    def year_not_between(self, items):
        return ir.Not(self.year_between(items))

    def extra_count(self, items):
        return Extra("count", items[-1])

    def extra_group_count(self, items):
        key, counted = _toks(items, "LABEL", "QID", "PROP")
        order = _toks(items, "ORDER_NUMBER_OF")
        return Extra("group_count", counted, key, order[0] if order else None)

    def extra_minus_year(self, items):
        return Extra("minus_year", _toks(items, "LABEL", "QID", "PROP")[-1], read_literal(_toks(items, "NUMBER")[0]))

    def extra_string_match(self, items):
        # "and give me the string of the <P1476> that not matches Grey": a text test on the value
        test = ir.StrTest("matches", _match_text(items[-1]))
        return Extra("where_value", _toks(items, "PROP")[0], ir.Not(test) if _toks(items, "NOT") else test)

    def extra_year(self, items):
        prop = _toks(items, "PROP")[0]
        tests = _nodes(items, _VP_TYPES)
        return Extra("year", prop, tests[0] if tests else None)

    def extra_year_order(self, items):
        # "and give me lowest-to-highest the year of the <P585>": the year column, sorted
        return Extra("year", _toks(items, "PROP")[0], None, read_order(_toks(items, "ORDER")[0]))

    def extra_where_year(self, items):
        return Extra("where_year", _toks(items, "PROP")[0], _nodes(items, _VP_TYPES)[0])

    def extra_where_value(self, items):
        return Extra("where_value", _toks(items, "PROP")[0], _nodes(items, _VP_TYPES)[0])

    def start(self, items):
        query = items[0]
        for extra in items[1:]:
            query = apply_extra(query, extra)
        return resolve_value_refs(query)


LABEL_PROPERTY = ir.Property(label="label")


def _match_text(value: ir.Ref) -> str:
    term = value.term
    return term.value if isinstance(term, ir.Literal) else (term.label or term.id or "")


def _label_matches(value: ir.Ref) -> ir.Stmt:
    return ir.Stmt(LABEL_PROPERTY, ir.Quant("a", None, (ir.StrTest("matches", _match_text(value)),)))


def _as_questions(node):
    """Sparklis projects every variable: the indefinites of a sentence without 'give me'
    (outside negations) are what it asks for."""
    if isinstance(node, ir.Not):
        return node
    if isinstance(node, ir.Be) and isinstance(node.np, ir.Quant) and node.np.det == "a":
        # "a film that is a Star Trek film": a class test on the same thing, not a new column
        return replace(node, np=replace(node.np, rels=_as_questions(node.np.rels)))
    if isinstance(node, ir.Quant) and node.det == "a":
        node = replace(node, det="which")
    return ir.map_children(node, _as_questions)
