"""Statements: ``subject property value`` in the profile's statement model (Wikidata's
``p:``/``ps:``/``pq:`` with qualifiers, or a plain triple), statements without a qualifier
(``at no <P582>``), and SPARQL property paths.

Separate because the statement model is the profile's; this module is where the compiler hands
a property, its qualifiers and its rank over to it."""
from __future__ import annotations

from cnl import ir
from cnl.errors import CompileError
from cnl.sparql.compiler.groups import not_exists
from cnl.sparql.compiler.terms import is_any_property


class StatementsMixin:
    """SparqlCompiler's statements (``statement``) and property paths (``_path``)."""

    # ---------------------------------------------------------------- statements
    def statement(self, subject: str, prop: ir.Property, obj: str | None, quals, inverse: bool = False,
                  extra: list | None = None, any_rank: bool = False, normalized: bool = False,
                  unit: ir.Entity | None = None) -> None:
        """``subject prop obj`` with qualifiers; ``obj`` None: a statement said without its value
        (``has a <P> statement``); ``any_rank``: a statement of any rank (``at any rank``);
        ``normalized``: its quantity in SI units (``in SI units``); ``unit``: its quantity's amount
        in that unit (``in unit <Q11573>``)."""
        if normalized and (obj is None or isinstance(prop, ir.PropPath) or self._is_label(prop)):
            raise CompileError("'in SI units' is said of a statement of one property with a value")
        if unit is not None and (obj is None or isinstance(prop, ir.PropPath) or self._is_label(prop) or normalized):
            raise CompileError("'in unit <Q>' is said of a statement of one property with a value, without "
                               "'in SI units'")
        if obj is None and (inverse or isinstance(prop, ir.PropPath)):
            raise CompileError("'a <P> statement' needs one property read forwards")
        if self._is_label(prop) and (obj is None or any_rank):
            raise CompileError("a label is no statement: it has no rank and always a value")
        if is_any_property(prop) and (quals or extra):
            raise CompileError("<any property> takes no qualifier: it is a link of any kind, not a statement")
        if self._is_label(prop) and not quals and not extra:
            # "has a <label> matching ..." / Sparklis' "that matches ...": the profile's label
            # predicate, no statement model
            subject, obj = (obj, subject) if inverse else (subject, obj)
            self.group.triples.append(f"{subject} {self.label_predicate(prop)} {obj} .")
            return
        if isinstance(prop, ir.PropPath):
            # "<P22> or <P25>": one statement of any of them (the profile's statement form);
            # any other path is written with the KG's direct properties and takes no qualifier
            pid = self._alternative(prop)
        else:
            pid = self._id(prop)
            if pid.startswith("^"):  # an inverse property: "member" = ^P463 "member of"
                pid = pid[1:]
                inverse = not inverse
        if inverse:
            subject, obj = obj, subject
        if subject.startswith('"') or subject[0].isdigit() or subject.startswith(("YEAR(", "(")):
            raise CompileError(f"a value ({subject}) cannot be the subject of a statement")
        pending = extra if extra is not None else self.pending_quals.pop() if self.pending_quals else []
        if isinstance(prop, ir.PropPath) and pid is None:
            if quals or pending or any_rank:
                raise CompileError("a property path takes no qualifiers or rank (only an alternative of properties "
                                   "does)")
            self.group.triples.append(f"{subject} {self._path(prop)} {obj} .")
            return

        def emit(values, i, absent=()):
            if i == len(quals):
                if isinstance(pid, tuple):
                    if absent:
                        raise CompileError("'at no <Q>' needs one property, not an alternative")
                    self.group.triples.append(
                        self.profile.alternative_statement(subject, pid, obj, values + pending, any_rank))
                elif normalized:
                    if absent:
                        raise CompileError("'at no <Q>' and 'in SI units' cannot be said of one statement")
                    self.group.triples.append(self.profile.normalized_statement(subject, pid, obj, values + pending))
                elif unit is not None:
                    if absent:
                        raise CompileError("'at no <Q>' and 'in unit <Q>' cannot be said of one statement")
                    self.group.triples.append(
                        self.profile.unit_statement(subject, pid, obj, self.term(unit), values + pending))
                elif absent:
                    self._statement_without(subject, pid, obj, values + pending, absent)
                else:
                    self.group.triples.append(self.profile.statement(subject, pid, obj, values + pending,
                                                                     any_rank=any_rank))
                return
            qual = quals[i]
            qid = self._id(qual.prop)
            value = self.as_value_test(qual.prop, qual.value)
            if isinstance(value, ir.Quant) and value.det == "no" and value.var is None and value.order is None:
                # "at no <P582>": this statement has no such qualifier (the statement, not the
                # triple, is what the negation keeps: a NOT EXISTS on the statement node)
                emit(values, i + 1, absent + ((qid, qual),))
            elif isinstance(value, ir.Quant) and value.noun is None and value.var is None:
                # "at the earliest <P580>": name the value after the qualifier.
                self.quant(value, lambda t: emit(values + [(qid, t)], i + 1, absent), self.fresh(qual.prop.label or qid))
            else:
                self.np(value, lambda t: emit(values + [(qid, t)], i + 1, absent))

        emit([], 0)

    def _statement_without(self, subject: str, pid: str, obj: str, values, absent) -> None:
        """A statement through a named node, with ``FILTER NOT EXISTS { node pq:Q ?v ... }``
        for each qualifier it must not have (``at no <P582>``, ``at no <P582> that ...``)."""
        node = self.fresh("statement")
        if node in self.visible_vars:
            self.visible_vars.remove(node)  # the statement itself is no answer
        self.group.triples.append(self.profile.statement(subject, pid, obj, values, node=node))
        for qid, qual in absent:
            value = qual.value
            with self.subgroup(hidden=True) as g:
                v = self.fresh(qual.prop.label or qid)
                g.triples.append(self.profile.qualifier(node, qid, v))
                self.noun(value.noun, v)
                for rel in value.rels:
                    self.vp(rel, v)
            self.group.filters.append(not_exists(g))

    # ---------------------------------------------------------------- property paths
    def _alternative(self, path: ir.PropPath) -> tuple[str, ...] | None:
        """The IDs of an alternative of plain (forward, non-label) properties, else None."""
        if path.op != "|" or not all(isinstance(i, ir.Property) and not self._is_label(i) for i in path.items):
            return None
        ids = tuple(self._id(i) for i in path.items)
        return None if any(i.startswith("^") for i in ids) else ids

    def _path(self, path, within: str = "") -> str:
        """SPARQL property path text. ``within``: the operator around it ("" at the top, "|" or
        "/" for an item of a list, "1" for the operand of ^ or of a suffix); what binds less
        tightly than that is parenthesized."""
        if isinstance(path, ir.Property):
            if is_any_property(path):
                raise CompileError("<any property> cannot be a step of a property path")
            if self._is_label(path):
                return self.label_predicate(path)
            pid = self._id(path)
            if pid.startswith("^"):
                text = "^" + self.profile.path_predicate(pid[1:])
                return f"({text})" if within == "1" else text
            return self.profile.path_predicate(pid)
        if not isinstance(path, ir.PropPath) or path.op not in ir.PropPath.OPS or not path.items:
            raise CompileError(f"not a property path: {path!r}")
        op, items = path.op, path.items
        if op in "|/":
            if len(items) < 2:
                raise CompileError(f"a property path {op!r} needs two items or more")
            text = op.join(self._path(i, op) for i in items)
            return f"({text})" if within else text
        if len(items) != 1:
            raise CompileError(f"a property path {op!r} takes one item")
        text = "^" + self._path(items[0], "1") if op == "^" else self._path(items[0], "1") + op
        return f"({text})" if within == "1" else text
