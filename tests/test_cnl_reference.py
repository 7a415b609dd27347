"""Every example sentence of docs/cnl-reference.md parses, prints back to an equal IR and compiles
to SPARQL that rdflib parses (the SPARQL blocks are checked for syntax too)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from rdflib.plugins.sparql.parser import parseQuery

from cnl.dialects.notation import for_notation
from cnl.dialects.squall.parser import parse_squall
from cnl.dialects.squall.printer import print_squall
from cnl.sparql.compiler import compile_cnl
from cnl.sparql.namespaces import declare_missing

DOC = (Path(__file__).resolve().parent.parent / "docs" / "cnl-reference.md").read_text("utf-8")
SENTENCES = sorted({m for m in re.findall(r"`((?:Which|How|Give|Has|Is|At|What|Who)\b[^`]*[?.])`", DOC)
                    if re.search(r"<[PQ][0-9]", m) and not re.search(r"<[a-z]", m) and "[" not in m
                    and "..." not in m and not re.search(r"(?<![\w\]>])'[^\s']", m)})  # 'a name' needs a lexicon
BLOCKS = re.findall(r"```sparql\n(.*?)```", DOC, re.S)


def test_the_reference_has_examples():
    assert len(SENTENCES) >= 15 and len(BLOCKS) >= 10


@pytest.mark.parametrize("text", SENTENCES)
def test_example_sentences(text):
    query = parse_squall(text, "id")
    printed = print_squall(query, "id")
    assert for_notation(parse_squall(printed, "id"), "id") == for_notation(query, "id")
    parseQuery(declare_missing(compile_cnl(text, notation="id")))


@pytest.mark.parametrize("block", BLOCKS)
def test_example_sparql(block):
    parseQuery(declare_missing(block))
