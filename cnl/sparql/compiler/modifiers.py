"""Solution modifiers and the query's text: superlatives (ORDER BY, LIMIT, OFFSET, and a ranked
sub-query inside a yes/no question), count conditions (a counting sub-query or HAVING), and the
final SELECT/ASK head with GROUP BY, the PREFIX lines and the modifiers around the WHERE clause.

Separate because these act on the whole query (its answers and their order), where the other
parts of the compiler only add patterns to the group they are in."""
from __future__ import annotations

import re

from cnl import ir
from cnl.errors import CompileError, NoValueToRank
from cnl.sparql.compiler.groups import indent
from cnl.sparql.compiler.noun_phrases import COUNT_TESTS
from cnl.sparql.compiler.terms import noun_hint
from cnl.sparql.syntax import sparql_string

_PREFIX_USE = re.compile(r"(?<![\w?])([A-Za-z][\w-]*):")

_SELECT = {"removed": "SELECT DISTINCT ", "kept": "SELECT ", "reduced": "SELECT REDUCED "}

_STRING_LITERAL = re.compile(r'"(?:[^"\\]|\\.)*"')


# a variable, or a string literal (skipped whole, so that a "?x" inside it is left alone)
_VARIABLE_OR_STRING = re.compile(r'"(?:[^"\\]|\\.)*"|\?[A-Za-z_][A-Za-z0-9_]*')

_TIES_AT_TOP = "a superlative that keeps ties ('joint ...') ranks the answers of a question that lists them"


def aggregate_call(agg: ir.Aggregate, value: str) -> str:
    """``AVG(?v)``, ``SAMPLE(?v)``, ``GROUP_CONCAT(?v; separator=", ")``."""
    separator = f"; separator={sparql_string(agg.separator)}" if agg.separator is not None else ""
    return f"{agg.op.upper()}({value}{separator})"


def _strip_strings(text: str) -> str:
    return _STRING_LITERAL.sub('""', text) if '"' in text else text


_PREFIX_NAME = re.compile(r"[A-Za-z][\w-]*")


def prefixes_used(text: str, prefixes) -> list[str]:
    """The names among ``prefixes`` (in their order) that ``_PREFIX_USE.findall(text)`` finds,
    found with ``str.find``: ``name:`` after neither a word character nor ``?`` (trying the
    regex at every character of the query was most of the time spent writing it). After a
    ``-``, where the regex may have started earlier (``a-wd:``), the regex decides."""
    out = []
    for name in prefixes:
        written = name + ":"
        at = text.find(written)
        while at >= 0:
            before = text[at - 1] if at else ""
            if before == "-" or not _PREFIX_NAME.fullmatch(name):
                found = set(_PREFIX_USE.findall(text))
                return [n for n in prefixes if n in found]
            if not (before == "?" or before == "_" or before.isalnum()):  # \w is isalnum() or "_"
                out.append(name)
                break
            at = text.find(written, at + 1)
    return out


