"""Superlatives that keep ties (issue 29: `GROUP BY ... HAVING (COUNT(...) = MAX(...))`, "all the
ones with the most"): `the joint highest <P>` / `the joint most <P>` give every answer whose value
(or count) is the best one, where `the highest` gives one of them. Run on a real store (pyoxigraph)
with a tie in the data; the forms in three notations and their round trip are in
tests/test_sparql_forms.py."""
from __future__ import annotations

import pytest

from cnl import ir
from cnl.dialects import get_dialect
from cnl.dialects.squall.parser import parse_squall
from cnl.errors import CNLSyntaxError, CompileError, PrintError
from cnl.sparql.compiler import compile_cnl
from cnl.sparql.decompile import decompile

pyoxigraph = pytest.importorskip("pyoxigraph")

WD, WDT = "http://www.wikidata.org/entity/", "http://www.wikidata.org/prop/direct/"


@pytest.fixture(scope="module")
def store():
    """Three countries: A and B tie for the largest population (5) and for the most regions (2)."""
    store = pyoxigraph.Store()
    integer = pyoxigraph.NamedNode("http://www.w3.org/2001/XMLSchema#integer")

    def add(s, p, o):
        store.add(pyoxigraph.Quad(pyoxigraph.NamedNode(WD + s), pyoxigraph.NamedNode(WDT + p), o))

    for country, population, regions in (("A", 5, 2), ("B", 5, 2), ("C", 3, 1)):
        add(country, "P31", pyoxigraph.NamedNode(WD + "Q6256"))
        add(country, "P1082", pyoxigraph.Literal(str(population), datatype=integer))
        for i in range(regions):
            add(country, "P150", pyoxigraph.NamedNode(WD + f"{country}{i}"))
    return store


def _answers(store, text):
    return sorted(row[0].value.rsplit("/", 1)[-1] for row in store.query(compile_cnl(text)))


@pytest.mark.parametrize("text, expected", [
    ("Which <Q6256> has the joint highest <P1082>?", ["A", "B"]),
    ("Which <Q6256> has the joint lowest <P1082>?", ["C"]),
    ("Which <Q6256> has the joint most <P150>?", ["A", "B"]),
    ("Which <Q6256> has the joint fewest <P150>?", ["C"]),
])
def test_joint_keeps_every_answer_that_ties(store, text, expected):
    assert _answers(store, text) == expected
    # without "joint", one of the tied answers
    assert len(_answers(store, text.replace("joint ", ""))) == 1


def test_the_joint_superlative_is_read_and_printed_back():
    query = parse_squall("Which <Q6256> has the joint highest <P1082>?")
    (stmt,) = [query.vp] if isinstance(query.vp, ir.Stmt) else list(query.vp.items)
    assert stmt.obj.order == ir.Order("highest", ties=True)
    text = "Which <Q6256> has the joint most <P150>?"
    assert decompile(compile_cnl(text)) == text


@pytest.mark.parametrize("text, message", [
    ("Is <Q183> the <Q6256> that has the joint largest <P2046>?", "ranks the answers of a question that lists them"),
    ("Is <Q183> the joint largest <Q6256>?", "ranks things by no value"),
    ("How many <Q6256> has the joint most <P150>?", "cannot be counted or aggregated"),
    ("Which <Q6256> has the joint highest <P1082> and has the highest <P2046>?", "cannot be combined"),
])
def test_where_joint_has_no_meaning_the_error_says_why(text, message):
    with pytest.raises(CompileError, match=message):
        compile_cnl(text)


def test_joint_takes_no_rank():
    with pytest.raises(CNLSyntaxError, match="joint highest"):
        parse_squall("Which <Q6256> has the 2nd joint highest <P1082>?")


def test_sparklis_has_no_words_for_it():
    with pytest.raises(PrintError):
        get_dialect("sparklis").print(parse_squall("Give me a <Q6256> that has the joint highest <P1082>."),
                                      notation="id")
