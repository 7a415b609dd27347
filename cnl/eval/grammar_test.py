"""Grammar tests for a KG: CNL cases that must compile to an expected SPARQL query and,
optionally, give expected answers on an RDF file.

A team adopting cnl2sparql on a new graph writes a profile (TOML), a lexicon and a cases
file; ``cnl2sparql grammar-test PROFILE CASES --data FILE.ttl --lexicon FILE`` then checks
that lexicon and profile together say what the team means.

Cases file: TOML (``[[case]]`` tables) or JSON (a list), each case with ``cnl`` (required),
``sparql`` (the expected query; the profile's prefixes are declared for it when it does not
declare them) and ``answers`` (``true``/``false`` for a yes/no question; a list of values,
compared with the first answer column as a set; or a list of rows, compared with whole rows
as a set; CURIEs with the profile's prefixes stand for IRIs).
"""
from __future__ import annotations

import json
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from cnl.errors import CNLError, GrammarTestFileError


@dataclass
class Case:
    cnl: str
    sparql: str | None = None
    answers: object = None
    name: str | None = None


@dataclass
class CaseResult:
    index: int
    case: Case
    compiled: str | None = None
    failures: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failures


def load_cases(path) -> list[Case]:
    """The cases of a TOML or JSON grammar-test file."""
    file = Path(path)
    try:
        text = file.read_text("utf-8")
    except OSError as err:
        raise GrammarTestFileError(f"cannot read cases file {file}: {err.strerror or err}") from None
    if file.suffix.lower() == ".toml":
        import tomllib

        try:
            data = tomllib.loads(text).get("case")
        except tomllib.TOMLDecodeError as err:
            raise GrammarTestFileError(f"cases file {file} is not valid TOML: {err}") from None
    else:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as err:
            raise GrammarTestFileError(f"cases file {file} is not valid JSON: {err}") from None
        if isinstance(data, dict):
            data = data.get("cases", data.get("case"))
    if not isinstance(data, list) or not data:
        raise GrammarTestFileError(f"cases file {file} has no cases: write a list of "
                                   "{cnl, sparql?, answers?} (TOML: [[case]] tables)")
    cases = []
    for i, item in enumerate(data, 1):
        if not isinstance(item, dict) or not isinstance(item.get("cnl"), str):
            raise GrammarTestFileError(f"cases file {file}: case {i} needs a 'cnl' string")
        unknown = set(item) - {"cnl", "sparql", "answers", "name"}
        if unknown:
            raise GrammarTestFileError(f"cases file {file}: case {i} has unknown field(s) {', '.join(sorted(unknown))}")
        cases.append(Case(item["cnl"], item.get("sparql"), item.get("answers"), item.get("name")))
    return cases


def _declare_prefixes(sparql: str, prefixes: dict) -> str:
    declared = {m.lower() for m in re.findall(r"PREFIX\s+([\w-]*):", sparql, re.I)}
    header = "".join(f"PREFIX {name}: <{iri}>\n" for name, iri in prefixes.items() if name.lower() not in declared)
    return header + sparql


def _expand(value, prefixes: dict) -> str:
    text = str(value).lower() if isinstance(value, bool) else str(value)
    match = re.match(r"^([A-Za-z][\w-]*):(\S*)$", text)
    if match and match.group(1) in prefixes and not text.startswith(("http:", "https:")):
        return prefixes[match.group(1)] + match.group(2)
    if text.startswith("<") and text.endswith(">"):
        return text[1:-1]
    return text


def _compare_answers(expected, result, prefixes) -> str | None:
    if isinstance(expected, bool):
        if not isinstance(result, bool):
            return f"expected a yes/no answer ({expected}), got a table"
        return None if result == expected else f"expected {str(expected).lower()}, got {str(result).lower()}"
    if isinstance(result, bool):
        return f"expected a table of answers, got {str(result).lower()}"
    if not isinstance(expected, list):
        return "answers must be true/false, a list of values or a list of rows"
    rows = result.values()
    if expected and all(isinstance(r, list) for r in expected):
        want = {tuple(_expand(v, prefixes) for v in r) for r in expected}
        got = {tuple("" if v is None else v for v in row) for row in rows}
    else:
        want = {_expand(v, prefixes) for v in expected}
        got = {row[0] for row in rows if row and row[0] is not None}
    if want == got:
        return None
    missing, extra = sorted(map(str, want - got)), sorted(map(str, got - want))
    parts = []
    if missing:
        parts.append("missing " + ", ".join(missing[:5]))
    if extra:
        parts.append("unexpected " + ", ".join(extra[:5]))
    return "answers differ: " + "; ".join(parts)


def run_cases(cases, profile, *, lexicon=None, data=None, dialect: str = "squall") -> list[CaseResult]:
    """Run every case; ``data`` (an RDF file) is loaded into a temporary embedded store."""
    from cnl.linking.lexicon import as_lexicon
    from cnl.sparql.compiler import compile_cnl
    from cnl.sparql.equivalence import equivalent, explain_difference

    lexicon = as_lexicon(lexicon)

    kg = None
    tmp = None
    if data is not None and any(c.answers is not None for c in cases):
        from cnl.kg.embedded import EmbeddedKG

        tmp = tempfile.TemporaryDirectory(prefix="cnl-grammar-test-")
        kg = EmbeddedKG(tmp.name)
        kg.load(data, progress=False)
    results = []
    try:
        for i, case in enumerate(cases, 1):
            result = CaseResult(i, case)
            results.append(result)
            try:
                result.compiled = compile_cnl(case.cnl, dialect=dialect, kg=profile, resolver=lexicon)
            except CNLError as err:
                result.failures.append(f"does not compile: {str(err).splitlines()[0]}")
                continue
            if case.sparql is not None:
                expected = _declare_prefixes(case.sparql, profile.prefixes)
                try:
                    if not equivalent(result.compiled, expected):
                        why = explain_difference(result.compiled, expected) or "different queries"
                        result.failures.append(f"SPARQL differs from the expected query: {why}")
                except CNLError as err:
                    result.failures.append(f"expected SPARQL does not parse: {str(err).splitlines()[0]}")
            if case.answers is not None:
                if kg is None:
                    result.failures.append("the case has answers but no --data file was given")
                    continue
                try:
                    answer = kg.query(result.compiled)
                except CNLError as err:
                    result.failures.append(f"query failed: {str(err).splitlines()[0]}")
                    continue
                problem = _compare_answers(case.answers, answer, profile.prefixes)
                if problem:
                    result.failures.append(problem)
    finally:
        if kg is not None:
            kg.close()
        if tmp is not None:
            tmp.cleanup()
    return results
