"""The IR traversals: depth (the parsers' nesting limit) and walk, against plain recursive
definitions, and the scalar-field contract that lets depth skip term-like nodes."""
from __future__ import annotations

from dataclasses import fields, is_dataclass

import pytest

from cnl import ir
from cnl.dialects.squall.parser import parse_squall
from cnl.ir import traverse

TEXTS = [
    "Which [film] has <director> [Jon Favreau] and has the highest <publication date>?",
    "Which <Q11424> has <P166> <Q618779> at the 2nd earliest <P585> and has a <P577> greater than 2000?",
    "What is the <population> of (the <capital> of [France])?",
    "Give me the average <population> of every [country] whose <continent> is not [Europe].",
    "Which [human] has <place of birth> ?x and has <place of death> ?x?",
    "What is " + "the <P57> of " * 30 + "<Q25188>?",
]


def recursive_depth(node) -> int:
    if is_dataclass(node):
        return 1 + max([recursive_depth(getattr(node, f.name)) for f in fields(node) if f.name != "span"] or [0])
    if isinstance(node, tuple):
        return 1 + max([recursive_depth(item) for item in node] or [0])
    return 1


def recursive_walk(node):
    yield node
    if is_dataclass(node):
        for f in fields(node):
            if f.name != "span":
                yield from recursive_walk(getattr(node, f.name))
    elif isinstance(node, tuple):
        for item in node:
            yield from recursive_walk(item)


@pytest.mark.parametrize("text", TEXTS)
def test_depth_and_walk_match_their_recursive_definitions(text):
    query = parse_squall(text)
    assert traverse.depth(query) == recursive_depth(query)
    assert [id(n) for n in traverse.walk(query)] == [id(n) for n in recursive_walk(query)]


@pytest.mark.parametrize("text", TEXTS)
def test_nodes_declared_scalar_hold_only_scalars(text):
    for node in traverse.walk(parse_squall(text)):
        if type(node) in traverse.SCALAR_NODE_TYPES:
            for f in fields(node):
                if f.name != "span":
                    assert isinstance(getattr(node, f.name), (str, int, float, bool, type(None))), (node, f.name)


def test_scalar_node_types_are_the_term_like_ones():
    assert {ir.Entity, ir.Class, ir.Property, ir.Literal, ir.Var} <= traverse.SCALAR_NODE_TYPES
    assert ir.Quant not in traverse.SCALAR_NODE_TYPES and ir.Stmt not in traverse.SCALAR_NODE_TYPES


def test_depth_and_walk_need_no_recursion():
    deep = ir.Entity("Q1")
    for _ in range(5000):  # far deeper than Python's recursion limit
        deep = ir.Not(deep)
    assert traverse.depth(deep) == 5002  # 5,000 Not, the Entity, its scalar fields
    assert sum(1 for _ in traverse.walk(deep)) == 5000 + 1 + 2


def test_every_node_type_survives_the_json_form():
    """``ir.to_json``/``ir.from_json`` know every node type (``CountComparison`` was missing from
    ``NODE_TYPES``, so a query comparing counts could be written to JSON but not read back)."""
    import inspect

    from cnl.ir import nodes
    declared = {name for name, cls in inspect.getmembers(nodes, inspect.isclass)
                if is_dataclass(cls) and cls.__module__ == nodes.__name__}
    assert declared <= set(ir.NODE_TYPES)
    for text in (*TEXTS, "Which <Q5> has more <P166> than <Q76>?", "Which <Q1006> does <Q1001> belong to?"):
        query = parse_squall(text)
        assert ir.from_json(ir.to_json(query)) == query
