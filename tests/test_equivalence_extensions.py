"""Issue 29: the equivalences the checker learnt (sequence paths vs joins, FILTER(a && b) vs two
FILTERs, MINUS vs FILTER NOT EXISTS on a shared variable, IN vs VALUES), each sound: every pair
called equivalent gives the same answers on a small graph built to tell such pairs apart, and
each near miss (the same shape with the one condition the equivalence needs broken) stays
non-equivalent and gives other answers there."""
from __future__ import annotations

from collections import Counter

import pytest

from cnl.sparql.equivalence import equivalent, explain_difference

pyoxigraph = pytest.importorskip("pyoxigraph")

PREFIXES = ("PREFIX wd: <http://www.wikidata.org/entity/> PREFIX wdt: <http://www.wikidata.org/prop/direct/> "
            "PREFIX p: <http://www.wikidata.org/prop/> PREFIX ps: <http://www.wikidata.org/prop/statement/> ")
WD, WDT = "http://www.wikidata.org/entity/", "http://www.wikidata.org/prop/direct/"

# A graph with the cases each near miss needs: Q1 a human with two occupations and an award,
# Q2 a human without, Q3 not a human, Q4 a human whose P2 is a literal; Q9 subclass chains.
TRIPLES = [
    ("Q1", "P31", "Q5"), ("Q2", "P31", "Q5"), ("Q4", "P31", "Q5"), ("Q3", "P31", "Q6"),
    ("Q1", "P106", "Q10"), ("Q1", "P106", "Q11"), ("Q2", "P106", "Q10"),
    ("Q1", "P166", "Q20"), ("Q3", "P166", "Q20"),
    ("Q10", "P279", "Q12"), ("Q11", "P279", "Q12"),
]
LITERALS = [("Q4", "P2", "1"), ("Q1", "P2", "7")]


@pytest.fixture(scope="module")
def store():
    graph = pyoxigraph.Store()
    for s, p, o in TRIPLES:
        graph.add(pyoxigraph.Quad(pyoxigraph.NamedNode(WD + s), pyoxigraph.NamedNode(WDT + p),
                                  pyoxigraph.NamedNode(WD + o)))
    for s, p, value in LITERALS:
        graph.add(pyoxigraph.Quad(pyoxigraph.NamedNode(WD + s), pyoxigraph.NamedNode(WDT + p),
                                  pyoxigraph.Literal(value, datatype=pyoxigraph.NamedNode(
                                      "http://www.w3.org/2001/XMLSchema#integer"))))
    return graph


def answers(store, sparql):
    result = store.query(PREFIXES + sparql)
    if not hasattr(result, "variables"):  # an ASK's boolean result
        return bool(result)
    names = [v.value for v in result.variables]
    return Counter(tuple(str(row[n]) if row[n] is not None else "" for n in names) for row in result)


