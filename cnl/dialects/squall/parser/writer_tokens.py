"""Writer forms decided by what follows a word: tokens the SQUALL lexer retypes (or adds) by
their neighbours, where a grammar rule would leave the LALR parser to choose before it sees
them (reduce/reduce conflicts, or a shift that takes an older reading away).

- a bare "has <P>" (no article, no value) where the verb phrase ends after the property
  (``HAS_BARE``, ``ASK_HAS_BARE``), the property also one the ECAI notation writes by its label
  alone ("has <death_date>", retyped ``PROP``);
- "What <P> does X have?": "What" before a property and an auxiliary or "of" (``WHICH``);
- only for a text that does not parse as written: "Which <member> <X> has ...", a relational
  noun and a name with no "of" between (``OF``); "Which <award> has <X> <P166>?", "has" as the
  perfect's auxiliary before a fronted object's subject (``HAS_AUX``); "earlier than <P577> of
  X", "Is <P2048> of X greater than ...?", a relational noun without "the" where a noun phrase
  goes (``THE``).

Each pass takes the token stream and gives one; a stream that stops lexing (a term still being
written) gives its tokens up to there, then the error. :func:`writer_form_tokens` runs the
passes a text may need (squall_writer_forms.lark has the rules that read the tokens)."""
from __future__ import annotations

import re

from lark import Token
from lark.exceptions import LarkError

from cnl.dialects.notation import ID_RE
from cnl.dialects.squall.parser.reading import current_notation, lexing_prefix, reading_again


def writer_form_tokens(tokens, text: str):
    """``tokens`` (the lexer's, for ``text``) with the writer forms' tokens retyped or added."""
    if _MAY_HAVE_BARE.search(text):
        tokens = _bare_have_tokens(tokens)
    if _WHAT_PROPERTY.match(text):
        tokens = _what_as_which(tokens)
    # (a plain substring test first: most texts have none of these forms, and a regex search
    # costs a few microseconds a text)
    low = text.lower()
    if " not " in low and _MAY_DENY_VALUE.search(text):
        tokens = _denied_value_tokens(tokens)
    if low.count("at ") > 1 and _MAY_JOIN_QUALIFIERS.search(text):
        tokens = _joined_qualifier_tokens(tokens)
    if current_notation.get() == "ecai":
        if _MAY_BE_LABEL_VERB.search(text):
            tokens = _label_verb_tokens(tokens)
        if ("and <" in low or ", <" in low) and _MAY_BE_LABEL_STATEMENT.search(text):
            tokens = _label_statement_tokens(tokens)
    if reading_again.get():
        if _WHICH_TWO_TERMS.match(text):
            tokens = _of_between_names(tokens)
        if _QUESTION_NOUN.match(text) and _MAY_HAVE_BARE.search(text):
            tokens = _perfect_auxiliary(tokens)
        if _MAY_BE_BARE_RELATIONAL.search(text):
            tokens = _the_before_relational_noun(tokens)
    return tokens


def may_read_again(text: str) -> bool:
    """Whether a text that does not parse as written may parse with the forms of a second
    reading (``reading_again``): only then is it parsed again."""
    return bool(_WHICH_TWO_TERMS.match(text) or (_QUESTION_NOUN.match(text) and _MAY_HAVE_BARE.search(text))
                or _MAY_BE_BARE_RELATIONAL.search(text))


# a question's noun phrase: "Which <C>", "What <C>", "How many <C>"
_QUESTION_NOUN = re.compile(r"\s*(?:which|what|how\s+many)\s+[<[]", re.I)


def _question_noun_at(kinds: list) -> int | None:
    """Where the noun of a question's "Which"/"What"/"How many" noun phrase stands in the token
    kinds ``kinds`` (1 or 2), or None for another question."""
    return 2 if kinds[:2] == ["HOW", "MANY"] else 1 if kinds[:1] in (["WHICH"], ["WHAT"]) else None


def _tokens_and_error(stream):
    """(the tokens of ``stream`` up to where it stops lexing, the error there or None)."""
    tokens, error = [], None
    try:
        for tok in stream:
            tokens.append(tok)
    except LarkError as err:
        error = err
    return tokens, error


