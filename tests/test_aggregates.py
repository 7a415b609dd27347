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
    assert "GROUP BY ?director" in sparql and "SELECT ?director (MIN(?duration)" in sparql  # columns named by property


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


def _film_store():
    pyoxigraph = pytest.importorskip("pyoxigraph")
    store = pyoxigraph.Store()
    wd, wdt = "http://www.wikidata.org/entity/", "http://www.wikidata.org/prop/direct/"
    data = [("f1", "Q11424", "d1", 100), ("f2", "Q11424", "d1", 140), ("f3", "Q11424", "d2", 90)]
    for film, cls, director, minutes in data:
        s = pyoxigraph.NamedNode(wd + film)
        store.add(pyoxigraph.Quad(s, pyoxigraph.NamedNode(wdt + "P31"), pyoxigraph.NamedNode(wd + cls)))
        store.add(pyoxigraph.Quad(s, pyoxigraph.NamedNode(wdt + "P57"), pyoxigraph.NamedNode(wd + director)))
        store.add(pyoxigraph.Quad(s, pyoxigraph.NamedNode(wdt + "P2047"), pyoxigraph.Literal(str(minutes), datatype=pyoxigraph.NamedNode("http://www.w3.org/2001/XMLSchema#integer"))))
    return store


def test_execution_on_a_small_store():
    store = _film_store()
    average = compile_cnl("Give me the average <P2047> of the <Q11424>-s.")
    assert [float(row[0].value) for row in store.query(average)] == [110.0]
    per_director = compile_cnl("Give me the maximum <P2047> of the <Q11424>-s that have which <P57>.")
    rows = {row[0].value.rsplit("/", 1)[-1]: int(row[1].value) for row in store.query(per_director)}
    assert rows == {"d1": 140, "d2": 90}


# An aggregate as a value, compared ("longer than the average <P2047> of the <film>-s"): a sub-query
# computing it, joined to the query (grouped by the query's variables it names, as a count is)
AGGREGATE_VALUES = [
    (["Which <Q11424> has a <P2047> greater than the average <P2047> of the <Q11424>-s?",
      "Which [film] has a <duration> greater than the average <duration> of the [film]-s?",
      "Which <Q11424> has a <P2047> greater than the average <P2047> of every <Q11424>?"],
     "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P2047 ?d . "
     "{ SELECT (AVG(?d2) AS ?a) WHERE { ?g wdt:P31 wd:Q11424 ; wdt:P2047 ?d2 . } } FILTER(?d > ?a) }", {"f2"}),
    (["Which <Q11424> has a <P2047> that is the minimum <P2047> of the <Q11424>-s?",
      "Which [film] has a <duration> equal to the minimum <duration> of the [film]-s?"],
     "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P2047 ?d . "
     "{ SELECT (MIN(?d2) AS ?m) WHERE { ?g wdt:P31 wd:Q11424 ; wdt:P2047 ?d2 . } } FILTER(?d = ?m) }", {"f3"}),
]


@pytest.mark.parametrize("texts,sparql,answers", AGGREGATE_VALUES)
def test_an_aggregate_compared_is_a_sub_query(texts, sparql, answers):
    store = _film_store()
    prefixes = ("PREFIX wd: <http://www.wikidata.org/entity/> PREFIX wdt: <http://www.wikidata.org/prop/direct/> ")
    for text in texts:
        compiled = compile_cnl(text, resolver=_Lexicon())
        parseQuery(compiled)
        assert equivalent(compiled, prefixes + sparql, distinct=True), (text, compiled)
        assert {row[0].value.rsplit("/", 1)[-1] for row in store.query(compiled)} == answers, text
        query = parse_squall(text)
        assert parse_squall(print_squall(query, "label" if "[" in text else "id")) == query


# ------------------------------------------------------------------ count conditions (HAVING)

COUNT_LEXICON = {"country": "Q6256", "language": "P37", "human": "Q5", "author": "P50", "book": "Q571"}


class _CountLexicon:
    def resolve(self, label, kind, span=None):
        return COUNT_LEXICON[label]


