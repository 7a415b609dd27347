"""Terms: Wikidata's IRIs and rdflib's literals as IR terms, and how refusals name them."""
from __future__ import annotations

import re

from rdflib import BNode, Literal, URIRef, Variable
from rdflib.namespace import XSD

from cnl import ir
from cnl.errors import UnsupportedSPARQLError
from cnl.sparql.namespaces import PREFIXES, WD

INTEGER_TYPES = {XSD.integer, XSD.int, XSD.long, XSD.short, XSD.nonNegativeInteger, XSD.positiveInteger}
NUMERIC_TYPES = INTEGER_TYPES | {XSD.decimal, XSD.double, XSD.float}
_QID = re.compile(r"^Q[1-9][0-9]*$")
_DATE = re.compile(r"^-?[0-9]{4}-[0-9]{2}-[0-9]{2}$")
_DATE_TIME = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$")


def short(iri) -> str:
    """``iri`` with the longest prefix of the namespace table, else in angle brackets."""
    for name, base in sorted(PREFIXES.items(), key=lambda kv: -len(kv[1])):
        if str(iri).startswith(base):
            return f"{name}:{str(iri)[len(base):]}"
    return f"<{iri}>"


def ir_term(t):
    """A Wikidata item or a literal as an IR term."""
    if isinstance(t, URIRef):
        iri = str(t)
        if iri.startswith(WD) and _QID.match(iri[len(WD):]):
            return ir.Entity(id=iri[len(WD):])
        raise UnsupportedSPARQLError("an IRI that is not a Wikidata item", short(t))
    if isinstance(t, Literal):
        if t.language:
            return ir.Literal(str(t), "string", t.language.lower())
        dt = t.datatype
        if dt in INTEGER_TYPES:
            return ir.Literal(str(int(str(t))), "integer")
        if dt in (XSD.double, XSD.float):
            # a floating-point number as typed (1.5E6 is no xsd:decimal: "=" and the answers'
            # types differ); the CNL writes it "1.5E6"^^xsd:double
            return ir.Literal(str(t), ir.Literal.datatype_of(str(dt)))
        if dt in NUMERIC_TYPES:
            return ir.Literal(str(t), "decimal")
        if dt == XSD.date:
            return ir.Literal(str(t), "date")
        if dt == XSD.dateTime and _DATE.match(str(t)):
            # xsd:dateTime needs a time: "2000-01-01"^^xsd:dateTime is not a valid literal
            raise UnsupportedSPARQLError("an ill-formed xsd:dateTime literal (a date without a time)", t.n3())
        if dt == XSD.dateTime and _DATE_TIME.match(str(t)):
            return ir.Literal(str(t), "dateTime")
        if dt is None or dt == XSD.string:
            return ir.Literal(str(t), "string")
        datatype = ir.Literal.datatype_of(str(dt))
        if datatype in ir.Literal.PLAIN:  # a date or number whose form the CNL does not write
            raise UnsupportedSPARQLError(f"a {short(dt)} literal", str(t))
        if "\n" in str(t) or "\r" in str(t):
            raise UnsupportedSPARQLError("a typed literal with a line break", t.n3())
        # any other datatype as SPARQL writes it: "1961"^^xsd:gYear, "PT2H"^^xsd:duration
        return ir.Literal(str(t), datatype)
    raise UnsupportedSPARQLError("an unexpected term", str(t))


def class_noun(o) -> ir.ClassNoun:
    """The class ``wd:C`` of a class test, as a noun (an item: ``wd:undefined`` is refused)."""
    return ir.ClassNoun(ir.Class(id=ir_term(o).id))


def is_node(term) -> bool:
    """A variable or a blank node: something the query names, not a constant."""
    return isinstance(term, (Variable, BNode))


def same(a, b) -> bool:
    return type(a) is type(b) and a == b


def node_text(t) -> str:
    """``t`` as a message names it: a variable or blank node as SPARQL writes it, an IRI
    shortened, a literal's text, anything else by its own ``n3`` (a statement's unsaid value)."""
    if isinstance(t, (Variable, BNode)):
        return t.n3()
    if isinstance(t, URIRef):
        return short(t)
    if isinstance(t, Literal) or not hasattr(t, "n3"):
        return str(t)
    return t.n3()