# (first, second): the checker says equivalent, and the answers agree
EQUIVALENT = [
    # sequence path vs a join through a variable used nowhere else
    ("SELECT ?x ?y WHERE { ?x wdt:P106/wdt:P279 ?y }",
     "SELECT ?x ?y WHERE { ?x wdt:P106 ?m . ?m wdt:P279 ?y }"),
    ("SELECT ?x WHERE { ?x ^wdt:P31 ?y }", "SELECT ?x WHERE { ?y wdt:P31 ?x }"),
    # FILTER(a && b) vs two FILTERs
    ("SELECT ?x WHERE { ?x wdt:P2 ?v FILTER(?v > 0 && ?v < 5) }",
     "SELECT ?x WHERE { ?x wdt:P2 ?v FILTER(?v > 0) FILTER(?v < 5) }"),
    ("SELECT ?x WHERE { ?x wdt:P31 wd:Q5 . ?x wdt:P2 ?v FILTER(?v > 0) FILTER NOT EXISTS { ?x wdt:P166 ?a } }",
     "SELECT ?x WHERE { ?x wdt:P31 wd:Q5 . ?x wdt:P2 ?v FILTER(?v > 0 && NOT EXISTS { ?x wdt:P166 ?a }) }"),
    # MINUS vs FILTER NOT EXISTS, the left side binding a variable of the right
    ("SELECT ?x WHERE { ?x wdt:P31 wd:Q5 . MINUS { ?x wdt:P166 ?a } }",
     "SELECT ?x WHERE { ?x wdt:P31 wd:Q5 . FILTER NOT EXISTS { ?x wdt:P166 ?a } }"),
    ("SELECT ?x WHERE { ?x wdt:P31 wd:Q5 . ?x wdt:P106 ?o . MINUS { ?o wdt:P279 wd:Q12 . ?x wdt:P166 ?a } }",
     "SELECT ?x WHERE { ?x wdt:P31 wd:Q5 . ?x wdt:P106 ?o . FILTER NOT EXISTS { ?o wdt:P279 wd:Q12 . ?x wdt:P166 ?a } }"),
    # IN vs VALUES over IRIs, the variable bound by the rest of the group
    ("SELECT ?x WHERE { ?x wdt:P31 wd:Q5 . FILTER(?x IN (wd:Q1, wd:Q3)) }",
     "SELECT ?x WHERE { ?x wdt:P31 wd:Q5 . VALUES ?x { wd:Q1 wd:Q3 } }"),
    ("SELECT ?o WHERE { wd:Q1 wdt:P106 ?o . FILTER(?o IN (wd:Q10)) }",
     "SELECT ?o WHERE { wd:Q1 wdt:P106 ?o . VALUES ?o { wd:Q10 } }"),
    ("SELECT ?x WHERE { ?x wdt:P31 wd:Q5 . FILTER(?x NOT IN (wd:Q1)) }",
     "SELECT ?x WHERE { ?x wdt:P31 wd:Q5 . FILTER(?x != wd:Q1) }"),
    # a variable of several UNION branches and nothing else: one per branch
    ("SELECT ?o WHERE { { wd:Q1 wdt:P106 ?m . ?m wdt:P279 ?o } UNION { wd:Q2 wdt:P106 ?m . ?m wdt:P279 ?o } }",
     "SELECT ?o WHERE { { wd:Q1 wdt:P106 ?m . ?m wdt:P279 ?o } UNION { wd:Q2 wdt:P106 ?n . ?n wdt:P279 ?o } }"),
    # a BIND only FILTERs read is the FILTER reading its expression; a BIND nothing reads is no test
    ("SELECT ?x WHERE { ?x wdt:P2 ?v . wd:Q1 wdt:P2 ?w . BIND(?v + ?w AS ?s) FILTER(?s > 8) }",
     "SELECT ?x WHERE { ?x wdt:P2 ?v . wd:Q1 wdt:P2 ?w . FILTER(?v + ?w > 8) }"),
    ("SELECT ?x WHERE { ?x wdt:P2 ?v . BIND(?v * 2 AS ?d) }", "SELECT ?x WHERE { ?x wdt:P2 ?v }"),
    # a sub-query's variables it does not project are its own: two sub-queries may name one ?v
    ("ASK { { SELECT (COUNT(?v) AS ?a) WHERE { wd:Q1 wdt:P106 ?v } } "
     "{ SELECT (COUNT(?v) AS ?b) WHERE { wd:Q2 wdt:P106 ?v } } FILTER(?a > ?b) }",
     "ASK { { SELECT (COUNT(?v) AS ?a) WHERE { wd:Q1 wdt:P106 ?v } } "
     "{ SELECT (COUNT(?w) AS ?b) WHERE { wd:Q2 wdt:P106 ?w } } FILTER(?a > ?b) }"),
    # FILTER EXISTS vs a join, where the answers are a set (DISTINCT, ASK, COUNT(DISTINCT), MAX)
    ("SELECT DISTINCT ?x WHERE { ?x wdt:P31 wd:Q5 . FILTER EXISTS { ?x wdt:P106 ?o } }",
     "SELECT DISTINCT ?x WHERE { ?x wdt:P31 wd:Q5 . ?x wdt:P106 ?o }"),
    ("ASK { wd:Q1 wdt:P31 ?c . FILTER EXISTS { wd:Q1 wdt:P106 ?o } }", "ASK { wd:Q1 wdt:P31 ?c . wd:Q1 wdt:P106 ?o }"),
    ("SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE { ?x wdt:P31 wd:Q5 . FILTER EXISTS { ?x wdt:P106 [] } }",
     "SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE { ?x wdt:P31 wd:Q5 . ?x wdt:P106 ?o }"),
    ("SELECT ?c (MAX(?v) AS ?m) WHERE { ?x wdt:P31 ?c ; wdt:P2 ?v . FILTER EXISTS { ?x wdt:P106 ?o } } GROUP BY ?c",
     "SELECT ?c (MAX(?v) AS ?m) WHERE { ?x wdt:P31 ?c ; wdt:P2 ?v ; wdt:P106 ?o } GROUP BY ?c"),
]

