"""Loader and gold-SPARQL normalizer for the ECAI-2023 CNL_KGQA data (``cnl_kgqa/``).

Each split file holds three lists (SQUALL, Sparklis, SPARQL) of ``{prompt, completion}``
written in different orders; they are aligned here by the question in the prompt. The SPARQL
completions are squall2sparql's intermediate output and need :func:`normalize_gold_sparql`
before any SPARQL engine accepts them.
"""
from __future__ import annotations

import ast
import json
import re
import unicodedata
from collections import defaultdict, deque
from dataclasses import dataclass
from pathlib import Path

from cnl.sparql.namespaces import declarations
from cnl.datasets.paths import data_dir as default_data_dir
from cnl.errors import DataError

SPLITS = ("train", "test")


@dataclass(frozen=True)
class Candidate:
    """One ReFinED entity candidate listed in a prompt."""

    id: str
    label: str
    description: str
    probability: float


@dataclass(frozen=True)
class EcaiRecord:
    """One question with its three targets (None where the data has no partner)."""

    split: str
    index: int  # position in the split's SQUALL list
    question: str
    squall: str
    sparklis: str | None
    sparql_raw: str | None
    candidates: tuple[Candidate, ...]


# ---------------------------------------------------------------------------------------
# prompt parsing

_QUESTION_RE = re.compile(r"Question:\s*(.*?)\s*\n")
_ENTITIES_RE = re.compile(r"Entities:\s*(\[.*\])", re.S)
# Fallback for entity lists that are not valid Python literals (an unescaped quote inside a
# description, e.g. 'the Earth's surface'): match each dict by its fixed key order.
_ENTITY_DICT_RE = re.compile(
    r"\{\s*'ID':\s*'(?P<id>[^']*)',\s*'Label':\s*(?P<label>.*?),\s*"
    r"'Description':\s*(?P<desc>.*?),\s*'Probability':\s*(?P<prob>[-+0-9.eE]+)\s*\}",
    re.S,
)


def parse_question(prompt: str) -> str:
    match = _QUESTION_RE.search(prompt)
    if match is None:
        raise DataError(f"prompt has no 'Question:' line: {prompt[:80]!r}")
    return match.group(1).strip()


def _unquote(text: str) -> str:
    text = text.strip()
    try:
        value = ast.literal_eval(text)
        if isinstance(value, str):
            return value
    except (ValueError, SyntaxError):
        pass
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    return text


def parse_candidates(prompt: str) -> tuple[Candidate, ...]:
    """The entity candidates of a prompt; tolerant of broken quoting in descriptions."""
    match = _ENTITIES_RE.search(prompt)
    if match is None:
        return ()
    text = match.group(1)
    try:
        items = ast.literal_eval(text)
        return tuple(
            Candidate(
                id=str(item.get("ID", "")),
                label=str(item.get("Label", "") or ""),
                description=str(item.get("Description", "") or ""),
                probability=float(item.get("Probability", 0.0) or 0.0),
            )
            for item in items
        )
    except (ValueError, SyntaxError, TypeError, AttributeError):
        return tuple(
            Candidate(m["id"], _unquote(m["label"]), _unquote(m["desc"]), float(m["prob"]))
            for m in _ENTITY_DICT_RE.finditer(text)
        )


def _loose_key(question: str) -> str:
    """Question text with punctuation, case and accents removed (for near-duplicates such as
    "The Chordettes Mr. Sandman" vs "The Chordettes' Mr. Sandman")."""
    text = unicodedata.normalize("NFKD", question).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "", text.lower())


def _align(questions: list[str], others: list[tuple[str, str]]) -> list[str | None]:
    """For each question, the completion of its partner in ``others`` (None if none).

    Occurrences of the same question are paired in order; leftovers are then paired on a
    punctuation-insensitive key.
    """
    exact: dict[str, deque[int]] = defaultdict(deque)
    for i, (q, _) in enumerate(others):
        exact[q].append(i)
    used: set[int] = set()
    result: list[str | None] = [None] * len(questions)
    for qi, q in enumerate(questions):
        if exact[q]:
            oi = exact[q].popleft()
            used.add(oi)
            result[qi] = others[oi][1]
    loose: dict[str, deque[int]] = defaultdict(deque)
    for i, (q, _) in enumerate(others):
        if i not in used:
            loose[_loose_key(q)].append(i)
    for qi, q in enumerate(questions):
        if result[qi] is None and loose[_loose_key(q)]:
            result[qi] = others[loose[_loose_key(q)].popleft()][1]
    return result