_MAY_HAVE_BARE = re.compile(r"\bha(?:s|ve|d)\s+[<[]", re.I)
# where a verb phrase ends: the end of the question, a closing parenthesis, the next verb phrase
# (joined, or the main one after a relative clause: "Which <Q5> that has <P570> is ...")
_VP_ENDS = frozenset({"_END", "$END", "_RPAR", "AND_VP", "OR_VP", "AND_NOT", "AND_THAT", "AND_WHOSE", "AND_WITH",
                      "HAS", "HAVE", "HAD", "IS", "ARE", "WAS", "WERE", "DOES", "DO", "DID", "VERB_PROP",
                      "BELONGS", "BELONG", "BELONGED"})
# a qualifier's value of one token ("at <P580> 2000", "with <P642> <Q5>")
_ONE_TOKEN_VALUES = frozenset({"INT", "DECIMAL", "DATE", "STRING", "ENT"})


_WHAT_PROPERTY = re.compile(r"\s*what\s+<", re.I)
_AUXILIARIES = frozenset({"DOES", "DO", "DID", "HAS", "HAVE", "HAD"})


def _what_as_which(stream):
    """The tokens of ``stream`` with a question's first "What" before a property and an
    auxiliary or "of" ("What <P40> does <Q76> have?", "What <P166> did <Q25191> <P>?", "What
    <P40> has <Q76>?", "What <P40> of <Q76> has ...?") retyped WHICH: there "what" asks which of
    the property's values, as "which" does.
    Before a property and anything else "What" keeps its reading as the subject of the
    property as a verb ("What <P31> <Q5>?")."""
    rest = iter(stream)
    head = []
    for tok in rest:
        head.append(tok)
        if len(head) == 4 or (len(head) == 3 and tok.type != "PLURAL"):
            break
    kinds = [tok.type for tok in head if tok.type != "PLURAL"]
    if kinds[:2] == ["WHAT", "PROP"] and len(kinds) > 2 and (kinds[2] in _AUXILIARIES or kinds[2] == "OF"):
        head[0] = Token.new_borrow_pos("WHICH", head[0], head[0])
    yield from head
    yield from rest


_RELATIVE_PRONOUNS = frozenset({"THAT", "AND_THAT", "WHICH", "WHOM", "WHO"})
_CLAUSE_BOUNDS = _VP_ENDS | {"WHOSE", "AT", "WITH", "OF_WHICH"}


def _has_gapped_object(tokens: list, i: int) -> bool:
    """Whether "has" at ``i`` follows a relative clause's own subject ("some thing that
    <Nero_Wolfe> has <P1441>", "the <film> which [X] has <P>") or a fronted object's ("Which
    <Q618779> <Q38111> has <P166>?"): there the property's value is the relative pronoun's noun
    or the question's (SQUALL's object gap), not a value left unsaid. A question's first
    "Which <C>" alone is its subject, not a relative pronoun."""
    k = i - 1
    while k >= 0 and tokens[k].type not in _RELATIVE_PRONOUNS and tokens[k].type not in _CLAUSE_BOUNDS:
        k -= 1
    if k > 0 and k < i - 1 and tokens[k].type in _RELATIVE_PRONOUNS:
        return True
    # a question's fronted object: "Which <Q618779> <Q38111> has <P166>?", "How many <C> [X] has <P>?"
    kinds = [tok.type for tok in tokens[:i] if tok.type != "PLURAL"]
    start = _question_noun_at(kinds)
    return start is not None and len(kinds) == start + 2 and kinds[start] in ("ENT", "PROP") and kinds[-1] == "ENT"


def _label_property(tok) -> bool:
    """Whether ``tok`` is a term the ECAI notation writes by its label alone (``<death_date>``),
    which after "has" can only be a property (the lexer makes it an ENT: elsewhere it may be a
    class or a name)."""
    return (tok.type == "ENT" and tok.value[:1] == "<" and current_notation.get() == "ecai"
            and ID_RE.match(tok.value[1:-1]) is None)


