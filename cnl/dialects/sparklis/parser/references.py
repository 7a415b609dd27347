"""Back-references: the trailing clauses of a Sparklis sentence (``and give me the number of
film``, ``and give me the year of the <P577>``, ``and where the <P577> > the <P570>``, ``and for
each human give me the number of ...``) name a noun or a property mentioned before; this module
finds what they name and rewrites the sentence's IR around it, once the sentence is read.

Separate because these are rewrites of the whole IR after the transformation, not callbacks of
one rule."""
from __future__ import annotations

import re
from dataclasses import replace

from lark import Token

from cnl import ir
from cnl.dialects.sparklis.parser.syntax_errors import Refused
from cnl.dialects.sparklis.parser.terms import read_class, read_property, read_property_or_bare


class Extra:
    """A trailing clause as the transformer reads it (``kind``: count, group_count, minus_year,
    year, where_year or where_value), applied by :func:`apply_extra` once the sentence is read."""

    def __init__(self, kind, target, test=None, order=None):
        self.kind, self.target, self.test, self.order = kind, target, test, order


class ValueOf:
    """``the <P>`` as the other side of a comparison, until it is resolved."""

    def __init__(self, token):
        self.token = token


def _same_prop(a: ir.Property, b: ir.Property) -> bool:
    if a.id and b.id:
        return a.id == b.id
    return (a.label or "").lower() == (b.label or "").lower()


def _find(node, pred):
    """The first node (depth first, reading order) satisfying ``pred``."""
    for n in ir.walk(node):
        if pred(n):
            return n
    return None


def _swap(node, target, new):
    """``node`` with the node ``target`` (by identity) replaced by ``new``."""
    if node is target:
        return new
    return ir.map_children(node, lambda child: _swap(child, target, new))


def _demote_questions(node, keep):
    """``node`` with every ``which`` noun phrase for which ``keep(np)`` is false made
    existential; a column asked for by "give me the year of" stays."""
    if isinstance(node, ir.YearIs):
        return node
    new = ir.map_children(node, lambda child: _demote_questions(child, keep))
    if isinstance(node, ir.Quant) and node.det == "which" and not keep(node):
        new = replace(new, det="a")
    return new


def _object(node):
    """The value of a statement (its object) or of a qualifier."""
    return node.obj if isinstance(node, ir.Stmt) else node.value


def _statement_value(query, prop: ir.Property, accept):
    """The value of the first statement or qualifier on ``prop`` whose value ``accept``s."""
    found = _find(query, lambda n: isinstance(n, (ir.Stmt, ir.Qual)) and _same_prop(n.prop, prop)
                  and accept(_object(n)))
    return None if found is None else _object(found)


def value_of(query, prop: ir.Property):
    """The value NP of the first statement or qualifier on ``prop`` (``has a <P>``, ``with a
    <P>`` -> its Quant)."""
    return _statement_value(query, prop, lambda np: isinstance(np, ir.Quant) and np.noun is None
                            and np.var is None and not any(isinstance(r, ir.Be) for r in np.rels))


def _value_of_any(query, prop: ir.Property):
    """The value of the first statement or qualifier on ``prop`` that is a noun phrase of its
    own ("with <P1686:for_work> a film ... and give me the number of <P1686:for_work>")."""
    return _statement_value(query, prop, lambda np: isinstance(np, ir.Quant) and np.var is None)


def _is_the_of(query, prop: ir.Property):
    """The noun phrase that "is the <P> of" something: "something that is the part(s) of
    Academy Awards and give me the number of part(s)" counts those parts."""
    return _find(query, lambda n: isinstance(n, ir.Quant) and n.var is None and any(
        isinstance(r, ir.Stmt) and r.inverse and _same_prop(r.prop, prop) for r in n.rels))


def resolve_value_refs(query: ir.Query) -> ir.Query:
    """Each comparison with "the <P>" now compares with the variable of the value of the
    first "has a <P>" (named after the property): "... has a <P570> and has a <P577> and where
    the <P577> > the <P570>"."""
    while True:
        ref = _find(query, lambda n: isinstance(n, ValueOf))
        if ref is None:
            return query
        compare = _find(query, lambda n: isinstance(n, ir.Compare) and any(a is ref for a in n.args))
        prop = read_property(ref.token)
        value = value_of(query, prop) or _named_value_of(query, prop)
        if value is None:
            raise Refused(f"'the {ref.token}' refers to no 'has a {ref.token}' before it", ref.token)
        name = value.var or re.sub(r"\W+", "_", (prop.label or prop.id or "value")).strip("_") or "value"
        if value.var is None:
            query = _swap(query, value, replace(value, var=name))
            compare = _find(query, lambda n: isinstance(n, ir.Compare) and any(a is ref for a in n.args))
        resolved = replace(compare, args=tuple(ir.Ref(ir.Var(name)) if a is ref else a for a in compare.args))
        query = _swap(query, compare, resolved)


