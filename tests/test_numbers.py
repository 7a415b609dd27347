"""The question's numbers copied into the model's CNL (cnl.learn.numbers): a miswritten number is
replaced only where one number of the CNL is unsaid and one of the question unused."""
import pytest

from cnl.learn.numbers import copy_numbers, question_numbers


@pytest.mark.parametrize("question, text, expected", [
    # scale words and currency: "$200 million" is 200000000
    ("Was Avatar's budget greater than $200 million?", "Is the <cost> of [Avatar] greater than 2000000?",
     "Is the <cost> of [Avatar] greater than 200000000?"),
    # ordinal words
    ("Who was the twentieth president of the United States?",
     "Which [human] has <position held> [President of the United States] at <series ordinal> 1?",
     "Which [human] has <position held> [President of the United States] at <series ordinal> 20?"),
    ("Who was the ninth governor of California?", "Which [human] has <position held> [X] at <series ordinal> 19?",
     "Which [human] has <position held> [X] at <series ordinal> 9?"),
    # digits with thousands separators and decimals with a scale
    ("Which cities have over 1,000,000 people?", "Which [city] has a <population> greater than 100000?",
     "Which [city] has a <population> greater than 1000000?"),
    ("Is the population of Berlin more than 3.5 million?", "Is the <population> of [Berlin] greater than 35000000?",
     "Is the <population> of [Berlin] greater than 3500000?"),
])
def test_a_miswritten_number_is_the_question_s(question, text, expected):
    assert copy_numbers(question, text) == expected


@pytest.mark.parametrize("question, text", [
    # the CNL derives several numbers of its own from one ("in 1992")
    ("Who first won the presidency in 1992?", "Which [human] has <position held> [X] at a <start time> earlier than "
                                              "1993 at a <end time> later than 1991?"),
    # the question says no number
    ("Which Halloween movie?", "Which [film] has a <publication date> whose year is between 1978 and 2007?"),
    # the number the question says is in a term: used there
    ("Who won the 2008 Summer Olympics marathon?", "Which [human] has <winner> [2008 Summer Olympics] at <rank> 1?"),
    # numbers the question says, written as said
    ("What is the third book?", "Which [book] has <series ordinal> 3?"),
    # "first" is too often no number to replace another with it
    ("Who was the first person on the moon?", "Which [human] has <position held> [X] at <series ordinal> 2?"),
    # two unused numbers: no way to tell which
    ("Who ran the 100m in 2008?", "Which [human] has <rank> 2?"),
    # dates and strings are left alone
    ("What happened in 2001?", 'Which [event] has <point in time> 2002-09-11 and has <label> "9/12"?'),
])
def test_numbers_are_left_alone_where_the_question_does_not_say_which(question, text):
    assert copy_numbers(question, text) == text


def test_question_numbers_reads_digits_words_ordinals_and_scales():
    values = [int(v) for v, _ in question_numbers("the 3rd of two films made for $1.2 billion in 1999, twenty-first")]
    assert values == [3, 2, 1200000000, 1999, 21]


@pytest.mark.parametrize("question, text, expected", [
    ("How old is Tom Hanks?", "Give me 2023 - the year of (the <date of birth> of [Tom Hanks]).",
     "Give me the year of now - the year of (the <date of birth> of [Tom Hanks])."),
    ("How old is Kylie Jenner?", "Give me the year of 2023-04-20 - the year of (the <P569> of <Q1770624>).",
     "Give me the year of now - the year of (the <P569> of <Q1770624>)."),
    ("How many years ago was Apple founded?", "What is 2021 - the year of (the <inception> of [Apple Inc.])?",
     "What is the year of now - the year of (the <inception> of [Apple Inc.])?"),
])
def test_a_year_a_difference_counts_from_that_the_question_does_not_say_is_this_year(question, text, expected):
    from cnl.learn.numbers import current_year

    assert current_year(question, text) == expected


@pytest.mark.parametrize("question, text", [
    ("How many years after 1990 was Tom Hanks born?", "Give me 1990 - the year of (the <date of birth> of [Tom Hanks])."),
    ("How old is Tom Hanks?", "Give me the year of (the <date of birth> of [Tom Hanks]) - 2023."),  # not counted from
    ("Which film came out in 2023?", "Which [film] has a <publication date> whose year is 2023?"),
    ("What is 2023 Summer?", "What is the <director> of [2023 - the year of]?"),  # inside a term
])
def test_other_years_are_left_alone(question, text):
    from cnl.learn.numbers import current_year

    assert current_year(question, text) == text


def test_now_is_the_profile_s_day_where_it_has_one():
    """The ECAI golds were written in April 2023: under their preset "now" is that day and its
    year the number 2023 (the golds' own form), so "How old is ...?" read with "the year of now"
    is the gold; elsewhere NOW() itself."""
    from cnl.api import compile
    from cnl.datasets.ecai.preset import ECAI_PROFILE  # noqa: F401 - registers the preset
    from cnl.sparql.equivalence import equivalent

    text = "Give me the year of now - the year of (the <P569> of <Q190523>)."
    assert "YEAR(NOW())" in compile(text, kg="wikidata")
    ecai = compile(text, kg="wikidata-ecai")
    assert "NOW()" not in ecai and "2023 - YEAR(" in ecai
    gold = ('SELECT DISTINCT ?d ?age WHERE { wd:Q190523 p:P569 [ ps:P569 ?d ] . '
            'BIND(("2023"^^xsd:integer - YEAR(?d)) AS ?age) }')
    assert equivalent(ecai, gold)
    later = compile("Which <Q5> has a <P569> later than now?", kg="wikidata-ecai")
    assert '"2023-04-20T00:00:00Z"^^xsd:dateTime' in later and "NOW()" not in later


@pytest.mark.parametrize("today", ['2023-04-20"^^xsd:date) } DELETE WHERE { ?s ?p ?o', "2023-13-01", "April 2023", 2023])
def test_a_profile_s_day_is_a_date_or_refused(today, tmp_path):
    """The day is written into queries as a literal: anything but a date is refused, never
    written (from a preset's options or a profile file)."""
    from cnl.errors import CNLError
    from cnl.sparql.profiles import WikidataProfile, load_profile_file

    with pytest.raises(CNLError, match="today"):
        WikidataProfile(today=today)
    file = tmp_path / "p.toml"
    file.write_text(f"today = {today!r}\n" if isinstance(today, str) else f"today = {today}\n")
    with pytest.raises(CNLError, match="today"):
        load_profile_file(file)
    good = tmp_path / "good.toml"
    good.write_text('today = "2024-02-29"\n')
    assert load_profile_file(good).today == "2024-02-29"
