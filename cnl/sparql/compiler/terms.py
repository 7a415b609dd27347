"""Terms: IR terms as SPARQL terms (IRIs through the profile, escaped literals), labels resolved
to IDs through a lexicon (once per label), and the names variables are given after what they hold.

Separate because every other part of the compiler writes terms, and because this is where what a
user wrote becomes query text: every IRI from a validated ID, every literal escaped."""
from __future__ import annotations

import re
from dataclasses import replace
from typing import Protocol

from cnl import ir
from cnl.errors import CompileError, LexiconError
from cnl.sparql.syntax import IRI_FORBIDDEN_CHARS, LANGUAGE_TAG, sparql_string

_KINDS = {ir.Entity: "entity", ir.Class: "class", ir.Property: "property"}


class Resolver(Protocol):
    """What the compiler needs from a lexicon: a label (with its role) -> an ID or IRI."""

    def resolve(self, label: str, kind: str, span: tuple[int, int] | None = None) -> str: ...


# the lexical forms a literal may have (anything else is refused, never written into a query)
INTEGER_FORM = re.compile(r"^[0-9]+$")
DECIMAL_FORM = re.compile(r"^[0-9]+\.[0-9]+$")
_DATE = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")
_DATETIME = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$")
# a typed literal's datatype: an XSD local name, or an absolute IRI SPARQL's IRIREF can hold
XSD_NAME = re.compile(r"[A-Za-z][A-Za-z0-9]*")
DATATYPE_IRI = re.compile(f"[A-Za-z][A-Za-z0-9+.-]*:[^{IRI_FORBIDDEN_CHARS}]+")


def sparql_literal(lit: ir.Literal) -> str:
    if lit.datatype == "integer" and INTEGER_FORM.match(lit.value):
        return lit.value
    if lit.datatype == "decimal" and DECIMAL_FORM.match(lit.value):
        return lit.value
    if lit.datatype == "date" and _DATE.match(lit.value):
        return f'"{lit.value}"^^xsd:date'
    if lit.datatype == "dateTime" and _DATETIME.match(lit.value):
        return f'"{lit.value}"^^xsd:dateTime'
    if lit.datatype == "string" and lit.lang is None:
        return sparql_string(lit.value)
    if lit.datatype == "string" and LANGUAGE_TAG.fullmatch(lit.lang):
        return sparql_string(lit.value) + "@" + lit.lang
    if lit.typed and lit.lang is None and XSD_NAME.fullmatch(lit.datatype):
        return f"{sparql_string(lit.value)}^^xsd:{lit.datatype}"
    if lit.typed and lit.lang is None and DATATYPE_IRI.fullmatch(lit.datatype):
        return f"{sparql_string(lit.value)}^^<{lit.datatype}>"
    raise CompileError(f"invalid {lit.datatype} literal {lit.value!r}")


class TermsMixin:
    """SparqlCompiler's terms: ``term`` writes one, ``_id`` resolves a label (cached in
    ``self.resolved``), ``coref_var`` names a variable the CNL names (``?x``)."""

    def term(self, term) -> str:
        if isinstance(term, ir.Literal):
            return sparql_literal(term)
        if isinstance(term, ir.Var):
            return self.coref_var(term.name, None)
        if isinstance(term, ir.Entity):
            return self.profile.iri(self._id(term), "entity")
        if isinstance(term, ir.Class):
            return self.profile.iri(self._id(term), "class")
        raise CompileError(f"cannot use {type(term).__name__} as a value")

    def _id(self, term) -> str:
        """The term's ID; a label is resolved through the resolver (once per label)."""
        ident = term.id
        if ident:
            return ident
        kind = _KINDS[type(term)]
        key = (kind, term.label)
        found = self.resolved.get(key)
        if found is None:
            if self.resolver is None:
                raise LexiconError(
                    f"{kind} label {term.label!r} has no ID: pass a lexicon, or write it by ID (<Q…>/<P…>)",
                    label=term.label, kind=kind, position=term.span[0] if term.span else None,
                )
            found = self.resolved[key] = self.resolver.resolve(term.label, kind, term.span)
        return found

    def _is_label(self, prop: ir.Property) -> bool:
        """A pseudo-property ("label", or "description" / "alias" / "sitelinks" where the profile
        has that predicate), unless the lexicon gives it an ID."""
        if isinstance(prop, ir.PropPath) or prop.id is not None:
            return False
        if is_any_property(prop):  # "any property" too: never a lexicon's property, whatever it matches
            return True
        word = (prop.label or "").strip().lower()
        if not (word == "label" or (word in _PSEUDO_PROPERTIES and getattr(self.profile, _PSEUDO_PROPERTIES[word]))):
            return False
        if self.resolver is None:
            return True
        try:
            self._id(prop)
        except LexiconError:
            return True
        return False

    def label_predicate(self, prop: ir.Property) -> str:
        """The predicate of a pseudo-property (see :meth:`_is_label`); ``<any property>``: a
        fresh variable, each time its own (``?s ?property ?o``)."""
        if is_any_property(prop):
            var = self.fresh("property")
            if var in self.visible_vars:  # the link's kind is no answer column
                self.visible_vars.remove(var)
            return var
        attribute = _PSEUDO_PROPERTIES.get((prop.label or "").strip().lower())
        return getattr(self.profile, attribute) if attribute else self.profile.label_predicate

    def coref_var(self, name: str, hint: str | None) -> str:
        if name not in self.coref:
            self.coref[name] = self.fresh(hint or name)
        return self.coref[name]


# The pseudo-properties besides "label" -> the profile attribute that gives their predicate (None
# where the KG has none: the word is then a property label like any other)
_PSEUDO_PROPERTIES = {"description": "description_predicate", "alias": "alias_predicate",
                      "sitelinks": "sitelinks_predicate"}


# The pseudo-property that stands for a variable predicate: ``has <any property> [X]`` is
# ``?s ?property X`` (a link of any kind; Ferré's SQUALL lets a variable stand for a property).
ANY_PROPERTY = "any property"


def is_any_property(prop) -> bool:
    return (isinstance(prop, ir.Property) and prop.id is None
            and " ".join((prop.label or "").replace("_", " ").lower().split()) == ANY_PROPERTY)


def noun_hint(noun) -> str | None:
    if isinstance(noun, ir.ClassNoun):
        return noun.cls.label or noun.cls.id
    if isinstance(noun, ir.RelNoun):
        return prop_hint(noun.prop)
    if isinstance(noun, ir.YearOf):
        return "year"
    if isinstance(noun, ir.DatePart):
        return noun.part
    if isinstance(noun, ir.Measure):
        return noun.kind
    if isinstance(noun, ir.Distance):
        return "distance"
    return None


def prop_hint(prop) -> str | None:
    """A variable name for a property's values: its label or ID (a path's first property's)."""
    while isinstance(prop, ir.PropPath):
        prop = prop.items[0]
    return prop.label or prop.id


def each_as_a(np):
    """An answer's noun phrase with "every" in its ``of`` chain read as "each" ("a"): "Give me
    the <P36> of every <Q6256> ..." lists each country's capital. As a universal the answer
    would be bound only inside FILTER NOT EXISTS, never in a row."""
    if not isinstance(np, ir.Quant):
        return np
    if np.det == "every":
        np = replace(np, det="a")
    noun = np.noun
    if isinstance(noun, ir.RelNoun) and noun.of is not None:
        of = each_as_a(noun.of)
        if of is not noun.of:
            np = replace(np, noun=replace(noun, of=of))
    return np
