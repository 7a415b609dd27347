"""Property paths (issue 14, part A): SQUALL's suffixes and coordination of properties, in every
notation; the IR; the printers; the compiler; the decompiler; execution on a small store."""
import pytest
import rdflib
from rdflib.plugins.sparql import prepareQuery

import cnl
from cnl import ir
from cnl.dialects.notation import for_notation
from cnl.dialects.squall.parser import parse_squall
from cnl.dialects.squall.printer import print_squall
from cnl.errors import CNLSyntaxError, CompileError, UnsupportedSPARQLError
from cnl.sparql.compiler import compile_query
from cnl.sparql.decompile import decompile_to_ir
from cnl.sparql.equivalence import equivalent

P131, P22, P25, P19, P279 = (ir.Property(p) for p in ("P131", "P22", "P25", "P19", "P279"))


class Lexicon:
    """Labels of the label notation -> IDs."""

    IDS = {"located in": "P131", "father": "P22", "mother": "P25", "place of birth": "P19",
           "subclass of": "P279", "city": "Q515", "Illinois": "Q1204", "Queen Victoria": "Q9439",
           "guitar": "Q6607", "Cola": "Q134041", "beverage": "Q40050", "Toronto": "Q172"}

    def resolve(self, label, kind, span=None):
        return self.IDS[label]


# Each construct in two paraphrases or more, and in the three notations: the same IR.
@pytest.mark.parametrize("texts,prop", [
    (["Which <Q515> has <P131>+ <Q1204>?", "Which <Q515> is-<P131>+ <Q1204>?", "Which <Q515> <P131>+ <Q1204>?",
      "Which [city] has <located in>+ [Illinois]?", "Which <city> has <P131:located_in>+ <Illinois>?"],
     ir.PropPath("+", (P131,))),
    (["Who is the <P22> or <P25> of <Q9439>?", "What is a <P22> or <P25> of <Q9439>?",
      "Who is the <father> or <mother> of [Queen Victoria]?",
      "Who is the <P22:father> or <P25:mother> of <Queen_Victoria>?"],
     ir.PropPath("|", (P22, P25))),
    (["Has <Q134041> <P279>* <Q40050>?", "Does <Q134041> <P279>* <Q40050>?",
      "Has [Cola] <subclass of>* [beverage]?"], ir.PropPath("*", (P279,))),
    (["What is the <P19>/<P131>{0,1} of <Q9439>?", "What is the <place of birth>/<located in>{0,1} of [Queen Victoria]?"],
     ir.PropPath("/", (P19, ir.PropPath("?", (P131,))))),
    (["What is the ^<P131> of <Q1204>?", "What is the ^<located in> of [Illinois]?"], ir.PropPath("^", (P131,))),
    (["What is the (<P22> or <P25>)+ of <Q9439>?", "What is the ( <father> or <mother> )+ of [Queen Victoria]?"],
     ir.PropPath("+", (ir.PropPath("|", (P22, P25)),))),
])
def test_paraphrases_and_notations_read_as_one_path(texts, prop):
    paths = set()
    for text in texts:
        query = parse_squall(text)
        found = [n for n in ir.walk(query) if isinstance(n, ir.PropPath)]
        assert found, text
        resolved = ir.map_terms(found[0], lambda t: ir.Property(t.id or Lexicon.IDS[t.label]))
        paths.add(resolved)
    assert paths == {prop}
    # the paraphrases compile to one query
    compiled = [cnl.compile(t, lexicon=Lexicon()) for t in texts]
    assert all(equivalent(c, compiled[0]) for c in compiled[1:]), compiled


