"""The CNL made to agree with the question's words (cnl.learn.agreement): a comparison or a
superlative goes the way the question's comparative goes; a when-question is answered with the
time, not its year. Each rule also leaves alone what it cannot tell."""
import pytest

from cnl.dialects.squall.parser import parse_squall
from cnl.errors import CNLError
from cnl.learn.agreement import agree_directions, asked_time


@pytest.mark.parametrize("question, text, expected", [
    # older is an earlier date of birth (the adapter's data says "later" for "older")
    ("Is Joe Biden older than Bernie Sanders?",
     "Is the <date of birth> of [Joe Biden] later than the <date of birth> of [Bernie Sanders]?",
     "Is the <date of birth> of [Joe Biden] earlier than the <date of birth> of [Bernie Sanders]?"),
    ("Is Kamala Harris older than Barack Obama?",
     "Is the <P569:date_of_birth> of <Kamala_Harris> later than the <P569:date_of_birth> of <Barack_Obama>?",
     "Is the <P569:date_of_birth> of <Kamala_Harris> earlier than the <P569:date_of_birth> of <Barack_Obama>?"),
    # younger: a later date of birth, the year of it too
    ("Is J. K. Rowling younger than Stephen King?",
     "Is the year of the <date of birth> of [J. K. Rowling] earlier than the year of the <date of birth> of "
     "[Stephen King]?",
     "Is the year of the <date of birth> of [J. K. Rowling] later than the year of the <date of birth> of "
     "[Stephen King]?"),
    # the CNL names the two the other way round: its word goes the other way too
    ("Is Joe Biden older than Bernie Sanders?",
     "Is the <date of birth> of [Bernie Sanders] earlier than the <date of birth> of [Joe Biden]?",
     "Is the <date of birth> of [Bernie Sanders] later than the <date of birth> of [Joe Biden]?"),
    # found in the question by the words its candidate was linked from
    ("Is the Nile longer than the Amazon?",
     "Is the <length> of [Amazon River] longer than the <length> of [Nile]?",
     "Is the <length> of [Amazon River] shorter than the <length> of [Nile]?"),
    # after / before a year
    ("Was Parasite released after 2015?", "Has [Parasite] a <publication date> whose year is earlier than 2015?",
     "Has [Parasite] a <publication date> whose year is later than 2015?"),
    ("Did the original Ocean's Eleven come out before 1965?",
     "Has [Ocean's Eleven] a <publication date> whose year is greater than 1965?",
     "Has [Ocean's Eleven] a <publication date> whose year is less than 1965?"),
    # magnitudes
    ("Is Kevin Durant taller than LeBron James?",
     "Is the <height> of [Kevin Durant] less than the <height> of [LeBron James]?",
     "Is the <height> of [Kevin Durant] greater than the <height> of [LeBron James]?"),
    ("Which cities have fewer inhabitants than Berlin?",
     "Which [city] has a <population> higher than the <population> of [Berlin]?",
     "Which [city] has a <population> lower than the <population> of [Berlin]?"),
    # superlatives
    ("What is the tallest mountain?", "Which [mountain] has the lowest <elevation above sea level>?",
     "Which [mountain] has the highest <elevation above sea level>?"),
    ("What is the highest-grossing film?", "Which [film] has the lowest <box office>?",
     "Which [film] has the highest <box office>?"),
    ("Who is the youngest child of Donald Trump?",
     "Which [human] has <father> [Donald Trump] and has the earliest <date of birth>?",
     "Which [human] has <father> [Donald Trump] and has the latest <date of birth>?"),
    ("What is the oldest university in England?",
     "Which [university] has <country> [England] and has the highest <inception>?",
     "Which [university] has <country> [England] and has the lowest <inception>?"),
    # "first" says nothing beside another superlative ("the first tallest" is the tallest)
    ("What is the first tallest mountain in the world?", "Which [mountain] has the lowest <elevation above sea "
                                                         "level>?",
     "Which [mountain] has the highest <elevation above sea level>?"),
    ("Which country has the smallest population?", "Which [country] has the largest <population>?",
     "Which [country] has the smallest <population>?"),
    # "last"/"first" where the question says no other superlative
    ("What was the last Star Fox game released?",
     "Which [video game] has <part of the series> [Star Fox] and has the earliest <publication date>?",
     "Which [video game] has <part of the series> [Star Fox] and has the latest <publication date>?"),
    ("Who was the first wife of Henry VIII?", "Which [human] is a <spouse> of [Henry VIII] at the latest <start time>?",
     "Which [human] is a <spouse> of [Henry VIII] at the earliest <start time>?"),
    # a comparative says which of the things a CNL chooses among
    ("Which is older, the Louvre or the Prado?",
     "Which thing among [Louvre] and [Prado] has the highest <inception>?",
     "Which thing among [Louvre] and [Prado] has the lowest <inception>?"),
    # a negation said in both: the comparison still goes the question's way
    ("Which Harry Potter novel was not released before 2006?",
     "Which [literary work] has <part of the series> [Harry Potter] and has not a <publication date> whose year "
     "is later than 2006?",
     "Which [literary work] has <part of the series> [Harry Potter] and has not a <publication date> whose year "
     "is earlier than 2006?"),
    # with "or equal to", and capitalised
    ("Was Avatar's budget greater than $200 million?", "Is the <cost> of [Avatar] less than or equal to 200000000?",
     "Is the <cost> of [Avatar] greater than or equal to 200000000?"),
])
def test_a_comparison_goes_the_way_the_question_says(question, text, expected):
    candidates = [{"label": "Amazon River", "id": "Q3783", "mention": "Amazon"}]
    assert agree_directions(question, text, candidates) == expected
    parse_squall(expected, notation="id" if "<P569:" in expected else "label")  # still a sentence


