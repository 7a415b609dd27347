"""Group patterns: the ``{ ... }`` blocks a compiled query is written into, as text.

Every construct of the compiler (statements, negations, unions, sub-queries) fills the group it is
in; this is the one place that decides how a group's lines are ordered and indented, apart from
what goes into them."""
from __future__ import annotations


class Group:
    """One ``{ ... }`` group pattern; BINDs and FILTERs go last so their inputs are bound."""

    __slots__ = ("triples", "blocks", "binds", "filters", "hidden")

    def __init__(self, hidden: bool):
        self.triples: list[str] = []
        self.blocks: list[list[str]] = []
        self.binds: list[str] = []
        self.filters: list[str] = []
        self.hidden = hidden

    def lines(self) -> list[str]:
        out = list(self.triples)
        for block in self.blocks:
            out.extend(block)
        out.extend(self.binds)
        out.extend(self.filters)
        return out

    def empty(self) -> bool:
        return not (self.triples or self.blocks or self.binds or self.filters)


def indent(lines: list[str]) -> list[str]:
    return ["  " + part for line in lines for part in line.split("\n")]


def not_exists(group: Group) -> str:
    inner = group.lines()
    return "FILTER NOT EXISTS {\n" + "\n".join(indent(inner)) + "\n}"