TEXTS = [
    "Which <Q515> has <P131>+ <Q1204>?",
    "Who is the <P22> or <P25> of <Q9439>?",
    "Has <Q134041> <P279>+ <Q40050>?",
    "What has <P1535> <Q484030> and has <P279>* <Q6607>?",
    "What is the (<P22> or <P25>)+ of <Q9439>?",
    "What is the <P19>/<P131>* of <Q9439>?",
    "What is the ^<P131>/<P17> of <Q1204>?",
    "What is the ^(<P131>/<P17>)+ of <Q1204>?",
    "What is the (^<P131>)+ of <Q1204>?",
    "What is the ((<P22> or <P25>) or <P26>) of <Q9439>?",
    "What is the (<P22>/<P25>)/<P26> of <Q9439>?",
    "What is the (<P22>+)* of <Q9439>?",
    "What is the ^(^<P22>) of <Q9439>?",
    "Which <Q5> has a <P22> or <P25> that has <P27> <Q30>?",
    "Which <Q5> has not <P19> or <P27> <Q884>?",
    "Who is a <P22> or <P25> at <P580> 2000 of <Q1>?",
    "Which <Q515> has <P131>+ <Q1204> and has the highest <P1082>?",
]


@pytest.mark.parametrize("text", TEXTS)
@pytest.mark.parametrize("notation", ["id", "ecai", "label"])
def test_parse_print_parse_identity(text, notation):
    query = parse_squall(text)
    labelled = ir.map_terms(query, lambda t: t if t.label else type(t)(t.id, f"l {t.id}"))
    printed = print_squall(labelled, notation)
    assert parse_squall(printed, notation=notation) == for_notation(labelled, notation), printed
    assert print_squall(parse_squall(printed, notation=notation), notation) == printed


@pytest.mark.parametrize("text", TEXTS)
def test_compiled_paths_are_sparql_and_decompile_back(text):
    sparql = cnl.compile(text)
    prepareQuery(sparql)
    query, options = decompile_to_ir(sparql)
    back = compile_query(parse_squall(print_squall(query, "id", id_labels=False), notation="id"),
                         "wikidata", None, **options)
    assert equivalent(back, sparql), (sparql, back)


def test_compiled_forms():
    assert "wd:Q9439 wdt:P22|wdt:P25 ?" in cnl.compile("Who is the <P22> or <P25> of <Q9439>?")
    assert "?q515 wdt:P131+ wd:Q1204 ." in cnl.compile("Which <Q515> has <P131>+ <Q1204>?")
    assert "(wdt:P22|wdt:P25)+" in cnl.compile("What is the (<P22> or <P25>)+ of <Q9439>?")
    assert "wdt:P19/wdt:P131?" in cnl.compile("What is the <P19>/<P131>{0,1} of <Q9439>?")
    # an alternative of properties is one statement of either under the p:/ps: profile
    always = cnl.compile("Who is the <P22> or <P25> of <Q9439>?", statements="always")
    assert "wd:Q9439 p:P22|p:P25 [ ps:P22|ps:P25 ?" in always
    # ... and takes qualifiers; a closure takes none and walks wdt: under every profile
    assert "FILTER(YEAR(?start_time) = 2000)" in cnl.compile("Who is a <P22> or <P25> at <P580> 2000 of <Q1>?")
    assert "wdt:P131+" in cnl.compile("Which <Q515> has <P131>+ <Q1204>?", statements="always")
    with pytest.raises(CompileError):
        cnl.compile("Who is a <P22>+ at <P580> 2000 of <Q1>?")


@pytest.mark.parametrize("text", ["Which <Q5> has <P40> at <P580>+ 2000?", "At which <P580>* does <Q1> <P39> <Q2>?",
                                  "Which <Q5> has <P131>+ <Q1> at <P580> or <P582> 2000?"])
def test_a_qualifier_is_one_property(text):
    with pytest.raises(CNLSyntaxError):
        parse_squall(text)