@pytest.mark.parametrize("question, text", [
    # agrees already
    ("Did Titanic come out after 2000?", "Has [Titanic] a <publication date> whose year is greater than 2000?"),
    ("Which is the most populous city in Germany?",
     "Which [city] has <country> [Germany] and has the highest <population>?"),
    # "older" of something not a time: nothing says which way (an age would be greater)
    ("Is the oldest tree older than 100?", "Which [tree] has an <age> less than 100?"),
    # the question negates and the CNL does not: the model may have turned the comparison for it
    ("Which Harry Potter novel was not released before 2006?",
     "Which [literary work] has <part of the series> [Harry Potter] and has a <publication date> whose year is "
     "later than 2005?"),
    # the question's superlatives disagree
    ("Which is the smallest of the largest cities?", "Which [city] has the highest <area>?"),
    # two comparisons in the CNL ("from 1989 to 1999"): which one is meant is not told
    ("Who was president after 1989?", "Which [human] has <position held> [president] at a <start time> earlier "
                                      "than 1999 at a <end time> later than 1989?"),
    # "at least"/"at most" are bounds, not superlatives
    ("Which cities have the most mayors?", "Which [city] has at least 2 <head of government>?"),
    # a sorted answer ("highest-to-lowest") is not a superlative word
    ("Which films are the shortest?", "Give me every [film] with the highest-to-lowest <duration>."),
    # no comparative in the question
    ("Who directed Inception?", "What is the <director> of [Inception]?"),
])
def test_a_comparison_is_left_alone_where_the_question_does_not_say_which_way(question, text):
    assert agree_directions(question, text) == text


def _parses(text):
    try:
        parse_squall(text, notation="label")
    except CNLError:
        return False
    return True


@pytest.mark.parametrize("question, text, expected", [
    ("When was Albert Einstein born?", "What is the year of (the <date of birth> of [Albert Einstein])?",
     "What is the <date of birth> of [Albert Einstein]?"),
    ("When was Pac-Man first released?", "What is the year of (the earliest <publication date> of [Pac-Man])?",
     "What is the earliest <publication date> of [Pac-Man]?"),
    ("When did Roblox launch?", "What is the year of the <publication date> of [Roblox]?",
     "What is the <publication date> of [Roblox]?"),
    ("when was the Eiffel Tower built", "Give me the year of (the <inception> of [Eiffel Tower]).",
     "Give me the <inception> of [Eiffel Tower]."),
])
def test_a_when_question_is_answered_with_the_time(question, text, expected):
    assert asked_time(question, text, parses=_parses) == expected


@pytest.mark.parametrize("question, text", [
    # the question asks for a year
    ("In what year did the first Halo game come out?", "What is the year of (the earliest <publication date> of "
                                                       "[Halo])?"),
    ("What year was Nintendo founded?", "What is the year of (the <inception> of [Nintendo])?"),
    ("When, in which year, was Nintendo founded?", "What is the year of (the <inception> of [Nintendo])?"),
    # not a when-question
    ("How old is Tom Hanks?", "Give me the year of now - the year of (the <date of birth> of [Tom Hanks])."),
    # the year is not the answer: a part of it
    ("When did Tom Hanks win his Oscar?", "At which <point in time> does [Tom Hanks] <award received> [Oscar]?"),
    ("When was the year of the rabbit?", "What is the year of now - the year of (the <start time> of [x])?"),
])
def test_a_year_is_kept_where_the_question_asks_for_one_or_the_answer_is_not_a_year(question, text):
    assert asked_time(question, text, parses=_parses) == text


