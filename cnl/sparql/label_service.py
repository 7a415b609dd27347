"""WDQS's label service with its triples written out, read as plain SPARQL.

``SERVICE wikibase:label { bd:serviceParam wikibase:language "en" . wd:Q42 schema:description ?d }``
binds ``?d`` to Q42's description in English: it is the triple and a language test,
``wd:Q42 schema:description ?d . FILTER(LANG(?d) = "en")``, the form every other SPARQL store
runs (WikiWebQuestions writes descriptions this way). The one difference: where the thing has
no text in that language the service leaves ``?d`` unbound (one row without a value), the
triple gives no row. Only a block of one language whose every other triple reads a label, a
description or an alias into a variable is rewritten; anything else (a list of fallback
languages, a block that only names label columns ``?xLabel``) is left as written.

The decompiler and the equivalence checker both read SPARQL through
:func:`cnl.sparql.algebra.parse_algebra`, which applies this first, so the two agree on it.
"""
from __future__ import annotations

import re

from cnl.sparql.syntax import LANGUAGE_TAG

_SERVICE = re.compile(r"SERVICE\s+(?:wikibase:label|<http://wikiba\.se/ontology#label>)\s*\{", re.I)
_TOKEN = re.compile(
    r"""<[^<>\s]*>|"(?:[^"\\\n]|\\.)*"(?:@[A-Za-z0-9-]+)?|'(?:[^'\\\n]|\\.)*'(?:@[A-Za-z0-9-]+)?|[;,]|\.(?=\s|$)"""
    r"""|[^\s;,{}]+?(?=[\s;,]|\.(?:\s|$)|$)""")
_PARAM = ("bd:serviceParam", "<http://www.bigdata.com/rdf#serviceParam>")
_LANGUAGE = ("wikibase:language", "<http://wikiba.se/ontology#language>")
_TEXTS = ("rdfs:label", "<http://www.w3.org/2000/01/rdf-schema#label>", "schema:description",
          "<http://schema.org/description>", "skos:altLabel", "<http://www.w3.org/2004/02/skos/core#altLabel>")
_STRINGS = re.compile(r'<[^<>\s]*>|"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|#[^\n]*')


def read_label_service(sparql: str) -> str:
    """``sparql`` with each label-service block of explicit triples written as those triples
    and a language test (see the module's docstring); unchanged where there is none."""
    if "SERVICE" not in sparql.upper():
        return sparql
    # no match inside strings or comments (an IRI's "#" starts none)
    masked = _masked(sparql)
    out, at = [], 0
    for found, end in _service_blocks(masked):
        if found.start() < at:
            continue
        rewritten = _as_triples(sparql[found.end():end])
        if rewritten is None:
            continue
        out.append(sparql[at:found.start()])
        if masked[:found.start()].rstrip()[-1:] not in ("{", "."):
            rewritten = "{ " + rewritten + " }"  # after a triple or a group: a group of its own
        out.append(rewritten + " ")
        at = end + 1
    out.append(sparql[at:])
    return "".join(out)


def _masked(sparql: str) -> str:
    """``sparql`` with its strings and comments blanked (same length), so that no match falls
    inside them (an IRI's "#" starts none)."""
    return _STRINGS.sub(lambda m: m.group() if m.group()[0] == "<" else "_" * len(m.group()), sparql)


def _service_blocks(masked: str):
    """(the ``SERVICE wikibase:label {`` match, the index of its ``}``) of each label-service
    block without a nested group."""
    for found in _SERVICE.finditer(masked):
        end = masked.find("}", found.end())
        if end >= 0 and "{" not in masked[found.end():end]:
            yield found, end


def _as_triples(body: str) -> str | None:
    triples = _triples(_TOKEN.findall(body))
    if triples is None:
        return None
    params = [t for t in triples if t[0] in _PARAM]
    texts = [t for t in triples if t[0] not in _PARAM]
    if len(params) != 1 or params[0][1] not in _LANGUAGE or not texts:
        return None
    language = params[0][2][1:-1] if params[0][2][:1] in "\"'" and params[0][2][-1:] == params[0][2][:1] else ""
    if not LANGUAGE_TAG.fullmatch(language):
        return None  # fallback lists ("en,fr"), [AUTO_LANGUAGE]: not one language test
    if not all(p in _TEXTS and o.startswith(("?", "$")) for _, p, o in texts):
        return None
    return " ".join(f'{s} {p} {o} . FILTER(LANG({o}) = "{language.lower()}")' for s, p, o in texts)


