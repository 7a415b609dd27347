"""The SPARQL 1.1 forms of issue 29 (squall.lark, section "SPARQL 1.1 forms"; docs/cnl-reference.md
section 12): constructs of hand-written SPARQL that the CNL had no words for. Each form in two
paraphrases of our own, each written in the three notations (ID, label, ECAI): each text compiles
to a query equivalent to the hand-written SPARQL and reads as its canonical form, and the
hand-written SPARQL decompiles to a text that compiles back to an equivalent query (the meaning
guard checks that too)."""
from dataclasses import dataclass

import pytest

import cnl
from cnl.dialects.notation import detect_notation
from cnl.dialects.squall.parser import parse_squall
from cnl.dialects.squall.printer import print_squall
from cnl.errors import LexiconError, UnsupportedSPARQLError
from cnl.sparql.decompile import decompile_to_ir
from cnl.sparql.compiler import compile_query
from cnl.sparql.equivalence import equivalent
from cnl.sparql.label_service import read_label_service
from tests.roundtrip_helpers import PREFIXES as _WIKIDATA_PREFIXES

PREFIXES = (_WIKIDATA_PREFIXES + "PREFIX skos: <http://www.w3.org/2004/02/skos/core#> "
            "PREFIX xsd: <http://www.w3.org/2001/XMLSchema#> PREFIX wikibase: <http://wikiba.se/ontology#> "
            "PREFIX psn: <http://www.wikidata.org/prop/statement/value-normalized/> "
            "PREFIX psv: <http://www.wikidata.org/prop/statement/value/> "
            "PREFIX geof: <http://www.opengis.net/def/function/geosparql/> ")

# Labels of the label and ECAI notations -> Wikidata IDs.
IDS = {
    "Barack Obama": "Q76", "Michelle Obama": "Q13133", "Mont Blanc": "Q583", "Matterhorn": "Q1374",
    "Berlin": "Q64", "Paris": "Q90", "The Godfather": "Q47703", "Leonardo DiCaprio": "Q38111", "Tom Hanks": "Q2263",
    "date of birth": "P569", "elevation above sea level": "P2044", "population": "P1082", "area": "P2046",
    "official name": "P1448", "title": "P1476", "award received": "P166", "child": "P40",
    "date of death": "P570", "country": "Q6256", "contains the administrative territorial entity": "P150",
    "human": "Q5", "occupation": "P106", "actor": "Q33999", "city": "Q515", "coordinate location": "P625",
}


class Lexicon:
    def resolve(self, label, kind, span=None):
        if label not in IDS:  # "label", "description": the CNL's pseudo-properties
            raise LexiconError(f"no {kind} {label!r}", label=label, kind=kind)
        return IDS[label]


@dataclass
class Form:
    form: str
    texts: tuple        # the form in the ID, label and ECAI notations
    sparql: str         # the query, written by hand
    refused: str = ""   # the construct the decompiler still names when it reads the SPARQL back
    # a pseudo-property (<description>) has no ID: its ID-notation text reads as the label notation
    notations: frozenset = frozenset({"id", "label", "ecai"})


