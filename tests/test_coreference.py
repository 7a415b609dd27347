"""Triple patterns that reach a node twice (a cycle in the pattern graph, issue 14 item 6): the
node is named by a co-reference variable (SQUALL's ``?x``) at each mention, its description at
the first. In paraphrases and notations, printed and parsed back, compiled, decompiled and
compiled again; what has no place for a variable is still refused by name."""
import pytest

from cnl import ir
from cnl.dialects.notation import for_notation
from cnl.dialects.squall.parser import parse_squall
from cnl.dialects.squall.printer import print_squall
from cnl.errors import UnsupportedSPARQLError
from cnl.sparql.decompile import decompile_to_ir
from cnl.sparql.compiler import compile_query
from cnl.sparql.equivalence import equivalent
from tests.roundtrip_helpers import PREFIXES, check_paraphrases, round_trip as _round_trip


class Lexicon:
    IDS = {"film": "Q11424", "based on": "P144", "author": "P50", "Victor Hugo": "Q535", "human": "Q5",
           "place of birth": "P19", "place of death": "P20", "position held": "P39", "start time": "P580",
           "end time": "P582", "Barack Obama": "Q76", "President of the United States": "Q11696"}

    def resolve(self, label, kind, span=None):
        return self.IDS[label]


CASES = [
    # a self-loop on the answer (WikiWebQuestions WebQTrn-2408: a film based on itself)
    (["Which <Q11424> ?x has <P144> ?x at <P50> <Q535>?",
      "Which <Q11424> ?x is-<P144> ?x at <P50> <Q535>?",
      "Which [film] ?x has <based on> ?x at <author> [Victor Hugo]?"],
     "SELECT DISTINCT ?x WHERE { ?x wdt:P31 wd:Q11424; p:P144 ?p. ?p ps:P144 ?x; pq:P50 wd:Q535. }"),
    # two statements with one value (QALD-9-plus 169: born and died in the same place)
    (["Which <Q5> has <P19> ?x and has <P20> ?x?",
      "Which <Q5> has <P20> ?x and has <P19> ?x?",
      "Which [human] has <place of birth> ?p and is-<place of death> ?p?"],
     "SELECT DISTINCT ?uri WHERE { ?uri wdt:P31 wd:Q5 . ?uri wdt:P19 _:a . ?uri wdt:P20 _:a . }"),
    # a value compared with a qualifier of another statement (WikiWebQuestions WebQTrn-2950)
    (["Give me a <P39> at a <P582> less than ?z of (the thing that is <Q76> and that has <P39> <Q11696> at <P580> ?z).",
      "What is a <P39> at a <P582> less than ?z of (the thing that is <Q76> and that has <P39> <Q11696> at <P580> ?z)?",
      "Give me a <position held> at an <end time> less than ?z of (the thing that is [Barack Obama] and that has "
      "<position held> [President of the United States] at <start time> ?z)."],
     "SELECT DISTINCT ?x WHERE { wd:Q76 p:P39 ?p. ?p ps:P39 ?x; pq:P582 ?y. wd:Q76 p:P39 ?q. "
     "?q ps:P39 wd:Q11696; pq:P580 ?z. FILTER(?y < ?z) }"),
]


@pytest.mark.parametrize("texts,sparql", CASES)
def test_coreference_paraphrases(texts, sparql):
    check_paraphrases(texts, sparql, Lexicon(), " ?")


@pytest.mark.parametrize("text", [t for texts, _ in CASES for t in texts[:2]])
@pytest.mark.parametrize("notation", ["id", "ecai", "label"])
def test_coreference_prints_and_reads_back(text, notation):
    query = ir.map_terms(parse_squall(text), lambda t: type(t)(t.id, f"l {t.id}"))
    printed = print_squall(query, notation)
    assert parse_squall(printed, notation=notation) == for_notation(query, notation)


