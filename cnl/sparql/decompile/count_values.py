"""Counts compared as values: a query whose WHERE clause is only counting sub-queries (without
GROUP BY) and a FILTER comparing their counts, with each other or with a number, is the
sentence ``the number of NP`` + a comparison (``Is the number of <P166> of <Q1> greater than
the number of <P166> of <Q2>?``, ``Is the number of things that ... greater or equal to 2?``);
as the test of a choice too (``Give me <Q1> if the number of ... is greater than ..., else
<Q2>``). The compiler writes each ``the number of`` compared this way as such a sub-query."""
from __future__ import annotations

from dataclasses import replace

from rdflib import Literal, Variable

from cnl import ir
from cnl.errors import UnsupportedSPARQLError
from cnl.sparql.decompile.expressions import FLIP, variables
from cnl.sparql.decompile.flatten import Group, group_vars
from cnl.sparql.decompile.terms import ir_term


def count_test(top: Group):
    """(first count, op, second count or a literal) when ``top`` is only counts and one
    comparison of them, else None."""
    if (not top.counts or top.triples or top.optionals or top.unions or top.minus or top.values or top.binds
            or top.ranked or len(top.filters) != 1):
        return None
    test = top.filters[0]
    if getattr(test, "name", None) != "RelationalExpression" or test.op not in FLIP:
        return None
    counts = {c.alias: c for c in top.counts}
    left, right, op = test.expr, test.other, test.op
    if left not in counts:
        left, right, op = right, left, FLIP[op]
    if left not in counts or not (right in counts or isinstance(right, Literal)):
        return None
    if len(top.counts) != (2 if right in counts else 1):
        return None
    return counts[left], op, counts.get(right, right)


def count_sentence(builder, test):
    """(the subject NP, the VPs said of it) of a count test (see :func:`count_test`)."""
    first, op, second = test
    other = count_np(builder, second) if not isinstance(second, Literal) else ir.Ref(ir_term(second))
    return count_np(builder, first), [ir.Compare(op, (other,))]


def aggregated_counts(top: Group, aggregated, group_keys):
    """The counting sub-query when the query is an aggregate over one count per group and
    nothing else (``SELECT (AVG(?n) AS ?a) { { SELECT ?x (COUNT(?y) AS ?n) {...} GROUP BY ?x } }``:
    ``the average of (the number of <P> of a <C>)``), else None."""
    if (aggregated is None or group_keys or len(top.counts) != 1 or top.triples or top.filters or top.optionals
            or top.unions or top.minus or top.values or top.binds or top.ranked):
        return None
    count = top.counts[0]
    if count.alias != aggregated[1] or not count.keys or not all(isinstance(k, Variable) for k in count.keys):
        return None
    return count


def count_np(builder, count, per_group: bool = False) -> ir.Quant:
    """``the number of NP``: NP the counted variable of the sub-query, described by its pattern;
    ``per_group``: one count per group of the sub-query's GROUP BY keys, each key the question
    word where the pattern reaches it (the meaning guard checks the reading)."""
    if count.keys and not per_group:
        raise UnsupportedSPARQLError("a sub-query (nested SELECT)", "a count per group compared with another value")
    if not isinstance(count.counted, Variable):
        raise UnsupportedSPARQLError("COUNT(*) compared with another value")
    builder.visited.add(count.counted)
    if per_group:
        builder.which.update(count.keys)  # the group keys: the question words inside the count
    vps = builder.group_vps(count.inner, count.counted, {count.counted}, visible=False)
    builder.count_distincts.add(count.distinct)
    builder.hidden |= group_vars(count.inner) | {count.counted}
    noun = None
    for i, vp in enumerate(vps):
        if (isinstance(vp, ir.Be) and isinstance(vp.np, ir.Quant) and vp.np.det == "a" and not vp.np.rels
                and vp.np.order is None and isinstance(vp.np.noun, (ir.ClassNoun, ir.RelNoun))):
            noun, vps = vp.np.noun, vps[:i] + vps[i + 1:]
            break
    if variables(count.inner.filters) - group_vars(count.inner):
        raise UnsupportedSPARQLError("a FILTER not connected to the rest of the query")
    if per_group:
        return _per_group(ir.Quant("number_of", noun, tuple(vps)))
    return ir.Quant("number_of", noun, tuple(vps))


def _per_group(count: ir.Quant) -> ir.Quant:
    """A count per value of its group key, the key written ``which`` where it stands (``the number
    of <Q515> that has which <P17>``, printed ``... per <P17>``); where the key is the thing the
    counted values are of, ``the number of <P166> of a <Q5>`` (an aggregate of it is one of counts
    per referent of its ``of``)."""
    noun = count.noun
    if (isinstance(noun, ir.RelNoun) and isinstance(noun.of, ir.Quant) and noun.of.det == "which" and not count.rels
            and sum(isinstance(n, ir.Quant) and n.det == "which" for n in ir.walk(count)) == 1):
        return replace(count, noun=replace(noun, of=replace(noun.of, det="a")))
    if not any(isinstance(n, ir.Quant) and n.det == "which" for n in ir.walk(count)):
        raise UnsupportedSPARQLError("a sub-query (nested SELECT)", "a count per group whose key the count does not name")
    return count