class SolutionModifiersMixin:
    """SparqlCompiler's orderings (``_order``, ``_ranked``), count conditions (``_numeric``,
    ``_count``) and the query's text (``_render``)."""

    def _ranked(self, q: ir.Quant, v: str, body) -> None:
        """A noun phrase with a superlative inside, where no answer is ranked: a sub-query
        ``{ SELECT ?v WHERE { ... } ORDER BY ... LIMIT n }`` (SQUALL's nested modifier)."""
        saved = (self.order_keys, self.limit, self.offset, self.nested_orders)
        self.order_keys, self.limit, self.offset, self.nested_orders = [], None, None, False
        try:
            inner = v if v.startswith("?") else self.fresh(noun_hint(q.noun))  # "Is <Q90> the ...?"
            with self.subgroup() as g:
                body(inner)
                if q.order is not None:
                    self._order(q, inner)
            if self.count_order_var is not None:
                raise CompileError("a count ranking ('the most') inside a yes/no question is not supported")
            if self.tied is not None:
                raise CompileError(_TIES_AT_TOP)
            block = ["{", f"  SELECT {inner} WHERE {{", *indent(indent(g.lines())), "  }"]
            block.append("  ORDER BY " + " ".join(f"{'DESC' if d else 'ASC'}({key})" for key, d in self.order_keys))
            if self.offset:
                block.append(f"  OFFSET {self.offset}")
            if self.limit is not None:
                block.append(f"  LIMIT {self.limit}")
            block.append("}")
            self.group.blocks.append(block)
            if inner != v:
                self._unify(inner, v)
        finally:
            self.order_keys, self.limit, self.offset, self.nested_orders = saved

    def _order(self, q: ir.Quant, v: str) -> None:
        if self.group.hidden:
            raise CompileError("a superlative inside a negation or universal cannot be compiled")
        order = q.order
        if order.word in ("most", "least", "fewest") and not isinstance(q.noun, ir.YearOf):
            # "the most <song>", "has the most <P>", "the most things": rank the other
            # variables by how many they have (SQUALL's count determiner; a value is ranked
            # with "highest"/"lowest").
            if self.count_order_var is not None:
                raise CompileError("only one 'most'/'least' per query is supported")
            self.count_order_var = v
            self.order_keys.append(("?count", order.word == "most"))
        else:
            if order.limit and isinstance(q.noun, ir.ClassNoun) and not (q.noun.cls.id or "").startswith("P"):
                # things of a class have no value to pick the highest by: ORDER BY their IRIs
                # means nothing (a sort alone, Sparklis' "highest-to-lowest <class>", stays)
                raise NoValueToRank(f"'the {order.word} <class>' ranks things by no value: say what ranks them "
                                    f"('the <class> that has the {order.word} <P>')")
            self.order_keys.append((v, order.descending))
        if len(self.order_keys) > 1:
            if order.ties or self.tied is not None:
                raise CompileError("a superlative that keeps ties ('joint ...') cannot be combined with another one")
            return  # the first superlative decides the limit; later ones break ties
        if order.ties:
            if order.rank != 1 or order.count is not None or order.to_rank is not None or not order.limit:
                raise CompileError("'joint' keeps the ties of the first rank ('the joint highest'), not of a rank or range")
            if self.group is not self.top:
                raise CompileError(_TIES_AT_TOP)
            self.tied = self.order_keys[0]
            return  # no ORDER BY / LIMIT: the maximum in a sub-query (_tie_block)
        if not order.limit:
            return  # an ordering only (Sparklis' highest-to-lowest): every answer, sorted
        if order.to_rank is not None:
            if order.to_rank < order.rank:
                raise CompileError(f"empty rank range {order.rank} to {order.to_rank}")
            self.offset = order.rank - 1 or None
            self.limit = order.to_rank - order.rank + 1
        elif order.count is not None:
            self.limit = order.count
        else:
            self.offset = order.rank - 1 or None
            self.limit = 1

    def _numeric(self, q, v, body, k) -> None:
        if q.det in ("at_most", "fewer_than"):
            words = q.det.replace("_", " ")
            raise CompileError(f"'{words} N' needs a count that can be zero; write 'not at least N'")
        before = set(self.var_order)
        with self.subgroup(hidden=True) as g:
            body()
            k(v)
        outer = self._keys_named_in(g, before, but=v)
        op = COUNT_TESTS[q.det]
        if self.profile.having:
            # the profile's HAVING form: the counted pattern joins the query, the answers are
            # grouped, HAVING(COUNT(?v) op N) (checked in _render: only on the answers)
            if self.group is not self.top or self.group.hidden:
                raise CompileError("a count condition inside another construct cannot be written as HAVING")
            self.group.triples.extend(g.triples)
            self.group.blocks.extend(g.blocks)
            self.group.binds.extend(g.binds)
            self.group.filters.extend(g.filters)
            self.having.append((f"{self._count(v)} {op} {q.number}", outer))
            return
        count = self.fresh("n")
        self._add_count_subquery(v, outer, g, count)
        self.group.filters.append(f"FILTER({count} {op} {q.number})")

    def _keys_named_in(self, g, before: set, but: str | None = None) -> list[str]:
        """The variables of ``before`` (the query's, before the sub-group ``g``) that ``g`` names,
        in the order they were introduced, ``but`` left out: a sub-query's GROUP BY keys."""
        text = "\n".join(g.lines())
        return [x for x in sorted(before, key=self.var_order.get)
                if x != but and re.search(re.escape(x) + r"\b", text)]

    def _add_count_subquery(self, v: str, outer: list[str], g, count: str, optional: bool = False) -> None:
        """``{ SELECT outer (COUNT(v) AS count) WHERE { g } GROUP BY outer }`` into the current group:
        a count per binding of the variables the outer query shares with the counted pattern
        (``optional``: ``OPTIONAL { SELECT ... }``, a binding without any counted value kept)."""
        self._add_value_subquery(self._count(v), outer, g, count, optional)

    def _add_value_subquery(self, expression: str, outer: list[str], g, alias: str, optional: bool = False) -> None:
        """``{ SELECT outer (expression AS alias) WHERE { g } GROUP BY outer }`` (a count, an
        average, ...) into the current group."""
        keys = " ".join(outer)
        head = f"SELECT {keys + ' ' if keys else ''}({expression} AS {alias}) WHERE {{"
        block = ["OPTIONAL {" if optional else "{", "  " + head, *indent(indent(g.lines())), "  }"]
        if keys:
            block.append(f"  GROUP BY {keys}")
        block.append("}")
        self.group.blocks.append(block)

    def _order_expr(self, key: str) -> str:
        """An ORDER BY key; the count of "the most" is written in place when it is not a column
        (order_columns False: ``ORDER BY DESC(COUNT(?x))``, as hand-written queries rank)."""
        if key == "?count" and self.count_order_var and not self.profile.order_columns:
            return self._count(self.count_order_var)
        if self.profile.order_cast and key.startswith("?") and key != "?count":
            return f"xsd:{self.profile.order_cast}({key})"
        return key

    def _tie_block(self, where: list[str], keys: list[str]) -> tuple[list[str], str | None]:
        """"the joint highest <P>" / "the joint most <P>": every answer whose value (or count per
        answer) is the best one, not one of them. The query's pattern again, its variables
        renamed, gives the best value in a sub-query: ``{ SELECT (MAX(?v_all) AS ?best) WHERE {
        ... } }`` and ``FILTER(?v = ?best)``; for a count, the counts per answer (grouped by the
        renamed ``keys``) in a sub-query of its own, and ``HAVING(COUNT(?v) = MAX(?best))`` (the
        returned HAVING condition: ?best is one value, but not a group key)."""
        key, descending = self.tied
        renamed, names = self._renamed(where)
        best = self.fresh("most" if key == "?count" else "best")
        op = "MAX" if descending else "MIN"
        if key != "?count":
            block = ["{", f"  SELECT ({op}({names[key]}) AS {best}) WHERE {{", *indent(indent(renamed)), "  }", "}",
                     f"FILTER({key} = {best})"]
            return where + block, None
        count = self.fresh("count")
        inner_keys = " ".join(names.get(k, k) for k in keys)
        per_answer = ["{", f"  SELECT {inner_keys} ({self._count(names[self.count_order_var])} AS {count}) WHERE {{",
                      *indent(indent(renamed)), "  }", f"  GROUP BY {inner_keys}", "}"]
        block = ["{", f"  SELECT ({op}({count}) AS {best}) WHERE {{", *indent(indent(per_answer)), "  }", "}"]
        return where + block, f"{self._count(self.count_order_var)} = {op}({best})"

    def _renamed(self, lines: list[str]) -> tuple[list[str], dict[str, str]]:
        """``lines`` with every variable outside string literals renamed to a fresh one."""
        names: dict[str, str] = {}

        def rename(match):
            text = match.group(0)
            if not text.startswith("?"):
                return text  # a string literal, kept as written
            if text not in names:
                base, n = text[1:] + "_all", 1
                while (base if n == 1 else f"{base}{n}") in self.var_names:
                    n += 1
                name = base if n == 1 else f"{base}{n}"
                self.var_names.add(name)
                names[text] = "?" + name
            return names[text]

        return [_VARIABLE_OR_STRING.sub(rename, line) for line in lines], names

    def _count(self, v: str) -> str:
        """COUNT of ``v``: of distinct values unless the profile counts solutions."""
        return f"COUNT(DISTINCT {v})" if self.profile.count_distinct else f"COUNT({v})"

    def _render(self) -> str:
        profile = self.profile
        where = self.group.lines()
        having: list[str] = []  # "the joint most": the count equal to the best count
        if self.tied is not None and (self.aggregates or self.counted):
            raise CompileError("a superlative that keeps ties ('joint ...') cannot be counted or aggregated")
        if self.having and (self.aggregates or self.counted or self.count_order_var or not self.focus):
            raise CompileError("a count condition written as HAVING needs a question that lists answers "
                               "(no other count or aggregate)")
        if self.aggregates:
            if self.counted or self.count_order_var or self.order_keys:
                raise CompileError("an aggregate cannot be combined with a count or an ordering")
            agg, value, alias = self.aggregates[0]
            keys = [v for v in self.focus if v != value]
            head = "SELECT " + " ".join(keys + [f"({aggregate_call(agg, value)} AS {alias})"])
            group_by = keys
        elif self.counted:
            keys = [v for v in self.focus if v not in self.counted]
            counted = self.counted[0]
            head = "SELECT " + " ".join(keys + [f"({self._count(counted)} AS ?count)"])
            group_by = keys
        elif self.focus or self.order_keys:
            cols = list(self.visible_vars) if profile.projection == "all" else list(self.focus)
            if profile.projection == "focus" and profile.order_columns:
                for key, _ in self.order_keys:
                    if key.startswith("?") and key not in cols:
                        cols.append(key)
            if self.count_order_var:
                cols = [c for c in cols if c != self.count_order_var and c != "?count"]
            if not cols:
                cols = list(self.focus)
            if not cols:  # "?x has the highest <P2047>?": an ordering, and no answer to order
                raise CompileError("the question orders its answers but names none to give: ask 'Which ... "
                                   "has the highest ...?' or 'What is the highest <P> of ...?'")
            group_by = cols if self.count_order_var or self.having else []
            if self.tied is not None:
                where, condition = self._tie_block(where, cols)
                if condition is not None:
                    having.append(condition)
            for _, outer in self.having:
                if not set(outer) <= set(cols):
                    raise CompileError("a count condition written as HAVING must be about the answers")
            if self.count_order_var and profile.order_columns:
                cols = cols + [f"({self._count(self.count_order_var)} AS ?count)"]
            if profile.label_columns and not self.count_order_var and not self.having:
                for col in list(cols):
                    label = f"{col}Label"
                    where.append(f"OPTIONAL {{ {col} {profile.label_predicate} {label} . "
                                 + (f'FILTER(LANG({label}) = "{profile.label_language}") ' if profile.label_language else "")
                                 + "}")
                    cols.append(label)
            head = _SELECT[profile.duplicates] + " ".join(cols)
        else:
            if self.tied is not None:
                raise CompileError(_TIES_AT_TOP)
            head = "ASK"
            group_by = []
        lines = []
        body = "\n".join(where)
        used_prefixes = prefixes_used(_strip_strings(body + "\n" + head), profile.prefixes)
        for prefix in used_prefixes:
            lines.append(f"PREFIX {prefix}: <{profile.prefixes[prefix]}>")
        lines.append(f"{head} WHERE {{")
        lines.extend(indent(where))
        lines.append("}")
        if group_by:
            lines.append("GROUP BY " + " ".join(group_by))
        for condition in [c for c, _ in self.having] + having:
            lines.append(f"HAVING({condition})")
        if head != "ASK":
            if self.order_keys and self.tied is None:
                lines.append("ORDER BY " + " ".join(
                    f"{'DESC' if desc else 'ASC'}({self._order_expr(key)})" for key, desc in self.order_keys))
            if self.offset:
                lines.append(f"OFFSET {self.offset}")
            if self.limit is not None:
                lines.append(f"LIMIT {self.limit}")
            elif profile.default_limit and not self.counted:
                lines.append(f"LIMIT {profile.default_limit}")
        return "\n".join(lines) + "\n"
