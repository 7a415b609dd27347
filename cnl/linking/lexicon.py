"""Lexicon: resolves the labels of label-based CNL to IDs.

Sources: a JSON or TSV lexicon file, an RDF file's ``rdfs:label``/``skos:altLabel`` (N-Triples or
Turtle, gzip too), or pairs added in code. IDs written in the text (``<Q42>``) never reach the
lexicon. A label resolves to exactly one ID or raises :class:`cnl.errors.LexiconError` naming the
label, its position and the closest known labels — never a silently wrong IRI. When a label is
the primary label (``rdfs:label``) of exactly one item and only an alias of others, the primary
one wins; any other tie is reported as ambiguous.
"""
from __future__ import annotations

import csv
import gzip
import json
import re
from collections import defaultdict
from pathlib import Path

from cnl.errors import DataError, LexiconError
from cnl.sparql.namespaces import RDFS_LABEL, SCHEMA_DESCRIPTION, WD as WD_ENTITY
from cnl.sparql.namespaces import SKOS_ALT_LABEL as SKOS_ALT


_SPACES = re.compile(r"\s+")
_WIKIDATA_ID = re.compile(r"^[PQ][1-9][0-9]*$")


def normalize_label(label: str) -> str:
    """Case-folded, underscores as spaces, single spaces: the key labels are matched on."""
    return _SPACES.sub(" ", label.replace("_", " ")).strip().casefold()


def _group(kind: str) -> str:
    return "property" if kind == "property" else "item"


def _kind_of(ident: str) -> str:
    return "property" if re.match(r"^\^?P[0-9]+$", ident) else "item"


