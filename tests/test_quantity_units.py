"""A quantity in a given unit (issue 29): ``in unit <Q11573>``, Wikidata's full value node
(``p:P/psv:P`` with ``wikibase:quantityAmount`` and ``wikibase:quantityUnit``), written where
qualifiers are like ``in SI units``. Each form in the three notations (ID, label, ECAI), compiled
and checked equivalent to a query written by hand; the decompiler reads the node back (the unit
in the triple or in a FILTER) and refuses the rest of a full value node by name."""
import pytest

import cnl
from cnl import ir
from cnl.dialects import get_dialect
from cnl.dialects.notation import detect_notation
from cnl.dialects.squall.parser import parse_squall
from cnl.dialects.squall.printer import print_squall
from cnl.errors import CNLSyntaxError, CompileError, UnsupportedSPARQLError
from cnl.sparql.compiler import compile_query
from cnl.sparql.decompile import decompile_to_ir
from cnl.sparql.equivalence import equivalent
from cnl.sparql.profiles import get_profile
from tests.roundtrip_helpers import PREFIXES as _WIKIDATA_PREFIXES, round_trip

PREFIXES = (_WIKIDATA_PREFIXES + "PREFIX wikibase: <http://wikiba.se/ontology#> "
            "PREFIX psv: <http://www.wikidata.org/prop/statement/value/> ")

# Labels of the label and ECAI notations -> Wikidata IDs.
IDS = {
    "mountain": "Q8502", "river": "Q4022", "human": "Q5", "metre": "Q11573", "kilometre": "Q828224",
    "centimetre": "Q174728", "foot": "Q3710", "Nanga Parbat": "Q130736", "Barack Obama": "Q76",
    "Michelle Obama": "Q13133", "elevation above sea level": "P2044", "length": "P2043", "height": "P2048",
    "spouse": "P26",
}


class Lexicon:
    def resolve(self, label, kind, span=None):
        return IDS[label]


# (the form in the ID, label and ECAI notations; what the printer gives back in the ID notation;
# the query written by hand)
FORMS = [
    # the question: a comparison, the mark between the property and it
    (("Which <Q8502> has a <P2044> in unit <Q11573> greater than the <P2044> of <Q130736>?",
      "Which [mountain] has a <elevation above sea level> in unit [metre] greater than the "
      "<elevation above sea level> of [Nanga Parbat]?",
      "Which <mountain> has a <P2044:elevation_above_sea_level> in unit <metre> greater than the "
      "<P2044:elevation_above_sea_level> of <Nanga_Parbat>?"),
     "Which <Q8502> has <P2044> (something that is greater than the <P2044> of <Q130736>) in unit <Q11573>?",
     "SELECT DISTINCT ?x WHERE { ?x wdt:P31 wd:Q8502 . ?x p:P2044 ?s . ?s psv:P2044 ?v . "
     "?v wikibase:quantityAmount ?elevation . ?v wikibase:quantityUnit wd:Q11573 . "
     "wd:Q130736 wdt:P2044 ?e2 . FILTER(?elevation > ?e2) }"),
    # a paraphrase of our own: the mark after the object, as the printer writes it
    (("Which <Q5> has <P26> <Q76> and has <P2048> (something that is greater than 170) in unit <Q174728>?",
      "Which [human] has <spouse> [Barack Obama] and has <height> (something that is greater than 170) in "
      "unit [centimetre]?",
      "Which <human> has <P26:spouse> <Barack_Obama> and has <P2048:height> (something that is greater than "
      "170) in unit <centimetre>?"),
     "Which <Q5> has <P26> <Q76> and has <P2048> (something that is greater than 170) in unit <Q174728>?",
     "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 ; wdt:P26 wd:Q76 ; p:P2048 ?s . ?s psv:P2048 ?n . "
     "?n wikibase:quantityAmount ?cm ; wikibase:quantityUnit wd:Q174728 . FILTER(?cm > 170) }"),
    # the relational noun: the amount as the answer
    (("Give me the <P2048> in unit <Q174728> of <Q13133>.",
      "Give me the <height> in unit [centimetre] of [Michelle Obama].",
      "Give me the <P2048:height> in unit <centimetre> of <Michelle_Obama>."),
     "Give me the <P2048> in unit <Q174728> of <Q13133>.",
     "SELECT DISTINCT ?cm WHERE { wd:Q13133 p:P2048 ?s . ?s psv:P2048 ?n . "
     "?n wikibase:quantityAmount ?cm . ?n wikibase:quantityUnit wd:Q174728 }"),
    # the ordering: a superlative over the amounts in that unit
    (("Which <Q4022> has the highest <P2043> in unit <Q828224>?",
      "Which [river] has the highest <length> in unit [kilometre]?",
      "Which <river> has the highest <P2043:length> in unit <kilometre>?"),
     "Which <Q4022> has the highest <P2043> in unit <Q828224>?",
     "SELECT DISTINCT ?r WHERE { ?r wdt:P31 wd:Q4022 ; p:P2043 ?s . ?s psv:P2043 ?n . "
     "?n wikibase:quantityAmount ?km ; wikibase:quantityUnit wd:Q828224 } ORDER BY DESC(?km) LIMIT 1"),
    # a count, the unit another one of our own
    (("How many <Q8502> have a <P2044> in unit <Q3710> greater than 20000?",
      "How many [mountain] have a <elevation above sea level> in unit [foot] greater than 20000?",
      "How many <mountain> have a <P2044:elevation_above_sea_level> in unit <foot> greater than 20000?"),
     None,
     "SELECT (COUNT(DISTINCT ?m) AS ?n) WHERE { ?m wdt:P31 wd:Q8502 ; p:P2044 ?s . ?s psv:P2044 ?v . "
     "?v wikibase:quantityAmount ?ft ; wikibase:quantityUnit wd:Q3710 . FILTER(?ft > 20000) }"),
]


