"""The compile driver: :class:`SparqlCompiler` (the state of one query, its variables and the
group being filled, and the shape of the question: a list, a yes/no question, an aggregate or
"What is the <P> of X?"), and the entry points :func:`compile_query`, :func:`compile_cnl`,
:func:`parse_cnl` and :func:`resolve_query`.

The constructs themselves are compiled by the mixins SparqlCompiler is made of, one module each."""
from __future__ import annotations

import re
from contextlib import contextmanager
from dataclasses import replace
from functools import lru_cache

from cnl import ir
from cnl.dialects import get_dialect
from cnl.errors import CompileError, LexiconError
from cnl.sparql.compiler.groups import Group
from cnl.sparql.compiler.modifiers import SolutionModifiersMixin
from cnl.sparql.compiler.noun_phrases import NounPhrasesMixin
from cnl.sparql.compiler.statements import StatementsMixin
from cnl.sparql.compiler.terms import Resolver, TermsMixin, each_as_a, noun_hint
from cnl.sparql.compiler.values import ValuesMixin
from cnl.sparql.compiler.verb_phrases import VerbPhrasesMixin
from cnl.sparql.profiles import KGProfile, get_profile

_VAR_SAFE = re.compile(r"[^A-Za-z0-9_]+")
_PROPERTY_ID = re.compile(r"^P[1-9][0-9]*$")
_ITEM_ID = re.compile(r"^Q[1-9][0-9]*$")
ANSWER_VAR = "answer"   # the variable of an answer nothing names (a bare "what", "who")
MAX_VAR_NAME = 64       # longer names (a long property label) are cut at a word's end


@lru_cache(maxsize=4096)
def _var_base(name: str) -> str:
    """A readable name as a variable's name (before a number makes it unique): SPARQL's
    characters only, cut at a word's end. Cached: pure, and the same names recur."""
    base = _VAR_SAFE.sub("_", name.lower()).strip("_") or ANSWER_VAR
    if len(base) > MAX_VAR_NAME:
        base = base[:MAX_VAR_NAME + 1].rsplit("_", 1)[0] or base[:MAX_VAR_NAME]
    if base[0].isdigit():
        base = "v" + base
    return base


