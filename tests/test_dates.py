"""A year or a day given for a date-valued property means that year or that day.

Wikidata stores every date as an ``xsd:dateTime`` (``"1961-08-04T00:00:00Z"``), which no integer
and no ``xsd:date`` equals, and which compared with an integer raises a type error (no answer):
``has <P569> 1961`` compiled to the triple ``?x wdt:P569 1961``, ``has a <P569> between 1960 and
1962`` to ``?d >= 1960 && ?d <= 1962`` and ``at <P580> 2009-01-20`` to an ``xsd:date``; each gave no
answer on any Wikidata store, silently. The profile knows which properties are date-valued (their
Wikidata datatype), so a bare year there is the date's year and a day the dateTime Wikidata stores.
Each case runs on a real store."""
import pyoxigraph
import pytest

import cnl

WD, WDT, P, PS, PQ = ("http://www.wikidata.org/entity/", "http://www.wikidata.org/prop/direct/",
                      "http://www.wikidata.org/prop/", "http://www.wikidata.org/prop/statement/",
                      "http://www.wikidata.org/prop/qualifier/")
DATE_TIME = pyoxigraph.NamedNode("http://www.w3.org/2001/XMLSchema#dateTime")


def _date(day: str):
    return pyoxigraph.Literal(f"{day}T00:00:00Z", datatype=DATE_TIME)


@pytest.fixture(scope="module")
def store():
    st = pyoxigraph.Store()

    def add(s, p, o):
        st.add(pyoxigraph.Quad(pyoxigraph.NamedNode(s), pyoxigraph.NamedNode(p), o))

    people = {"Q76": "1961-08-04", "Q13133": "1964-01-17", "Q1": "1990-03-01", "Q2": "2000-12-31"}
    for person, born in people.items():
        add(WD + person, WDT + "P31", pyoxigraph.NamedNode(WD + "Q5"))
        add(WD + person, WDT + "P569", _date(born))
        add(WD + person, WDT + "P1082", pyoxigraph.Literal("1961", datatype=pyoxigraph.NamedNode(
            "http://www.w3.org/2001/XMLSchema#integer")))  # a number that looks like a year
    # Q76 held Q11696 from 2009-01-20 (a statement with a date qualifier)
    node = pyoxigraph.NamedNode(WD + "statement/Q76-1")
    add(WD + "Q76", P + "P39", node)
    add(node.value, PS + "P39", pyoxigraph.NamedNode(WD + "Q11696"))
    add(node.value, PQ + "P580", _date("2009-01-20"))
    return st


def _answers(store, text, **options):
    result = store.query(cnl.compile(text, **options))
    if type(result).__name__ == "QueryBoolean":
        return bool(result)
    return {row[0].value.rsplit("/", 1)[-1] for row in result}


@pytest.mark.parametrize("text, expected", [
    ("Which <Q5> has <P569> 1961?", {"Q76"}),
    ("Which <Q5> has <P569> 1961 or 1964?", {"Q76", "Q13133"}),
    ("Which <Q5> has <P569> 1961-08-04?", {"Q76"}),
    ("Which <Q5> has a <P569> that is 1964?", {"Q13133"}),
    ("Which <Q5> has a <P569> that is not 1961?", {"Q13133", "Q1", "Q2"}),
    ("Which <Q5> has a <P569> equal to 1990?", {"Q1"}),
    ("Which <Q5> has a <P569> other than 1990?", {"Q76", "Q13133", "Q2"}),
    ("Which <Q5> has a <P569> between 1960 and 1990?", {"Q76", "Q13133", "Q1"}),  # both years whole
    ("Which <Q5> whose <P569> is between 1990 and 2000?", {"Q1", "Q2"}),
    ("Which <Q5> has a <P569> greater than 1964?", {"Q1", "Q2"}),  # after 1964: from 1965 on
    ("Which <Q5> has a <P569> less than 1964?", {"Q76"}),
    ("Which <Q5> has a <P569> at most 1964?", {"Q76", "Q13133"}),
    ("Which <Q5> has a <P569> before 1961-09-01?", {"Q76"}),
    ("Which <Q5> has a <P569> whose year is 1961 or 1990?", {"Q76", "Q1"}),
    ("Which <Q5> has <P39> <Q11696> at <P580> 2009?", {"Q76"}),
    ("Which <Q5> has <P39> <Q11696> at <P580> 2009-01-20?", {"Q76"}),
    ("Is the <P569> of <Q76> 1961?", True),
    ("Is the <P569> of <Q76> greater than 1961?", False),
    # a year-like number of a property that is no date stays a number
    ("Which <Q5> has <P1082> 1961?", {"Q76", "Q13133", "Q1", "Q2"}),
    ("Which <Q5> has a <P1082> between 1960 and 1962?", {"Q76", "Q13133", "Q1", "Q2"}),
])
def test_a_year_or_a_day_of_a_date_valued_property(store, text, expected):
    assert _answers(store, text) == expected


def test_the_ecai_profile_reads_years_the_same_way(store):
    # the ECAI data's profile writes p:/ps: statements; the gold SPARQL tests years with YEAR()
    sparql = cnl.compile("Which <Q5> has <P569> 1961?", kg="wikidata-ecai")
    assert "YEAR(" in sparql and " 1961 ." not in sparql


def test_a_profile_that_does_not_know_its_dates_keeps_the_literal():
    sparql = cnl.compile("Which <Person> has <born> 1961?", kg="rdf",
                         lexicon={"Person": "http://example.org/Person", "born": "http://example.org/born"})
    assert "<http://example.org/born> 1961" in sparql and "YEAR(" not in sparql