@pytest.mark.parametrize("texts, canonical, sparql", FORMS)
def test_each_notation_compiles_to_the_hand_written_query(texts, canonical, sparql):
    assert [detect_notation(t) for t in texts] == ["id", "label", "ecai"], texts
    for text in texts:
        compiled = cnl.compile(text, lexicon=Lexicon())
        assert equivalent(compiled, PREFIXES + sparql, distinct=True), (text, compiled)


@pytest.mark.parametrize("texts, canonical, sparql", [f for f in FORMS if f[1]])
def test_the_printer_writes_the_mark_back_and_it_reads_the_same(texts, canonical, sparql):
    query = parse_squall(texts[0])
    assert print_squall(query, "id", id_labels=False) == canonical
    assert parse_squall(canonical) == query
    for notation in ("label", "ecai"):
        printed = print_squall(query, notation)
        assert parse_squall(printed, notation=notation) == query, printed


def test_the_ir_keeps_the_unit_beside_the_statement_and_none_elsewhere():
    stmt = parse_squall("Which <Q8502> has the highest <P2044> in unit <Q11573>?").vp
    assert stmt.unit == ir.Entity("Q11573") and not stmt.normalized
    noun = parse_squall("Give me the <P2044> in unit [metre] of <Q130736>.").subject.noun
    assert noun.unit == ir.Entity(label="metre")
    plain = parse_squall("Which <Q8502> has the highest <P2044>?").vp
    assert plain.unit is None and plain == ir.Stmt(plain.prop, plain.obj)


@pytest.mark.parametrize("sparql", [
    FORMS[0][2],
    # the unit as WDQS writers often test it: a variable, then FILTER(?u = wd:Q...) (QALD-9-plus train 174)
    "SELECT DISTINCT ?uri WHERE { ?uri wdt:P31 wd:Q8502 . ?uri p:P2044 ?st . ?st psv:P2044 ?vn . "
    "?vn wikibase:quantityAmount ?elevation . ?vn wikibase:quantityUnit ?unit . "
    "wd:Q130736 wdt:P2044 ?e2 . FILTER(?unit = wd:Q11573) FILTER(?elevation > ?e2) }",
    FORMS[2][2],
    FORMS[3][2],
    # with a qualifier of the statement
    "SELECT DISTINCT ?h WHERE { wd:Q76 p:P2048 ?s . ?s psv:P2048 ?n ; pq:P585 ?t . "
    "?n wikibase:quantityAmount ?h ; wikibase:quantityUnit wd:Q174728 }",
])
def test_a_full_value_node_with_a_named_unit_round_trips(sparql):
    printed, back = round_trip(PREFIXES + sparql)
    assert " in unit <Q" in printed, printed
    assert equivalent(back, PREFIXES + sparql, distinct=True), (printed, back)


