"""The writer forms of issue 29: what other SQUALL writers write, each a general rule of the grammar
(``squall_writer_forms.lark``, beside ``squall.lark``). Every form in at least two paraphrases of our own, each
written in the three notations (ID, label, ECAI); each text compiles to a query equivalent to the
hand-written SPARQL, and parses into the IR of the canonical form, which is what the printer gives
back (the printer never writes the variant). ``docs/cnl-reference.md`` section 11 documents them."""
from dataclasses import dataclass

import pytest

import cnl
from cnl import ir
from cnl.dialects.notation import detect_notation, for_notation
from cnl.dialects.squall.parser import parse_squall
from cnl.dialects.squall.printer import print_squall
from cnl.errors import CNLSyntaxError, LexiconError
from cnl.sparql.equivalence import equivalent
from tests import writer_forms_ferre as ferre_cases
from tests.roundtrip_helpers import PREFIXES

# Labels of the label and ECAI notations -> Wikidata IDs (checked against the slice's labels).
IDS = {
    "film": "Q11424", "human": "Q5", "mountain": "Q8502", "rock band": "Q5741069", "musical group": "Q215380",
    "award": "Q618779", "actor": "Q33999",
    "Christopher Nolan": "Q25191", "Christian Bale": "Q45772", "New York City": "Q60", "Barack Obama": "Q76",
    "Michelle Obama": "Q13133", "The Beatles": "Q1299", "Queen": "Q15862", "Earth, Wind & Fire": "Q28974",
    "Academy Award for Best Director": "Q103360", "Academy Award for Best Actor": "Q103916",
    "Leonardo DiCaprio": "Q38111", "President of the United States of America": "Q11696",
    "Harry Potter film series": "Q216930", "The Lord of the Rings trilogy": "Q190214", "Quentin Tarantino": "Q3772",
    "Tom Hanks": "Q2263", "Steven Spielberg": "Q8877", "The Godfather": "Q47703",
    "The Shawshank Redemption": "Q172241", "Tom Cruise": "Q37079", "city": "Q515", "Inception": "Q25188",
    "Freddie Mercury": "Q15869", "Mount Everest": "Q513", "K2": "Q43512", "Asia": "Q48",
    "director": "P57", "cast member": "P161", "part of the series": "P179", "series ordinal": "P1545",
    "award received": "P166", "for work": "P1686", "has part(s)": "P527", "child": "P40", "spouse": "P26",
    "date of birth": "P569", "date of death": "P570", "place of birth": "P19", "occupation": "P106",
    "publication date": "P577", "start time": "P580", "end time": "P582", "position held": "P39", "duration": "P2047",
    "elevation above sea level": "P2044", "point in time": "P585",
    "country of citizenship": "P27", "instance of": "P31",
    "continent": "P30", "box office": "P2142", "population": "P1082", "mother": "P25", "place of death": "P20",
    "Prince William": "Q36812", "Prince Harry": "Q152316", "shares border with": "P47", "country": "Q6256",
    "France": "Q142", "Germany": "Q183", "producer": "P162", "capital": "P36", "employer": "P108", "Google": "Q95",
    "painting": "Q3305213", "height": "P2048", "width": "P2049", "mass": "P2067", "topographic prominence": "P2660",
    "country of origin": "P495", "subclass of": "P279", "title": "P1476", "name in native language": "P1559",
    "book": "Q571", "sibling": "P3373", "polyphyletic common name": "Q55983715",
    "contains the administrative territorial entity": "P150", "located in": "P131",
    "LeBron James": "Q36159",
    "Kevin Durant": "Q29545",
}


class Lexicon:
    def resolve(self, label, kind, span=None):
        if label not in IDS:  # as a real lexicon says it ("label" is then the pseudo-property)
            raise LexiconError(f"no {kind} {label!r}", label=label, kind=kind)
        return IDS[label]


@dataclass
class Form:
    form: str           # the issue's item
    texts: tuple        # the variant, in each notation (and more variants)
    canonical: str      # what the printer gives for it in the ID notation (without labels)
    sparql: str         # the query, written by hand