def _after_question_noun(tokens: list, i: int) -> bool:
    """Whether "has" at ``i`` comes right after the question's noun phrase ("Which <spouse> has
    <Barack_Obama>?", "How many <part(s)> has <NSYNC>?"): there a term by its label alone is
    whose values are counted or asked (form 3), not a property."""
    kinds = [tok.type for tok in tokens[:i] if tok.type != "PLURAL"]
    start = _question_noun_at(kinds)
    return start is not None and len(kinds) == start + 1


def _bare_have_tokens(stream):
    """The tokens of ``stream`` with "has" (have, had) before a property that ends its verb
    phrase ("Which <Q5> has <P570>?", "... has <P39> at <P580> 2000 and ...") retyped HAS_BARE,
    and a yes/no question's "Has" so ("Has <Q76> <P570>?") ASK_HAS_BARE
    (squall_writer_forms.lark): "has" with no article and no value. Not after "not" ("does not
    have <P570>" is its own form). A text that stops lexing (a term still being written, as the
    prefix checker sees it) yields its tokens up to there, then the error: what follows its
    last token is unknown, so that token ends no verb phrase; so too in a text lexed as a
    prefix (:func:`~cnl.dialects.squall.parser.reading.reading_prefix`)."""
    tokens, error = _tokens_and_error(stream)
    end = "$UNKNOWN" if error is not None or lexing_prefix.get() else "$END"
    for i, tok in enumerate(tokens[:-1]):
        if tok.type not in ("HAS", "HAVE", "HAD"):
            continue
        prop, kind = i + 1, "HAS_BARE"
        if i == 0 and tok.type == "HAS" and len(tokens) > 2 and tokens[1].type == "ENT":
            prop, kind = 2, "ASK_HAS_BARE"  # a yes/no question: "Has <Q76> <P570>?"
        if tokens[prop].type != "PROP" and not (_label_property(tokens[prop]) and not _after_question_noun(tokens, i)):
            continue
        if i and tokens[i - 1].type in ("NOT", "MAYBE"):
            continue
        if _has_gapped_object(tokens, i):
            continue
        j = prop + 1  # past the qualifiers, which come before a value too ("has <P39> at <P580> 2000 <Q11696>")
        while (j + 2 < len(tokens) and tokens[j].type in ("AT", "WITH") and tokens[j + 1].type == "PROP"
               and tokens[j + 2].type in _ONE_TOKEN_VALUES):
            j += 3
        if (tokens[j].type if j < len(tokens) else end) in _VP_ENDS:
            tokens[i] = Token.new_borrow_pos(kind, tok, tok)
            if tokens[prop].type != "PROP":  # a label term of the ECAI notation
                tokens[prop] = Token.new_borrow_pos("PROP", tokens[prop], tokens[prop])
    yield from tokens
    if error is not None:
        raise error


_MAY_DENY_VALUE = re.compile(r"\b(?:and|but)\s+not\s+[<[]", re.I)


def _denied_value_tokens(stream):
    """The tokens of ``stream`` with "and not" / "but not" (AND_NOT, which the lexer makes only
    before a term) before one name that ends the verb phrase retyped AND_NOT_VALUE: "has <P37> <Q1860> but not <Q150>" denies
    the statement's property that value (squall_writer_forms.lark). Before a property ("and not
    <P57> X") it stays AND_NOT. A text lexed as a prefix, or one that stops lexing, leaves its
    end unknown, so its last value ends no verb phrase."""
    tokens, error = _tokens_and_error(stream)
    end = "$UNKNOWN" if error is not None or lexing_prefix.get() else "$END"
    for i, tok in enumerate(tokens[:-1]):
        if (tok.type == "AND_NOT" and tokens[i + 1].type == "ENT"
                and (tokens[i + 2].type if i + 2 < len(tokens) else end) in _VP_ENDS):
            tokens[i] = Token.new_borrow_pos("AND_NOT_VALUE", tok, tok)
    yield from tokens
    if error is not None:
        raise error


def _merged(kind: str, value: str, first, last):
    """One token of ``kind`` and ``value`` in place of the tokens ``first`` to ``last``."""
    token = Token.new_borrow_pos(kind, value, first)
    token.end_pos, token.end_line, token.end_column = last.end_pos, last.end_line, last.end_column
    return token