@pytest.mark.parametrize("question, text, expected", [
    ("Which book authored by Dan Brown was released in 2000?",
     "Which [literary work] that has <author> [Dan Brown] has a <publication date> whose year is greater than 2000?",
     "Which [literary work] that has <author> [Dan Brown] has a <publication date> whose year is 2000?"),
    ("Was The Notebook released in 2004?",
     "Has [The Notebook] a <publication date> whose year is later than or equal to 2004?",
     "Has [The Notebook] a <publication date> whose year is 2004?"),
    ("Who won the Oscar for Best Director in the year 1938?",
     "Which [human] has <award received> [Academy Award for Best Director] at a <point in time> whose year is "
     "earlier than 1938?",
     "Which [human] has <award received> [Academy Award for Best Director] at a <point in time> whose year is "
     "1938?"),
])
def test_a_year_said_with_in_is_that_year(question, text, expected):
    from cnl.learn.agreement import in_the_year

    assert in_the_year(question, text, parses=_parses) == expected


@pytest.mark.parametrize("question, text", [
    # the question compares
    ("Which films came out after 2000?", "Which [film] has a <publication date> whose year is greater than 2000?"),
    ("Which films were made from 1990 to 2000?", "Which [film] has a <publication date> whose year is less than 2000?"),
    ("Which books had come out by 2000?", "Which [book] has a <publication date> whose year is earlier than 2000?"),
    # a decade is no year
    ("Which books came out in the 1990s?", "Which [book] has a <publication date> whose year is greater than 1990?"),
    # the CNL compares with another number than the one said
    ("Which films came out in 2000?", "Which [film] has a <publication date> whose year is greater than 1999?"),
])
def test_a_year_said_with_in_is_left_alone_where_the_question_compares(question, text):
    from cnl.learn.agreement import in_the_year

    assert in_the_year(question, text, parses=_parses) == text


@pytest.mark.parametrize("question, text, expected", [
    ("What was Mary Shelley's third novel?",
     "Which [literary work] has <author> [Mary Shelley] and has the earliest <publication date>?",
     "Which [literary work] has <author> [Mary Shelley] and has the 3rd earliest <publication date>?"),
    ("What is the 2nd largest lake of Canada?",
     "Which [lake] has <country> [Canada] and has the highest <area>?",
     "Which [lake] has <country> [Canada] and has the 2nd highest <area>?"),
    ("Who was the fourth wife of Henry VIII?",
     "What is the <spouse> of [Henry VIII] at the earliest <start time>?",
     "What is the <spouse> of [Henry VIII] at the 4th earliest <start time>?"),
    # the direction is the superlative's own: "second to last" ranks from the latest
    ("Which album was the second-to-last one by Queen?",
     "Which [album] has <performer> [Queen] and has the latest <publication date>?",
     "Which [album] has <performer> [Queen] and has the 2nd latest <publication date>?"),
    ("What is the twenty-first tallest building?",
     "Which [building] has the highest <height>?",
     "Which [building] has the 21st highest <height>?"),
])
def test_an_ordinal_ranks_the_superlative(question, text, expected):
    from cnl.learn.agreement import ranked_superlative

    assert ranked_superlative(question, text, parses=_parses) == expected


@pytest.mark.parametrize("question, text", [
    # "first" is the superlative itself
    ("What was the first film by Sofia Coppola?",
     "Which [film] has <director> [Sofia Coppola] and has the earliest <publication date>?"),
    # the number is used already (a series ordinal), or the CNL ranks already
    ("What is the third Dune novel?", "Which [literary work] has <part of the series> [Dune] at <series ordinal> 3?"),
    ("What is the third longest river?", "Which [river] has the 3rd highest <length>?"),
    # two ordinals, or no superlative to rank
    ("Was the second film longer than the third?", "Which [film] has the highest <duration>?"),
    ("Who was the 16th president?", "Which [human] has <position held> [president]?"),
    # "at least" / "at most" are bounds
    ("Which band released its fifth album with at least 10 songs?",
     "Which [band] has at least 10 <album>?"),
])
def test_an_ordinal_is_left_alone_where_it_ranks_nothing_new(question, text):
    from cnl.learn.agreement import ranked_superlative

    assert ranked_superlative(question, text, parses=_parses) == text


@pytest.mark.parametrize("question, text, expected", [
    # a comparison the negation governs
    ("Which Dune novel was not published before 1970?",
     "Which [literary work] has <part of the series> [Dune] and has a <publication date> whose year is earlier than "
     "1970?",
     "Which [literary work] has <part of the series> [Dune] and has not a <publication date> whose year is earlier "
     "than 1970?"),
    # a thing the negation governs, in the question's noun's clause or the main verb phrase
    ("Which Mission: Impossible films did not star Jeremy Renner?",
     "Which [film] has <part of the series> [Mission: Impossible] and has <cast member> [Jeremy Renner]?",
     "Which [film] has <part of the series> [Mission: Impossible] and has not <cast member> [Jeremy Renner]?"),
    ("What is the largest country that isn't in Europe?",
     "Which [country] that has <continent> [Europe] has the highest <area>?",
     "Which [country] that has not <continent> [Europe] has the highest <area>?"),
    ("Who is not a member of Pink Floyd?", "Which [human] is a <member of> of [Pink Floyd]?",
     "Which [human] is not a <member of> of [Pink Floyd]?"),
])
def test_a_negation_the_question_says_is_restored(question, text, expected):
    from cnl.learn.agreement import restored_negation

    assert restored_negation(question, text, parses=_parses) == expected