# (first, second): one condition broken; the checker keeps them apart and the answers differ
NEAR_MISSES = [
    # the middle variable is also an answer: the join says more than the path
    ("SELECT * WHERE { ?x wdt:P106/wdt:P279 ?y }",
     "SELECT * WHERE { ?x wdt:P106 ?m . ?m wdt:P279 ?y }"),
    # the middle variable is the end too: a cycle, not a path
    ("SELECT ?x WHERE { ?x wdt:P106/wdt:P279 ?y }",
     "SELECT ?x WHERE { ?x wdt:P106 ?y . ?y wdt:P279 ?y }"),
    # || is not two FILTERs
    ("SELECT ?x WHERE { ?x wdt:P2 ?v FILTER(?v > 5 || ?v < 5) }",
     "SELECT ?x WHERE { ?x wdt:P2 ?v FILTER(?v > 5) FILTER(?v < 5) }"),
    # MINUS sharing no variable with its left side removes nothing; NOT EXISTS removes all
    ("SELECT ?x WHERE { ?x wdt:P31 wd:Q5 . MINUS { ?y wdt:P166 ?a } }",
     "SELECT ?x WHERE { ?x wdt:P31 wd:Q5 . FILTER NOT EXISTS { ?y wdt:P166 ?a } }"),
    # the shared variable is only bound by an OPTIONAL: MINUS keeps the solutions without it
    ("SELECT ?x WHERE { ?x wdt:P31 wd:Q5 . OPTIONAL { ?x wdt:P166 ?a } MINUS { ?a wdt:P279 ?z } }",
     "SELECT ?x WHERE { ?x wdt:P31 wd:Q5 . OPTIONAL { ?x wdt:P166 ?a } FILTER NOT EXISTS { ?a wdt:P279 ?z } }"),
    # VALUES binds a variable the rest leaves unbound; IN tests it (an error, so no answer)
    ("SELECT ?x ?o WHERE { ?x wdt:P31 wd:Q6 . OPTIONAL { ?x wdt:P106 ?o } FILTER(?o IN (wd:Q10, wd:Q11)) }",
     "SELECT ?x ?o WHERE { ?x wdt:P31 wd:Q6 . OPTIONAL { ?x wdt:P106 ?o } VALUES ?o { wd:Q10 wd:Q11 } }"),
    # a repeated VALUES row repeats the answers
    ("SELECT ?x WHERE { ?x wdt:P31 wd:Q5 . FILTER(?x IN (wd:Q1, wd:Q2)) }",
     "SELECT ?x WHERE { ?x wdt:P31 wd:Q5 . VALUES ?x { wd:Q1 wd:Q2 wd:Q1 } }"),
    # literals: IN compares values (1 = 1.0), a join compares terms
    ("SELECT ?x WHERE { ?x wdt:P2 ?v . FILTER(?v IN (1.0, 7.0)) }",
     "SELECT ?x WHERE { ?x wdt:P2 ?v . VALUES ?v { 1.0 7.0 } }"),
    # the UNION branches' variable is also read outside the UNION: one variable
    ("SELECT ?o WHERE { { wd:Q1 wdt:P106 ?m } UNION { wd:Q2 wdt:P106 ?m } ?m wdt:P279 ?o . wd:Q1 wdt:P106 ?m }",
     "SELECT ?o WHERE { { wd:Q1 wdt:P106 ?m } UNION { wd:Q2 wdt:P106 ?n } ?m wdt:P279 ?o . wd:Q1 wdt:P106 ?m }"),
    # ... or is an answer
    ("SELECT ?m WHERE { { wd:Q1 wdt:P106 ?m } UNION { wd:Q2 wdt:P106 ?m } }",
     "SELECT ?m WHERE { { wd:Q1 wdt:P106 ?m } UNION { wd:Q2 wdt:P106 ?n } }"),
    # the BIND's value is an answer: inlining would drop the column
    ("SELECT ?x ?s WHERE { ?x wdt:P2 ?v . BIND(?v + 1 AS ?s) FILTER(?s > 5) }",
     "SELECT ?x ?s WHERE { ?x wdt:P2 ?v . FILTER(?v + 1 > 5) }"),
    # the BIND reads a variable bound only after it (unbound there): no value, the FILTER fails
    ("SELECT ?x WHERE { BIND(?v + 1 AS ?s) ?x wdt:P2 ?v . FILTER(?s > 5) }",
     "SELECT ?x WHERE { ?x wdt:P2 ?v . FILTER(?v + 1 > 5) }"),
    # a variable a sub-query projects is the query's: joined with the same name outside
    ("SELECT ?o WHERE { { SELECT ?o WHERE { wd:Q1 wdt:P106 ?o } } ?o wdt:P279 ?c . wd:Q2 wdt:P106 ?o }",
     "SELECT ?o WHERE { { SELECT ?o WHERE { wd:Q1 wdt:P106 ?o } } ?o wdt:P279 ?c . wd:Q2 wdt:P106 ?p }"),
    # EXISTS vs a join where duplicates show: a SELECT without DISTINCT, a COUNT without DISTINCT
    ("SELECT ?x WHERE { ?x wdt:P31 wd:Q5 . FILTER EXISTS { ?x wdt:P106 ?o } }",
     "SELECT ?x WHERE { ?x wdt:P31 wd:Q5 . ?x wdt:P106 ?o }"),
    ("SELECT (COUNT(?x) AS ?n) WHERE { ?x wdt:P31 wd:Q5 . FILTER EXISTS { ?x wdt:P106 ?o } }",
     "SELECT (COUNT(?x) AS ?n) WHERE { ?x wdt:P31 wd:Q5 . ?x wdt:P106 ?o }"),
    # the EXISTS variable is an answer elsewhere: the join binds it, EXISTS does not
    ("SELECT DISTINCT ?x ?o WHERE { ?x wdt:P31 wd:Q5 . OPTIONAL { ?x wdt:P166 ?o } FILTER EXISTS { ?x wdt:P106 ?o } }",
     "SELECT DISTINCT ?x ?o WHERE { ?x wdt:P31 wd:Q5 . OPTIONAL { ?x wdt:P166 ?o } ?x wdt:P106 ?o }"),
    # the shared variable is only bound by an OPTIONAL: the join binds it where EXISTS tests any
    ("SELECT DISTINCT ?x ?a WHERE { ?x wdt:P31 wd:Q5 . OPTIONAL { ?x wdt:P166 ?a } FILTER EXISTS { ?y wdt:P166 ?a } }",
     "SELECT DISTINCT ?x ?a WHERE { ?x wdt:P31 wd:Q5 . OPTIONAL { ?x wdt:P166 ?a } ?y wdt:P166 ?a }"),
]
# near misses that differ only in how often an answer repeats: apart when duplicates are
# compared (distinct=True), one set of answers otherwise
DUPLICATES_ONLY = {NEAR_MISSES[-4], NEAR_MISSES[-6]}

