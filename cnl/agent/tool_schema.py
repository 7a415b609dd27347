"""Tool definitions: the ``@tool`` marker, the result type, and the OpenAI schema built from a
method's signature and docstring (so the schema and the code cannot drift apart)."""
from __future__ import annotations

import inspect
import re
import types
import typing
from dataclasses import dataclass, field, fields

SPARQL_MODE, CNL_MODE, ALL_MODE = "sparql", "cnl", "all"
MODES = (SPARQL_MODE, CNL_MODE, ALL_MODE)


@dataclass
class ToolResult:
    """What a tool call returns: text for the model, plus the final query when it ends a run."""

    tool: str
    ok: bool
    text: str
    final: bool = False            # answer/cancel: the agent loop stops
    status: str | None = None      # "answered" or "cancelled" for final results
    sparql: str | None = None
    cnl: str | None = None
    answer: str | None = None
    # the error behind a failed call (not shown to the model; a server maps it to a status)
    error: Exception | None = field(default=None, repr=False, compare=False)

    def to_json(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self)
                if f.name != "error" and getattr(self, f.name) is not None}


def tool(name: str | None = None, *, modes: tuple[str, ...] = (SPARQL_MODE, CNL_MODE, ALL_MODE)):
    """Mark a Toolbox method as a tool exposed as ``name`` (default: the method name) in ``modes``."""
    def mark(func):
        func.cnl_tool = (name or func.__name__, modes)
        return func
    return mark


# --- schema generation ----------------------------------------------------------------------

_JSON_TYPES = {str: "string", int: "integer", float: "number", bool: "boolean"}


def _json_type(annotation) -> tuple[str, bool]:
    """(JSON type, optional?) of a parameter annotation such as ``str`` or ``str | None``."""
    optional = False
    if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) is typing.Union:
        members = [a for a in typing.get_args(annotation) if a is not type(None)]
        optional = len(members) < len(typing.get_args(annotation))
        annotation = members[0]
    if annotation not in _JSON_TYPES:
        raise TypeError(f"tool parameters must be str, int, float or bool, not {annotation!r}")
    return _JSON_TYPES[annotation], optional


def _parse_docstring(doc: str) -> tuple[str, dict[str, str]]:
    """The description (text before ``Args:``) and each argument's description."""
    doc = inspect.cleandoc(doc or "")
    head, _, args = doc.partition("\nArgs:\n")
    described: dict[str, str] = {}
    current = None
    for line in args.splitlines():
        match = re.match(r"^\s{0,8}(\w+):\s*(.*)$", line)
        if match and match.group(1) not in described:
            current = match.group(1)
            described[current] = match.group(2).strip()
        elif current and line.strip():
            described[current] += " " + line.strip()
    return " ".join(head.split()), described


def tool_schema(func, name: str | None = None) -> dict:
    """The OpenAI tool definition of a typed function (``self`` is skipped)."""
    hints = typing.get_type_hints(func)
    description, arg_docs = _parse_docstring(func.__doc__)
    properties, required = {}, []
    for param in inspect.signature(func).parameters.values():
        if param.name == "self":
            continue
        json_type, optional = _json_type(hints[param.name])
        prop = {"type": json_type}
        if param.name in arg_docs:
            prop["description"] = arg_docs[param.name]
        if param.default is not inspect.Parameter.empty and param.default is not None:
            prop["default"] = param.default
        properties[param.name] = prop
        if param.default is inspect.Parameter.empty and not optional:
            required.append(param.name)
    return {"type": "function", "function": {
        "name": name or func.__name__, "description": description,
        "parameters": {"type": "object", "properties": properties, "required": required,
                       "additionalProperties": False}}}