FORMS = [
    Form("a coordinate of a point (geof:latitude, geof:longitude), in an ordering",
         ("Give me a <Q515> that has <P625> ?p and such that the latitude of ?p is the highest.",
          "Give me a [city] that has <coordinate location> ?p and such that the latitude of ?p is the highest.",
          "Give me a <city> that has <P625:coordinate_location> ?p and such that the latitude of ?p is the highest."),
         "SELECT DISTINCT ?c WHERE { ?c wdt:P31 wd:Q515 ; wdt:P625 ?p . } ORDER BY DESC(geof:latitude(?p)) LIMIT 1"),
    Form("a coordinate of a point (geof:latitude, geof:longitude), in an ordering",
         ("Give me a <Q6256> that has <P625> ?p and such that the longitude of ?p is the 3 lowest.",
          "Give me a [country] that has <coordinate location> ?p and such that the longitude of ?p is the 3 lowest.",
          "Give me a <country> that has <P625:coordinate_location> ?p and such that the longitude of ?p is the 3 "
          "lowest."),
         "SELECT DISTINCT ?c WHERE { ?c wdt:P31 wd:Q6256 ; wdt:P625 ?p . } ORDER BY ASC(geof:longitude(?p)) LIMIT 3"),
    Form("an aggregate of one count per group (a nested SELECT)",
         ("What is the average of (the number of <P150> of a <Q6256>)?",
          "What is the average of (the number of <contains the administrative territorial entity> of a [country])?",
          "What is the average of (the number of <P150:contains_the_administrative_territorial_entity> of a "
          "<country>)?"),
         "SELECT (AVG(?n) AS ?avg) WHERE { { SELECT ?c (COUNT(DISTINCT ?d) AS ?n) WHERE { ?c wdt:P31 wd:Q6256 ; "
         "wdt:P150 ?d . } GROUP BY ?c } }"),
    Form("an aggregate of one count per group (a nested SELECT)",
         ("Give me the maximum of the number of <P166> of (a <Q5> that has <P106> <Q33999>).",
          "Give me the maximum of the number of <award received> of (a [human] that has <occupation> [actor]).",
          "Give me the maximum of the number of <P166:award_received> of (a <human> that has <P106:occupation> "
          "<actor>)."),
         "SELECT (MAX(?n) AS ?most) WHERE { { SELECT ?h (COUNT(DISTINCT ?a) AS ?n) WHERE { ?h wdt:P31 wd:Q5 ; "
         "wdt:P106 wd:Q33999 ; wdt:P166 ?a . } GROUP BY ?h } }"),
    Form("the length of a string (STRLEN), in an ordering",
         ("Give me a <Q6256> that has <P1448> ?n and such that the length of ?n is the highest.",
          "Give me a [country] that has <official name> ?n and such that the length of ?n is the highest.",
          "Give me a <country> that has <P1448:official_name> ?n and such that the length of ?n is the highest."),
         "SELECT DISTINCT ?c WHERE { ?c wdt:P31 wd:Q6256 ; wdt:P1448 ?n . } ORDER BY DESC(STRLEN(?n)) LIMIT 1"),
    Form("the length of a string (STRLEN), in an ordering",
         ('Give me a [country] that has <label> (something ?l whose language is "en") and such that the length '
          'of ?l is the lowest.',
          'Give me a <country> that has <label> (something ?l whose language is "en") and such that the length '
          'of ?l is the lowest.'),
         'SELECT DISTINCT ?c WHERE { ?c wdt:P31 wd:Q6256 ; rdfs:label ?l . FILTER(LANG(?l) = "en") } '
         'ORDER BY STRLEN(STR(?l)) LIMIT 1', notations=frozenset({"label", "ecai"})),
    Form("a choice (BIND(IF))",
         ("Give me <Q76> if <Q76> has a <P569> earlier than the <P569> of <Q13133>, else <Q13133>.",
          "Give me [Barack Obama] if [Barack Obama] has a <date of birth> earlier than the <date of birth> of "
          "[Michelle Obama], else [Michelle Obama].",
          "Give me <Barack_Obama> if <Barack_Obama> has a <P569:date_of_birth> earlier than the "
          "<P569:date_of_birth> of <Michelle_Obama>, else <Michelle_Obama>."),
         "SELECT DISTINCT ?who WHERE { wd:Q76 wdt:P569 ?a . wd:Q13133 wdt:P569 ?b . "
         "BIND(IF(?a < ?b, wd:Q76, wd:Q13133) AS ?who) }"),
    Form("a choice (BIND(IF))",
         ("Give me <Q583> if <Q583> has a <P2044> greater than the <P2044> of <Q1374>, else <Q1374>.",
          "Give me [Mont Blanc] if [Mont Blanc] has an <elevation above sea level> greater than the "
          "<elevation above sea level> of [Matterhorn], else [Matterhorn].",
          "Give me <Mont_Blanc> if <Mont_Blanc> has a <P2044:elevation_above_sea_level> greater than the "
          "<P2044:elevation_above_sea_level> of <Matterhorn>, else <Matterhorn>."),
         "SELECT DISTINCT ?m WHERE { wd:Q583 wdt:P2044 ?a . wd:Q1374 wdt:P2044 ?b . "
         "BIND(IF(?a > ?b, wd:Q583, wd:Q1374) AS ?m) }"),
    Form("arithmetic over two values (BIND(?a / ?b))",
         ("Give me (the <P1082> of <Q64>) / the <P2046> of <Q64>.",
          "Give me (the <population> of [Berlin]) / the <area> of [Berlin].",
          "Give me (the <P1082:population> of <Berlin>) / the <P2046:area> of <Berlin>."),
         "SELECT DISTINCT ?d WHERE { wd:Q64 wdt:P1082 ?p . wd:Q64 wdt:P2046 ?a . BIND((?p / ?a) AS ?d) }"),
    Form("arithmetic over two values (BIND(?a / ?b))",
         ("Give me (the <P1082> of <Q64>) + the <P1082> of <Q90>.",
          "Give me (the <population> of [Berlin]) + the <population> of [Paris].",
          "Give me (the <P1082:population> of <Berlin>) + the <P1082:population> of <Paris>."),
         "SELECT DISTINCT ?s WHERE { wd:Q64 wdt:P1082 ?a . wd:Q90 wdt:P1082 ?b . BIND((?a + ?b) AS ?s) }"),
    Form("years between two dates (BIND(YEAR(?a) - YEAR(?b)))",
         ("Give me the difference between (the year of the <P569> of <Q76>) and the year of the <P569> of <Q13133>.",
          "Give me the difference between (the year of the <date of birth> of [Barack Obama]) and the year of the "
          "<date of birth> of [Michelle Obama].",
          "Give me the difference between (the year of the <P569:date_of_birth> of <Barack_Obama>) and the year of "
          "the <P569:date_of_birth> of <Michelle_Obama>."),
         "SELECT DISTINCT ?y WHERE { wd:Q76 wdt:P569 ?a . wd:Q13133 wdt:P569 ?b . BIND(YEAR(?a) - YEAR(?b) AS ?y) }"),
    Form("years between two dates (BIND(YEAR(?a) - YEAR(?b)))",
         ("Give me (the year of the <P570> of <Q76>) - the year of the <P569> of <Q76>.",
          "Give me (the year of the <date of death> of [Barack Obama]) - the year of the <date of birth> of "
          "[Barack Obama].",
          "Give me (the year of the <P570:date_of_death> of <Barack_Obama>) - the year of the <P569:date_of_birth> "
          "of <Barack_Obama>."),
         "SELECT DISTINCT ?y WHERE { wd:Q76 wdt:P570 ?a . wd:Q76 wdt:P569 ?b . BIND(YEAR(?a) - YEAR(?b) AS ?y) }"),
    Form("a language range (LANGMATCHES)",
         ('Give me a <P1448> of <Q64> whose language matches "de".',
          'Give me an <official name> of [Berlin] whose language matches "de".',
          'Give me a <P1448:official_name> of <Berlin> whose language matches "de".'),
         'SELECT DISTINCT ?n WHERE { wd:Q64 wdt:P1448 ?n . FILTER(LANGMATCHES(LANG(?n), "de")) }'),
    Form("a language range (LANGMATCHES)",
         ('Which <P1476> of <Q47703> has language matching "en"?',
          'Which <title> of [The Godfather] has language matching "en"?',
          'Which <P1476:title> of <The_Godfather> has language matching "en"?'),
         'SELECT DISTINCT ?t WHERE { wd:Q47703 wdt:P1476 ?t . FILTER(LANGMATCHES(LANG(?t), "en")) }'),
    Form("counts compared (sub-queries)",
         ("Is the number of <P166> of <Q38111> greater than the number of <P166> of <Q2263>?",
          "Is the number of <award received> of [Leonardo DiCaprio] greater than the number of <award received> "
          "of [Tom Hanks]?",
          "Is the number of <P166:award_received> of <Leonardo_DiCaprio> greater than the number of "
          "<P166:award_received> of <Tom_Hanks>?"),
         "ASK { { SELECT (COUNT(DISTINCT ?a) AS ?n) WHERE { wd:Q38111 wdt:P166 ?a } } "
         "{ SELECT (COUNT(DISTINCT ?b) AS ?m) WHERE { wd:Q2263 wdt:P166 ?b } } FILTER(?n > ?m) }"),
    Form("counts compared (sub-queries)",
         ("Is the number of <P40> of <Q76> less than the number of <P40> of <Q13133>?",
          "Is the number of <child> of [Barack Obama] less than the number of <child> of [Michelle Obama]?",
          "Is the number of <P40:child> of <Barack_Obama> less than the number of <P40:child> of <Michelle_Obama>?"),
         "ASK { { SELECT (COUNT(DISTINCT ?a) AS ?n) WHERE { wd:Q76 wdt:P40 ?a } } "
         "{ SELECT (COUNT(DISTINCT ?b) AS ?m) WHERE { wd:Q13133 wdt:P40 ?b } } FILTER(?n < ?m) }"),
    Form("NOW() in arithmetic",
         ("Give me the year of now - the year of the <P569> of <Q76>.",
          "Give me the year of now - the year of the <date of birth> of [Barack Obama].",
          "Give me the year of now - the year of the <P569:date_of_birth> of <Barack_Obama>."),
         "SELECT DISTINCT ?age WHERE { wd:Q76 wdt:P569 ?b . BIND((YEAR(NOW()) - YEAR(?b)) AS ?age) }"),
    Form("NOW() in arithmetic",
         ("Give me the year of now - the year of the <P569> of <Q13133>.",
          "Give me the year of now - the year of the <date of birth> of [Michelle Obama].",
          "Give me the year of now - the year of the <P569:date_of_birth> of <Michelle_Obama>."),
         "SELECT DISTINCT ?age WHERE { wd:Q13133 wdt:P569 ?b . BIND((YEAR(NOW()) - YEAR(?b)) AS ?age) }"),
    Form("tests on one value joined by 'or' (FILTER(a || b))",
         ('Give me a <P1476> of <Q47703> that case-sensitively contains "God" or case-sensitively contains "Father".',
          'Give me a <title> of [The Godfather] that case-sensitively contains "God" or case-sensitively contains '
          '"Father".',
          'Give me a <P1476:title> of <The_Godfather> that case-sensitively contains "God" or case-sensitively '
          'contains "Father".'),
         'SELECT DISTINCT ?t WHERE { wd:Q47703 wdt:P1476 ?t . '
         'FILTER(CONTAINS(STR(?t), "God") || CONTAINS(STR(?t), "Father")) }'),
    Form("tests on one value joined by 'or' (FILTER(a || b))",
         ('Give me a <P1448> of <Q64> that has language "de" or has language "en".',
          'Give me an <official name> of [Berlin] that has language "de" or has language "en".',
          'Give me a <P1448:official_name> of <Berlin> that has language "de" or has language "en".'),
         'SELECT DISTINCT ?n WHERE { wd:Q64 wdt:P1448 ?n . FILTER(LANG(?n) = "de" || LANG(?n) = "en") }'),
]