# i29sparql: ORDER BY an expression vs a BIND only the ordering reads ("such that (?p / ?a) is
# the highest"); FILTER EXISTS { Q FILTER(c) } vs Q and c in the group, where answers are a set
EQUIVALENT += [
    ("SELECT ?x WHERE { ?x wdt:P2 ?v . BIND(?v * -1 AS ?k) } ORDER BY DESC(?k) LIMIT 1",
     "SELECT ?x WHERE { ?x wdt:P2 ?v } ORDER BY DESC(?v * -1) LIMIT 1"),
    ("SELECT DISTINCT ?x WHERE { ?x wdt:P31 wd:Q5 . FILTER EXISTS { ?x wdt:P2 ?v FILTER(?v > 3) } }",
     "SELECT DISTINCT ?x WHERE { ?x wdt:P31 wd:Q5 . ?x wdt:P2 ?v FILTER(?v > 3) }"),
]
_EXISTS_WITH_DUPLICATES = (
    "SELECT ?x WHERE { ?x wdt:P31 wd:Q5 . FILTER EXISTS { ?x wdt:P106 ?o FILTER(?o != wd:Q99) } }",
    "SELECT ?x WHERE { ?x wdt:P31 wd:Q5 . ?x wdt:P106 ?o FILTER(?o != wd:Q99) }")