def load_ecai(split: str, data_dir: str | Path | None = None) -> list[EcaiRecord]:
    """The records of one split, one per SQUALL completion, in SQUALL order."""
    if split not in SPLITS:
        raise DataError(f"unknown ECAI split {split!r}: expected one of {', '.join(SPLITS)}")
    base = Path(data_dir) if data_dir is not None else default_data_dir()
    path = base / "cnl_kgqa" / f"{split}.json"
    if not path.exists():
        raise DataError(f"data file not found: {path}")
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise DataError(f"{path} is not valid JSON: {exc}") from exc
    for key in ("SQUALL", "Sparklis", "SPARQL"):
        if not isinstance(raw.get(key), list):
            raise DataError(f"{path} has no list {key!r}")

    def entries(key: str) -> list[tuple[str, str]]:
        return [(parse_question(e["prompt"]), e["completion"].rstrip()) for e in raw[key]]

    squall = entries("SQUALL")
    questions = [q for q, _ in squall]
    sparklis = _align(questions, entries("Sparklis"))
    sparql = _align(questions, entries("SPARQL"))
    return [
        EcaiRecord(
            split=split,
            index=i,
            question=q,
            squall=completion,
            sparklis=sparklis[i],
            sparql_raw=sparql[i],
            candidates=parse_candidates(raw["SQUALL"][i]["prompt"]),
        )
        for i, (q, completion) in enumerate(squall)
    ]


def load_all(data_dir: str | Path | None = None) -> list[EcaiRecord]:
    return [r for split in SPLITS for r in load_ecai(split, data_dir)]


# ---------------------------------------------------------------------------------------
# gold SPARQL normalization

# The prefixes a normalized gold declares: those the compiler uses, and wikibase: (some golds use it).
PREFIX_HEADER = declarations(("wd", "wdt", "p", "ps", "pq", "rdfs", "rdf", "xsd", "schema", "skos", "wikibase"))

_KEYWORDS = (
    "select distinct reduced where filter not exists bind as order by asc desc limit offset "
    "group having count sum min max avg sample ask minus optional union values year month day "
    "str regex abs isliteral isiri lang langmatches contains strstarts bound if coalesce in"
).split()
_KEYWORD_RE = re.compile(r"(?<![\w?:$<\"'])(" + "|".join(_KEYWORDS) + r")(?![\w:>])", re.I)
# Where squall2sparql glued a keyword onto the previous token: `?P50_12WHERE`, `}LIMIT`.
_GLUED_RE = re.compile(r"(?<=[\w}).])(WHERE|ORDER BY|LIMIT|OFFSET|GROUP BY|BIND|FILTER)\b", re.I)
_STRING_RE = re.compile(r"(\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*')")


def _outside_strings(text: str, fn) -> str:
    """Apply ``fn`` to the parts of ``text`` that are not string literals."""
    parts = _STRING_RE.split(text)
    return "".join(part if i % 2 else fn(part) for i, part in enumerate(parts))


def _recase_code(code: str) -> str:
    code = re.sub(r"\b(wd|wdt|p|ps|pq|n\d+):([qp])(\d+)\b",
                  lambda m: f"{m[1]}:{m[2].upper()}{m[3]}", code)
    code = re.sub(r"<([qp])(\d+):", lambda m: f"<{m[1].upper()}{m[2]}:", code)
    code = re.sub(r"\bxsd:datetime\b", "xsd:dateTime", code)
    return code


def _recase_literal(match: re.Match) -> str:
    # Lower-cased xsd:dateTime lexical forms: "2010-10-01t00:00:00z".
    lexical = match[1]
    if re.fullmatch(r"-?\d{4}-\d\d-\d\dt\d\d:\d\d:\d\d(\.\d+)?z?", lexical):
        lexical = lexical.upper()
    return f'"{lexical}"^^'


