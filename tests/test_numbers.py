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