# WDQS's label service with its triples written out (cnl/sparql/label_service.py): the triples
# and a language test, said with the pseudo-property "description" (Wikidata's schema:description)
FORMS += [
    Form("a description in one language (schema:description, the label service)",
         ('Give me a <description> of <Q76> whose language is "en".',
          'Give me a <description> of [Barack Obama] whose language is "en".',
          'Give me a <description> of <Barack_Obama> whose language is "en".'),
         'SELECT DISTINCT ?d WHERE { SERVICE wikibase:label { bd:serviceParam wikibase:language "en". '
         'wd:Q76 schema:description ?d. } }', notations=frozenset({"label", "ecai"})),
    Form("a description in one language (schema:description, the label service)",
         ('Which <Q5> has <P26> <Q76> and has a <description> whose language is "de"?',
          'Which [human] has <spouse> [Barack Obama] and has a <description> whose language is "de"?',
          'Which <human> has <P26:spouse> <Barack_Obama> and has a <description> whose language is "de"?'),
         'SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 ; wdt:P26 wd:Q76 ; schema:description ?d . '
         'FILTER(LANG(?d) = "de") }', notations=frozenset({"label", "ecai"})),
]
IDS.update({"human": "Q5", "spouse": "P26"})


# Values the tree reaches, named by co-reference variables (issue 29, i29sparql): a BIND over
# several variables as the answer, a FILTER or ORDER BY over a computed value ("such that S"),
# and the pseudo-property "alias" (skos:altLabel)
FORMS += [
    Form("a value computed from several values of the tree (BIND over several variables)",
         ("Give me (the year of (the <P570> of (which <Q5> that has <P26> <Q76> and that has <P569> ?b))) - "
          "the year of ?b.",
          "Give me (the year of (the <date of death> of (which [human] that has <spouse> [Barack Obama] and that "
          "has <date of birth> ?b))) - the year of ?b.",
          "Give me (the year of (the <P570:date_of_death> of (which <human> that has <P26:spouse> <Barack_Obama> "
          "and that has <P569:date_of_birth> ?b))) - the year of ?b."),
         "SELECT DISTINCT ?x ?age WHERE { ?x wdt:P31 wd:Q5 ; wdt:P26 wd:Q76 ; wdt:P569 ?b ; wdt:P570 ?d . "
         "BIND(YEAR(?d) - YEAR(?b) AS ?age) }"),
    Form("a value computed from several values of the tree (BIND over several variables)",
         ("Give me (the year of (the thing at which <P582> <Q76> has <P39> <Q11696> at <P580> ?start)) - "
          "the year of ?start.",
          "Give me (the year of (the thing at which <end time> [Barack Obama] has <position held> "
          "[President of the United States] at <start time> ?start)) - the year of ?start.",
          "Give me (the year of (the thing at which <P582:end_time> <Barack_Obama> has <P39:position_held> "
          "<President_of_the_United_States> at <P580:start_time> ?start)) - the year of ?start."),
         "SELECT DISTINCT ?y WHERE { wd:Q76 p:P39 ?s . ?s ps:P39 wd:Q11696 ; pq:P580 ?start ; pq:P582 ?end . "
         "BIND(YEAR(?end) - YEAR(?start) AS ?y) }"),
    Form("a test of a computed value or of several values (such that S)",
         ("Give me a <Q5> that has <P26> <Q76> and that has <P569> ?b and such that ((the year of now) - "
          "the year of ?b) is greater than 50.",
          "Give me a [human] that has <spouse> [Barack Obama] and that has <date of birth> ?b and such that "
          "((the year of now) - the year of ?b) is greater than 50.",
          "Give me a <human> that has <P26:spouse> <Barack_Obama> and that has <P569:date_of_birth> ?b and such "
          "that ((the year of now) - the year of ?b) is greater than 50."),
         "SELECT DISTINCT ?x WHERE { ?x wdt:P31 wd:Q5 ; wdt:P26 wd:Q76 ; wdt:P569 ?b . "
         "FILTER(YEAR(NOW()) - YEAR(?b) > 50) }"),
    Form("a test of a computed value or of several values (such that S)",
         ("Give me a <Q515> that has <P1082> ?p and that has <P2046> ?a and such that (?p / ?a) is greater "
          "than 5000.",
          "Give me a [city] that has <population> ?p and that has <area> ?a and such that (?p / ?a) is greater "
          "than 5000.",
          "Give me a <city> that has <P1082:population> ?p and that has <P2046:area> ?a and such that (?p / ?a) "
          "is greater than 5000."),
         "SELECT DISTINCT ?c WHERE { ?c wdt:P31 wd:Q515 ; wdt:P1082 ?p ; wdt:P2046 ?a . FILTER(?p / ?a > 5000) }"),
    Form("a test of a computed value or of several values (such that S)",
         ("Give me a <Q5> that has <P569> ?a and such that the month of ?a is equal to the month of "
          "(a <P569> of <Q76>).",
          "Give me a [human] that has <date of birth> ?a and such that the month of ?a is equal to the month of "
          "(a <date of birth> of [Barack Obama]).",
          "Give me a <human> that has <P569:date_of_birth> ?a and such that the month of ?a is equal to the "
          "month of (a <P569:date_of_birth> of <Barack_Obama>)."),
         "SELECT DISTINCT ?x WHERE { ?x wdt:P31 wd:Q5 ; wdt:P569 ?a . wd:Q76 wdt:P569 ?b . "
         "FILTER(MONTH(?a) = MONTH(?b)) }"),
    Form("an ordering by a computed value (ORDER BY an expression)",
         ("Give me a <Q515> that has <P1082> ?p and that has <P2046> ?a and such that (?p / ?a) is the highest.",
          "Give me a [city] that has <population> ?p and that has <area> ?a and such that (?p / ?a) is the "
          "highest.",
          "Give me a <city> that has <P1082:population> ?p and that has <P2046:area> ?a and such that (?p / ?a) "
          "is the highest."),
         "SELECT DISTINCT ?c WHERE { ?c wdt:P31 wd:Q515 ; wdt:P1082 ?p ; wdt:P2046 ?a } ORDER BY DESC(?p / ?a) "
         "LIMIT 1"),
    Form("an ordering by a computed value (ORDER BY an expression)",
         ("Give me a <Q5> that has <P26> <Q76> and that has <P569> ?b and that has <P570> ?d and such that "
          "((the year of ?d) - the year of ?b) is the 3 lowest.",
          "Give me a [human] that has <spouse> [Barack Obama] and that has <date of birth> ?b and that has "
          "<date of death> ?d and such that ((the year of ?d) - the year of ?b) is the 3 lowest.",
          "Give me a <human> that has <P26:spouse> <Barack_Obama> and that has <P569:date_of_birth> ?b and that "
          "has <P570:date_of_death> ?d and such that ((the year of ?d) - the year of ?b) is the 3 lowest."),
         # a BIND that only ORDER BY reads: the ordering by its expression
         "SELECT DISTINCT ?x WHERE { ?x wdt:P31 wd:Q5 ; wdt:P26 wd:Q76 ; wdt:P569 ?b ; wdt:P570 ?d . "
         "BIND(YEAR(?d) - YEAR(?b) AS ?age) } ORDER BY ASC(?age) LIMIT 3"),
    Form("another name (skos:altLabel, the pseudo-property alias)",
         ('Which <alias> of <Q64> has language "en"?',
          'Which <alias> of [Berlin] has language "en"?',
          'Which <alias> of <Berlin> has language "en"?'),
         'SELECT DISTINCT ?l WHERE { wd:Q64 skos:altLabel ?l . FILTER(LANG(?l) = "en") }',
         notations=frozenset({"label", "ecai"})),
    Form("another name (skos:altLabel, the pseudo-property alias)",
         ('Which <Q5> has <P26> <Q76> and has an <alias> whose language matches "fr"?',
          'Which [human] has <spouse> [Barack Obama] and has an <alias> whose language matches "fr"?',
          'Which <human> has <P26:spouse> <Barack_Obama> and has an <alias> whose language matches "fr"?'),
         'SELECT DISTINCT ?x WHERE { ?x wdt:P31 wd:Q5 ; wdt:P26 wd:Q76 ; skos:altLabel ?l . '
         'FILTER(LANGMATCHES(LANG(?l), "fr")) }', notations=frozenset({"label", "ecai"})),
]
FORMS += [
    Form("a qualifier tested inside FILTER EXISTS (EXISTS { ?st pq:Q ?v FILTER(...) })",
         ("Which <Q5> has <P39> <Q11696> at a <P580> whose year is greater than 2000?",
          "Which [human] has <position held> [President of the United States] at a <start time> whose year is "
          "greater than 2000?",
          "Which <human> has <P39:position_held> <President_of_the_United_States> at a <P580:start_time> whose "
          "year is greater than 2000?"),
         "SELECT DISTINCT ?x WHERE { ?x wdt:P31 wd:Q5 ; p:P39 ?s . ?s ps:P39 wd:Q11696 . "
         "FILTER EXISTS { ?s pq:P580 ?d . FILTER(YEAR(?d) > 2000) } }"),
    Form("a qualifier tested inside FILTER EXISTS (EXISTS { ?st pq:Q ?v FILTER(...) })",
         ("Give me a <P39> at a <P582> earlier than 2010 of <Q76>.",
          "Give me a <position held> at an <end time> earlier than 2010 of [Barack Obama].",
          "Give me a <P39:position_held> at a <P582:end_time> earlier than 2010 of <Barack_Obama>."),
         "SELECT DISTINCT ?p WHERE { wd:Q76 p:P39 ?s . ?s ps:P39 ?p . "
         'FILTER EXISTS { ?s pq:P582 ?e . FILTER(?e < "2010-01-01T00:00:00Z"^^xsd:dateTime) } }'),
]
FORMS += [
    Form("a quantity in SI units (p:P/psn:P/wikibase:quantityAmount)",
         ("Give me a <P2048> in SI units of <Q76>.",
          "Give me a <height> in SI units of [Barack Obama].",
          "Give me a <P2048:height> in SI units of <Barack_Obama>."),
         "SELECT DISTINCT ?h WHERE { wd:Q76 p:P2048/psn:P2048/wikibase:quantityAmount ?h }"),
    Form("a quantity in SI units (p:P/psn:P/wikibase:quantityAmount)",
         ("Which <Q8502> has the highest <P2044> in SI units?",
          "Which [mountain] has the highest <elevation above sea level> in SI units?",
          "Which <mountain> has the highest <P2044:elevation_above_sea_level> in SI units?"),
         "SELECT DISTINCT ?m WHERE { ?m wdt:P31 wd:Q8502 ; p:P2044 ?s . ?s psn:P2044 ?v . "
         "?v wikibase:quantityAmount ?e } ORDER BY DESC(?e) LIMIT 1"),
    Form("a quantity in SI units (p:P/psn:P/wikibase:quantityAmount)",
         ("Which <Q5> has <P26> <Q76> and has <P2048> (something that is greater than 1.8) in SI units?",
          "Which [human] has <spouse> [Barack Obama] and has <height> (something that is greater than 1.8) in SI "
          "units?",
          "Which <human> has <P26:spouse> <Barack_Obama> and has <P2048:height> (something that is greater than "
          "1.8) in SI units?"),
         "SELECT DISTINCT ?x WHERE { ?x wdt:P31 wd:Q5 ; wdt:P26 wd:Q76 ; "
         "p:P2048/psn:P2048/wikibase:quantityAmount ?h . FILTER(?h > 1.8) }"),
]
FORMS += [
    Form("the kind of a term (isLiteral, isIRI)",
         ("Which <P1448> of <Q64> is a literal?",
          "Which <official name> of [Berlin] is a literal?",
          "Which <P1448:official_name> of <Berlin> is a literal?"),
         "SELECT DISTINCT ?n WHERE { wd:Q64 wdt:P1448 ?n FILTER(isLiteral(?n)) }"),
    Form("the kind of a term (isLiteral, isIRI)",
         ("Which <P40> of <Q76> is not a literal?",
          "Which <child> of [Barack Obama] is not a literal?",
          "Which <P40:child> of <Barack_Obama> is not a literal?"),
         "SELECT DISTINCT ?c WHERE { wd:Q76 wdt:P40 ?c FILTER(!isLiteral(?c)) }"),
]
FORMS += [
    Form("tests on several values joined by 'or' (such that A or such that B)",
         ("Give me a <Q515> that has <P1082> ?p and that has <P2046> ?a and such that ?p is greater than 1000000 "
          "or such that ?a is greater than 500.",
          "Give me a [city] that has <population> ?p and that has <area> ?a and such that ?p is greater than "
          "1000000 or such that ?a is greater than 500.",
          "Give me a <city> that has <P1082:population> ?p and that has <P2046:area> ?a and such that ?p is "
          "greater than 1000000 or such that ?a is greater than 500."),
         "SELECT DISTINCT ?x WHERE { ?x wdt:P31 wd:Q515 ; wdt:P1082 ?p ; wdt:P2046 ?a . "
         "FILTER(?p > 1000000 || ?a > 500) }"),
    Form("tests on several values joined by 'or' (such that A or such that B)",
         ("Give me a <Q5> whose <P26> has <P569> ?w and that has <P569> ?y and that has <P570> ?z and such that "
          "?y is less than ?w or such that ?z is less than ?w.",
          "Give me a [human] whose <spouse> has <date of birth> ?w and that has <date of birth> ?y and that has "
          "<date of death> ?z and such that ?y is less than ?w or such that ?z is less than ?w.",
          "Give me a <human> whose <P26:spouse> has <P569:date_of_birth> ?w and that has <P569:date_of_birth> ?y "
          "and that has <P570:date_of_death> ?z and such that ?y is less than ?w or such that ?z is less than ?w."),
         "SELECT DISTINCT ?x WHERE { ?x wdt:P31 wd:Q5 ; wdt:P26 ?s ; wdt:P569 ?y ; wdt:P570 ?z . "
         "?s wdt:P569 ?w . FILTER(?y < ?w || ?z < ?w) }"),
    Form("a value off the tree that a test names twice, introduced by a sentence of its own",
         ("Give me a <Q5> that has <P569> ?y and that has <P570> ?z and such that ?w is (a <P569> of <Q76>) and "
          "such that ?y is less than ?w or such that ?z is less than ?w.",
          "Give me a [human] that has <date of birth> ?y and that has <date of death> ?z and such that ?w is (a "
          "<date of birth> of [Barack Obama]) and such that ?y is less than ?w or such that ?z is less than ?w.",
          "Give me a <human> that has <P569:date_of_birth> ?y and that has <P570:date_of_death> ?z and such that "
          "?w is (a <P569:date_of_birth> of <Barack_Obama>) and such that ?y is less than ?w or such that ?z is "
          "less than ?w."),
         "SELECT DISTINCT ?x WHERE { ?x wdt:P31 wd:Q5 ; wdt:P569 ?y ; wdt:P570 ?z . wd:Q76 wdt:P569 ?w . "
         "FILTER(?y < ?w || ?z < ?w) }"),
    Form("a value off the tree that a test names twice, introduced by a sentence of its own",
         ("Give me a <P39> at <P580> ?y at <P582> ?z of <Q76> such that ?w is (a <P569> of <Q13133>) and such "
          "that ?y is greater than ?w or such that ?z is greater than ?w.",
          "Give me a <position held> at <start time> ?y at <end time> ?z of [Barack Obama] such that ?w is (a "
          "<date of birth> of [Michelle Obama]) and such that ?y is greater than ?w or such that ?z is greater "
          "than ?w.",
          "Give me a <P39:position_held> at <P580:start_time> ?y at <P582:end_time> ?z of <Barack_Obama> such "
          "that ?w is (a <P569:date_of_birth> of <Michelle_Obama>) and such that ?y is greater than ?w or such "
          "that ?z is greater than ?w."),
         "SELECT DISTINCT ?x WHERE { wd:Q76 p:P39 ?s . ?s ps:P39 ?x ; pq:P580 ?y ; pq:P582 ?z . "
         "wd:Q13133 wdt:P569 ?w . FILTER(?y > ?w || ?z > ?w) }"),
    Form("a value off the tree that several FILTERs test, introduced once",
         ("Give me a <Q5> that has <P569> ?b and that has <P570> ?d and such that ?o is (a <P569> of <Q76>) and "
          "such that ?b is less than ?o and such that ?d is greater than ?o.",
          "Give me a [human] that has <date of birth> ?b and that has <date of death> ?d and such that ?o is (a "
          "<date of birth> of [Barack Obama]) and such that ?b is less than ?o and such that ?d is greater than "
          "?o.",
          "Give me a <human> that has <P569:date_of_birth> ?b and that has <P570:date_of_death> ?d and such that "
          "?o is (a <P569:date_of_birth> of <Barack_Obama>) and such that ?b is less than ?o and such that ?d is "
          "greater than ?o."),
         "SELECT DISTINCT ?x WHERE { ?x wdt:P31 wd:Q5 ; wdt:P569 ?b ; wdt:P570 ?d . wd:Q76 wdt:P569 ?o . "
         "FILTER(?b < ?o) FILTER(?d > ?o) }"),
    Form("a value off the tree that several FILTERs test, introduced once",
         ("Give me something that has <P39> <Q11696> at <P580> ?start at <P582> ?end and such that ?f is (a "
          "<P571> of <Q64>) and such that ?start is less or equal to ?f and such that ?f is less or equal to ?end.",
          "Give me something that has <position held> [President of the United States] at <start time> ?start at "
          "<end time> ?end and such that ?f is (an <inception> of [Berlin]) and such that ?start is less or equal "
          "to ?f and such that ?f is less or equal to ?end.",
          "Give me something that has <P39:position_held> <President_of_the_United_States> at "
          "<P580:start_time> ?start at <P582:end_time> ?end and such that ?f is (an <P571:inception> of <Berlin>) "
          "and such that ?start is less or equal to ?f and such that ?f is less or equal to ?end."),
         "SELECT DISTINCT ?x WHERE { ?x p:P39 ?s . ?s ps:P39 wd:Q11696 ; pq:P580 ?start ; pq:P582 ?end . "
         "wd:Q64 wdt:P571 ?f . FILTER(?start <= ?f && ?f <= ?end) }"),
    Form("tests of one value joined by 'and' inside 'or'",
         ("Give me a <Q515> that has <P1082> ?p and that has <P2046> ?a and such that ?p is greater than 1000000 "
          "and is less than 2000000 or such that ?a is greater than 500 and is less than 800.",
          "Give me a [city] that has <population> ?p and that has <area> ?a and such that ?p is greater than "
          "1000000 and is less than 2000000 or such that ?a is greater than 500 and is less than 800.",
          "Give me a <city> that has <P1082:population> ?p and that has <P2046:area> ?a and such that ?p is "
          "greater than 1000000 and is less than 2000000 or such that ?a is greater than 500 and is less than 800."),
         "SELECT DISTINCT ?x WHERE { ?x wdt:P31 wd:Q515 ; wdt:P1082 ?p ; wdt:P2046 ?a . "
         "FILTER((?p > 1000000 && ?p < 2000000) || (?a > 500 && ?a < 800)) }"),
    Form("tests of one value joined by 'and' inside 'or'",
         ("Give me a <Q5> that has <P569> ?w and that has <P570> ?v and such that ?y is (something at which "
          "<P580> <Q76> has <P39> <Q11696> at <P582> ?z) and such that ?w is less than ?z and is greater or equal "
          "to ?y or such that ?v is less than ?z and is greater or equal to ?y.",
          "Give me a [human] that has <date of birth> ?w and that has <date of death> ?v and such that ?y is "
          "(something at which <start time> [Barack Obama] has <position held> [President of the United States] "
          "at <end time> ?z) and such that ?w is less than ?z and is greater or equal to ?y or such that ?v is "
          "less than ?z and is greater or equal to ?y.",
          "Give me a <human> that has <P569:date_of_birth> ?w and that has <P570:date_of_death> ?v and such that "
          "?y is (something at which <P580:start_time> <Barack_Obama> has <P39:position_held> "
          "<President_of_the_United_States> at <P582:end_time> ?z) and such that ?w is less than ?z and is "
          "greater or equal to ?y or such that ?v is less than ?z and is greater or equal to ?y."),
         "SELECT DISTINCT ?x WHERE { wd:Q76 p:P39 ?s . ?s ps:P39 wd:Q11696 ; pq:P580 ?y ; pq:P582 ?z . "
         "?x wdt:P31 wd:Q5 ; wdt:P569 ?w ; wdt:P570 ?v . FILTER((?w < ?z && ?w >= ?y) || (?v < ?z && ?v >= ?y)) }"),
    Form("the month or the day of a date (MONTH, DAY)",
         ("Give me a <Q5> that has <P106> <Q33999> and that has <P569> ?b and such that the month of ?b is equal "
          "to 11.",
          "Give me a [human] that has <occupation> [actor] and that has <date of birth> ?b and such that the month "
          "of ?b is equal to 11.",
          "Give me a <human> that has <P106:occupation> <actor> and that has <P569:date_of_birth> ?b and such that "
          "the month of ?b is equal to 11."),
         "SELECT DISTINCT ?x WHERE { ?x wdt:P31 wd:Q5 ; wdt:P106 wd:Q33999 ; wdt:P569 ?b . FILTER(MONTH(?b) = 11) }"),
    Form("the month or the day of a date (MONTH, DAY)",
         ("Give me a <Q5> that has <P569> ?b and such that ?c is (a <P569> of <Q76>) and such that the month of ?b "
          "is equal to (the month of ?c) and such that the day of ?b is equal to the day of ?c.",
          "Give me a [human] that has <date of birth> ?b and such that ?c is (a <date of birth> of [Barack Obama]) "
          "and such that the month of ?b is equal to (the month of ?c) and such that the day of ?b is equal to the "
          "day of ?c.",
          "Give me a <human> that has <P569:date_of_birth> ?b and such that ?c is (a <P569:date_of_birth> of "
          "<Barack_Obama>) and such that the month of ?b is equal to (the month of ?c) and such that the day of ?b "
          "is equal to the day of ?c."),
         "SELECT DISTINCT ?x WHERE { ?x wdt:P31 wd:Q5 ; wdt:P569 ?b . wd:Q76 wdt:P569 ?c . "
         "FILTER(MONTH(?b) = MONTH(?c) && DAY(?b) = DAY(?c)) }"),
    Form("a test over several values in a question about a named thing, said of a value it names",
         ("Has <Q64> <P1082> something ?p such that (?p / 2) is greater than 1000000?",
          "Has [Berlin] <population> something ?p such that (?p / 2) is greater than 1000000?",
          "Has <Berlin> <P1082:population> something ?p such that (?p / 2) is greater than 1000000?"),
         "ASK { wd:Q64 wdt:P1082 ?p . FILTER(?p / 2 > 1000000) }"),
    Form("a test over several values in a question about a named thing, said of a value it names",
         ("Has <Q64> <P625> something ?a such that the latitude of ?a is greater than the latitude of (a <P625> "
          "of <Q90>)?",
          "Has [Berlin] <coordinate location> something ?a such that the latitude of ?a is greater than the "
          "latitude of (a <coordinate location> of [Paris])?",
          "Has <Berlin> <P625:coordinate_location> something ?a such that the latitude of ?a is greater than the "
          "latitude of (a <P625:coordinate_location> of <Paris>)?"),
         "ASK { wd:Q64 wdt:P625 ?a . wd:Q90 wdt:P625 ?b . FILTER(geof:latitude(?a) > geof:latitude(?b)) }"),
    Form("the distance between two points (geof:distance)",
         ("Give me the distance between (the <P625> of <Q90>) and (the <P625> of <Q64>).",
          "Give me the distance between (the <coordinate location> of [Paris]) and (the <coordinate location> of "
          "[Berlin]).",
          "Give me the distance between (the <P625:coordinate_location> of <Paris>) and (the "
          "<P625:coordinate_location> of <Berlin>)."),
         "SELECT DISTINCT ?d WHERE { wd:Q90 wdt:P625 ?a . wd:Q64 wdt:P625 ?b . BIND(geof:distance(?a, ?b) AS ?d) }"),
    Form("the distance between two points (geof:distance)",
         ("Give me a <Q515> that has <P625> ?c and such that the distance between ?c and (a <P625> of <Q64>) is "
          "less than 100.",
          "Give me a [city] that has <coordinate location> ?c and such that the distance between ?c and (a "
          "<coordinate location> of [Berlin]) is less than 100.",
          "Give me a <city> that has <P625:coordinate_location> ?c and such that the distance between ?c and (a "
          "<P625:coordinate_location> of <Berlin>) is less than 100."),
         "SELECT DISTINCT ?x WHERE { ?x wdt:P31 wd:Q515 ; wdt:P625 ?c . wd:Q64 wdt:P625 ?b . "
         "FILTER(geof:distance(?c, ?b) < 100) }"),
    Form("a computed value (a coordinate, a length) compared with a constant",
         ("Give me a <Q515> that has <P625> ?c and such that the latitude of ?c is greater than 50.",
          "Give me a [city] that has <coordinate location> ?c and such that the latitude of ?c is greater than 50.",
          "Give me a <city> that has <P625:coordinate_location> ?c and such that the latitude of ?c is greater "
          "than 50."),
         "SELECT DISTINCT ?x WHERE { ?x wdt:P31 wd:Q515 ; wdt:P625 ?c . FILTER(geof:latitude(?c) > 50) }"),
    Form("a computed value (a coordinate, a length) compared with a constant",
         ("Give me a <Q6256> that has <P1448> ?n and such that the length of ?n is greater than 30.",
          "Give me a [country] that has <official name> ?n and such that the length of ?n is greater than 30.",
          "Give me a <country> that has <P1448:official_name> ?n and such that the length of ?n is greater than "
          "30."),
         "SELECT DISTINCT ?x WHERE { ?x wdt:P31 wd:Q6256 ; wdt:P1448 ?n . FILTER(STRLEN(?n) > 30) }"),
    Form("how well known a thing is (wikibase:sitelinks)",
         ("Which <Q5> has <P106> <Q33999> and has the highest <sitelinks>?",
          "Which [human] has <occupation> [actor] and has the highest <sitelinks>?",
          "Which <human> has <P106:occupation> <actor> and has the highest <sitelinks>?"),
         "SELECT DISTINCT ?x WHERE { ?x wdt:P31 wd:Q5 ; wdt:P106 wd:Q33999 ; wikibase:sitelinks ?s . } "
         "ORDER BY DESC(?s) LIMIT 1",
         # a pseudo-property is written alike in every notation: the ID text reads as the ECAI one
         notations=frozenset({"label", "ecai"})),
    Form("how well known a thing is (wikibase:sitelinks)",
         ("Which <Q515> has a <P1082> greater than 1000000 and has a <sitelinks> greater than 100?",
          "Which [city] has a <population> greater than 1000000 and has a <sitelinks> greater than 100?",
          "Which <city> has a <P1082:population> greater than 1000000 and has a <sitelinks> greater than 100?"),
         "SELECT DISTINCT ?x WHERE { ?x wdt:P31 wd:Q515 ; wdt:P1082 ?p ; wikibase:sitelinks ?s . "
         "FILTER(?p > 1000000) FILTER(?s > 100) }", notations=frozenset({"label", "ecai"})),
    Form("FILTER (NOT) EXISTS about the named thing a yes/no question is about",
         ("<Q42> has <P31> <Q5> and has not a <P570>?",
          "[Douglas Adams] has <instance of> [human] and has not a <date of death>?",
          "<Douglas_Adams> has <P31:instance_of> <human> and has not a <P570:date_of_death>?"),
         "ASK { wd:Q42 wdt:P31 wd:Q5 . FILTER NOT EXISTS { wd:Q42 wdt:P570 ?d } }"),
    Form("FILTER (NOT) EXISTS about the named thing a yes/no question is about",
         ("<Q42> has <P106> <Q36180> and has not <P166> <Q37922>?",
          "[Douglas Adams] has <occupation> [writer] and has not <award received> [Nobel Prize in Literature]?",
          "<Douglas_Adams> has <P106:occupation> <writer> and has not <P166:award_received> "
          "<Nobel_Prize_in_Literature>?"),
         "ASK { wd:Q42 wdt:P106 wd:Q36180 . FILTER NOT EXISTS { wd:Q42 wdt:P166 wd:Q37922 } }"),
    Form("every answer that ties for the best value (the joint highest: MAX in a sub-query)",
         ("Which <Q8502> has <P30> <Q46> and has the joint highest <P2044>?",
          "Which [mountain] has <continent> [Europe] and has the joint highest <elevation above sea level>?",
          "Which <mountain> has <P30:continent> <Europe> and has the joint highest <P2044:elevation_above_sea_level>?"),
         "SELECT DISTINCT ?m WHERE { ?m wdt:P31 wd:Q8502 ; wdt:P30 wd:Q46 ; wdt:P2044 ?h . "
         "{ SELECT (MAX(?h2) AS ?top) WHERE { ?m2 wdt:P31 wd:Q8502 ; wdt:P30 wd:Q46 ; wdt:P2044 ?h2 } } "
         "FILTER(?h = ?top) }"),
    Form("every answer that ties for the best value (the joint highest: MAX in a sub-query)",
         ("Which <Q5> has <P106> <Q33999> and has the joint earliest <P569>?",
          "Which [human] has <occupation> [actor] and has the joint earliest <date of birth>?",
          "Which <human> has <P106:occupation> <actor> and has the joint earliest <P569:date_of_birth>?"),
         "SELECT DISTINCT ?p WHERE { ?p wdt:P31 wd:Q5 ; wdt:P106 wd:Q33999 ; wdt:P569 ?b . "
         "{ SELECT (MIN(?b2) AS ?first) WHERE { ?p2 wdt:P31 wd:Q5 ; wdt:P106 wd:Q33999 ; wdt:P569 ?b2 } } "
         "FILTER(?b = ?first) }"),
    Form("every answer that ties for the most (GROUP BY ... HAVING(COUNT(...) = MAX(...)))",
         ("Which <Q6256> has the joint most <P150>?",
          "Which [country] has the joint most <contains the administrative territorial entity>?",
          "Which <country> has the joint most <P150:contains_the_administrative_territorial_entity>?"),
         "SELECT DISTINCT ?c WHERE { ?c wdt:P31 wd:Q6256 ; wdt:P150 ?s . "
         "{ SELECT (MAX(?n) AS ?most) WHERE { { SELECT ?c2 (COUNT(DISTINCT ?s2) AS ?n) WHERE { "
         "?c2 wdt:P31 wd:Q6256 ; wdt:P150 ?s2 } GROUP BY ?c2 } } } } "
         "GROUP BY ?c HAVING(COUNT(DISTINCT ?s) = MAX(?most))"),
    Form("every answer that ties for the most (GROUP BY ... HAVING(COUNT(...) = MAX(...)))",
         ("Which <Q5> has <P106> <Q33999> and has the joint fewest <P166>?",
          "Which [human] has <occupation> [actor] and has the joint fewest <award received>?",
          "Which <human> has <P106:occupation> <actor> and has the joint fewest <P166:award_received>?"),
         "SELECT DISTINCT ?p WHERE { ?p wdt:P31 wd:Q5 ; wdt:P106 wd:Q33999 ; wdt:P166 ?a . "
         "{ SELECT (MIN(?n) AS ?fewest) WHERE { { SELECT ?p2 (COUNT(DISTINCT ?a2) AS ?n) WHERE { "
         "?p2 wdt:P31 wd:Q5 ; wdt:P106 wd:Q33999 ; wdt:P166 ?a2 } GROUP BY ?p2 } } } } "
         "GROUP BY ?p HAVING(COUNT(DISTINCT ?a) = MIN(?fewest))"),
    Form("a value chosen by a test, in an ordering (ORDER BY IF(...): a unit conversion)",
         ("Give me a <Q8502> that has <P2044> ?h in unit ?u and such that (?h if ?u is <Q11573>, else ?h * 0.3048) "
          "is the highest.",
          "Give me a [mountain] that has <elevation above sea level> ?h in unit ?u and such that (?h if ?u is "
          "[metre], else ?h * 0.3048) is the highest.",
          "Give me a <mountain> that has <P2044:elevation_above_sea_level> ?h in unit ?u and such that (?h if ?u "
          "is <metre>, else ?h * 0.3048) is the highest."),
         "SELECT DISTINCT ?m WHERE { ?m wdt:P31 wd:Q8502 ; p:P2044 ?s . ?s psv:P2044 ?v . "
         "?v wikibase:quantityAmount ?h ; wikibase:quantityUnit ?u . "
         "BIND(IF(?u = wd:Q11573, ?h, ?h * 0.3048) AS ?metres) } ORDER BY DESC(?metres) LIMIT 1"),
    Form("a value chosen by a test, in an ordering (ORDER BY IF(...): a unit conversion)",
         ("Give me a <Q4022> that has <P2043> ?l in unit ?u and such that (?l if ?u is <Q828224>, else (?l / 1000 "
          "if ?u is <Q11573>, else ?l * 1.609344)) is the 3 lowest.",
          "Give me a [river] that has <length> ?l in unit ?u and such that (?l if ?u is [kilometre], else (?l / "
          "1000 if ?u is [metre], else ?l * 1.609344)) is the 3 lowest.",
          "Give me a <river> that has <P2043:length> ?l in unit ?u and such that (?l if ?u is <kilometre>, else "
          "(?l / 1000 if ?u is <metre>, else ?l * 1.609344)) is the 3 lowest."),
         "SELECT DISTINCT ?r WHERE { ?r wdt:P31 wd:Q4022 ; p:P2043 [ psv:P2043 [ wikibase:quantityAmount ?l ; "
         "wikibase:quantityUnit ?u ] ] . } "
         "ORDER BY ASC(IF(?u = wd:Q828224, ?l, IF(?u = wd:Q11573, ?l / 1000, ?l * 1.609344))) LIMIT 3"),
    Form("a value chosen by a test, in a test (FILTER(IF(...) > N))",
         ("Give me a <Q5> that has <P2067> ?m in unit ?u and such that (?m if ?u is <Q11570>, else ?m * 0.453592) "
          "is greater than 100.",
          "Give me a [human] that has <mass> ?m in unit ?u and such that (?m if ?u is [kilogram], else ?m * "
          "0.453592) is greater than 100.",
          "Give me a <human> that has <P2067:mass> ?m in unit ?u and such that (?m if ?u is <kilogram>, else ?m * "
          "0.453592) is greater than 100."),
         "SELECT DISTINCT ?x WHERE { ?x wdt:P31 wd:Q5 ; p:P2067 ?s . ?s psv:P2067 ?v . "
         "?v wikibase:quantityAmount ?m ; wikibase:quantityUnit ?u . "
         "FILTER(IF(?u = wd:Q11570, ?m, ?m * 0.453592) > 100) }"),
    Form("a value chosen by a test, in a test (FILTER(IF(...) > N))",
         ("Give me a <Q515> that has <P1082> ?p and that has <P2046> ?a and such that (?p / ?a if ?a is greater "
          "than 0, else 0) is greater than 1000.",
          "Give me a [city] that has <population> ?p and that has <area> ?a and such that (?p / ?a if ?a is "
          "greater than 0, else 0) is greater than 1000.",
          "Give me a <city> that has <P1082:population> ?p and that has <P2046:area> ?a and such that (?p / ?a if "
          "?a is greater than 0, else 0) is greater than 1000."),
         "SELECT DISTINCT ?c WHERE { ?c wdt:P31 wd:Q515 ; wdt:P1082 ?p ; wdt:P2046 ?a . "
         "BIND(IF(?a > 0, ?p / ?a, 0) AS ?density) FILTER(?density > 1000) }"),
]
IDS.update({"mountain": "Q8502", "metre": "Q11573", "river": "Q4022", "length": "P2043", "kilometre": "Q828224",
            "mass": "P2067", "kilogram": "Q11570"})