def test_the_unit_s_filter_is_the_named_unit_for_the_equivalence_checker():
    named = "SELECT ?a WHERE { wd:Q76 p:P2048 ?s . ?s psv:P2048 ?n . ?n wikibase:quantityAmount ?a ; " \
            "wikibase:quantityUnit wd:Q174728 }"
    tested = "SELECT ?a WHERE { wd:Q76 p:P2048 ?s . ?s psv:P2048 ?n . ?n wikibase:quantityAmount ?a ; " \
             "wikibase:quantityUnit ?u . FILTER(?u = wd:Q174728) }"
    assert equivalent(PREFIXES + named, PREFIXES + tested)
    # the unit is an answer column: another query
    assert not equivalent(PREFIXES + named, PREFIXES + tested.replace("SELECT ?a", "SELECT ?a ?u"))
    # another unit
    assert not equivalent(PREFIXES + named, PREFIXES + tested.replace("Q174728", "Q11573"))


@pytest.mark.parametrize("sparql, construct", [
    # its bounds
    ("SELECT ?h WHERE { wd:Q76 p:P2048 ?s . ?s psv:P2048 ?v . ?v wikibase:quantityAmount ?h ; "
     "wikibase:quantityUnit wd:Q174728 ; wikibase:quantityLowerBound ?low }",
     "a full value node's bounds or other parts (psv:)"),
    # the unit an answer ("in unit ?u" names the unit, it does not ask for it)
    ("SELECT ?h ?u WHERE { wd:Q76 p:P2048 ?s . ?s psv:P2048 ?v . ?v wikibase:quantityAmount ?h ; "
     "wikibase:quantityUnit ?u }",
     "a full value node whose unit is an answer (wikibase:quantityUnit ?u)"),
    # the unit a variable nothing else reads
    ("SELECT ?h WHERE { wd:Q76 p:P2048 ?s . ?s psv:P2048 ?v . ?v wikibase:quantityAmount ?h ; "
     "wikibase:quantityUnit ?u }",
     "a full value node whose unit is a variable that no test reads (wikibase:quantityUnit ?u)"),
    # the unit a variable that a FILTER of its own tests (no relative clause of the unit)
    ("SELECT ?h WHERE { wd:Q76 p:P2048 ?s . ?s psv:P2048 ?v . ?v wikibase:quantityAmount ?h ; "
     "wikibase:quantityUnit ?u . FILTER(?u = wd:Q174728 || ?u = wd:Q11573) }",
     "a FILTER not connected to the rest of the query"),
    # no unit at all
    ("SELECT ?h WHERE { wd:Q76 p:P2048 ?s . ?s psv:P2048 ?v . ?v wikibase:quantityAmount ?h }",
     "a full value node (psv:) without its amount and a named unit"),
    # the value node itself an answer
    ("SELECT ?v WHERE { wd:Q76 p:P2048 ?s . ?s psv:P2048 ?v . ?v wikibase:quantityAmount ?h ; "
     "wikibase:quantityUnit wd:Q174728 }",
     "a full value node (psv:) used beside its amount and unit"),
])
def test_anything_else_on_a_full_value_node_is_refused_by_name(sparql, construct):
    with pytest.raises(UnsupportedSPARQLError) as err:
        decompile_to_ir(PREFIXES + sparql)
    assert err.value.construct == construct


def test_one_unit_per_quantity():
    with pytest.raises(CNLSyntaxError, match="one unit"):
        parse_squall("Which <Q8502> has the highest <P2044> in unit <Q11573> in SI units?")
    with pytest.raises(CNLSyntaxError, match="one unit"):
        parse_squall("Which <Q8502> has the highest <P2044> in unit <Q11573> in unit <Q3710>?")
    with pytest.raises(CNLSyntaxError, match="said of a statement"):
        parse_squall("Which <Q8502> has <P2044> (something that is greater than its <P2044> in unit <Q11573>)?")


def test_a_profile_without_statements_refuses_the_unit():
    with pytest.raises(CompileError, match="in unit"):
        get_profile("rdf").unit_statement("?x", "P2044", "?v", "wd:Q11573", [])
    with pytest.raises(CompileError, match="one property with a value"):
        compile_query(parse_squall("Which <Q8502> has the highest <P2044>/<P2043> in unit <Q11573>?"))


def test_sparklis_refuses_it_by_name():
    query, _ = decompile_to_ir(PREFIXES + FORMS[3][2])
    with pytest.raises(UnsupportedSPARQLError) as err:
        get_dialect("sparklis").check_expressible(query)
    assert err.value.construct == "a quantity in a given unit ('in unit <Q>') in Sparklis"