class SparqlCompiler(NounPhrasesMixin, VerbPhrasesMixin, StatementsMixin, SolutionModifiersMixin, ValuesMixin,
                     TermsMixin):
    """Compiles one resolved IR query. Create one per query (it holds the query's state).
    Its constructs are compiled by the mixins, one module each (see the package's docstring)."""

    def __init__(self, profile: KGProfile, resolver: Resolver | None = None):
        self.profile = profile
        self.resolver = resolver
        self.resolved: dict[tuple[str, str | None], str] = {}
        self.group = Group(hidden=False)
        self.var_names: set[str] = set()
        self.visible_vars: list[str] = []   # variables in scope at the top, in creation order
        self.var_order: dict[str, int] = {}
        self.focus: list[str] = []          # which / what / give me
        self.counted: list[str] = []        # how many
        self.order_keys: list[tuple[str, bool]] = []  # (expression, descending)
        self.limit: int | None = None
        self.offset: int | None = None
        self.coref: dict[str, str] = {}
        self.pending_quals: list[list[tuple[str, str]]] = []
        self.count_order_var: str | None = None
        self.year_vars: set[str] = set()    # bound to YEAR(...): compared with plain years
        # a variable bound as a value of a property (its Property): a bare year compared with a
        # value of a date-valued property is a year ("has a <P569> between 1990 and 2000")
        self.value_of: dict[str, object] = {}
        self.late_orders: list = []         # (Quant, var): orderings applied after the rest
        self.aggregates: list = []          # (ir.Aggregate, value variable, alias): "the average <P> of ..."
        self.having: list = []              # (condition, outer variables): count tests as HAVING
        self.top = self.group
        self.owners: list[str] = []         # subjects of the statements being compiled ("its <P>")
        self.nested_orders = False          # superlatives rank their own NP in a sub-query (ASK)
        self.tied: tuple[str, bool] | None = None  # "the joint highest": (key, descending), ties kept

    # ---------------------------------------------------------------- variables
    def fresh(self, hint: str | None) -> str:
        """A new variable named for a person who reads the answer's column: after the noun or
        the property it holds (``?film``, ``?director``; an ID by the name the profile or the
        resolver knows for it), ``?answer`` when nothing names it; a long name is cut only at
        a word's end, past :data:`MAX_VAR_NAME` characters."""
        base = _var_base(self.readable(hint))
        name, n = base, 1
        while name in self.var_names:
            n += 1
            name = f"{base}{n}"
        self.var_names.add(name)
        var = "?" + name
        self.var_order[var] = len(self.var_order)
        if not self.group.hidden:
            self.visible_vars.append(var)
        return var

    def readable(self, hint: str | None) -> str:
        """A hint as a name: a property ID by its Wikidata label (``P57`` → ``director``), an
        item ID by the name the resolver knows (a lexicon's, a KG's label), else as it is."""
        if not hint:
            return ANSWER_VAR
        if _PROPERTY_ID.match(hint):
            from cnl.sparql.wikidata_properties import property_names

            return property_names().get(hint, hint)
        if _ITEM_ID.match(hint):
            name = getattr(self.resolver, "name", None)
            try:
                return (name(hint) if callable(name) else None) or hint
            except LexiconError:
                return hint
        return hint

    @contextmanager
    def subgroup(self, hidden: bool | None = None):
        outer = self.group
        inner = Group(hidden=outer.hidden if hidden is None else hidden)
        self.group = inner
        try:
            yield inner
        finally:
            self.group = outer

    # ---------------------------------------------------------------- query
    def compile(self, query: ir.Query) -> str:
        subject, vp = query.subject, query.vp
        # a yes/no question has no answers to rank: a superlative in it ranks its own noun
        # phrase, in a sub-query ("Has <Q79> <P36> the <Q515> that has the highest <P1082>?")
        self.nested_orders = vp is not None and not ir.asks_for_values(query)
        if vp is None and isinstance(subject, ir.Aggregate):
            self._aggregate(subject)
        elif vp is None and isinstance(subject, ir.Choice):
            self._choice(subject)
        elif isinstance(subject, ir.Quant) and subject.det == "number_of" and self.nested_orders:
            # "Is the number of <P166> of <Q1> greater than ...?": a count compared, a value
            self.count_value(subject, lambda s: self.vp(vp, s))
        elif vp is None:
            self._give_me(subject)
        elif (isinstance(vp, ir.Be) and isinstance(vp.np, ir.Aggregate) and isinstance(subject, ir.Quant)
              and subject.det == "which" and subject.noun is None and not subject.rels and subject.order is None):
            self._aggregate(vp.np)  # "What is the average <P> of ...?"
        elif self._is_what_is(subject, vp) and (isinstance(vp.np, ir.Arith) or vp.np.det == "number_of"):
            # "What is the number of <P> of X?", "What is A - B?": what "Give me ..." gives
            self._give_me(vp.np)
        elif self._is_what_is(subject, vp):  # det "a"/"the"
            # "What is the <P> of X?": the NP after "is" is the answer itself.
            inner = each_as_a(vp.np)
            self.np(replace(inner, det=subject.det), lambda t: None)
        else:
            self.np(subject, lambda s: self.vp(vp, s))
        for q, v in self.late_orders:
            self._order(q, v)
        return self._render()

    @staticmethod
    def _is_what_is(subject, vp) -> bool:
        return (
            isinstance(subject, ir.Quant) and subject.det in ("which", "how_many") and subject.noun is None
            and not subject.rels and subject.order is None and isinstance(vp, ir.Be)
            and (isinstance(vp.np, ir.Arith)
                 or (isinstance(vp.np, ir.Quant) and vp.np.det in ("a", "the", "number_of") and vp.np.var is None))
        )

    def _aggregate(self, agg: ir.Aggregate) -> None:
        """The answer is one value computed from the NP's values (one per group of the
        question words inside it): SELECT ?key (AVG(?v) AS ?avg) ... GROUP BY ?key."""
        if agg.op not in ir.Aggregate.OPS:
            raise CompileError(f"unknown aggregate {agg.op!r}")
        # "the average <P> of every <C>": of each (as an answer's "every", _each); a universal
        # would bind the values only inside FILTER NOT EXISTS, never where the aggregate reads them
        agg = replace(agg, np=each_as_a(agg.np))
        if agg.op == "sum" and _one_count(agg.np):
            # "the total number of <C>-s that ...", "the total number of <P> of X": no group, so the
            # total of the one count is the count ("What is the number of ...?")
            self._give_me(agg.np)
            return
        if self._grouped_counts(agg) or self._per_group_counts(agg):
            return
        if isinstance(agg.np, ir.Quant) and agg.np.det == "number_of":
            raise CompileError("an aggregate of counts needs one count per group: 'the average number of <C>-s per "
                               "<P>', 'the average number of <P> of a <C>'")
        values: list[str] = []
        self.np(agg.np, values.append)
        if len(values) != 1 or not values[0].startswith("?"):
            raise CompileError("an aggregate needs the values of one noun phrase (a variable)")
        self.aggregates.append((agg, values[0], self.fresh(agg.op)))

    def _grouped_counts(self, agg: ir.Aggregate) -> bool:
        """``the average number of <Q1003>-s per <P50>`` (Ferré's SQUALL; ``the average of (the
        number of <Q1003>-s that have which <P50>)``): the question words inside the count are its
        group keys, one count per group in a sub-query, then the aggregate of those counts as the
        one answer (SPARQL has no aggregate of an aggregate in one query)."""
        np = agg.np
        if not (isinstance(np, ir.Quant) and np.det == "number_of" and np.var is None and np.order is None
                and any(isinstance(n, ir.Quant) and n.det == "which" for n in ir.walk(np))):
            return False
        focus, counted = self.focus, self.counted
        self.focus, self.counted = [], []
        try:
            with self.subgroup(hidden=True) as group:
                self.np(np, lambda t: None)
            keys, inner = self.focus, self.counted
        finally:
            self.focus, self.counted = focus, counted
        if len(inner) != 1 or not keys:
            raise CompileError("'the average number of <C>-s per <P>' counts one noun phrase per group")
        count = self.fresh("count")
        self._add_count_subquery(inner[0], keys, group, count)
        self.aggregates.append((agg, count, self.fresh(agg.op)))
        return True

    def _per_group_counts(self, agg: ir.Aggregate) -> bool:
        """``the average of (the number of <P150> of a <Q6256>)``: one count per referent of the
        ``of`` NP, in a sub-query grouped by it, then the aggregate of those counts (SPARQL has
        no aggregate of an aggregate in one query)."""
        np = agg.np
        if not (isinstance(np, ir.Quant) and np.det == "number_of" and isinstance(np.noun, ir.RelNoun)
                and np.noun.of is not None and not np.rels and np.order is None and np.var is None):
            return False
        noun = np.noun
        counted = self.fresh(noun_hint(noun))
        keys: list[str] = []

        def counted_of(subject: str) -> None:
            keys.append(subject)
            self.statement(subject, noun.prop, counted, noun.quals, any_rank=noun.any_rank, normalized=noun.normalized,
                           unit=noun.unit)

        with self.subgroup(hidden=True) as group:
            self.np(noun.of, counted_of)
        if len(keys) != 1 or not keys[0].startswith("?"):
            raise CompileError("'the number of <P> of X' per X needs X to be a noun phrase with a variable")
        for v in (counted, keys[0]):
            if v in self.visible_vars:
                self.visible_vars.remove(v)  # only in scope inside the sub-query
        count = self.fresh("count")
        self._add_count_subquery(counted, keys, group, count)
        self.aggregates.append((agg, count, self.fresh(agg.op)))
        return True

    def _give_me(self, np) -> None:
        if isinstance(np, ir.Quant) and np.det == "a" and any(
                isinstance(n, ir.Quant) and n.det == "how_many" for n in ir.walk(np.rels)):
            # "give me everything that is the <P179> of a literary work and give me the number
            # of literary work": the count is the answer
            self.np(np, lambda t: None)
            return
        if isinstance(np, ir.Quant) and np.det in ("a", "the", "every"):
            # "give me every film that ...": list them (Sparklis' reading), not a universal.
            np = replace(each_as_a(np), det="which")
            self.np(np, lambda t: None)
            return

        def project(term):
            if term.startswith("?") and term not in self.focus:
                self.focus.append(term)

        self.np(np, project)
        if not self.focus and not self.counted:
            raise CompileError("'give me' needs something to list (a noun phrase with a variable)")


