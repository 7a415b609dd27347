"""Completion as a person types: the grammar's slot at the cursor (one source of truth with the
constrained decoder), filled from a real KG: properties around the query's entities first, entity
labels from the index, insert texts that compile back to the same IDs."""
from __future__ import annotations

import pytest

from cnl.dialects.notation import escape
from cnl.dialects.squall.completion import expect, is_read_only, shared_checker, terminal_words, terms_in
from cnl.dialects.squall.parser import lark_parser, parse_squall
from cnl.linking.completion import Completer
from cnl.linking.entity_index import Entity, EntityIndex
from cnl.linking.lexicon import Lexicon
from cnl.linking.property_index import Property, PropertyIndex


# ---------------------------------------------------------------- the grammar's slot


def test_regex_terminals_are_enumerated_from_the_grammar():
    assert {"highest", "earliest", "most"} <= set(terminal_words("SUPERLATIVE"))
    assert terminal_words("AT_WHICH") == ("at which",)
    assert "greater or equal to" in terminal_words("CMP_GE")
    assert {"first", "tenth"} <= set(terminal_words("ORDINAL"))  # the finite half of "2nd" | "second"
    assert terminal_words("HAS") == ("has",)
    assert terminal_words("INT") == () and terminal_words("ENT") == ()


def test_a_superlative_that_keeps_ties_is_offered_after_the_plain_ones():
    words = expect("Which [country] has the ").keywords
    assert "joint highest" in words and words.index("joint highest") > words.index("fewest")


def test_the_first_word():
    slot = expect("")
    assert {"Which", "What", "Who", "How", "Give"} <= set(slot.keywords)
    assert "entity" in slot.terms and slot.parses
    assert expect("wh").keywords == ("What", "Which", "Who")


def test_after_has_a_property_or_a_determiner():
    slot = expect("which [film] has ")
    assert "property" in slot.terms
    assert {"the", "a", "not"} <= set(slot.keywords) and "has" not in slot.keywords
    assert (slot.start, slot.end, slot.typed) == (17, 17, "")


def test_the_word_being_typed_filters_and_is_replaced():
    slot = expect("which [film] h")
    assert {"has", "have", "had"} <= set(slot.keywords)
    assert all(word.startswith("h") for word in slot.keywords)
    assert (slot.start, slot.end, slot.typed) == (13, 14, "h")


def test_a_term_under_the_cursor_is_replaced_whole():
    text = "What is the <director> of [Inception]?"
    slot = expect(text, text.index("<") + 2)
    assert (slot.start, slot.end, slot.replaces, slot.typed) == (12, 22, "<director>", "<d")
    assert slot.term_typed == "property" and slot.label_typed == "d"
    assert "property" in slot.terms


def test_a_term_still_being_written():
    slot = expect("which [film] has <director> [Christopher No")
    assert slot.term_typed == "entity" and slot.label_typed == "Christopher No"
    assert (slot.start, slot.end) == (28, 43)
    # the rest of the word after the cursor is part of what is replaced
    slot = expect("which [Incep has", 12)
    assert (slot.start, slot.end, slot.label_typed) == (6, 12, "Incep")


def test_after_a_closed_term_comes_what_follows():
    slot = expect("which [film]")
    assert (slot.start, slot.end, slot.typed) == (12, 12, "")
    assert "has" in slot.keywords


def test_a_wrong_prefix_offers_no_grammar_words():
    slot = expect("which [film] has has ")
    assert not slot.parses and slot.keywords == ()


def test_end_of_query():
    assert expect("What is the <director> of [Inception]").may_end
    assert "?" in expect("What is the <director> of [Inception]").keywords
    assert not expect("What is the <director> of ").may_end  # "of" is written: an argument must follow


