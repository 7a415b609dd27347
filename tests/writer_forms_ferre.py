"""The cases of Ferré's SQUALL forms (issue 29, ``squall_ferre_forms.lark``), run by
``tests/test_writer_forms.py`` with its own cases (this list is kept apart so that file stays a size
one can read): each (form, texts in the three notations, canonical form in the ID notation,
hand-written SPARQL)."""

# labels of the label and ECAI notations these cases add to test_writer_forms.IDS
IDS = {"given name": "P735", "family name": "P734", "notable work": "P800", "Brad Pitt": "Q35332"}

CASES = [
    # "For every <C> X, <question>": the thing an answer column (its group key under a count)
    ("for every",
     ("For every <Q515> X, what is the <P1082> of X?", "For every [city] X, what is the <population> of X?",
      "For every <city> X, what is the <P1082:population> of X?"),
     "What is the <P1082> of which <Q515>?",
     "SELECT DISTINCT ?c ?p WHERE { ?c wdt:P31 wd:Q515 . ?c wdt:P1082 ?p . }"),
    ("for every",
     ("For each <Q11424>, how many <P161> does it have?", "For each [film], how many <cast member> does it have?",
      "For each <film>, how many <P161:cast_member> does it have?"),
     "How many <P161> of which <Q11424> are there?",
     "SELECT ?f (COUNT(DISTINCT ?a) AS ?n) WHERE { ?f wdt:P31 wd:Q11424 . ?f wdt:P161 ?a . } GROUP BY ?f"),
    ("for every",
     ("For every <Q5> that has <P106> <Q33999>, give me its <P26>.",
      "For every [human] that has <occupation> [actor], give me its <spouse>.",
      "For every <human> that has <P106:occupation> <actor>, give me its <P26:spouse>."),
     "Give me the <P26> of (which <Q5> that has <P106> <Q33999>).",
     "SELECT DISTINCT ?h ?s WHERE { ?h wdt:P31 wd:Q5 ; wdt:P106 wd:Q33999 ; wdt:P26 ?s . }"),
    ("for every",
     ("For every <Q515> X, give me X and its <P1082>.", "For every [city] X, give me X and its <population>.",
      "For every <city> X, give me X and its <P1082:population>."),
     "Give me which <Q515> ?X and the <P1082> of ?X.",
     "SELECT DISTINCT ?c ?p WHERE { ?c wdt:P31 wd:Q515 . ?c wdt:P1082 ?p . }"),
    # "and maybe": an optional answer or value
    ("maybe in a coordination",
     ("Give me the <P569> and maybe the <P570> of every <Q5> that has <P106> <Q33999>.",
      "Give me the <date of birth> and maybe the <date of death> of every [human] that has <occupation> [actor].",
      "Give me the <P569:date_of_birth> and maybe the <P570:date_of_death> of every <human> that has "
      "<P106:occupation> <actor>."),
     "Give me (the <P569> of (a <Q5> ?x that has <P106> <Q33999>)) and maybe a <P570> of ?x.",
     "SELECT DISTINCT ?b ?d WHERE { ?h wdt:P31 wd:Q5 ; wdt:P106 wd:Q33999 ; wdt:P569 ?b . "
     "OPTIONAL { ?h wdt:P570 ?d . } }"),
    ("maybe in a coordination",
     ("What is the <P1082> of <Q142> and if defined, what is the <P36> of <Q142>?",
      "What is the <population> of [France] and if defined, what is the <capital> of [France]?",
      "What is the <P1082:population> of <France> and if defined, what is the <P36:capital> of <France>?"),
     "Give me (the <P1082> of <Q142>) and maybe a <P36> of <Q142>.",
     "SELECT DISTINCT ?p ?c WHERE { wd:Q142 wdt:P1082 ?p . OPTIONAL { wd:Q142 wdt:P36 ?c . } }"),
    ("maybe in a coordination",
     ("What is the <P1476> of a <P800> X of a <Q5> and if defined, what is the <P577> of X?",
      "What is the <title> of a <notable work> X of a [human] and if defined, what is the <publication date> of X?",
      "What is the <P1476:title> of a <P800:notable_work> X of a <human> and if defined, what is the "
      "<P577:publication_date> of X?"),
     "Give me (the <P1476> of (something ?X that is a <P800> of a <Q5>)) and maybe a <P577> of ?X.",
     "SELECT DISTINCT ?t ?d WHERE { ?h wdt:P31 wd:Q5 ; wdt:P800 ?w . ?w wdt:P1476 ?t . "
     "OPTIONAL { ?w wdt:P577 ?d . } }"),
    ("maybe in a coordination",
     ("Give me every <Q5> whose <P19> is <Q60> and maybe whose <P26> is ?s.",
      "Give me every [human] whose <place of birth> is [New York City] and maybe whose <spouse> is ?s.",
      "Give me every <human> whose <P19:place_of_birth> is <New_York_City> and maybe whose <P26:spouse> is ?s."),
     "Give me every <Q5> whose <P19> is <Q60> and that has maybe a <P26> ?s.",
     "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 ; wdt:P19 wd:Q60 . OPTIONAL { ?h wdt:P26 ?s . } }"),
    # participles: "<P>-ed by X" (the subject's <P> is X: directed by X), "<P>-ing X" (the same)
    ("participle",
     ("Give me every <Q11424> <P57>-ed by <Q25191>.", "Give me every [film] <director>-ed by [Christopher Nolan].",
      "Give me every <film> <P57:director>-ed by <Christopher_Nolan>."),
     "Give me every <Q11424> that has <P57> <Q25191>.",
     "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 . ?f wdt:P57 wd:Q25191 . }"),
    ("participle",
     ("Is <Q25188> <P57>-ed by <Q25191>?", "Is [Inception] <director>-ed by [Christopher Nolan]?",
      "Is <Inception> <P57:director>-ed by <Christopher_Nolan>?"),
     "Has <Q25188> <P57> <Q25191>?",
     "ASK WHERE { wd:Q25188 wdt:P57 wd:Q25191 . }"),
    ("participle",
     ("Which <Q11424> <P161>-ing <Q35332> has <P57> <Q8877>?",
      "Which [film] <cast member>-ing [Brad Pitt] has <director> [Steven Spielberg]?",
      "Which <film> <P161:cast_member>-ing <Brad_Pitt> has <P57:director> <Steven_Spielberg>?"),
     "Which <Q11424> that has <P161> <Q35332> has <P57> <Q8877>?",
     "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P161 wd:Q35332 ; wdt:P57 wd:Q8877 . }"),
    # "where S" and ";"
    ("where and semicolon",
     ("Give me every <Q5> X where X has <P19> <Q60>.", "Give me every [human] X where X has <place of birth> "
      "[New York City].", "Give me every <human> X where X has <P19:place_of_birth> <New_York_City>."),
     "Give me every <Q5> ?X such that ?X has <P19> <Q60>.",
     "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 ; wdt:P19 wd:Q60 . }"),
    ("where and semicolon",
     ("Which <Q5> has <P19> <Q60>; has <P106> <Q33999>?",
      "Which [human] has <place of birth> [New York City]; has <occupation> [actor]?",
      "Which <human> has <P19:place_of_birth> <New_York_City>; has <P106:occupation> <actor>?"),
     "Which <Q5> has <P19> <Q60> and has <P106> <Q33999>?",
     "SELECT DISTINCT ?h WHERE { ?h wdt:P31 wd:Q5 ; wdt:P19 wd:Q60 ; wdt:P106 wd:Q33999 . }"),
    ("where and semicolon",
     ("Give me every <Q11424> that has <P57> <Q25191>; that has <P161> <Q45772>.",
      "Give me every [film] that has <director> [Christopher Nolan]; that has <cast member> [Christian Bale].",
      "Give me every <film> that has <P57:director> <Christopher_Nolan>; that has <P161:cast_member> "
      "<Christian_Bale>."),
     "Give me every <Q11424> that has <P57> <Q25191> and that has <P161> <Q45772>.",
     "SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P57 wd:Q25191 ; wdt:P161 wd:Q45772 . }"),
    # string functions
    ("string function",
     ("What is the uppercase of the <P1476> of <Q172241>?", "What is the uppercase of the <title> of "
      "[The Shawshank Redemption]?", "What is the uppercase of the <P1476:title> of <The_Shawshank_Redemption>?"),
     "What is the uppercase of (the <P1476> of <Q172241>)?",
     "SELECT DISTINCT ?u WHERE { wd:Q172241 wdt:P1476 ?t . BIND(UCASE(?t) AS ?u) }"),
    ("string function",
     ("Give me the lowercase of the <P1476> of <Q47703>.", "Give me the lowercase of the <title> of [The Godfather].",
      "Give me the lowercase of the <P1476:title> of <The_Godfather>."),
     "Give me the lowercase of (the <P1476> of <Q47703>).",
     "SELECT DISTINCT ?l WHERE { wd:Q47703 wdt:P1476 ?t . BIND(LCASE(?t) AS ?l) }"),
    ("string function",
     ('Give me concat("Film: ", the <P1476>) of every <Q11424> that has <P57> <Q25191>.',
      'Give me concat("Film: ", the <title>) of every [film] that has <director> [Christopher Nolan].',
      'Give me concat("Film: ", the <P1476:title>) of every <film> that has <P57:director> <Christopher_Nolan>.'),
     'Give me concat("Film: ", the <P1476> of (a <Q11424> that has <P57> <Q25191>)).',
     'SELECT DISTINCT ?c WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P57 wd:Q25191 ; wdt:P1476 ?t . '
     'BIND(CONCAT("Film: ", STR(?t)) AS ?c) }'),
    ("string function",
     ('Which <Q11424> has substr(the <P1476>, 1, 4) that is "The "?',
      'Which [film] has substr(the <title>, 1, 4) that is "The "?',
      'Which <film> has substr(the <P1476:title>, 1, 4) that is "The "?'),
     'Which <Q11424> such that substr(its <P1476>, 1, 4) is "The "?',
     'SELECT DISTINCT ?f WHERE { ?f wdt:P31 wd:Q11424 ; wdt:P1476 ?t . BIND(SUBSTR(STR(?t), 1, 4) AS ?s) '
     'FILTER(?s = "The ") }'),
]

