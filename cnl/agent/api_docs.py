"""The HTTP API's documentation page (``GET /docs``), rendered on the server from its OpenAPI
schema: plain HTML and inline CSS, no script and nothing fetched from elsewhere, so it reads the
same offline (FastAPI's own page loads Swagger UI from a CDN). ``/openapi.json`` stays the
machine-readable description."""
from __future__ import annotations

from html import escape

# the page needs no script, no image and no other origin; inline styles only
CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"

_STYLE = """body{font:15px/1.45 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
h2{margin-top:2rem;border-bottom:1px solid #ccc}code,pre{font-family:ui-monospace,monospace;font-size:13px}
.method{display:inline-block;min-width:3.5rem;font-weight:bold;color:#fff;background:#555;padding:0 .4rem;
border-radius:3px;text-align:center}.get{background:#2b6cb0}.post{background:#2f855a}
table{border-collapse:collapse;margin:.5rem 0}td,th{border:1px solid #ddd;padding:.2rem .5rem;text-align:left;
vertical-align:top}th{background:#f4f4f4}"""


def _type(schema: dict, components: dict) -> str:
    """A short readable type: ``string``, ``integer | null``, ``CompileRequest``, ``array of string``."""
    if not schema:
        return "any"
    if "$ref" in schema:
        return schema["$ref"].rsplit("/", 1)[-1]
    if "anyOf" in schema:
        return " | ".join(_type(s, components) for s in schema["anyOf"])
    kind = schema.get("type", "object")
    if kind == "array":
        return f"array of {_type(schema.get('items', {}), components)}"
    return str(kind)


def _fields(schema: dict, components: dict) -> str:
    """A table of an object schema's fields (a ``$ref`` resolved)."""
    if "$ref" in schema:
        schema = components.get(schema["$ref"].rsplit("/", 1)[-1], {})
    properties = schema.get("properties") or {}
    if not properties:
        return f"<p>{escape(_type(schema, components))}</p>"
    required = set(schema.get("required") or ())
    rows = []
    for name, spec in properties.items():
        default = f" (default <code>{escape(repr(spec['default']))}</code>)" if "default" in spec else ""
        rows.append(f"<tr><td><code>{escape(name)}</code>{' *' if name in required else ''}</td>"
                    f"<td>{escape(_type(spec, components))}</td>"
                    f"<td>{escape(spec.get('description', ''))}{default}</td></tr>")
    return "<table><tr><th>field (* required)</th><th>type</th><th>meaning</th></tr>" + "".join(rows) + "</table>"


def openapi_html(schema: dict) -> str:
    """The whole page for an OpenAPI 3 ``schema``."""
    info = schema.get("info", {})
    components = schema.get("components", {}).get("schemas", {})
    parts = [f"<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{escape(info.get('title', 'API'))}"
             f" API</title><style>{_STYLE}</style></head><body>",
             f"<h1>{escape(info.get('title', 'API'))} {escape(info.get('version', ''))}</h1>",
             f"<p>{escape(info.get('description', ''))}</p>",
             "<p>The machine-readable description: <a href=\"openapi.json\"><code>/openapi.json</code></a>. "
             "Every error is a JSON object <code>{\"error\": {\"type\", \"message\", \"status\"}}</code>.</p>"]
    for path, methods in schema.get("paths", {}).items():
        for method, op in methods.items():
            parts.append(f"<h2><span class=\"method {escape(method)}\">{escape(method.upper())}</span> "
                         f"<code>{escape(path)}</code></h2>")
            if op.get("summary"):
                parts.append(f"<p><b>{escape(op['summary'])}</b></p>")
            if op.get("description"):
                parts.append(f"<pre>{escape(op['description'])}</pre>")
            params = op.get("parameters") or []
            if params:
                rows = "".join(
                    f"<tr><td><code>{escape(p['name'])}</code>{' *' if p.get('required') else ''}</td>"
                    f"<td>{escape(p.get('in', ''))}</td><td>{escape(_type(p.get('schema', {}), components))}</td>"
                    f"<td>{escape(p.get('description', ''))}</td></tr>" for p in params)
                parts.append("<table><tr><th>parameter (* required)</th><th>in</th><th>type</th><th>meaning</th></tr>"
                             + rows + "</table>")
            body = (op.get("requestBody") or {}).get("content", {}).get("application/json", {}).get("schema")
            if body is not None:
                parts.append("<p>JSON body:</p>" + _fields(body, components))
            codes = ", ".join(f"{escape(code)} {escape(r.get('description', ''))}"
                              for code, r in (op.get("responses") or {}).items())
            if codes:
                parts.append(f"<p>Responses: {codes}.</p>")
    parts.append("</body></html>")
    return "\n".join(parts)


__all__ = ["openapi_html", "CONTENT_SECURITY_POLICY"]
