"""Issue 29, the SPARQL constructs QALD-9-plus writers use that the CNL reads through an equivalent
query (cnl/sparql/algebra_rewrites.py) or through the pseudo-property ``<any property>``: each
hand-written query (entities of our own) decompiles, prints, parses and compiles back to an
equivalent query; each rewrite is an equivalence only where its conditions hold, which the
negative cases check (the equivalence checker must never call two different queries equal)."""
import pytest

import cnl
from cnl import ir
from cnl.dialects.notation import detect_notation
from cnl.dialects.squall.parser import parse_squall
from cnl.dialects.squall.printer import print_squall
from cnl.errors import CompileError, LexiconError, SPARQLParseError, UnsupportedSPARQLError
from cnl.sparql.compiler import compile_query
from cnl.sparql.decompile import decompile_to_ir
from cnl.sparql.equivalence import equivalent
from tests.roundtrip_helpers import PREFIXES

IDS = {"film": "Q11424", "Tom Hanks": "Q2263", "Leonardo DiCaprio": "Q38111", "human": "Q5",
       "occupation": "P106", "actor": "Q33999", "box office": "P2142"}


class Lexicon:
    def resolve(self, label, kind, span=None):
        if label not in IDS:
            raise LexiconError(f"no {kind} {label!r}", label=label, kind=kind)
        return IDS[label]


def round_trip(sparql: str) -> str:
    """Decompiled, printed in the ID notation, parsed and compiled again."""
    query, options = decompile_to_ir(PREFIXES + sparql)
    text = print_squall(query, "id", id_labels=False)
    return compile_query(parse_squall(text), "wikidata", None, **options), text


