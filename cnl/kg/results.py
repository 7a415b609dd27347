"""The result table every backend returns, and its text / JSON / CSV renderings."""
from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field

from cnl.sparql.namespaces import PREFIXES

IRI, LITERAL, BNODE = "iri", "literal", "bnode"


@dataclass(frozen=True)
class Term:
    """One RDF term: an IRI, a literal (with language or datatype) or a blank node."""

    kind: str
    value: str
    lang: str | None = None
    datatype: str | None = None

    @property
    def is_iri(self) -> bool:
        return self.kind == IRI

    def __str__(self) -> str:
        return self.value

    def n3(self) -> str:
        if self.kind == IRI:
            return f"<{self.value}>"
        if self.kind == BNODE:
            return f"_:{self.value}"
        text = json.dumps(self.value, ensure_ascii=False)
        if self.lang:
            return f"{text}@{self.lang}"
        if self.datatype and self.datatype != "http://www.w3.org/2001/XMLSchema#string":
            return f"{text}^^<{self.datatype}>"
        return text

    def to_json(self) -> dict:
        out = {"type": "uri" if self.kind == IRI else self.kind, "value": self.value}
        if self.lang:
            out["xml:lang"] = self.lang
        elif self.datatype:
            out["datatype"] = self.datatype
        return out

    @classmethod
    def from_sparql_json(cls, binding: dict) -> "Term":
        kind = {"uri": IRI, "bnode": BNODE}.get(binding["type"], LITERAL)
        return cls(kind, binding["value"], binding.get("xml:lang"), binding.get("datatype"))


def compact_iri(iri: str, prefixes: dict[str, str] = PREFIXES) -> str:
    """`wd:Q25191` for a Wikidata IRI; the IRI in angle brackets when no prefix fits."""
    for name, base in prefixes.items():
        local = iri[len(base):]
        if iri.startswith(base) and local and all(c.isalnum() or c in "_-" for c in local):
            return f"{name}:{local}"
    return f"<{iri}>"


@dataclass
class ResultTable:
    """Columns and rows of a SELECT result; ``None`` is an unbound cell.

    ``labels`` maps IRIs to English labels (filled by :meth:`KnowledgeGraph.add_labels`);
    ``truncated`` says the row cap cut the result.
    """

    columns: list[str]
    rows: list[tuple[Term | None, ...]]
    labels: dict[str, str] = field(default_factory=dict)
    truncated: bool = False

    def __len__(self) -> int:
        return len(self.rows)

    def iris(self) -> set[str]:
        return {t.value for row in self.rows for t in row if t is not None and t.is_iri}

    def values(self) -> list[tuple[str | None, ...]]:
        """Rows as plain strings (IRIs and lexical forms), handy for comparing results."""
        return [tuple(None if t is None else t.value for t in row) for row in self.rows]

    def display(self, term: Term | None) -> str:
        if term is None:
            return ""
        if term.is_iri:
            short = compact_iri(term.value)
            label = self.labels.get(term.value)
            return f"{label} ({short})" if label else short
        return term.value

    def to_text(self) -> str:
        cells = [[self.display(t) for t in row] for row in self.rows]
        widths = [max([len(c)] + [len(r[i]) for r in cells]) for i, c in enumerate(self.columns)]
        line = lambda vals: " | ".join(v.ljust(w) for v, w in zip(vals, widths)).rstrip()
        out = [line(self.columns), "-+-".join("-" * w for w in widths)] + [line(r) for r in cells]
        footer = f"({len(self.rows)} row{'s' if len(self.rows) != 1 else ''}"
        out.append(footer + (", truncated by the row cap)" if self.truncated else ")"))
        return "\n".join(out)

    def to_json(self) -> str:
        """SPARQL 1.1 JSON results, plus a ``label`` on IRIs that have one."""
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=2)

    def to_dict(self) -> dict:
        """:meth:`to_json`'s document, not yet encoded."""
        bindings = []
        for row in self.rows:
            b = {}
            for col, term in zip(self.columns, row):
                if term is not None:
                    b[col] = term.to_json()
                    if term.is_iri and term.value in self.labels:
                        b[col]["label"] = self.labels[term.value]
            bindings.append(b)
        doc = {"head": {"vars": self.columns}, "results": {"bindings": bindings}}
        if self.truncated:
            doc["truncated"] = True
        return doc

    def to_csv(self) -> str:
        """One column per variable, plus ``<var>Label`` columns when labels were looked up."""
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        labelled = [c for i, c in enumerate(self.columns)
                    if any(r[i] is not None and r[i].value in self.labels for r in self.rows)]
        writer.writerow(self.columns + [f"{c}Label" for c in labelled])
        for row in self.rows:
            vals = ["" if t is None else t.value for t in row]
            by_col = dict(zip(self.columns, row))
            vals += [self.labels.get(by_col[c].value, "") if by_col[c] is not None else "" for c in labelled]
            writer.writerow(vals)
        return buf.getvalue()

    def render(self, fmt: str = "table") -> str:
        if fmt == "json":
            return self.to_json()
        if fmt == "csv":
            return self.to_csv()
        return self.to_text()