NEAR_MISSES += [
    # the BIND's value is an answer column: the ordering by the expression leaves it unbound
    ("SELECT ?x ?k WHERE { ?x wdt:P2 ?v . BIND(?v * -1 AS ?k) } ORDER BY DESC(?k) LIMIT 1",
     "SELECT ?x ?k WHERE { ?x wdt:P2 ?v } ORDER BY DESC(?v * -1) LIMIT 1"),
    # EXISTS with a FILTER vs the join where duplicates show (Q1 has two occupations)
    _EXISTS_WITH_DUPLICATES,
]
DUPLICATES_ONLY |= {_EXISTS_WITH_DUPLICATES}

# lead3: a SELECT of every variable of plain triples gives each row once without DISTINCT, so its
# FILTER EXISTS is the join of the query that removes duplicates; not where a variable is unseen
EQUIVALENT += [
    ("SELECT ?x WHERE { ?x wdt:P31 wd:Q5 . FILTER EXISTS { ?x wdt:P106 ?o } }",
     "SELECT DISTINCT ?x WHERE { ?x wdt:P31 wd:Q5 . ?x wdt:P106 ?o }"),
    ("SELECT ?x WHERE { ?x wdt:P31 wd:Q5 }", "SELECT DISTINCT ?x WHERE { ?x wdt:P31 wd:Q5 }"),
]
# lead3: the OPTIONAL of FILTER(!BOUND(?v)) anywhere in the group (rdflib nests it in a join
# with what follows it); not where what follows names the OPTIONAL's own variable
EQUIVALENT += [
    ("SELECT ?x WHERE { ?x wdt:P31 wd:Q5 . OPTIONAL { ?x wdt:P166 ?a } ?x wdt:P106 ?o . FILTER(!BOUND(?a)) }",
     "SELECT ?x WHERE { ?x wdt:P31 wd:Q5 . ?x wdt:P106 ?o . FILTER NOT EXISTS { ?x wdt:P166 ?a } }"),
]
NEAR_MISSES += [
    ("SELECT ?x WHERE { ?x wdt:P31 wd:Q5 . OPTIONAL { ?x wdt:P166 ?a } ?y wdt:P166 ?a . FILTER(!BOUND(?a)) }",
     "SELECT ?x WHERE { ?x wdt:P31 wd:Q5 . ?y wdt:P166 ?a . FILTER NOT EXISTS { ?x wdt:P166 ?a } }"),
]
_UNSEEN_VARIABLE = ("SELECT ?x WHERE { ?x wdt:P31 wd:Q5 ; wdt:P106 ?o }",
                    "SELECT DISTINCT ?x WHERE { ?x wdt:P31 wd:Q5 ; wdt:P106 ?o }")
NEAR_MISSES += [_UNSEEN_VARIABLE]
DUPLICATES_ONLY |= {_UNSEEN_VARIABLE}