IDS.update({"height": "P2048", "mountain": "Q8502", "continent": "P30", "Europe": "Q46"})
IDS.update({"Douglas Adams": "Q42", "instance of": "P31", "writer": "Q36180", "Nobel Prize in Literature": "Q37922",
            "inception": "P571", "area": "P2046", "position held": "P39", "President of the United States": "Q11696", "start time": "P580",
            "end time": "P582", "city": "Q515"})


def _id(form, i):
    return f"{form.form}-{i}"


def check_compiles(form):
    """Each text of ``form`` compiles to a query equivalent to its hand-written SPARQL."""
    assert {detect_notation(t) for t in form.texts} == form.notations, form.texts
    expected = PREFIXES + form.sparql
    for text in form.texts:
        sparql = cnl.compile(text, lexicon=Lexicon())
        assert equivalent(sparql, expected, distinct=True), (text, sparql)


def check_reads_back(form):
    """Each text of ``form`` prints in its notation as a text that reads as the same IR."""
    for text in form.texts:
        notation = detect_notation(text)
        query = parse_squall(text)
        printed = print_squall(query, notation, id_labels=False) if notation == "id" else print_squall(query, notation)
        assert parse_squall(printed) == query or notation != "id", (text, printed)
        assert equivalent(cnl.compile(printed, lexicon=Lexicon()), PREFIXES + form.sparql, distinct=True)


