"""IR -> SPARQL: constructs, profile options, validity with rdflib and pyoxigraph, safety."""
import pyoxigraph
import pytest
from rdflib.plugins.sparql import prepareQuery

import cnl
from cnl.sparql.equivalence import equivalent
from cnl.sparql.profiles import WikidataProfile
from cnl.errors import CompileError, LexiconError
from tests.roundtrip_helpers import PREFIXES

LEX = {
    "film": "Q11424", "human": "Q5", "director": "P57", "Jon Favreau": "Q295964",
    "publication date": "P577", "cast member": "P161", "Scarlett Johansson": "Q34436",
    "spouse": "P26", "Mark Antony": "Q51673", "series ordinal": "P1545", "part of the series": "P179",
    "Twilight": "Q44523", "child": "P40", "title": "P1476", "award received": "P166",
    "Academy Awards": "Q19020", "John Wayne": "Q40531", "point in time": "P585",
    "start time": "P580", "position held": "P39", "President of the United States": "Q11696",
    "Barack Obama": "Q76", "elevation": "P2044", "mountain": "Q8502", "date of birth": "P569",
    "member": "^P463", "Blackpink": "Q25056945",
}


def compile_(text, **options):
    return cnl.compile(text, lexicon=LEX, **options)


def valid(sparql):
    prepareQuery(sparql)
    pyoxigraph.Store().query(sparql)
    return sparql


def same(sparql, expected_where, head="SELECT DISTINCT ?x WHERE"):
    prefixes = "\n".join(f"PREFIX {p}: <{u}>" for p, u in WikidataProfile().prefixes.items())
    return equivalent(sparql, f"{prefixes}\n{head} {{ {expected_where} }}")


# The default profile follows Wikidata practice: wdt: unless a qualifier needs a statement.
CASES = [
    ("which [film] has <director> [Jon Favreau]?",
     "?x wdt:P31 wd:Q11424 . ?x wdt:P57 wd:Q295964 ."),
    ("Who is the <spouse> of [Mark Antony]?", "wd:Q51673 wdt:P26 ?x ."),
    ("Who is the <spouse> at <series ordinal> 3 of [Mark Antony]?",
     'wd:Q51673 p:P26 [ ps:P26 ?x ; pq:P1545 "3" ] .'),
    ("which [film] has <part of the series> [Twilight] at <series ordinal> 2?",
     '?x wdt:P31 wd:Q11424 . ?x p:P179 [ ps:P179 wd:Q44523 ; pq:P1545 "2" ] .'),
    ("which [human] is a <member> of [Blackpink]?",
     "?x wdt:P31 wd:Q5 . ?x wdt:P463 wd:Q25056945 ."),
    ("which [film] has <director> [Jon Favreau] and has not <cast member> [Scarlett Johansson]?",
     "?x wdt:P31 wd:Q11424 . ?x wdt:P57 wd:Q295964 . "
     "FILTER NOT EXISTS { ?x wdt:P161 wd:Q34436 }"),
]


@pytest.mark.parametrize("text, where", CASES)
def test_compiles_to_expected_pattern(text, where):
    assert same(valid(compile_(text)), where)


def test_superlative_orders_limits_and_projects_the_focus():
    text = "which [film] has <director> [Jon Favreau] and has the highest <publication date>?"
    sparql = valid(compile_(text))
    assert "ORDER BY DESC(?publication_date)\nLIMIT 1" in sparql
    assert "SELECT DISTINCT ?film WHERE" in sparql  # the film is asked for, not its date
    assert "SELECT DISTINCT ?film ?publication_date" in valid(compile_(text, order_columns=True))
    sparql = valid(compile_("which [mountain] has the 2nd highest <elevation>?"))
    assert "OFFSET 1\nLIMIT 1" in sparql
    sparql = valid(compile_("which [mountain] has the 3rd to 5th highest <elevation>?"))
    assert "OFFSET 2\nLIMIT 3" in sparql


def test_counts_in_subject_and_object_position():
    sparql = valid(compile_("How many [film] has <director> [Jon Favreau]?"))
    assert "COUNT(DISTINCT ?film)" in sparql
    sparql = valid(compile_("How many [Academy Awards] [John Wayne] did <award received>?"))
    assert "wd:Q40531 wdt:P166 ?academy_awards" in sparql and "COUNT(DISTINCT ?academy_awards)" in sparql


