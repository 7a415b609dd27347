"""The IR as JSON (``cnl2sparql compile --format ir-json``, training records, caches)."""
from __future__ import annotations

from dataclasses import fields, is_dataclass

from cnl.ir.nodes import NODE_TYPES


def to_json(node):
    """A JSON-able dict of an IR node (``{"type": ..., fields...}``)."""
    if is_dataclass(node):
        out = {"type": type(node).__name__}
        for f in fields(node):
            if f.name == "span":
                continue
            value = getattr(node, f.name)
            if f.name == "dialect" or value == f.default:
                continue
            out[f.name] = to_json(value)
        return out
    if isinstance(node, tuple):
        return [to_json(item) for item in node]
    return node


def from_json(data):
    """The inverse of :func:`to_json`."""
    if isinstance(data, list):
        return tuple(from_json(item) for item in data)
    if isinstance(data, dict):
        cls = NODE_TYPES[data["type"]]
        kwargs = {k: from_json(v) for k, v in data.items() if k != "type"}
        return cls(**kwargs)
    return data
