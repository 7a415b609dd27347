"""Target texts for the learned parser: SPARQL targets without (and with back) their PREFIX
lines, and SPARQL with every Wikidata ID replaced by its label (the paper's SPARQL-label)."""
from __future__ import annotations

import re

from cnl.sparql.wikidata_properties import property_names
from cnl.sparql.namespaces import PREFIXES

_PREFIX_LINE = re.compile(r"^\s*PREFIX\s+\S+\s*<[^>]*>\s*$", re.I | re.M)
_ID_TERM = re.compile(r"\b(wd|wdt|p|ps|pq):([PQ][0-9]+)\b")


def one_line(text: str) -> str:
    return " ".join(text.split())


def strip_prefixes(sparql: str) -> str:
    return one_line(_PREFIX_LINE.sub("", sparql))


def add_prefixes(sparql: str) -> str:
    """Put back the Wikidata PREFIX lines a SPARQL target was trained without."""
    used = {m.group(1) for m in re.finditer(r"\b([a-z]+):", sparql)}
    head = [f"PREFIX {k}: <{v}>" for k, v in PREFIXES.items() if k in used
            and not re.search(rf"PREFIX\s+{k}:", sparql, re.I)]
    return "\n".join(head + [sparql])


def labelled_sparql(sparql: str, id_labels: dict) -> str:
    """``wd:Q11424`` -> ``wd:[film]``, ``wdt:P57`` -> ``wdt:<director>``: labels from ``id_labels``,
    then Wikidata's property labels; an ID without either stays as it is."""
    def sub(m):
        label = id_labels.get(m.group(2)) or property_names().get(m.group(2))
        if not label:
            return m.group(0)
        return f"{m.group(1)}:[{label}]" if m.group(2).startswith("Q") else f"{m.group(1)}:<{label}>"

    return _ID_TERM.sub(sub, sparql)
