"""An aggregate of counts, one count per group (issue 29; SPARQL's nested SELECT ``SELECT (AVG(?n) AS
?avg) { { SELECT ?a (COUNT(?p) AS ?n) { ... } GROUP BY ?a } }``): Ferré's SQUALL ``What is the average
number of <Q1003>-s per <P50>?``, the question words inside the count its group keys. Each form in two
paraphrases of our own, in the three notations (compiled and asserted equivalent to hand-written SPARQL,
read back as itself, the hand-written SPARQL decompiled to an equivalent text), and on a real store."""
import pytest

import cnl
from cnl.dialects.notation import detect_notation, for_notation
from cnl.dialects.squall.parser import parse_squall
from cnl.dialects.squall.printer import print_squall
from cnl.errors import CNLSyntaxError, CompileError
from cnl.sparql.compiler import compile_query
from cnl.sparql.decompile import decompile_to_ir
from cnl.sparql.equivalence import equivalent
from tests.test_sparql_forms import IDS, PREFIXES, Form, Lexicon, form_tests

IDS.update({"book": "Q571", "author": "P50", "film": "Q11424", "cast member": "P161", "director": "P57",
            "Christopher Nolan": "Q25191", "continent": "P30", "Asia": "Q48", "child": "P40"})

FORMS = [
    Form("the average number of <C>-s per <P>",
         ("What is the average number of <Q571>-s per <P50>?",
          "What is the average number of [book]-s per <author>?",
          "What is the average number of <book>-s per <P50:author>?"),
         "SELECT (AVG(?n) AS ?avg) WHERE { { SELECT ?a (COUNT(DISTINCT ?b) AS ?n) WHERE { ?b wdt:P31 wd:Q571 ; "
         "wdt:P50 ?a . } GROUP BY ?a } }"),
    Form("the average number of <C>-s per <P>",
         ("Give me the average number of <Q11424> that has <P57> <Q25191> per <P161>.",
          "Give me the average number of [film] that has <director> [Christopher Nolan] per <cast member>.",
          "Give me the average number of <film> that has <P57:director> <Christopher_Nolan> per "
          "<P161:cast_member>."),
         "SELECT (AVG(?n) AS ?avg) WHERE { { SELECT ?a (COUNT(DISTINCT ?f) AS ?n) WHERE { ?f wdt:P31 wd:Q11424 ; "
         "wdt:P57 wd:Q25191 ; wdt:P161 ?a . } GROUP BY ?a } }"),
    Form("the maximum/minimum/total number of ... per group",
         ("Give me the maximum number of <Q515>-s per <P30>.",
          "Give me the maximum number of [city]-s per <continent>.",
          "Give me the maximum number of <city>-s per <P30:continent>."),
         "SELECT (MAX(?n) AS ?m) WHERE { { SELECT ?c (COUNT(DISTINCT ?x) AS ?n) WHERE { ?x wdt:P31 wd:Q515 ; "
         "wdt:P30 ?c . } GROUP BY ?c } }"),
    Form("the maximum/minimum/total number of ... per group",
         ("What is the minimum number of <P166> of which <Q5>?",
          "What is the minimum number of <award received> of which [human]?",
          "What is the minimum number of <P166:award_received> of which <human>?"),
         "SELECT (MIN(?n) AS ?m) WHERE { { SELECT ?h (COUNT(DISTINCT ?a) AS ?n) WHERE { ?h wdt:P31 wd:Q5 ; "
         "wdt:P166 ?a . } GROUP BY ?h } }"),
    Form("the maximum/minimum/total number of ... per group",
         ("Give me the total number of <Q515> that has <P30> <Q48> and has which <P161>.",
          "Give me the total number of [city] that has <continent> [Asia] and has which <cast member>.",
          "Give me the total number of <city> that has <P30:continent> <Asia> and has which <P161:cast_member>."),
         "SELECT (SUM(?n) AS ?s) WHERE { { SELECT ?c (COUNT(DISTINCT ?x) AS ?n) WHERE { ?x wdt:P31 wd:Q515 ; "
         "wdt:P30 wd:Q48 ; wdt:P161 ?c . } GROUP BY ?c } }"),
]

(test_each_text_compiles_to_the_hand_written_query, test_each_text_reads_back_as_itself,
 test_the_hand_written_query_decompiles_to_an_equivalent_text, test_every_form_has_two_paraphrases) = form_tests(FORMS)


