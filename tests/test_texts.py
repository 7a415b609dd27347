"""A plain string given for a label or a language-tagged text means that text, in any language.

Wikidata's labels, descriptions, aliases and monolingual texts (a title, an official name) carry
a language tag: ``"Inception"@en`` is not the plain literal ``"Inception"``, so ``has <P1476>
"Inception"`` (the triple with the plain literal) and ``has a <label> that is "Inception"``
(``FILTER(?label = "Inception")``) answered nothing on any Wikidata store, silently. A string
written with its tag (``"Inception"@en``) keeps its exact meaning. Each case runs on a real store."""
import pyoxigraph
import pytest

import cnl

WD, WDT = "http://www.wikidata.org/entity/", "http://www.wikidata.org/prop/direct/"
RDFS_LABEL = "http://www.w3.org/2000/01/rdf-schema#label"


@pytest.fixture(scope="module")
def store():
    st = pyoxigraph.Store()

    def add(s, p, o):
        st.add(pyoxigraph.Quad(pyoxigraph.NamedNode(WD + s), pyoxigraph.NamedNode(p), o))

    for item, title, label in [("Q25188", "Inception", "Inception"), ("Q163872", "The Dark Knight", "Dark Knight")]:
        add(item, WDT + "P31", pyoxigraph.NamedNode(WD + "Q11424"))
        add(item, WDT + "P1476", pyoxigraph.Literal(title, language="en"))
        add(item, RDFS_LABEL, pyoxigraph.Literal(label, language="en"))
        add(item, RDFS_LABEL, pyoxigraph.Literal(label + " (fr)", language="fr"))
    add("Q183", WDT + "P1448", pyoxigraph.Literal("Bundesrepublik Deutschland", language="de"))
    add("Q183", WDT + "P31", pyoxigraph.NamedNode(WD + "Q6256"))
    return st


def _answers(store, text):
    return {row[0].value.rsplit("/", 1)[-1] for row in store.query(cnl.compile(text))}


@pytest.mark.parametrize("text, expected", [
    ('Which <Q11424> has <P1476> "Inception"?', {"Q25188"}),
    ('Which <Q11424> has a <P1476> that is "The Dark Knight"?', {"Q163872"}),
    ('Which <Q11424> whose <P1476> is "Inception" or "The Dark Knight"?', {"Q25188", "Q163872"}),
    ('Which <Q6256> has <P1448> "Bundesrepublik Deutschland"?', {"Q183"}),
    ('Which <Q11424> has <label> "Dark Knight"?', {"Q163872"}),
    ('Which <Q11424> has a <label> that is "Inception (fr)"?', {"Q25188"}),  # any language
    ('Which <Q11424> whose <label> is "Inception"?', {"Q25188"}),
    # a tag written is kept
    ('Which <Q11424> has <P1476> "Inception"@en?', {"Q25188"}),
    ('Which <Q11424> has <P1476> "Inception"@fr?', set()),
])
def test_a_plain_string_of_a_language_tagged_value_is_its_text(store, text, expected):
    assert _answers(store, text) == expected
