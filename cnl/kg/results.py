"""The result table every backend returns, and its text / JSON / CSV renderings."""
from __future__ import annotations

import csv
import io
import json
import re
from dataclasses import dataclass, field

from cnl.sparql.namespaces import PREFIXES

IRI, LITERAL, BNODE = "iri", "literal", "bnode"
XSD = "http://www.w3.org/2001/XMLSchema#"
NUMERIC = frozenset(XSD + t for t in ("decimal", "integer", "int", "long", "short", "byte", "double", "float",
                                      "nonNegativeInteger", "positiveInteger", "negativeInteger",
                                      "nonPositiveInteger", "unsignedInt", "unsignedLong"))
INTEGERS = frozenset(t for t in NUMERIC if "nteger" in t or t.endswith(("#int", "#long", "#short", "#byte")))
WKT = "http://www.opengis.net/ont/geosparql#wktLiteral"
_POINT = re.compile(r"^\s*(?:<[^>]*>\s*)?Point\s*\(\s*([-+0-9.eE]+)\s+([-+0-9.eE]+)\s*\)\s*$", re.IGNORECASE)
_DATETIME = re.compile(r"^([-+]?\d{4,})-(\d\d)-(\d\d)(?:T(\d\d):(\d\d):(\d\d)(?:\.\d+)?)?(Z|[-+]\d\d:\d\d)?$")


def readable_literal(term: "Term") -> str:
    """A literal as a person reads it: a date as a date (``2010-07-16``, the time only when it
    is not midnight), a number as a number (``2,145,906``, ``0.023``: no ``+``; an integer, maybe
    a year, without separators below 10,000), a WKT point as latitude and longitude
    (``48.86°N, 2.35°E``); else its text."""
    value, datatype = term.value, term.datatype or ""
    if datatype in (XSD + "dateTime", XSD + "date", XSD + "dateTimeStamp"):
        match = _DATETIME.match(value.strip())
        if match:
            year, month, day, hh, mm, ss, _zone = match.groups()
            year = year.lstrip("+")
            date = f"{year}-{month}-{day}"
            return date if hh is None or (hh, mm, ss) == ("00", "00", "00") else f"{date} {hh}:{mm}:{ss}"
    elif datatype in NUMERIC:
        # an integer may be a year (YEAR(?date) is one): no separator below 10,000; a Wikidata
        # quantity is a decimal: 1,000
        return readable_number(value, 10_000 if datatype in INTEGERS else 1_000)
    elif datatype == WKT:
        match = _POINT.match(value)
        if match:
            try:
                longitude, latitude = float(match.group(1)), float(match.group(2))
            except ValueError:
                return value
            return (f"{abs(latitude):.6g}°{'N' if latitude >= 0 else 'S'}, "
                    f"{abs(longitude):.6g}°{'E' if longitude >= 0 else 'W'}")
    return value


def readable_number(text: str, separators_from: int = 1_000) -> str:
    """``+2145906`` → ``2,145,906``, ``+0.023`` → ``0.023``, ``1.5E3`` → ``1,500``, with thousands
    separators from ``separators_from`` on; text that is no number stays as it is."""
    from decimal import Decimal, InvalidOperation

    try:
        number = Decimal(text.strip())
    except InvalidOperation:
        return text
    if not number.is_finite():
        return text
    if number == number.to_integral_value():
        whole = int(number)
        return f"{whole:,}" if abs(whole) >= separators_from else str(whole)
    plain = format(number.normalize(), "f")
    head, _, tail = plain.partition(".")
    if abs(int(head or "0")) >= separators_from:
        head = f"{int(head):,}"
    return f"{head}.{tail}"


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
    ``truncated`` says the row cap cut the result; ``headers`` names columns for a person where
    the variable's name says less (``ask`` heads ``?answer`` by the question's noun).
    """

    columns: list[str]
    rows: list[tuple[Term | None, ...]]
    labels: dict[str, str] = field(default_factory=dict)
    truncated: bool = False
    headers: dict[str, str] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.rows)

    def iris(self) -> set[str]:
        return {t.value for row in self.rows for t in row if t is not None and t.is_iri}

    def values(self) -> list[tuple[str | None, ...]]:
        """Rows as plain strings (IRIs and lexical forms), handy for comparing results."""
        return [tuple(None if t is None else t.value for t in row) for row in self.rows]

    def display(self, term: Term | None, ambiguous: frozenset = frozenset()) -> str:
        """What a person reads for a cell: an IRI's label (its ID only where the KG has no
        label, or beside a label that names several IRIs of the table), a literal's
        :func:`readable_literal`."""
        if term is None:
            return ""
        if term.is_iri:
            short = compact_iri(term.value)
            label = self.labels.get(term.value)
            if not label:
                return short
            return f"{label} ({short})" if label in ambiguous else label
        if term.kind == LITERAL:
            return readable_literal(term)
        return term.value

    def shared_labels(self) -> frozenset:
        """Labels that name more than one IRI in this table (shown with their IDs)."""
        named: dict[str, set[str]] = {}
        for row in self.rows:
            for term in row:
                if term is not None and term.is_iri and term.value in self.labels:
                    named.setdefault(self.labels[term.value], set()).add(term.value)
        return frozenset(label for label, iris in named.items() if len(iris) > 1)

    def to_text(self) -> str:
        """The table a person reads: headers in words (``box office``, from ``?box_office``),
        cells by :meth:`display`, and a footer with the row count."""
        ambiguous = self.shared_labels()
        cells = [[self.display(t, ambiguous) for t in row] for row in self.rows]
        headers = [self.headers.get(column) or column.replace("_", " ") for column in self.columns]
        widths = [max([len(c)] + [len(r[i]) for r in cells]) for i, c in enumerate(headers)]
        line = lambda vals: " | ".join(v.ljust(w) for v, w in zip(vals, widths)).rstrip()
        out = [line(headers), "-+-".join("-" * w for w in widths)] + [line(r) for r in cells]
        footer = f"({len(self.rows)} row{'s' if len(self.rows) != 1 else ''}"
        out.append(footer + (", truncated by the row cap)" if self.truncated else ")"))
        return "\n".join(out)

    def to_json(self) -> str:
        """SPARQL 1.1 JSON results (the IDs and values, machine-readable), plus a ``label`` where
        a person reads something else: an IRI's label, a date as a date, a number as a number."""
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
                    elif term.kind == LITERAL and readable_literal(term) != term.value:
                        b[col]["label"] = readable_literal(term)
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
