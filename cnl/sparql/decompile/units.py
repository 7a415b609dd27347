"""Stage (after flatten): ``?n wikibase:quantityUnit ?u . FILTER(?u = wd:Q11573)``, where ``?u``
is read nowhere else (no answer column, no other test), is the unit named in the triple,
``?n wikibase:quantityUnit wd:Q11573``: the one form of a full value node's unit that the CNL
says (``in unit <Q11573>``, :func:`cnl.sparql.decompile.fold._unit_amounts`). An IRI equals
(``=``) exactly the same IRI, so both keep the same solutions; a unit that is an answer, or
that a BIND(IF(...)) reads, stays a variable and is refused by name."""
from __future__ import annotations

from rdflib import URIRef, Variable

from cnl.sparql.decompile.expressions import subexpressions
from cnl.sparql.decompile.flatten import Group
from cnl.sparql.decompile.fold import QUANTITY_UNIT
from cnl.sparql.decompile.state import Decompilation


def read_unit_tests(state: Decompilation) -> None:
    _read_group(state, state.top)


def _read_group(state: Decompilation, group: Group) -> None:
    for sub in group.optionals + group.minus + [b for branches in group.unions for b in branches]:
        _read_group(state, sub)
    for test in list(group.filters):
        named = _named_item_test(test)
        if named is None:
            continue
        var, item = named
        units = [i for i, (_, p, o) in enumerate(group.triples) if p == QUANTITY_UNIT and o == var]
        # read twice in the whole query: in its triple and in this test
        if len(units) != 1 or sum(1 for o in subexpressions(state.algebra) if isinstance(o, Variable) and o == var) != 2:
            continue
        s, p, _ = group.triples[units[0]]
        group.triples[units[0]] = (s, p, item)
        group.filters.remove(test)


def _named_item_test(expr):
    """(?v, <iri>) of ``FILTER(?v = <iri>)`` (either side), else None."""
    if getattr(expr, "name", None) != "RelationalExpression" or expr.op != "=":
        return None
    left, right = expr.expr, expr.other
    if isinstance(right, Variable) and isinstance(left, URIRef):
        left, right = right, left
    if isinstance(left, Variable) and isinstance(right, URIRef):
        return left, right
    return None