def _triples(tokens: list[str]) -> list[tuple[str, str, str]] | None:
    """The triples of a block's tokens (``;`` and ``,`` lists too), None if it is not one."""
    triples, parts, subject, predicate, after = [], [], None, None, "."
    for token in tokens + ["."]:
        if token not in (".", ";", ","):
            parts.append(token)
            continue
        if after == "." and len(parts) == 3:
            subject, predicate, obj = parts
        elif after == ";" and len(parts) == 2:
            predicate, obj = parts
        elif after == "," and len(parts) == 1:
            (obj,) = parts
        elif not parts and token == "." and after in (".", ";"):
            after = "."  # "... ?x ; ." and a final "."
            continue
        else:
            return None
        triples.append((subject, predicate, obj))
        parts, after = [], token
    return triples


_LABEL_COLUMN = re.compile(r"[?$]([A-Za-z_0-9]+?)(Label|Description)\b")
_AUTO_LANGUAGE = "[AUTO_LANGUAGE]"
_TEXT_OF = {"Label": "<http://www.w3.org/2000/01/rdf-schema#label>", "Description": "<http://schema.org/description>"}


def emulate_label_service(sparql: str) -> str:
    """``sparql`` with each WDQS label-service block that only names its languages
    (``SERVICE wikibase:label { bd:serviceParam wikibase:language "[AUTO_LANGUAGE],en" . }``)
    written as what the service does, for a store without it (the embedded one): each
    ``?xLabel`` / ``?xDescription`` the query names, whose ``?x`` it binds, gets ``?x``'s label
    (description) in the first of the languages that has one, else, as on WDQS, ``?x``'s ID
    (a value's own text). The service runs after the rest of its group, so the patterns go to
    the end of the block's group. Other blocks stay as written (and a store refuses them)."""
    if "SERVICE" not in sparql.upper():
        return sparql
    masked = _masked(sparql)
    for found, end in _service_blocks(masked):
        languages = _languages_only(sparql[found.end():end])
        if languages is None:
            continue
        group_end = _group_end(masked, end + 1)
        if group_end is None:
            continue
        rest = masked[:found.start()] + masked[end + 1:]
        patterns = _label_patterns(rest, languages)
        return emulate_label_service(
            sparql[:found.start()] + sparql[end + 1:group_end] + patterns + sparql[group_end:])
    return sparql


def _languages_only(body: str) -> list[str] | None:
    """The languages of a block that holds only ``bd:serviceParam wikibase:language "..."``."""
    triples = _triples(_TOKEN.findall(body))
    if not triples or not all(s in _PARAM and p in _LANGUAGE for s, p, _ in triples) or len(triples) != 1:
        return None
    value = triples[0][2]
    if not (len(value) >= 2 and value[0] in "\"'" and value[-1] == value[0]):
        return None
    languages = []
    for tag in (t.strip() for t in value[1:-1].split(",")):
        tag = "en" if tag.upper() == _AUTO_LANGUAGE else tag.lower()
        if not LANGUAGE_TAG.fullmatch(tag):
            return None
        if tag not in languages:
            languages.append(tag)
    return languages or None


def _group_end(masked: str, at: int) -> int | None:
    """Where the group that contains position ``at`` closes (the index of its ``}``)."""
    depth = 0
    for i in range(at, len(masked)):
        if masked[i] == "{":
            depth += 1
        elif masked[i] == "}":
            if depth == 0:
                return i
            depth -= 1
    return None


def _label_patterns(masked_query: str, languages: list[str]) -> str:
    named = set(re.findall(r"[?$]([A-Za-z_0-9]+)", masked_query))
    out = []
    for base, kind in dict.fromkeys(_LABEL_COLUMN.findall(masked_query)):
        if base not in named:  # ?fooLabel with no ?foo: a variable of its own
            continue
        column = f"?{base}{kind}"
        texts = []
        for i, language in enumerate(languages):
            text = f"?{base}_{kind.lower()}_{i}_"
            texts.append(text)
            out.append(f"OPTIONAL {{ ?{base} {_TEXT_OF[kind]} {text} . FILTER(LANG({text}) = \"{language}\") }}")
        own = f'IF(isIRI(?{base}), REPLACE(STR(?{base}), "^.*[/#]", ""), STR(?{base}))'
        out.append(f"BIND(COALESCE({', '.join(texts)}, {own}) AS {column})" if kind == "Label" else
                   f"BIND(COALESCE({', '.join(texts)}) AS {column})")
    return (" " + " ".join(out) + " ") if out else " "
