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
    """(?a, ?b) for a FILTER comparing two variables (see :func:`comparison_of_vars`), else None."""
    found = comparison_of_vars(expr)
    return (found.left, found.right) if found is not None else None


def comparison_of_vars(expr):
    """A FILTER comparing two variables, each written plainly or as its year (``?a < ?b``,
    ``YEAR(?a) = YEAR(?b)``, ``?a NOT IN (?b)``, or a comparison of two BINDs' years,
    YearComparison): a CompValue ``VarComparison`` (left, left_year, op, right, right_year;
    a side's ``*_year`` is its ``YEAR(...)`` call, None when plain), else None."""
    name = getattr(expr, "name", None)
    if name == "YearComparison":
        a, b = year_arg(expr.expr, set()), year_arg(expr.other, set())
        if a == b or not isinstance(a, Variable) or not isinstance(b, Variable):
            return None
        return CompValue("VarComparison", left=a, left_year=expr.expr, op=expr.op, right=b, right_year=expr.other)
    if name != "RelationalExpression":
        return None
    op, left, right = expr.op, expr.expr, expr.other
    if op in ("IN", "NOT IN"):
        if not isinstance(right, list) or len(right) != 1:
            return None
        op, right = ("=" if op == "IN" else "!="), right[0]
    if op not in FLIP:
        return None
    a, a_year = _plain_or_year(left)
    b, b_year = _plain_or_year(right)
    if a is None or b is None or a == b:
        return None
    return CompValue("VarComparison", left=a, left_year=a_year, op=op, right=b, right_year=b_year)


def _plain_or_year(operand):
    """(?x, None) for ?x, (?x, the YEAR call) for YEAR(?x) (or YEAR(xsd:dateTime(?x))), else (None, None)."""
    if isinstance(operand, Variable):
        return operand, None
    if getattr(operand, "name", None) == "Builtin_YEAR":
        arg = year_arg(operand, set())
        if isinstance(arg, Variable):
            return arg, operand
    return None, None


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
