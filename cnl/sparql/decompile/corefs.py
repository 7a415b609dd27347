"""Stage (after build): the co-reference variables the tree's nodes take at their first mention
(``a <Q5> ?x``, ``has <P19> ?a and has <P20> ?a``, ``in unit ?u``), or a refusal where a node
reached twice has no place for one. Separate from the builder: it reads the finished IR and the
builder's record of first mentions, and changes only where a variable is written."""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from cnl import ir
from cnl.errors import UnsupportedSPARQLError

if TYPE_CHECKING:  # the builder records the first mentions; this module only reads them
    from cnl.sparql.decompile.build import Builder


def name_corefs(query: ir.Query, builder: Builder) -> ir.Query:
    """The first mention of each node reached twice takes its co-reference variable: a class
    noun carries it (``a <Q5> ?x``, ``which <Q11424> ?x``), an NP that says nothing more is the
    variable itself (``has <P19> ?a and has <P20> ?a``). The root is mentioned first, as the
    sentence's subject (``write_query`` gives it the variable). Any other first mention has no
    place for a variable: refused."""
    if not builder.corefs:
        return query
    firsts = {id(np): node for node, np in builder.first_nps.items() if node in builder.corefs}
    named = set()

    def name(node):
        target = firsts.get(id(node)) if isinstance(node, ir.Quant) else None  # before its children change it
        node = ir.map_children(node, name)
        if target is None:
            return node
        var = builder.corefs[target]
        if isinstance(node.noun, ir.ClassNoun) and node.det in ("a", "the", "which") and node.number is None:
            named.add(target)
            return replace(node, var=var)
        if node.noun is None and node.det == "which" and node.order is None:
            named.add(target)
            return replace(node, var=var)  # an answer column of no class: "which thing ?y"
        if node.noun is None and node.det == "a" and node.order is None and node.number is None:
            named.add(target)
            # a value said nothing more of is the variable; one described is "something ?v ..."
            return replace(node, var=var) if node.rels else ir.Ref(ir.Var(var))
        return node

    query = name(query)
    for node in ir.walk(query):
        if isinstance(node, ir.Quant) and node.var is not None and (
                (isinstance(node.noun, ir.ClassNoun) and node.det in ("a", "the", "which"))
                or (node.noun is None and node.det in ("a", "which"))):  # "something ?s ...", "which thing ?s"
            named |= {n for n, v in builder.corefs.items() if v == node.var}
        if isinstance(node, (ir.Stmt, ir.RelNoun)) and isinstance(node.unit, ir.Var):  # "in unit ?u"
            named |= {n for n, v in builder.corefs.items() if v == node.unit.name}
    unnamed = set(builder.corefs) - named - builder.named_by_sentence
    if unnamed:
        raise UnsupportedSPARQLError("a cycle in the triple patterns",
                                     f"{next(iter(unnamed)).n3()} is reached twice and its first mention has no "
                                     "place for a variable (only a class noun, a bare value or 'which thing' takes one)")
    return query
