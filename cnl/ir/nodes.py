"""The typed intermediate representation (IR): the contract between every stage.

Every dialect parses into it, every notation prints from it, every KG profile compiles from
it. It is independent of the notation a query was written in: ``<P57:director>``,
``<P57>`` and ``<director>`` all become ``Property(id="P57"|None, label="director"|None)``.

The shape follows SQUALL's semantics (Montague-style): a sentence is a noun phrase (NP) and
a verb phrase (VP); an NP denotes a quantified set of things described by a noun and
relative clauses (which are VPs over the thing); a VP is a predicate over its subject.
Surface variants with the same meaning map to one IR (``has <P> X`` = ``is-<P> X`` = ``<P> X``),
so printing an IR and parsing it back gives the same IR.

Source positions are kept on terms (``span``) for error messages but never compared.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union

# ------------------------------------------------------------------------------- terms


@dataclass(frozen=True, slots=True)
class Entity:
    """A named thing: ``<Jon_Favreau>``, ``[Jon Favreau]``, ``<Q295964>``."""

    id: str | None = None
    label: str | None = None
    span: tuple[int, int] | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Class:
    """A class used as a noun: ``<film>``, ``[film]``, ``<Q11424:film>``."""

    id: str | None = None
    label: str | None = None
    span: tuple[int, int] | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Property:
    """A property: ``<P57:director>``, ``<director>``, ``<P57>``."""

    id: str | None = None
    label: str | None = None
    span: tuple[int, int] | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Literal:
    """A literal value; ``datatype`` is one of ``integer``, ``decimal``, ``date``, ``dateTime``,
    ``string`` (written plainly: ``3``, ``2.5``, ``2004-09-07``, ``"x"``), or any other datatype,
    written as SPARQL writes it: an XSD datatype by its local name (``gYear`` for
    ``"1961"^^xsd:gYear``, ``duration`` for ``"PT2H"^^xsd:duration``), another by its IRI
    (``"Point(2 48)"^^<http://www.opengis.net/ont/geosparql#wktLiteral>``); ``lang``: the
    language tag of a string (``"Le boucher"@fr``)."""

    value: str
    datatype: str = "string"
    lang: str | None = None

    # the datatypes written without "^^" (every other one is a typed literal)
    PLAIN = ("integer", "decimal", "date", "dateTime", "string")
    XSD = "http://www.w3.org/2001/XMLSchema#"  # its datatypes go by their local names

    @classmethod
    def datatype_of(cls, iri: str) -> str:
        """The ``datatype`` of a datatype IRI: an XSD one's local name, any other the IRI."""
        return iri[len(cls.XSD):] if iri.startswith(cls.XSD) else iri

    @property
    def typed(self) -> bool:
        """Whether it is written ``"value"^^datatype``."""
        return self.datatype not in self.PLAIN


@dataclass(frozen=True, slots=True)
class Var:
    """A co-reference variable: ``X`` or ``?x``."""

    name: str


@dataclass(frozen=True, slots=True)
class PropPath:
    """A property path, written where a property is (SQUALL's forms, Ferré 2014):

    - ``"+"``, ``"*"``, ``"?"``: one or more / zero or more / zero or one steps of ``items[0]``
      (``<P131>+``, ``<P279>*``, ``<P131>{0,1}``);
    - ``"|"``: any of ``items`` (``<P22> or <P25>``, a coordination of properties);
    - ``"/"``: ``items`` one after the other (``<P19>/<P131>``);
    - ``"^"``: ``items[0]`` read backwards (``^<P131>``).

    ``items`` are properties or paths. A path takes no qualifiers; on Wikidata its steps are
    the truthy ``wdt:`` properties, except an alternative of plain properties, which is one
    statement of any of them (``p:P22|p:P25`` under the ``always`` statement profile)."""

    op: str
    items: tuple["Property | PropPath", ...]

    OPS = ("+", "*", "?", "|", "/", "^")


Term = Union[Entity, Class, Property, Literal, Var]

# ------------------------------------------------------------------------------- ordering


@dataclass(frozen=True, slots=True)
class Order:
    """A superlative: ``highest``, ``2nd earliest``, ``10 highest`` (count), ``3rd to 5th latest``.

    ``limit`` False is a plain ordering without a limit (Sparklis' ``highest-to-lowest``):
    all answers, sorted. ``ties``: ``joint highest``, every answer whose value (or count) is the
    maximum, where ``highest`` keeps one of them."""

    word: str
    rank: int = 1
    count: int | None = None
    to_rank: int | None = None
    limit: bool = True
    ties: bool = False

    DESCENDING = frozenset(
        {"highest", "latest", "largest", "biggest", "most", "greatest", "youngest", "longest"}
    )

    @property
    def descending(self) -> bool:
        return self.word in self.DESCENDING


# ------------------------------------------------------------------------------- nouns


@dataclass(frozen=True, slots=True)
class ClassNoun:
    """``<film>``: things that are instances of the class."""

    cls: Class


@dataclass(frozen=True, slots=True)
class RelNoun:
    """``<P26:spouse> of <Mark_Antony>``: values of the property; ``of`` None when implicit."""

    prop: "Property | PropPath"
    of: "NP | None" = None
    quals: tuple["Qual", ...] = ()
    any_rank: bool = False  # ``<P> at any rank of X``: see Stmt.any_rank
    normalized: bool = False  # ``<P> in SI units of X``: see Stmt.normalized
    unit: "Entity | None" = None  # ``<P> in unit <Q11573> of X``: see Stmt.unit


@dataclass(frozen=True, slots=True)
class YearOf:
    """``year of X``: the year of a date."""

    arg: "NP"


@dataclass(frozen=True, slots=True)
class DatePart:
    """``month of X``, ``day of X``: a part of a date other than its year (SPARQL's MONTH,
    DAY); ``part`` is ``month`` or ``day``."""

    part: str
    arg: "NP"

    PARTS = ("month", "day")


@dataclass(frozen=True, slots=True)
class Measure:
    """``length of X``: the number of characters of a literal (SPARQL's STRLEN), as in "such that
    the length of ?l is the lowest" (the shortest name); ``latitude of X``, ``longitude of X``: a
    coordinate of a point (GeoSPARQL's ``geof:latitude``/``geof:longitude``, as Wikidata's query
    service offers them), as in "such that the latitude of ?a is greater than the latitude of ?b";
    ``absolute value of X``: a number without its sign (SPARQL's ABS), as in "such that the
    absolute value of (?p - 1000000) is the lowest" (the population nearest a million); ``text of
    X``: a literal's lexical form without its language tag or datatype, an IRI's string (SPARQL's
    STR), as in "such that the text of ?l is equal to "Berlin"" (a label in any language)."""

    kind: str
    arg: "NP"

    # kind -> the SPARQL function that computes it
    FUNCTIONS = {"length": "STRLEN", "latitude": "geof:latitude", "longitude": "geof:longitude",
                 "absolute value": "ABS", "text": "STR",
                 # "the uppercase of X", "the lowercase of X" (SPARQL's UCASE, LCASE; Ferré's words)
                 "uppercase": "UCASE", "lowercase": "LCASE"}


@dataclass(frozen=True, slots=True)
class Distance:
    """``distance between A and B``: the distance between two points in kilometres
    (GeoSPARQL's ``geof:distance``, as Wikidata's query service offers it), as in "the distance
    between (the <P625> of <Q90>) and the <P625> of <Q64>"."""

    left: "NP"
    right: "NP"

    FUNCTION = "geof:distance"


Noun = Union[ClassNoun, RelNoun, YearOf, DatePart, Measure, Distance]

# ------------------------------------------------------------------------------- noun phrases


@dataclass(frozen=True, slots=True)
class Ref:
    """A noun phrase naming one term: an entity, a literal or a co-reference variable."""

    term: Term


@dataclass(frozen=True, slots=True)
class Quant:
    """A quantified noun phrase: ``a <film> that ...``, ``which <human>``, ``how many <film>-s``.

    ``det`` is one of: a, the, which, how_many, every, no, maybe, at_least, at_most,
    exactly, more_than, fewer_than (with ``number``). ``noun`` None means "thing". ``order`` is a superlative.
    """

    det: str
    noun: Noun | None = None
    rels: tuple["VP", ...] = ()
    order: Order | None = None
    number: int | None = None
    var: str | None = None


@dataclass(frozen=True, slots=True)
class Coord:
    """``X and Y`` / ``X or Y`` between noun phrases."""

    op: str
    items: tuple["NP", ...]


@dataclass(frozen=True, slots=True)
class Arith:
    """``2023 - the year of ...``; ``op`` is one of ``+ - * /`` (SPARQL's arithmetic)."""

    op: str
    left: "NP"
    right: "NP"


@dataclass(frozen=True, slots=True)
class Aggregate:
    """``the average <P2047> of the <film>-s``: one value computed from the referents of
    ``np`` (with repeats, as SPARQL's aggregates); ``op`` is one of sum, avg, min, max. A
    question word inside ``np`` (``... of the <film>-s of which <P57>``) is a group key: one
    value per group (SPARQL's GROUP BY). ``sample``: one of the values, any (SPARQL's SAMPLE,
    Ferré's ``a sample <P40> of <Q76>``); ``group_concat``: the values' strings joined by
    ``separator`` (SPARQL's GROUP_CONCAT, a space unless said: ``the concatenation of NP
    separated by ", "``)."""

    op: str
    np: "NP"
    separator: str | None = None

    OPS = ("sum", "avg", "min", "max", "sample", "group_concat")


@dataclass(frozen=True, slots=True)
class Its:
    """``its <P570>``: the value of ``prop`` of the thing the enclosing statement is about
    (``has a <P582> later than its <P580>``: one subject, two of its values compared)."""

    prop: Property
    quals: tuple[Qual, ...] = ()


@dataclass(frozen=True, slots=True)
class Now:
    """``now``: the current date and time (SPARQL's NOW())."""


@dataclass(frozen=True, slots=True)
class AnyValue:
    """``has a <P69> statement``: the object of a statement whose value the query does not
    look at, whatever it is and whether it has one (Wikidata's "no value" statements have
    none): the statement is said without its value (``?x p:P69 [ pq:P812 ?v ]``). Only the
    object of a forward ``Stmt``."""


@dataclass(frozen=True, slots=True)
class Choice:
    """``<A> if S VP, else <B>`` (issue 29; SPARQL's ``BIND(IF(test, A, B) AS ?answer)``): ``then``
    where the sentence ``subject test`` holds, else ``otherwise``. The sentence's noun phrases
    are the query's own (as everywhere in SQUALL, they name values of the whole query): a pair
    of values for which it fails gives ``otherwise``, and a subject without the values gives
    no answer. Only as the answer of ``Give me``."""

    subject: "NP"
    test: "VP"
    then: "NP"
    otherwise: "NP"


@dataclass(frozen=True, slots=True)
class StringCall:
    """``concat("Dr. ", the <P735> of X)``, ``substr(the <P1476> of X, 1, 3)`` (Ferré's function
    calls, issue 29): a string computed from values by SPARQL's ``CONCAT`` / ``SUBSTR`` (a start
    from 1 and an optional length), one value per combination of its arguments' values."""

    name: str
    args: tuple["NP", ...]

    FUNCTIONS = {"concat": "CONCAT", "substr": "SUBSTR"}
    ARITY = {"concat": (1, None), "substr": (2, 3)}  # the fewest and most arguments (None: any)


NP = Union[Ref, Quant, Coord, Arith, Aggregate, Its, Now, AnyValue, Choice, StringCall]

# ------------------------------------------------------------------------------- qualifiers


@dataclass(frozen=True, slots=True)
class Qual:
    """``at <P1545:series_ordinal> 3`` — a qualifier of the statement it is attached to."""

    prop: Property
    value: NP


# ------------------------------------------------------------------------------- verb phrases


@dataclass(frozen=True, slots=True)
class Stmt:
    """``has <P> X`` (subject P X), or with ``inverse`` (X P subject); qualifiers attached.

    ``order`` is a superlative over the statement itself (``has the highest <P> X``).
    ``any_rank`` (``has <P> X at any rank``): every statement of the property counts, whatever
    its rank (Wikidata's ``p:/ps:`` statements), where the profile would otherwise write only
    the best-ranked ones (the truthy ``wdt:`` shortcut). A statement with qualifiers, or
    under the ``always`` statement profile, is one of any rank anyway.
    ``normalized`` (``has a <P2048> in SI units greater than 2``): the value is the statement's
    quantity converted to SI units (Wikidata's ``p:P/psn:P/wikibase:quantityAmount``), of a
    statement of any rank.
    ``unit`` (``has a <P2044> in unit <Q11573> greater than 2``): the value is the amount of the
    statement's quantity as written in that unit (Wikidata's full value node,
    ``p:P/psv:P`` with ``wikibase:quantityAmount`` and ``wikibase:quantityUnit``), of a
    statement of any rank; a quantity in another unit is not among the values.
    """

    prop: "Property | PropPath"
    obj: NP
    quals: tuple[Qual, ...] = ()
    inverse: bool = False
    order: Order | None = None
    any_rank: bool = False
    normalized: bool = False
    unit: "Entity | None" = None


@dataclass(frozen=True, slots=True)
class Be:
    """``is NP``: the subject is (one of) the NP's referents."""

    np: NP


@dataclass(frozen=True, slots=True)
class Compare:
    """``greater than X``; op is one of > < >= <= = != between. ``temporal``: written
    ``earlier``/``later``, so a bare year compares with dates."""

    op: str
    args: tuple[NP, ...]
    temporal: bool = False


@dataclass(frozen=True, slots=True)
class Not:
    vp: "VP"


@dataclass(frozen=True, slots=True)
class And:
    items: tuple["VP", ...]


@dataclass(frozen=True, slots=True)
class Or:
    items: tuple["VP", ...]


@dataclass(frozen=True, slots=True)
class StrTest:
    """``matching "x"`` (regex), ``contains "x"``, ``starts with "x"``; case-insensitive
    unless ``case_sensitive`` (``case-sensitively contains "x"``)."""

    op: str
    value: str
    case_sensitive: bool = False


@dataclass(frozen=True, slots=True)
class LangIs:
    """``whose language is "en"``: the subject is a string with this language tag
    (SPARQL's LANG(?x) = "en"). ``range``: ``whose language matches "en"``, the tag is in the
    language range (SPARQL's LANGMATCHES(LANG(?x), "en"): en, en-GB, ...; "*" any tag)."""

    lang: str
    range: bool = False


@dataclass(frozen=True, slots=True)
class Exists:
    """``are there``: no constraint."""


@dataclass(frozen=True, slots=True)
class YearIs:
    """``whose year is ...``: the VP applies to the year of the subject (a date)."""

    vp: "VP"


@dataclass(frozen=True, slots=True)
class TextIs:
    """``whose text is "08"`` (Ferré's ``whose str is "08"``): the VP applies to the subject's
    string, a literal's lexical form or an IRI's text (SPARQL's ``STR(?x)``), as ``YearIs`` to a
    date's year."""

    vp: "VP"


@dataclass(frozen=True, slots=True)
class QualifierOf:
    """``at which <P585> S has <P166> X``: the subject is the value of qualifier ``prop`` of
    the statement made by ``vp`` about ``subject``."""

    prop: Property
    subject: NP
    vp: "VP"


@dataclass(frozen=True, slots=True)
class SuchThat:
    """``such that S`` (SQUALL's relative clause over a sentence, Ferré 2014): the sentence
    ``subject vp`` holds, whatever the clause is attached to; its noun phrases name values of
    the whole query by their co-reference variables (``which <Q5> that has <P569> ?b and
    that has <P570> ?d such that (the year of ?d - the year of ?b) is greater than 100``).
    A test over several values, or over a value computed from them (SPARQL's
    ``FILTER(YEAR(?d) - YEAR(?b) > 100)``, ``FILTER(?a < ?b || ?c < ?b)``). Only a relative
    clause."""

    subject: "NP"
    vp: "VP"


@dataclass(frozen=True, slots=True)
class TermKind:
    """``is a literal`` / ``is an IRI`` / ``is a number``: the kind of term the subject is (SPARQL's
    ``isLiteral(?x)``, ``isIRI(?x)``, ``isNumeric(?x)``); ``kind`` is ``literal``, ``iri`` or
    ``number``."""

    kind: str

    # kind -> the SPARQL test
    FUNCTIONS = {"literal": "isLiteral", "iri": "isIRI", "number": "isNumeric"}
    KINDS = tuple(FUNCTIONS)


@dataclass(frozen=True, slots=True)
class CountComparison:
    """``has more <P166> than <Q76>``, ``has fewer <P40> than the <P26> of <Q76>``: the number of
    the subject's ``prop`` values compared (``op`` ``>`` or ``<``) with the number of
    ``other``'s (project extension; each count a sub-query, as ``the number of <P> of X``)."""

    op: str
    prop: Property
    other: "NP"

    OPS = (">", "<", "=")


@dataclass(frozen=True, slots=True)
class BelongsTo:
    """``belongs to NP`` (Ferré's SQUALL verb of class membership): the subject is an instance
    of the NP's referents, which are classes (``Which <Q1006> does <Q1001> belong to?``: the
    classes of that item; the profile's class test, ``wdt:P31`` on Wikidata). With ``inverse``
    the NP belongs to the subject: the subject is a class of the NP's referents (the fronted
    object and the relative clause ``that X belongs to``)."""

    np: "NP"
    inverse: bool = False


VP = Union[Stmt, Be, Compare, Not, And, Or, StrTest, Exists, YearIs, TextIs, QualifierOf, LangIs, SuchThat, TermKind,
           CountComparison, BelongsTo]

# ------------------------------------------------------------------------------- queries


@dataclass(frozen=True, slots=True)
class Query:
    """A whole sentence: ``subject vp`` (a question or statement), or ``give me subject``
    (``vp`` None)."""

    subject: NP
    vp: VP | None = None
    dialect: str = field(default="squall", compare=False)


# The node classes by name (for JSON and for the package's namespace).
NODE_TYPES = {
    cls.__name__: cls
    for cls in (
        Entity, Class, Property, PropPath, Literal, Var, Order, ClassNoun, RelNoun, YearOf, DatePart, Measure, Distance, Its, Ref,
        Quant, Coord, Arith, Aggregate, Now, AnyValue, Choice, StringCall, Qual, Stmt, Be, Compare, Not, And, Or, StrTest,
        LangIs, Exists, YearIs, TextIs, QualifierOf, SuchThat, TermKind, CountComparison, BelongsTo, Query,
    )
}