# A few full value nodes in the shape of Wikidata's RDF dump (the slice holds none), for the
# compiled queries run by a real SPARQL engine (pyoxigraph, the embedded store's).
_VALUE_NODES = """
@prefix wd: <http://www.wikidata.org/entity/> . @prefix wdt: <http://www.wikidata.org/prop/direct/> .
@prefix p: <http://www.wikidata.org/prop/> . @prefix psv: <http://www.wikidata.org/prop/statement/value/> .
@prefix wikibase: <http://wikiba.se/ontology#> .
wd:Q130736 wdt:P31 wd:Q8502 ; wdt:P2044 8126 ; p:P2044 [ psv:P2044 [ wikibase:quantityAmount 8126 ;
    wikibase:quantityUnit wd:Q11573 ] ] .
wd:Q513 wdt:P31 wd:Q8502 ; wdt:P2044 8849 ; p:P2044 [ psv:P2044 [ wikibase:quantityAmount 8849 ;
    wikibase:quantityUnit wd:Q11573 ] ] .
wd:Q43512 wdt:P31 wd:Q8502 ; wdt:P2044 28251 ; p:P2044 [ psv:P2044 [ wikibase:quantityAmount 28251 ;
    wikibase:quantityUnit wd:Q3710 ] ] .
"""


@pytest.mark.parametrize("text, answers", [
    # K2's 28251 is in feet: not a value in metres, whatever its number
    ("Which <Q8502> has a <P2044> in unit <Q11573> greater than the <P2044> of <Q130736>?", {"Q513"}),
    ("Which <Q8502> has the highest <P2044> in unit <Q3710>?", {"Q43512"}),
    ("Which <Q8502> has the highest <P2044> in unit <Q11573>?", {"Q513"}),
    ("How many <Q8502> have a <P2044> in unit <Q11573> greater than 8000?", {"2"}),
])
def test_a_real_engine_keeps_only_the_values_in_that_unit(text, answers):
    assert _answers(text) == answers


def _answers(text: str) -> set:
    """The first column (an IRI's last segment) of ``text`` compiled and run by pyoxigraph over
    the value nodes above."""
    pyoxigraph = pytest.importorskip("pyoxigraph")
    store = pyoxigraph.Store()
    store.load(_VALUE_NODES.encode(), format=pyoxigraph.RdfFormat.TURTLE)
    return {row[0].value.rsplit("/", 1)[-1] for row in store.query(cnl.compile(text))}


@pytest.mark.parametrize("text, answers", [
    # K2's 28251 feet are 8611 metres: the highest converted value is Everest's, the lowest Nanga Parbat's
    ("Give me a <Q8502> that has <P2044> ?h in unit ?u and such that (?h if ?u is <Q11573>, else ?h * 0.3048) "
     "is the highest.", {"Q513"}),
    ("Give me a <Q8502> that has <P2044> ?h in unit ?u and such that (?h if ?u is <Q11573>, else ?h * 0.3048) "
     "is the 2 lowest.", {"Q130736", "Q43512"}),
    ("Give me a <Q8502> that has <P2044> ?h in unit ?u and such that (?h if ?u is <Q3710>, else (?h / 0.3048 if "
     "?u is <Q11573>, else 0)) is greater than 28000.", {"Q513", "Q43512"}),
])
def test_a_real_engine_orders_and_tests_values_converted_by_their_unit(text, answers):
    assert _answers(text) == answers


def test_a_unit_conversion_read_back_names_the_unit_by_its_variable():
    # QALD-9-plus train 357's shape: nested IFs on the unit, ?u read only by them
    sparql = ("SELECT DISTINCT ?x WHERE { ?x wdt:P31 wd:Q8502 ; p:P2044 ?s . ?s psv:P2044 ?v . "
              "?v wikibase:quantityAmount ?h ; wikibase:quantityUnit ?unit . BIND(IF(?unit = wd:Q11573, ?h, "
              "IF(?unit = wd:Q3710, ?h * 0.3048, ?h)) AS ?metres) } ORDER BY DESC(?metres) LIMIT 1")
    query, options = decompile_to_ir(PREFIXES + sparql)
    assert print_squall(query, "id", id_labels=False) == (
        "Give me a <Q8502> that has <P2044> ?h in unit ?unit and such that (?h if ?unit is <Q11573>, else "
        "(?h * 0.3048 if ?unit is <Q3710>, else ?h)) is the highest.")
    assert equivalent(compile_query(query, "wikidata", None, **options), PREFIXES + sparql, distinct=True)