READ_THROUGH_A_REWRITE = {
    # a case-sensitive string test on a label, without STR(): labels are literals
    "CONTAINS on a label": 'SELECT DISTINCT ?a WHERE { ?a wdt:P106 wd:Q33999 ; rdfs:label ?l . '
                           'FILTER(CONTAINS(?l, "Hanks")) }',
    "REGEX on a label": 'ASK WHERE { wd:Q2263 wdt:P26 ?s . ?s rdfs:label ?n . FILTER(REGEX(?n, "Rita")) }',
    "STRSTARTS on a label": 'SELECT ?f WHERE { ?f wdt:P31 wd:Q11424 ; rdfs:label ?t . FILTER(STRSTARTS(?t, "The")) }',
    "LCASE of a label": 'SELECT ?f WHERE { ?f wdt:P31 wd:Q11424 ; rdfs:label ?t . FILTER(CONTAINS(LCASE(?t), "titanic")) }',
    "LCASE(STR()) against a lower-case string": 'SELECT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P1476 ?t . '
                                                'FILTER(STRSTARTS(LCASE(STR(?t)), "the")) }',
    # a plain sub-SELECT is its pattern
    "a plain sub-SELECT": 'SELECT ?p WHERE { ?p wdt:P27 wd:Q30 . { SELECT ?p WHERE { ?p wdt:P106 ?job . '
                          '?job wdt:P31 wd:Q28640 } } }',
    "sub-SELECTs under a UNION": 'SELECT ?p WHERE { { ?p wdt:P19 wd:Q60 . { SELECT ?p WHERE { ?p wdt:P20 wd:Q65 } } } '
                                 'UNION { ?p wdt:P20 wd:Q60 . { SELECT ?p WHERE { ?p wdt:P19 wd:Q65 } } } }',
    # a BIND nothing reads
    "an unused BIND": 'SELECT DISTINCT ?f WHERE { ?f wdt:P161 wd:Q2263 ; wdt:P2142 ?b . BIND(?b * 2 AS ?twice) } '
                      'ORDER BY DESC(?b) LIMIT 1',
    "unused BINDs reading each other": 'SELECT ?f WHERE { ?f wdt:P161 wd:Q2263 ; wdt:P2047 ?m . '
                                       'BIND(?m * 60 AS ?s) BIND(CONCAT(STR(?s), " s") AS ?shown) }',
    # VALUES over a predicate variable: an alternative of properties
    "VALUES over a predicate": 'SELECT DISTINCT ?place WHERE { VALUES ?p { wdt:P19 wdt:P20 } wd:Q2263 ?p ?place }',
    "VALUES over a predicate, forward": 'SELECT DISTINCT ?x WHERE { VALUES ?rel { wdt:P22 wdt:P25 wdt:P40 } '
                                        '?x ?rel wd:Q2263 . ?x wdt:P31 wd:Q5 }',
    # a statement read through ps:/pq: without its p: triple (Wikidata's statement model)
    "ps:/pq: without p:": 'SELECT DISTINCT ?actor WHERE { wd:Q1138 ^pq:P453/ps:P161 ?actor }',
    "ps: without p:": 'SELECT ?actor WHERE { ?st ps:P161 ?actor ; pq:P453 wd:Q1138 . ?actor wdt:P27 wd:Q30 }',
    # OPTIONAL + !BOUND: a negation
    "OPTIONAL and !BOUND": 'SELECT ?a WHERE { ?a wdt:P106 wd:Q33999 OPTIONAL { ?a wdt:P570 ?d } FILTER(!BOUND(?d)) }',
    "OPTIONAL and !BOUND in an ASK": 'ASK WHERE { wd:Q2263 wdt:P26 ?s OPTIONAL { ?s wdt:P570 ?d } '
                                     'FILTER(!BOUND(?d)) }',
    "OPTIONAL and BOUND": 'SELECT ?a WHERE { ?a wdt:P106 wd:Q33999 OPTIONAL { ?a wdt:P570 ?d } FILTER(BOUND(?d)) }',
    # a predicate variable named once: "has <any property> X"
    "a predicate variable": 'SELECT DISTINCT ?f WHERE { ?f ?p wd:Q2263 . ?f wdt:P31 wd:Q11424 }',
    "a predicate variable, counted": 'SELECT (COUNT(?f) AS ?n) WHERE { ?f ?rel wd:Q38111 . ?f wdt:P31 wd:Q11424 }',
    # an integer cast of an integer is the integer; a BIND compared with a value computed from constants
    "xsd:integer(YEAR()) BINDs compared with NOW()": (
        'SELECT DISTINCT ?x WHERE { ?x wdt:P31 wd:Q11424 ; wdt:P577 ?date . BIND(xsd:integer(YEAR(?date)) AS ?y) '
        'BIND(xsd:integer(YEAR(NOW())) AS ?now) FILTER(?y < ?now && ?y < (?now - 2)) }'),
    "a year compared with the year of now minus a number": (
        'SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 ; wdt:P569 ?b . FILTER(YEAR(?b) > YEAR(NOW()) - 30) }'),
    "an integer cast of a year, cast twice": (
        'SELECT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P577 ?d . FILTER(xsd:integer(xsd:integer(YEAR(?d))) = 2010) }'),
}


@pytest.mark.parametrize("name", READ_THROUGH_A_REWRITE)
def test_the_hand_written_query_round_trips_to_an_equivalent_one(name):
    sparql = PREFIXES + READ_THROUGH_A_REWRITE[name]
    compiled, text = round_trip(READ_THROUGH_A_REWRITE[name])
    assert equivalent(compiled, sparql, distinct=True), (text, compiled)


