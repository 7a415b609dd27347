"""rdflib's expression trees (CompValues): the variables they name, and the shapes the compiler
writes around a variable (``YEAR(...)``, ``xsd:double(STR(...))``, ``LCASE(STR(...))``)."""
from __future__ import annotations

from rdflib import Literal, Variable
from rdflib.namespace import XSD
from rdflib.plugins.sparql.parserutils import CompValue

from cnl.errors import UnsupportedSPARQLError
from cnl.sparql.decompile.terms import NUMERIC_TYPES

# a comparison read the other way round: ``5 < ?x`` is ``?x > 5``
FLIP = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "=": "=", "!=": "!="}


def subexpressions(obj):
    """``obj`` and everything under it (rdflib's CompValue trees, lists, VALUES rows)."""
    stack = [obj]
    while stack:
        o = stack.pop()
        yield o
        if isinstance(o, CompValue):
            stack.extend(v for k, v in o.items() if not k.startswith("_"))
        elif isinstance(o, (list, tuple)):
            stack.extend(o)
        elif isinstance(o, dict):
            stack.extend(o.values())


def variables(obj) -> set:
    """Every variable named in an expression or pattern."""
    return {o for o in subexpressions(obj) if isinstance(o, Variable)}


def year_arg(year, casts: set):
    """The argument of YEAR(...); YEAR(xsd:dateTime(x)) is the profile's year_cast form
    (recorded in ``casts``: True cast, False plain)."""
    arg = year.arg
    cast = (getattr(arg, "name", None) == "Function" and arg.iri == XSD.dateTime and len(arg.expr or []) == 1)
    casts.add(cast)
    return arg.expr[0] if cast else arg


def var_comparison(expr):
    """(?a, ?b) for a FILTER(?a op ?b) between two plain variables, or a comparison of
    their years (YearComparison, from two BINDs), else None."""
    name = getattr(expr, "name", None)
    if (name == "RelationalExpression" and isinstance(expr.expr, Variable)
            and isinstance(expr.other, Variable) and expr.expr != expr.other):
        return expr.expr, expr.other
    if name == "YearComparison":
        a, b = year_arg(expr.expr, set()), year_arg(expr.other, set())
        return (a, b) if a != b else None
    return None


def is_subject(operand, x) -> bool:
    """Whether ``operand`` is ``x``, its year, or a cast of either."""
    while getattr(operand, "name", None) == "Function" and len(operand.expr or []) == 1:
        operand = unwrap_str(operand.expr[0])
    return operand == x or (getattr(operand, "name", None) == "Builtin_YEAR" and year_arg(operand, set()) == x)


def is_call(e, name: str) -> bool:
    return getattr(e, "name", None) == name


def has_cast(operand) -> bool:
    """``xsd:double(...)`` and the like: a cast to a number."""
    return getattr(operand, "name", None) == "Function" and operand.iri in NUMERIC_TYPES


def unwrap_str(e):
    """``e`` without the STR(...) and LCASE(...) around it."""
    while getattr(e, "name", None) in ("Builtin_STR", "Builtin_LCASE"):
        e = e.arg
    return e


def string_arg(e) -> str:
    """The string a string test looks for (``LCASE("v")``: ``v``)."""
    e = unwrap_str(e)
    if not isinstance(e, Literal):
        raise UnsupportedSPARQLError("a string test against something other than a string")
    return str(e)