def _named_value_of(query, prop: ir.Property):
    """The value of a statement on ``prop`` already given a name (a second comparison with it)."""
    return _statement_value(query, prop, lambda np: isinstance(np, ir.Quant) and np.var is not None)


def _mentioned(query, token: Token, what: str):
    """The noun phrase a trailing clause names by its class ("film") or by the property it is
    the value of ("<P1686:for_work>", "part(s)")."""
    cls = read_class(token)
    names = {x.lower() for x in (cls.label, cls.id) if x}
    target = _find(query, lambda n: isinstance(n, ir.Quant) and isinstance(n.noun, ir.ClassNoun)
                   and bool(names & {x.lower() for x in (n.noun.cls.label, n.noun.cls.id) if x}))
    if target is None:
        prop = read_property_or_bare(token)
        target = value_of(query, prop) or _value_of_any(query, prop) or _is_the_of(query, prop)
    if target is None:
        raise Refused(f"'{what} {token}' refers to nothing mentioned before", token)
    return target


_KEY, _COUNTED = "\0for each", "\0counted"  # markers while the sentence is rewritten


def _group_count(query: ir.Query, extra: Extra) -> ir.Query:
    """"and for each human give me the (highest-to-lowest) number of Grammy Awards": one row
    per human with its count, ordered by it when an order is given."""
    key = _mentioned(query, extra.test, "for each")
    query = _swap(query, key, replace(key, det="which", var=_KEY))
    counted = _mentioned(query, extra.target, "the number of")
    if counted.var == _KEY:
        raise Refused(f"cannot count {extra.target} for each {extra.target}", extra.target)
    if extra.order is None:
        new = replace(counted, det="how_many", var=_COUNTED)
    else:
        if counted.noun is None:
            raise Refused(f"ordering by the number of {extra.target} needs a noun to count", extra.target)
        word = "most" if str(extra.order).startswith("highest") else "least"
        new = replace(counted, det="the", order=ir.Order(word, limit=False), var=_COUNTED)
    query = _demote_questions(_swap(query, counted, new), lambda np: np.var in (_KEY, _COUNTED))
    for marker in (_KEY, _COUNTED):
        marked = _find(query, lambda n: isinstance(n, ir.Quant) and n.var == marker)
        query = _swap(query, marked, replace(marked, var=None))
    return query


def _minus_year(query: ir.Query, extra: Extra) -> ir.Query:
    """"X has a <P569> and give me 2023 - the year of the <P569>": the difference as the answer
    (the IR's Arith, as SQUALL's "give me 2023 - the year of the <P569> of X")."""
    token = extra.target
    prop = read_property_or_bare(token)
    vp = query.vp
    if not (isinstance(query.subject, ir.Ref) and isinstance(vp, ir.Stmt) and not vp.inverse
            and _same_prop(vp.prop, prop) and isinstance(vp.obj, ir.Quant) and vp.obj.noun is None
            and not vp.obj.rels):
        raise Refused(f"'give me {extra.test.value} - the year of the {token}' is supported after "
                       f"'X has a {token}' alone", token)
    value = ir.Quant("the", ir.RelNoun(vp.prop, query.subject, vp.quals))
    year = ir.Quant("the", ir.YearOf(value))
    return ir.Query(ir.Arith("-", ir.Ref(extra.test), year), None, dialect="sparklis")


def apply_extra(query: ir.Query, extra: Extra) -> ir.Query:
    token = extra.target
    if extra.kind == "group_count":
        return _group_count(query, extra)
    if extra.kind == "minus_year":
        return _minus_year(query, extra)
    if extra.kind == "count":
        target = _mentioned(query, token, "the number of")
        if target.det not in ("a", "which", "the"):
            raise Refused(f"cannot count {token} here", token)
        # the count is the answer: the other nouns are no longer columns to group by (the
        # data's gold counts alone: "Tom Cruise is the <P161> of a film that is <P1411> an
        # Academy Awards ... and give me the number of film")
        counted = replace(target, det="how_many")
        return _demote_questions(_swap(query, target, counted), lambda np: np is counted)
    prop = read_property(token)
    target = value_of(query, prop)
    if target is None:
        raise Refused(f"'the {token}' refers to no 'has a {token}' before it", token)
    if extra.kind == "where_value":
        rel = extra.test
    elif extra.kind == "where_year":
        rel = ir.YearIs(extra.test)
    else:
        shown = ir.Be(ir.Quant("which", order=extra.order))
        rel = ir.YearIs(shown if extra.test is None else ir.And((shown, extra.test)))
    return _swap(query, target, replace(target, rels=target.rels + (rel,)))