@pytest.mark.parametrize("a, b", [
    # the rewrites' conditions: where one fails, the queries differ
    ('SELECT ?a WHERE { ?a wdt:P106 ?l FILTER(CONTAINS(?l, "x")) }',  # no label: an IRI fails CONTAINS
     'SELECT ?a WHERE { ?a wdt:P106 ?l FILTER(CONTAINS(STR(?l), "x")) }'),
    ('SELECT ?a WHERE { ?a rdfs:label ?l FILTER(CONTAINS(?l, "x"@en)) }',  # a tagged argument
     'SELECT ?a WHERE { ?a rdfs:label ?l FILTER(CONTAINS(STR(?l), "x"@en)) }'),
    ('SELECT ?a WHERE { ?a wdt:P1 ?l FILTER(CONTAINS(LCASE(STR(?l)), "Ab")) }',  # upper case: never true
     'SELECT ?a WHERE { ?a wdt:P1 ?l FILTER(CONTAINS(LCASE(STR(?l)), LCASE("Ab"))) }'),
    ('SELECT ?a WHERE { ?a wdt:P1 ?b . { SELECT DISTINCT ?a WHERE { ?a wdt:P2 ?c } } }',  # DISTINCT inside
     'SELECT ?a WHERE { ?a wdt:P1 ?b . ?a wdt:P2 ?c }'),
    ('SELECT ?a WHERE { ?a wdt:P1 ?b . { SELECT ?a WHERE { ?a wdt:P2 ?c } LIMIT 1 } }',
     'SELECT ?a WHERE { ?a wdt:P1 ?b . ?a wdt:P2 ?c }'),
    ('SELECT ?a ?k WHERE { ?a wdt:P1 ?b BIND(?b + 1 AS ?k) }', 'SELECT ?a ?k WHERE { ?a wdt:P1 ?b }'),  # a column
    ('SELECT ?a WHERE { ?a wdt:P1 ?b BIND(?b + 1 AS ?k) } ORDER BY ?k', 'SELECT ?a WHERE { ?a wdt:P1 ?b } ORDER BY ?k'),
    ('SELECT ?o ?p WHERE { VALUES ?p { wdt:P1 wdt:P2 } wd:Q1 ?p ?o }',  # the predicate is a column
     'SELECT ?o WHERE { wd:Q1 wdt:P1|wdt:P2 ?o }'),
    ('SELECT ?o WHERE { VALUES ?p { wdt:P1 wdt:P2 } wd:Q1 ?p ?o . ?o ?p wd:Q2 }',  # the same predicate twice
     'SELECT ?o WHERE { wd:Q1 wdt:P1|wdt:P2 ?o . ?o wdt:P1|wdt:P2 wd:Q2 }'),
    ('SELECT ?a WHERE { ?a wdt:P1 ?b OPTIONAL { ?a wdt:P570 ?d } FILTER(!BOUND(?b)) }',  # ?b bound outside
     'SELECT ?a WHERE { ?a wdt:P1 ?b FILTER NOT EXISTS { ?a wdt:P570 ?d } }'),
    ('SELECT ?a WHERE { ?a wdt:P1 ?b OPTIONAL { ?a wdt:P570 ?d } FILTER(BOUND(?d)) }',  # no negation
     'SELECT ?a WHERE { ?a wdt:P1 ?b FILTER NOT EXISTS { ?a wdt:P570 ?d } }'),
    ('SELECT ?a WHERE { ?a wdt:P1 ?d OPTIONAL { ?a wdt:P570 ?d } FILTER(BOUND(?d)) }',  # ?d bound outside too
     'SELECT ?a WHERE { ?a wdt:P1 ?d ; wdt:P570 ?d }'),
    ('SELECT ?a WHERE { ?a wdt:P1 ?b OPTIONAL { ?a wdt:P570 ?d FILTER(?d > 1) } FILTER(BOUND(?b)) }',
     'SELECT ?a WHERE { ?a wdt:P1 ?b ; wdt:P570 ?d FILTER(?d > 1) }'),
    # a cast of what may not be an integer (a string, a decimal) is no identity
    ('SELECT ?a WHERE { ?a wdt:P1 ?b FILTER(xsd:integer(?b) = 12) }', 'SELECT ?a WHERE { ?a wdt:P1 ?b FILTER(?b = 12) }'),
    ('SELECT ?a WHERE { ?a wdt:P1 ?b FILTER(xsd:integer(?b / 2) = 1) }',
     'SELECT ?a WHERE { ?a wdt:P1 ?b FILTER(?b / 2 = 1) }'),
])
def test_a_rewrite_applies_only_where_it_is_an_equivalence(a, b):
    assert not equivalent(PREFIXES + a, PREFIXES + b)