def _rewrite_properties(code: str) -> str:
    # `<P57:director>7` is `P577` mangled by a label substitution that matched the P57 prefix.
    code = re.sub(r"<(P\d+):[^<>\s]*>(\d+)", r"<\1\2:?>", code)
    code = re.sub(r"\b(p|ps|pq|wdt):<(P\d+):[^<>\s]*>", r"\1:\2", code)
    # qualifiers: n1<P580:start_time>, n2<P1545:…>, n1:P3005, n3:P1111, n1P580
    code = re.sub(r"(?<![\w?$:])n\d+:?<(P\d+):[^<>\s]*>", r"pq:\1", code)
    code = re.sub(r"(?<![\w?$:])n\d+:?(P\d+)\b", r"pq:\1", code)
    # items under the same junk prefix: `?x wdt:P31 n1:Q5`
    code = re.sub(r"(?<![\w?$:])n\d+:(Q\d+)\b", r"wd:\1", code)
    leftover = re.search(r"\S*<[PQ]\d+:[^>]*>\S*", code)
    if leftover:
        raise DataError(f"unrecognised label-annotated IRI {leftover[0]!r}")
    return code


def _balance_braces(query: str) -> str:
    """Drop surplus closing braces left at the end by a partly removed wrapper."""
    code = _STRING_RE.sub('""', query)
    surplus = code.count("}") - code.count("{")
    if surplus < 0:
        raise DataError(f"unbalanced braces: {-surplus} more '{{' than '}}'")
    while surplus > 0:
        stripped = query.rstrip()
        if not stripped.endswith("}"):
            raise DataError("unbalanced braces: surplus '}' not at the end")
        query = stripped[:-1]
        surplus -= 1
    return query.rstrip()


_WRAPPER_RE = re.compile(r"^SELECT\s+\*\s+WHERE\s*\{\s*\{\s*(SELECT\b.*)\}\s*\}$", re.S | re.I)


def _unwrap(query: str) -> str:
    """``SELECT * WHERE {{ SELECT … }}`` is the inner SELECT with a no-op wrapper."""
    match = _WRAPPER_RE.match(query)
    if match is None:
        return query
    inner = match.group(1).rstrip()
    depth = 0
    for ch in _STRING_RE.sub('""', inner):  # the wrapper is only that if braces balance inside
        depth += (ch == "{") - (ch == "}")
        if depth < 0:
            return query
    return inner if depth == 0 else query


def normalize_gold_sparql(raw: str) -> str:
    """Runnable SPARQL (with PREFIX header) from a squall2sparql/Sparklis gold completion.

    Raises DataError naming the reason when the completion cannot be repaired.
    """
    if raw is None or not raw.strip():
        raise DataError("empty gold SPARQL")
    text = " ".join(raw.split())
    if not re.match(r"(SELECT|ASK)\b", text, re.I):
        raise DataError(f"not a query: no SELECT/ASK head (starts {text[:30]!r})")
    text = re.sub(r'"([^"\\]*)"\^\^', _recase_literal, text)
    text = _outside_strings(text, lambda code: _rewrite_properties(_recase_code(code)))
    text = _outside_strings(text, lambda code: _KEYWORD_RE.sub(lambda m: m[1].upper(), code))
    text = _outside_strings(text, lambda code: _GLUED_RE.sub(lambda m: " " + m[1], code))
    text = _balance_braces(text)
    if re.search(r"\b(LIMIT|OFFSET)\s*(\}|$)", text):
        raise DataError("LIMIT/OFFSET without a count (truncated completion)")
    text = _unwrap(text)
    text = " ".join(text.split())
    return PREFIX_HEADER + text


def check_parses(query: str) -> None:
    """Raise DataError unless both rdflib and pyoxigraph accept ``query``."""
    from rdflib.plugins.sparql import prepareQuery
    import pyoxigraph

    try:
        prepareQuery(query)
    except Exception as exc:  # noqa: BLE001 — any parser failure is a data problem here
        raise DataError(f"rdflib rejects the normalized query: {exc}") from exc
    try:
        pyoxigraph.Store().query(query)
    except Exception as exc:  # noqa: BLE001
        raise DataError(f"pyoxigraph rejects the normalized query: {exc}") from exc