# New canonical forms (printed as they are written), with their SPARQL: each text compiles to it in
# every notation and prints back as itself
CANONICAL = [
    ("string function",
     ('Give me concat(the <P735> of <Q76>, " ", the <P734> of <Q76>).',
      'Give me concat(the <given name> of [Barack Obama], " ", the <family name> of [Barack Obama]).',
      'Give me concat(the <P735:given_name> of <Barack_Obama>, " ", the <P734:family_name> of <Barack_Obama>).'),
     'Give me concat(the <P735> of <Q76>, " ", the <P734> of <Q76>).',
     'SELECT DISTINCT ?c WHERE { wd:Q76 wdt:P735 ?g ; wdt:P734 ?f . BIND(CONCAT(STR(?g), " ", STR(?f)) AS ?c) }'),
    ("string function",
     ("Give me substr(the <P1476> of <Q25188>, 1, 5).", "Give me substr(the <title> of [Inception], 1, 5).",
      "Give me substr(the <P1476:title> of <Inception>, 1, 5)."),
     "Give me substr(the <P1476> of <Q25188>, 1, 5).",
     "SELECT DISTINCT ?s WHERE { wd:Q25188 wdt:P1476 ?t . BIND(SUBSTR(STR(?t), 1, 5) AS ?s) }"),
    ("string function",
     ("Which <P1082> of <Q142> is a number?", "Which <population> of [France] is a number?",
      "Which <P1082:population> of <France> is a number?"),
     "Which <P1082> of <Q142> is a number?",
     "SELECT DISTINCT ?p WHERE { wd:Q142 wdt:P1082 ?p . FILTER(isNumeric(?p)) }"),
    ("string function",
     ("Give me every <P2044> of <Q513> that is a number.", "Give me every <elevation above sea level> of "
      "[Mount Everest] that is a number.", "Give me every <P2044:elevation_above_sea_level> of <Mount_Everest> "
      "that is a number."),
     "Give me every <P2044> of <Q513> that is a number.",
     "SELECT DISTINCT ?e WHERE { wd:Q513 wdt:P2044 ?e . FILTER(isNumeric(?e)) }"),
]