@pytest.mark.parametrize("text, canonical", [
    ("What is the average number of <Q571>-s per <P50>?", "What is the average number of <Q571> per <P50>?"),
    ("What is the average of (the number of <Q571>-s per <P50>)?", "What is the average number of <Q571> per <P50>?"),
    ("Give me the maximum of the number of <Q515> that has which <P17>.",
     "Give me the maximum number of <Q515> per <P17>."),
    ("What is the average number of <Q1003>-s whose <P50> has a <P1416> ?A per ?A?",
     "What is the average number of <Q1003> whose <P50> has which <P1416> ?A?"),
])
def test_the_aggregate_word_before_number_is_the_aggregate_of_the_counts(text, canonical):
    query = parse_squall(text)
    assert print_squall(query, "id", id_labels=False) == canonical
    assert parse_squall(canonical) == query


@pytest.mark.parametrize("sparql, text", [
    # the counted thing is the subject of the key's statement: "per <P>"
    ("SELECT (AVG(?n) AS ?a) WHERE { { SELECT ?c (COUNT(?x) AS ?n) WHERE { ?x wdt:P31 wd:Q515 ; wdt:P17 ?c . } "
     "GROUP BY ?c } }", "Give me the average number of <Q515> per <P17>."),
    # the key reached through another value: the question word where it stands
    ("SELECT (AVG(?n) AS ?a) WHERE { { SELECT ?f (COUNT(?p) AS ?n) WHERE { ?p wdt:P31 wd:Q571 ; wdt:P50 ?au . "
     "?au wdt:P1416 ?f . } GROUP BY ?f } }", "Give me the average number of <Q571> whose <P50> has which <P1416>."),
    # two keys: two question words, one count per pair
    ("SELECT (AVG(?n) AS ?a) WHERE { { SELECT ?c ?y (COUNT(?x) AS ?n) WHERE { ?x wdt:P31 wd:Q515 ; wdt:P17 ?c ; "
     "wdt:P30 ?y . } GROUP BY ?c ?y } }",
     "Give me the average number of <Q515> that has which <P17> and that has which <P30>."),
    # the counted values are of the key: as before, "the number of <P> of a <C>"
    ("SELECT (MAX(?n) AS ?a) WHERE { { SELECT ?h (COUNT(?w) AS ?n) WHERE { ?h wdt:P31 wd:Q5 ; wdt:P166 ?w . } "
     "GROUP BY ?h } }", "Give me the maximum of the number of <P166> of a <Q5>."),
])
def test_aggregates_of_counts_per_group_decompile(sparql, text):
    query, options = decompile_to_ir(PREFIXES + sparql)
    assert print_squall(query, "id", id_labels=False) == text
    assert equivalent(compile_query(query, "wikidata", None, **options), PREFIXES + sparql)


def test_the_average_number_per_group_on_a_real_store():
    """Books Q1, Q2 by author A1, Q3 by A1 and A2: A1 has 3 books, A2 has 1; the average is 2, the
    maximum 3, the total 4 (a book counted once per author)."""
    import pyoxigraph
    store = pyoxigraph.Store()
    wd, wdt = "http://www.wikidata.org/entity/", "http://www.wikidata.org/prop/direct/"

    def add(s, p, o):
        store.add(pyoxigraph.Quad(pyoxigraph.NamedNode(wd + s), pyoxigraph.NamedNode(wdt + p),
                                  pyoxigraph.NamedNode(wd + o)))
    for book, authors in (("Q1", ["Q91"]), ("Q2", ["Q91"]), ("Q3", ["Q91", "Q92"])):
        add(book, "P31", "Q571")
        for author in authors:
            add(book, "P50", author)
    for word, expected in (("average", 2), ("maximum", 3), ("minimum", 1), ("total", 4)):
        sparql = cnl.compile(f"What is the {word} number of [book]-s per <author>?", lexicon=Lexicon())
        (row,) = list(store.query(sparql))
        assert float(row[0].value) == expected, (word, sparql)