_MAY_JOIN_QUALIFIERS = re.compile(r"\bat\s+(?:an?\s+)?<.*(?:\band|,)\s+at\s+(?:an?\s+)?<", re.I | re.S)
# what ends the qualifiers of one statement: its verb phrase ends, or a clause begins
_QUALIFIERS_END = _VP_ENDS | {"THAT", "WHICH", "WHO", "WHOSE", "OF", "AND"}


def _joined_qualifier_tokens(stream):
    """The tokens of ``stream`` with "and at" (", at") before a property merged into one AND_AT
    where a qualifier ("at <P> ...") of the same statement comes before it: "at <P585> 2000 and at
    <P1686> Y" joins two qualifiers (squall_writer_forms.lark). Elsewhere "and" and "at" stay
    themselves. A read-only form: a prefix that ends in "and at" is no prefix the decoder's
    checker accepts (the decoder writes "at <P585> 2000 at <P1686> Y")."""
    tokens, error = _tokens_and_error(stream)
    out, qualified = [], False
    skip = False
    for i, tok in enumerate(tokens):
        if skip:  # the "at" of an AND_AT
            skip = False
            continue
        following = [t.type for t in tokens[i + 1:i + 4]]
        # the property after "at" (its article first); a term the ECAI notation writes by its
        # label alone is an ENT to the lexer, and a property after "at" (prop_l)
        property_next = (following[1:2] in (["PROP"], ["ENT"])
                         or following[1:3] in (["A", "PROP"], ["AN", "PROP"], ["A", "ENT"], ["AN", "ENT"]))
        if qualified and tok.type in ("AND", "_COMMA") and following[:1] == ["AT"] and property_next:
            out.append(_merged("AND_AT", f"{tok} {tokens[i + 1]}", tok, tokens[i + 1]))
            skip = True
            continue
        if tok.type == "AT":
            qualified = True
        elif tok.type in _QUALIFIERS_END:
            qualified = False
        out.append(tok)
    yield from out
    if error is not None:
        raise error


_MAY_BE_LABEL_VERB = re.compile(r"\b(?:is|are|was|were)\s+<[^<>]*>\s*[<\[]", re.I)


def _label_verb_tokens(stream):
    """The tokens of ``stream`` (the ECAI notation) with "is <label> X" inside a sentence, a term
    by its label alone between "is" and a name, made one VERB_PROP as "is-<label> X" is: "Which
    <film> is <part_of_the_series> <Star_Wars>?" (two names in a row after "is" read as nothing
    else). A question's first "Is" ("Is <Michelle_Obama> <spouse> of ...?") keeps its reading."""
    tokens, error = _tokens_and_error(stream)
    out, skip = [], False
    for i, tok in enumerate(tokens):
        if skip:
            skip = False
            continue
        if (i > 0 and tok.type in ("IS", "ARE", "WAS", "WERE") and i + 2 < len(tokens)
                and _label_property(tokens[i + 1]) and tokens[i + 2].type == "ENT"):
            out.append(_merged("VERB_PROP", f"{tok.value}-{tokens[i + 1].value}", tok, tokens[i + 1]))
            skip = True
            continue
        out.append(tok)
    yield from out
    if error is not None:
        raise error


_MAY_BE_LABEL_STATEMENT = re.compile(r"\bha(?:s|ve|d)\b.*(?:\band|,)\s+<[^<>]*>\s*[<\[\d\"]", re.I | re.S)


def _label_statement_tokens(stream):
    """The tokens of ``stream`` (the ECAI notation) with a term by its label alone after "and" (or
    a comma) and before a value, after "has", made a PROP: "has <P19:place_of_birth> <Paris> and
    <death_date> 2000" lists a second statement under one "has" (a name there would be two
    noun phrases in a row)."""
    tokens, error = _tokens_and_error(stream)
    had = False
    for i, tok in enumerate(tokens):
        if tok.type in ("HAS", "HAVE", "HAD", "HAS_BARE"):
            had = True
        elif (had and tok.type in ("AND", "_COMMA") and i + 2 < len(tokens) and _label_property(tokens[i + 1])
              and tokens[i + 2].type in _ONE_TOKEN_VALUES):
            tokens[i + 1] = Token.new_borrow_pos("PROP", tokens[i + 1], tokens[i + 1])
    yield from tokens
    if error is not None:
        raise error