def _one_count(np) -> bool:
    """Whether ``np`` is a count with no group: no question word inside it, and an ``of`` (if any)
    that names its things (``the number of <P161> of <Q25188>``), not a noun phrase of many."""
    if not (isinstance(np, ir.Quant) and np.det == "number_of" and np.var is None and np.order is None):
        return False
    if any(isinstance(n, ir.Quant) and n.det == "which" for n in ir.walk(np)):
        return False
    return not (isinstance(np.noun, ir.RelNoun) and np.noun.of is not None and not isinstance(np.noun.of, ir.Ref))


def resolve_query(query: ir.Query, resolver: Resolver | None) -> ir.Query:
    """Fill in the ID of every term written by label; raise LexiconError when one cannot be.
    The same rules as the compiler's (``SparqlCompiler._id``, and a class noun written as a
    property names the class its label names, if any), with its per-label cache."""
    ids = SparqlCompiler(KGProfile(), resolver)

    def fix(term):
        if isinstance(term, ir.Class) and (term.id or "").startswith("P") and term.label:
            try:
                return replace(term, id=ids._id(replace(term, id=None)))
            except LexiconError:
                return term  # the property's values (see SparqlCompiler.noun)
        ident = ids._id(term)
        return term if ident == term.id else replace(term, id=ident)

    return ir.map_terms(query, fix)