# Writer forms (squall_writer_forms.lark): (texts in the ID, label and ECAI notations, the canonical
# form they read as, the query written by hand). The ECAI notation writes a class and a property
# alike (<human>, <death_date>), so "per <human>" stays a property there; its text says "of which".
WRITER_FORMS = [
    (("What is the highest number of <P166> per <Q5>?",
      "What is the highest number of <award received> per [human]?",
      "What is the maximum number of <P166:award_received> of which <human>?"),
     "What is the maximum number of <P166> of which <Q5>?",
     "SELECT (MAX(?n) AS ?m) WHERE { { SELECT ?h (COUNT(DISTINCT ?a) AS ?n) WHERE { ?h wdt:P31 wd:Q5 ; "
     "wdt:P166 ?a . } GROUP BY ?h } }"),
    (("Give me the largest number of <Q515>-s per <P30>.",
      "Give me the largest number of [city]-s per <continent>.",
      "Give me the largest number of <city>-s per <P30:continent>."),
     "Give me the maximum number of <Q515> per <P30>.",
     "SELECT (MAX(?n) AS ?m) WHERE { { SELECT ?c (COUNT(DISTINCT ?x) AS ?n) WHERE { ?x wdt:P31 wd:Q515 ; "
     "wdt:P30 ?c . } GROUP BY ?c } }"),
    (("What is the fewest <Q515>-s per <P30>?",
      "What is the lowest number of [city]-s per <continent>?",
      "What is the smallest number of <city>-s per <P30:continent>?"),
     "What is the minimum number of <Q515> per <P30>?",
     "SELECT (MIN(?n) AS ?m) WHERE { { SELECT ?c (COUNT(DISTINCT ?x) AS ?n) WHERE { ?x wdt:P31 wd:Q515 ; "
     "wdt:P30 ?c . } GROUP BY ?c } }"),
    (("What is the number of <P166> per <Q5>?",
      "What is the number of <award received> per [human]?",
      "What is the number of <P166:award_received> of which <human>?"),
     "What is the number of <P166> of which <Q5>?",
     "SELECT ?h (COUNT(DISTINCT ?a) AS ?n) WHERE { ?h wdt:P31 wd:Q5 ; wdt:P166 ?a . } GROUP BY ?h"),
    (("Give me the average number of <P40> per <Q5>.",
      "Give me the average number of <child> per [human].",
      "Give me the average number of <P40:child> of which <human>."),
     "Give me the average number of <P40> of which <Q5>.",
     "SELECT (AVG(?n) AS ?m) WHERE { { SELECT ?h (COUNT(DISTINCT ?c) AS ?n) WHERE { ?h wdt:P31 wd:Q5 ; "
     "wdt:P40 ?c . } GROUP BY ?h } }"),
    (("What is the number of <Q5>-s whose <P40> has some <P166> A per A?",
      "What is the number of [human]-s whose <child> has some <award received> A per A?",
      "What is the number of <human>-s whose <P40:child> has some <P166:award_received> A per A?"),
     "What is the number of <Q5> whose <P40> has which <P166> ?A?",
     "SELECT ?a (COUNT(DISTINCT ?h) AS ?n) WHERE { ?h wdt:P31 wd:Q5 ; wdt:P40 ?c . ?c wdt:P166 ?a . } GROUP BY ?a"),
    (("What is the number of <Q571>-s of which <P50>?",
      "What is the number of [book]-s of which <author>?",
      "What is the number of <book>-s of which <P50:author>?"),
     "What is the number of <Q571> that has which <P50>?",
     "SELECT ?a (COUNT(DISTINCT ?b) AS ?n) WHERE { ?b wdt:P31 wd:Q571 ; wdt:P50 ?a . } GROUP BY ?a"),
    (("What is the average of the number of <Q571>-s of which <P50>?",
      "What is the average number of [book]-s of which <author>?",
      "What is the average of the number of <book>-s of which <P50:author>?"),
     "What is the average number of <Q571> per <P50>?",
     "SELECT (AVG(?n) AS ?m) WHERE { { SELECT ?a (COUNT(DISTINCT ?b) AS ?n) WHERE { ?b wdt:P31 wd:Q571 ; "
     "wdt:P50 ?a . } GROUP BY ?a } }"),
    (("What is the average number of <Q5>-s whose <P40> has a <P166> A per A?",
      "What is the average number of [human]-s whose <child> has a <award received> A per A?",
      "What is the average number of <human>-s whose <P40:child> has a <P166:award_received> A per A?"),
     "What is the average number of <Q5> whose <P40> has which <P166> ?A?",
     "SELECT (AVG(?n) AS ?m) WHERE { { SELECT ?a (COUNT(DISTINCT ?h) AS ?n) WHERE { ?h wdt:P31 wd:Q5 ; "
     "wdt:P40 ?c . ?c wdt:P166 ?a . } GROUP BY ?a } }"),
]