class Lexicon:
    """Labels -> IDs, separately for items (entities, classes) and properties."""

    def __init__(self) -> None:
        # group -> normalized label -> {id: primary?}
        self._index: dict[str, dict[str, dict[str, bool]]] = {"item": defaultdict(dict), "property": defaultdict(dict)}
        self._names: dict[str, str] = {}          # id -> primary label
        self.descriptions: dict[str, str] = {}

    # ---------------------------------------------------------------- building
    def add(self, label: str, ident: str, *, kind: str | None = None, primary: bool = True,
            description: str | None = None) -> None:
        if not label or not ident:
            return
        key = normalize_label(label)
        if kind:
            groups = [_group(kind)]
        elif re.match(r"^(\^?P|Q)[0-9]+$", ident):
            groups = [_kind_of(ident)]
        else:  # an IRI without a stated kind may name an item or a property
            groups = ["item", "property"]
        for group in groups:
            entries = self._index[group][key]
            entries[ident] = entries.get(ident, False) or primary
        if primary and ident not in self._names:
            self._names[ident] = label
        if description:
            self.descriptions.setdefault(ident, description)

    def update(self, other: "Lexicon") -> "Lexicon":
        for group, index in other._index.items():
            for key, ids in index.items():
                mine = self._index[group][key]
                for ident, primary in ids.items():
                    mine[ident] = mine.get(ident, False) or primary
        for ident, name in other._names.items():
            self._names.setdefault(ident, name)
        for ident, text in other.descriptions.items():
            self.descriptions.setdefault(ident, text)
        return self

    def __len__(self) -> int:
        return sum(len(index) for index in self._index.values())

    def labels(self, kind: str = "item") -> list[str]:
        return list(self._index[_group(kind)])

    def name(self, ident: str) -> str | None:
        return self._names.get(ident)

    # ---------------------------------------------------------------- resolving
    def lookup(self, label: str, kind: str = "entity") -> list[str]:
        """Every ID the label may mean (primary-label matches first)."""
        entries = self._index[_group(kind)].get(normalize_label(label), {})
        return sorted(entries, key=lambda i: (not entries[i], _id_order(i)))

    def resolve(self, label: str, kind: str = "entity", span: tuple[int, int] | None = None) -> str:
        if label is None:
            raise LexiconError(f"a {kind} has neither an ID nor a label", label="", kind=kind)
        position = span[0] if span else None
        entries = self._index[_group(kind)].get(normalize_label(label))
        if not entries:
            raise LexiconError(
                f"unknown {kind} label {label!r}", label=label, kind=kind, position=position,
                suggestions=self.closest(label, kind),
            )
        if len(entries) == 1:
            return next(iter(entries))
        primary = [i for i, is_primary in entries.items() if is_primary]
        if len(primary) == 1:
            return primary[0]
        options = sorted(primary or entries, key=_id_order)
        shown = tuple(self._describe(i) for i in options[:8])
        if len(options) > 8:
            shown += (f"… {len(options) - 8} more",)
        raise LexiconError(
            f"ambiguous {kind} label {label!r}: write it by ID (<Q…>) or use a more specific label",
            label=label, kind=kind, position=position, candidates=shown,
        )

    def _describe(self, ident: str) -> str:
        text = self.descriptions.get(ident)
        return f"{ident} ({text})" if text else ident

    def closest(self, label: str, kind: str = "entity", limit: int = 3) -> tuple[str, ...]:
        from rapidfuzz import fuzz, process

        keys = self._index[_group(kind)]
        if not keys:
            return ()
        found = process.extract(normalize_label(label), list(keys), scorer=fuzz.WRatio, limit=limit, score_cutoff=60)
        out = []
        for key, _score, _ in found:
            ids = keys[key]
            ident = next(iter(sorted(ids, key=lambda i: (not ids[i], _id_order(i)))))
            out.append(self._names.get(ident, key))
        return tuple(dict.fromkeys(out))

    # ---------------------------------------------------------------- files
    @classmethod
    def from_pairs(cls, pairs, kind: str | None = None) -> "Lexicon":
        lex = cls()
        for label, ident in pairs:
            lex.add(label, ident, kind=kind)
        return lex

    @classmethod
    def from_json(cls, path: str | Path) -> "Lexicon":
        """``{"label": "Q1"}``, ``{"label": ["Q1", "Q2"]}``, or ``{"entities": {...}, "properties": {...}}``."""
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as err:
            raise DataError(f"cannot read lexicon {path}: {err}") from None
        if not isinstance(data, dict):
            raise DataError(f"lexicon {path} must be a JSON object of label -> ID")
        lex = cls()
        sections = [(data.get("entities", {}), None), (data.get("properties", {}), "property")] \
            if ("entities" in data or "properties" in data) else [(data, None)]
        for section, kind in sections:
            for label, value in section.items():
                for ident in value if isinstance(value, list) else [value]:
                    if not isinstance(ident, str):
                        raise DataError(f"lexicon {path}: the ID of {label!r} must be a string")
                    lex.add(label, ident, kind=kind)
        return lex

    @classmethod
    def from_tsv(cls, path: str | Path) -> "Lexicon":
        """``label<TAB>ID`` lines, with an optional third column ``property``/``entity``."""
        lex = cls()
        try:
            with open(path, encoding="utf-8", newline="") as handle:
                for n, row in enumerate(csv.reader(handle, delimiter="\t"), 1):
                    if not row or row[0].startswith("#"):
                        continue
                    if len(row) < 2:
                        raise DataError(f"{path}:{n}: expected label<TAB>ID")
                    lex.add(row[0], row[1].strip(), kind=row[2].strip() if len(row) > 2 else None)
        except OSError as err:
            raise DataError(f"cannot read lexicon {path}: {err}") from None
        return lex

    @classmethod
    def from_rdf(cls, path: str | Path, language: str | None = "en") -> "Lexicon":
        """Labels (``rdfs:label``), aliases (``skos:altLabel``) and descriptions of an RDF file.

        Wikidata entity IRIs become their IDs (``Q42``, ``P57``); other IRIs stay IRIs."""
        import pyoxigraph

        path = Path(path)
        name = path.name.lower()
        if name.endswith(".gz"):
            name = name[:-3]
        fmt = pyoxigraph.RdfFormat.TURTLE if name.endswith((".ttl", ".turtle")) else pyoxigraph.RdfFormat.N_TRIPLES
        wanted = {RDFS_LABEL: True, SKOS_ALT: False}
        lex = cls()
        opener = gzip.open if path.name.lower().endswith(".gz") else open
        try:
            with opener(path, "rb") as handle:
                for quad in pyoxigraph.parse(handle, format=fmt):
                    pred = quad.predicate.value
                    if pred not in wanted and pred != SCHEMA_DESCRIPTION:
                        continue
                    obj = quad.object
                    if not isinstance(obj, pyoxigraph.Literal):
                        continue
                    if language and obj.language not in (None, language):
                        continue
                    subject = quad.subject.value
                    ident = subject[len(WD_ENTITY):] if subject.startswith(WD_ENTITY) else subject
                    if pred == SCHEMA_DESCRIPTION:
                        lex.descriptions.setdefault(ident, obj.value)
                        continue
                    kind = "property" if _kind_of(ident) == "property" else None
                    lex.add(obj.value, ident, kind=kind, primary=wanted[pred])
        except OSError as err:
            raise DataError(f"cannot read RDF file {path}: {err}") from None
        except SyntaxError as err:
            raise DataError(f"{path} is not valid RDF: {err}") from None
        return lex

    @classmethod
    def from_file(cls, path: str | Path) -> "Lexicon":
        """Pick the reader by extension: .json, .tsv/.tab, or RDF (.nt, .ttl, optionally .gz)."""
        path = Path(path)
        if not path.exists():
            raise DataError(f"lexicon file not found: {path}")
        name = path.name.lower()
        if name.endswith(".json"):
            return cls.from_json(path)
        if name.endswith((".tsv", ".tab")):
            return cls.from_tsv(path)
        if name.endswith((".nt", ".nt.gz", ".ttl", ".ttl.gz", ".turtle")):
            return cls.from_rdf(path)
        raise DataError(f"unknown lexicon format {path.name}: use .json, .tsv, .nt or .ttl (optionally .gz)")

    def to_json(self, path: str | Path) -> None:
        out: dict[str, dict[str, list[str]]] = {"entities": {}, "properties": {}}
        for group, section in (("item", "entities"), ("property", "properties")):
            for key, ids in sorted(self._index[group].items()):
                label = next((self._names[i] for i in ids if normalize_label(self._names.get(i, "")) == key), key)
                out[section][label] = sorted(ids, key=_id_order)
        Path(path).write_text(json.dumps(out, ensure_ascii=False, indent=1), encoding="utf-8")


def _id_order(ident: str):
    match = re.match(r"^([PQ])([0-9]+)$", ident)
    return (0, ident[0], int(match.group(2))) if match else (1, ident, 0)


def as_lexicon(value) -> Lexicon | None:
    """Accept a Lexicon, a path, a dict label -> ID, or None."""
    if value is None or isinstance(value, Lexicon):
        return value
    if isinstance(value, (str, Path)):
        return Lexicon.from_file(value)
    if isinstance(value, dict):
        lex = Lexicon()
        for label, ident in value.items():
            for i in ident if isinstance(ident, list) else [ident]:
                lex.add(label, i)
        return lex
    if hasattr(value, "resolve"):
        return value
    raise TypeError(f"lexicon must be a Lexicon, a path or a dict, not {type(value).__name__}")