PREFIXES = ["", "Which ", "which [film] ", "which [film] has ", "which [film] has <director> ",
            "which [film] has <director> [Christopher Nolan] ", "How many ", "What is the ",
            "which [film] has the ", "which [human] is-<P57:director> ", "Has [Inception] a ",
            "which [film] has <publication date> ", "Give me ", "which [film] has <director> [Christopher Nolan] and "]


@pytest.mark.parametrize("prefix", PREFIXES)
def test_completion_and_the_decoder_agree(prefix):
    """One source of truth: every word completion offers keeps the text a prefix the decoder's
    checker accepts, and every single word that checker accepts next is offered."""
    checker = shared_checker("label")
    offered = {w.lower() for w in expect(prefix).keywords}
    for word in offered:
        assert checker.is_viable(prefix + word), (prefix, word)
    vocabulary = {t.pattern.value.lower() for t in lark_parser().terminals
                  if t.pattern.type == "str" and t.pattern.value.isalpha()}
    # a word the lexer reads there as a writer form's own terminal ("Whose" where a question
    # begins), or that makes an earlier word one ("has <director> are ...": the "has" of a
    # bare "has <P>"), is read, never suggested
    missing = [word for word in sorted(vocabulary) if checker.is_viable(prefix + word + " ")
               and not any(o == word or o.startswith(word + " ") for o in offered)
               and not any(is_read_only(t.type) for t in checker.lex(prefix + word + " ")[0])]
    assert not missing, (prefix, missing)


def test_terms_in_text():
    text = "which [film] has <director> [Chris \\] Nolan] and is-<P57:director>/<P31> <Q5>?"
    found = [(t.kind, t.id, t.label, text[t.start:t.end]) for t in terms_in(text)]
    assert found == [("entity", None, "film", "[film]"), ("property", None, "director", "<director>"),
                     ("entity", None, "Chris ] Nolan", "[Chris \\] Nolan]"),
                     ("property", "P57", "director", "<P57:director>"), ("property", "P31", None, "<P31>"),
                     ("entity", "Q5", None, "<Q5>")]


# ---------------------------------------------------------------- filled from a KG (no store)

def _index(*entities):
    return EntityIndex([Entity(i, label, (), description, popularity) for i, label, description, popularity in entities])


def test_labels_are_escaped_and_read_back():
    evil = 'Evil ] label [with] "quotes" <img src=x onerror=alert(1)>'
    completer = Completer(entities=_index(("Q1", evil, "a test entity", 5)))
    result = completer.complete("which [film] has <director> [evil")
    item = next(i for i in result.items if i.kind == "entity")
    assert item.insert == f"[{escape(evil, ']')}]"
    text = "which [film] has <director> " + item.insert + "?"
    assert [t.label for t in terms_in(text)][-1] == evil
    parse_squall(text)  # one term: nothing a label holds changes the query's structure


def test_an_ambiguous_label_is_written_with_its_id():
    lexicon = Lexicon()
    lexicon.add("Inception", "Q25188")
    lexicon.add("Inception", "Q1000")
    completer = Completer(entities=_index(("Q25188", "Inception", "2010 film", 10)), resolver=lexicon)
    item = next(i for i in completer.complete("What is the <director> of [Incep").items if i.kind == "entity")
    assert item.insert == "<Q25188:Inception>"
    lexicon = Lexicon()
    lexicon.add("Inception", "Q25188")
    completer = Completer(entities=_index(("Q25188", "Inception", "2010 film", 10)), resolver=lexicon)
    assert completer.complete("What is the <director> of [Incep").items[0].insert == "[Inception]"


def test_without_a_store_properties_come_from_wikidata_names():
    result = Completer().complete("which [film] has <direc")
    assert [i.insert for i in result.items][:1] == ["<director>"]
    assert result.items[0].id == "P57" and (result.start, result.end) == (17, 23)


def test_question_candidates_come_first():
    index = _index(("Q25188", "Inception", "2010 film", 10), ("Q5", "human", "", 1000))
    completer = Completer(entities=index)
    result = completer.complete("What is the <director> of [", candidates=["Q25188"])
    assert result.items[0].insert == "[Inception]" and "linked from the question" in result.items[0].detail