def check_decompiles(form):
    """The hand-written SPARQL of ``form`` decompiles to a text that compiles back to an
    equivalent query (or is refused with the construct ``form.refused`` named)."""
    if form.refused:  # not read back yet: refused with the construct named, never changed
        with pytest.raises(UnsupportedSPARQLError) as err:
            decompile_to_ir(PREFIXES + form.sparql)
        assert err.value.construct == form.refused
        return
    query, options = decompile_to_ir(PREFIXES + form.sparql)
    assert equivalent(compile_query(query, "wikidata", None, **options), PREFIXES + form.sparql, distinct=True)
    assert parse_squall(print_squall(query, "id", id_labels=False)) == query


def form_tests(forms):
    """The three checks above, each a test parametrized over ``forms`` (for a module's globals),
    and the check that every form comes in two paraphrases."""
    ids = [_id(f, i) for i, f in enumerate(forms)]

    @pytest.mark.parametrize("form", forms, ids=ids)
    def test_each_text_compiles_to_the_hand_written_query(form):
        check_compiles(form)

    @pytest.mark.parametrize("form", forms, ids=ids)
    def test_each_text_reads_back_as_itself(form):
        check_reads_back(form)

    @pytest.mark.parametrize("form", forms, ids=ids)
    def test_the_hand_written_query_decompiles_to_an_equivalent_text(form):
        check_decompiles(form)

    def test_every_form_has_two_paraphrases():
        names = [f.form for f in forms]
        assert all(names.count(name) >= 2 for name in names)

    return (test_each_text_compiles_to_the_hand_written_query, test_each_text_reads_back_as_itself,
            test_the_hand_written_query_decompiles_to_an_equivalent_text, test_every_form_has_two_paraphrases)