FORMS = [
    # 1. a relative clause after a name describes the question's noun
    Form("1 clause after a name",
         ("Which <Q11424> has <P57> <Q25191> that has <P161> <Q45772>?",
          "Which [film] has <director> [Christopher Nolan] that has <cast member> [Christian Bale]?",
          "Which <film> has <P57:director> <Christopher_Nolan> that has <P161:cast_member> <Christian_Bale>?"),
         "Which <Q11424> has <P57> <Q25191> and has <P161> <Q45772>?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 . ?f wdt:P57 wd:Q25191 . ?f wdt:P161 wd:Q45772 . }"),
    Form("1 clause after a name",
         ("Which <Q5> is-<P19> <Q60> who has <P106> <Q33999> and has a <P26>?",
          "Which [human] is-<place of birth> [New York City] who has <occupation> [actor] and has a <spouse>?",
          "Which <human> is-<P19:place_of_birth> <New_York_City> who has <P106:occupation> <actor> and has a "
          "<P26:spouse>?"),
         "Which <Q5> has <P19> <Q60> and has <P106> <Q33999> and has a <P26>?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 ; wdt:P19 wd:Q60 ; wdt:P106 wd:Q33999 ; wdt:P26 ?s . }"),
    Form("1 clause after a name",
         ("Which <Q11424> has <P179> <Q190214> at <P1545> 2 which has <P577> 2002?",
          "Which [film] has <part of the series> [The Lord of the Rings trilogy] at <series ordinal> 2 which has "
          "<publication date> 2002?",
          "Which <film> has <P179:part_of_the_series> <The_Lord_of_the_Rings_trilogy> at <P1545:series_ordinal> 2 "
          "which has <P577:publication_date> 2002?"),
         "Which <Q11424> has <P179> <Q190214> at <P1545> 2 and has <P577> 2002?",
         'SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 . ?f p:P179 ?s . ?s ps:P179 wd:Q190214 ; pq:P1545 "2" . '
         "?f wdt:P577 ?d . FILTER(YEAR(?d) = 2002) }"),  # a year of a date-valued property: its year

    # 2. a question that is only a noun phrase, its clause (with a qualifier at its end) what it asks
    Form("2 noun-phrase question",
         ("Which <Q11424> that is <P179> <Q216930> at <P1545> 4?",
          "Which [film] that is-<part of the series> [Harry Potter film series] at <series ordinal> 4?",
          "Which <film> that has <P179:part_of_the_series> <Harry_Potter_film_series> at <P1545:series_ordinal> 4?"),
         "Which <Q11424> has <P179> <Q216930> at <P1545> 4?",
         'SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 . ?f p:P179 ?s . ?s ps:P179 wd:Q216930 ; pq:P1545 "4" . }'),
    Form("2 noun-phrase question",
         ("How many <Q5> that is-<P39> <Q11696> at <P580> 2009-01-20?",
          "How many [human] that is <position held> [President of the United States of America] at <start time> "
          "2009-01-20?",
          "How many <human> that is-<P39:position_held> <President_of_the_United_States_of_America> at "
          "<P580:start_time> 2009-01-20?"),
         "How many <Q5> has <P39> <Q11696> at <P580> 2009-01-20?",
         "PREFIX xsd: <http://www.w3.org/2001/XMLSchema#> SELECT (COUNT(DISTINCT ?h) AS ?n) WHERE { "
         '?h wdt:P31 wd:Q5 . ?h p:P39 ?s . ?s ps:P39 wd:Q11696 ; pq:P580 "2009-01-20T00:00:00Z"^^xsd:dateTime . }'),

    # 3. "How many <P> has X?" = "How many <P> of X are there?"
    Form("3 how many <P> has X",
         ("How many <P40> has <Q76>?", "How many <child> has [Barack Obama]?",
          "How many <P40:child> has <Barack_Obama>?", "How many <P40>-s does <Q76> have?"),
         "How many <P40> of <Q76> are there?",
         "SELECT (COUNT(DISTINCT ?c) AS ?n) WHERE { wd:Q76 wdt:P40 ?c . }"),
    Form("3 how many <P> has X",
         ("How many <P527> does <Q1299> have?", "How many <has part(s)> does [The Beatles] have?",
          "How many <P527:has_part(s)> has <The_Beatles>?", "How many <P527> did <Q1299> have?",
          "How many <P527> <Q1299> had?", "How many <has part(s)> [The Beatles] had?"),
         "How many <P527> of <Q1299> are there?",
         "SELECT (COUNT(DISTINCT ?m) AS ?n) WHERE { wd:Q1299 wdt:P527 ?m . }"),
    Form("3 how many <P> has X",
         ("Which <P26> has <Q76>?", "Which <spouse> has [Barack Obama]?", "Which <P26:spouse> has <Barack_Obama>?"),
         "Which <P26> of <Q76> are there?",
         "SELECT DISTINCT ?s WHERE { wd:Q76 wdt:P26 ?s . }"),

    # 4. plural marks on class and property terms, verbs agreeing
    Form("4 plural marks",
         ("Which <Q11424>-s have <P57> <Q25191>?", "Which <Q11424(s)> have <P57> <Q25191>?",
          "Which <Q11424>s have <P57> <Q25191>?", "Which [film]s have <director> [Christopher Nolan]?",
          "Which <film>-s have <P57:director> <Christopher_Nolan>?"),
         "Which <Q11424> has <P57> <Q25191>?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 . ?f wdt:P57 wd:Q25191 . }"),
    Form("4 plural marks",
         ("Which <Q5>-s have at least 2 <P40>-s?", "Which <Q5(s)> have at least 2 <P40(s)>?",
          "Which [human]s have at least 2 <child>s?", "Which <human>-s have at least 2 <P40:child>-s?"),
         "Which <Q5> has at least 2 <P40>?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 . { SELECT ?h (COUNT(DISTINCT ?c) AS ?n) WHERE { "
         "?h wdt:P40 ?c . } GROUP BY ?h } FILTER(?n >= 2) }"),
    Form("4 plural marks",
         ("Who are the <P40>-s of <Q76>?", "Who are the <child>s of [Barack Obama]?",
          "Who are the <P40:child>-s of <Barack_Obama>?"),
         "What is the <P40> of <Q76>?",
         "SELECT DISTINCT ?c WHERE { wd:Q76 wdt:P40 ?c . }"),

    # 5. superlatives without "the"; comparatives; before/after
    Form("5 superlatives and comparisons",
         ("Which <Q11424> has <P57> <Q25191> and has earliest <P577>?",
          "Which [film] has <director> [Christopher Nolan] and has earliest <publication date>?",
          "Which <film> has <P57:director> <Christopher_Nolan> and has earliest <P577:publication_date>?"),
         "Which <Q11424> has <P57> <Q25191> and has the earliest <P577>?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P57 wd:Q25191 ; wdt:P577 ?d . } ORDER BY ?d LIMIT 1"),
    Form("5 superlatives and comparisons",
         ("Which <Q8502> has 2nd highest <P2044>?", "Which [mountain] has 2nd highest <elevation above sea level>?",
          "Which <mountain> has 2nd highest <P2044:elevation_above_sea_level>?"),
         "Which <Q8502> has the 2nd highest <P2044>?",
         "SELECT DISTINCT ?m WHERE { ?m wdt:P31 wd:Q8502 ; wdt:P2044 ?e . } ORDER BY DESC(?e) OFFSET 1 LIMIT 1"),
    Form("5 superlatives and comparisons",
         ("Which <Q8502> has <P2044> the highest?", "Which [mountain] has <elevation above sea level> the highest?",
          "Which <mountain> has <P2044:elevation_above_sea_level> the highest?",
          "Which <Q8502> has <P2044> the highest thing?"),
         "Which <Q8502> has the highest <P2044>?",
         "SELECT DISTINCT ?m WHERE { ?m wdt:P31 wd:Q8502 ; wdt:P2044 ?e . } ORDER BY DESC(?e) LIMIT 1"),
    Form("5 superlatives and comparisons",
         ("Which <Q5> has a <P569> before 1900 and has a <P570> after 1950?",
          "Which [human] has a <date of birth> before 1900 and has a <date of death> after 1950?",
          "Which <human> has a <P569:date_of_birth> before 1900 and has a <P570:date_of_death> after 1950?",
          "Which <Q5> has a <P569> earlier than 1900 and has a <P570> later than 1950?"),
         # (a comparison before "and" is parenthesized by the printer, as before issue 29)
         "Which <Q5> has <P569> (something that is earlier than 1900) and has a <P570> later than 1950?",
         "PREFIX xsd: <http://www.w3.org/2001/XMLSchema#> SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 ; "
         'wdt:P569 ?b ; wdt:P570 ?d . FILTER(?b < "1900-01-01T00:00:00Z"^^xsd:dateTime) '
         'FILTER(?d >= "1951-01-01T00:00:00Z"^^xsd:dateTime) }'),
    Form("5 superlatives and comparisons",
         ("Which <Q11424> has a <P577> after 2010-05-01?", "Which [film] has a <publication date> after 2010-05-01?",
          "Which <film> has a <P577:publication_date> after 2010-05-01?"),
         "Which <Q11424> has a <P577> later than 2010-05-01?",
         "PREFIX xsd: <http://www.w3.org/2001/XMLSchema#> SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; "
         'wdt:P577 ?d . FILTER(?d > "2010-05-01T00:00:00Z"^^xsd:dateTime) }'),
    Form("5 superlatives and comparisons",
         ("Which <Q11424> has a <P2047> longer than 180?", "Which [film] has a <duration> bigger than 180?",
          "Which <film> has a <P2047:duration> larger than 180?"),
         "Which <Q11424> has a <P2047> greater than 180?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P2047 ?d . FILTER(?d > 180) }"),
    Form("5 superlatives and comparisons",
         ("Which <Q11424> has a <P2047> shorter than 80?", "Which [film] has a <duration> smaller than 80?",
          "Which <film> has a <P2047:duration> shorter than 80?"),
         "Which <Q11424> has a <P2047> less than 80?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P2047 ?d . FILTER(?d < 80) }"),
    Form("5 superlatives and comparisons",
         ("Which <Q8502> has a <P2044> greater than or equal to 8000?",
          "Which [mountain] has a <elevation above sea level> bigger or equal to 8000?",
          "Which <mountain> has a <P2044:elevation_above_sea_level> larger than or equal to 8000?"),
         "Which <Q8502> has a <P2044> greater or equal to 8000?",
         "SELECT DISTINCT ?m WHERE { ?m wdt:P31 wd:Q8502 ; wdt:P2044 ?e . FILTER(?e >= 8000) }"),

    # ... comparisons written as symbols (>=, <, ≥, ≠, =), with "is" or standing for the verb
    Form("5 superlatives and comparisons",
         ("Which <Q5> has <P39> <Q11696> at a <P580> whose year is >= 2003?",
          "Which [human] has <position held> at a <start time> whose year >= 2003 [President of the United States of America]?",
          "Which <human> has <P39:position_held> <President_of_the_United_States_of_America> at a <P580:start_time> whose year ≥ 2003?"),
         "Which <Q5> has <P39> <Q11696> at a <P580> whose year is greater or equal to 2003?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 ; p:P39 ?s . ?s ps:P39 wd:Q11696 ; pq:P580 ?t . "
         "FILTER(YEAR(?t) >= 2003) }"),
    Form("5 superlatives and comparisons",
         ("Which <Q8502> has a <P2044> > 8000?", "Which [mountain] has <elevation above sea level> > 8000?",
          "Which <mountain> has a <P2044:elevation_above_sea_level> > 8000?"),
         "Which <Q8502> has a <P2044> greater than 8000?",
         "SELECT DISTINCT ?m WHERE { ?m wdt:P31 wd:Q8502 ; wdt:P2044 ?e . FILTER(?e > 8000) }"),
    Form("5 superlatives and comparisons",
         ("Which <Q11424> has <P2047> < 80?", "Which [film] has a <duration> < 80?",
          "Which <film> has a <P2047:duration> < 80?"),
         "Which <Q11424> has a <P2047> less than 80?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P2047 ?d . FILTER(?d < 80) }"),
    Form("5 superlatives and comparisons",
         ("Which <Q5> has a <P569> whose year != 1950?", "Which [human] has a <date of birth> whose year ≠ 1950?",
          "Which <human> has a <P569:date_of_birth> whose year is != 1950?"),
         "Which <Q5> has a <P569> whose year is different from 1950?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 ; wdt:P569 ?b . FILTER(YEAR(?b) != 1950) }"),

    # 6. "has not <P>" without an object = "has no <P>"
    Form("6 has not <P>",
         ("Which <Q5> has <P106> <Q33999> and has not <P26>?",
          "Which [human] has <occupation> [actor] and does not have <spouse>?",
          "Which <human> has <P106:occupation> <actor> and has not <P26:spouse>?",
          "Which <Q5> has <P106> <Q33999> and did not have <P26>?"),
         "Which <Q5> has <P106> <Q33999> and has no <P26>?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 ; wdt:P106 wd:Q33999 . FILTER NOT EXISTS { ?h wdt:P26 ?s . } }"),
    Form("6 has not <P>",
         ("Which <Q11424> that has <P57> <Q3772> has not <P166> at <P585> 1995?",
          "Which [film] that has <director> [Quentin Tarantino] has not <award received> at <point in time> 1995?",
          "Which <film> that has <P57:director> <Quentin_Tarantino> has not <P166:award_received> at "
          "<P585:point_in_time> 1995?"),
         "Which <Q11424> that has <P57> <Q3772> has no <P166> at <P585> 1995?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P57 wd:Q3772 . FILTER NOT EXISTS { "
         "?f p:P166 ?s . ?s ps:P166 ?a ; pq:P585 ?t . FILTER(YEAR(?t) = 1995) } }"),

    # 6'. its positive: "has <P>" with no article and no value = "has a <P>"
    Form("6 has <P> without an article",
         ("Which <Q5> has <P106> <Q33999> and has <P26>?",
          "Which [human] has <occupation> [actor] and has <spouse>?",
          "Which <human> has <P106:occupation> <actor> and has <P26:spouse>?",
          "Which <Q5> has <P106> <Q33999> and have <P26>?"),
         "Which <Q5> has <P106> <Q33999> and has a <P26>?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 ; wdt:P106 wd:Q33999 ; wdt:P26 ?s . }"),
    Form("6 has <P> without an article",
         ("Which <Q11424> that has <P2142> has <P57> <Q25191>?",
          "Which [film] that has <box office> has <director> [Christopher Nolan]?",
          "Which <film> that has <P2142:box_office> has <P57:director> <Christopher_Nolan>?"),
         "Which <Q11424> that has a <P2142> has <P57> <Q25191>?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P2142 ?b ; wdt:P57 wd:Q25191 . }"),
    Form("6 has <P> without an article",
         ("Which <Q5> has <P39> at <P580> 2009?",
          "Which [human] has <position held> with <start time> 2009?",
          "Which <human> has <P39:position_held> at <P580:start_time> 2009?"),
         "Which <Q5> has a <P39> at <P580> 2009?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 ; p:P39 ?s . ?s ps:P39 ?o ; pq:P580 ?t . "
         "FILTER(YEAR(?t) = 2009) }"),

    Form("6 has <P> without an article",
         ("Does <Q76> have <P26> at <P580> 1992?",
          "Did [Barack Obama] have <spouse> at <start time> 1992?",
          "Does <Barack_Obama> have <P26:spouse> with <P580:start_time> 1992?"),
         "Has <Q76> a <P26> at <P580> 1992?",
         "ASK { wd:Q76 p:P26 ?s . ?s ps:P26 ?o ; pq:P580 ?t . FILTER(YEAR(?t) = 1992) }"),

    Form("6 has <P> without an article",
         ("Has <Q76> <P570>?", "Has [Barack Obama] <date of death>?", "Has <Barack_Obama> <P570:date_of_death>?"),
         "Has <Q76> a <P570>?",
         "ASK { wd:Q76 wdt:P570 ?d . }"),
    Form("6 has <P> without an article",
         ("Has <Q76> <P26> at <P580> 1992?", "Has [Barack Obama] <spouse> at <start time> 1992?",
          "Has <Barack_Obama> <P26:spouse> with <P580:start_time> 1992?"),
         "Has <Q76> a <P26> at <P580> 1992?",
         "ASK { wd:Q76 p:P26 ?s . ?s ps:P26 ?o ; pq:P580 ?t . FILTER(YEAR(?t) = 1992) }"),

    # "does"/"did" before a property as a verb
    Form("did before a property verb",
         ("Which <Q5> did <P166> <Q103360>?",
          "Which [human] did <award received> [Academy Award for Best Director]?",
          "Which <human> did <P166:award_received> <Academy_Award_for_Best_Director>?"),
         "Which <Q5> has <P166> <Q103360>?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 ; wdt:P166 wd:Q103360 . }"),
    Form("did before a property verb",
         ("Which <Q11424> does <P161> <Q37079>?", "Which [film] do <cast member> [Tom Cruise]?",
          "Which <film> does <P161:cast_member> <Tom_Cruise>?"),
         "Which <Q11424> has <P161> <Q37079>?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P161 wd:Q37079 . }"),

    # "What" before a property and an auxiliary or "of" = "Which"
    Form("What before a property",
         ("What <P40> does <Q76> have?", "What <child> does [Barack Obama] have?",
          "What <P40:child> does <Barack_Obama> have?", "What <P40>-s has <Q76>?"),
         "Which <P40> of <Q76> are there?",
         "SELECT DISTINCT ?c WHERE { wd:Q76 wdt:P40 ?c . }"),
    Form("What before a property",
         ("What <P527> of <Q1299> has a <P570>?", "What <has part(s)> of [The Beatles] has <date of death>?",
          "What <P527:has_part(s)> of <The_Beatles> has a <P570:date_of_death>?"),
         "Which <P527> of <Q1299> has a <P570>?",
         "SELECT DISTINCT ?m WHERE { wd:Q1299 wdt:P527 ?m . ?m wdt:P570 ?d . }"),

    # a qualifier described or compared without its article
    Form("qualifier without an article",
         ("Which <Q5> has <P166> <Q103360> at <P585> whose year is 2000?",
          "Which [human] has <award received> [Academy Award for Best Director] at <point in time> whose year is 2000?",
          "Which <human> has <P166:award_received> <Academy_Award_for_Best_Director> at <P585:point_in_time> "
          "whose year = 2000?"),
         "Which <Q5> has <P166> <Q103360> at a <P585> whose year is 2000?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 ; p:P166 ?s . ?s ps:P166 wd:Q103360 ; pq:P585 ?t . "
         "FILTER(YEAR(?t) = 2000) }"),
    Form("qualifier without an article",
         ("Which <Q5> has <P39> <Q11696> at <P580> later than 2000?",
          "Which [human] has <position held> [President of the United States of America] at <start time> after 2000?",
          "Which <human> has <P39:position_held> <President_of_the_United_States_of_America> at <P580:start_time> "
          "later than 2000?"),
         "Which <Q5> has <P39> <Q11696> at a <P580> later than 2000?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 ; p:P39 ?s . ?s ps:P39 wd:Q11696 ; pq:P580 ?t . "
         'FILTER(?t >= "2001-01-01T00:00:00Z"^^xsd:dateTime) }'),

    # another preposition before a fronted qualifier, "what" for "which"
    Form("in which for at which",
         ("In which <P585> did <Q25191> <P166> <Q103360>?",
          "At what <point in time> did [Christopher Nolan] <award received> [Academy Award for Best Director]?",
          "On which <P585:point_in_time> did <Christopher_Nolan> <P166:award_received> "
          "<Academy_Award_for_Best_Director>?"),
         "At which <P585> does <Q25191> <P166> <Q103360>?",
         "SELECT DISTINCT ?t WHERE { wd:Q25191 p:P166 ?s . ?s ps:P166 wd:Q103360 ; pq:P585 ?t . }"),
    Form("in which for at which",
         ("For which <P1686> did <Q38111> <P166> <Q103916>?",
          "For which <for work> did [Leonardo DiCaprio] <award received> [Academy Award for Best Actor]?",
          "For what <P1686:for_work> did <Leonardo_DiCaprio> have <P166:award_received> <Academy_Award_for_Best_Actor>?"),
         "At which <P1686> does <Q38111> <P166> <Q103916>?",
         "SELECT DISTINCT ?w WHERE { wd:Q38111 p:P166 ?s . ?s ps:P166 wd:Q103916 ; pq:P1686 ?w . }"),

    # a relational noun and its name without "of" (read only where the text does not parse as written)
    Form("relational noun without of",
         ("Which <P527> <Q1299> has a <P570>?", "Which <has part(s)> [The Beatles] has a <date of death>?",
          "Which <P527:has_part(s)> <The_Beatles> has a <P570:date_of_death>?", "Which <P527>-s <Q1299> have a <P570>?"),
         "Which <P527> of <Q1299> has a <P570>?",
         "SELECT DISTINCT ?m WHERE { wd:Q1299 wdt:P527 ?m . ?m wdt:P570 ?d . }"),
    Form("relational noun without of",
         ("Which <P161> <Q25188> is a <P26> of <Q37079>?",
          "Which <cast member> [Inception] is a <spouse> of [Tom Cruise]?",
          "Which <P161:cast_member> <Inception> is a <P26:spouse> of <Tom_Cruise>?"),
         "Which <P161> of <Q25188> is a <P26> of <Q37079>?",
         "SELECT DISTINCT ?c WHERE { wd:Q25188 wdt:P161 ?c . wd:Q37079 wdt:P26 ?c . }"),

    # "has" as the perfect's auxiliary before a fronted object's subject (read only where the
    # text does not parse as written)
    Form("has before a fronted object's subject",
         ("Which <Q618779> has <Q25191> <P166>?", "Which [award] has [Christopher Nolan] <award received>?",
          "Which <award> has <Christopher_Nolan> <P166:award_received>?"),
         "Which <Q618779> is a <P166> of <Q25191>?",
         "SELECT DISTINCT ?a WHERE { ?a wdt:P31 wd:Q618779 . wd:Q25191 wdt:P166 ?a . }"),
    Form("has before a fronted object's subject",
         ("How many <Q11424>-s has <Q3772> <P57>?", "How many [film]-s have [Quentin Tarantino] <director>?",
          "How many <film> has <Quentin_Tarantino> <P57:director>?"),
         "How many <Q11424> is a <P57> of <Q3772>?",
         "SELECT (COUNT(DISTINCT ?f) AS ?n) WHERE { ?f wdt:P31 wd:Q11424 . wd:Q3772 wdt:P57 ?f . }"),

    # a fronted object's verb with qualifiers
    Form("fronted object with qualifiers",
         ("Which <Q618779> did <Q25191> <P166> at <P585> 2000?",
          "Which [award] did [Christopher Nolan] <award received> at <point in time> 2000?",
          "Which <award> <Christopher_Nolan> did <P166:award_received> at <P585:point_in_time> 2000?"),
         "Which <Q618779> is a <P166> at <P585> 2000 of <Q25191>?",
         "SELECT DISTINCT ?a WHERE { ?a wdt:P31 wd:Q618779 . wd:Q25191 p:P166 ?s . ?s ps:P166 ?a ; pq:P585 ?t . "
         "FILTER(YEAR(?t) = 2000) }"),
    Form("fronted object with qualifiers",
         ("How many <Q618779> has <Q25191> <P166> at <P585> 2000?",
          "How many [award] did [Christopher Nolan] <award received> with <point in time> 2000?",
          "How many <award> did <Christopher_Nolan> <P166:award_received> at <P585:point_in_time> 2000?"),
         "How many <Q618779> is a <P166> at <P585> 2000 of <Q25191>?",
         "SELECT (COUNT(DISTINCT ?a) AS ?n) WHERE { ?a wdt:P31 wd:Q618779 . wd:Q25191 p:P166 ?s . ?s ps:P166 ?a ; "
         "pq:P585 ?t . FILTER(YEAR(?t) = 2000) }"),

    # a command's relational noun without "the"
    Form("command without the",
         ("Give me <P527> of <Q1299>.", "List <has part(s)> of [The Beatles].",
          "Show me <P527:has_part(s)> of <The_Beatles>."),
         "Give me the <P527> of <Q1299>.",
         "SELECT DISTINCT ?m WHERE { wd:Q1299 wdt:P527 ?m . }"),
    Form("command without the",
         ("Give me <P166> at <P585> 2000 of <Q25191>.",
          "Find <award received> at <point in time> 2000 of [Christopher Nolan].",
          "Give me <P166:award_received>-s at <P585:point_in_time> 2000 of <Christopher_Nolan>."),
         "Give me the <P166> at <P585> 2000 of <Q25191>.",
         "SELECT DISTINCT ?a WHERE { wd:Q25191 p:P166 ?s . ?s ps:P166 ?a ; pq:P585 ?t . FILTER(YEAR(?t) = 2000) }"),

    # a relational noun without "the" where a noun phrase goes (read only where the text does
    # not parse as written)
    Form("relational noun without the",
         ("Which <Q11424> has <P577> earlier than <P577> of <Q47703>?",
          "Which [film] has <publication date> before <publication date> of [The Godfather]?",
          "Which <film> has a <P577:publication_date> earlier than <P577:publication_date> of <The_Godfather>?"),
         "Which <Q11424> has a <P577> earlier than the <P577> of <Q47703>?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P577 ?d . wd:Q47703 wdt:P577 ?g . FILTER(?d < ?g) }"),
    Form("relational noun without the",
         ("Is <P2048> of <Q29545> greater than <P2048> of <Q36159>?",
          "Is <height> of [Kevin Durant] greater than the <height> of [LeBron James]?",
          "Is the <P2048:height> of <Kevin_Durant> greater than <P2048:height> of <LeBron_James>?"),
         "Is the <P2048> of <Q29545> greater than the <P2048> of <Q36159>?",
         "ASK { wd:Q29545 wdt:P2048 ?a . wd:Q36159 wdt:P2048 ?b . FILTER(?a > ?b) }"),
    Form("relational noun without the",
         ("Who is the <P26> of <P40> of <Q76>?",
          "Who is the <spouse> of <child> of [Barack Obama]?",
          "Who is the <P26:spouse> of <P40:child> of <Barack_Obama>?"),
         "What is the <P26> of (the <P40> of <Q76>)?",
         "SELECT DISTINCT ?s WHERE { wd:Q76 wdt:P40 ?c . ?c wdt:P26 ?s . }"),

    # 7. apposition of a class and a name
    Form("7 apposition",
         ("Which <P527> of the <Q5741069> <Q1299> has a <P570>?",
          "Which <has part(s)> of the [rock band] [The Beatles] has a <date of death>?",
          "Which <P527:has_part(s)> of the <rock_band> <The_Beatles> has a <P570:date_of_death>?"),
         "Which <P527> of (the <Q5741069> that is <Q1299>) has a <P570>?",
         "SELECT DISTINCT ?m WHERE { ?b wdt:P31 wd:Q5741069 ; wdt:P527 ?m . ?m wdt:P570 ?d . VALUES ?b { wd:Q1299 } }"),
    Form("7 apposition",
         ("Who is a <P26> of the <Q5> <Q76>?", "Who is a <spouse> of the [human] [Barack Obama]?",
          "Who is a <P26:spouse> of the <human> <Barack_Obama>?"),
         "What is a <P26> of (the <Q5> that is <Q76>)?",
         "SELECT DISTINCT ?s WHERE { ?h wdt:P31 wd:Q5 ; wdt:P26 ?s . VALUES ?h { wd:Q76 } }"),

    # 8. a qualifier whose value is the counted or asked thing
    Form("8 qualifier value asked",
         ("How many <Q11424> <Q25191> did <P166> <Q103360> at <P1686>?",
          "How many [film] [Christopher Nolan] did <award received> [Academy Award for Best Director] at <for work>?",
          "How many <film> <Christopher_Nolan> did <P166:award_received> <Academy_Award_for_Best_Director> at "
          "<P1686:for_work>?",
          "How many <Q11424> did <Q25191> <P166> <Q103360> at <P1686>?",
          "How many <Q11424> at which <P1686> <Q25191> has <P166> <Q103360>?"),
         "How many <Q11424> at which <P1686> <Q25191> has <P166> <Q103360>?",
         "SELECT (COUNT(DISTINCT ?f) AS ?n) WHERE { ?f wdt:P31 wd:Q11424 . wd:Q25191 p:P166 ?s . "
         "?s ps:P166 wd:Q103360 ; pq:P1686 ?f . }"),
    Form("8 qualifier value asked",
         ("Which <Q11424> <Q38111> did <P166> <Q103916> at <P1686>?",
          "Which [film] did [Leonardo DiCaprio] <award received> [Academy Award for Best Actor] at <for work>?",
          "Which <film> <Leonardo_DiCaprio> did <P166:award_received> <Academy_Award_for_Best_Actor> at "
          "<P1686:for_work>?"),
         "Which <Q11424> at which <P1686> <Q38111> has <P166> <Q103916>?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 . wd:Q38111 p:P166 ?s . ?s ps:P166 wd:Q103916 ; "
         "pq:P1686 ?f . }"),

    # 9. verb phrases joined without "and"
    Form("9 verb phrases without and",
         ("Which <Q5> has <P106> <Q33999> is a <P161> of <Q47703>?",
          "Which [human] has <occupation> [actor] is a <cast member> of [The Godfather]?",
          "Which <human> has <P106:occupation> <actor> is a <P161:cast_member> of <The_Godfather>?"),
         "Which <Q5> has <P106> <Q33999> and is a <P161> of <Q47703>?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 ; wdt:P106 wd:Q33999 . wd:Q47703 wdt:P161 ?h . }"),
    Form("9 verb phrases without and",
         ("Which <Q11424> is-<P57> <Q8877> has <P161> <Q2263> has a <P2047> greater than 150?",
          "Which [film] is-<director> [Steven Spielberg] has <cast member> [Tom Hanks], has a <duration> greater "
          "than 150?",
          "Which <film> is-<P57:director> <Steven_Spielberg> has <P161:cast_member> <Tom_Hanks> has a "
          "<P2047:duration> greater than 150?"),
         "Which <Q11424> has <P57> <Q8877> and has <P161> <Q2263> and has a <P2047> greater than 150?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P57 wd:Q8877 ; wdt:P161 wd:Q2263 ; wdt:P2047 ?d . "
         "FILTER(?d > 150) }"),

    # the same forms where writers drop a word
    Form("5 comparison right after has <P>",
         ("Which <Q8502> has <P2044> bigger than 4000?",
          "Which [mountain] has <elevation above sea level> bigger than 4000?",
          "Which <mountain> has <P2044:elevation_above_sea_level> larger than 4000?"),
         "Which <Q8502> has a <P2044> greater than 4000?",
         "SELECT DISTINCT ?m WHERE { ?m wdt:P31 wd:Q8502 ; wdt:P2044 ?e . FILTER(?e > 4000) }"),
    Form("5 comparison right after has <P>",
         ("Which <Q11424> has <P577> before 2000?", "Which [film] has <publication date> before 2000?",
          "Which <film> has <P577:publication_date> before 2000?"),
         "Which <Q11424> has a <P577> earlier than 2000?",
         'SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P577 ?d . '
         'FILTER(?d < "2000-01-01T00:00:00Z"^^xsd:dateTime) }'),
    Form("6 is not <P> X",
         ("Which <Q5> is not <P19> <Q60>?", "Which [human] is not <place of birth> [New York City]?",
          "Which <human> is not <P19:place_of_birth> <New_York_City>?"),
         "Which <Q5> has not <P19> <Q60>?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 . FILTER NOT EXISTS { ?h wdt:P19 wd:Q60 . } }"),
    Form("6 is not <P> X",
         ("Which <Q11424> has <P57> <Q8877> and is not <P161> <Q2263>?",
          "Which [film] has <director> [Steven Spielberg] and is not <cast member> [Tom Hanks]?",
          "Which <film> has <P57:director> <Steven_Spielberg> and is not <P161:cast_member> <Tom_Hanks>?"),
         "Which <Q11424> has <P57> <Q8877> and has not <P161> <Q2263>?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P57 wd:Q8877 . "
         "FILTER NOT EXISTS { ?f wdt:P161 wd:Q2263 . } }"),
    Form("is <P> of X without 'the'",
         ("Who is <P57> of <Q25188>?", "Who is <director> of [Inception]?", "Who is <P57:director> of <Inception>?"),
         "What is the <P57> of <Q25188>?",
         "SELECT DISTINCT ?d WHERE { wd:Q25188 wdt:P57 ?d . }"),
    Form("is <P> of X without 'the'",
         ("How many <Q5>-s are <P161>-s of <Q47703>?", "How many [human]s are <cast member>s of [The Godfather]?",
          "How many <human>-s are <P161:cast_member>-s of <The_Godfather>?"),
         "How many <Q5> is the <P161> of <Q47703>?",
         "SELECT (COUNT(DISTINCT ?h) AS ?n) WHERE { ?h wdt:P31 wd:Q5 . wd:Q47703 wdt:P161 ?h . }"),
    Form("7 apposition beyond 'of'",
         ("Does the <Q5741069> <Q15862> have <P527> <Q15869>?",
          "Does the [rock band] [Queen] have <has part(s)> [Freddie Mercury]?",
          "Does the <rock_band> <Queen> have <P527:has_part(s)> <Freddie_Mercury>?"),
         "Has the <Q5741069> that is <Q15862> <P527> <Q15869>?",
         "ASK { ?b wdt:P31 wd:Q5741069 ; wdt:P527 wd:Q15869 . VALUES ?b { wd:Q15862 } }"),
    Form("7 apposition beyond 'of'",
         ("Which <Q5> is-<P19> the <Q515> <Q60>?", "Which [human] has <place of birth> the [city] [New York City]?",
          "Which <human> is-<P19:place_of_birth> the <city> <New_York_City>?"),
         "Which <Q5> has <P19> the <Q515> that is <Q60>?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 ; wdt:P19 ?c . ?c wdt:P31 wd:Q515 . VALUES ?c { wd:Q60 } }"),
    Form("several statements under one has",
         ("Which <Q11424> has <P57> <Q25191> and <P161> <Q45772>?",
          "Which [film] has <director> [Christopher Nolan] and <cast member> [Christian Bale]?",
          "Which <film> has <P57:director> <Christopher_Nolan> and <P161:cast_member> <Christian_Bale>?"),
         "Which <Q11424> has <P57> <Q25191> and has <P161> <Q45772>?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 . ?f wdt:P57 wd:Q25191 . ?f wdt:P161 wd:Q45772 . }"),
    Form("several statements under one has",
         ("Which <Q5> has <P26> <Q13133> and <P39> <Q11696> at <P1545> 44?",
          "Which [human] has <spouse> [Michelle Obama] and <position held> [President of the United States of America] "
          "at <series ordinal> 44?",
          "Which <human> has <P26:spouse> <Michelle_Obama> and <P39:position_held> "
          "<President_of_the_United_States_of_America> at <P1545:series_ordinal> 44?"),
         "Which <Q5> has <P26> <Q13133> and has <P39> <Q11696> at <P1545> 44?",
         'SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 ; wdt:P26 wd:Q13133 ; p:P39 ?s . ?s ps:P39 wd:Q11696 ; '
         'pq:P1545 "44" . }'),
    Form("either of several statements under one has",
         ("Which <Q11424> has <P57> <Q25191> or <P161> <Q45772>?",
          "Which [film] has <director> [Christopher Nolan] or <cast member> [Christian Bale]?",
          "Which <film> has <P57:director> <Christopher_Nolan> or <P161:cast_member> <Christian_Bale>?"),
         "Which <Q11424> has <P57> <Q25191> or has <P161> <Q45772>?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 . { ?f wdt:P57 wd:Q25191 } UNION "
         "{ ?f wdt:P161 wd:Q45772 } }"),
    Form("either of several statements under one has",
         ("Which <Q5> has <P26> <Q13133> or <P40> <Q36812> or <P3373> <Q152316>?",
          "Which [human] has <spouse> [Michelle Obama] or <child> [Prince William] or <sibling> [Prince Harry]?",
          "Which <human> has <P26:spouse> <Michelle_Obama> or <P40:child> <Prince_William> or "
          "<P3373:sibling> <Prince_Harry>?"),
         "Which <Q5> has <P26> <Q13133> or has <P40> <Q36812> or has <P3373> <Q152316>?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 . { ?h wdt:P26 wd:Q13133 } UNION { ?h wdt:P40 wd:Q36812 } "
         "UNION { ?h wdt:P3373 wd:Q152316 } }"),
    Form("several statements under one has, each with its determiner",
         ("Which <Q11424> has a <P57> <Q25191> and a <P161> <Q45772>?",
          "Which [film] has a <director> [Christopher Nolan] and a <cast member> [Christian Bale]?",
          "Which <film> has the <P57:director> <Christopher_Nolan> and a <P161:cast_member> <Christian_Bale>?"),
         "Which <Q11424> has <P57> <Q25191> and has <P161> <Q45772>?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 . ?f wdt:P57 wd:Q25191 . ?f wdt:P161 wd:Q45772 . }"),
    Form("several statements under one has, each with its determiner",
         ("Which <Q5> has a <P26> <Q13133> or a <P40> <Q36812>?",
          "Which [human] has a <spouse> [Michelle Obama] or a <child> [Prince William]?",
          "Which <human> has a <P26:spouse> <Michelle_Obama> or a <P40:child> <Prince_William>?"),
         "Which <Q5> has <P26> <Q13133> or has <P40> <Q36812>?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 . { ?h wdt:P26 wd:Q13133 } UNION { ?h wdt:P40 wd:Q36812 } }"),
    # "is a <P> of A and a <Q> of B": two relational noun phrases (it was read as the <P> of A and
    # of a <Q> of B, since an of-phrase takes the coordination after it: "the <P> of A and B")
    Form("relational noun phrases joined",
         ("Which <Q5> is a <P161> of <Q25188> and a <P57> of <Q47703>?",
          "Which [human] is a <cast member> of [Inception] and a <director> of [The Godfather]?",
          "Which <human> is a <P161:cast_member> of <Inception> and a <P57:director> of <The_Godfather>?"),
         "Which <Q5> is (a <P161> of <Q25188>) and a <P57> of <Q47703>?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 . wd:Q25188 wdt:P161 ?h . wd:Q47703 wdt:P57 ?h . }"),
    Form("relational noun phrases joined",
         ("Who is the <P57> of <Q25188> and the <P162> of <Q47703>?",
          "Who is the <director> of [Inception] and the <producer> of [The Godfather]?",
          "Who is the <P57:director> of <Inception> and the <P162:producer> of <The_Godfather>?"),
         "What is (the <P57> of <Q25188>) and the <P162> of <Q47703>?",
         "SELECT DISTINCT ?x WHERE { wd:Q25188 wdt:P57 ?x . wd:Q47703 wdt:P162 ?x . }"),
    Form("what as which",
         ("What <Q11424> has <P57> <Q8877>?", "What [film] has <director> [Steven Spielberg]?",
          "What <film>-s have <P57:director> <Steven_Spielberg>?"),
         "Which <Q11424> has <P57> <Q8877>?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P57 wd:Q8877 . }"),
    Form("what as which",
         ("What <Q5> is a <P161> of <Q47703>?", "What [human] is a <cast member> of [The Godfather]?",
          "What <human> is a <P161:cast_member> of <The_Godfather>?"),
         "Which <Q5> is a <P161> of <Q47703>?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 . wd:Q47703 wdt:P161 ?h . }"),

    # more coordinations: the serial comma, "but", lists without the serial comma
    Form("9 verb phrases joined by a comma and 'and', or 'but'",
         ("Which <Q11424> has <P57> <Q25191>, and has <P161> <Q45772>?",
          "Which [film] has <director> [Christopher Nolan] but has <cast member> [Christian Bale]?",
          "Which <film> has <P57:director> <Christopher_Nolan>, and has <P161:cast_member> <Christian_Bale>?"),
         "Which <Q11424> has <P57> <Q25191> and has <P161> <Q45772>?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 . ?f wdt:P57 wd:Q25191 . ?f wdt:P161 wd:Q45772 . }"),
    Form("9 verb phrases joined by a comma and 'and', or 'but'",
         ("Which <Q11424> has <P57> <Q25191> but does not have <P161> <Q45772>?",
          "Which [film] has <director> [Christopher Nolan], but has not <cast member> [Christian Bale]?",
          "Which <film> has <P57:director> <Christopher_Nolan> but that does not have <P161:cast_member> <Christian_Bale>?"),
         "Which <Q11424> has <P57> <Q25191> and has not <P161> <Q45772>?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 . ?f wdt:P57 wd:Q25191 . "
         "FILTER NOT EXISTS { ?f wdt:P161 wd:Q45772 . } }"),
    Form("a list without the serial comma",
         ("Which <Q5> has <P166> <Q103360>, <Q103916> and <Q618779>?",
          "Which [human] has <award received> [Academy Award for Best Director], [Academy Award for Best Actor] and [award]?",
          "Which <human> has <P166:award_received> <Academy_Award_for_Best_Director>, <Academy_Award_for_Best_Actor> "
          "and <award>?"),
         "Which <Q5> has <P166> <Q103360> and <Q103916> and <Q618779>?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 ; wdt:P166 wd:Q103360, wd:Q103916, wd:Q618779 . }"),

    # more superlatives: "the largest number of <P>" is a count
    Form("5 the largest number of",
         ("Which <Q5> has the largest number of <P166>?", "Which [human] has the greatest number of <award received>?",
          "Which <human> has the highest number of <P166:award_received>?"),
         "Which <Q5> has the most <P166>?",
         "SELECT ?h WHERE { ?h wdt:P31 wd:Q5 ; wdt:P166 ?a . } GROUP BY ?h ORDER BY DESC(COUNT(DISTINCT ?a)) LIMIT 1"),
    Form("5 the largest number of",
         ("Which <Q11424> has the 2nd smallest number of <P161>?",
          "Which [film] has the 2nd fewest number of <cast member>?",
          "Which <film> has the 2nd lowest number of <P161:cast_member>?"),
         "Which <Q11424> has the 2nd least <P161>?",
         "SELECT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P161 ?a . } GROUP BY ?f ORDER BY ASC(COUNT(DISTINCT ?a)) "
         "OFFSET 1 LIMIT 1"),

    # other question words and imperatives
    Form("2 which/when/where is",
         ("Which is the <P569> of <Q76>?", "When is the <date of birth> of [Barack Obama]?",
          "When was the <P569:date_of_birth> of <Barack_Obama>?"),
         "What is the <P569> of <Q76>?",
         "SELECT DISTINCT ?d WHERE { wd:Q76 wdt:P569 ?d . }"),
    Form("2 which/when/where is",
         ("Where is the <P19> of <Q76>?", "Which are the <place of birth> of [Barack Obama]?",
          "Which is the <P19:place_of_birth> of <Barack_Obama>?"),
         "What is the <P19> of <Q76>?",
         "SELECT DISTINCT ?p WHERE { wd:Q76 wdt:P19 ?p . }"),
    Form("imperatives",
         ("List all <Q11424>-s that have <P57> <Q25191>.", "Show me every [film] that has <director> [Christopher Nolan].",
          "Find the <film>-s that have <P57:director> <Christopher_Nolan>."),
         "Give me every <Q11424> that has <P57> <Q25191>.",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P57 wd:Q25191 . }"),
    Form("imperatives",
         ("Return the <P40> of <Q76>.", "Tell me the <child> of [Barack Obama].",
          "Find me the <P40:child> of <Barack_Obama>."),
         "Give me the <P40> of <Q76>.",
         "SELECT DISTINCT ?c WHERE { wd:Q76 wdt:P40 ?c . }"),
    Form("did as does",
         ("Did <Q25191> <P166> <Q103360>?", "Did [Christopher Nolan] have <award received> [Academy Award for Best Director]?",
          "Did <Christopher_Nolan> <P166:award_received> <Academy_Award_for_Best_Director>?"),
         "Has <Q25191> <P166> <Q103360>?",
         "ASK { wd:Q25191 wdt:P166 wd:Q103360 . }"),
    Form("4 a plural class without a determiner",
         ("What is the total <P2142> of <Q11424>-s that have <P57> <Q25191>?",
          "What is the total <box office> of [film]s that have <director> [Christopher Nolan]?",
          "What is the total <P2142:box_office> of <film>-s that have <P57:director> <Christopher_Nolan>?"),
         "What is the total <P2142> of the <Q11424> that has <P57> <Q25191>?",
         "SELECT (SUM(?b) AS ?total) WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P57 wd:Q25191 ; wdt:P2142 ?b . }"),
    Form("4 a plural class without a determiner",
         ("Which <Q5> has <P166> <Q618779>-s that have <P1686> <Q25188>?",
          "Which [human] has <award received> [award]s that have <for work> [Inception]?",
          "Which <human> has <P166:award_received> <award>-s that have <P1686:for_work> <Inception>?"),
         "Which <Q5> has <P166> the <Q618779> that has <P1686> <Q25188>?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 ; wdt:P166 ?a . ?a wdt:P31 wd:Q618779 ; wdt:P1686 wd:Q25188 . }"),

    # beyond the nine: a fronted object in English word order ("Which <C> did X <P>?")
    Form("fronted object, English word order",
         ("Which <Q618779> did <Q38111> <P166>?", "Which [award] did [Leonardo DiCaprio] <award received>?",
          "Which <award> did <Leonardo_DiCaprio> <P166:award_received>?", "Which <Q618779> <Q38111> did <P166>?"),
         "Which <Q618779> is a <P166> of <Q38111>?",
         "SELECT DISTINCT ?a WHERE { ?a wdt:P31 wd:Q618779 . wd:Q38111 wdt:P166 ?a . }"),
    Form("fronted object, English word order",
         ("How many <Q11424> does <Q2263> <P161>?", "How many [film] does [Tom Hanks] <cast member>?",
          "How many <film> does <Tom_Hanks> <P161:cast_member>?"),
         "How many <Q11424> is a <P161> of <Q2263>?",
         "SELECT (COUNT(DISTINCT ?f) AS ?n) WHERE { ?f wdt:P31 wd:Q11424 . wd:Q2263 wdt:P161 ?f . }"),
    # "over"/"above" (greater than), "under"/"below" (less than) before a value
    Form("over, above, under, below",
         ("Which <Q8502> has a <P2044> over 8000?", "Which [mountain] has an <elevation above sea level> above 8000?",
          "Which <mountain> has a <P2044:elevation_above_sea_level> over 8000?"),
         "Which <Q8502> has a <P2044> greater than 8000?",
         "SELECT DISTINCT ?m WHERE { ?m wdt:P31 wd:Q8502 ; wdt:P2044 ?e . FILTER(?e > 8000) }"),
    Form("over, above, under, below",
         ("Which <Q11424> has <P57> <Q25191> and has a <P2047> under 120?",
          "Which [film] has <director> [Christopher Nolan] and has a <duration> below 120?",
          "Which <film> has <P57:director> <Christopher_Nolan> and has a <P2047:duration> under 120?"),
         "Which <Q11424> has <P57> <Q25191> and has a <P2047> less than 120?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P57 wd:Q25191 ; wdt:P2047 ?d . FILTER(?d < 120) }"),
    # contractions: "doesn't", "isn't", "hasn't", "didn't" are the auxiliary and "not"
    Form("contracted not",
         ("Which <Q11424> has <P161> <Q2263> and doesn't have <P57> <Q8877>?",
          "Which [film] has <cast member> [Tom Hanks] and doesn't have <director> [Steven Spielberg]?",
          "Which <film> has <P161:cast_member> <Tom_Hanks> and doesn't have <P57:director> <Steven_Spielberg>?"),
         "Which <Q11424> has <P161> <Q2263> and has not <P57> <Q8877>?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P161 wd:Q2263 . "
         "FILTER NOT EXISTS { ?f wdt:P57 wd:Q8877 } }"),
    Form("contracted not",
         ("Which <Q5> hasn't a <P570> and isn't a <P161> of <Q25188>?",
          "Which [human] hasn't a <date of death> and isn't a <cast member> of [Inception]?",
          "Which <human> hasn't a <P570:date_of_death> and isn't a <P161:cast_member> of <Inception>?"),
         "Which <Q5> has not a <P570> and is not a <P161> of <Q25188>?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 . FILTER NOT EXISTS { ?h wdt:P570 ?d } "
         "FILTER NOT EXISTS { wd:Q25188 wdt:P161 ?h } }"),
    # "and not <P> X", "but not <P> X": "has" left out after "and not"
    Form("and not, has left out",
         ("Which <Q11424> has <P161> <Q2263> but not <P57> <Q8877>?",
          "Which [film] has <cast member> [Tom Hanks] and not <director> [Steven Spielberg]?",
          "Which <film> has <P161:cast_member> <Tom_Hanks>, but not <P57:director> <Steven_Spielberg>?"),
         "Which <Q11424> has <P161> <Q2263> and has not <P57> <Q8877>?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P161 wd:Q2263 . "
         "FILTER NOT EXISTS { ?f wdt:P57 wd:Q8877 } }"),
    Form("and not, has left out",
         ("Which <Q5> that has <P106> <Q33999> and not <P166> <Q103916> has the highest <P2044>?",
          "Which [human] that has <occupation> [actor] but not <award received> [Academy Award for Best Actor] "
          "has the highest <elevation above sea level>?",
          "Which <human> that has <P106:occupation> <actor> and not <P166:award_received> "
          "<Academy_Award_for_Best_Actor> has the highest <P2044:elevation_above_sea_level>?"),
         "Which <Q5> that has <P106> <Q33999> and has not <P166> <Q103916> has the highest <P2044>?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 ; wdt:P106 wd:Q33999 ; wdt:P2044 ?e . "
         "FILTER NOT EXISTS { ?h wdt:P166 wd:Q103916 } } ORDER BY DESC(?e) LIMIT 1"),
    # "at least N" / "at most N" a number ending the phrase: a comparison (before a noun: a count)
    Form("at least, at most a value",
         ("Which <Q8502> has a <P2044> at least 8000?", "Which [mountain] has an <elevation above sea level> at least 8000?",
          "Which <mountain> has a <P2044:elevation_above_sea_level> at least 8000?"),
         "Which <Q8502> has a <P2044> greater or equal to 8000?",
         "SELECT DISTINCT ?m WHERE { ?m wdt:P31 wd:Q8502 ; wdt:P2044 ?e . FILTER(?e >= 8000) }"),
    Form("at least, at most a value",
         ("Which <Q11424> has a <P2047> at most 90 and has <P57> <Q25191>?",
          "Which [film] has a <duration> at most 90 and has <director> [Christopher Nolan]?",
          "Which <film> has a <P2047:duration> at most 90 and has <P57:director> <Christopher_Nolan>?"),
         "Which <Q11424> has <P2047> (something that is less or equal to 90) and has <P57> <Q25191>?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P2047 ?d ; wdt:P57 wd:Q25191 . FILTER(?d <= 90) }"),
    # "with" after a noun as "that has", before a superlative or a compared value
    Form("with a superlative or a compared value",
         ("Give me the <Q515> with the highest <P1082>.", "Give me the [city] with the highest <population>.",
          "Give me the <city> with the highest <P1082:population>."),
         "Give me the <Q515> that has the highest <P1082>.",
         "SELECT DISTINCT ?c WHERE { ?c wdt:P31 wd:Q515 ; wdt:P1082 ?p . } ORDER BY DESC(?p) LIMIT 1"),
    Form("with a superlative or a compared value",
         ("Which <Q11424> with a <P2047> greater than 150 has <P57> <Q25191>?",
          "Which [film] with a <duration> greater than 150 has <director> [Christopher Nolan]?",
          "Which <film> with a <P2047:duration> greater than 150 has <P57:director> <Christopher_Nolan>?"),
         "Which <Q11424> whose <P2047> is greater than 150 has <P57> <Q25191>?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P2047 ?d ; wdt:P57 wd:Q25191 . FILTER(?d > 150) }"),
    # "of" before a compared value: "a population of more than ..."
    Form("of before a compared value",
         ("Which <Q515> has a <P1082> of more than 1000000?", "Which [city] has a <population> of more than 1000000?",
          "Which <city> has a <P1082:population> of more than 1000000?"),
         "Which <Q515> has a <P1082> greater than 1000000?",
         "SELECT DISTINCT ?c WHERE { ?c wdt:P31 wd:Q515 ; wdt:P1082 ?p . FILTER(?p > 1000000) }"),
    Form("of before a compared value",
         ("Which <Q11424> with a <P2047> of at least 120 has <P57> <Q25191>?",
          "Which [film] with a <duration> of at least 120 has <director> [Christopher Nolan]?",
          "Which <film> with a <P2047:duration> of at least 120 has <P57:director> <Christopher_Nolan>?"),
         "Which <Q11424> whose <P2047> is greater or equal to 120 has <P57> <Q25191>?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P2047 ?d ; wdt:P57 wd:Q25191 . FILTER(?d >= 120) }"),
    # a possessive: "X's <P>" = "the <P> of X"
    Form("possessive",
         ("Which <Q5> is <Q76>'s <P40>?", "Which [human] is [Barack Obama]'s <child>?",
          "Which <human> is <Barack_Obama>'s <P40:child>?"),
         "Which <Q5> is the <P40> of <Q76>?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 . wd:Q76 wdt:P40 ?h . }"),
    Form("possessive",
         ("Give me <Q76>'s <P26>'s <P569>.", "Give me [Barack Obama]'s <spouse>'s <date of birth>.",
          "Give me <Barack_Obama>'s <P26:spouse>'s <P569:date_of_birth>."),
         "Give me the <P569> of (the <P26> of <Q76>).",
         "SELECT DISTINCT ?d WHERE { wd:Q76 wdt:P26 ?s . ?s wdt:P569 ?d . }"),
    # "What's", "Who's": the question word and "is"
    Form("what's, who's",
         ("What's the <P26> of <Q76>?", "What's the <spouse> of [Barack Obama]?",
          "What's the <P26:spouse> of <Barack_Obama>?"),
         "What is the <P26> of <Q76>?",
         "SELECT DISTINCT ?s WHERE { wd:Q76 wdt:P26 ?s . }"),
    Form("what's, who's",
         ("Who's the <P57> of <Q25188>?", "Who's the <director> of [Inception]?",
          "Who's the <P57:director> of <Inception>?"),
         "What is the <P57> of <Q25188>?",
         "SELECT DISTINCT ?d WHERE { wd:Q25188 wdt:P57 ?d . }"),
    # "Are there <C>-s that ...?" (and "Is there a <C> who ...?"): whether such a thing exists, which
    # the printer writes "Is there a <C> that ...?"
    Form("is there, are there",
         ("Is there a <Q5> who has <P19> <Q60> and has <P106> <Q33999>?",
          "Is there a [human] who has <place of birth> [New York City] and has <occupation> [actor]?",
          "Are there <human>-s that have <P19:place_of_birth> <New_York_City> and have <P106:occupation> <actor>?"),
         "Is there a <Q5> that has <P19> <Q60> and has <P106> <Q33999>?",
         "ASK { ?h wdt:P31 wd:Q5 ; wdt:P19 wd:Q60 ; wdt:P106 wd:Q33999 . }"),
    Form("is there, are there",
         ("Are there <Q11424>-s that have <P57> <Q25191> and have <P161> <Q45772>?",
          "Are there [film]-s that have <director> [Christopher Nolan] and have <cast member> [Christian Bale]?",
          "Are there <film>-s that have <P57:director> <Christopher_Nolan> and have <P161:cast_member> <Christian_Bale>?"),
         "Is there a <Q11424> that has <P57> <Q25191> and has <P161> <Q45772>?",
         "ASK { ?f wdt:P31 wd:Q11424 ; wdt:P57 wd:Q25191 ; wdt:P161 wd:Q45772 . }"),
    # ... and the class without its plural mark before a clause (a name takes no clause there)
    Form("is there, are there",
         ("Are there <Q5> that have <P19> <Q60> and have <P106> <Q33999>?",
          "Are there [human] who have <place of birth> [New York City] and have <occupation> [actor]?",
          "Is there <human> that has <P19:place_of_birth> <New_York_City> and has <P106:occupation> <actor>?"),
         "Is there a <Q5> that has <P19> <Q60> and has <P106> <Q33999>?",
         "ASK { ?h wdt:P31 wd:Q5 ; wdt:P19 wd:Q60 ; wdt:P106 wd:Q33999 . }"),
    Form("is there, are there",
         ("Are there <Q11424> that have <P57> <Q25191>?",
          "Are there [film] that have <director> [Christopher Nolan]?",
          "Are there <film> which have <P57:director> <Christopher_Nolan>?"),
         "Is there a <Q11424> that has <P57> <Q25191>?",
         "ASK { ?f wdt:P31 wd:Q11424 ; wdt:P57 wd:Q25191 . }"),
    # "Count the <C> that ..." = "How many <C> ...?"
    Form("count",
         ("Count the <Q11424> that have <P57> <Q25191>.", "Count the [film]-s that have <director> [Christopher Nolan].",
          "Count all <film>-s that have <P57:director> <Christopher_Nolan>."),
         "How many <Q11424> has <P57> <Q25191>?",
         "SELECT (COUNT(DISTINCT ?f) AS ?n) WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P57 wd:Q25191 . }"),
    Form("count",
         ("Count the <P40> of <Q76>.", "Count the <child> of [Barack Obama].", "Count the <P40:child> of <Barack_Obama>."),
         "How many <P40> of <Q76> are there?",
         "SELECT (COUNT(DISTINCT ?c) AS ?n) WHERE { wd:Q76 wdt:P40 ?c . }"),
    # "both" before a coordination: the coordination itself
    Form("both ... and",
         ("Which <Q5> has both <P106> <Q33999> and <P166> <Q103916>?",
          "Which [human] has both <occupation> [actor] and <award received> [Academy Award for Best Actor]?",
          "Which <human> has both <P106:occupation> <actor> and <P166:award_received> <Academy_Award_for_Best_Actor>?"),
         "Which <Q5> has <P106> <Q33999> and has <P166> <Q103916>?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 ; wdt:P106 wd:Q33999 ; wdt:P166 wd:Q103916 . }"),
    Form("both ... and",
         ("Which <Q5> is a <P161> of both <Q47703> and <Q172241>?",
          "Which [human] is a <cast member> of both [The Godfather] and [The Shawshank Redemption]?",
          "Which <human> is a <P161:cast_member> of both <The_Godfather> and <The_Shawshank_Redemption>?"),
         "Which <Q5> is a <P161> of <Q47703> and <Q172241>?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 . wd:Q47703 wdt:P161 ?h . wd:Q172241 wdt:P161 ?h . }"),
    # "neither A nor B" = "not A and not B"
    Form("neither ... nor",
         ("Which <Q11424> has neither <P57> <Q25191> nor <P161> <Q45772>?",
          "Which [film] has neither <director> [Christopher Nolan] nor <cast member> [Christian Bale]?",
          "Which <film> has neither <P57:director> <Christopher_Nolan> nor <P161:cast_member> <Christian_Bale>?"),
         "Which <Q11424> has not <P57> <Q25191> and has not <P161> <Q45772>?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 . FILTER NOT EXISTS { ?f wdt:P57 wd:Q25191 } "
         "FILTER NOT EXISTS { ?f wdt:P161 wd:Q45772 } }"),
    Form("neither ... nor",
         ("Which <Q5> has <P106> <Q33999> and has neither a <P40> nor a <P26>?",
          "Which [human] has <occupation> [actor] and has neither a <child> nor a <spouse>?",
          "Which <human> has <P106:occupation> <actor> and has neither a <P40:child> nor a <P26:spouse>?"),
         "Which <Q5> has <P106> <Q33999> and has not a <P40> and has not a <P26>?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 ; wdt:P106 wd:Q33999 . FILTER NOT EXISTS { ?h wdt:P40 ?c } "
         "FILTER NOT EXISTS { ?h wdt:P26 ?s } }"),
    # a property as a verb before a compared value: "was <publication date> after 2010"
    Form("a property as a verb before a compared value",
         ("Which <Q11424> has <P57> <Q25191> and was <P577> after 2010?",
          "Which [film] has <director> [Christopher Nolan] and was <publication date> after 2010?",
          "Which <film> has <P57:director> <Christopher_Nolan> and was <P577:publication_date> after 2010?"),
         "Which <Q11424> has <P57> <Q25191> and has a <P577> later than 2010?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P57 wd:Q25191 ; wdt:P577 ?d . "
         "FILTER(?d >= \"2011-01-01T00:00:00Z\"^^xsd:dateTime) }"),
    Form("a property as a verb before a compared value",
         ("Which <Q11424> that is <P577> before 2000 has <P161> <Q2263>?",
          "Which [film] that is <publication date> before 2000 has <cast member> [Tom Hanks]?",
          "Which <film> that is <P577:publication_date> before 2000 has <P161:cast_member> <Tom_Hanks>?"),
         "Which <Q11424> whose <P577> is earlier than 2000 has <P161> <Q2263>?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P577 ?d ; wdt:P161 wd:Q2263 . "
         "FILTER(?d < \"2000-01-01T00:00:00Z\"^^xsd:dateTime) }"),
    # names in a row after a property: each its value ("and")
    Form("names in a row",
         ("Which <Q11424> has a <P57> <Q25191> <Q8877>?",
          "Which [film] has a <director> [Christopher Nolan] [Steven Spielberg]?",
          "Which <film>-s have a <P57:director> <Christopher_Nolan> <Steven_Spielberg>?"),
         "Which <Q11424> has <P57> <Q25191> and <Q8877>?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P57 wd:Q25191 ; wdt:P57 wd:Q8877 . }"),
    Form("names in a row",
         ("Which <Q11424> has <P161> <Q2263> <Q45772> <Q38111>?",
          "Which [film] is-<cast member> [Tom Hanks] [Christian Bale] [Leonardo DiCaprio]?",
          "Which <film> <P161:cast_member> <Tom_Hanks> <Christian_Bale> <Leonardo_DiCaprio>?"),
         "Which <Q11424> has <P161> <Q2263> and <Q45772> and <Q38111>?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P161 wd:Q2263 , wd:Q45772 , wd:Q38111 . }"),
    # a property's label without brackets between "has" and a name
    Form("a bare property label",
         ("Which <Q8502> that has <P30> <Q48> has the highest <P2044>?",
          "Which [mountain] that has continent [Asia] has the highest <elevation above sea level>?",
          "Which <mountain> that has continent <Asia> has the highest <P2044:elevation_above_sea_level>?"),
         "Which <Q8502> that has <P30> <Q48> has the highest <P2044>?",
         "SELECT DISTINCT ?m WHERE { ?m wdt:P31 wd:Q8502 ; wdt:P30 wd:Q48 ; wdt:P2044 ?e . } ORDER BY DESC(?e) LIMIT 1"),
    Form("a bare property label",
         ("Which <Q11424> has <P57> <Q25191> and has <P161> <Q45772>?",
          "Which [film] has director [Christopher Nolan] and has cast member [Christian Bale]?",
          "Which <film> has director <Christopher_Nolan> and has cast member <Christian_Bale>?"),
         "Which <Q11424> has <P57> <Q25191> and has <P161> <Q45772>?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P57 wd:Q25191 ; wdt:P161 wd:Q45772 . }"),
    # Ferré's own forms (the squall2sparql examples): "-es", "X has how many <P>-s?", a
    # comparative before the property, "the same <P> as X", "be-<P>" and "whom", and a question
    # word before a qualifier (the BridgeKGLM paper's model output)
    Form("-es plural",
         ("Give me all <Q515>-es that have <P30> <Q48>.", "Give me all [city]-es that have <continent> [Asia].",
          "Give me all <city>es that have <P30:continent> <Asia>."),
         "Give me every <Q515> that has <P30> <Q48>.",
         "SELECT DISTINCT ?c WHERE { ?c wdt:P31 wd:Q515 ; wdt:P30 wd:Q48 . }"),
    Form("-es plural",
         ("What are the <P40>-es of <Q76>?", "What are the <child>es of [Barack Obama]?",
          "What are the <P40:child>-es of <Barack_Obama>?"),
         "What is the <P40> of <Q76>?",
         "SELECT DISTINCT ?c WHERE { wd:Q76 wdt:P40 ?c . }"),
    Form("has how many",
         ("<Q76> has how many <P40>-s?", "[Barack Obama] has how many <child>-s?",
          "<Barack_Obama> has how many <P40:child>s?"),
         "<Q76> has how many <P40>?",
         "SELECT (COUNT(DISTINCT ?c) AS ?n) WHERE { wd:Q76 wdt:P40 ?c . }"),
    Form("has how many",
         ("Which <Q11424> has how many <P161>-s?", "Which [film] has how many <cast member>-s?",
          "Which <film> has how many <P161:cast_member>s?"),
         "Which <Q11424> has how many <P161>?",
         "SELECT ?f (COUNT(DISTINCT ?a) AS ?n) WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P161 ?a . } GROUP BY ?f"),
    Form("a comparative before the property",
         ("Which <Q8502> has a greater <P2044> than <Q43512>?",
          "Which [mountain] has a greater <elevation above sea level> than [K2]?",
          "Which <mountain> has a greater <P2044:elevation_above_sea_level> than <K2>?"),
         "Which <Q8502> has a <P2044> greater than the <P2044> of <Q43512>?",
         "SELECT DISTINCT ?m WHERE { ?m wdt:P31 wd:Q8502 ; wdt:P2044 ?e . wd:Q43512 wdt:P2044 ?k . FILTER(?e > ?k) }"),
    Form("a comparative before the property",
         ("Does <Q76> have an earlier <P569> than <Q13133>?",
          "Does [Barack Obama] have an earlier <date of birth> than [Michelle Obama]?",
          "Does <Barack_Obama> have an earlier <P569:date_of_birth> than <Michelle_Obama>?"),
         "Has <Q76> a <P569> earlier than the <P569> of <Q13133>?",
         "ASK { wd:Q76 wdt:P569 ?a . wd:Q13133 wdt:P569 ?b . FILTER(?a < ?b) }"),
    Form("the same as",
         ("Does <Q152316> have the same <P25> as <Q36812>?",
          "Does [Prince Harry] have the same <mother> as [Prince William]?",
          "Does <Prince_Harry> have the same <P25:mother> as <Prince_William>?"),
         "Has <Q152316> a <P25> that is the <P25> of <Q36812>?",
         "ASK { wd:Q152316 wdt:P25 ?m . wd:Q36812 wdt:P25 ?m . }"),
    Form("the same as",
         ("Which <Q5> has the same <P20> as <P19>?", "Which [human] has the same <place of death> as <place of birth>?",
          "Which <human> has the same <P20:place_of_death> as <P19:place_of_birth>?"),
         "Which <Q5> has a <P20> that is its <P19>?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 ; wdt:P20 ?d ; wdt:P19 ?b . FILTER(?d = ?b) }"),
    Form("be- and whom",
         ("Whom does <Q76> be-<P26>?", "Whom does [Barack Obama] be-<spouse>?",
          "Whom does <Barack_Obama> be-<P26:spouse>?"),
         "What is a <P26> of <Q76>?",
         "SELECT DISTINCT ?s WHERE { wd:Q76 wdt:P26 ?s . }"),
    Form("be- and whom",
         ("Does <Q76> be-<P26> <Q13133>?", "Does [Barack Obama] be-<spouse> [Michelle Obama]?",
          "Does <Barack_Obama> be-<P26:spouse> <Michelle_Obama>?"),
         "Has <Q76> <P26> <Q13133>?",
         "ASK { wd:Q76 wdt:P26 wd:Q13133 . }"),
    Form("which qualifier",
         ("which <P585> <Q25191> has <P166> <Q103360>?",
          "which <point in time> [Christopher Nolan] has <award received> [Academy Award for Best Director]?",
          "which <P585:point_in_time> <Christopher_Nolan> has <P166:award_received> "
          "<Academy_Award_for_Best_Director>?"),
         "At which <P585> does <Q25191> <P166> <Q103360>?",
         "SELECT DISTINCT ?t WHERE { wd:Q25191 p:P166 ?s . ?s ps:P166 wd:Q103360 ; pq:P585 ?t . }"),
    Form("which qualifier",
         ("Which earliest <P580> <Q76> did <P39> <Q11696>?",
          "Which earliest <start time> [Barack Obama] did <position held> [President of the United States of America]?",
          "Which earliest <P580:start_time> <Barack_Obama> did <P39:position_held> "
          "<President_of_the_United_States_of_America>?"),
         "At which earliest <P580> does <Q76> <P39> <Q11696>?",
         "SELECT DISTINCT ?t WHERE { wd:Q76 p:P39 ?s . ?s ps:P39 wd:Q11696 ; pq:P580 ?t . } ORDER BY ?t LIMIT 1"),
    Form("shares with",
         ("Which <Q6256> shares a <P47> with <Q142>?", "Which [country] shares a <shares border with> with [France]?",
          "Which <country> shares a <P47:shares_border_with> with <France>?"),
         "Which <Q6256> has a <P47> that is a <P47> of <Q142>?",
         "SELECT DISTINCT ?c WHERE { ?c wdt:P31 wd:Q6256 ; wdt:P47 ?n . wd:Q142 wdt:P47 ?n . }"),
    Form("shares with",
         ("Does <Q183> share a <P47> with <Q142>?", "Does [Germany] share the <shares border with> with [France]?",
          "Does <Germany> share a <P47:shares_border_with> with <France>?"),
         "Has <Q183> a <P47> that is a <P47> of <Q142>?",
         "ASK { wd:Q183 wdt:P47 ?n . wd:Q142 wdt:P47 ?n . }"),
    Form("properties joined by and",
         ("Which <Q11424>-s have <P161> and <P57> <Q25191>?",
          "Which [film]-s have <cast member> and <director> [Christopher Nolan]?",
          "Which <film>-s have <P161:cast_member> and <P57:director> <Christopher_Nolan>?"),
         "Which <Q11424> has <P161> <Q25191> and has <P57> <Q25191>?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P161 wd:Q25191 ; wdt:P57 wd:Q25191 . }"),
    Form("properties joined by and",
         ("Which <Q11424> whose <P57> and <P162> is <Q25191> has <P161> <Q45772>?",
          "Which [film] whose <director> and <producer> is [Christopher Nolan] has <cast member> [Christian Bale]?",
          "Which <film> whose <P57:director> and <P162:producer> is <Christopher_Nolan> has <P161:cast_member> "
          "<Christian_Bale>?"),
         "Which <Q11424> that has <P57> (something that is <Q25191>) and has a <P162> that is <Q25191> has <P161> "
         "<Q45772>?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P57 wd:Q25191 ; wdt:P162 wd:Q25191 ; "
         "wdt:P161 wd:Q45772 . }"),
    Form("per",
         ("What is the number of <Q5>-s per <P27>?", "What is the number of [human]-s per <country of citizenship>?",
          "What is the number of <human>-s per <P27:country_of_citizenship>?"),
         "What is the number of <Q5> that has which <P27>?",
         "SELECT ?c (COUNT(DISTINCT ?h) AS ?n) WHERE { ?h wdt:P31 wd:Q5 ; wdt:P27 ?c . } GROUP BY ?c"),
    Form("per",
         ("Give me the number of <Q11424>-s that have <P57> <Q25191> per <P577>.",
          "Give me the number of [film]-s that have <director> [Christopher Nolan] per <publication date>.",
          "Give me the number of <film>-s that have <P57:director> <Christopher_Nolan> per <P577:publication_date>."),
         "Give me the number of <Q11424> that has <P57> <Q25191> and that has which <P577>.",
         "SELECT ?d (COUNT(DISTINCT ?f) AS ?n) WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P57 wd:Q25191 ; wdt:P577 ?d . } "
         "GROUP BY ?d"),
    Form("whether",
         ("Whether <Q76> has a <P26> that has <P108> <Q95>?", "Whether [Barack Obama] has a <spouse> that has "
          "<employer> [Google]?", "Whether <Barack_Obama> has a <P26:spouse> that has <P108:employer> <Google>?"),
         "Has <Q76> a <P26> that has <P108> <Q95>?",
         "ASK { wd:Q76 wdt:P26 ?s . ?s wdt:P108 wd:Q95 . }"),
    Form("whether",
         ("Whether <Q8502> is a <P31> of <Q513>?", "Whether [mountain] is a <instance of> of [Mount Everest]?",
          "Whether <mountain> is a <P31:instance_of> of <Mount_Everest>?"),
         "Is <Q8502> a <P31> of <Q513>?",
         "ASK { wd:Q513 wdt:P31 wd:Q8502 . }"),
    # more English words for what the CNL says already
    Form("passive by",
         ("Which <Q11424> was <P57> by <Q25191>?", "Which [film] was <director> by [Christopher Nolan]?",
          "Which <film> was <P57:director> by <Christopher_Nolan>?"),
         "Which <Q11424> has <P57> <Q25191>?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P57 wd:Q25191 . }"),
    Form("passive by",
         ("Which <Q11424> that is <P57> by <Q25191> has <P161> <Q45772>?",
          "Which [film] that is <director> by [Christopher Nolan] has <cast member> [Christian Bale]?",
          "Which <film> that is <P57:director> by <Christopher_Nolan> has <P161:cast_member> <Christian_Bale>?"),
         "Which <Q11424> that has <P57> <Q25191> has <P161> <Q45772>?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P57 wd:Q25191 ; wdt:P161 wd:Q45772 . }"),
    Form("with a, without a",
         ("Give me every <Q11424> with a <P57> that has <P166> <Q103360>.",
          "Give me every [film] with a <director> that has <award received> [Academy Award for Best Director].",
          "Give me every <film> with a <P57:director> that has <P166:award_received> "
          "<Academy_Award_for_Best_Director>."),
         "Give me every <Q11424> whose <P57> has <P166> <Q103360>.",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P57 ?d . ?d wdt:P166 wd:Q103360 . }"),
    Form("with a, without a",
         ("Which <Q5> without a <P40> has <P19> <Q60>?", "Which [human] without <child> has <place of birth> "
          "[New York City]?", "Which <human> without a <P40:child> has <P19:place_of_birth> <New_York_City>?"),
         "Which <Q5> that has not a <P40> has <P19> <Q60>?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 ; wdt:P19 wd:Q60 . FILTER NOT EXISTS { ?h wdt:P40 ?c } }"),
    Form("each, their",
         ("Give me the <P36> of each <Q6256> that has <P30> <Q48>.",
          "Give me the <capital> of each [country] that has <continent> [Asia].",
          "Give me the <P36:capital> of each <country> that has <P30:continent> <Asia>."),
         "Give me the <P36> of (every <Q6256> that has <P30> <Q48>).",
         "SELECT DISTINCT ?c WHERE { ?x wdt:P31 wd:Q6256 ; wdt:P30 wd:Q48 ; wdt:P36 ?c . }"),
    Form("each, their",
         ("Which <Q5> has a <P20> that is their <P19>?", "Which [human] has a <place of death> that is their "
          "<place of birth>?", "Which <human> has a <P20:place_of_death> that is their <P19:place_of_birth>?"),
         "Which <Q5> has a <P20> that is its <P19>?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 ; wdt:P20 ?d ; wdt:P19 ?b . FILTER(?d = ?b) }"),
    Form("and maybe has",
         ("Which <Q5> has <P19> <Q60> and maybe has a <P26>?",
          "Which [human] has <place of birth> [New York City] and maybe has a <spouse>?",
          "Which <human> has <P19:place_of_birth> <New_York_City> and maybe has a <P26:spouse>?"),
         "Which <Q5> has <P19> <Q60> and has maybe a <P26>?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 ; wdt:P19 wd:Q60 . OPTIONAL { ?h wdt:P26 ?s } }"),
    Form("and maybe has",
         ("Which <Q11424> has <P57> <Q25191> and maybe has <P2142>?",
          "Which [film] has <director> [Christopher Nolan] and maybe has <box office>?",
          "Which <film> has <P57:director> <Christopher_Nolan> and maybe has <P2142:box_office>?"),
         "Which <Q11424> has <P57> <Q25191> and has maybe a <P2142>?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P57 wd:Q25191 . OPTIONAL { ?f wdt:P2142 ?b } }"),
    Form("the N with the highest",
         ("Give me the 10 <Q11424>-s with the highest <P2142>.",
          "Give me the 10 [film]-s with the highest <box office>.",
          "Give me the 10 <film>s with the highest <P2142:box_office>."),
         "Give me the <Q11424> that has the 10 highest <P2142>.",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P2142 ?b . } ORDER BY DESC(?b) LIMIT 10"),
    Form("the N with the highest",
         ("What are the 5 <Q515>-s that have <P30> <Q48> and have the highest <P1082>?",
          "What are the 5 [city]-s that have <continent> [Asia] and have the highest <population>?",
          "What are the 5 <city>-s that have <P30:continent> <Asia> and have the highest <P1082:population>?"),
         "What is the <Q515> that has <P30> <Q48> and has the 5 highest <P1082>?",
         "SELECT DISTINCT ?c WHERE { ?c wdt:P31 wd:Q515 ; wdt:P30 wd:Q48 ; wdt:P1082 ?p . } ORDER BY DESC(?p) LIMIT 5"),
    # "in <year>": the date's year is it
    Form("in a year",
         ("Which <Q5> was <P569> in 1961 and has <P19> <Q60>?",
          "Which [human] was <date of birth> in 1961 and has <place of birth> [New York City]?",
          "Which <human> was <P569:date_of_birth> in 1961 and has <P19:place_of_birth> <New_York_City>?"),
         "Which <Q5> has <P569> (something whose year is 1961) and has <P19> <Q60>?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 ; wdt:P569 ?b ; wdt:P19 wd:Q60 . FILTER(YEAR(?b) = 1961) }"),
    Form("in a year",
         ("Which <Q5> has <P166> <Q103360> at a <P585> in 1998?",
          "Which [human] has <award received> [Academy Award for Best Director] with <point in time> in 1998?",
          "Which <human> has <P166:award_received> <Academy_Award_for_Best_Director> at a <P585:point_in_time> in "
          "1998?"),
         "Which <Q5> has <P166> <Q103360> at a <P585> whose year is 1998?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 . ?h p:P166 ?s . ?s ps:P166 wd:Q103360 ; pq:P585 ?t . "
         "FILTER(YEAR(?t) = 1998) }"),
    # "with <qualifier> v" after a named value = "at <qualifier> v" (the ECAI writers' word for it)
    Form("a qualifier with 'with'",
         ("Which <Q5> has <P39> <Q11696> with <P580> after 2000?",
          "Which [human] has <position held> [President of the United States of America] with <start time> after "
          "2000?",
          "Which <human> has <P39:position_held> <President_of_the_United_States_of_America> with "
          "<P580:start_time> after 2000?"),
         "Which <Q5> has <P39> <Q11696> at a <P580> later than 2000?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 . ?h p:P39 ?s . ?s ps:P39 wd:Q11696 ; pq:P580 ?t . "
         "FILTER(?t >= \"2001-01-01T00:00:00Z\"^^xsd:dateTime) }"),
    Form("a qualifier with 'with'",
         ("Which <Q5> has <P166> <Q103916> with <P1686> <Q47703>?",
          "Which [human] has <award received> [Academy Award for Best Actor] with <for work> [The Godfather]?",
          "Which <human> has <P166:award_received> <Academy_Award_for_Best_Actor> with <P1686:for_work> "
          "<The_Godfather>?"),
         "Which <Q5> has <P166> <Q103916> at <P1686> <Q47703>?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 . ?h p:P166 ?s . ?s ps:P166 wd:Q103916 ; pq:P1686 wd:Q47703 . }"),
    Form("a qualifier with 'with'",
         ("Which <Q11424> is-<P179> <Q216930> with <P1545> 4?",
          "Which [film] is-<part of the series> [Harry Potter film series] with <series ordinal> 4?",
          "Which <film> is-<P179:part_of_the_series> <Harry_Potter_film_series> with <P1545:series_ordinal> 4?"),
         "Which <Q11424> has <P179> <Q216930> at <P1545> 4?",
         'SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 . ?f p:P179 ?s . ?s ps:P179 wd:Q216930 ; pq:P1545 "4" . }'),
]

