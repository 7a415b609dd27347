"""The IR in the forms Sparklis writes, and what Sparklis cannot say at all.

Sparklis verbalizes a query as "give me every C that ..." and has classes, not relational
nouns, as nouns; an IR from elsewhere (the decompiler, SQUALL) is rewritten into those forms
before printing, with the same meaning."""
from __future__ import annotations

from dataclasses import replace

from cnl import ir
from cnl.errors import UnsupportedSPARQLError


def sparklis_form(query: ir.Query) -> ir.Query:
    """Sparklis only says "give me every C that ...": a question's VP becomes a clause."""
    query = _class_nouns(query)
    subject, vp = query.subject, query.vp
    if isinstance(subject, ir.Quant) and vp is not None and not isinstance(vp, ir.Exists):
        items = vp.items if isinstance(vp, ir.And) else (vp,)
        return ir.Query(replace(subject, rels=subject.rels + tuple(items)), None)
    if isinstance(subject, ir.Quant) and isinstance(vp, ir.Exists):
        return ir.Query(subject, None)
    return query


def _class_nouns(node):
    """Sparklis nouns are classes: ``a <P> of X`` is written ``something that is the <P> of X``
    (an inverse statement), bottom-up."""
    node = ir.map_children(node, _class_nouns)
    if ir.is_relational_phrase(node):
        noun = node.noun
        return replace(node, noun=None, rels=(ir.Stmt(noun.prop, noun.of, noun.quals, inverse=True),) + node.rels)
    if (isinstance(node, ir.Be) and isinstance(node.np, ir.Quant) and node.np.det in ("a", "the")
            and node.np.noun is None and len(node.np.rels) == 1 and isinstance(node.np.rels[0], ir.Stmt)
            and node.np.rels[0].inverse and node.np.order is None and node.np.var is None):
        return node.np.rels[0]
    return node


def check_expressible(query: ir.Query) -> None:
    """Sparklis has no yes/no questions (a sentence about a named thing lists its values) and
    no property paths (its query builder follows one property at a time)."""
    if query.vp is not None and not ir.asks_for_values(query):
        raise UnsupportedSPARQLError("a yes/no question (ASK) in Sparklis", "Sparklis has no yes/no questions")
    if any(isinstance(node, ir.PropPath) for node in ir.walk(query)):
        raise UnsupportedSPARQLError("a property path in Sparklis", "Sparklis follows one property at a time")
    for node in ir.walk(query):
        construct = _NO_SPARKLIS_FORM.get(type(node))
        if isinstance(node, ir.StrTest) and node.case_sensitive:
            construct = "a case-sensitive string test"
        if isinstance(node, (ir.Stmt, ir.RelNoun)) and node.any_rank:
            construct = "a statement of any rank ('at any rank')"
        if isinstance(node, (ir.Stmt, ir.RelNoun)) and node.normalized:
            construct = "a quantity in SI units ('in SI units')"
        if isinstance(node, (ir.Stmt, ir.RelNoun)) and node.unit is not None:
            construct = "a quantity in a given unit ('in unit <Q>')"
        if isinstance(node, ir.Literal) and node.typed:
            construct = "a typed literal (\"1961\"^^xsd:gYear)"
        if isinstance(node, ir.Quant) and node.det in ("more_than", "fewer_than", "at_least", "at_most", "exactly"):
            construct = "a numeric determiner (at least N, more than N)"
        if construct:
            raise UnsupportedSPARQLError(f"{construct} in Sparklis", "this dialect's Sparklis forms have none")


# IR nodes of SPARQL 1.1 constructs that this dialect's Sparklis forms cannot say
_NO_SPARKLIS_FORM = {
    ir.Aggregate: "an aggregate (total, average, minimum, maximum)",
    ir.Its: "a comparison of two values of one subject ('its <P>')",
    ir.Now: "'now'",
    ir.DatePart: "a month or day of a date",
    ir.Measure: "a measure of a value (a length, a coordinate, an absolute value, a text)",
    ir.TextIs: "a test of a value's text ('whose text is ...')",
    ir.Distance: "the distance between two points",
    ir.LangIs: "a language test",
    ir.AnyValue: "a statement without its value ('a <P> statement')",
    ir.SuchThat: "a test or ordering over several values ('such that S')",
    ir.TermKind: "a test of a term's kind ('is a literal')",
    ir.CountComparison: "a comparison of two counts ('has more <P> than X')",
    ir.BelongsTo: "class membership ('belongs to')",
    ir.StringCall: "a string function ('concat(...)', 'substr(...)')",
}


def construct_name(node) -> str:
    """What a refusal calls the construct of ``node``: its description where Sparklis has no form
    for it at all, else the IR node's name."""
    return _NO_SPARKLIS_FORM.get(type(node), type(node).__name__)