# a query that only wraps a sub-SELECT, projecting its columns, is that sub-SELECT; not where the
# outer query adds a modifier (DISTINCT over a LIMIT's rows is another set of rows)
EQUIVALENT += [
    ("SELECT ?n WHERE { { SELECT (COUNT(?x) AS ?n) WHERE { ?x wdt:P31 wd:Q5 . } } }",
     "SELECT (COUNT(?x) AS ?n) WHERE { ?x wdt:P31 wd:Q5 . }"),
    ("SELECT * WHERE { { SELECT DISTINCT ?x WHERE { ?x wdt:P106 ?o . } ORDER BY ?x LIMIT 2 } }",
     "SELECT DISTINCT ?x WHERE { ?x wdt:P106 ?o . } ORDER BY ?x LIMIT 2"),
]
NEAR_MISSES += [
    ("SELECT DISTINCT ?o WHERE { { SELECT ?o WHERE { ?x wdt:P106 ?o . } ORDER BY ?o LIMIT 2 } }",
     "SELECT ?o WHERE { ?x wdt:P106 ?o . } ORDER BY ?o LIMIT 2"),
]

# NOT IN is (x != a) && (x != b) (SPARQL 1.1 §17.4.1.10), and !(x = a || x = b) the same by De
# Morgan, which holds in SPARQL's three-valued logic; "!= or !=" is another test
EQUIVALENT += [
    ("SELECT ?x WHERE { ?x wdt:P31 wd:Q5 . FILTER(?x NOT IN (wd:Q1, wd:Q2)) }",
     "SELECT ?x WHERE { ?x wdt:P31 wd:Q5 . FILTER(!(?x = wd:Q1 || ?x = wd:Q2)) }"),
    ("SELECT ?x WHERE { ?x wdt:P2 ?v . FILTER(?v NOT IN (1, 7)) }",
     "SELECT ?x WHERE { ?x wdt:P2 ?v . FILTER(?v != 1 && ?v != 7) }"),
]
NEAR_MISSES += [
    ("SELECT ?x WHERE { ?x wdt:P31 wd:Q5 . FILTER(!(?x = wd:Q1 || ?x = wd:Q2)) }",
     "SELECT ?x WHERE { ?x wdt:P31 wd:Q5 . FILTER(?x != wd:Q1 || ?x != wd:Q2) }"),
]


@pytest.mark.parametrize("first,second", EQUIVALENT)
def test_equivalences_hold_and_agree_on_data(store, first, second):
    assert equivalent(PREFIXES + first, PREFIXES + second, distinct=True), explain_difference(
        PREFIXES + first, PREFIXES + second, distinct=True)
    assert answers(store, first) == answers(store, second)


@pytest.mark.parametrize("first,second", NEAR_MISSES)
def test_near_misses_stay_apart_and_differ_on_data(store, first, second):
    assert not equivalent(PREFIXES + first, PREFIXES + second, distinct=True)
    if (first, second) not in DUPLICATES_ONLY:
        assert not equivalent(PREFIXES + first, PREFIXES + second)
    assert answers(store, first) != answers(store, second)


def test_label_service_is_presentation_only_when_asked():
    with_service = ('SELECT ?x ?xLabel WHERE { ?x wdt:P31 wd:Q5 . '
                    'SERVICE wikibase:label { bd:serviceParam wikibase:language "en" } }')
    plain = "SELECT ?x WHERE { ?x wdt:P31 wd:Q5 }"
    assert not equivalent(with_service, plain)
    assert equivalent(with_service, plain, drop_label_service=True)
    # a service that looks something up is no presentation: it stays
    lookup = ('SELECT ?d WHERE { SERVICE wikibase:label { bd:serviceParam wikibase:language "en" . '
              'wd:Q1 schema:description ?d } }')
    assert not equivalent(lookup, "SELECT ?d WHERE { wd:Q1 schema:description ?d }", drop_label_service=True)