# More of Ferré's own SQUALL examples (issue 29, i29w): each a general rule, read into the IR of a
# canonical form the printer already writes.
FORMS += [
    # a computed value compared after "has" ("has the <height> * the <width> equal to 100"): "the
    # <P>" there is the subject's own value, so = "such that (its <P1> * its <P2>) is ..."
    Form("computed value after has",
         ("Which <Q3305213> has the <P2048> * the <P2049> greater than 10000?",
          "Which [painting] has the <height> * the <width> greater than 10000?",
          "Which <painting> has the <P2048:height> * the <P2049:width> greater than 10000?"),
         "Which <Q3305213> such that (its <P2048> * its <P2049>) is greater than 10000?",
         "SELECT DISTINCT ?p WHERE { ?p wdt:P31 wd:Q3305213 ; wdt:P2048 ?h ; wdt:P2049 ?w . FILTER(?h * ?w > 10000) }"),
    Form("computed value after has",
         ("Which <Q8502> has <P30> <Q48> and has 2 * (the <P2044> - the <P2660>) less than 1000?",
          "Which [mountain] has <continent> [Asia] and has 2 * (the <elevation above sea level> - the "
          "<topographic prominence>) less than 1000?",
          "Which <mountain> has <P30:continent> <Asia> and has 2 * (the <P2044:elevation_above_sea_level> - the "
          "<P2660:topographic_prominence>) less than 1000?"),
         "Which <Q8502> that has <P30> <Q48> and such that (2 * (its <P2044> - its <P2660>)) is less than 1000?",
         "SELECT DISTINCT ?m WHERE { ?m wdt:P31 wd:Q8502 ; wdt:P30 wd:Q48 ; wdt:P2044 ?e ; wdt:P2660 ?p . "
         "FILTER(2 * (?e - ?p) < 1000) }"),
    Form("computed value after has",
         ("Does <Q76> have the <P2067> / the <P2048> greater than 30?",
          "Does [Barack Obama] have the <mass> / the <height> greater than 30?",
          "Does <Barack_Obama> have (the <P2067:mass> / the <P2048:height>) greater than 30?"),
         "Has <Q76> (the <P2067> / the <P2048>) greater than 30?",
         "ASK { wd:Q76 wdt:P2067 ?m ; wdt:P2048 ?h . FILTER(?m / ?h > 30) }"),
    # the year of a date as a property-like function ("whose releaseDate has a year between 1980
    # and 1990") = "whose year is ..."
    Form("has a year",
         ("Give me every <Q11424> whose <P57> is <Q25191> and whose <P577> has a year between 2000 and 2010.",
          "Give me every [film] whose <director> is [Christopher Nolan] and whose <publication date> has a year "
          "between 2000 and 2010.",
          "Give me every <film> whose <P57:director> is <Christopher_Nolan> and whose <P577:publication_date> has "
          "year between 2000 and 2010."),
         "Give me every <Q11424> whose <P57> is <Q25191> and that has a <P577> whose year is between 2000 and 2010.",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P57 wd:Q25191 ; wdt:P577 ?d . "
         "FILTER(YEAR(?d) >= 2000 && YEAR(?d) <= 2010) }"),
    Form("has a year",
         ("Which <Q5> has <P19> <Q60> and has a <P569> that has a year greater than 1950?",
          "Which [human] has <place of birth> [New York City] and has a <date of birth> that has year greater than "
          "1950?",
          "Which <human> has <P19:place_of_birth> <New_York_City> and has a <P569:date_of_birth> that has a year "
          "greater than 1950?"),
         "Which <Q5> has <P19> <Q60> and has a <P569> whose year is greater than 1950?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 ; wdt:P19 wd:Q60 ; wdt:P569 ?b . FILTER(YEAR(?b) > 1950) }"),
    Form("has a year",
         ("Does the <P569> of <Q76> have a year less than 1970?",
          "Does the <date of birth> of [Barack Obama] have a year less than 1970?",
          "Does the <P569:date_of_birth> of <Barack_Obama> have a year less than 1970?"),
         "The <P569> of <Q76> has year less than 1970?",
         "ASK { wd:Q76 wdt:P569 ?b . FILTER(YEAR(?b) < 1970) }"),
    # "has which <P> X": the value asked, named for the rest of the sentence (Ferré's "Which Film has
    # which country X and has a director whose birthPlace is not X?")
    Form("has which <P> X",
         ("Which <Q11424> has which <P495> X and has a <P57> whose <P27> is not X?",
          "Which [film] has which <country of origin> X and has a <director> whose <country of citizenship> is not "
          "X?",
          "Which <film> has which <P495:country_of_origin> X and has a <P57:director> whose "
          "<P27:country_of_citizenship> is not X?"),
         "Which <Q11424> has which <P495> ?X and has a <P57> whose <P27> is not ?X?",
         "SELECT DISTINCT ?f ?c WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P495 ?c ; wdt:P57 ?d . ?d wdt:P27 ?n . "
         "FILTER(?n != ?c) }"),
    Form("has which <P> X",
         ("Which <Q5> has which <P26> S and has a <P40> that is not a <P40> of S?",
          "Which [human] has which <spouse> S and has a <child> that is not a <child> of S?",
          "Which <human> has which <P26:spouse> S and has a <P40:child> that is not a <P40:child> of S?"),
         "Which <Q5> has which <P26> ?S and has a <P40> that is not a <P40> of ?S?",
         "SELECT DISTINCT ?h ?s WHERE { ?h wdt:P31 wd:Q5 ; wdt:P26 ?s ; wdt:P40 ?c . "
         "FILTER NOT EXISTS { ?s wdt:P40 ?c } }"),
    # a superlative among the values that pass a comparison (Ferré's "has the highest elevation lesser
    # than the elevation of Annapurna": the highest of the values below it)
    Form("superlative with a comparison",
         ("Which <Q8502> has the highest <P2044> lesser than the <P2044> of <Q513>?",
          "Which [mountain] has the highest <elevation above sea level> less than the <elevation above sea level> "
          "of [Mount Everest]?",
          "Which <mountain> has highest <P2044:elevation_above_sea_level> lower than the "
          "<P2044:elevation_above_sea_level> of <Mount_Everest>?"),
         "Which <Q8502> has <P2044> the highest thing that is less than the <P2044> of <Q513>?",
         "SELECT DISTINCT ?m WHERE { ?m wdt:P31 wd:Q8502 ; wdt:P2044 ?e . wd:Q513 wdt:P2044 ?top . FILTER(?e < ?top) } "
         "ORDER BY DESC(?e) LIMIT 1"),
    Form("superlative with a comparison",
         ("Which <Q11424> has <P57> <Q25191> and has the longest <P2047> shorter than 150?",
          "Which [film] has <director> [Christopher Nolan] and has the longest <duration> shorter than 150?",
          "Which <film> has <P57:director> <Christopher_Nolan> and has the longest <P2047:duration> less than 150?"),
         "Which <Q11424> has <P57> <Q25191> and has <P2047> the longest thing that is less than 150?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P57 wd:Q25191 ; wdt:P2047 ?d . FILTER(?d < 150) } "
         "ORDER BY DESC(?d) LIMIT 1"),
    # "and with" after a relative clause = "and that has" (Ferré's "the TelevisionShow that is a tv of
    # Battlestar_Galactica and with the latest releaseDate")
    Form("and with",
         ("Give me the <Q5> that has <P19> <Q60> and with the latest <P569>.",
          "Give me the [human] that has <place of birth> [New York City] and with the latest <date of birth>.",
          "Give me the <human> that has <P19:place_of_birth> <New_York_City>, and with the latest "
          "<P569:date_of_birth>."),
         "Give me the <Q5> that has <P19> <Q60> and that has the latest <P569>.",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 ; wdt:P19 wd:Q60 ; wdt:P569 ?b . } ORDER BY DESC(?b) LIMIT 1"),
    Form("and with",
         ("Which <Q11424> that has <P57> <Q25191> and with <P161> <Q45772> has a <P2047> greater than 150?",
          "Which [film] that has <director> [Christopher Nolan] and with <cast member> [Christian Bale] has a "
          "<duration> greater than 150?",
          "Which <film> that has <P57:director> <Christopher_Nolan> and with <P161:cast_member> <Christian_Bale> has "
          "a <P2047:duration> greater than 150?"),
         "Which <Q11424> that has <P57> <Q25191> and that has <P161> <Q45772> has a <P2047> greater than 150?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P57 wd:Q25191 ; wdt:P161 wd:Q45772 ; wdt:P2047 ?d . "
         "FILTER(?d > 150) }"),
    # a comparative before the property, than things of a class: than their values ("have a greater
    # numberOfEpisodes than the TelevisionShow that ...": than that show's number of episodes)
    Form("comparative than a thing",
         ("Which <Q5> has a greater <P2048> than the <Q5> that is a <P26> of <Q76>?",
          "Which [human] has a greater <height> than the [human] that is a <spouse> of [Barack Obama]?",
          "Which <human> has a greater <P2048:height> than the <human> that is a <P26:spouse> of <Barack_Obama>?"),
         "Which <Q5> has a <P2048> greater than the <P2048> of (the <Q5> that is a <P26> of <Q76>)?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 ; wdt:P2048 ?a . ?s wdt:P31 wd:Q5 . wd:Q76 wdt:P26 ?s . "
         "?s wdt:P2048 ?b . FILTER(?a > ?b) }"),
    Form("comparative than a thing",
         ("Does <Q76> have an earlier <P569> than the <Q5> that is a <P26> of <Q76>?",
          "Does [Barack Obama] have an earlier <date of birth> than the [human] that is a <spouse> of [Barack Obama]?",
          "Does <Barack_Obama> have an earlier <P569:date_of_birth> than the <human> that is a <P26:spouse> of "
          "<Barack_Obama>?"),
         "Has <Q76> a <P569> earlier than the <P569> of (the <Q5> that is a <P26> of <Q76>)?",
         "ASK { wd:Q76 wdt:P569 ?a . ?s wdt:P31 wd:Q5 . wd:Q76 wdt:P26 ?s . ?s wdt:P569 ?b . FILTER(?a < ?b) }"),
    # "maybe has which <P>" (Ferré's "have which name and maybe have which email"): an optional answer
    # column = "has maybe a <P> that is what"
    Form("maybe has which",
         ("Which <Q5> has <P19> <Q60> and maybe has which <P26>?",
          "Which [human] has <place of birth> [New York City] and maybe have which <spouse>?",
          "Which <human> has <P19:place_of_birth> <New_York_City> and maybe has which <P26:spouse>?"),
         "Which <Q5> has <P19> <Q60> and has maybe a <P26> that is what?",
         "SELECT DISTINCT ?h ?s WHERE { ?h wdt:P31 wd:Q5 ; wdt:P19 wd:Q60 . OPTIONAL { ?h wdt:P26 ?s } }"),
    Form("maybe has which",
         ("The <P40>-s of <Q76> have which <P569> and maybe have which <P26>?",
          "The <child>-s of [Barack Obama] have which <date of birth> and maybe have which <spouse>?",
          "The <P40:child>-s of <Barack_Obama> have which <P569:date_of_birth> and maybe have which <P26:spouse>?"),
         "The <P40> of <Q76> has which <P569> and has maybe a <P26> that is what?",
         "SELECT DISTINCT ?b ?s WHERE { wd:Q76 wdt:P40 ?c . ?c wdt:P569 ?b . OPTIONAL { ?c wdt:P26 ?s } }"),
    # "the class <Q>" (Ferré's "is-rdfs:subClassOf* the class publication"): the class itself
    Form("the class",
         ("What has a <P31> that is-<P279>* the class <Q11424>?",
          "What has an <instance of> that is-<subclass of>* the class [film]?",
          "What has a <P31:instance_of> that is-<P279:subclass_of>* the class <film>?"),
         "What has a <P31> that has <P279>* <Q11424>?",
         "SELECT DISTINCT ?x WHERE { ?x wdt:P31 ?c . ?c wdt:P279* wd:Q11424 . }"),
    Form("the class",
         ("Does <Q25188> have <P31> the class <Q11424>?", "Does [Inception] have <instance of> the class [film]?",
          "Does <Inception> have <P31:instance_of> the class <film>?"),
         "Has <Q25188> <P31> <Q11424>?",
         "ASK { wd:Q25188 wdt:P31 wd:Q11424 . }"),
    # a value's string (Ferré's "str", "string"; this project's "text", SPARQL's STR)
    Form("str and string",
         ('Which <Q11424> has a <P1476> whose str is "Inception"?',
          'Which [film] has a <title> whose string is "Inception"?',
          'Which <film> has a <P1476:title> whose str is "Inception"?'),
         'Which <Q11424> has a <P1476> whose text is "Inception"?',
         'SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P1476 ?t . FILTER(STR(?t) = "Inception") }'),
    Form("str and string",
         ('Which <Q11424> has <P57> <Q25191> and has a str that contains "Q25"?',
          'Which [film] has <director> [Christopher Nolan] and has a string that contains "Q25"?',
          'Which <film> has <P57:director> <Christopher_Nolan> and has a str that contains "Q25"?'),
         'Which <Q11424> has <P57> <Q25191> and contains "Q25"?',
         'SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P57 wd:Q25191 . '
         'FILTER(CONTAINS(LCASE(STR(?f)), LCASE("Q25"))) }'),
    Form("str and string",
         ("Give me the str of the <P1476> of <Q25188>.", "Give me the string of the <title> of [Inception].",
          "Give me the str of the <P1476:title> of <Inception>."),
         "Give me the text of (the <P1476> of <Q25188>).",
         "SELECT DISTINCT ?s WHERE { wd:Q25188 wdt:P1476 ?t . BIND(STR(?t) AS ?s) }"),
    # "the number of <C>-s ... per X", X a value the clauses name (Ferré's "... whose author has some
    # affiliation A per A"): a count per value of X
    Form("per a named value",
         ("What is the number of <Q5>-s that have <P19> ?c per ?c?",
          "What is the number of [human]-s that have <place of birth> ?c per ?c?",
          "What is the number of <human>-s that have <P19:place_of_birth> ?c per ?c?"),
         "What is the number of <Q5> that has which <P19> ?c?",
         "SELECT ?c (COUNT(DISTINCT ?h) AS ?n) WHERE { ?h wdt:P31 wd:Q5 ; wdt:P19 ?c . } GROUP BY ?c"),
    Form("per a named value",
         ("What is the number of <Q11424>-s whose <P57> has some <P27> C per C?",
          "What is the number of [film]-s whose <director> has some <country of citizenship> C per C?",
          "What is the number of <film>-s whose <P57:director> has some <P27:country_of_citizenship> C per C?"),
         "What is the number of <Q11424> whose <P57> has which <P27> ?C?",
         "SELECT ?c (COUNT(DISTINCT ?f) AS ?n) WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P57 ?d . ?d wdt:P27 ?c . } "
         "GROUP BY ?c"),
    # "the number of <C>-s X per the <P> of ... of X" (Ferré's "the number of publications X per the
    # affiliation of an author of X"): a count per value read from the counted thing
    Form("per a value of the counted thing",
         ("What is the number of <Q11424>-s X per the <P27> of a <P57> of X?",
          "What is the number of [film]-s X per the <country of citizenship> of a <director> of X?",
          "What is the number of <film>-s X per the <P27:country_of_citizenship> of a <P57:director> of X?"),
         "What is the number of <Q11424> whose <P57> has which <P27>?",
         "SELECT ?c (COUNT(DISTINCT ?f) AS ?n) WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P57 ?d . ?d wdt:P27 ?c . } "
         "GROUP BY ?c"),
    Form("per a value of the counted thing",
         ("What is the number of <Q5>-s X that have <P106> <Q33999> per the <P19> of X?",
          "What is the number of [human]-s X that have <occupation> [actor] per the <place of birth> of X?",
          "What is the number of <human>-s X that have <P106:occupation> <actor> per the <P19:place_of_birth> of X?"),
         "What is the number of <Q5> that has <P106> <Q33999> and that has which <P19>?",
         "SELECT ?c (COUNT(DISTINCT ?h) AS ?n) WHERE { ?h wdt:P31 wd:Q5 ; wdt:P106 wd:Q33999 ; wdt:P19 ?c . } "
         "GROUP BY ?c"),
    # A question that begins with "whose" (Ferré's "Whose author is X?"): the thing asked owns the value
    Form("whose question",
         ("Whose <P57> is <Q25191>?", "Whose <director> is [Christopher Nolan]?",
          "Whose <P57:director> is <Christopher_Nolan>?"),
         "What has a <P57> that is <Q25191>?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P57 wd:Q25191 . }"),
    Form("whose question",
         ("Whose <P26> has <P19> <Q60>?", "whose <spouse> has <place of birth> [New York City]?",
          "Whose <P26:spouse> has <P19:place_of_birth> <New_York_City>?"),
         "What has a <P26> that has <P19> <Q60>?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P26 ?s . ?s wdt:P19 wd:Q60 . }"),
    # "of" left at the end (Ferré's stranded preposition): "X is Y the <P> of" = "X has <P> Y"
    # ("Who is <Q13133> the <P26> of?" = "Who has <P26> <Q13133>?")
    Form("stranded of",
         ("Who is <Q25191> the <P57> of?", "Who is [Christopher Nolan] the <director> of?",
          "Who is <Christopher_Nolan> the <P57:director> of?"),
         "What has <P57> <Q25191>?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P57 wd:Q25191 . }"),
    Form("stranded of",
         ("Which <Q11424> is <Q3772> the <P57> and <P161> of?",
          "Which [film] is [Quentin Tarantino] the <director> and <cast member> of?",
          "Which <film> is <Quentin_Tarantino> the <P57:director> and <P161:cast_member> of?"),
         "Which <Q11424> has <P57> <Q3772> and has <P161> <Q3772>?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P57 wd:Q3772 ; wdt:P161 wd:Q3772 . }"),
    # A number of values compared (Ferré's count as a noun) = the count determiners
    Form("a number of compared",
         ("Which <Q5> has a number of <P40> greater than 2?", "Which [human] has a number of <child>-s greater than 2?",
          "Which <human> has a number of <P40:child> greater than 2?"),
         "Which <Q5> has more than 2 <P40>?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 . { SELECT ?h (COUNT(DISTINCT ?c) AS ?n) WHERE { ?h wdt:P40 ?c } "
         "GROUP BY ?h } FILTER(?n > 2) }"),
    Form("a number of compared",
         ("Which <Q11424> has a number of <P161> equal to 3?", "Which [film] has a number of <cast member> equal to 3?",
          "Which <film> has a number of <P161:cast_member> equal to 3?"),
         "Which <Q11424> has exactly 3 <P161>?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 . { SELECT ?f (COUNT(DISTINCT ?a) AS ?n) WHERE { ?f wdt:P161 ?a } "
         "GROUP BY ?f } FILTER(?n = 3) }"),
    Form("whose number of",
         ("Give me every <Q5> whose number of <P166> is greater than 3.",
          "Give me every [human] whose number of <award received> is greater than 3.",
          "Give me every <human> whose number of <P166:award_received> is greater than 3."),
         "Give me every <Q5> that has more than 3 <P166>.",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 . { SELECT ?h (COUNT(DISTINCT ?a) AS ?n) WHERE { ?h wdt:P166 ?a } "
         "GROUP BY ?h } FILTER(?n > 3) }"),
    Form("whose number of",
         ("Which <Q11424> whose number of <P57> is at least 2 has <P161> <Q45772>?",
          "Which [film] whose number of <director> is at least 2 has <cast member> [Christian Bale]?",
          "Which <film> whose number of <P57:director> is at least 2 has <P161:cast_member> <Christian_Bale>?"),
         "Which <Q11424> that has at least 2 <P57> has <P161> <Q45772>?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P161 wd:Q45772 . { SELECT ?f (COUNT(DISTINCT ?d) AS ?n) "
         "WHERE { ?f wdt:P57 ?d } GROUP BY ?f } FILTER(?n >= 2) }"),
    # "the count of" (Ferré's aggregation noun) = "the number of"; an article after it says nothing more
    Form("the count of",
         ("What is the count of the <Q11424>-s whose <P57> is <Q25191>?",
          "What is the count of the [film]-s whose <director> is [Christopher Nolan]?",
          "What is the count of the <film>-s whose <P57:director> is <Christopher_Nolan>?"),
         "What is the number of <Q11424> whose <P57> is <Q25191>?",
         "SELECT (COUNT(DISTINCT ?f) AS ?n) WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P57 wd:Q25191 . }"),
    Form("the count of",
         ("What is the count of <P40> of <Q76>?", "What is the count of <child> of [Barack Obama]?",
          "What is the count of <P40:child> of <Barack_Obama>?"),
         "What is the number of <P40> of <Q76>?",
         "SELECT (COUNT(DISTINCT ?c) AS ?n) WHERE { wd:Q76 wdt:P40 ?c . }"),
    # A comparative before the property than a property (Ferré's "than birthDate"): than the
    # subject's own value = "<P> later than its <P>"
    Form("comparative than own",
         ("Which <Q5> has a later <P570> than <P569>?", "Which [human] has a later <date of death> than <date of birth>?",
          "Which <human> has a later <P570:date_of_death> than <P569:date_of_birth>?"),
         "Which <Q5> has a <P570> later than its <P569>?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 ; wdt:P569 ?b ; wdt:P570 ?d . FILTER(?d > ?b) }"),
    Form("comparative than own",
         ("Which <Q3305213> has a greater <P2048> than <P2049>?", "Which [painting] has a greater <height> than <width>?",
          "Which <painting> has a greater <P2048:height> than <P2049:width>?"),
         "Which <Q3305213> has a <P2048> greater than its <P2049>?",
         "SELECT DISTINCT ?p WHERE { ?p wdt:P31 wd:Q3305213 ; wdt:P2048 ?h ; wdt:P2049 ?w . FILTER(?h > ?w) }"),
    # "same as" after the property = "that is"; "same as <P>" compares with the subject's own value
    Form("same as",
         ("Which <Q5> has a <P20> same as its <P19>?", "Which [human] has a <place of death> same as <place of birth>?",
          "Which <human> has a <P20:place_of_death> same as its <P19:place_of_birth>?"),
         "Which <Q5> has a <P20> that is its <P19>?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 ; wdt:P19 ?b ; wdt:P20 ?d . FILTER(?d = ?b) }"),
    Form("same as",
         ("Which <Q11424> has a <P57> same as <Q25191>?", "Which [film] has a <director> same as [Christopher Nolan]?",
          "Which <film> has a <P57:director> same as <Christopher_Nolan>?"),
         "Which <Q11424> has a <P57> that is <Q25191>?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P57 wd:Q25191 . }"),
    # "other than X" = "different from X"
    Form("other than",
         ("Which <Q5> has a <P20> other than <Q60>?", "Which [human] has a <place of death> other than [New York City]?",
          "Which <human> has a <P20:place_of_death> other than <New_York_City>?"),
         "Which <Q5> has a <P20> different from <Q60>?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 ; wdt:P20 ?d . FILTER(?d != wd:Q60) }"),
    Form("other than",
         ("Which <Q11424> has <P57> <Q25191> and has a <P577> other than 2010?",
          "Which [film] has <director> [Christopher Nolan] and has a <publication date> other than 2010?",
          "Which <film> has <P57:director> <Christopher_Nolan> and has a <P577:publication_date> other than 2010?"),
         "Which <Q11424> has <P57> <Q25191> and has a <P577> different from 2010?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P57 wd:Q25191 ; wdt:P577 ?d . FILTER(YEAR(?d) != 2010) }"),
    # An aggregate of "the <C>-s per <P>" (Ferré's grouping, as "the number of <C>-s per <P>"): one
    # value per value of <P> = "... of the <C> that has which <P>" (GROUP BY)
    Form("aggregate per",
         ("What is the average <P2047> of the <Q11424>-s per <P57>?",
          "What is the average <duration> of the [film]-s per <director>?",
          "What is the average <P2047:duration> of the <film>-s per <P57:director>?"),
         "What is the average <P2047> of the <Q11424> that has which <P57>?",
         "SELECT ?d (AVG(?t) AS ?avg) WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P57 ?d ; wdt:P2047 ?t . } GROUP BY ?d"),
    Form("aggregate per",
         ("Give me the total <P2142> of the <Q11424>-s per <P495>.",
          "Give me the total <box office> of the [film]-s per <country of origin>.",
          "Give me the total <P2142:box_office> of the <film>-s per <P495:country_of_origin>."),
         "Give me the total <P2142> of the <Q11424> that has which <P495>.",
         "SELECT ?c (SUM(?b) AS ?sum) WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P495 ?c ; wdt:P2142 ?b . } GROUP BY ?c"),
    # String tests as participles (Ferré's "a thing containing "Star""): "starting with" = "starts
    # with", "containing" = "contains"; "ends with"/"ending with" = "matching" a pattern anchored at the end
    Form("starting with",
         ('Which <Q5> has a <P1559> starting with "Jo"?', 'Which [human] has a <name in native language> starting with "Jo"?',
          'Which <human> has a <P1559:name_in_native_language> starting with "Jo"?'),
         'Which <Q5> has a <P1559> starts with "Jo"?',
         'SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 ; wdt:P1559 ?l . FILTER(STRSTARTS(LCASE(STR(?l)), LCASE("Jo"))) }'),
    Form("starting with",
         ('Which <Q11424> has <P57> <Q25191> and has a <P1476> starting with "The"?',
          'Which [film] has <director> [Christopher Nolan] and has a <title> starting with "The"?',
          'Which <film> has <P57:director> <Christopher_Nolan> and has a <P1476:title> starting with "The"?'),
         'Which <Q11424> has <P57> <Q25191> and has a <P1476> starts with "The"?',
         'SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P57 wd:Q25191 ; wdt:P1476 ?t . '
         'FILTER(STRSTARTS(LCASE(STR(?t)), LCASE("The"))) }'),
    Form("containing",
         ('Give me every <Q11424> whose <P1476> is a thing containing "Star".',
          'Give me every [film] whose <title> is a thing containing "Star".',
          'Give me every <film> whose <P1476:title> is a thing containing "Star".'),
         'Give me every <Q11424> whose <P1476> is something contains "Star".',
         'SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P1476 ?t . FILTER(CONTAINS(LCASE(STR(?t)), LCASE("Star"))) }'),
    Form("containing",
         ('Which <Q5> has a <P1559> containing "Obama"?', 'Which [human] has a <name in native language> containing "Obama"?',
          'Which <human> has a <P1559:name_in_native_language> containing "Obama"?'),
         'Which <Q5> has a <P1559> contains "Obama"?',
         'SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 ; wdt:P1559 ?l . FILTER(CONTAINS(LCASE(STR(?l)), LCASE("Obama"))) }'),
    Form("ends with",
         ('Which <Q5> has a <P1559> that ends with "son"?', 'Which [human] has a <name in native language> that ends with "son"?',
          'Which <human> has a <P1559:name_in_native_language> ending with "son"?'),
         'Which <Q5> has a <P1559> matching "son$"?',
         'SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 ; wdt:P1559 ?l . FILTER(REGEX(STR(?l), "son$", "i")) }'),
    Form("ends with",
         ('Which <Q11424> whose <P1476> ends with "(2010)"?', 'Which [film] whose <title> ends with "(2010)"?',
          'Which <film> whose <P1476:title> ends with "(2010)"?'),
         'Which <Q11424> has a <P1476> matching "\\\\(2010\\\\)$"?',
         'SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P1476 ?t . FILTER(REGEX(STR(?t), "\\\\(2010\\\\)$", "i")) }'),
    # Counts compared: "Are there more <C>-s than <C>-s?" = "Is the number of <C> greater than the number of <C>?"
    Form("are there more",
         ("Are there more <Q11424>-s than <Q571>-s?", "Are there more [film]-s than [book]-s?",
          "Are there more <film>-s than <book>-s?"),
         "Is the number of <Q11424> greater than the number of <Q571>?",
         "ASK { { SELECT (COUNT(DISTINCT ?f) AS ?a) WHERE { ?f wdt:P31 wd:Q11424 } } "
         "{ SELECT (COUNT(DISTINCT ?b) AS ?c) WHERE { ?b wdt:P31 wd:Q571 } } FILTER(?a > ?c) }"),
    Form("are there more",
         ("Are there fewer <Q11424>-s that have <P57> <Q25191> than <Q11424>-s that have <P57> <Q3772>?",
          "Are there fewer [film]-s that have <director> [Christopher Nolan] than [film]-s that have <director> "
          "[Quentin Tarantino]?",
          "Are there fewer <film>-s that have <P57:director> <Christopher_Nolan> than <film>-s that have "
          "<P57:director> <Quentin_Tarantino>?"),
         "Is the number of <Q11424> that has <P57> <Q25191> less than the number of <Q11424> that has <P57> <Q3772>?",
         "ASK { { SELECT (COUNT(DISTINCT ?f) AS ?a) WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P57 wd:Q25191 } } "
         "{ SELECT (COUNT(DISTINCT ?g) AS ?c) WHERE { ?g wdt:P31 wd:Q11424 ; wdt:P57 wd:Q3772 } } FILTER(?a < ?c) }"),
    # "than X does" = "than X"
    Form("more than does",
         ("Which <Q5> has more <P166> than <Q76> does?", "Which [human] has more <award received> than [Barack Obama] does?",
          "Which <human> has more <P166:award_received> than <Barack_Obama> does?"),
         "Which <Q5> has more <P166> than <Q76>?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 . { SELECT ?h (COUNT(DISTINCT ?a) AS ?n) WHERE { ?h wdt:P166 ?a } "
         "GROUP BY ?h } { SELECT (COUNT(DISTINCT ?b) AS ?m) WHERE { wd:Q76 wdt:P166 ?b } } FILTER(?n > ?m) }"),
    Form("more than does",
         ("Which <Q11424> has more <P161> than <Q25188> has?", "Which [film] has more <cast member> than [Inception] has?",
          "Which <film> has more <P161:cast_member> than <Inception> has?"),
         "Which <Q11424> has more <P161> than <Q25188>?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 . { SELECT ?f (COUNT(DISTINCT ?a) AS ?n) WHERE { ?f wdt:P161 ?a } "
         "GROUP BY ?f } { SELECT (COUNT(DISTINCT ?b) AS ?m) WHERE { wd:Q25188 wdt:P161 ?b } } FILTER(?n > ?m) }"),
    # "has more <P40> than <P3373>": than the subject's own count = "than its <P3373>"
    Form("more than own",
         ("Which <Q5> has more <P40> than <P3373>?", "Which [human] has more <child>-s than <sibling>-s?",
          "Which <human> has more <P40:child> than <P3373:sibling>?"),
         "Which <Q5> has more <P40> than its <P3373>?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 . { SELECT ?h (COUNT(DISTINCT ?c) AS ?n) WHERE { ?h wdt:P40 ?c } "
         "GROUP BY ?h } OPTIONAL { SELECT ?h (COUNT(DISTINCT ?s) AS ?m) WHERE { ?h wdt:P3373 ?s } GROUP BY ?h } "
         "FILTER(?n > COALESCE(?m, 0)) }"),
    Form("more than own",
         ("Which <Q11424> has fewer <P161> than <P162>?", "Which [film] has fewer <cast member> than <producer>?",
          "Which <film> has fewer <P161:cast_member> than <P162:producer>?"),
         "Which <Q11424> has fewer <P161> than its <P162>?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 . OPTIONAL { SELECT ?f (COUNT(DISTINCT ?c) AS ?n) WHERE "
         "{ ?f wdt:P161 ?c } GROUP BY ?f } { SELECT ?f (COUNT(DISTINCT ?p) AS ?m) WHERE { ?f wdt:P162 ?p } GROUP BY ?f } "
         "FILTER(COALESCE(?n, 0) < ?m) }"),
    # "shares with X a <P>" (Ferré's word order, the object last) = "shares a <P> with X"
    Form("shares with first",
         ("Which <Q5> shares with <Q76> a <P19>?", "Which [human] shares with [Barack Obama] a <place of birth>?",
          "Which <human> shares with <Barack_Obama> a <P19:place_of_birth>?"),
         "Which <Q5> has a <P19> that is a <P19> of <Q76>?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 ; wdt:P19 ?p . wd:Q76 wdt:P19 ?p . }"),
    Form("shares with first",
         ("Does <Q36812> share with <Q152316> a <P25>?", "Does [Prince William] share with [Prince Harry] a <mother>?",
          "Does <Prince_William> share with <Prince_Harry> a <P25:mother>?"),
         "Has <Q36812> a <P25> that is a <P25> of <Q152316>?",
         "ASK { wd:Q36812 wdt:P25 ?m . wd:Q152316 wdt:P25 ?m . }"),
    # "the <P> of which" after a noun (Ferré's relative) = "whose <P>"
    Form("the P of which",
         ("Give me every <Q11424> the <P57> of which is <Q25191>.",
          "Give me every [film] the <director> of which is [Christopher Nolan].",
          "Give me every <film> the <P57:director> of which is <Christopher_Nolan>."),
         "Give me every <Q11424> whose <P57> is <Q25191>.",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P57 wd:Q25191 . }"),
    Form("the P of which",
         ("Which <Q11424> the <P57> of which has <P19> <Q60> has <P161> <Q45772>?",
          "Which [film] the <director> of which has <place of birth> [New York City] has <cast member> [Christian Bale]?",
          "Which <film> the <P57:director> of which has <P19:place_of_birth> <New_York_City> has <P161:cast_member> "
          "<Christian_Bale>?"),
         "Which <Q11424> whose <P57> has <P19> <Q60> has <P161> <Q45772>?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P57 ?d ; wdt:P161 wd:Q45772 . ?d wdt:P19 wd:Q60 . }"),
    # "X is whose <P>?" = "X is a <P> of what?"
    Form("is whose",
         ("<Q13133> is whose <P26>?", "[Michelle Obama] is whose <spouse>?", "<Michelle_Obama> is whose <P26:spouse>?"),
         "<Q13133> is a <P26> of what?",
         "SELECT DISTINCT ?x WHERE { ?x wdt:P26 wd:Q13133 . }"),
    Form("is whose",
         ("<Q25191> was whose <P57>?", "[Christopher Nolan] was whose <director>?",
          "<Christopher_Nolan> was whose <P57:director>?"),
         "<Q25191> is a <P57> of what?",
         "SELECT DISTINCT ?x WHERE { ?x wdt:P57 wd:Q25191 . }"),
    # "whom X <P>" after a noun (Ferré's object relative) = "that X <P>" = "that is a <P> of X"
    Form("whom X verb",
         ("Which <Q5> whom <Q13133> <P26> has <P19> <Q60>?",
          "Which [human] whom [Michelle Obama] <spouse> has <place of birth> [New York City]?",
          "Which <human> whom <Michelle_Obama> <P26:spouse> has <P19:place_of_birth> <New_York_City>?"),
         "Which <Q5> that is a <P26> of <Q13133> has <P19> <Q60>?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 ; wdt:P19 wd:Q60 . wd:Q13133 wdt:P26 ?h . }"),
    Form("whom X verb",
         ("Give me every <Q5> whom <Q76> <P40>.", "Give me every [human] whom [Barack Obama] <child>.",
          "Give me every <human> whom <Barack_Obama> <P40:child>."),
         "Give me every <Q5> that is a <P40> of <Q76>.",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 . wd:Q76 wdt:P40 ?h . }"),
    # "whose lang is" (Ferré's "lang") = "whose language is"
    Form("whose lang",
         ('Give me every <P1476> of <Q25188> whose lang is "en".', 'Give me every <title> of [Inception] whose lang is "en".',
          'Give me every <P1476:title> of <Inception> whose lang is "en".'),
         'Give me every <P1476> of <Q25188> whose language is "en".',
         'SELECT DISTINCT ?t WHERE { wd:Q25188 wdt:P1476 ?t . FILTER(LANG(?t) = "en") }'),
    Form("whose lang",
         ('Which <Q11424> has a <P1476> whose lang is "fr"?', 'Which [film] has a <title> whose lang is "fr"?',
          'Which <film> has a <P1476:title> whose lang is "fr"?'),
         'Which <Q11424> has a <P1476> whose language is "fr"?',
         'SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P1476 ?t . FILTER(LANG(?t) = "fr") }'),
]

# Ferré's word order for "belongs to" (the canonical forms are in tests/test_belongs_to.py)
FORMS += [
    Form("belongs to: 'To which <C> X belongs?'",
         ("To which <Q55983715> <Q76> belongs?",
          "To which [polyphyletic common name] does [Barack Obama] belong?",
          "To which <polyphyletic_common_name> <Barack_Obama> belongs?",
          "Which <Q55983715> <Q76> belongs to?"),
         "Which <Q55983715> does <Q76> belong to?",
         "SELECT DISTINCT ?c WHERE { ?c wdt:P31 wd:Q55983715 . wd:Q76 wdt:P31 ?c . }"),
    Form("belongs to: 'To which <C> X belongs?'",
         ("Give me every <Q55983715> to which <Q13133> belongs.",
          "Give me every [polyphyletic common name] to which [Michelle Obama] belongs.",
          "Give me every <polyphyletic_common_name> to which <Michelle_Obama> does belong."),
         "Give me every <Q55983715> that <Q13133> belongs to.",
         "SELECT DISTINCT ?c WHERE { ?c wdt:P31 wd:Q55983715 . wd:Q13133 wdt:P31 ?c . }"),
]

# "most recent", a qualifier as the head noun of "at which" (lead6)
FORMS += [
    Form("most/least recent",
         ("What is the most recent <P577> of <Q47703>?",
          "What is the most recent <publication date> of [The Godfather]?",
          "What is the most recent <P577:publication_date> of <The_Godfather>?"),
         "What is the latest <P577> of <Q47703>?",
         "SELECT ?d WHERE { wd:Q47703 wdt:P577 ?d . } ORDER BY DESC(?d) LIMIT 1"),
    Form("most/least recent",
         ("Which <Q11424> that has <P57> <Q8877> has the 2nd least recent <P577>?",
          "Which [film] that has <director> [Steven Spielberg] has the 2nd least recent <publication date>?",
          "Which <film> that has <P57:director> <Steven_Spielberg> has the 2nd least recent "
          "<P577:publication_date>?"),
         "Which <Q11424> that has <P57> <Q8877> has the 2nd earliest <P577>?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P57 wd:Q8877 ; wdt:P577 ?d . } "
         "ORDER BY ASC(?d) OFFSET 1 LIMIT 1"),
    Form("the <Q> at which X has <P> Y",
         ("What is the <P585> at which <Q38111> has <P166> <Q103916>?",
          "What is the <point in time> at which [Leonardo DiCaprio] has <award received> "
          "[Academy Award for Best Actor]?",
          "What is the <P585:point_in_time> at which <Leonardo_DiCaprio> has <P166:award_received> "
          "<Academy_Award_for_Best_Actor>?"),
         "What is the thing at which <P585> <Q38111> has <P166> <Q103916>?",
         "SELECT DISTINCT ?t WHERE { wd:Q38111 p:P166 ?s . ?s ps:P166 wd:Q103916 ; pq:P585 ?t . }"),
    Form("the <Q> at which X has <P> Y",
         ("Give me the <P1686> at which <Q25191> <P166> <Q103360>.",
          "Give me the <for work> at which [Christopher Nolan] <award received> [Academy Award for Best Director].",
          "Give me the <P1686:for_work> at which <Christopher_Nolan> <P166:award_received> "
          "<Academy_Award_for_Best_Director>."),
         "Give me the thing at which <P1686> <Q25191> has <P166> <Q103360>.",
         "SELECT DISTINCT ?w WHERE { wd:Q25191 p:P166 ?s . ?s ps:P166 wd:Q103360 ; pq:P1686 ?w . }"),
    # a clause after a superlative's property describes the values counted or ordered, as after
    # "has a <P>" (it went to the question's noun before: "a human that is an award")
    Form("superlative property's clause",
         ("Which <Q5> has the most <P166> that is a <Q618779>?",
          "Which [human] has the most <award received> that is an [award]?",
          "Which <human> has the most <P166:award_received> that is an <award>?"),
         "Which <Q5> has <P166> the most things that is a <Q618779>?",
         "SELECT ?h WHERE { ?h wdt:P31 wd:Q5 ; wdt:P166 ?a . ?a wdt:P31 wd:Q618779 . } GROUP BY ?h "
         "ORDER BY DESC(COUNT(DISTINCT ?a)) LIMIT 1"),
    Form("superlative property's clause",
         ("Which <Q8502> has the highest <P2044> that is less than 8000?",
          "Which [mountain] has the highest <elevation above sea level> that is less than 8000?",
          "Which <mountain> has the highest <P2044:elevation_above_sea_level> that is less than 8000?"),
         "Which <Q8502> has <P2044> the highest thing that is less than 8000?",
         "SELECT DISTINCT ?m WHERE { ?m wdt:P31 wd:Q8502 ; wdt:P2044 ?e . FILTER(?e < 8000) } "
         "ORDER BY DESC(?e) LIMIT 1"),
]

# form 5 where a noun phrase is: a superlative without "the" before a noun; "did not" in a
# clause's verb as "does not"
FORMS += [
    Form("5 superlative without the, before a noun",
         ("What is latest <P577> of <Q47703>?", "What is latest <publication date> of [The Godfather]?",
          "What is latest <P577:publication_date> of <The_Godfather>?"),
         "What is the latest <P577> of <Q47703>?",
         "SELECT ?d WHERE { wd:Q47703 wdt:P577 ?d . } ORDER BY DESC(?d) LIMIT 1"),
    Form("5 superlative without the, before a noun",
         ("What is the year of earliest <P569> of <Q76>?", "What is the year of earliest <date of birth> of [Barack Obama]?",
          "What is the year of earliest <P569:date_of_birth> of <Barack_Obama>?"),
         "What is the year of (the earliest <P569> of <Q76>)?",
         "SELECT DISTINCT ?y WHERE { wd:Q76 wdt:P569 ?d . BIND(YEAR(?d) AS ?y) } ORDER BY ASC(?d) LIMIT 1"),
    Form("5 superlative without the, before a noun",
         ("Which <Q5> is the <P161> of most <Q11424>?", "Which [human] is the <cast member> of most [film]?",
          "Which <human> is the <P161:cast_member> of most <film>?"),
         "Which <Q5> is the <P161> of the most <Q11424>?",
         "SELECT ?h WHERE { ?h wdt:P31 wd:Q5 . ?f wdt:P31 wd:Q11424 ; wdt:P161 ?h . } GROUP BY ?h "
         "ORDER BY DESC(COUNT(DISTINCT ?f)) LIMIT 1"),
    Form("5 superlative without the, before thing",
         ("Which <Q8502> has <P2044> highest thing?", "Which [mountain] has <elevation above sea level> highest thing?",
          "Which <mountain> has <P2044:elevation_above_sea_level> highest thing?"),
         "Which <Q8502> has the highest <P2044>?",
         "SELECT DISTINCT ?m WHERE { ?m wdt:P31 wd:Q8502 ; wdt:P2044 ?e . } ORDER BY DESC(?e) LIMIT 1"),
    Form("5 superlative without the, before thing",
         ("Which <Q11424> that has <P57> <Q8877> has <P577> earliest thing?",
          "Which [film] that has <director> [Steven Spielberg] has <publication date> earliest thing?",
          "Which <film> that has <P57:director> <Steven_Spielberg> has <P577:publication_date> earliest thing?"),
         "Which <Q11424> that has <P57> <Q8877> has the earliest <P577>?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P57 wd:Q8877 ; wdt:P577 ?d . } ORDER BY ASC(?d) LIMIT 1"),
    Form("did not in a clause",
         ("Which <Q5> has a <P19> that <Q142> did not <P150>?",
          "Which [human] has a <place of birth> that [France] did not <contains the administrative territorial entity>?",
          "Which <human> has a <P19:place_of_birth> that <France> did not "
          "<P150:contains_the_administrative_territorial_entity>?"),
         "Which <Q5> has a <P19> that is not a <P150> of <Q142>?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 ; wdt:P19 ?p . FILTER NOT EXISTS { wd:Q142 wdt:P150 ?p . } }"),
    Form("did not in a clause",
         ('Which <Q11424> that has <P57> <Q8877> has a <P1476> that did not contain "War"?',
          'Which [film] that has <director> [Steven Spielberg] has a <title> that did not contain "War"?',
          'Which <film> that has <P57:director> <Steven_Spielberg> has a <P1476:title> that did not contain "War"?'),
         'Which <Q11424> that has <P57> <Q8877> has a <P1476> that does not contain "War"?',
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P57 wd:Q8877 ; wdt:P1476 ?t . "
         'FILTER(!CONTAINS(LCASE(STR(?t)), LCASE("War"))) }'),
]

# "Who among A and B ..." as "Which of A and B ..."; "was the <P> of" in a fronted object's verb
FORMS += [
    Form("who among",
         ("Who among <Q37079> and <Q38111> has the highest <P2048>?",
          "Who among [Tom Cruise] and [Leonardo DiCaprio] has the highest <height>?",
          "Who among <Tom_Cruise> and <Leonardo_DiCaprio> has the highest <P2048:height>?"),
         "Which of <Q37079> and <Q38111> has the highest <P2048>?",
         "SELECT DISTINCT ?x WHERE { VALUES ?x { wd:Q37079 wd:Q38111 } ?x wdt:P2048 ?h . } ORDER BY DESC(?h) LIMIT 1"),
    Form("who among",
         ("What among <Q172241>, <Q47703> and <Q25188> has the earliest <P577>?",
          "What among [The Shawshank Redemption], [The Godfather] and [Inception] has the earliest <publication date>?",
          "What among <The_Shawshank_Redemption>, <The_Godfather> and <Inception> has the earliest "
          "<P577:publication_date>?"),
         "Which of <Q172241> and <Q47703> and <Q25188> has the earliest <P577>?",
         "SELECT DISTINCT ?x WHERE { VALUES ?x { wd:Q172241 wd:Q47703 wd:Q25188 } ?x wdt:P577 ?d . } ORDER BY ASC(?d) LIMIT 1"),
    Form("was the <P> of in a fronted object",
         ("Which <Q11424> <Q8877> was the <P162> and <P57> of?",
          "Which [film] [Steven Spielberg] was the <producer> and <director> of?",
          "Which <film> <Steven_Spielberg> was the <P162:producer> and <P57:director> of?"),
         "Which <Q11424> has <P162> <Q8877> and has <P57> <Q8877>?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P162 wd:Q8877 ; wdt:P57 wd:Q8877 . }"),
    Form("was the <P> of in a fronted object",
         ("Which <Q11424> <Q25191> was the <P57> of?", "Which [film] [Christopher Nolan] was the <director> of?",
          "Which <film> <Christopher_Nolan> was the <P57:director> of?"),
         "Which <Q11424> has <P57> <Q25191>?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P57 wd:Q25191 . }"),
]

# a clause on a property's value that tests a literal and says a property: the literal has no
# properties, so the property is the subject's ("a <P577> whose year is 2010 and has a <P2142> ...")
FORMS += [
    Form("a literal's clause with a property",
         ("Which <Q11424> has a <P577> whose year is 2010 and has a <P2142> greater than 1000000?",
          "Which [film] has a <publication date> whose year is 2010 and has a <box office> greater than 1000000?",
          "Which <film> has a <P577:publication_date> whose year is 2010 and has a <P2142:box_office> greater than "
          "1000000?"),
         "Which <Q11424> has <P577> (something whose year is 2010) and has a <P2142> greater than 1000000?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P577 ?d ; wdt:P2142 ?b . FILTER(YEAR(?d) = 2010) "
         "FILTER(?b > 1000000) }"),
    Form("a literal's clause with a property",
         ("Which <Q5> has a <P569> that is earlier than 1950 and has <P27> <Q142>?",
          "Which [human] has a <date of birth> that is earlier than 1950 and has <country of citizenship> [France]?",
          "Which <human> has a <P569:date_of_birth> that is before 1950 and has <P27:country_of_citizenship> <France>?"),
         "Which <Q5> has <P569> (something that is earlier than 1950) and has <P27> <Q142>?",
         'SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 ; wdt:P569 ?b ; wdt:P27 wd:Q142 . '
         'FILTER(?b < "1950-01-01T00:00:00Z"^^xsd:dateTime) }'),
]

# "is <P> of X" without "the" takes the qualifiers "is the <P> of X" takes; "the greater <P>"
# (a comparative after "the", before a term) ranks as "the greatest <P>"
FORMS += [
    Form("is <P> of X with a qualifier",
         ("Which <Q5> is <P26> of <Q76> at <P580> 1992?", "Which [human] is <spouse> of [Barack Obama] at <start time> 1992?",
          "Which <human> is <P26:spouse> of <Barack_Obama> at <P580:start_time> 1992?"),
         "Which <Q5> is the <P26> at <P580> 1992 of <Q76>?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 . wd:Q76 p:P26 ?st . ?st ps:P26 ?h ; pq:P580 ?s . "
         "FILTER(YEAR(?s) = 1992) }"),
    Form("is <P> of X with a qualifier",
         ("Which <Q5> was <P161> of <Q25188> at some <P580>?",
          "Which [human] was <cast member> of [Inception] at some <start time>?",
          "Which <human> was <P161:cast_member> of <Inception> at some <P580:start_time>?"),
         "Which <Q5> is the <P161> at a <P580> of <Q25188>?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 . wd:Q25188 p:P161 ?st . ?st ps:P161 ?h ; pq:P580 ?s . }"),
    Form("is <P> of X and <Q> of Y",
         ("Which <Q5> is <P26> of <Q76> and <P161> of <Q25188>?",
          "Which [human] is <spouse> of [Barack Obama] and <cast member> of [Inception]?",
          "Which <human> is <P26:spouse> of <Barack_Obama> and <P161:cast_member> of <Inception>?"),
         "Which <Q5> is (the <P26> of <Q76>) and the <P161> of <Q25188>?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 . wd:Q76 wdt:P26 ?h . wd:Q25188 wdt:P161 ?h . }"),
    Form("is <P> of X and <Q> of Y",
         ("Who is a <P57> of <Q25188> and <Q47703> and <P162> of <Q172241>?",
          "Who is a <director> of [Inception] and [The Godfather] and <producer> of [The Shawshank Redemption]?",
          "Who is a <P57:director> of <Inception> and <The_Godfather> and <P162:producer> of "
          "<The_Shawshank_Redemption>?"),
         "What is (a <P57> of <Q25188> and <Q47703>) and the <P162> of <Q172241>?",
         "SELECT DISTINCT ?x WHERE { wd:Q25188 wdt:P57 ?x . wd:Q47703 wdt:P57 ?x . wd:Q172241 wdt:P162 ?x . }"),
    Form("possessive superlative",
         ("What is <Q76>'s earliest <P39>?", "What is [Barack Obama]'s earliest <position held>?",
          "What is <Barack_Obama>'s earliest <P39:position_held>?"),
         "What is the earliest <P39> of <Q76>?",
         "SELECT DISTINCT ?p WHERE { wd:Q76 wdt:P39 ?p . } ORDER BY ASC(?p) LIMIT 1"),
    Form("possessive superlative",
         ("Which <Q11424> is <Q25191>'s 2nd latest <P800>?", "Which [film] is [Christopher Nolan]'s 2nd latest <notable work>?",
          "Which <film> is <Christopher_Nolan>'s 2nd latest <P800:notable_work>?"),
         "Which <Q11424> is the 2nd latest <P800> of <Q25191>?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 . wd:Q25191 wdt:P800 ?f . } ORDER BY DESC(?f) OFFSET 1 LIMIT 1"),
    Form("all the",
         ("Give me all the <P800> of <Q25191>.", "Give me all the <notable work> of [Christopher Nolan].",
          "Give me all the <P800:notable_work> of <Christopher_Nolan>."),
         "Give me every <P800> of <Q25191>.",
         "SELECT DISTINCT ?w WHERE { wd:Q25191 wdt:P800 ?w . }"),
    Form("all the",
         ("Which <Q5> is a <P161> of all the <Q11424>-s that have <P57> <Q25191>?",
          "Which [human] is a <cast member> of all the [film]-s that have <director> [Christopher Nolan]?",
          "Which <human> is a <P161:cast_member> of all the <film>-s that have <P57:director> <Christopher_Nolan>?"),
         "Which <Q5> is a <P161> of (every <Q11424> that has <P57> <Q25191>)?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 . FILTER NOT EXISTS { ?f wdt:P31 wd:Q11424 ; wdt:P57 wd:Q25191 . "
         "FILTER NOT EXISTS { ?f wdt:P161 ?h } } }"),
    Form("Was X ...?",
         ("Was <Q13133> the <P26> of <Q76>?", "Was [Michelle Obama] the <spouse> of [Barack Obama]?",
          "Was <Michelle_Obama> the <P26:spouse> of <Barack_Obama>?"),
         "Is <Q13133> the <P26> of <Q76>?",
         "ASK { wd:Q76 wdt:P26 wd:Q13133 . }"),
    Form("Was X ...?",
         ("Were <Q45772> a <P161> of <Q25188>?", "Are [Christian Bale] a <cast member> of [Inception]?",
          "Were <Christian_Bale> a <P161:cast_member> of <Inception>?"),
         "Is <Q45772> a <P161> of <Q25188>?",
         "ASK { wd:Q25188 wdt:P161 wd:Q45772 . }"),
    Form("How many of the ...",
         ("How many of the <P527> of <Q1299> have <P27> <Q142>?",
          "How many of the <has part(s)> of [The Beatles] have <country of citizenship> [France]?",
          "How many of the <P527:has_part(s)> of <The_Beatles> have <P27:country_of_citizenship> <France>?"),
         "How many <P527> of <Q1299> has <P27> <Q142>?",
         "SELECT (COUNT(DISTINCT ?m) AS ?n) WHERE { wd:Q1299 wdt:P527 ?m . ?m wdt:P27 wd:Q142 . }"),
    Form("How many of the ...",
         ("How many of the <Q11424>-s that have <P57> <Q25191> have <P161> <Q45772>?",
          "How many of the [film]-s that have <director> [Christopher Nolan] have <cast member> [Christian Bale]?",
          "How many of the <film>-s that have <P57:director> <Christopher_Nolan> have <P161:cast_member> "
          "<Christian_Bale>?"),
         "How many <Q11424> that has <P57> <Q25191> has <P161> <Q45772>?",
         "SELECT (COUNT(DISTINCT ?f) AS ?n) WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P57 wd:Q25191 ; wdt:P161 wd:Q45772 . }"),
    Form("has <P> whose/that ...",
         ("Which <Q11424> has <P57> <Q25191> and has <P577> whose year is 2010?",
          "Which [film] has <director> [Christopher Nolan] and has <publication date> whose year is 2010?",
          "Which <film> has <P57:director> <Christopher_Nolan> and has <P577:publication_date> whose year is 2010?"),
         "Which <Q11424> has <P57> <Q25191> and has a <P577> whose year is 2010?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P57 wd:Q25191 ; wdt:P577 ?d . FILTER(YEAR(?d) = 2010) }"),
    Form("has <P> whose/that ...",
         ("Which <Q5> has <P19> that has <P131> <Q60>?", "Which [human] has <place of birth> that has <located in> [New York City]?",
          "Which <human> has <P19:place_of_birth> that has <P131:located_in> <New_York_City>?"),
         "Which <Q5> has a <P19> that has <P131> <Q60>?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 ; wdt:P19 ?p . ?p wdt:P131 wd:Q60 . }"),
    Form("In which year is ...",
         ("In which year is the <P577> of <Q25188>?", "In what year was the <publication date> of [Inception]?",
          "What year is the <P577:publication_date> of <Inception>?", "In which year is <P577> of <Q25188>?",
          "What year was <P577:publication_date> of <Inception>?"),
         "What is the year of (the <P577> of <Q25188>)?",
         "SELECT DISTINCT ?y WHERE { wd:Q25188 wdt:P577 ?d . BIND(YEAR(?d) AS ?y) }"),
    Form("In which year is ...",
         ("Which year is the earliest <P580> of <Q76>?", "In which year is the earliest <start time> of [Barack Obama]?",
          "What year was the earliest <P580:start_time> of <Barack_Obama>?"),
         "What is the year of (the earliest <P580> of <Q76>)?",
         "SELECT DISTINCT ?y WHERE { wd:Q76 wdt:P580 ?d . BIND(YEAR(?d) AS ?y) } ORDER BY ASC(?d) LIMIT 1"),
    Form("which one of",
         ("Which one of <Q513> and <Q43512> has the highest <P2044>?",
          "Which one of [Mount Everest] and [K2] has the highest <elevation above sea level>?",
          "which one of <Mount_Everest> and <K2> has the highest <P2044:elevation_above_sea_level>?"),
         "Which of <Q513> and <Q43512> has the highest <P2044>?",
         "SELECT DISTINCT ?m WHERE { ?m wdt:P2044 ?e . VALUES ?m { wd:Q513 wd:Q43512 } } ORDER BY DESC(?e) LIMIT 1"),
    Form("which one of",
         ("Which one of <Q172241> and <Q47703> has <P57> <Q25191>?",
          "Which one of [The Shawshank Redemption] and [The Godfather] has <director> [Christopher Nolan]?",
          "Which one of <The_Shawshank_Redemption> and <The_Godfather> has <P57:director> <Christopher_Nolan>?"),
         "Which of <Q172241> and <Q47703> has <P57> <Q25191>?",
         "SELECT DISTINCT ?x WHERE { VALUES ?x { wd:Q172241 wd:Q47703 } ?x wdt:P57 wd:Q25191 . }"),
    Form("yes/no about several names",
         ("Are <Q45772> and <Q38111> <P161>-s of <Q25188>?",
          "Were [Christian Bale] and [Leonardo DiCaprio] <cast member>-s of [Inception]?",
          "Are <Christian_Bale> and <Leonardo_DiCaprio> <P161:cast_member>-s of <Inception>?"),
         "<Q45772> and <Q38111> is the <P161> of <Q25188>?",
         "ASK { wd:Q25188 wdt:P161 wd:Q45772 . wd:Q25188 wdt:P161 wd:Q38111 . }"),
    Form("yes/no about several names",
         ("Do <Q76>, <Q13133> and <Q36812> have <P27> <Q142>?",
          "Did [Barack Obama], [Michelle Obama] and [Prince William] have <country of citizenship> [France]?",
          "Do <Barack_Obama> and <Michelle_Obama> and <Prince_William> have <P27:country_of_citizenship> <France>?"),
         "<Q76> and <Q13133> and <Q36812> has <P27> <Q142>?",
         "ASK { wd:Q76 wdt:P27 wd:Q142 . wd:Q13133 wdt:P27 wd:Q142 . wd:Q36812 wdt:P27 wd:Q142 . }"),
    Form("the greater <P>",
         ("Which of <Q513> and <Q43512> has the greater <P2044>?",
          "Which of [Mount Everest] and [K2] has the higher <elevation above sea level>?",
          "Which of <Mount_Everest> and <K2> has the larger <P2044:elevation_above_sea_level>?"),
         "Which of <Q513> and <Q43512> has the greatest <P2044>?",
         "SELECT DISTINCT ?m WHERE { ?m wdt:P2044 ?e . VALUES ?m { wd:Q513 wd:Q43512 } } ORDER BY DESC(?e) LIMIT 1"),
    Form("the greater <P>",
         ("Which of <Q172241> or <Q47703> has the earlier <P577>?",
          "Which of [The Shawshank Redemption] or [The Godfather] has the earlier <publication date>?",
          "Which of <The_Shawshank_Redemption> or <The_Godfather> has the earlier <P577:publication_date>?"),
         "Which of <Q172241> and <Q47703> has the earliest <P577>?",
         "SELECT DISTINCT ?x WHERE { VALUES ?x { wd:Q172241 wd:Q47703 } ?x wdt:P577 ?d . } ORDER BY ASC(?d) LIMIT 1"),
    # statements listed under one "has" with commas, as names are listed
    Form("has <P> X, <P> Y and <P> Z",
         ("Which <Q11424> has <P57> <Q25191>, <P161> <Q45772> and <P577> 2010?",
          "Which [film] has <director> [Christopher Nolan], <cast member> [Christian Bale] and <publication date> 2010?",
          "Which <film> has <P57:director> <Christopher_Nolan>, <P161:cast_member> <Christian_Bale> and "
          "<P577:publication_date> 2010?"),
         "Which <Q11424> has <P57> <Q25191> and has <P161> <Q45772> and has <P577> 2010?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P57 wd:Q25191 ; wdt:P161 wd:Q45772 ; wdt:P577 ?d . "
         "FILTER(YEAR(?d) = 2010) }"),
    Form("has <P> X, <P> Y and <P> Z",
         ("Which <Q5> has <P19> <Q60>, <P106> <Q33999>, and <P26> <Q13133>?",
          "Which [human] has <place of birth> [New York City], <occupation> [actor], <spouse> [Michelle Obama]?",
          "Which <human> has <P19:place_of_birth> <New_York_City>, <P106:occupation> <actor>, and "
          "<P26:spouse> <Michelle_Obama>?"),
         "Which <Q5> has <P19> <Q60> and has <P106> <Q33999> and has <P26> <Q13133>?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 ; wdt:P19 wd:Q60 ; wdt:P106 wd:Q33999 ; wdt:P26 wd:Q13133 . }"),
    # "has" after "does" (agreement slipped) and "do" before one name: "have" after "does"
    Form("does X has",
         ("Does <Q76> has <P26> <Q13133>?",
          "Do [Barack Obama] have <spouse> [Michelle Obama]?",
          "Does <Barack_Obama> has <P26:spouse> <Michelle_Obama>?"),
         "Has <Q76> <P26> <Q13133>?",
         "ASK { wd:Q76 wdt:P26 wd:Q13133 . }"),
    Form("does X has",
         ("Which <Q5> does not has a <P570>?",
          "Which [human] does not has a <date of death>?",
          "Which <human> doesn't has a <P570:date_of_death>?"),
         "Which <Q5> has not a <P570>?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 . FILTER NOT EXISTS { ?h wdt:P570 ?d . } }"),
    # a bare "has <P>" with a property the ECAI notation writes by its label alone (an ENT to the lexer)
    Form("has <label> in the ECAI notation",
         ("Which <Q5> has <P106> <Q33999> and has <P570>?",
          "Which [human] has <occupation> [actor] and has <date of death>?",
          "Which <human> has <P106:occupation> <actor> and has <date_of_death>?"),
         "Which <Q5> has <P106> <Q33999> and has a <P570>?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 ; wdt:P106 wd:Q33999 ; wdt:P570 ?d . }"),
    Form("has <label> in the ECAI notation",
         ("Has <Q76> <P570>?", "Has [Barack Obama] <date of death>?", "Has <Barack_Obama> <date_of_death>?"),
         "Has <Q76> a <P570>?",
         "ASK { wd:Q76 wdt:P570 ?d . }"),
    # a value denied after a statement's own, the property said once
    Form("has <P> X but not Y",
         ("Which <Q6256> has <P47> <Q142> but not <Q183>?",
          "Which [country] has <shares border with> [France] and not [Germany]?",
          "Which <country> has <P47:shares_border_with> <France> but not <Germany>?"),
         "Which <Q6256> has <P47> <Q142> and has not <P47> <Q183>?",
         "SELECT DISTINCT ?c WHERE { ?c wdt:P31 wd:Q6256 ; wdt:P47 wd:Q142 . FILTER NOT EXISTS { ?c wdt:P47 wd:Q183 } }"),
    Form("has <P> X but not Y",
         ("Which <Q5> has <P106> <Q33999> and has <P166> <Q103360> and not <Q103916>?",
          "Which [human] has <occupation> [actor] and has <award received> [Academy Award for Best Director] but "
          "not [Academy Award for Best Actor]?",
          "Which <human> has <P106:occupation> <actor> and has <P166:award_received> "
          "<Academy_Award_for_Best_Director> and not <Academy_Award_for_Best_Actor>?"),
         "Which <Q5> has <P106> <Q33999> and has <P166> <Q103360> and has not <P166> <Q103916>?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 ; wdt:P106 wd:Q33999 ; wdt:P166 wd:Q103360 . "
         "FILTER NOT EXISTS { ?h wdt:P166 wd:Q103916 } }"),
    # "either A or B" = "A or B"
    Form("either A or B",
         ("Which <Q6256> has <P47> either <Q142> or <Q183>?",
          "Which [country] has <shares border with> either [France] or [Germany]?",
          "Which <country> has <P47:shares_border_with> either <France> or <Germany>?"),
         "Which <Q6256> has <P47> <Q142> or <Q183>?",
         "SELECT DISTINCT ?c WHERE { ?c wdt:P31 wd:Q6256 . { ?c wdt:P47 wd:Q142 } UNION { ?c wdt:P47 wd:Q183 } }"),
    Form("either A or B",
         ("Which <Q11424> has <P161> either <Q45772> or <Q38111>?",
          "Which [film] has <cast member> either [Christian Bale] or [Leonardo DiCaprio]?",
          "Which <film> has <P161:cast_member> either <Christian_Bale> or <Leonardo_DiCaprio>?"),
         "Which <Q11424> has <P161> <Q45772> or <Q38111>?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 . { ?f wdt:P161 wd:Q45772 } UNION { ?f wdt:P161 wd:Q38111 } }"),
    # "of A and of B": the preposition said again
    Form("of A and of B",
         ("Is <Q45772> a <P161> of <Q25188> and of <Q47703>?",
          "Is [Christian Bale] a <cast member> of [Inception] and of [The Godfather]?",
          "Is <Christian_Bale> a <P161:cast_member> of <Inception> and of <The_Godfather>?"),
         "Is <Q45772> a <P161> of <Q25188> and <Q47703>?",
         "ASK { wd:Q25188 wdt:P161 wd:Q45772 . wd:Q47703 wdt:P161 wd:Q45772 . }"),
    Form("of A and of B",
         ("Which <Q5> is the <P26> of <Q76> and of <Q13133>?",
          "Which [human] is the <spouse> of [Barack Obama] and of [Michelle Obama]?",
          "Which <human> is the <P26:spouse> of <Barack_Obama> and of <Michelle_Obama>?"),
         "Which <Q5> is the <P26> of <Q76> and <Q13133>?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 . wd:Q76 wdt:P26 ?h . wd:Q13133 wdt:P26 ?h . }"),
    # "any" = "a"
    Form("any",
         ("Does <Q76> have any <P40>?", "Does [Barack Obama] have any <child>?", "Does <Barack_Obama> have any <P40:child>?"),
         "Has <Q76> a <P40>?",
         "ASK { wd:Q76 wdt:P40 ?c . }"),
    Form("any",
         ("Which <Q5> has not any <P26>?", "Which [human] does not have any <spouse>?",
          "Which <human> hasn't any <P26:spouse>?"),
         "Which <Q5> has not a <P26>?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 . FILTER NOT EXISTS { ?h wdt:P26 ?s } }"),
    # qualifiers joined by "and" (or a comma), each with its "at"
    Form("at <Q> X and at <Q> Y",
         ("Which <Q5> has <P166> <Q103360> at <P585> 2000 and at <P1686> <Q25188>?",
          "Which [human] has <award received> [Academy Award for Best Director] at <point in time> 2000, at "
          "<for work> [Inception]?",
          "Which <human> has <P166:award_received> <Academy_Award_for_Best_Director> at <P585:point_in_time> 2000 "
          "and at <P1686:for_work> <Inception>?"),
         "Which <Q5> has <P166> <Q103360> at <P585> 2000 at <P1686> <Q25188>?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 ; p:P166 ?s . ?s ps:P166 wd:Q103360 ; pq:P585 ?t ; "
         "pq:P1686 wd:Q25188 . FILTER(YEAR(?t) = 2000) }"),
    Form("at <Q> X and at <Q> Y",
         ("Which <Q5> has <P39> <Q11696> at <P580> 2009 and at a <P582> later than 2010?",
          "Which [human] has <position held> [President of the United States of America] at <start time> 2009 and "
          "at a <end time> later than 2010?",
          "Which <human> has <P39:position_held> <President_of_the_United_States_of_America> at "
          "<P580:start_time> 2009, at a <P582:end_time> later than 2010?"),
         "Which <Q5> has <P39> <Q11696> at <P580> 2009 at a <P582> later than 2010?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 ; p:P39 ?s . ?s ps:P39 wd:Q11696 ; pq:P580 ?a ; pq:P582 ?b . "
         "FILTER(YEAR(?a) = 2009) FILTER(?b >= \"2011-01-01T00:00:00Z\"^^xsd:dateTime) }"),
    # a qualifier described by "that"/"which" without its article; "with" before one with it
    Form("at <Q> that ...",
         ("Which <Q5> has <P26> <Q13133> at <P580> which is earlier than 1995?",
          "Which [human] has <spouse> [Michelle Obama] at <start time> that is earlier than 1995?",
          "Which <human> has <P26:spouse> <Michelle_Obama> with a <P580:start_time> earlier than 1995?"),
         "Which <Q5> has <P26> <Q13133> at a <P580> earlier than 1995?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 ; p:P26 ?s . ?s ps:P26 wd:Q13133 ; pq:P580 ?t . "
         "FILTER(?t < \"1995-01-01T00:00:00Z\"^^xsd:dateTime) }"),
    Form("at <Q> that ...",
         ("Which <Q5> has <P39> <Q11696> with a <P580> later than 2000?",
          "Which [human] has <position held> [President of the United States of America] at <start time> which is "
          "later than 2000?",
          "Which <human> has <P39:position_held> <President_of_the_United_States_of_America> at <P580:start_time> "
          "that is later than 2000?"),
         "Which <Q5> has <P39> <Q11696> at a <P580> later than 2000?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 ; p:P39 ?s . ?s ps:P39 wd:Q11696 ; pq:P580 ?t . "
         "FILTER(?t >= \"2001-01-01T00:00:00Z\"^^xsd:dateTime) }"),
    # "is <P> X" without the hyphen, also with a property the ECAI notation names by its label alone
    Form("is <label> X in the ECAI notation",
         ("Which <Q11424> is <P179> <Q216930> at <P1545> 2?",
          "Which [film] is <part of the series> [Harry Potter film series] at <series ordinal> 2?",
          "Which <film> is <part_of_the_series> <Harry_Potter_film_series> at <series_ordinal> 2?"),
         "Which <Q11424> has <P179> <Q216930> at <P1545> 2?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; p:P179 ?s . ?s ps:P179 wd:Q216930 ; pq:P1545 \"2\" . }"),
    Form("is <label> X in the ECAI notation",
         ("Which <Q5> was <P106> <Q33999> and is <P27> <Q142>?",
          "Which [human] was <occupation> [actor] and is <country of citizenship> [France]?",
          "Which <human> was <occupation> <actor> and is <country_of_citizenship> <France>?"),
         "Which <Q5> has <P106> <Q33999> and has <P27> <Q142>?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 ; wdt:P106 wd:Q33999 ; wdt:P27 wd:Q142 . }"),
    Form("has <P> X and <label> Y in the ECAI notation",
         ("Which <Q5> has <P19> <Q60> and <P570> 2000?",
          "Which [human] has <place of birth> [New York City] and <date of death> 2000?",
          "Which <human> has <P19:place_of_birth> <New_York_City> and <date_of_death> 2000?"),
         "Which <Q5> has <P19> <Q60> and has <P570> 2000?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 ; wdt:P19 wd:Q60 ; wdt:P570 ?d . FILTER(YEAR(?d) = 2000) }"),
    Form("has <P> X and <label> Y in the ECAI notation",
         ("Which <Q11424> has <P57> <Q25191>, <P161> <Q45772>?",
          "Which [film] has <director> [Christopher Nolan] and <cast member> [Christian Bale]?",
          "Which <film> has <director> <Christopher_Nolan>, <cast_member> <Christian_Bale>?"),
         "Which <Q11424> has <P57> <Q25191> and has <P161> <Q45772>?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P57 wd:Q25191 ; wdt:P161 wd:Q45772 . }"),
    # a statement under one "has" with a compared value
    Form("has <P> X and <P> compared",
         ("Which <Q11424> has <P57> <Q25191> and <P577> after 2010?",
          "Which [film] has <director> [Christopher Nolan] and <publication date> later than 2010?",
          "Which <film> has <P57:director> <Christopher_Nolan>, <P577:publication_date> after 2010?"),
         "Which <Q11424> has <P57> <Q25191> and has a <P577> later than 2010?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P57 wd:Q25191 ; wdt:P577 ?d . "
         "FILTER(?d >= \"2011-01-01T00:00:00Z\"^^xsd:dateTime) }"),
    Form("has <P> X and <P> compared",
         ("Which <Q5> has <P569> before 1950 and <P19> <Q60>?",
          "Which [human] has <date of birth> earlier than 1950 and <place of birth> [New York City]?",
          "Which <human> has <P569:date_of_birth> before 1950 and <P19:place_of_birth> <New_York_City>?"),
         "Which <Q5> has <P569> (something that is earlier than 1950) and has <P19> <Q60>?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 ; wdt:P569 ?b ; wdt:P19 wd:Q60 . "
         "FILTER(?b < \"1950-01-01T00:00:00Z\"^^xsd:dateTime) }"),
    # two comparisons of one value joined by "and"
    Form("compared twice",
         ("Which <Q11424> has <P57> <Q25191> and has <P577> after 2010 and before 2020?",
          "Which [film] has <director> [Christopher Nolan] and has <publication date> later than 2010 and earlier "
          "than 2020?",
          "Which <film> has <P57:director> <Christopher_Nolan> and has <P577:publication_date> after 2010 and before "
          "2020?"),
         "Which <Q11424> has <P57> <Q25191> and has <P577> something that is later than 2010 and that is earlier "
         "than 2020?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P57 wd:Q25191 ; wdt:P577 ?d . "
         "FILTER(?d >= \"2011-01-01T00:00:00Z\"^^xsd:dateTime) FILTER(?d < \"2020-01-01T00:00:00Z\"^^xsd:dateTime) }"),
    Form("compared twice",
         ("Which <Q11424> has a <P2142> greater than 1000000 and less than 5000000?",
          "Which [film] has a <box office> more than 1000000 and smaller than 5000000?",
          "Which <film> has <P2142:box_office> greater than 1000000 and less than 5000000?"),
         "Which <Q11424> has <P2142> something that is greater than 1000000 and that is less than 5000000?",
         "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P2142 ?b . FILTER(?b > 1000000 && ?b < 5000000) }"),
    # a relational noun denied of another name
    Form("a <P> of X but not of Y",
         ("Which <Q5> is a <P161> of <Q25188> but not of <Q47703>?",
          "Which [human] is a <cast member> of [Inception] and not of [The Godfather]?",
          "Which <human> is a <P161:cast_member> of <Inception> but not of <The_Godfather>?"),
         "Which <Q5> is (a <P161> of <Q25188>) and is not a <P161> of <Q47703>?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 . wd:Q25188 wdt:P161 ?h . "
         "FILTER NOT EXISTS { wd:Q47703 wdt:P161 ?h } }"),
    Form("a <P> of X but not of Y",
         ("Is <Q45772> a <P161> of <Q25188> and not of <Q47703>?",
          "Is [Christian Bale] a <cast member> of [Inception] but not of [The Godfather]?",
          "Is <Christian_Bale> a <P161:cast_member> of <Inception> but not of <The_Godfather>?"),
         "<Q45772> is (a <P161> of <Q25188>) and is not a <P161> of <Q47703>?",
         "ASK { wd:Q25188 wdt:P161 wd:Q45772 . FILTER NOT EXISTS { wd:Q47703 wdt:P161 wd:Q45772 } }"),
    # "of A, B and C": a list of names after "of" without the serial comma
    Form("of A, B and C",
         ("Is <Q45772> a <P161> of <Q25188>, <Q172241> and <Q47703>?",
          "Is [Christian Bale] a <cast member> of [Inception], [The Shawshank Redemption] and [The Godfather]?",
          "Is <Christian_Bale> a <P161:cast_member> of <Inception>, <The_Shawshank_Redemption> and <The_Godfather>?"),
         "Is <Q45772> a <P161> of <Q25188> and <Q172241> and <Q47703>?",
         "ASK { wd:Q25188 wdt:P161 wd:Q45772 . wd:Q172241 wdt:P161 wd:Q45772 . wd:Q47703 wdt:P161 wd:Q45772 . }"),
    Form("of A, B and C",
         ("Which <Q5> is the <P26> of <Q76>, <Q13133> and <Q36812>?",
          "Which [human] is the <spouse> of [Barack Obama], [Michelle Obama] and [Prince William]?",
          "Which <human> is the <P26:spouse> of <Barack_Obama>, <Michelle_Obama> and <Prince_William>?"),
         "Which <Q5> is the <P26> of <Q76> and <Q13133> and <Q36812>?",
         "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 . wd:Q76 wdt:P26 ?h . wd:Q13133 wdt:P26 ?h . "
         "wd:Q36812 wdt:P26 ?h . }"),
]

# Ferré's forms (squall_ferre_forms.lark), their cases in a file of their own
FORMS += [Form(*case) for case in ferre_cases.CASES]
IDS.update(ferre_cases.IDS)

IDS_OF = {form.form for form in FORMS}


def _id(form, i):
    return f"{form.form}-{i}"


@pytest.mark.parametrize("form", FORMS, ids=[_id(f, i) for i, f in enumerate(FORMS)])
def test_each_text_compiles_to_the_hand_written_query(form):
    assert {detect_notation(t) for t in form.texts} == {"id", "label", "ecai"}, form.texts
    expected = PREFIXES + form.sparql
    for text in form.texts:
        sparql = cnl.compile(text, lexicon=Lexicon())
        assert equivalent(sparql, expected, distinct=True), (text, sparql)
    assert equivalent(cnl.compile(form.canonical), expected, distinct=True)


@pytest.mark.parametrize("form", FORMS, ids=[_id(f, i) for i, f in enumerate(FORMS)])
def test_each_text_reads_as_its_canonical_form(form):
    canonical = parse_squall(form.canonical)
    assert print_squall(canonical, "id", id_labels=False) == form.canonical
    for text in form.texts:
        notation = detect_notation(text)
        query = parse_squall(text)
        if notation == "id":
            assert query == canonical, text
            assert print_squall(query, "id", id_labels=False) == form.canonical
        printed = print_squall(query, notation)
        assert printed != text or text == form.canonical, "the printer writes the variant"
        assert parse_squall(printed) == for_notation(query, notation), (text, printed)
        assert print_squall(parse_squall(printed), notation) == printed


WHICH_OF = [
    ("Which of <Q513> and <Q43512> has the highest <P2044>?",
     "Which of [Mount Everest] and [K2] has the highest <elevation above sea level>?",
     "Which of <Mount_Everest> and <K2> has the highest <P2044:elevation_above_sea_level>?",
     "SELECT DISTINCT ?m WHERE { ?m wdt:P2044 ?e . VALUES ?m { wd:Q513 wd:Q43512 } } ORDER BY DESC(?e) LIMIT 1"),
    ("Which of <Q513> and <Q43512> and <Q60> has <P30> <Q48>?",
     "Which of [Mount Everest] and [K2] and [New York City] has <continent> [Asia]?",
     "Which of <Mount_Everest> and <K2> and <New_York_City> has <P30:continent> <Asia>?",
     "SELECT DISTINCT ?m WHERE { ?m wdt:P30 wd:Q48 . VALUES ?m { wd:Q513 wd:Q43512 wd:Q60 } }"),
]


@pytest.mark.parametrize("texts", WHICH_OF, ids=["highest", "statement"])
def test_which_of_names_asks_which_of_them(texts):
    # "Which of X and Y ...?" (also "X, Y and Z", "X, Y, and Z") is a canonical form of its own:
    # the question word ranges over the names only
    *in_notations, sparql = texts
    for text in in_notations:
        query = parse_squall(text)
        assert print_squall(query, detect_notation(text)) == text
        assert equivalent(cnl.compile(text, lexicon=Lexicon()), PREFIXES + sparql, distinct=True), text
    if in_notations[0].count(" and ") == 2:
        listed = in_notations[0].replace("> and <", ">, <", 1)
        assert parse_squall(listed) == parse_squall(in_notations[0])
        assert parse_squall(listed.replace("> and <", ">, and <")) == parse_squall(in_notations[0])


def _humans(prop: str, counts: dict, extra=()):
    """A real store of humans (``wdt:P31 wd:Q5``), each with ``counts[human]`` values of
    ``prop``, plus ``extra`` (subject, property, object) triples of IDs."""
    import pyoxigraph
    store = pyoxigraph.Store()
    wd, wdt = "http://www.wikidata.org/entity/", "http://www.wikidata.org/prop/direct/"
    triples = [(h, "P31", "Q5") for h in counts]
    triples += [(h, prop, f"Q9{h[1:]}{i}") for h, n in counts.items() for i in range(n)]
    for s_, p_, o_ in (*triples, *extra):
        store.add(pyoxigraph.Quad(pyoxigraph.NamedNode(wd + s_), pyoxigraph.NamedNode(wdt + p_),
                                  pyoxigraph.NamedNode(wd + o_)))
    return store


def _answers(store, sparql):
    result = store.query(sparql)
    return bool(result) if type(result).__name__ == "QueryBoolean" else {
        row[0].value.rsplit("/", 1)[-1] for row in result}


COUNT_COMPARISONS = [
    # "has more <P> than X": the subject's count of <P> values against X's (a canonical form of
    # its own); "has more <P> than 3" is "has more than 3 <P>"
    ("Which <Q5> has more <P166> than <Q76>?",
     "Which [human] has more <award received>-s than [Barack Obama]?",
     "Which <human> has more <P166:award_received> than <Barack_Obama>?", {"Q3"}),
    ("Which <Q5> has fewer <P166> than <Q76>?",
     "Which [human] has fewer <award received> than [Barack Obama]?",
     "Which <human> has fewer <P166:award_received> than <Barack_Obama>?", {"Q1", "Q2"}),
    ("Which <Q5> has not more <P166> than the <P26> of <Q13133>?",
     "Which [human] has not more <award received> than the <spouse> of [Michelle Obama]?",
     "Which <human> has not more <P166:award_received> than the <P26:spouse> of <Michelle_Obama>?",
     {"Q1", "Q2", "Q76"}),
    ("Has <Q2> fewer <P166> than <Q1>?", "Has [Q2] fewer <award received> than [Q1]?",
     "Has <Q2> fewer <P166:award_received> than <Q1>?", True),
]


@pytest.mark.parametrize("texts", COUNT_COMPARISONS, ids=["more", "fewer-with-zero", "not-more", "ask"])
def test_counts_compared_on_a_real_store(texts):
    """Run on a store: Q1 has 2 awards, Q2 none, Q3 five, Q76 three; Q13133's spouse is Q76. A
    human with no award has fewer than Q76 (the count it has no row for is 0)."""
    store = _humans("P166", {"Q1": 2, "Q2": 0, "Q3": 5, "Q76": 3}, [("Q13133", "P26", "Q76")])
    *in_notations, expected = texts
    lexicon = {**IDS, "Q1": "Q1", "Q2": "Q2"}
    for text in in_notations:
        sparql = cnl.compile(text, lexicon=type("L", (), {"resolve": lambda self, label, kind, span=None:
                                                          lexicon[label]})())
        answers = _answers(store, sparql)
        assert answers == expected, (text, sparql)
        query = parse_squall(text)
        printed = print_squall(query, detect_notation(text))
        assert parse_squall(printed) == for_notation(query, detect_notation(text)), printed


def test_as_many_as_on_a_real_store():
    """"has as many <P40> as <Q76>": equal counts, a count of 0 included (Q2 and Q76 have none)."""
    store = _humans("P40", {"Q1": 1, "Q2": 0, "Q76": 0, "Q4": 2})
    for text in ("Which <Q5> has as many <P40> as <Q76>?", "Which [human] has as many <child>-s as [Barack Obama]?"):
        sparql = cnl.compile(text, lexicon=Lexicon())
        assert _answers(store, sparql) == {"Q2", "Q76"}, sparql
        assert print_squall(parse_squall(text), detect_notation(text)).startswith("Which")
    assert print_squall(parse_squall("Which <Q5> has as many <P40> as <Q76>?"), "id", id_labels=False) == (
        "Which <Q5> has as many <P40> as <Q76>?")


@pytest.mark.parametrize("texts", [
    ("Which <Q5> has between 2 and 4 <P40>?", "Which [human] has between 2 and 4 <child>-s?",
     "Which <human> has between 2 and 4 <P40:child>s?", {"Q3"}),
    ("Which <Q5> has between 0 and 1 <P40>?", "Which [human] has between 0 and 1 <child>?",
     "Which <human> has between 0 and 1 <P40:child>?", {"Q1", "Q2"}),
], ids=["2-4", "0-1"])
def test_a_count_between_two_numbers_on_a_real_store(texts):
    """"has between 2 and 4 <P40>" = "has at least 2 <P40> and has not at least 5 <P40>" (the
    printer's form); a count that may be 0 is kept. Q1 has 1 child, Q2 none, Q3 three, Q4 six."""
    store = _humans("P40", {"Q1": 1, "Q2": 0, "Q3": 3, "Q4": 6})
    *in_notations, expected = texts
    for text in in_notations:
        sparql = cnl.compile(text, lexicon=Lexicon())
        assert _answers(store, sparql) == expected, (text, sparql)
    low = in_notations[0].split()[4]
    assert print_squall(parse_squall(in_notations[0]), "id", id_labels=False) == (
        "Which <Q5> has at least 2 <P40> and has not at least 5 <P40>?" if low == "2" else
        "Which <Q5> has not at least 2 <P40>?")
    with pytest.raises(CNLSyntaxError, match="the first number is the smaller"):
        parse_squall("Which <Q5> has between 4 and 2 <P40>?")


@pytest.mark.parametrize("quoted, bracketed", [
    ("Is the <P26> of <Q76> 'Michelle Obama'?", "Is the <P26> of <Q76> [Michelle Obama]?"),
    ("Which [film] has <director> 'Christopher Nolan'?", "Which [film] has <director> [Christopher Nolan]?"),
    ("Which <film> has <P57:director> 'Christopher Nolan'?", "Which <film> has <P57:director> [Christopher Nolan]?"),
    ("Does 'Prince Harry' have the same <P25> as 'Prince William'?",
     "Does [Prince Harry] have the same <P25> as [Prince William]?"),
])
def test_a_name_between_single_quotes_is_a_name_by_its_label(quoted, bracketed):
    """Ferré's keywords ('Prince Harry'): a name by its label, resolved as [Prince Harry] is; the
    printer writes the bracketed (or the notation's) form."""
    assert parse_squall(quoted) == parse_squall(bracketed)
    assert equivalent(cnl.compile(quoted, lexicon=Lexicon()), cnl.compile(bracketed, lexicon=Lexicon()))
    # a possessive after a bracketed name, and contractions, are no quotes
    assert parse_squall("Give me [The Beatles]' <P527>.") == parse_squall("Give me the <P527> of [The Beatles].")
    assert parse_squall("What's the <P26> of <Q76>?") == parse_squall("What is the <P26> of <Q76>?")


def test_more_than_a_number_is_a_numeric_determiner():
    assert parse_squall("Which <Q5> has more <P166> than 3?") == parse_squall("Which <Q5> has more than 3 <P166>?")
    with pytest.raises(CNLSyntaxError, match="counts are compared with 'more', 'fewer' or 'less'"):
        parse_squall("Which <Q5> has greater <P166> than <Q76>?")


def test_every_form_has_two_paraphrases_of_its_own():
    forms = [f.form for f in FORMS]
    for name in ("1 ", "2 ", "3 ", "4 ", "5 ", "6 ", "7 ", "8 ", "9 "):
        assert sum(1 for f in forms if f.startswith(name)) >= 2, name


# ---------------------------------------------------------------- what keeps its old reading

def test_a_clause_after_a_noun_stays_with_the_noun():
    # the name rule applies where a clause could describe no noun before it
    query = parse_squall("Which <Q11424> has a <P57> that has <P166> <Q103360>?")
    assert query.vp == ir.Stmt(ir.Property("P57"), ir.Quant(
        "a", None, (ir.Stmt(ir.Property("P166"), ir.Ref(ir.Entity("Q103360"))),)))
    query = parse_squall("Which <Q11424> that has <P57> <Q25191> has <P161> <Q45772>?")
    assert query.subject.rels == (ir.Stmt(ir.Property("P57"), ir.Ref(ir.Entity("Q25191"))),)
    assert query.vp == ir.Stmt(ir.Property("P161"), ir.Ref(ir.Entity("Q45772")))


def test_a_clause_after_a_name_inside_a_clause_describes_that_clause_s_noun():
    # "a <P57> that has <P19> [X] that has <P106> [Y]": the director has both
    query = parse_squall("Which <Q11424> has a <P57> that has <P19> <Q60> that has <P106> <Q33999>?")
    assert query.vp.obj.rels == (ir.Stmt(ir.Property("P19"), ir.Ref(ir.Entity("Q60"))),
                                 ir.Stmt(ir.Property("P106"), ir.Ref(ir.Entity("Q33999"))))


def test_with_after_a_noun_stays_that_noun_s_property():
    # "with <P> X" after a noun says what the noun has; only after a name is it the qualifier
    assert parse_squall("Which <Q11424> has a <P57> with <P166> <Q103360>?") == parse_squall(
        "Which <Q11424> has a <P57> that has <P166> <Q103360>?")
    assert parse_squall("Which <Q8502> with <P30> <Q48> has the highest <P2044>?") == parse_squall(
        "Which <Q8502> that has <P30> <Q48> has the highest <P2044>?")


def test_apposition_keeps_the_old_readings_of_is_and_fronted_objects():
    # "the <C> X" is read after "of", "does" and a verb; "Is the <C> X?" still asks whether it is X
    query = parse_squall("Is the <Q5> <Q76>?")
    assert query == ir.Query(ir.Quant("the", ir.ClassNoun(ir.Class("Q5"))), ir.Be(ir.Ref(ir.Entity("Q76"))))
    query = parse_squall("The <Q11424> <Q25191> did <P57>?")
    assert query.subject == ir.Quant("the", ir.ClassNoun(ir.Class("Q11424")))


def test_a_term_that_starts_with_a_digit_is_no_comparison_symbol():
    # a "<" starts a comparison only with a space after it and a value after that
    query = parse_squall("Which <human> has <P1344:participant_in> <2008_Summer_Olympics>?", notation="ecai")
    assert isinstance(query.vp.obj, ir.Ref)
    assert parse_squall("Which <Q5> has a <P569> whose year < 1900?") == parse_squall(
        "Which <Q5> has a <P569> whose year is less than 1900?")


def test_a_yes_no_subject_that_ends_in_a_clause_is_printed_in_parentheses():
    # Ferré's "Does the TelevisionShow that is a tv of X and with the latest releaseDate have a greater
    # numberOfEpisodes than the TelevisionShow ... with the earliest releaseDate?"
    text = ("Does the <Q5398426> that is a <P9028> of <Q9051> and with the latest <P577> have a greater <P1113> "
            "than the <Q5398426> that is a <P9028> of <Q9051> and with the earliest <P577>?")
    query = parse_squall(text)
    printed = print_squall(query, "id", id_labels=False)
    assert printed.startswith("Has (the <Q5398426> that is a <P9028> of <Q9051> that has the latest <P577>) a <P1113> "
                              "greater than the <P1113> of (the <Q5398426> ")
    assert parse_squall(printed) == query


@pytest.mark.parametrize("text, canonical", [
    ('Which <Q5> whose <label> is "Tom Hanks"@en has <P166> <Q103916>?',
     'Which <Q5> that has a <label> that is "Tom Hanks"@en has <P166> <Q103916>?'),
    ("Which <human> whose <label> is \"Tom Hanks\"@en has <P166:award_received> <Academy_Award_for_Best_Actor>?",
     "Which <human> that has a <label> that is \"Tom Hanks\"@en has <P166:award_received> "
     "<Academy_Award_for_Best_Actor>?"),
])
def test_a_term_after_whose_is_a_property(text, canonical):
    """After "whose" a term can only be a property, as after "has": the pseudo-property <label> in the
    ID and ECAI notations (where a term without an ID is read as a name); the label notation read it so."""
    query = parse_squall(text)
    assert query == parse_squall(canonical)
    assert print_squall(query, detect_notation(text)) == canonical
    assert equivalent(cnl.compile(text, lexicon=Lexicon()), PREFIXES + (
        "PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#> SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 ; "
        'rdfs:label ?l ; wdt:P166 wd:Q103916 . FILTER(?l = "Tom Hanks"@en) }'), distinct=True)
    with pytest.raises(CNLSyntaxError, match="not a property"):
        parse_squall('Which <Q5> whose <Q76> is "Tom Hanks" has <P166> <Q103916>?')


def test_whose_text_tests_the_string_of_a_value_on_a_real_store():
    """"whose text is "08"" is STR(?v) = "08": a typed literal and a language-tagged one pass, where
    "whose <P> is "08"" (the literal itself) would not."""
    import pyoxigraph
    store = pyoxigraph.Store()
    wd, wdt = "http://www.wikidata.org/entity/", "http://www.wikidata.org/prop/direct/"
    for book, page in (("Q1", pyoxigraph.Literal("08", language="en")),
                       ("Q2", pyoxigraph.Literal("08", datatype=pyoxigraph.NamedNode(
                           "http://www.w3.org/2001/XMLSchema#token"))),
                       ("Q3", pyoxigraph.Literal("8"))):
        store.add(pyoxigraph.Quad(pyoxigraph.NamedNode(wd + book), pyoxigraph.NamedNode(wdt + "P304"), page))
    assert _answers(store, cnl.compile('Give me a thing that has a <P304> whose str is "08".')) == {"Q1", "Q2"}
    assert _answers(store, cnl.compile('Give me a thing that has a <P304> whose text is not "08".')) == {"Q3"}
    with pytest.raises(CNLSyntaxError, match="tests the string"):
        parse_squall('Which <Q11424> has a str that is "08"?')


# ---------------------------------------------------------------- what keeps failing

@pytest.mark.parametrize("text, message", [
    ("What?", "needs a noun"),
    ("<Q5>?", "needs a question word"),
    ("The <Q11424> has <Q25191>?", "needs a question word"),
    ("Which <Q11424> has <Q25191>?", "needs a property before the name"),
    ("How many <Q11424> has not <Q25191>?", "Q25191 is an item ID"),
    ("Which <P527> of the <P31> <Q1299> has a <P570>?", "follows a class"),
    ("can't find a squall query?", "bare label"),
    ("give me every film that has as a <P179:part_of_the_series> Harry Potter film series", "Sparklis"),
    ("Which <Q5> has a <P569> before?", "bare label 'before'"),
    ("Count <Q76>.", "'Count' counts a noun phrase with a noun"),
    ("What is <Q76>'s?", "unexpected character"),
    ("Give me <Q76>'s 's <P26>.", "unexpected token"),
    ("Is there?", "unexpected token"),
    ("Which <Q5> was born in <Q60>?", "bare label 'born in'"),
    ("Give me the 10 <Q11424>-s that have <P57> <Q25191>.", "needs one superlative after it"),
    ("Which [film] has director Jon Favreau?", "unexpected token"),
    ("Which <Q5> has a <P569> in 1961-05-04?", "bare label 'in'"),
    ("Give me the <Q515> with.", "unexpected token"),
    # "the <Q> at which X has <P> Y" names a qualifier: a class there is refused at its token
    ("Give me the <Q5> at which <Q38111> has <P166> <Q103916>.", "needs a qualifier property before 'at which'"),
    ("Give me the <P585> of <Q5> at which <Q38111> has <P166> <Q103916>.", "column 13"),
    ("Which <Q5> belongs <Q2>?", "unexpected token"),
])
def test_malformed_text_keeps_failing_with_a_reason(text, message):
    with pytest.raises(CNLSyntaxError) as info:
        parse_squall(text)
    assert message in str(info.value) or message in (info.value.hint or ""), str(info.value)


def test_a_bare_label_with_before_or_after_is_reported_whole():
    with pytest.raises(CNLSyntaxError) as info:
        parse_squall("give me everything that is named after Percy Jackson")
    assert "named after Percy Jackson" in str(info.value)


def test_a_number_of_values_compared_on_a_real_store():
    """"has a number of <P166> greater than 2" on a store: Q1 has 2 awards, Q2 none, Q3 five, Q76
    three; a count compared with a number that is not whole is refused with the form to write."""
    store = _humans("P166", {"Q1": 2, "Q2": 0, "Q3": 5, "Q76": 3})
    for text, expected in (("Which <Q5> has a number of <P166> greater than 2?", {"Q3", "Q76"}),
                           ("Which <Q5> whose number of <P166> is equal to 2 has <P31> <Q5>?", {"Q1"}),
                           ("Which [human] has a number of <award received> greater than or equal to 5?", {"Q3"})):
        assert _answers(store, cnl.compile(text, lexicon=Lexicon())) == expected, text
    with pytest.raises(CNLSyntaxError, match="compared with a whole number"):
        parse_squall("Which <Q5> has a number of <P166> greater than 2.5?")


def test_an_aggregate_per_value_on_a_real_store():
    """"the total/average <P1082> of the <Q515>-s per <P17>": one row per country (cities Q1, Q2 in
    Q142; Q3 in Q183); "per" where no count or aggregate takes it is refused."""
    import pyoxigraph
    store = pyoxigraph.Store()
    wd, wdt = "http://www.wikidata.org/entity/", "http://www.wikidata.org/prop/direct/"
    for city, country, population in (("Q1", "Q142", 100), ("Q2", "Q142", 300), ("Q3", "Q183", 50)):
        for prop, value in (("P31", pyoxigraph.NamedNode(wd + "Q515")), ("P17", pyoxigraph.NamedNode(wd + country)),
                            ("P1082", pyoxigraph.Literal(str(population), datatype=pyoxigraph.NamedNode(
                                "http://www.w3.org/2001/XMLSchema#integer")))):
            store.add(pyoxigraph.Quad(pyoxigraph.NamedNode(wd + city), pyoxigraph.NamedNode(wdt + prop), value))
    for text, expected in (("Give me the total <P1082> of the <Q515>-s per <P17>.", {("Q142", 400), ("Q183", 50)}),
                           ("What is the average <population> of the [city]-s per <country>?",
                            {("Q142", 200), ("Q183", 50)})):
        sparql = cnl.compile(text, lexicon=type("L", (), {"resolve": lambda self, label, kind, span=None: {
            "population": "P1082", "city": "Q515", "country": "P17"}[label]})())
        rows = {(row[0].value.rsplit("/", 1)[-1], int(float(row[1].value))) for row in store.query(sparql)}
        assert rows == expected, (text, sparql)
    with pytest.raises(CNLSyntaxError, match="groups a count or an aggregate"):
        parse_squall("Give me the <Q515>-s per <P17>.")


def test_ends_with_on_a_real_store():
    """"ends with" tests the end of the text, any case, its characters taken as they are (".", "(")."""
    import pyoxigraph
    store = pyoxigraph.Store()
    rdfs_label = pyoxigraph.NamedNode("http://www.w3.org/2000/01/rdf-schema#label")
    for item, label in (("Q1", "Anderson"), ("Q2", "Sonia"), ("Q3", "ANDERSON"), ("Q4", "a.b (c)"), ("Q5", "axb (c)")):
        store.add(pyoxigraph.Quad(pyoxigraph.NamedNode("http://www.wikidata.org/entity/" + item), rdfs_label,
                                  pyoxigraph.Literal(label, language="en")))
    for text, expected in (('What has a <label> that ends with "son"?', {"Q1", "Q3"}),
                           ('What has a <label> ending with "a.b (c)"?', {"Q4"})):
        assert _answers(store, cnl.compile(text)) == expected, text


def test_counts_of_its_own_values_on_a_real_store():
    """"has more/fewer <P40> than its <P3373>": Q1 has 2 children and 1 sibling, Q2 none and 1, Q3
    1 and none, Q4 1 and 1 (a count with no row is 0)."""
    siblings = [("Q1", "P3373", "Q81"), ("Q2", "P3373", "Q82"), ("Q4", "P3373", "Q84")]
    store = _humans("P40", {"Q1": 2, "Q2": 0, "Q3": 1, "Q4": 1}, siblings)
    for text, expected in (("Which <Q5> has more <P40> than <P3373>?", {"Q1", "Q3"}),
                           ("Which [human] has fewer <child>-s than its <sibling>-s?", {"Q2"})):
        assert _answers(store, cnl.compile(text, lexicon=Lexicon())) == expected, text


@pytest.mark.parametrize("text, message", [
    ("Which <Q8502> has the 3rd to last highest <P2044>?", "'3rd to last' is not read"),
    ("Which [mountain] has the 2nd to last <elevation above sea level>?", "'2nd to last' is not read"),
    ("Give me the 5 first <Q11424>-s.", "'the 5 first' ranks by no value"),
])
def test_ordinals_without_a_clear_meaning_are_refused_with_the_forms_to_write(text, message):
    # "3rd to last": the third from the end, or from the third on? "the 5 first": first by what?
    with pytest.raises(CNLSyntaxError, match=message):
        parse_squall(text)


def test_a_clause_on_a_value_that_is_no_literal_keeps_its_properties():
    """Only a test that a literal passes shows the value is a literal: a place of birth that has a
    country and has an administrative unit is one place with both."""
    text = "Which <Q5> has a <P19> that has <P17> <Q30> and has <P131> <Q99>?"
    assert print_squall(parse_squall(text, notation="id"), "id") == text
    expected = PREFIXES + ("SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 ; wdt:P19 ?p . ?p wdt:P17 wd:Q30 ; "
                           "wdt:P131 wd:Q99 . }")
    assert equivalent(cnl.compile(text, notation="id"), expected, distinct=True)


def test_a_comparison_of_several_words_takes_any_spacing():
    text = "Which <Q8502> has a <P2044> greater  or\tequal   to 8000?"
    assert print_squall(parse_squall(text, notation="id"), "id") == "Which <Q8502> has a <P2044> greater or equal to 8000?"


def test_a_determiner_under_one_has_says_its_own_statement_only():
    """"has no <P57> X and a <P161> Y": the film without that director, with that cast member."""
    text = "Which <Q11424> has no <P57> <Q25191> and a <P161> <Q45772>?"
    query = parse_squall(text, notation="id")
    assert print_squall(query, "id") == "Which <Q11424> has not <P57> <Q25191> and has <P161> <Q45772>?"
    gold = PREFIXES + ("SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 . ?f wdt:P161 wd:Q45772 . "
                       "FILTER NOT EXISTS { ?f wdt:P57 wd:Q25191 } }")
    assert equivalent(cnl.compile(text, lexicon=Lexicon()), gold, distinct=True)



@pytest.mark.parametrize("text", [
    "Which <Q11424> is the 3rd <P527> of <Q1299>?", "Which [film] has the second <publication date>?",
    "Give me the third <Q11424> of <Q25191>.", "What is the 2nd <Q11424> that has <P57> <Q25191>?"])
def test_an_ordinal_without_a_superlative_is_refused_with_the_forms_to_write(text):
    with pytest.raises(CNLSyntaxError) as err:
        cnl.compile(text, lexicon=Lexicon())
    assert "an ordinal needs a superlative" in str(err.value) and "at <P1545:series_ordinal>" in str(err.value)


def test_how_many_of_counts_a_noun_phrase_with_the_only():
    with pytest.raises(CNLSyntaxError, match="'How many of' counts a noun phrase with 'the'"):
        parse_squall("How many of a <Q11424> have <P57> <Q25191>?")


def test_a_comparative_before_than_stays_a_comparison():
    # "a greater <P> than X" compares; only "the greater <P>" before a term ranks
    compared = cnl.compile("Which <Q8502> has a greater <P2044> than <Q43512>?")
    assert "ORDER BY" not in compared and "FILTER" in compared
    with pytest.raises(CNLSyntaxError):
        parse_squall("Which <Q8502> has the greater than <Q43512>?")


def test_an_of_phrase_in_parentheses_keeps_a_relational_conjunct():
    """"a <P161> of (A and a <P57> of B)": the cast member of A and of B's director, as written;
    the printer keeps the parentheses that say so."""
    text = "Which <Q5> is a <P161> of (<Q25188> and a <P57> of <Q47703>)?"
    query = parse_squall(text, notation="id")
    printed = print_squall(query, "id")
    assert parse_squall(printed, notation="id") == query
    gold = PREFIXES + ("SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 . wd:Q25188 wdt:P161 ?h . "
                       "wd:Q47703 wdt:P57 ?d . ?d wdt:P161 ?h . }")
    assert equivalent(cnl.compile(text, lexicon=Lexicon()), gold, distinct=True)
    assert equivalent(cnl.compile(printed, lexicon=Lexicon()), gold, distinct=True)


@pytest.mark.parametrize("text, canonical", [
    # a relative clause's own subject before "has <P>": the property's value is the clause's noun
    ("Which <Q11424> that <Q25191> has <P800>?", "Which <Q11424> is a <P800> of <Q25191>?"),
    ("Give me some thing that <Q76> has <P26>.", "Give me something that is a <P26> of <Q76>."),
    # "maybe has <P>" and "does not have <P>" keep their own readings
    ("Which <Q11424> has <P57> <Q25191> and maybe has <P2142>?",
     "Which <Q11424> has <P57> <Q25191> and has maybe a <P2142>?"),
    ("Which <Q5> does not have <P26>?", "Which <Q5> has no <P26>?"),
    # a value, a variable or a qualifier with a value of several words after the property: no bare form
    ("Which <Q5> has <P26> <Q13133>?", "Which <Q5> has <P26> <Q13133>?"),
    ("Which <Q5> has <P569> ?b?", "Which <Q5> has <P569> ?b?"),
    # "What" before a property and its value keeps its reading as the property's subject
    ("What <P31> <Q5>?", "What has <P31> <Q5>?"),
    # a fronted object's "did" has its subject before the property
    ("Which <Q618779> did <Q38111> <P166>?", "Which <Q618779> is a <P166> of <Q38111>?"),
    # a fronted object's "has <P>" has its value asked: no bare "has", no "of" between the terms
    ("Which <Q618779> <Q38111> has <P166>?", "Which <Q618779> is a <P166> of <Q38111>?"),
    ("How many <Q618779> <Q38111> has <P166>?", "How many <Q618779> is a <P166> of <Q38111>?"),
    ("Which <Q11424> <Q38111> did <P166> <Q103916> at <P1686>?",
     "Which <Q11424> at which <P1686> <Q38111> has <P166> <Q103916>?"),
])
def test_has_without_an_article_only_where_the_verb_phrase_ends(text, canonical):
    assert print_squall(parse_squall(text), "id", id_labels=False) == canonical


def test_a_label_after_has_right_after_the_question_noun_stays_whose_values_are_asked():
    """In the ECAI notation "<label>" may be a property or a name: right after the question's noun
    "has <Barack_Obama>" says whose values are asked (form 3), elsewhere a label alone after "has"
    at the end of a verb phrase is a property with no value."""
    counted = parse_squall("How many <P40:child> has <Barack_Obama>?", "ecai")
    assert counted == parse_squall("How many <P40:child> of <Barack_Obama> are there?", "ecai")
    assert parse_squall("Which <spouse> has <Barack_Obama>?", "ecai") == parse_squall(
        "Which <spouse> of <Barack_Obama> are there?", "ecai")
    assert parse_squall("Which <film> that has <box_office> has <P57:director> <Christopher_Nolan>?", "ecai") == (
        parse_squall("Which <film> that has a <box_office> has <P57:director> <Christopher_Nolan>?", "ecai"))


def test_has_without_an_article_leaves_every_prefix_of_a_value_viable():
    """The lexer decides "has <P>" is bare by what follows the property: a text cut after the
    property (as a decoder writes it) can still go on with the value."""
    from cnl.dialects.squall.prefix import SquallPrefixChecker

    checker = SquallPrefixChecker()
    for text in ("Which [film] has <director> [Jon Favreau]?", "Which [film] has <director> and has <cast member> [X]?"):
        assert all(checker.is_viable(text[:i]) for i in range(1, len(text) + 1)), text
        assert checker.is_complete(text)


def test_a_denied_value_leaves_every_prefix_viable_and_a_denied_statement_its_reading():
    """"and not"/"but not" before one value that ends the verb phrase denies the statement's
    property that value; before a property it stays a denied statement of its own; a text cut
    anywhere (as a decoder writes it) stays viable."""
    from cnl.dialects.squall.prefix import SquallPrefixChecker

    assert parse_squall("Which <Q6256> has <P47> <Q142> and not <P30> <Q46>?") == parse_squall(
        "Which <Q6256> has <P47> <Q142> and has not <P30> <Q46>?")
    checker = SquallPrefixChecker()
    for text in ("Which [country] has <shares border with> [France] but not [Germany]?",
                 "Which [country] has <shares border with> [France] but not [Germany] and has <continent> [Asia]?"):
        assert all(checker.is_viable(text[:i]) for i in range(1, len(text) + 1)), text
        assert checker.is_complete(text)
    with pytest.raises(CNLSyntaxError, match="follows a statement with its value"):
        parse_squall("Which <Q6256> has a <P47> but not <Q183>?")


def test_a_relational_noun_without_the_after_of_reads_with_it():
    # after "of" (read only where the text does not parse as written): an aggregate's argument,
    # a relational noun's
    assert parse_squall("What is the sum of <P1082> of <Q90>?") == parse_squall("What is the sum of the <P1082> of <Q90>?")
    assert parse_squall("What is the <P36> of <P17> of <Q90>?") == parse_squall(
        "What is the <P36> of the <P17> of <Q90>?")


def test_a_string_between_typographic_quotes_is_a_string():
    # as a word processor writes it (“Star”); printed back between straight quotes
    query = parse_squall("Which <Q11424> has a <P1476> that contains “Star”?")
    assert query == parse_squall('Which <Q11424> has a <P1476> that contains "Star"?')
    assert print_squall(query, "id", id_labels=False) == 'Which <Q11424> has a <P1476> contains "Star"?'
    from cnl.dialects.squall.prefix import SquallPrefixChecker

    assert SquallPrefixChecker().is_complete("Which [film] has a <title> that contains “Star”?")


def test_but_not_of_without_a_relational_noun_is_refused_where_it_stands():
    with pytest.raises(CNLSyntaxError, match="'but not of Y' follows a relational noun") as err:
        parse_squall("Which <Q5> is <Q76> but not of <Q13133>?")
    assert "column 21" in str(err.value)