_WHICH_TWO_TERMS = re.compile(r"\s*which\s+[<[][^\]>]*[\]>](?:-?s)?\s*[<[]", re.I)


def _of_between_names(stream):
    """The tokens of ``stream`` with "of" added between a question's "Which <noun>" and a name
    right after it ("Which <member> <Twice> has not a <P19>?" = "Which <member> of <Twice> ...",
    a relational noun and its argument with the preposition left out). Only for a text that did
    not parse as written (:data:`~cnl.dialects.squall.parser.reading.reading_again`): the
    fronted objects ("Which <award> <X> did <P166>?") have two terms there too."""
    tokens, error = _tokens_and_error(stream)
    kinds = [tok.type for tok in tokens]
    name = 3 if kinds[2:3] == ["PLURAL"] else 2  # "Which <member>-s <Twice> have ..."
    if (error is None and len(tokens) > name + 1 and kinds[0] == "WHICH" and kinds[1] in ("ENT", "PROP")
            and kinds[name] == "ENT"):
        of = Token.new_borrow_pos("OF", "of", tokens[name])
        tokens = tokens[:name] + [of] + tokens[name:]
    yield from tokens
    if error is not None:
        raise error


def _perfect_auxiliary(stream):
    """The tokens of ``stream`` with the "has" (have) of a fronted object's perfect retyped
    HAS_AUX: a question's noun phrase ("Which <award>", "How many <film>-s"), "has", a name, a
    property ("Which <Q618779> has <Q25191> <P166>?" = "Which <Q618779> did <Q25191> <P166>?")."""
    tokens, error = _tokens_and_error(stream)
    kinds = [tok.type for tok in tokens]
    start = _question_noun_at(kinds)
    if error is None and start is not None:
        i = start + 1 + (start + 1 < len(kinds) and kinds[start + 1] == "PLURAL")
        if (kinds[start:start + 1] in (["ENT"], ["PROP"]) and i + 2 < len(kinds) and kinds[i] in ("HAS", "HAVE")
                and kinds[i + 1] == "ENT" and kinds[i + 2] == "PROP"):
            tokens[i] = Token.new_borrow_pos("HAS_AUX", tokens[i], tokens[i])
    yield from tokens
    if error is not None:
        raise error


_MAY_BE_BARE_RELATIONAL = re.compile(r"(?:\b(?:than|to|before|after|of)|^\s*(?:is|was|are|were))\s+<", re.I)
# where a noun phrase goes and a relational noun is written without "the" before it
_BEFORE_A_NOUN_PHRASE = frozenset({"THAN", "TO", "BEFORE", "AFTER", "OF"})


def _the_before_relational_noun(stream):
    """The tokens of ``stream`` with "the" added before a relational noun written without it
    after "than", "to", "before", "after" or "of" ("earlier than <P577> of <Q47703>", "the sum of
    <P1082> of <Q90>", "the <P26> of <P40> of <Q76>") or as a yes/no
    question's subject ("Is <P2048> of <Q1> greater than ...?"): "<P> of X" = "the <P> of X", as
    after "is"."""
    tokens, error = _tokens_and_error(stream)
    if error is None:
        out = []
        for i, tok in enumerate(tokens):
            kinds = [t.type for t in tokens[i:i + 3] if t.type != "PLURAL"]
            before = tokens[i - 1].type if i else None
            if (tok.type == "PROP" and kinds[1:2] == ["OF"]
                    and (before in _BEFORE_A_NOUN_PHRASE or (i == 1 and before in ("IS", "WAS", "ARE", "WERE")))):
                out.append(Token.new_borrow_pos("THE", "the", tok))
            out.append(tok)
        tokens = out
    yield from tokens
    if error is not None:
        raise error
