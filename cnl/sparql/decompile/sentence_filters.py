"""A FILTER that tests several values of the query, or a value computed from them, said as
SQUALL's ``such that S`` (issue 29): ``FILTER(YEAR(?d) - YEAR(?b) > 100)`` is ``... that has
<P569> ?b and that has <P570> ?d and such that ((the year of ?d) - the year of ?b) is greater
than 100``; ``FILTER(YEAR(NOW()) - YEAR(?b) > 50)``, ``FILTER(?p / ?a > 100)`` alike. The
values are named by their co-reference variables where the tree first mentions them
(:func:`~cnl.sparql.decompile.corefs.name_corefs`; one whose first mention takes no variable is
refused there), and the sentence is a relative clause of the query's subject (only the top
group's FILTERs: inside OPTIONAL or NOT EXISTS a variable would be in another scope)."""
from __future__ import annotations

from rdflib import Literal, URIRef, Variable

from cnl import ir
from cnl.errors import UnsupportedSPARQLError
from cnl.sparql.decompile.binds import GEO_DISTANCE, GEO_MEASURES, bind_np
from cnl.sparql.decompile.expressions import FLIP, subexpressions, variables

_ARITHMETIC = ("AdditiveExpression", "MultiplicativeExpression")
# the expressions a side of the comparison may be made of (bind_np says each)
_SAYABLE = (*_ARITHMETIC, "Builtin_YEAR", "Builtin_MONTH", "Builtin_DAY", "Builtin_NOW", "Builtin_STRLEN", "Builtin_IF",
            "Builtin_ABS", "Builtin_STR", "Builtin_UCASE", "Builtin_LCASE", "Builtin_CONCAT", "Builtin_SUBSTR")


def is_sentence(vp) -> bool:
    """``such that S``, or several joined by ``or``: a relative clause of the query's subject."""
    return isinstance(vp, ir.SuchThat) or (isinstance(vp, ir.Or) and all(isinstance(i, ir.SuchThat) for i in vp.items))


def is_sayable_disjunction(expr) -> bool:
    """``FILTER(?y < ?w || ?z < ?w)``: comparisons of values joined by ``||``, each a comparison
    or comparisons of one value joined by ``&&`` (``(?w < ?z && ?w >= ?y) || ...``)."""
    return (getattr(expr, "name", None) == "ConditionalOrExpression"
            and all(is_sayable_comparison(e) or _shared_subject(e) is not None for e in [expr.expr, *expr.other]))


def has_disjunction(expr) -> bool:
    return any(getattr(e, "name", None) == "ConditionalOrExpression" for e in subexpressions(expr))


def needs_introduction(expr, var) -> bool:
    """Whether a value the tree does not reach is introduced by a sentence of its own ("such
    that ?w is the <P580> of <Q362>") rather than described where the test names it: a test
    naming it twice would describe two values, and a description inside one branch of a
    disjunction would be a UNION branch that the other branches' tests do not see."""
    return _uses(expr, var) > 1 or has_disjunction(expr)


_GEO_FUNCTIONS = {*GEO_MEASURES, GEO_DISTANCE}
# computed values no relative clause about one value says (YEAR(?d) has "whose year is")
_COMPUTED = (*_ARITHMETIC, "Builtin_MONTH", "Builtin_DAY", "Builtin_IF")


def is_computed_test(expr) -> bool:
    """Whether ``expr`` compares a value computed by arithmetic (``YEAR(?d) - YEAR(?b) > 100``,
    ``?p / ?a > 100``) a date's month or day (``MONTH(?b) = 3``: "such that the month of ?b
    is equal to 3"), a string's length or a point's coordinate with another value: a test no relative clause about one value says."""
    return (getattr(expr, "name", None) == "RelationalExpression" and expr.op in FLIP
            and any(_computed(side) for side in (expr.expr, expr.other))
            and _sayable(expr.expr) and _sayable(expr.other))


def _computed(side) -> bool:
    name = getattr(side, "name", None)
    return name in _COMPUTED or name in ("Builtin_STRLEN", "Builtin_ABS", "Builtin_STR", "Builtin_UCASE", "Builtin_LCASE",
                                                  "Builtin_CONCAT", "Builtin_SUBSTR") or (name == "Function" and str(side.iri) in _GEO_FUNCTIONS)