@pytest.mark.parametrize("texts,test", [
    (["Which <Q6256> has more than 2 <P37>?", "Which [country] has more than 2 <language>?",
      "Which <Q6256:country> has more than 2 <P37:language>?"], "> 2"),
    (["Which <Q5> is the <P50> of at least 3 <Q571>?", "Which [human] is the <author> of at least 3 [book]-s?"],
     ">= 3"),
    (["Give me a <P50> of more than 3 things."], "> 3"),
])
@pytest.mark.parametrize("having", [False, True])
def test_count_conditions(texts, test, having):
    compiled = []
    for text in texts:
        query = parse_squall(text)
        notation = "label" if "[" in text else "id"
        printed = print_squall(query, notation)
        assert parse_squall(printed, notation) == query, printed
        sparql = compile_cnl(text, resolver=_CountLexicon(), having=having)
        parseQuery(sparql)
        assert (f"HAVING(COUNT(DISTINCT ?" in sparql and f") {test})" in sparql) if having else f"{test})" in sparql
        # compile -> decompile -> compile, both forms (HAVING, and the counting sub-query)
        query2, options = decompile_to_ir(sparql)
        assert equivalent(compile_query(query2, "wikidata", None, **options), sparql, distinct=True), sparql
        assert options.get("having", False) is having
        compiled.append(sparql)
    assert all(equivalent(compiled[0], c, distinct=True) for c in compiled[1:])


@pytest.mark.parametrize("text", ["Which <Q5> has not at least 2 <P40>?",
                                  "Which <Q5> is the <P50> of no <Q571> that has at least 2 <P50>?",
                                  "Which <Q5> has exactly 2 <P40> that have <P21> <Q6581072>?"])
@pytest.mark.parametrize("options", [{}, {"projection": "all"}, {"count_distinct": False}])
def test_counting_sub_queries_round_trip(text, options):
    sparql = compile_cnl(text, **options)
    query, got = decompile_to_ir(sparql)
    assert equivalent(compile_query(query, "wikidata", None, **got), sparql, distinct=True)
    assert equivalent(compile_cnl(decompile(sparql), **got), sparql, distinct=True)


def test_more_than_stays_a_comparison_before_a_value():
    query = parse_squall("Which <Q5> has a <P2048> more than 2?")
    assert query.vp.obj.rels[0] == ir.Compare(">", (ir.Ref(ir.Literal("2", "integer")),))


def test_hand_written_having_round_trips():
    # QALD-9-plus 134: countries with more than two official languages (COUNT without DISTINCT)
    sparql = ("SELECT DISTINCT ?uri WHERE { ?uri wdt:P31 wd:Q6256 . ?uri wdt:P37 ?language . } "
              "GROUP BY ?uri HAVING(COUNT(?language)>2)")
    assert decompile(sparql) == "Which <Q6256> has more than 2 <P37>?"
    query, options = decompile_to_ir(sparql)
    assert options["having"] is True and options["count_distinct"] is False
    assert equivalent(compile_query(query, "wikidata", None, **options), sparql, distinct=True)


@pytest.mark.parametrize("sparql,construct", [
    ("SELECT ?x WHERE { ?x wdt:P40 ?y } GROUP BY ?x HAVING(COUNT(?y) < 3)", "HAVING(COUNT(...) < N)"),
    ("SELECT ?x WHERE { ?x wdt:P40 ?y } GROUP BY ?x HAVING(SUM(?y) > 3)", "HAVING"),
])
def test_having_refusals(sparql, construct):
    with pytest.raises(UnsupportedSPARQLError) as err:
        decompile_to_ir(sparql)
    assert err.value.construct == construct


@pytest.mark.parametrize("text", ["Which <Q6256> has fewer than 3 <P37>?", "Which <Q6256> has at most 2 <P37>?"])
def test_counts_that_can_be_zero_are_refused(text):
    with pytest.raises(CompileError, match="can be zero"):
        compile_cnl(text)


