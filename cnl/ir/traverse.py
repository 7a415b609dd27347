"""Traversals of the IR: every node, every term, and copies with some children replaced."""
from __future__ import annotations

from dataclasses import fields, is_dataclass, replace
from operator import attrgetter

from cnl.ir.nodes import Class, Entity, Property, Quant, RelNoun


def walk(node):
    """Yield every IR node under ``node`` (itself included), depth first (without recursion:
    a stack of what is left to visit, children in reading order)."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        children = _children_of(type(current))
        if children is _TUPLE:
            stack.extend(reversed(current))
        elif children:
            stack.extend(getattr(current, name) for name in reversed(children))


def map_children(node, fn):
    """``node`` with ``fn`` applied to each child: the items of a tuple, the fields of an IR
    node (spans aside). ``node`` itself when no child changed, so unchanged sub-trees are
    shared, not copied; anything else is returned as it is."""
    if isinstance(node, tuple):
        items = tuple(fn(n) for n in node)
        return items if any(a is not b for a, b in zip(items, node)) else node
    if is_dataclass(node):
        changes = {}
        for f in fields(node):
            if f.name == "span":
                continue
            value = getattr(node, f.name)
            new = fn(value)
            if new is not value:
                changes[f.name] = new
        return replace(node, **changes) if changes else node
    return node


def map_terms(node, fn):
    """``node`` with every Entity, Class and Property replaced by ``fn(term)``; unchanged
    sub-trees are shared, not copied."""
    if isinstance(node, (Entity, Class, Property)):
        return fn(node)
    return map_children(node, lambda child: map_terms(child, fn))


def terms(node):
    """Every Entity, Class and Property under ``node``, in reading order."""
    return [n for n in walk(node) if isinstance(n, (Entity, Class, Property))]


def asks_for_values(node) -> bool:
    """Whether ``node`` holds a question word (``which``, ``what``, ``how many``): a query
    that lists or counts values rather than one that asks yes or no. (Every compile asks: the
    nodes are visited in :func:`walk`'s order, their children found as :func:`depth` finds them.)"""
    stack = [node]
    pop, extend, below_of = stack.pop, stack.extend, _BELOW
    while stack:
        current = pop()
        if isinstance(current, Quant) and current.det in ("which", "how_many"):
            return True
        below = below_of.get(type(current)) or _below(type(current))
        if below is _TUPLE:
            extend(reversed(current))
        elif below is not _NOTHING and below is not _LEAVES:
            extend(reversed(below(current)))
    return False


_KINDS = {Entity: "entity", Class: "class", Property: "property"}


def term_kind(term) -> str:
    """``entity``, ``class`` or ``property``: the kind a lexicon files a term's label under."""
    return _KINDS[type(term)]


def labelled_ids(node) -> dict:
    """(kind, label) -> ID of the terms under ``node`` that carry both (a class written with a
    property's ID, ``<P17:country>``, names no class and is left out)."""
    out: dict = {}
    for term in terms(node):
        kind = term_kind(term)
        if term.id and term.label and not (kind == "class" and term.id.startswith("P")):
            out.setdefault((kind, term.label), term.id)
    return out


def has_unlabelled_term(node) -> bool:
    """Whether a term under ``node`` has an ID but no label (so it cannot be written in the
    label notation)."""
    return any(term.id and not term.label for term in terms(node))

def depth(node) -> int:
    """How deeply ``node`` nests (a leaf is 1), counted without recursion so that any input,
    however deep, can be measured before something recursive walks it."""
    best, stack = 0, [(node, 1)]
    pop, push, below_of, shallow = stack.pop, stack.append, _BELOW, _SHALLOW
    while stack:
        current, level = pop()
        if level > best:
            best = level
        below = below_of.get(type(current)) or _below(type(current))
        if below is _NOTHING:
            continue
        level += 1
        if below is _LEAVES:  # only scalars inside: one level more, nothing to walk
            if level > best:
                best = level
            continue
        for value in current if below is _TUPLE else below(current):
            # counted, not walked: a scalar, an empty tuple, a node with nothing or only scalars
            # inside (terms: one level more); every other node is walked
            extra = shallow.get(type(value))
            if extra is None:
                if type(value) is not tuple or value:
                    push((value, level))
                    continue
                extra = 0
            if level + extra > best:
                best = level + extra
    return best


def _below(cls):
    """What :func:`depth` finds under a node of type ``cls``: nothing, scalars only, a tuple's
    items, or a function giving the node's children (one C-level ``attrgetter``); cached per type,
    as parsing measures every query's depth."""
    children = _children_of(cls)
    if cls in SCALAR_NODE_TYPES:
        below = _LEAVES
    elif children is _TUPLE:
        below = _TUPLE
    elif not children:
        below = _NOTHING
    elif len(children) == 1:
        one = attrgetter(children[0])

        def below(node):
            return (one(node),)
    else:
        below = attrgetter(*children)
    _BELOW[cls] = below
    if below is _NOTHING or below is _LEAVES:
        _SHALLOW[cls] = 0 if below is _NOTHING else 1
    return below


_ATOMS = frozenset({str, int, float, bool, type(None)})


_TUPLE = object()
_NOTHING, _LEAVES = object(), object()
_CHILD_FIELDS: dict = {}
_SCALAR = frozenset({"str", "int", "float", "bool", "None"})


def scalar_fields_only(cls) -> bool:
    """Whether every field of the IR node type ``cls`` but its span is declared a scalar
    (``str``, ``int | None``, ...): terms, literals, variables."""
    declared = [f.type for f in fields(cls) if f.name != "span"]
    return bool(declared) and all(isinstance(t, str) and {part.strip() for part in t.split("|")} <= _SCALAR
                                  for t in declared)


def _scalar_node_types() -> frozenset:
    from cnl.ir import nodes

    return frozenset(obj for obj in vars(nodes).values()
                     if isinstance(obj, type) and is_dataclass(obj) and obj.__module__ == nodes.__name__
                     and scalar_fields_only(obj))


SCALAR_NODE_TYPES = _scalar_node_types()
_BELOW: dict = dict.fromkeys(_ATOMS, _NOTHING)
# the levels a node of a type that :func:`depth` never walks adds below its parent: 0 for a
# scalar or a node with nothing inside, 1 for a node with only scalars inside (filled by _below)
_SHALLOW: dict = dict.fromkeys(_ATOMS, 0)


def _children_of(cls):
    """The field names of a dataclass type that may hold children (not its span), _TUPLE for a
    tuple, () for a leaf; cached per type: parsing measures every query's depth."""
    children = _CHILD_FIELDS.get(cls)
    if children is None:
        if issubclass(cls, tuple):
            children = _TUPLE
        elif is_dataclass(cls):
            children = tuple(f.name for f in fields(cls) if f.name != "span")
        else:
            children = ()
        _CHILD_FIELDS[cls] = children
    return children


def is_relational_phrase(np) -> bool:
    """Whether ``np`` is a relational noun phrase with its of-phrase ("a <P161> of X", "the
    <P26> of X")."""
    return isinstance(np, Quant) and isinstance(np.noun, RelNoun) and np.noun.of is not None