@pytest.mark.parametrize("texts, canonical, sparql", WRITER_FORMS, ids=[f[1] for f in WRITER_FORMS])
def test_writer_forms_of_counts_per_group(texts, canonical, sparql):
    assert {detect_notation(t) for t in texts} == {"id", "label", "ecai"}, texts
    expected = PREFIXES + sparql
    for text in texts:
        assert equivalent(cnl.compile(text, lexicon=Lexicon()), expected, distinct=True), text
        query = parse_squall(text)
        notation = detect_notation(text)
        if notation == "id":
            assert print_squall(query, "id", id_labels=False) == canonical
        printed = print_squall(query, notation)
        assert parse_squall(printed) == for_notation(query, notation), (text, printed)
    assert equivalent(cnl.compile(canonical), expected, distinct=True)


@pytest.mark.parametrize("text", ["What is the highest <Q515>-s per <P17>?", "What is the 2nd most <P166> per <Q5>?"])
def test_a_superlative_before_per_other_than_a_count_is_refused(text):
    with pytest.raises(CNLSyntaxError, match="best count per group"):
        parse_squall(text)


@pytest.mark.parametrize("text, reading", [
    # a relational noun before "of which <C>" stays one (the <P50> of which <Q571>: authors per book)
    ("What is the <P50> of which <Q571>?", "RelNoun"),
    # in the label notation <book> is a property: "the <book> of which <author>" is a relational noun
    ("What is the number of <book> of which <author>?", "RelNoun"),
])
def test_of_which_after_a_class_only(text, reading):
    noun = parse_squall(text).vp.np.noun
    assert type(noun).__name__ == reading


def test_per_a_class_after_the_things_of_a_class_names_the_missing_property():
    # "the <Q5>-s per <Q6256>" says no link between a human and a country: refused with the form
    with pytest.raises(CNLSyntaxError, match="takes a property"):
        parse_squall("Give me the average <P2048> of the <Q5>-s per <Q6256>.")


@pytest.mark.parametrize("text, sparql", [
    # "every" among an aggregate's values is "each" (a universal bound them only inside FILTER NOT
    # EXISTS, where the aggregate never saw them: MAX over no value)
    ("Give me the maximum <P2048> of every <Q5>.",
     "SELECT (MAX(?h) AS ?m) WHERE { ?x wdt:P31 wd:Q5 ; wdt:P2048 ?h . }"),
    ("What is the average <P1082> of every <Q515> that has <P17> <Q142>?",
     "SELECT (AVG(?p) AS ?m) WHERE { ?x wdt:P31 wd:Q515 ; wdt:P17 wd:Q142 ; wdt:P1082 ?p . }"),
    ("Give me a sample <P40> of every <Q5>.", "SELECT (SAMPLE(?c) AS ?s) WHERE { ?x wdt:P31 wd:Q5 ; wdt:P40 ?c . }"),
])
def test_every_among_an_aggregates_values_is_each(text, sparql):
    assert equivalent(cnl.compile(text), PREFIXES + sparql)


def test_an_aggregate_of_one_count_names_the_missing_group():
    with pytest.raises(cnl.errors.CompileError, match="one count per group"):
        cnl.compile("What is the average number of <Q5>?")


def test_the_total_number_without_a_group_is_the_count():
    """"the total number of <C>-s that ..." (no question word, no "per"): the total of one count
    is that count, not the refusal the average of one count gets."""
    count = cnl.compile("What is the number of <Q11424> that has <P57> <Q25191>?")
    for text in ("What is the total number of <Q11424>-s that have <P57> <Q25191>?",
                 "What is the total number of [film]-s that have <director> [Christopher Nolan]?"):
        assert equivalent(cnl.compile(text, lexicon={"film": "Q11424", "director": "P57",
                                                     "Christopher Nolan": "Q25191"}), count), text
    assert equivalent(cnl.compile("Give me the total number of <P161> of <Q25188>."),
                      cnl.compile("Give me the number of <P161> of <Q25188>."))
    with pytest.raises(CompileError, match="one count per group"):
        cnl.compile("What is the average number of <Q11424>-s that have <P57> <Q25191>?")