def is_sayable_comparison(expr) -> bool:
    """Whether ``expr`` is a comparison whose two sides are values ``such that`` can say."""
    return (getattr(expr, "name", None) == "RelationalExpression" and expr.op in FLIP
            and _sayable(expr.expr) and _sayable(expr.other) and bool(variables(expr)))


def constant_sayable(expr) -> bool:
    """Whether ``expr`` is a value computed from constants only that the CNL says (``YEAR(NOW())
    - 2``: "the year of now - 2")."""
    return _sayable(expr) and not variables(expr)


def _sayable(side) -> bool:
    # an IF's condition is said as the choice's test ("if ?u is <Q11573>"): one comparison
    tests = {id(e.arg1) for e in subexpressions(side) if getattr(e, "name", None) == "Builtin_IF"}
    for e in subexpressions(side):
        if isinstance(e, (Variable, Literal, URIRef)) or isinstance(e, (list, tuple, str)) or e is None:
            continue
        if id(e) in tests and getattr(e, "name", None) == "RelationalExpression" and e.op in FLIP:
            continue
        if getattr(e, "name", None) == "Function" and str(e.iri) in _GEO_FUNCTIONS:
            continue
        if getattr(e, "name", None) not in _SAYABLE:
            return False
    return True


def such_that(expr, names: dict, year_casts: set) -> ir.SuchThat:
    """The ``such that S`` of the comparison ``expr``; ``names``: each variable's NP (its
    co-reference variable, or the description of a value the tree does not reach)."""
    if any(not isinstance(np, ir.Ref) and _uses(expr, v) > 1 for v, np in names.items()):
        raise UnsupportedSPARQLError("a FILTER joined to the query on several variables",
                                     "a value described twice in one test")
    if getattr(expr, "name", None) == "ConditionalOrExpression":  # "such that A or such that B"
        return ir.Or(tuple(such_that(e, names, year_casts) for e in [expr.expr, *expr.other]))
    if getattr(expr, "name", None) == "OrderedExpression":  # "such that E is the highest"
        if not (_sayable(expr.expr) and variables(expr.expr)):
            raise UnsupportedSPARQLError("ORDER BY an expression", "the expression has no CNL form")
        return ir.SuchThat(bind_np(expr.expr, None, names, year_casts), ir.Be(ir.Quant("the", None, order=expr.order)))
    if getattr(expr, "name", None) == "ConditionalAndExpression":
        # "such that ?w is less than ?z and is at least ?y": tests of one value
        subject = _shared_subject(expr)
        if subject is None:
            raise UnsupportedSPARQLError("a FILTER joined to the query on several variables",
                                         "'&&' inside '||' over different values")
        tests = tuple(ir.Compare(op, (bind_np(other, None, names, year_casts),))
                      for op, other in (_oriented(e, subject) for e in [expr.expr, *expr.other]))
        return ir.SuchThat(bind_np(subject, None, names, year_casts), ir.And(tests))
    if not is_sayable_comparison(expr):
        raise UnsupportedSPARQLError("a FILTER joined to the query on several variables",
                                     "only a comparison of values has a 'such that' sentence")
    left = bind_np(expr.expr, None, names, year_casts)
    right = bind_np(expr.other, None, names, year_casts)
    return ir.SuchThat(left, ir.Compare(expr.op, (right,)))


def _oriented(comparison, subject):
    """``(op, other side)`` of ``comparison`` read with ``subject`` on the left."""
    if comparison.expr == subject:
        return comparison.op, comparison.other
    return FLIP[comparison.op], comparison.expr


def _shared_subject(expr):
    """The variable that every comparison of the conjunction ``expr`` has as a whole side
    (``?w < ?z && ?w >= ?y``: ``?w``), or None."""
    if getattr(expr, "name", None) != "ConditionalAndExpression":
        return None
    conjuncts = [expr.expr, *expr.other]
    if not all(is_sayable_comparison(e) for e in conjuncts):
        return None
    common = set.intersection(*({s for s in (e.expr, e.other) if isinstance(s, Variable)} for e in conjuncts))
    return min(common, key=str) if common else None


def _uses(expr, var) -> int:
    return sum(1 for e in subexpressions(expr) if e == var)
