"""Issue 14, part B, item 4: tests on values: case-sensitive string tests (SPARQL's CONTAINS,
STRSTARTS and REGEX without LCASE or the "i" flag)."""
from __future__ import annotations

import pytest
from rdflib.plugins.sparql.parser import parseQuery

from cnl import ir
from cnl.dialects.squall.parser import parse_squall
from cnl.dialects.squall.printer import print_squall
from cnl.sparql.compiler import compile_cnl, compile_query
from cnl.sparql.decompile import decompile, decompile_to_ir
from cnl.sparql.equivalence import equivalent

LEXICON = {"organization": "Q43229", "inception": "P571", "film": "Q11424", "title": "P1476"}


class _Lexicon:
    def resolve(self, label, kind, span=None):
        return LEXICON[label]


@pytest.mark.parametrize("texts,op,call", [
    (['Which <Q43229> has a <P571> that case-sensitively contains "1950"?',
      'Which <Q43229> has a <P571> case-sensitively contains "1950"?',
      'Which [organization] has an <inception> that case-sensitively contains "1950"?'], "contains", "CONTAINS(STR(?"),
    (['Which <Q11424> has a <P1476> that case-sensitively starts with "The"?',
      'Which [film] has a <title> that Case-Sensitively starts with "The"?'], "starts", "STRSTARTS(STR(?"),
    (['Which <Q11424> has a <P1476> case-sensitively matching "^The [A-Z]"?',
      'Which [film] has a <title> that case-sensitively matches "^The [A-Z]"?'], "matches", "REGEX(STR(?"),
])
def test_case_sensitive_string_tests(texts, op, call):
    compiled = []
    for text in texts:
        query = parse_squall(text)
        test = next(n for n in ir.walk(query) if isinstance(n, ir.StrTest))
        assert test.op == op and test.case_sensitive
        notation = "label" if "[" in text else "id"
        printed = print_squall(query, notation)
        assert parse_squall(printed, notation) == query, printed
        sparql = compile_cnl(text, resolver=_Lexicon())
        parseQuery(sparql)
        assert call in sparql and "LCASE" not in sparql and '"i"' not in sparql
        back, options = decompile_to_ir(sparql)
        assert equivalent(compile_query(back, "wikidata", None, **options), sparql, distinct=True)
        compiled.append(sparql)
    assert all(equivalent(compiled[0], c, distinct=True) for c in compiled[1:])
    # the case-insensitive test is another query
    plain = compile_cnl(texts[0].replace("case-sensitively ", ""), resolver=_Lexicon())
    assert not equivalent(plain, compiled[0])


def test_qald_18_round_trips():
    sparql = ('SELECT DISTINCT ?uri WHERE { ?type wdt:P279* wd:Q43229 . ?uri wdt:P31 ?type . '
              '?uri wdt:P571 ?foundedAt . FILTER CONTAINS(STR(?foundedAt), "1950") }')
    text = decompile(sparql)
    assert "case-sensitively contains" in text
    query, options = decompile_to_ir(sparql)
    assert equivalent(compile_query(query, "wikidata", None, **options), sparql, distinct=True)


def test_execution_tells_capitals_apart():
    pyoxigraph = pytest.importorskip("pyoxigraph")
    store = pyoxigraph.Store()
    wd, wdt = "http://www.wikidata.org/entity/", "http://www.wikidata.org/prop/direct/"
    for film, title in (("f1", "The Thing"), ("f2", "the thing"), ("f3", "Other")):
        s = pyoxigraph.NamedNode(wd + film)
        store.add(pyoxigraph.Quad(s, pyoxigraph.NamedNode(wdt + "P31"), pyoxigraph.NamedNode(wd + "Q11424")))
        store.add(pyoxigraph.Quad(s, pyoxigraph.NamedNode(wdt + "P1476"), pyoxigraph.Literal(title)))

    def answers(text):
        return sorted(row[0].value.rsplit("/", 1)[-1] for row in store.query(compile_cnl(text)))

    assert answers('Which <Q11424> has a <P1476> that case-sensitively starts with "The"?') == ["f1"]
    assert answers('Which <Q11424> has a <P1476> that starts with "The"?') == ["f1", "f2"]