def test_grouping_count():
    sparql = valid(compile_("How many [film] has which <director>?"))
    assert "GROUP BY ?director" in sparql and "COUNT(DISTINCT ?film)" in sparql


def test_yes_no_is_ask_and_year_comparisons():
    sparql = valid(compile_("Has [Twilight] a <publication date> whose year is earlier than 2010?"))
    assert sparql.splitlines()[-5].startswith("ASK") or "ASK WHERE" in sparql
    assert "FILTER(YEAR(?publication_date) < 2010)" in sparql


def test_temporal_comparison_with_a_bare_year_uses_dates():
    sparql = valid(compile_("Has [Barack Obama] <position held> [President of the United States] "
                            "at a <start time> earlier than 2010?"))
    assert '"2010-01-01T00:00:00Z"^^xsd:dateTime' in sparql


def test_qualifier_as_answer():
    sparql = valid(compile_("At which earliest <start time> had [Barack Obama] <position held> "
                            "[President of the United States]?"))
    assert "pq:P580 ?start_time" in sparql and "ORDER BY ASC(?start_time)" in sparql


def test_every_no_maybe_and_numeric_determiners():
    assert "FILTER NOT EXISTS" in valid(compile_("Which [human] has no <child>?"))
    every = valid(compile_("Every [film] that has <director> [Jon Favreau] has a <publication date>?"))
    assert every.count("FILTER NOT EXISTS") == 2 and "ASK" in every
    assert "OPTIONAL" in valid(compile_("Which [human] has maybe a <spouse>?"))
    counted = valid(compile_("Which [human] has at least 3 <child>?"))
    assert "GROUP BY ?human" in counted and "FILTER(?n >= 3)" in counted


def test_string_tests():
    sparql = valid(compile_('Which [film] has a <title> that contains "Ring"?'))
    assert 'CONTAINS(LCASE(STR(?title)), LCASE("Ring"))' in sparql
    sparql = valid(compile_('Which [film] has a <title> that starts with "The"?'))
    assert "STRSTARTS" in sparql


def test_coreference_variable():
    sparql = valid(compile_("Which [human] ?x is the <director> of a [film] that has <cast member> ?x?"))
    assert "?film wdt:P57 ?human" in sparql and "?film wdt:P161 ?human" in sparql


def test_give_me_and_arithmetic():
    sparql = valid(compile_("Give me 2023 - the year of the <date of birth> of [Jon Favreau]."))
    assert "BIND((2023 - YEAR(?date_of_birth)) AS ?value)" in sparql


def test_profile_options():
    text = "which [film] has <director> [Jon Favreau]?"
    assert "?film wdt:P57 wd:Q295964 ." in valid(compile_(text))
    statements = valid(compile_(text, statements="always"))
    assert "?film p:P57 [ ps:P57 wd:Q295964 ] ." in statements
    sub = valid(compile_(text, subclasses=True))
    assert "wdt:P31/wdt:P279* wd:Q11424" in sub
    labels = valid(compile_(text, label_columns=True))
    assert "?filmLabel" in labels and "rdfs:label" in labels
    limited = valid(compile_(text, default_limit=200))
    assert limited.rstrip().endswith("LIMIT 200")
    assert compile_(text) == compile_(text)  # deterministic


def test_prefixes_are_declared_only_when_used():
    sparql = compile_("Who is the <spouse> of [Mark Antony]?")
    assert "PREFIX pq:" not in sparql and "PREFIX p:" not in sparql and "PREFIX wdt:" in sparql


def test_the_ecai_preset_keeps_the_data_conventions():
    """--kg wikidata-ecai: p:/ps: statements everywhere and every variable projected, as the
    ECAI gold queries; the general profile: wdt: and the question's focus only."""
    text = "which [film] has <director> [Jon Favreau] and has a <publication date> greater than 2000?"
    general = valid(compile_(text))
    assert "SELECT DISTINCT ?film WHERE" in general and "?film wdt:P57 wd:Q295964 ." in general
    ecai = valid(compile_(text, kg="wikidata-ecai"))
    assert "SELECT DISTINCT ?film ?publication_date WHERE" in ecai
    assert "?film p:P57 [ ps:P57 wd:Q295964 ] ." in ecai
    assert compile_(text, kg="wikidata-ecai") == compile_(text, statements="always", projection="all")
    qualified = valid(compile_("which [film] has <part of the series> [Twilight] at <series ordinal> 2?"))
    assert 'p:P179 [ ps:P179 wd:Q44523 ; pq:P1545 "2" ]' in qualified  # a qualifier needs the statement