def test_having_executes_like_the_sub_query():
    pyoxigraph = pytest.importorskip("pyoxigraph")
    store = pyoxigraph.Store()
    wd, wdt = "http://www.wikidata.org/entity/", "http://www.wikidata.org/prop/direct/"
    for country, languages in (("c1", 3), ("c2", 2), ("c3", 4)):
        s = pyoxigraph.NamedNode(wd + country)
        store.add(pyoxigraph.Quad(s, pyoxigraph.NamedNode(wdt + "P31"), pyoxigraph.NamedNode(wd + "Q6256")))
        for i in range(languages):
            store.add(pyoxigraph.Quad(s, pyoxigraph.NamedNode(wdt + "P37"), pyoxigraph.NamedNode(wd + f"L{i}")))
    text = "Which <Q6256> has more than 2 <P37>?"
    answers = [sorted(row[0].value for row in store.query(compile_cnl(text, having=h))) for h in (False, True)]
    assert answers[0] == answers[1] == [wd + "c1", wd + "c3"]


# ------------------------------------------------------------------ nested superlatives (sub-queries)

@pytest.mark.parametrize("texts", [
    ["Has <Q79> <P36> the <Q515> that has <P17> <Q79> and has the highest <P1082>?",
     "Has <Q79:Egypt> <P36:capital> a <Q515:city> that has <P17:country> <Q79:Egypt> and that has the highest "
     "<P1082:population>?"],
    ["Has <Q76> <P26> a <Q5> that has the 2nd earliest <P569>?",
     "Has <Q76> <P26> a <Q5> that has the 2nd lowest <P569>?"],
])
def test_superlative_in_a_yes_no_question_ranks_its_noun_phrase(texts):
    compiled = [compile_cnl(t) for t in texts]
    for sparql in compiled:
        parseQuery(sparql)
        assert sparql.startswith("PREFIX") and "ASK" in sparql and "SELECT ?" in sparql and "LIMIT 1" in sparql
        query, options = decompile_to_ir(sparql)
        assert equivalent(compile_query(query, "wikidata", None, **options), sparql, distinct=True)
    assert equivalent(compiled[0], compiled[1], distinct=True)


def test_qald_166_round_trips():
    sparql = ("ASK WHERE { { SELECT ?largest WHERE { ?largest wdt:P31 wd:Q515 . ?largest wdt:P17 wd:Q79 . "
              "?largest wdt:P1082 ?population . } ORDER BY DESC(?population) LIMIT 1 } wd:Q79 wdt:P36 ?largest . }")
    text = decompile(sparql)
    assert text.startswith("Has <Q79> <P36> a <Q515>") and "the highest <P1082>" in text
    assert equivalent(compile_cnl(text), sparql, distinct=True)


def test_ranked_sub_query_outside_a_yes_no_question_is_refused():
    sparql = ("SELECT ?c WHERE { { SELECT ?largest WHERE { ?largest wdt:P31 wd:Q515 ; wdt:P1082 ?p } "
              "ORDER BY DESC(?p) LIMIT 1 } ?c wdt:P36 ?largest }")
    with pytest.raises(UnsupportedSPARQLError) as err:
        decompile_to_ir(sparql)
    assert err.value.construct == "a sub-query (nested SELECT)"


def test_nested_superlative_executes():
    pyoxigraph = pytest.importorskip("pyoxigraph")
    store = pyoxigraph.Store()
    wd, wdt = "http://www.wikidata.org/entity/", "http://www.wikidata.org/prop/direct/"
    integer = pyoxigraph.NamedNode("http://www.w3.org/2001/XMLSchema#integer")

    def add(s, p, o):
        store.add(pyoxigraph.Quad(pyoxigraph.NamedNode(wd + s), pyoxigraph.NamedNode(wdt + p), o))

    for city, population in (("Cairo", 10), ("Alex", 5)):
        add(city, "P31", pyoxigraph.NamedNode(wd + "Q515"))
        add(city, "P17", pyoxigraph.NamedNode(wd + "Q79"))
        add(city, "P1082", pyoxigraph.Literal(str(population), datatype=integer))
    add("Q79", "P36", pyoxigraph.NamedNode(wd + "Cairo"))
    ask = compile_cnl("Has <Q79> <P36> the <Q515> that has <P17> <Q79> and has the highest <P1082>?")
    assert bool(store.query(ask)) is True
    ask_lowest = compile_cnl("Has <Q79> <P36> the <Q515> that has <P17> <Q79> and has the lowest <P1082>?")
    assert bool(store.query(ask_lowest)) is False