def test_verbs_keep_their_form():
    props = PropertyIndex([Property("P57", "director", ("directed by",), "director of a film")])
    result = Completer(properties=props).complete("which [film] is-<dir")
    assert result.items[0].insert == "<director>"  # only the term is replaced: "is-" stays
    assert (result.start, result.end) == (16, 20)


# ---------------------------------------------------------------- over a real store


@pytest.fixture(scope="module")
def nolan_toolbox(shared_data, tmp_path_factory):
    from cnl.agent.tools import Toolbox
    from tests.agent_fixtures import load_store, nolan_slice

    store = load_store(nolan_slice(shared_data), tmp_path_factory.mktemp("nolan") / "store")
    toolbox = Toolbox.for_store(store)
    yield toolbox
    toolbox.kg.close()


@pytest.fixture(scope="module")
def completer(nolan_toolbox):
    from cnl.agent.playground import completer_for

    return completer_for(nolan_toolbox)


def test_properties_around_the_query_entities_come_first(completer):
    text = "What is the <director> of [Inception]?"
    result = completer.complete(text, text.index("<") + 1)
    around = completer.properties_around("Q25188")
    assert "P57" in around and "P161" in around
    first = result.items[0]
    assert first.kind == "property" and first.id in around and "around Inception" in first.detail
    ids = [i.id for i in result.items if i.kind == "property"]
    assert ids[:len(around)] == sorted(ids[:len(around)], key=lambda p: -around[p])  # most used first
    assert (result.start, result.end) == (12, 22)


def test_properties_of_a_class_come_from_its_instances(completer):
    result = completer.complete("which [film] has ")
    ids = [i.id for i in result.items if i.kind == "property"]
    assert "P57" in ids[:20] and "P161" in ids[:5]


def test_entity_labels_from_the_linker(completer):
    result = completer.complete("which [film] has <director> [Christopher No")
    assert result.items[0].insert == "[Christopher Nolan]" and result.items[0].id == "Q25191"


def test_an_opened_bracket_offers_the_most_used_classes(completer):
    result = completer.complete("which [")
    classes = [i for i in result.items if i.kind == "entity"]
    assert classes and classes[0].insert in ("[film]", "[human]") and "a class of" in classes[0].detail
    assert {"Q11424", "Q5"} <= {i.id for i in classes[:10]}
    counts = [int(i.detail.split("a class of ")[1].split(" ")[0].replace(",", "")) for i in classes]
    assert counts == sorted(counts, reverse=True)
    typed = completer.complete("which [fi").items  # a letter typed: the name index, by what it starts with
    assert typed and typed[0].insert == "[film]" and all("a class of" not in i.detail for i in typed)


def test_a_property_with_nothing_to_go_by_comes_from_the_most_used_classes(completer):
    result = completer.complete("What is the <")
    ids = [i.id for i in result.items if i.kind == "property"]
    top = [c.label for c, _ in completer.popular_classes()[:3]]
    assert "P57" in ids[:20] and all("around" in i.detail for i in result.items[:5])
    assert any(label in result.items[0].detail for label in top)


def test_accepted_completions_compile(completer, nolan_toolbox):
    """Text written by accepting completions only compiles and finds Nolan's films."""
    from cnl.sparql.compiler import compile_cnl

    text = ""
    for typed in ("which [fil", " has <dire", " [Christopher No"):
        text += typed
        result = completer.complete(text)
        text = text[:result.start] + result.items[0].insert
    text += "?"
    assert text == "which [film] has <director> [Christopher Nolan]?"
    sparql = compile_cnl(text, resolver=nolan_toolbox.lexicon)
    rows = nolan_toolbox.kg.query(sparql).values()
    assert {r[0].rsplit("/", 1)[-1] for r in rows} >= {"Q25188", "Q190525"}