def test_ids_in_text_need_no_lexicon():
    assert valid(cnl.compile("which <Q11424> has <P57> <Q295964>?"))


def test_missing_lexicon_and_unknown_label_are_lexicon_errors():
    with pytest.raises(LexiconError) as info:
        cnl.compile("which [film] has <director> [Jon Favreau]?")
    assert info.value.label == "film" and info.value.position == 6
    with pytest.raises(LexiconError) as info:
        compile_("which [film] has <director> [Jon Favrau]?")
    assert "Jon Favreau" in info.value.suggestions


def test_unknown_profile_and_bad_options():
    with pytest.raises(CompileError):
        cnl.compile("which <Q1> has <P2> <Q3>?", kg="nope")
    with pytest.raises(CompileError):
        cnl.compile("which <Q1> has <P2> <Q3>?", statements="sometimes")


def test_plain_rdf_profile_uses_iris_from_the_lexicon():
    lex = {"film": "http://example.org/Film", "director": "http://example.org/director",
           "Jon Favreau": "http://example.org/JonFavreau"}
    sparql = valid(cnl.compile("which [film] has <director> [Jon Favreau]?", kg="rdf", lexicon=lex))
    assert "?film rdf:type <http://example.org/Film> ." in sparql
    assert "?film <http://example.org/director> <http://example.org/JonFavreau> ." in sparql


@pytest.mark.parametrize("evil", [
    'x" } ; DROP ALL ; SELECT * WHERE { "',
    "a\nb } UNION { ?s ?p ?o",
    "# comment }",
    "\\u0022 }",
])
def test_string_literals_cannot_break_out(evil):
    from rdflib.plugins.sparql.parser import parseQuery

    from cnl import ir

    q = ir.Query(ir.Quant("which", ir.ClassNoun(ir.Class("Q11424"))),
                 ir.Stmt(ir.Property("P1476"), ir.Quant("a", None, (ir.StrTest("contains", evil),))))
    sparql = valid(cnl.compile(q))
    algebra = prepareQuery(sparql).algebra
    assert any(str(lit) == evil for lit in _literals(algebra))
    # the query's structure is untouched: one class test, one statement, one filter
    assert parseQuery(sparql) and sparql.count("FILTER") == 1


def _literals(node, seen=None):
    from rdflib import Literal

    seen = set() if seen is None else seen
    if id(node) in seen:
        return
    seen.add(id(node))
    if isinstance(node, Literal):
        yield node
    elif isinstance(node, dict):
        for v in node.values():
            yield from _literals(v, seen)
    elif isinstance(node, (list, tuple)):
        for v in node:
            yield from _literals(v, seen)


def test_not_being_an_entity_is_an_inequality():
    sparql = cnl.compile("Which <Q35657> except <Q782> has the latest <P571>?")
    assert "FILTER(?q35657 != wd:Q782)" in sparql


def test_label_pseudo_property_uses_the_profile_label_predicate():
    # SQUALL's "has a <label> matching ..." and Sparklis' "that matches ...": no statement model
    for text, dialect in (('Which <Q11424> has a <label> matching "ace ventura"?', "squall"),
                          ("give me every <Q11424> that matches ace ventura", "sparklis")):
        sparql = cnl.compile(text, dialect=dialect)
        assert "?q11424 rdfs:label ?label ." in sparql
        assert 'FILTER(REGEX(STR(?label), "ace ventura", "i"))' in sparql
    # a lexicon that knows a "label" property wins
    assert "P2561" in cnl.compile('Which <Q11424> has a <label> matching "x"?', lexicon={"label": "P2561"})