(test_each_text_compiles_to_the_hand_written_query, test_each_text_reads_back_as_itself,
 test_the_hand_written_query_decompiles_to_an_equivalent_text, test_every_form_has_two_paraphrases) = form_tests(FORMS)


@pytest.mark.parametrize("sparql, construct", [
    # a choice only between named values, on a test of values
    ("SELECT ?a WHERE { BIND(IF(EXISTS { wd:Q1 wdt:P31 wd:Q5 }, wd:Q1, wd:Q2) AS ?a) }", "BIND(IF(EXISTS ...))"),
    # beside other columns, a choice whose test reads two values (one it reads is said of the root)
    ("SELECT ?x ?a WHERE { ?x wdt:P569 ?b ; wdt:P570 ?c . BIND(IF(?b < ?c, wd:Q1, wd:Q2) AS ?a) }",
     "BIND(IF(...)) other than the one answer of a plain SELECT"),
    # '&&' inside '||' over different values: no one subject for "such that ?v is ... and is ..."
    ("SELECT ?x WHERE { ?x wdt:P31 wd:Q5 ; wdt:P569 ?y ; wdt:P570 ?z . FILTER((?y < 1900 && ?z > 1950) || ?y > 2000) }",
     "a FILTER joined to the query on several variables"),
    # the full value node (psv:) without its unit (its amount in a named unit has a form, 'in unit <Q>':
    # tests/test_quantity_units.py)
    ("SELECT ?h WHERE { wd:Q76 p:P2048 ?s . ?s <http://www.wikidata.org/prop/statement/value/P2048> ?v . "
     "?v <http://wikiba.se/ontology#quantityAmount> ?h }", "a full value node (psv:) without its amount and a named unit"),
    # the values a sentence names must take a co-reference variable (a class noun, a bare value)
    ("SELECT ?x WHERE { ?x wdt:P1 ?a . ?a wdt:P3 ?c . ?x wdt:P2 ?b . ?b wdt:P4 ?d } ORDER BY DESC(?a - ?b)",
     "ORDER BY an expression"),
    ("SELECT ?c WHERE { ?c wdt:P31 wd:Q6256 ; wdt:P150 ?s . { SELECT (MAX(?n) AS ?most) WHERE { { SELECT ?c2 "
     "(COUNT(DISTINCT ?s2) AS ?n) WHERE { ?c2 wdt:P31 wd:Q6256 ; wdt:P47 ?s2 } GROUP BY ?c2 } } } } "
     "GROUP BY ?c HAVING(COUNT(DISTINCT ?s) = MAX(?most))", "a best value compared in a sub-query (ties kept)"),
])
def test_what_has_no_form_is_refused_with_the_construct_named(sparql, construct):
    with pytest.raises(UnsupportedSPARQLError) as err:
        decompile_to_ir(PREFIXES + sparql)
    assert err.value.construct == construct