def compile_query(query: ir.Query, kg="wikidata", resolver: Resolver | None = None, **profile_options) -> str:
    """Resolve labels (through ``resolver``) and compile an IR query to SPARQL text."""
    profile = get_profile(kg, **profile_options)
    return SparqlCompiler(profile, resolver).compile(query)


def parse_cnl(text: str, *, dialect="squall", kg="wikidata", resolver: Resolver | None = None,
              notation: str | None = None) -> ir.Query:
    """CNL text in ``dialect`` -> IR, for compiling with ``kg``. A ``resolver`` with
    ``labels(kind)`` (a lexicon) tells dialects that write terms without brackets which labels
    exist; without one, the profile's own property vocabulary does (Wikidata's property labels)."""
    known = callable(getattr(resolver, "labels", None))
    properties = resolver if known else get_profile(kg).property_labels()
    return get_dialect(dialect).parse(text, notation=notation, entities=resolver, properties=properties)


def compile_cnl(text, *, dialect="squall", kg="wikidata", resolver: Resolver | None = None,
                notation: str | None = None, **profile_options) -> str:
    """CNL text in ``dialect`` (or an IR query) -> SPARQL (see :func:`parse_cnl`)."""
    profile = get_profile(kg, **profile_options)
    query = text if isinstance(text, ir.Query) else parse_cnl(text, dialect=dialect, kg=profile, resolver=resolver,
                                                             notation=notation)
    return compile_query(query, kg=profile, resolver=resolver)