def test_the_rewrites_are_equivalences_the_checker_sees():
    assert equivalent(PREFIXES + 'SELECT ?a WHERE { ?a wdt:P1 ?b . { SELECT ?a WHERE { ?a wdt:P2 ?b } } }',
                      PREFIXES + 'SELECT ?a WHERE { ?a wdt:P1 ?b . ?a wdt:P2 ?c }')
    assert equivalent(PREFIXES + 'ASK { wd:Q1 wdt:P31 ?x BIND(?x AS ?y) }', PREFIXES + 'ASK { wd:Q1 wdt:P31 ?x }')
    assert equivalent(PREFIXES + 'SELECT ?o WHERE { VALUES ?p { wdt:P1 wdt:P2 } wd:Q1 ?p ?o }',
                      PREFIXES + 'SELECT ?o WHERE { wd:Q1 wdt:P1|wdt:P2 ?o }')
    assert equivalent(PREFIXES + 'SELECT ?a ?d WHERE { ?a wdt:P1 ?b OPTIONAL { ?a wdt:P570 ?d } FILTER(BOUND(?d)) }',
                      PREFIXES + 'SELECT ?a ?d WHERE { ?a wdt:P1 ?b ; wdt:P570 ?d }')
    assert equivalent(PREFIXES + 'SELECT ?o WHERE { ?s ps:P161 ?o }',
                      PREFIXES + 'SELECT ?o WHERE { ?x p:P161 ?s . ?s ps:P161 ?o }')


ANY_PROPERTY_TEXTS = [
    # (ID, label, ECAI) notations of "has <any property> X", two paraphrases
    (("Which <Q11424> has <any property> <Q2263>?",
      "Which [film] has <any property> [Tom Hanks]?",
      "Which <film> has <any property> <Tom_Hanks>?"),
     "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; ?p wd:Q2263 }"),
    (("How many <Q5> that has <P106> <Q33999> have <any property> <Q38111>?",
      "How many [human] that has <occupation> [actor] have <any property> [Leonardo DiCaprio]?",
      "How many <human> that has <P106:occupation> <actor> have <any property> <Leonardo_DiCaprio>?"),
     "SELECT (COUNT(DISTINCT ?h) AS ?n) WHERE { ?h wdt:P31 wd:Q5 ; wdt:P106 wd:Q33999 ; ?rel wd:Q38111 }"),
]


@pytest.mark.parametrize("texts, sparql", ANY_PROPERTY_TEXTS)
def test_any_property_compiles_to_a_predicate_variable_in_every_notation(texts, sparql):
    assert {detect_notation(t) for t in texts} >= {"label", "ecai"}
    for text in texts:
        compiled = cnl.compile(text, lexicon=Lexicon())
        assert equivalent(compiled, PREFIXES + sparql, distinct=True), (text, compiled)
        assert "?property" in compiled  # a variable of its own, never a lexicon's property


def test_any_property_is_no_answer_column_and_takes_no_qualifier():
    compiled = cnl.compile("What has <any property> <Q2263>?")
    assert "SELECT DISTINCT ?answer WHERE" in compiled or "SELECT ?answer WHERE" in compiled
    with pytest.raises(CompileError, match="any property"):
        cnl.compile("What has <any property> <Q2263> at <P580> 2001?")
    path = ir.PropPath("/", (ir.Property(label="any property"), ir.Property("P131")))
    query = ir.Query(ir.Quant("which"), ir.Stmt(path, ir.Ref(ir.Entity("Q2263"))))
    with pytest.raises(CompileError, match="any property"):
        compile_query(query, "wikidata", None)