@pytest.mark.parametrize("sparql", [
    # WikiWebQuestions WebQTrn-1777 (two qualifiers of one statement compared), -316, -2439; QALD-9-plus 270
    "SELECT DISTINCT ?x WHERE { ?x p:P39 ?p. ?p ps:P39 wd:Q11699; pq:P580 ?y; pq:P582 ?z. wd:Q91 p:P39 ?q. "
    "?q ps:P39 wd:Q11696; pq:P580 ?w; pq:P582 ?v. FILTER((?y >= ?w) && (?z <= ?v)) } ORDER BY DESC (?z) LIMIT 1",
    "SELECT DISTINCT ?x WHERE { wd:Q91 p:P39 ?p. ?p ps:P39 ?x; pq:P582 ?y. wd:Q91 p:P39 ?q. ?q ps:P39 wd:Q11696; "
    "pq:P580 ?z. FILTER(?y < ?z) }",
    "SELECT DISTINCT ?x WHERE { wd:Q189240 p:P54 ?p. ?p ps:P54 ?x; pq:P582 ?y. wd:Q189240 p:P54 ?q. "
    "?q ps:P54 wd:Q131371; pq:P580 ?z. FILTER(?y <= ?z) }",
    "SELECT ?uri WHERE { wd:Q9696 p:P39 ?presStatement . ?presStatement ps:P39 wd:Q11696 ; pq:P580 ?startPres ; "
    "pq:P582 ?endPres . ?uri p:P39 ?viceStatement . ?viceStatement ps:P39 wd:Q11699 ; pq:P580 ?startVice ; "
    "pq:P582 ?endVice . FILTER(?startVice >= ?startPres && ?startVice <= ?endPres) }",
    "SELECT ?x WHERE { ?x wdt:P31 wd:Q5 ; wdt:P26 ?y . ?y wdt:P26 ?x }",
])
def test_coreference_decompiles(sparql):
    printed, back = _round_trip(PREFIXES + sparql)
    assert "?" in printed[:-1]
    assert equivalent(back, PREFIXES + sparql, distinct=True), (printed, back)


@pytest.mark.parametrize("sparql,detail", [
    # the counted thing has no class noun to carry its variable ("how many" takes none; an answer
    # of no class does: "Which thing ?x has a <P1> that has <P2> ?x?", tests/test_which_thing.py)
    ("SELECT (COUNT(?x) AS ?c) WHERE { ?x wdt:P1 ?y . ?y wdt:P2 ?x }", "?x"),
])
def test_a_node_reached_twice_without_a_place_for_its_variable_is_refused(sparql, detail):
    with pytest.raises(UnsupportedSPARQLError) as err:
        decompile_to_ir(PREFIXES + sparql)
    assert err.value.construct == "a cycle in the triple patterns"
    assert detail in str(err.value)


def test_a_value_off_the_tree_compared_twice_is_introduced_once():
    # a value named by a relational noun ("the <P571> of X") that two FILTERs test: "such that ?f
    # is (a <P571> of <Q1>)", then each test names ?f (it was refused as a cycle before)
    sparql = ("SELECT ?res WHERE { wd:Q1 wdt:P571 ?f . ?res p:P39 _:a . _:a ps:P39 wd:Q2 ; pq:P580 ?s ; "
              "pq:P582 ?e . FILTER(?s <= ?f && ?f <= ?e) }")
    query, options = decompile_to_ir(PREFIXES + sparql)
    printed = print_squall(query, "id", id_labels=False)
    assert "such that ?f is (a <P571> of <Q1>)" in printed
    back = compile_query(parse_squall(printed), "wikidata", None, **options)
    assert equivalent(back, PREFIXES + sparql, distinct=True), (printed, back)


def test_nested_coreferences_name_each_first_mention():
    # a child whose parent is ?y and ?x: both first mentions carry their variable, one inside the other
    sparql = ("SELECT ?x WHERE { ?x wdt:P31 wd:Q5 ; wdt:P26 ?y . ?y wdt:P31 wd:Q5 ; wdt:P40 ?z . "
              "?z wdt:P22 ?y . ?z wdt:P25 ?x }")
    printed, back = _round_trip(PREFIXES + sparql)
    assert "<Q5> ?x" in printed and "<Q5> ?y" in printed
    assert equivalent(back, PREFIXES + sparql, distinct=True), (printed, back)