# i29d: a BIND that reads another BIND's value (ECAI's BIND(YEAR(?s) AS ?y) BIND(ABS(?y - ...) AS ?d))
# reads its expression; where the first value is an error (Q2 has no P2), both leave ?d unbound
_CHAINED = [
    ("SELECT ?x ?k ?d WHERE { ?x wdt:P2 ?v . BIND(?v * 2 AS ?k) BIND(ABS(?k - 10) AS ?d) }",
     "SELECT ?x ?k ?d WHERE { ?x wdt:P2 ?v . BIND(?v * 2 AS ?k) BIND(ABS(?v * 2 - 10) AS ?d) }"),
    ("SELECT ?x ?d WHERE { ?x wdt:P2 ?v . BIND(?v * 2 AS ?k) BIND(?k + 1 AS ?d) }",
     "SELECT ?x ?d WHERE { ?x wdt:P2 ?v . BIND(?v * 2 + 1 AS ?d) }"),
    ("SELECT ?x ?d WHERE { ?x wdt:P31 wd:Q5 . OPTIONAL { ?x wdt:P2 ?v } BIND(?v * 2 AS ?k) BIND(?k + 1 AS ?d) }",
     "SELECT ?x ?d WHERE { ?x wdt:P31 wd:Q5 . OPTIONAL { ?x wdt:P2 ?v } BIND(?v * 2 + 1 AS ?d) }"),
]
EQUIVALENT += _CHAINED
NEAR_MISSES += [
    # another expression in the second BIND
    ("SELECT ?x ?k ?d WHERE { ?x wdt:P2 ?v . BIND(?v * 2 AS ?k) BIND(?k + 1 AS ?d) }",
     "SELECT ?x ?k ?d WHERE { ?x wdt:P2 ?v . BIND(?v * 2 AS ?k) BIND(?v + 1 AS ?d) }"),
]


def test_a_bind_of_a_fresh_value_is_not_read_as_its_expression(store):
    # RAND() gives a new value at each call: ?d is ?k's value, not another draw
    first = "SELECT ?x ?k ?d WHERE { ?x wdt:P2 ?v . BIND(RAND() AS ?k) BIND(?k AS ?d) }"
    second = "SELECT ?x ?k ?d WHERE { ?x wdt:P2 ?v . BIND(RAND() AS ?k) BIND(RAND() AS ?d) }"
    assert not equivalent(PREFIXES + first, PREFIXES + second, distinct=True)
    assert all(k == d for _, k, d in answers(store, first))
    assert any(k != d for _, k, d in answers(store, second))


# i29d: FILTER EXISTS over triples whose variables the query binds already (a statement's
# qualifier with a named value) is the join, duplicates kept too: each solution matches a ground
# triple once or not at all (Q1's two occupations are both subclasses of Q12: two rows either way)
EQUIVALENT += [
    ("SELECT ?x WHERE { ?x wdt:P31 wd:Q5 . ?x wdt:P106 ?o . FILTER EXISTS { ?o wdt:P279 wd:Q12 } }",
     "SELECT ?x WHERE { ?x wdt:P31 wd:Q5 . ?x wdt:P106 ?o . ?o wdt:P279 wd:Q12 }"),
]

# i29d: arithmetic of one level grouped to the left is the same expression ((a * b) / c = a * b / c);
# grouped to the right it is another (?v - (2 + 4) is not ?v - 2 + 4)
EQUIVALENT += [
    ("SELECT ?x ?r WHERE { ?x wdt:P2 ?v . BIND((?v * 2) / 4 AS ?r) }",
     "SELECT ?x ?r WHERE { ?x wdt:P2 ?v . BIND(?v * 2 / 4 AS ?r) }"),
    ("SELECT ?x ?r WHERE { ?x wdt:P2 ?v . BIND((?v - 2) + 4 AS ?r) }",
     "SELECT ?x ?r WHERE { ?x wdt:P2 ?v . BIND(?v - 2 + 4 AS ?r) }"),
]
NEAR_MISSES += [
    ("SELECT ?x ?r WHERE { ?x wdt:P2 ?v . BIND(?v - (2 + 4) AS ?r) }",
     "SELECT ?x ?r WHERE { ?x wdt:P2 ?v . BIND(?v - 2 + 4 AS ?r) }"),
]

