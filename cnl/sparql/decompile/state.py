"""The state one reading of a query carries from stage to stage: each stage fills its part."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from cnl import ir
from cnl.sparql.decompile.flatten import Group

if TYPE_CHECKING:  # build imports this module; the type is for readers and checkers only
    from cnl.sparql.decompile.build import Builder


@dataclass
class AnswerBind:
    """``BIND(expr AS var)`` whose value is an answer column (``YEAR(?d)``, ``2023 - YEAR(?d)``)."""

    var: object
    expr: object
    input: object  # the (first) variable it reads: the root of the tree
    filters: list = field(default_factory=list)  # FILTERs on its value, said of the answer
    # the other variables it reads (``YEAR(?end) - YEAR(?start)``): values the tree reaches,
    # each said by its co-reference variable (``has <P580> ?start``)
    others: tuple = ()


@dataclass
class Decompilation:
    """One reading of a SPARQL query, filled in stage by stage (see ``pipeline``)."""

    sparql: str
    # The second reading under projection "focus": the answer columns are written "which".
    focus_columns: bool = False

    # parse
    algebra: object = None               # rdflib's algebra of the whole query
    form: str = ""                       # SelectQuery or AskQuery

    # modifiers: the query's head and what wraps the WHERE clause
    pattern: object = None               # the WHERE clause's algebra
    limit: int | None = None
    offset: int | None = None
    order_conditions: list | None = None
    projected: list | None = None        # SELECT's variables, the aggregates' aliases among them
    aggregates: dict = field(default_factory=dict)       # alias -> rdflib's __agg variable
    aggregate_calls: dict = field(default_factory=dict)  # __agg variable -> its Aggregate_* call
    group_keys: list | None = None
    duplicates: str = "kept"             # SELECT: "kept"; DISTINCT: "removed"; REDUCED: "reduced"
    count_distinct: bool | None = None   # the count's DISTINCT (None: no count)
    select_vars: list = field(default_factory=list)      # the answer columns but a count
    counted: object = None               # ?x of COUNT(DISTINCT ?x); None once the groups are the answers
    count_alias: object = None           # the count's column
    aggregated: tuple | None = None      # (op, ?v) of SUM/AVG/MIN/MAX(?v): "the average <P> of ..."
    aggregate_separator: str | None = None  # GROUP_CONCAT's separator (None: SPARQL's space)
    count_hidden: bool = False
    having: list = field(default_factory=list)           # HAVING's conditions (rdflib expressions)
    numbers: dict = field(default_factory=dict)          # ?v -> (det, N) of HAVING(COUNT(?v) op N)           # the count only ranks the groups (ORDER BY DESC(COUNT(?x)))
    orders: dict = field(default_factory=dict)           # variable -> ir.Order
    order_expr: object = None            # ORDER BY an expression: OrderedExpression(expr, order)
    order_value_shown: bool = False      # ... whose value (a projected BIND) is a column too
    order_cast: str | None = None        # ORDER BY xsd:integer(?x) (every key so cast): "integer"
    counted_order: object = None         # ORDER BY the count: the counted variable
    tied_count: tuple | None = None      # HAVING(COUNT(?y) = MAX(?best)): (?y, "max"/"min", ?best)
    aggregate_values: dict = field(default_factory=dict)  # ?avg -> BestQuery: a value compared, not a best

    # flatten, then binds
    top: Group | None = None
    answer_bind: AnswerBind | None = None
    more_answers: list = field(default_factory=list)     # the other answer BINDs ("Give me A and B")
    first_year: object = None            # the input of the first of two compared years' BINDs
    choice: tuple | None = None          # BIND(IF(test, A, B) AS ?x): (?x, A, B), the test a FILTER now
    count_test: tuple | None = None      # only counts compared: (count, op, count or literal)
    count_subject: object = None         # ... their sentence's subject, "the number of ..."
    counts_aggregated: object = None     # AVG(?n) over one count per group: that count's sub-query

    # sentence: the root, and what it is said with
    root: object = None
    det: str = "a"
    which: set = field(default_factory=set)
    default_limit: int | None = None

    # build
    builder: Builder | None = None
    root_classes: list = field(default_factory=list)     # (class, subclass-closed) of the root
    vps: list = field(default_factory=list)              # what the query says about the root

    # sentence, options
    query: ir.Query | None = None
    options: dict = field(default_factory=dict)

    def answer_binds(self) -> list:
        """Every BIND whose value is an answer column, the first one's input the root."""
        return [self.answer_bind, *self.more_answers] if self.answer_bind is not None else []