@pytest.mark.parametrize("sparql", [
    "SELECT ?s ?p WHERE { ?s ?p wd:Q2263 }",                      # the predicate is an answer
    "SELECT ?s WHERE { ?s ?p wd:Q2263 . ?s ?p wd:Q38111 }",        # one predicate, two links
    'SELECT ?s WHERE { ?s ?p wd:Q2263 FILTER(?p != wdt:P31) }',  # the predicate tested
])
def test_a_predicate_variable_that_says_more_is_refused(sparql):
    with pytest.raises(UnsupportedSPARQLError) as err:
        decompile_to_ir(PREFIXES + sparql)
    assert "predicate" in err.value.construct


def test_a_bound_test_that_is_always_false_is_refused_not_changed():
    # ?d is bound by a required triple: FILTER(!BOUND(?d)) never holds (a malformed gold)
    with pytest.raises(UnsupportedSPARQLError) as err:
        decompile_to_ir(PREFIXES + "ASK WHERE { wd:Q2263 wdt:P570 ?d . FILTER(!BOUND(?d)) }")
    assert err.value.construct == "a FILTER on BOUND()"


def test_an_undeclared_empty_prefix_is_named_not_reported_as_none():
    # ":a" where "_:a" (a blank node) was meant: the error names the prefix and the blank-node spelling
    with pytest.raises(SPARQLParseError, match=r"the prefix ':' is used but not declared \(a blank node is written _:name\)"):
        decompile_to_ir(PREFIXES + "SELECT ?r WHERE { ?r p:P39 _:a . :a pq:P580 ?start }")
    # blank nodes themselves read like variables
    query, _ = decompile_to_ir(PREFIXES + "SELECT ?r WHERE { ?r p:P39 _:a . _:a ps:P39 wd:Q30185 ; pq:P580 ?start }")
    assert query is not None


def test_an_ordering_by_numbers_written_as_strings_keeps_its_cast_as_a_profile_option():
    # Wikidata's series ordinals are strings: ORDER BY xsd:integer(?o) orders "10" after "9"; the
    # superlative keeps the key and the profile option order_cast writes the cast back
    sparql = ('SELECT DISTINCT ?f ?o WHERE { ?f wdt:P31 wd:Q11424 . ?f p:P179 [ pq:P1545 ?o ; ps:P179 wd:Q652599 ] . } '
              'ORDER BY ASC(xsd:integer(?o)) LIMIT 1')
    query, options = decompile_to_ir(PREFIXES + "PREFIX xsd: <http://www.w3.org/2001/XMLSchema#> " + sparql)
    assert options["order_cast"] == "integer"
    assert print_squall(query, "id", id_labels=False) == "Which <Q11424> has <P179> <Q652599> at the lowest <P1545>?"
    compiled = compile_query(query, "wikidata", None, **options)
    assert "ORDER BY ASC(xsd:integer(?" in compiled
    assert equivalent(compiled, PREFIXES + "PREFIX xsd: <http://www.w3.org/2001/XMLSchema#> " + sparql, distinct=True)
    # without the option the ordering is by the strings: another query
    assert not equivalent(compile_query(query, "wikidata", None, **{**options, "order_cast": None}),
                          PREFIXES + "PREFIX xsd: <http://www.w3.org/2001/XMLSchema#> " + sparql)
    # a cast of some keys only has no option that says it
    with pytest.raises(UnsupportedSPARQLError):
        decompile_to_ir(PREFIXES + "PREFIX xsd: <http://www.w3.org/2001/XMLSchema#> SELECT ?f WHERE { ?f wdt:P2047 ?d ; "
                        "wdt:P577 ?p } ORDER BY DESC(xsd:integer(?d)) ASC(?p)")
    with pytest.raises(CompileError):
        compile_query(query, "wikidata", None, order_cast="string")