def test_a_disjunction_with_a_negated_branch_tests_the_subject_itself():
    """``has A or has not B``: a UNION branch holding only FILTER NOT EXISTS would be evaluated
    without the subject bound (true only if no film at all has B); one FILTER of EXISTS / NOT
    EXISTS tests each film. Run on a real store: A (Hanks), B (Spielberg), C (neither)."""
    store = pyoxigraph.Store()
    wd, wdt = "http://www.wikidata.org/entity/", "http://www.wikidata.org/prop/direct/"
    for film, prop, value in [("A", "P161", "Q2263"), ("B", "P57", "Q8877"), ("C", "P577", "Q1")]:
        store.add(pyoxigraph.Quad(pyoxigraph.NamedNode(wd + film), pyoxigraph.NamedNode(wdt + "P31"),
                                  pyoxigraph.NamedNode(wd + "Q11424")))
        store.add(pyoxigraph.Quad(pyoxigraph.NamedNode(wd + film), pyoxigraph.NamedNode(wdt + prop),
                                  pyoxigraph.NamedNode(wd + value)))
    for text in ("Which <Q11424> has <P161> <Q2263> or has not <P57> <Q8877>?",
                 "Which <Q11424> has <P161> <Q2263> or hasn't <P57> <Q8877>?"):
        sparql = cnl.compile(text)
        answers = {row[0].value.rsplit("/", 1)[-1] for row in store.query(sparql)}
        assert answers == {"A", "C"}, sparql


@pytest.mark.parametrize("text", ["What is the number of <P40> of <Q76>?", "What was the number of <P40> of <Q76>?",
                                  "What is the number of <Q5> that have <P19> <Q60>?"])
def test_what_is_the_number_of_is_the_count_itself(text):
    """"What is the number of NP?" asks what "Give me the number of NP." asks: one count. It
    compiled to a count per referent grouped by an unbound ?answer (one row per referent, each
    counting 1), a wrong query. Run on a real store: Q76 with two children."""
    store = pyoxigraph.Store()
    wd, wdt = "http://www.wikidata.org/entity/", "http://www.wikidata.org/prop/direct/"
    for s, p, o in [("Q76", "P40", "Q1"), ("Q76", "P40", "Q2"), ("Q3", "P31", "Q5"), ("Q3", "P19", "Q60"),
                    ("Q4", "P31", "Q5"), ("Q4", "P19", "Q60")]:
        store.add(pyoxigraph.Quad(pyoxigraph.NamedNode(wd + s), pyoxigraph.NamedNode(wdt + p),
                                  pyoxigraph.NamedNode(wd + o)))
    given = text.replace("What is", "Give me").replace("What was", "Give me").rstrip("?") + "."
    sparql = cnl.compile(text)
    assert equivalent(sparql, cnl.compile(given))
    assert [int(row[0].value) for row in store.query(sparql)] == [2]


def _store(triples):
    store = pyoxigraph.Store()
    wd, wdt = "http://www.wikidata.org/entity/", "http://www.wikidata.org/prop/direct/"
    for s, p, o in triples:
        obj = pyoxigraph.Literal(str(o), datatype=pyoxigraph.NamedNode(
            "http://www.w3.org/2001/XMLSchema#integer")) if isinstance(o, int) else pyoxigraph.NamedNode(wd + o)
        store.add(pyoxigraph.Quad(pyoxigraph.NamedNode(wd + s), pyoxigraph.NamedNode(wdt + p), obj))
    return store


def _answers(store, sparql):
    return {row[0].value.rsplit("/", 1)[-1] for row in store.query(sparql)}


def test_what_is_an_arithmetic_value_is_the_value_itself():
    """"What is A / B?" asks what "Give me A / B." gives; it compiled to FILTER(?answer = ?value)
    with ?answer bound nowhere: no row at all (Ferré's own example sentences)."""
    store = _store([("Q64", "P1082", 3600), ("Q64", "P2046", 900)])
    sparql = cnl.compile("What is the <P1082> of <Q64> / the <P2046> of <Q64>?")
    assert equivalent(sparql, cnl.compile("Give me the <P1082> of <Q64> / the <P2046> of <Q64>."))
    assert [float(row[0].value) for row in store.query(sparql)] == [4.0]