def test_a_negated_thing_is_found_by_the_words_it_was_linked_from():
    from cnl.learn.agreement import restored_negation

    text = "Which [human] has <occupation> [actor] and has <award received> [Academy Awards]?"
    candidates = [{"label": "Academy Awards", "mention": "Oscar"}]
    assert restored_negation("Which actors never won an Oscar?", text, candidates, parses=_parses) == (
        "Which [human] has <occupation> [actor] and has not <award received> [Academy Awards]?")


@pytest.mark.parametrize("question, text", [
    # the CNL negates already, or said "not before" as "later than"
    ("Which films were not directed by Sofia Coppola?", "Which [film] has not <director> [Sofia Coppola]?"),
    ("Which Dune novel was not published before 1970?",
     "Which [literary work] has <part of the series> [Dune] and has a <publication date> whose year is later than 1969?"),
    # nothing of the CNL among the negated words, or two statements hold it
    ("Who doesn't have children?", "Which [human] has a <child>?"),
    ("Who didn't win an Oscar but was nominated for one?",
     "Which [human] has <award received> [Oscar] and has <nominated for> [Oscar]?"),
    # not a negation of the question's own
    ("Which band was not only famous but also rich?", "Which [band] has <genre> [rock music]?"),
    ("Is Paris in France or not?", "Has [Paris] <country> [France]?"),
])
def test_a_negation_is_left_alone_where_it_is_said_or_governs_nothing_one(question, text):
    from cnl.learn.agreement import restored_negation

    assert restored_negation(question, text, parses=_parses) == text


@pytest.mark.parametrize("text, expected", [
    # "is a <P> of [A]", then "has <P> [A] and [B]": the later one goes the first way, saying [B] only
    ("Which [human] is (a <cast member> of [Grown Ups]) and has <cast member> [Grown Ups] and [Click]?",
     "Which [human] is (a <cast member> of [Grown Ups]) and is a <cast member> of [Click]?"),
    # "has <P> [A]", then "is a <P> of [A]": the later one says nothing more and goes, with its "and"
    ("Which [film] has <director> [Greta Gerwig] and is a <director> of [Greta Gerwig] and has <genre> [comedy]?",
     "Which [film] has <director> [Greta Gerwig] and has <genre> [comedy]?"),
    # the ID notation
    ("Which <Q5> is a <P50> of <Q190192> and has <P50> <Q190192> and <Q47209>?",
     "Which <Q5> is a <P50> of <Q190192> and is a <P50> of <Q47209>?"),
])
def test_a_statement_said_both_ways_round_is_said_the_first_way(text, expected):
    from cnl.learn.agreement import one_way_round

    notation = "id" if "<Q5>" in text else "label"
    assert one_way_round(text, parses=lambda t: _parses(t) if notation == "label" else _parses_id(t)) == expected


@pytest.mark.parametrize("text", [
    # another property, or another thing: no slip to mend
    "Which [human] is a <cast member> of [Grown Ups] and has <director> [Grown Ups]?",
    "Which [human] is a <spouse> of [Ann Lee] and has <spouse> [Bo Lee]?",
    # the same way round twice
    "Which [film] has <cast member> [Adam Sandler] and has <cast member> [Adam Sandler] and [Drew Barrymore]?",
    # two pairs: which is the slip is not clear
    "Which [human] is a <cast member> of [A1] and has <cast member> [A1] and is a <director> of [B1] and has "
    "<director> [B1]?",
])
def test_a_statement_is_left_alone_where_nothing_is_said_both_ways(text):
    from cnl.learn.agreement import one_way_round

    assert one_way_round(text, parses=_parses) == text


def _parses_id(text):
    try:
        parse_squall(text, notation="id")
    except CNLError:
        return False
    return True


def test_the_translator_s_post_processing_says_a_statement_one_way_round():
    from cnl.learn.inference import Translator

    translator = Translator(None, None)  # no model: postprocess() reads the given output
    text = "Which [human] is (a <cast member> of [Grown Ups]) and has <cast member> [Grown Ups] and [Click]?"
    assert translator.postprocess(text, "none", [], "Which actor starred in both Grown Ups and Click?") == (
        "Which [human] is (a <cast member> of [Grown Ups]) and is a <cast member> of [Click]?")