# i29d: a FILTER over a BIND's value reads its expression (the BIND stays where it is an answer);
# where the value is an error (Q2 has no P2), the FILTER sees an unbound value or the error alike
EQUIVALENT += [
    ("SELECT ?x ?k WHERE { ?x wdt:P2 ?v . BIND(?v * 2 AS ?k) FILTER(?k > 3) }",
     "SELECT ?x ?k WHERE { ?x wdt:P2 ?v . BIND(?v * 2 AS ?k) FILTER(?v * 2 > 3) }"),
    ("SELECT ?x ?k WHERE { ?x wdt:P31 wd:Q5 . OPTIONAL { ?x wdt:P2 ?v } BIND(?v * 2 AS ?k) FILTER(COALESCE(?k, 0) < 3) }",
     "SELECT ?x ?k WHERE { ?x wdt:P31 wd:Q5 . OPTIONAL { ?x wdt:P2 ?v } BIND(?v * 2 AS ?k) "
     "FILTER(COALESCE(?v * 2, 0) < 3) }"),
]
NEAR_MISSES += [
    # BOUND tells the unbound value from the expression: kept apart
    ("SELECT ?x WHERE { ?x wdt:P31 wd:Q5 . OPTIONAL { ?x wdt:P2 ?v } BIND(?v * 2 AS ?k) FILTER(BOUND(?k)) }",
     "SELECT ?x WHERE { ?x wdt:P31 wd:Q5 . OPTIONAL { ?x wdt:P2 ?v } BIND(?v * 2 AS ?k) FILTER(!BOUND(?k)) }"),
]

# i29d: a named value BIND'd to a variable that only the triples read is that value in the triples;
# not where the variable is an answer column too
EQUIVALENT += [
    ("SELECT ?x WHERE { BIND(wd:Q5 AS ?c) ?x wdt:P31 ?c }", "SELECT ?x WHERE { ?x wdt:P31 wd:Q5 }"),
    ("SELECT ?x ?o WHERE { BIND(wd:Q12 AS ?c) ?x wdt:P106 ?o . ?o wdt:P279 ?c }",
     "SELECT ?x ?o WHERE { ?x wdt:P106 ?o . ?o wdt:P279 wd:Q12 }"),
]
NEAR_MISSES += [
    ("SELECT ?x ?c WHERE { BIND(wd:Q5 AS ?c) ?x wdt:P31 ?c }", "SELECT ?x ?c WHERE { ?x wdt:P31 ?c }"),
]


# A FILTER applies to its whole group: a projected expression over a filtered pattern is that
# pattern with a BIND and the FILTER beside it, where the FILTER does not read the BIND's value
EQUIVALENT += [
    ("SELECT (?v * 2 AS ?k) WHERE { ?x wdt:P2 ?v . FILTER(?v > 3) }",
     "SELECT ?k WHERE { ?x wdt:P2 ?v . BIND(?v * 2 AS ?k) FILTER(?v > 3) }"),
    ("SELECT ?x ?k WHERE { { ?x wdt:P2 ?v . FILTER(?v > 3) } BIND(?v * 2 AS ?k) }",
     "SELECT ?x ?k WHERE { ?x wdt:P2 ?v . BIND(?v * 2 AS ?k) FILTER(?v > 3) }"),
]
NEAR_MISSES += [
    # inside its own group the FILTER reads the BIND's value before it is bound: kept apart
    ("SELECT ?x WHERE { { ?x wdt:P2 ?v . FILTER(!BOUND(?k)) } BIND(?v * 2 AS ?k) }",
     "SELECT ?x WHERE { ?x wdt:P2 ?v . BIND(?v * 2 AS ?k) FILTER(!BOUND(?k)) }"),
]


# STRENDS(a, "v") is REGEX(a, "v$") with v's special characters escaped (what the decompiler
# reads it as: "case-sensitively matching "v$"")
EQUIVALENT += [
    ('SELECT ?x WHERE { ?x wdt:P2 ?v . FILTER(STRENDS(STR(?v), "7")) }',
     'SELECT ?x WHERE { ?x wdt:P2 ?v . FILTER(REGEX(STR(?v), "7$")) }'),
]
NEAR_MISSES += [
    # "." unescaped matches any character: another test
    ('SELECT ?x WHERE { ?x wdt:P2 ?v . FILTER(STRENDS(STR(?v), ".")) }',
     'SELECT ?x WHERE { ?x wdt:P2 ?v . FILTER(REGEX(STR(?v), ".$")) }'),
]