@pytest.mark.parametrize("text", ["Give me the <P36> of every <Q6256> whose <P30> is <Q15>.",
                                  "What is the <P36> of every <Q6256> whose <P30> is <Q15>?"])
def test_every_in_an_answer_s_of_lists_each(text):
    """"the <P36> of every <Q6256> ...": each country's capital. As a universal, the answer was
    bound only inside FILTER NOT EXISTS (a query whose rows name nothing)."""
    store = _store([("Q1", "P31", "Q6256"), ("Q1", "P30", "Q15"), ("Q1", "P36", "Q11"),
                    ("Q2", "P31", "Q6256"), ("Q2", "P30", "Q15"), ("Q2", "P36", "Q12"),
                    ("Q3", "P31", "Q6256"), ("Q3", "P30", "Q46"), ("Q3", "P36", "Q13")])
    assert _answers(store, cnl.compile(text)) == {"Q11", "Q12"}


def test_the_a_or_the_b_of_x_shares_the_of():
    """"the <P50> or the <P98> of X": both of X (the first compiled as the <P50> of anything)."""
    store = _store([("Q9", "P50", "Q1"), ("Q9", "P98", "Q2"), ("Q8", "P50", "Q3")] +
                   [(h, "P31", "Q5") for h in ("Q1", "Q2", "Q3")])
    sparql = cnl.compile("Which <Q5> is the <P50> or the <P98> of <Q9>?")
    assert _answers(store, sparql) == {"Q1", "Q2"}
    assert equivalent(cnl.compile("Give me the <P50> and the <P98> of <Q9>."), PREFIXES +
                      "SELECT DISTINCT ?a ?e WHERE { wd:Q9 wdt:P50 ?a . wd:Q9 wdt:P98 ?e . }")
    # a class before "or" stays a class
    assert "wdt:P31 wd:Q5 ." in cnl.compile("Which <Q5> is the <Q5> or the <P98> of <Q9>?")


def test_the_highest_of_a_class_ranks_by_no_value():
    """"Give me the 10 highest <Q8502>-s." ordered mountains by their IRIs; a sort alone (Sparklis'
    "highest-to-lowest <class>") is kept."""
    with pytest.raises(CompileError, match="ranks things by no value"):
        cnl.compile("Give me the 10 highest <Q8502>-s.")
    assert "ORDER BY" in cnl.compile("give me the highest-to-lowest <Q5>", dialect="sparklis")
    # the same SPARQL decompiled is refused by that name, not read as a changed meaning
    with pytest.raises(cnl.errors.UnsupportedSPARQLError, match="ORDER BY the things of a class") as info:
        cnl.decompile(PREFIXES + "SELECT ?x WHERE { ?x wdt:P31 wd:Q5 . } ORDER BY DESC(?x) LIMIT 1")
    assert not isinstance(info.value, cnl.errors.MeaningChangeError)


@pytest.mark.parametrize("text", ["<Q76> <P26> <Q13133>.", "Every <Q5> whose <P2048> is greater than 2 is a <Q5>.",
                                  "<Q1023> is a <Q571> whose <P50> is <Q1012>."])
def test_a_statement_is_no_question(text):
    """SQUALL reads a sentence ending in "." as an update; it compiled to ASK (a yes/no question,
    another meaning). cnl2sparql only reads: it refuses, and says how to ask."""
    with pytest.raises(cnl.errors.CNLSyntaxError, match="end it with '[?]'"):
        cnl.compile(text)
    assert cnl.compile(text[:-1] + "?").split("WHERE")[0].strip().endswith("ASK")
    assert "ASK" in cnl.compile("Has <Q76> <P26> <Q13133>.")  # a question, sloppily ended


def test_a_bracketed_list_of_terms_is_refused():
    with pytest.raises(cnl.errors.CNLSyntaxError, match="names one thing, not a list"):
        cnl.parse("Which <Q1003>-s have <P1015> [<Q1016>, <Q1017>] ?")