@pytest.mark.parametrize("sparql,expected", [
    ("SELECT DISTINCT ?x WHERE { wd:Q9439 wdt:P22|wdt:P25 ?x. }", "Give me a <P22> or <P25> of <Q9439>."),
    ("SELECT DISTINCT ?x WHERE { ?x wdt:P31/wdt:P279* wd:Q515; wdt:P131+ wd:Q1212. }",
     "Which <Q515> has <P131>+ <Q1212>?"),
    ("ASK WHERE { wd:Q134041 wdt:P279+ wd:Q40050 . }", "Has <Q134041> <P279>+ <Q40050>?"),
    ("SELECT DISTINCT ?x WHERE { wd:Q202304 p:P451|p:P26 ?p. ?p ps:P451|ps:P26 ?x. }",
     "Give me a <P451> or <P26> of <Q202304>."),
    ("SELECT DISTINCT ?x WHERE { wd:Q155985 wdt:P19/wdt:P131+ ?x. ?x wdt:P31 wd:Q107390 }",
     "Which <Q107390> is a <P131>+ of (a <P19> of <Q155985>)?"),
    ("SELECT DISTINCT ?x WHERE { ?x wdt:P88 wd:Q36517; ((wdt:P31*)/(wdt:P279*)) wd:Q2235308. }",
     "What has <P31>* (something that has <P279>* <Q2235308>) and has <P88> <Q36517>?"),
    ("SELECT ?x WHERE { ?x wdt:P1/(wdt:P2|^wdt:P3)* ?y }", "What has a <P1> that has a (<P2> or ^<P3>)*?"),
])
def test_decompiles_paths(sparql, expected):
    assert cnl.decompile(sparql) == expected
    query, options = decompile_to_ir(sparql)
    back = compile_query(parse_squall(expected, notation="id"), "wikidata", None, **options)
    assert equivalent(back, sparql), back


def test_inverse_is_a_reversed_triple():
    assert equivalent("SELECT ?x WHERE { ?x ^wdt:P131 wd:Q1 }", "SELECT ?x WHERE { wd:Q1 wdt:P131 ?x }")
    assert equivalent("SELECT ?x WHERE { ?x ^wdt:P2/wdt:P1 ?y }", "SELECT ?x WHERE { ?m wdt:P2 ?x . ?m wdt:P1 ?y }")


def test_sparklis_has_no_paths():
    with pytest.raises(UnsupportedSPARQLError) as err:
        cnl.decompile("SELECT ?x WHERE { wd:Q1 wdt:P131+ ?x }", dialect="sparklis")
    assert err.value.construct == "a property path in Sparklis"


WD, WDT = "http://www.wikidata.org/entity/", "http://www.wikidata.org/prop/direct/"


def test_paths_run_on_a_small_store():
    """Chicago in Cook County in Illinois; Victoria's father Edward and mother Victoria."""
    g = rdflib.Graph()
    for s, p, o in [("Q1297", "P131", "Q108418"), ("Q108418", "P131", "Q1204"), ("Q1297", "P31", "Q515"),
                    ("Q9439", "P22", "Q157009"), ("Q9439", "P25", "Q57477"), ("Q57477", "P22", "Q123")]:
        g.add((rdflib.URIRef(WD + s), rdflib.URIRef(WDT + p), rdflib.URIRef(WD + o)))

    def answers(text):
        return {str(row[0]).rsplit("/", 1)[1] for row in g.query(cnl.compile(text))}

    assert answers("Which <Q515> has <P131>+ <Q1204>?") == {"Q1297"}
    assert answers("Which <Q515> has <P131> <Q1204>?") == set()
    assert answers("What is the <P131>* of <Q1297>?") == {"Q1297", "Q108418", "Q1204"}
    assert answers("Who is the <P22> or <P25> of <Q9439>?") == {"Q157009", "Q57477"}
    assert answers("Who is the (<P22> or <P25>)+ of <Q9439>?") == {"Q157009", "Q57477", "Q123"}
    assert answers("What is the ^<P131> of <Q1204>?") == {"Q108418"}
    assert g.query(cnl.compile("Has <Q1297> <P131>/<P131> <Q1204>?")).askAnswer
