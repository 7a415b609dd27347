"""``which thing`` (issue 29): a question word for an answer of no class that the query describes
(``which thing that has <P166> <Q7191>``) or names (``which thing ?s``), where ``what`` takes neither;
the decompiler writes an answer column without a class noun so (``SELECT ?x ?y ... FILTER(?x != ?y)``).
Each form in two paraphrases of our own, in the three notations: compiled and asserted equivalent to
hand-written SPARQL, read back as itself, the hand-written SPARQL decompiled to an equivalent text."""
import pytest

from cnl.dialects.squall.parser import parse_squall
from cnl.dialects.squall.printer import print_squall
from cnl import ir
from cnl.errors import PrintError
from cnl.sparql.compiler import compile_query
from cnl.sparql.decompile import decompile_to_ir
from cnl.sparql.equivalence import equivalent
from tests.test_sparql_forms import IDS, PREFIXES, Form, form_tests

IDS.update({"Nobel Prize": "Q7191", "father": "P22", "spouse": "P26", "place of birth": "P19", "continent": "P30", "Asia": "Q48"})

FORMS = [
    Form("which thing that ...",
         ("Which <Q5> has <P40> (which thing that has <P166> <Q7191>)?",
          "Which [human] has <child> (which thing that has <award received> [Nobel Prize])?",
          "Which <human> has <P40:child> (which thing that has <P166:award_received> <Nobel_Prize>)?"),
         "SELECT DISTINCT ?h ?c WHERE { ?h wdt:P31 wd:Q5 ; wdt:P40 ?c . ?c wdt:P166 wd:Q7191 . }"),
    Form("which thing that ...",
         ("Which <Q5> ?x has <P22> a <P22> of (which thing that is different from ?x)?",
          "Which [human] ?x has <father> a <father> of (which thing that is different from ?x)?",
          "Which <human> ?x has <P22:father> a <P22:father> of (which thing that is different from ?x)?"),
         "SELECT DISTINCT ?x ?y WHERE { ?x wdt:P31 wd:Q5 ; wdt:P22 ?f . ?y wdt:P22 ?f . FILTER(?x != ?y) }"),
    Form("which thing ?v",
         ("Which <Q5> has <P26> which thing ?s and has <P40> a <P40> of ?s?",
          "Which [human] has <spouse> which thing ?s and has <child> a <child> of ?s?",
          "Which <human> has <P26:spouse> which thing ?s and has <P40:child> a <P40:child> of ?s?"),
         "SELECT DISTINCT ?x ?s WHERE { ?x wdt:P31 wd:Q5 ; wdt:P26 ?s ; wdt:P40 ?c . ?s wdt:P40 ?c . }"),
    Form("which thing ?v",
         ("Which <Q5> has <P19> (which thing ?p that has <P30> <Q48>)?",
          "Which [human] has <place of birth> (which thing ?p that has <continent> [Asia])?",
          "Which <human> has <P19:place_of_birth> (which thing ?p that has <P30:continent> <Asia>)?"),
         "SELECT DISTINCT ?x ?p WHERE { ?x wdt:P31 wd:Q5 ; wdt:P19 ?p . ?p wdt:P30 wd:Q48 . }"),
]

(test_each_text_compiles_to_the_hand_written_query, test_each_text_reads_back_as_itself,
 test_the_hand_written_query_decompiles_to_an_equivalent_text, test_every_form_has_two_paraphrases) = form_tests(FORMS)


def test_a_bare_what_stays_what_and_takes_no_superlative():
    assert parse_squall("What has <P40> <Q76>?").subject == ir.Quant("which")
    assert print_squall(parse_squall("Which thing has <P40> <Q76>?"), "id") == "What has <P40> <Q76>?"
    with pytest.raises(PrintError, match="superlative"):
        print_squall(ir.Query(ir.Quant("which", order=ir.Order("highest")), ir.Stmt(ir.Property("P40"), ir.Quant("a"))),
                     "id")


@pytest.mark.parametrize("sparql, text", [
    # a cycle through an answer of no class: its first mention takes the variable (was refused,
    # "a cycle in the triple patterns")
    ("SELECT ?x WHERE { ?x wdt:P1 ?y . ?y wdt:P2 ?x }", "Which thing ?x has a <P1> that has <P2> ?x?"),
    # two answer columns of no class compared: the second named where it stands
    ("SELECT DISTINCT ?x ?y WHERE { ?x wdt:P22 ?f . ?y wdt:P22 ?f . FILTER(?x != ?y) }",
     "What has <P22> (a <P22> of which thing ?y) and is different from ?y?"),
])
def test_answers_of_no_class_are_named_by_which_thing(sparql, text):
    query, options = decompile_to_ir(PREFIXES + sparql)
    assert print_squall(query, "id", id_labels=False) == text
    assert equivalent(compile_query(query, "wikidata", None, **options), PREFIXES + sparql)