@pytest.mark.parametrize("block", [
    'SERVICE wikibase:label { bd:serviceParam wikibase:language "en,fr". wd:Q1 rdfs:label ?x }',  # fallbacks
    'SERVICE wikibase:label { bd:serviceParam wikibase:language "en". wd:Q1 wdt:P31 ?x }',  # not a text
])
def test_a_label_service_that_is_no_language_test_is_left_as_written(block):
    sparql = "SELECT ?x WHERE { " + block + " }"
    assert read_label_service(sparql) == sparql


def test_a_label_service_after_a_triple_is_a_group_of_its_own():
    sparql = ('SELECT ?x ?d WHERE { ?x wdt:P26 wd:Q76 SERVICE wikibase:label { bd:serviceParam '
              'wikibase:language "en". ?x schema:description ?d } }')
    assert equivalent(PREFIXES + read_label_service(sparql), PREFIXES + 'SELECT ?x ?d WHERE { ?x wdt:P26 wd:Q76 '
                      '{ ?x schema:description ?d FILTER(LANG(?d) = "en") } }')


@pytest.mark.parametrize("sparql", [
    # a plain class test on one variable, a subclass-closed one on another
    "SELECT DISTINCT ?x WHERE { wd:Q76 p:P69 ?p . ?p ps:P69 ?x ; pq:P512 ?y . ?y wdt:P31 wd:Q163727 . "
    "?x wdt:P31/wdt:P279* wd:Q38723 . }",
    # both on one variable, in a UNION
    "SELECT DISTINCT ?u WHERE { { ?u wdt:P31 wd:Q43229 } UNION { ?u wdt:P31/wdt:P279* wd:Q43229 } . "
    "?u wdt:P17 wd:Q31 . }",
])
def test_mixed_class_tests_say_the_closed_ones_as_a_property_path(sparql):
    query, options = decompile_to_ir(PREFIXES + sparql)
    assert "subclasses" not in options
    assert "<P31>/<P279>*" in cnl.decompile(PREFIXES + sparql)  # the text reads back (the guard)
    assert equivalent(compile_query(query, "wikidata", None, **options), PREFIXES + sparql)


def test_a_qualifier_value_with_a_noun_before_of_is_parenthesized():
    sparql = "SELECT DISTINCT ?x WHERE { wd:Q76 p:P69 ?p . ?p ps:P69 ?x ; pq:P512 ?y . ?y wdt:P31 wd:Q163727 . }"
    text = cnl.decompile(PREFIXES + sparql)
    assert "at <P512> (a <Q163727>) of <Q76>" in text
    assert equivalent(cnl.compile(text), PREFIXES + sparql, distinct=True)


def test_a_label_service_after_a_declared_prefix_with_a_hash_is_read():
    # the "#" of <http://wikiba.se/ontology#> starts no comment
    sparql = ('PREFIX wikibase: <http://wikiba.se/ontology#> PREFIX bd: <http://www.bigdata.com/rdf#> '
              'PREFIX wd: <http://www.wikidata.org/entity/> PREFIX schema: <http://schema.org/> SELECT DISTINCT ?x '
              'WHERE { SERVICE wikibase:label { bd:serviceParam wikibase:language "en". wd:Q76 schema:description ?x. } }')
    assert "SERVICE" not in read_label_service(sparql)
    assert cnl.decompile(sparql) == 'Which <description> of <Q76> has language "en"?'
