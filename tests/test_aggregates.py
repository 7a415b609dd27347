"""Issue 14, part B, item 2: aggregates of values (total, average, minimum, maximum), per group.

SQUALL's aggregation words (Ferré, DKE 2014): "the average <P2047> of the <film>-s", "the
total <P1082> of ...", "the maximum of NP"; a question word inside the NP is a group key
("... of the <film>-s that have which <P57>": one value per director), as "how many" does."""
from __future__ import annotations

import pytest

from cnl import ir
from cnl.dialects.notation import for_notation
from cnl.dialects.squall.parser import parse_squall
from cnl.dialects.squall.printer import print_squall
from cnl.errors import CompileError, UnsupportedSPARQLError
from cnl.sparql.compiler import compile_cnl, compile_query
from cnl.sparql.decompile import decompile, decompile_to_ir
from cnl.sparql.equivalence import equivalent
from rdflib.plugins.sparql.parser import parseQuery

LEXICON = {"film": "Q11424", "duration": "P2047", "director": "P57", "country": "Q6256",
           "population": "P1082", "continent": "P30", "Asia": "Q46", "Christopher Nolan": "Q25191"}


class _Lexicon:
    def resolve(self, label, kind, span=None):
        return LEXICON[label]


# (paraphrases in several notations, the aggregate, the SPARQL head it compiles to)
CASES = [
    (["Give me the average <P2047> of the <Q11424>-s.",
      "What is the average <P2047:duration> of the <film>-s?",
      "Give me the average <duration> of the [film]-s.",
      "Give me the average of the <P2047> of a <Q11424>."], "avg", "SELECT (AVG(?"),
    (["What is the total <P1082> of the <Q6256>-s that have <P30> <Q46>?",
      "Give me the sum <population> of the [country]-s that have <continent> [Asia]."], "sum", "SELECT (SUM(?"),
    (["Give me the minimum <P2047> of the <Q11424>-s that have which <P57>.",
      "Give me the minimum <duration> of the [film]-s that have which <director>."], "min", "SELECT ?"),
    (["Give me the maximum of (the <P2047> of a <Q11424> that has <P57> <Q25191>).",
      "Give me the maximum <duration> of a [film] that has <director> [Christopher Nolan]."], "max", "(MAX(?"),
]


@pytest.mark.parametrize("texts,op,head", CASES)
def test_aggregate_forms(texts, op, head):
    compiled = []
    for text in texts:
        query = parse_squall(text)
        agg = query.subject if query.vp is None else query.vp.np
        assert isinstance(agg, ir.Aggregate) and agg.op == op
        # parse -> print -> parse, in the text's own notation and in the others it can carry
        for notation in ("id", "label", "ecai") if "[" not in text else ("label",):
            try:
                printed = print_squall(query, notation)
            except Exception:  # a label-only term cannot be printed by ID
                continue
            assert for_notation(parse_squall(printed, notation), notation) == for_notation(query, notation), printed
        sparql = compile_cnl(text, resolver=_Lexicon())
        parseQuery(sparql)
        assert head in sparql
        compiled.append(sparql)
    # the paraphrases are one query
    assert all(equivalent(compiled[0], c, distinct=True) for c in compiled[1:]), compiled


def test_group_key_is_a_question_word():
    sparql = compile_cnl("Give me the minimum <P2047> of the <Q11424>-s that have which <P57>.")
    assert "GROUP BY ?p57" in sparql and "SELECT ?p57 (MIN(?p2047)" in sparql


@pytest.mark.parametrize("text", [
    "Give me the average <P2047> of the <Q11424>-s.",
    "What is the total <P1082> of the <Q6256>-s that have <P30> <Q46>?",
    "Give me the minimum <P2047> of the <Q11424>-s that have which <P57>.",
    "Give me the maximum of (the <P2047> of a <Q11424> that has <P57> <Q25191>).",
    "Give me the minimum of the year of the <P577> of a <P527> of <Q2006869>.",
])
def test_compile_decompile_compile(text):
    sparql = compile_cnl(text)
    query, options = decompile_to_ir(sparql)
    assert equivalent(compile_query(query, "wikidata", None, **options), sparql, distinct=True)
    back = decompile(sparql)
    assert equivalent(compile_cnl(back, **options), sparql, distinct=True), back


def test_hand_written_aggregates_round_trip():
    for sparql in [
        "SELECT (AVG(?d) AS ?a) WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P2047 ?d }",
        "SELECT ?dir (MAX(?d) AS ?longest) WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P57 ?dir ; wdt:P2047 ?d } GROUP BY ?dir",
        # ECAI train#143: the earliest year, as MIN of a BIND
        "SELECT DISTINCT (MIN(?y) AS ?m) WHERE { wd:Q2006869 p:P527 [ ps:P527 ?p ] . ?p p:P577 [ ps:P577 ?d ] . "
        "BIND (YEAR(?d) AS ?y) }",
    ]:
        query, options = decompile_to_ir(sparql)
        assert equivalent(compile_query(query, "wikidata", None, **options), sparql, distinct=True), sparql


def test_aggregate_only_as_the_answer():
    with pytest.raises(CompileError, match="aggregate"):
        compile_cnl("Which <Q11424> has <P2047> the average <P2047> of the <Q11424>-s?")


def test_execution_on_a_small_store():
    pyoxigraph = pytest.importorskip("pyoxigraph")
    store = pyoxigraph.Store()
    wd, wdt = "http://www.wikidata.org/entity/", "http://www.wikidata.org/prop/direct/"
    data = [("f1", "Q11424", "d1", 100), ("f2", "Q11424", "d1", 140), ("f3", "Q11424", "d2", 90)]
    for film, cls, director, minutes in data:
        s = pyoxigraph.NamedNode(wd + film)
        store.add(pyoxigraph.Quad(s, pyoxigraph.NamedNode(wdt + "P31"), pyoxigraph.NamedNode(wd + cls)))
        store.add(pyoxigraph.Quad(s, pyoxigraph.NamedNode(wdt + "P57"), pyoxigraph.NamedNode(wd + director)))
        store.add(pyoxigraph.Quad(s, pyoxigraph.NamedNode(wdt + "P2047"), pyoxigraph.Literal(str(minutes), datatype=pyoxigraph.NamedNode("http://www.w3.org/2001/XMLSchema#integer"))))
    average = compile_cnl("Give me the average <P2047> of the <Q11424>-s.")
    assert [float(row[0].value) for row in store.query(average)] == [110.0]
    per_director = compile_cnl("Give me the maximum <P2047> of the <Q11424>-s that have which <P57>.")
    rows = {row[0].value.rsplit("/", 1)[-1]: int(row[1].value) for row in store.query(per_director)}
    assert rows == {"d1": 140, "d2": 90}
