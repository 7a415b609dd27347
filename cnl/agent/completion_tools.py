"""The completion tool: what may be written at a cursor of a CNL query, for agents in CNL mode.

The same call as the playground's ``POST /complete`` (:func:`cnl.agent.playground.completer_for`):
the grammar's words at the cursor and the KG's terms for it, properties around the query's
entities first. A mixin of :class:`cnl.agent.toolbox.ToolboxBase`, one of
:class:`cnl.agent.tools.Toolbox`'s bases.
"""
from __future__ import annotations

from cnl.agent.tool_schema import ALL_MODE, CNL_MODE, ToolResult, tool
from cnl.agent.toolbox import ToolboxBase
from cnl.errors import ToolCallError

MAX_SHOWN = 15  # per kind of suggestion


def completions_text(text: str, result) -> str:
    """A model-readable account of :class:`cnl.linking.completion.Completions` for ``text``."""
    where = (f"at character {result.start}" if result.start == result.end
             else f"at characters {result.start}-{result.end} (replacing {text[result.start:result.end]!r})")
    if not result.parses:
        lines = [f"{where}: the text before this point does not parse; fix it first (execute_cnl shows the error)"]
    else:
        lines = [f"{where} the grammar accepts:"]
    by_kind: dict[str, list] = {}
    for item in result.items:
        by_kind.setdefault(item.kind, []).append(item)
    for kind, title in (("property", "properties"), ("entity", "entities and classes"), ("keyword", "words")):
        items = by_kind.get(kind, [])
        if not items:
            continue
        shown = [item.insert if kind == "keyword" else f"{item.insert} ({item.detail or item.id})"
                 for item in items[:MAX_SHOWN]]
        more = f", … {len(items) - MAX_SHOWN} more" if len(items) > MAX_SHOWN else ""
        lines.append(f"{title}: " + ", ".join(shown) + more)
    if result.hints:
        lines.append("values: " + ", ".join(result.hints))
    if result.may_end:
        lines.append("the query is complete before this point: it may end here with \"?\"")
    if len(lines) == 1 and result.parses:
        lines.append("nothing: the query cannot go on here")
    return "\n".join(lines)


class CompletionTools(ToolboxBase):
    """Tools that help write CNL: ``complete_cnl`` (CNL mode)."""

    @tool(modes=(CNL_MODE, ALL_MODE))
    def complete_cnl(self, cnl: str, cursor: int | None = None, question: str | None = None) -> ToolResult:
        """List what may be written at a position of a SQUALL CNL query: the grammar's next words
        and, where a term may stand, properties (those the knowledge graph has around the query's
        entities first) and entities with their IDs, each as the exact text to insert.

        Args:
            cnl: the CNL written so far, e.g. "which [film] has "
            cursor: the character offset to complete at (default: the end of the text)
            question: the question the query answers; properties it names are listed first
        """
        from cnl.agent.playground import completer_for

        if cursor is not None and not 0 <= cursor <= len(cnl):
            raise ToolCallError(f"cursor must be between 0 and {len(cnl)} (the text's length), not {cursor}")
        result = completer_for(self).complete(cnl, cursor, limit=60, question=question)
        # IDs a completion showed count as known (know-before-use): the model saw them
        self.remember_iris(item.id for item in result.items if item.id)
        return ToolResult("complete_cnl", True, completions_text(cnl, result), cnl=cnl)


__all__ = ["CompletionTools", "completions_text"]