@pytest.mark.parametrize("text", [
    "Give me the year of (the <P569> of <Q42>) and the year of (the <P570> of <Q42>).",
    "What is the year of (the <P569> of <Q42>) and the year of (the <P570> of <Q42>)?",
])
def test_the_year_of_a_and_the_year_of_b_is_two_years(text):
    """The second "the year of" is read inside the first's argument; the compiler bound ?year
    twice (invalid SPARQL). A function of a coordination is each item's function, and an item
    that is already one stays itself."""
    sparql = cnl.compile(text)
    prepareQuery(sparql)
    assert equivalent(sparql, PREFIXES + "SELECT DISTINCT ?b ?d WHERE { wd:Q42 wdt:P569 ?x . wd:Q42 wdt:P570 ?y . "
                                         "BIND(YEAR(?x) AS ?b) BIND(YEAR(?y) AS ?d) }")
    both = cnl.compile("Give me the month of (the <P569> of <Q42>) and the year of (the <P570> of <Q42>).")
    assert "MONTH(" in both and "YEAR(" in both and both.count(" AS ?year)") == 1


def test_a_year_said_to_be_another_year_is_compared_not_bound_twice():
    """"whose year is the year of X" bound ?year to both years (a SPARQL error)."""
    store = pyoxigraph.Store()
    wd, wdt = "http://www.wikidata.org/entity/", "http://www.wikidata.org/prop/direct/"
    date = lambda d: pyoxigraph.Literal(d, datatype=pyoxigraph.NamedNode("http://www.w3.org/2001/XMLSchema#dateTime"))
    for s, p, o in [("Q1", "P31", "Q5"), ("Q2", "P31", "Q5"), ("Q42", "P31", "Q5")]:
        store.add(pyoxigraph.Quad(pyoxigraph.NamedNode(wd + s), pyoxigraph.NamedNode(wdt + p), pyoxigraph.NamedNode(wd + o)))
    for s, d in [("Q1", "1952-05-01T00:00:00Z"), ("Q2", "1960-01-01T00:00:00Z"), ("Q42", "1952-03-11T00:00:00Z")]:
        store.add(pyoxigraph.Quad(pyoxigraph.NamedNode(wd + s), pyoxigraph.NamedNode(wdt + "P569"), date(d)))
    sparql = cnl.compile("Which <Q5> has a <P569> whose year is the year of (the <P569> of <Q42>)?")
    prepareQuery(sparql)
    assert _answers(store, sparql) == {"Q1", "Q42"}


@pytest.mark.parametrize("notation, text", [
    ("id", "Which <Q5> has no <P26> <Q1>?"),
    ("ecai", "Which <Q5:human> has no <P26:spouse> <Q1:Ada>?"),
    ("id", "Give me every <Q5> that has no <P26> <Q1>."),
])
def test_a_determiner_before_a_property_and_its_value_is_not_dropped(notation, text):
    """"has no <P26> X" compiled as "has <P26> X" (the determiner was dropped: a silent meaning
    change); "has maybe a <P26> ?s" lost its "maybe" (no OPTIONAL). "no" is the negation,
    "maybe a ... ?s" an optional named value, and any other determiner there is refused."""
    store = _store([("Q2", "P31", "Q5"), ("Q3", "P31", "Q5"), ("Q2", "P26", "Q1"), ("Q3", "P26", "Q4")])
    assert _answers(store, cnl.compile(text, notation=notation)) == {"Q3"}
    assert cnl.parse(text, notation=notation) == cnl.parse(text.replace("has no", "has not"), notation=notation)


def test_maybe_a_property_and_a_variable_is_an_optional_value():
    text = "Which <Q5> has maybe a <P26> ?s?"
    store = _store([("Q2", "P31", "Q5"), ("Q3", "P31", "Q5"), ("Q2", "P26", "Q1")])
    sparql = cnl.compile(text)
    assert "OPTIONAL" in sparql and _answers(store, sparql) == {"Q2", "Q3"}
    assert cnl.to_cnl(cnl.parse(text)) == text and cnl.parse(cnl.to_cnl(cnl.parse(text))) == cnl.parse(text)


@pytest.mark.parametrize("text", ["Which <Q5> has every <P26> <Q1>?", "Which <Q5> has at least 2 <P26> <Q1>?",
                                  "Which <Q5> has maybe a <P26> <Q1>?"])
def test_a_determiner_that_says_nothing_of_a_named_value_is_refused(text):
    with pytest.raises(cnl.errors.CNLSyntaxError, match="before a property and its value"):
        cnl.compile(text)
