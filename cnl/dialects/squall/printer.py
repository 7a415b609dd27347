"""IR -> SQUALL text in one of the three notations.

The printer is canonical: one IR gives one text, and parsing that text gives the IR back
(minus what the notation cannot carry: the label notation drops IDs where a label exists,
the ECAI notation drops entity IDs where a label exists; see :func:`cnl.dialects.notation.for_notation`).
"""
from __future__ import annotations

from dataclasses import replace

from cnl import ir
from cnl.errors import PrintError
from cnl.dialects.notation import NOTATIONS, escape


def _ordinal(n: int) -> str:
    if 10 <= n % 100 <= 20:
        suffix = "th"
    else:
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


_DET_WORDS = {
    "a": "a", "the": "the", "every": "every", "no": "no", "maybe": "maybe a",
    "which": "which", "how_many": "how many", "number_of": "the number of",
}
_AGGREGATE_WORDS = {"sum": "total", "avg": "average", "min": "minimum", "max": "maximum"}
_CMP_WORDS = {">": "greater than", "<": "less than", ">=": "greater or equal to",
              "<=": "less or equal to", "=": "equal to", "!=": "different from"}
_TEMPORAL_WORDS = {">": "later than", "<": "earlier than", ">=": "later or equal to",
                   "<=": "earlier or equal to", "=": "equal to", "!=": "different from"}


class SquallPrinter:
    def __init__(self, notation: str = "label", id_labels: bool = True):
        if notation not in NOTATIONS:
            raise ValueError(f"unknown notation {notation!r}; choose one of {', '.join(NOTATIONS)}")
        self.notation = notation
        # ID notation: <Q11424:film> (True, lossless) or <Q11424> (False, the paper's format).
        self.id_labels = id_labels

    # ---------------------------------------------------------------- terms
    def _angle_label(self, label: str) -> str:
        if self.notation == "label":
            return escape(label, ">")
        return escape(label.replace(" ", "_"), ">")

    def entity(self, term) -> str:
        if isinstance(term, ir.Literal):
            return self.literal(term)
        if isinstance(term, ir.Var):
            return "?" + term.name
        if self.notation == "id" and term.id:
            if self.id_labels and term.label:
                return f"<{term.id}:{self._angle_label(term.label)}>"
            return f"<{term.id}>"
        if term.label:
            if self.notation == "label":
                return f"[{escape(term.label, ']')}]"
            return f"<{self._angle_label(term.label)}>"
        if term.id:
            return f"<{term.id}>"
        raise PrintError("a term has neither an ID nor a label")

    def prop(self, prop, strict: bool = False) -> str:
        """``strict``: the position needs a token that always reads as a property, which in
        the ECAI notation means an ID (``<director>`` there reads as an entity)."""
        if isinstance(prop, ir.PropPath):
            return self.path(prop)
        if prop.id and (self.notation != "label" or not prop.label):
            if prop.label and (self.notation == "ecai" or self.id_labels):
                return f"<{prop.id}:{self._angle_label(prop.label)}>"
            return f"<{prop.id}>"
        if prop.label:
            if strict and self.notation != "label":
                raise PrintError(f"property {prop.label!r} needs an ID to be printed here")
            return f"<{self._angle_label(prop.label)}>"
        raise PrintError("a property has neither an ID nor a label")

    # ---------------------------------------------------------------- property paths
    def path(self, path: ir.PropPath) -> str:
        """``<P131>+``, ``<P22> or <P25>``, ``<P19>/<P131>``, ``^<P131>``; a path item that
        binds less tightly than its operator is parenthesized (or < / < ^ and suffixes), as
        is a path inside an operator of its own kind, so that the text reads back as the IR."""
        op, items = path.op, path.items
        if op not in ir.PropPath.OPS or not items or (op in "+*?^" and len(items) != 1) \
                or (op in "|/" and len(items) < 2):
            raise PrintError(f"not a property path: {op!r} over {len(items)} item(s)")
        if op == "|":
            return " or ".join(self._path_item(i, ("|",)) for i in items)
        if op == "/":
            return "/".join(self._path_item(i, ("|", "/")) for i in items)
        if op == "^":
            return "^" + self._path_item(items[0], ("|", "/", "^"))
        return self._path_item(items[0], ir.PropPath.OPS) + ("{0,1}" if op == "?" else op)

    def _path_item(self, item, grouped) -> str:
        if isinstance(item, ir.PropPath):
            text = self.path(item)
            return f"({text})" if item.op in grouped else text
        return self.prop(item, strict=True)

    def literal(self, lit: ir.Literal) -> str:
        if lit.datatype == "string":
            return ('"' + lit.value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ") + '"'
                    + (f"@{lit.lang}" if lit.lang else ""))
        if lit.typed:
            # as SPARQL writes it; a line break has no escape in the CNL's strings
            if "\n" in lit.value or "\r" in lit.value:
                raise PrintError(f"a typed literal with a line break: {lit.value!r}")
            datatype = f"<{lit.datatype}>" if ":" in lit.datatype else f"xsd:{lit.datatype}"
            return '"' + lit.value.replace("\\", "\\\\").replace('"', '\\"') + '"^^' + datatype
        return lit.value

    # ---------------------------------------------------------------- sentences
    def query(self, query: ir.Query) -> str:
        if query.vp is None:
            return f"Give me {self.np(query.subject)}."
        fronted = self._fronted_qualifier(query) or self._noun_phrase_question(query)
        if fronted is not None:
            return fronted
        subject, vp = query.subject, query.vp
        if (isinstance(vp, ir.BelongsTo) and vp.inverse and isinstance(subject, ir.Quant)
                and subject.det in ("which", "how_many") and subject.var is None):
            text = f"{self.np(subject)} does {self.np_atom(vp.np, True)} belong to?"  # Ferré's fronted class
            return text[0].upper() + text[1:]
        if not ir.asks_for_values(query):
            yes_no = self._yes_no(subject, vp)
            if yes_no is not None:
                return yes_no
        text = f"{self.np(subject)} {self.vp(vp)}?"
        if isinstance(vp, ir.Or) and isinstance(vp.items[0], ir.StrTest):
            # "Which <P> of X contains "a" or ...": the test would be read as a relative
            # clause of the noun, and "or" could not follow; "that" makes the disjunction one
            text = f"{self.np(subject)} that {self.vp(vp)}?"
        return text[0].upper() + text[1:]

    def _yes_no(self, subject, vp):
        if isinstance(vp, ir.Exists) and isinstance(subject, ir.Quant):
            return f"Is there {self.np_atom(subject)}?"  # whether such a thing exists
        if _is_atom(subject):
            # a subject that ends in a relative clause is parenthesized: "Has (the <C> that has the
            # latest <P577>) a <P1113> ...?" (else the clause would take what follows)
            subject_text = self.np(subject)
            if isinstance(subject, ir.Quant) and subject.rels and not _ends_in_a_term(subject.rels[-1]):
                subject_text = f"({subject_text})"
            own = self._own_computation(vp) if isinstance(vp, ir.SuchThat) else None
            if own is not None:
                return f"Has {subject_text} {own}?"
            if isinstance(vp, ir.Stmt) and not vp.inverse:
                return f"Has {subject_text} {self._has_tail(vp)}?"
            if isinstance(vp, ir.CountComparison):
                return f"Has {subject_text} {self._count_comparison(vp)}?"
            if isinstance(vp, ir.BelongsTo) and not vp.inverse:
                return f"Does {subject_text} belong to {self.np(vp.np)}?"
            if isinstance(vp, (ir.Be, ir.Compare)):
                return f"Is {subject_text} {self._be_tail(vp)}?"
        elif isinstance(subject, ir.Arith) and isinstance(vp, (ir.Be, ir.Compare)):
            return f"Is {self.np_atom(subject)} {self._be_tail(vp)}?"  # "Is (A + B) less than 0?"
        return None

    def _noun_phrase_question(self, query):
        """A question whose verb phrase only a relative clause can say (``at which <Q> S ...``,
        ``whose year ...``) as a noun phrase alone: ``How many <film> at which <P1686> <X> has
        <P166> <Y>?`` (issue 29, form 2; the parser reads it back as this query)."""
        subject, vp = query.subject, query.vp
        items = list(_flat_and((vp,)))
        if not any(isinstance(i, (ir.QualifierOf, ir.SuchThat, ir.TextIs))
                   or (isinstance(i, ir.YearIs) and not isinstance(i.vp, ir.Be)) for i in items):
            return None
        if not (isinstance(subject, ir.Quant) and subject.det in ("which", "how_many") and subject.noun is not None
                and not subject.rels and subject.var is None):
            return None
        text = f"{self.quant(replace(subject, rels=tuple(items)))}?"
        return text[0].upper() + text[1:]

    def _fronted_qualifier(self, query):
        """``At which earliest <P585> does <Al_Pacino> <P166> <X>?``"""
        vp = query.vp
        if not isinstance(vp, ir.Stmt) or ir.asks_for_values(query.subject):
            return None
        wh = [q for q in vp.quals if isinstance(q.value, ir.Quant) and q.value.det in ("which", "how_many")]
        if not wh:
            return None
        qual = wh[-1]
        quant = qual.value
        if quant.noun is not None or quant.rels or not _is_atom(query.subject):
            raise PrintError("a question about a qualifier must be 'At which <Q> does S <P> O?'")
        rest = replace(vp, quals=tuple(q for q in vp.quals if q is not qual))
        if vp.order is not None or ir.asks_for_values(rest):
            raise PrintError("a question about a qualifier cannot also have a superlative or another question word")
        head = "At which" if quant.det == "which" else "At how many"
        if quant.order is not None:
            if quant.det != "which":
                raise PrintError("'At how many' takes no superlative")
            head += " " + self.order(quant.order)
        if isinstance(rest.obj, ir.AnyValue):
            return f"{head} {self.prop(qual.prop)} does {self.np(query.subject)} have {self._has_tail(rest)}?"
        return f"{head} {self.prop(qual.prop)} does {self.np(query.subject)} {self._verb_tail(rest)}?"

    # ---------------------------------------------------------------- noun phrases
    def np(self, np, closed=False) -> str:
        """``closed``: more text follows that must not be read as part of a relative clause
        at the end of this NP, so such an NP is parenthesized; ``closed="rel"``: what follows
        is itself a relative clause, which any NP that takes one would take (``a <P571> of
        (a <Q7075>) whose year ...``), so every such NP is parenthesized."""
        if isinstance(np, ir.Ref):
            return self.entity(np.term)
        if isinstance(np, ir.Quant):
            text = self.quant(np)
            return f"({text})" if closed and _is_open(np, closed == "rel") else text
        if isinstance(np, ir.Coord):
            last = len(np.items) - 1
            return f" {np.op} ".join(self.np_atom(item, closed if i == last else True) for i, item in enumerate(np.items))
        if isinstance(np, ir.Arith):
            return f"{self.np_atom(np.left, True)} {np.op} {self.np_atom(np.right, closed)}"
        if isinstance(np, ir.Aggregate):
            return self.aggregate(np, closed)
        if isinstance(np, ir.Now):
            return "now"
        if isinstance(np, ir.Its):
            return f"its {self.prop(np.prop)}{self.quals(np.quals, closed)}"
        if isinstance(np, ir.StringCall):
            return f"{np.name}({', '.join(self.np_item(arg) for arg in np.args)})"
        if isinstance(np, ir.Choice):
            return (f"{self.np_item(np.then, True)} if {self.np_atom(np.subject)} {self.vp(np.test)}, "
                    f"else {self.np_item(np.otherwise, closed)}")
        raise PrintError(f"not a noun phrase: {type(np).__name__}")

    def aggregate(self, agg: ir.Aggregate, closed: bool = False) -> str:
        """``the average <P> of X`` (the values of a relational noun), else ``the average of NP``."""
        if agg.op in ("sample", "group_concat"):
            return self.sample_or_concatenation(agg, closed)
        if agg.op not in _AGGREGATE_WORDS:
            raise PrintError(f"unknown aggregate {agg.op!r}")
        word, arg = _AGGREGATE_WORDS[agg.op], agg.np
        if (isinstance(arg, ir.Quant) and arg.det == "a" and isinstance(arg.noun, ir.RelNoun)
                and arg.noun.of is not None and not arg.rels and arg.order is None and arg.var is None):
            noun = arg.noun
            quals = self.quals(noun.quals, True, noun.any_rank, normalized=noun.normalized, unit=noun.unit)
            return f"the {word} {self.prop(noun.prop)}{quals} of {self.np_of(noun.of, closed)}"
        if _is_grouped_count(arg):
            return self.grouped_count(word, arg, closed)
        return f"the {word} of {self.np_atom(arg, closed)}"

    def sample_or_concatenation(self, agg: ir.Aggregate, closed) -> str:
        """``a sample <P40> of <Q76>`` (SAMPLE), ``the concatenation of NP separated by ", "``
        (GROUP_CONCAT; without ``separated by``, a space)."""
        if agg.op == "sample":
            text = self.aggregate(ir.Aggregate("max", agg.np), closed)
            return "a sample" + text[len("the maximum"):]
        if agg.separator is None:
            return f"the concatenation of {self.np_atom(agg.np, closed)}"
        if "\n" in agg.separator or "\r" in agg.separator:
            raise PrintError("a concatenation separated by a line break (the CNL's strings have none)")
        return (f"the concatenation of {self.np_atom(agg.np, True)} separated by "
                f"{self.literal(ir.Literal(agg.separator))}")

    def grouped_count(self, word: str, arg: ir.Quant, closed) -> str:
        """``the average number of <Q1003> per <P50>`` (Ferré's SQUALL): an aggregate of one count
        per group, the count's question words its group keys; ``per <P>`` where the group is a
        value of the counted thing's property and nothing else is said of it, else the question
        word where it stands (``the maximum number of <Q515> that has <P30> <Q46> and has which
        <P17>``)."""
        last = arg.rels[-1] if arg.rels else None
        if (len(arg.rels) == 1 and arg.noun is not None and isinstance(last, ir.Stmt)
                and isinstance(last.prop, ir.Property) and last.obj == ir.Quant("which")
                and last == ir.Stmt(last.prop, last.obj)):
            return f"the {word} number of {self.noun(arg.noun, True)} per {self.prop(last.prop)}"
        text = self.np(arg, closed)
        return f"the {word} number of {text[len('the number of '):]}"

    def np_atom(self, np, closed: bool = False) -> str:
        if isinstance(np, (ir.Coord, ir.Arith, ir.Choice)):
            return f"({self.np(np)})"
        return self.np(np, closed)

    def np_item(self, np, closed: bool = False) -> str:
        return self.np(np, closed) if isinstance(np, ir.Arith) else self.np_atom(np, closed)

    def order(self, order: ir.Order) -> str:
        if not order.limit:
            if order.word in ("highest", "lowest") and order.rank == 1 and order.count is None and order.to_rank is None:
                return "highest-to-lowest" if order.word == "highest" else "lowest-to-highest"
            raise PrintError(f"SQUALL cannot say an ordering by '{order.word}' without a limit "
                             "(only highest-to-lowest / lowest-to-highest)")
        if order.to_rank is not None:
            return f"{_ordinal(order.rank)} to {_ordinal(order.to_rank)} {order.word}"
        if order.count is not None:
            return f"{order.count} {order.word}"
        if order.rank != 1:
            return f"{_ordinal(order.rank)} {order.word}"
        return f"joint {order.word}" if order.ties else order.word

    def det(self, quant: ir.Quant) -> str:
        if quant.det in ("at_least", "at_most", "exactly", "more_than", "fewer_than"):
            return f"{quant.det.replace('_', ' ')} {quant.number}"
        return _DET_WORDS[quant.det]

    def quant(self, q: ir.Quant) -> str:
        rels = self.rels(q.rels)
        order = f" {self.order(q.order)}" if q.order else ""
        if q.noun is None:
            if q.det == "which":
                among = _which_of(q)
                if among is not None:
                    return "which of " + " and ".join(self.np(item) for item in among)
                if q.order:
                    raise PrintError("'what' takes no superlative")
                if q.rels or q.var is not None:  # a thing of no class, described or named
                    return "which thing" + (f" ?{q.var}" if q.var else "") + rels
                return "what"
            if q.det == "how_many":
                raise PrintError("'how many' needs a noun")
            if q.det == "a" and not q.order:
                return "something" + (f" ?{q.var}" if q.var else "") + rels
            if q.det == "every" and not q.order:
                return "everything" + rels
            counts = ((q.order is not None and q.order.word in ("most", "least", "fewest")) or (q.number or 0) > 1
                      or q.det == "number_of")
            return f"{self.det(q)}{order} {'things' if counts else 'thing'}{rels}"
        if q.var is not None:
            if not isinstance(q.noun, ir.ClassNoun) or q.det == "how_many":
                raise PrintError("a variable label needs a determiner and a class noun")
            return f"{self.det(q)}{order} {self.entity(q.noun.cls)} ?{q.var}{rels}"
        if q.det == "how_many":
            if q.order:
                raise PrintError("'how many' takes no superlative")
            return f"how many {self.noun(q.noun, 'rel' if q.rels else True)}{rels}"
        return f"{self.det(q)}{order} {self.noun(q.noun, 'rel' if q.rels else True)}{rels}"

    def noun(self, noun, closed=True) -> str:
        """``closed``: how the text after the noun reads (see :meth:`np`); its of-phrase is
        closed that way."""
        if isinstance(noun, ir.ClassNoun):
            return self.entity(noun.cls)
        if isinstance(noun, ir.RelNoun):
            quals = self.quals(noun.quals, any_rank=noun.any_rank, before_of=noun.of is not None,
                               normalized=noun.normalized, unit=noun.unit)
            head = self.prop(noun.prop)
            if noun.of is None:
                if not quals:
                    raise PrintError("a relational noun without 'of' needs a qualifier")
                return f"{head}{quals}"
            return f"{head}{quals} of {self.np_of(noun.of, closed)}"
        if isinstance(noun, ir.YearOf):
            return f"year of {self.np_of(noun.arg, closed)}"
        if isinstance(noun, ir.DatePart):
            return f"{noun.part} of {self.np_of(noun.arg, closed)}"
        if isinstance(noun, ir.Measure):
            return f"{noun.kind} of {self.np_of(noun.arg, closed)}"
        if isinstance(noun, ir.Distance):
            return f"distance between {self.np_atom(noun.left, True)} and {self.np_atom(noun.right, closed)}"
        raise PrintError(f"not a noun: {type(noun).__name__}")

    def np_of(self, np, closed: bool = False) -> str:
        if isinstance(np, ir.Coord) and np.op == "and" and any(map(ir.is_relational_phrase, np.items[1:])):
            # "of (A and a <Q> of B)": unbracketed, "a <Q> of B" would be the outer phrase's conjunct
            return f"({self.np(np, True)})"
        if isinstance(np, ir.Coord) and np.op == "and" and all(not isinstance(i, (ir.Coord, ir.Arith)) for i in np.items):
            last = len(np.items) - 1
            return " and ".join(self.np(item, (closed or True) if i == last else True) for i, item in enumerate(np.items))
        return self.np_atom(np, closed)

    # ---------------------------------------------------------------- relative clauses
    def rels(self, rels, closed: bool = False) -> str:
        out = []
        last = len(rels) - 1
        for i, rel in enumerate(rels):
            text = self.rel(rel, closed if i == last else "rel")
            if i and isinstance(rel, ir.StrTest):
                text = "and that " + text  # "and contains ..." would coordinate the main verb phrase
            elif i:
                text = "and " + text
            out.append(" " + text)
        return "".join(out)

    def rel(self, vp, closed: bool = False) -> str:
        if isinstance(vp, ir.YearIs):
            return f"whose year {self.vp(vp.vp, closed)}"
        if isinstance(vp, ir.TextIs):
            return f"whose text {self.vp(vp.vp, closed)}"
        if isinstance(vp, ir.QualifierOf):
            return f"at which {self.prop(vp.prop, strict=True)} {self.np_atom(vp.subject, True)} {self.vp(vp.vp, closed)}"
        if isinstance(vp, ir.StrTest):
            return self.vp(vp)
        if isinstance(vp, ir.LangIs):
            return f"whose language {'matches' if vp.range else 'is'} {self.literal(ir.Literal(vp.lang))}"
        if isinstance(vp, ir.Or) and all(isinstance(i, ir.SuchThat) for i in vp.items):
            return " or ".join(self.rel(i, closed) for i in vp.items)  # "such that A or such that B"
        if isinstance(vp, ir.BelongsTo) and vp.inverse:
            return f"that {self.np_atom(vp.np, True)} belongs to"
        if isinstance(vp, ir.SuchThat):
            ranked = vp.vp.np if isinstance(vp.vp, ir.Be) else None
            if (isinstance(ranked, ir.Quant) and ranked.det == "the" and ranked.noun is None and not ranked.rels
                    and ranked.order is not None and ranked.order.limit and ranked.var is None):
                # "such that (?p / ?a) is the highest": the ordering by a computed value
                return f"such that {self.np_atom(vp.subject, True)} is the {self.order(ranked.order)}"
            return f"such that {self.np_atom(vp.subject, True)} {self.vp(vp.vp, closed)}"
        whose = self._whose(vp, closed)
        if whose is not None:
            return whose
        return f"that {self.vp(vp, closed)}"

    def _whose(self, vp, closed):
        if not (isinstance(vp, ir.Stmt) and not vp.quals and not vp.inverse and vp.order is None
                and not vp.any_rank and not vp.normalized and vp.unit is None):
            return None
        obj = vp.obj
        if not (isinstance(obj, ir.Quant) and obj.det == "a" and obj.noun is None and len(obj.rels) == 1
                and obj.order is None and obj.number is None and obj.var is None):
            return None
        inner = obj.rels[0]
        if isinstance(inner, (ir.YearIs, ir.TextIs, ir.QualifierOf, ir.StrTest)):
            return None
        try:
            prop = self.prop(vp.prop, strict=True)
        except PrintError:
            return None
        return f"whose {prop} {self.vp(inner, closed)}"

    # ---------------------------------------------------------------- verb phrases
    def vp(self, vp, closed: bool = False) -> str:
        if isinstance(vp, ir.Stmt) and vp.inverse:
            return f"is {self._be_tail(_as_relnoun(vp), closed)}"
        if isinstance(vp, ir.Stmt):
            return f"has {self._has_tail(vp, closed)}"
        if isinstance(vp, (ir.Be, ir.Compare)):
            return f"is {self._be_tail(vp, closed)}"
        if isinstance(vp, ir.Not):
            return self._not(vp.vp, closed)
        if isinstance(vp, ir.And):
            items = [_conjunct(item) for item in _flat_and(vp.items)]
            last = len(items) - 1
            return " and ".join(self.vp(item, closed if i == last else True) for i, item in enumerate(items))
        if isinstance(vp, ir.Or):
            for item in vp.items:
                if isinstance(item, ir.Or):
                    raise PrintError("nested disjunction of verb phrases")
            last = len(vp.items) - 1
            return " or ".join(self.vp(item, closed if i == last else True) for i, item in enumerate(vp.items))
        if isinstance(vp, ir.StrTest):
            word = {"matches": "matching", "contains": "contains", "starts": "starts with"}[vp.op]
            cased = "case-sensitively " if vp.case_sensitive else ""
            return f'{cased}{word} {self.literal(ir.Literal(vp.value))}'
        if isinstance(vp, ir.Exists):
            return "are there"
        if isinstance(vp, ir.LangIs):
            return f"has language {'matching ' if vp.range else ''}{self.literal(ir.Literal(vp.lang))}"
        if isinstance(vp, ir.YearIs):
            if isinstance(vp.vp, ir.Be):
                return f"has year {self.np_item(vp.vp.np, closed)}"
            if isinstance(vp.vp, ir.Compare):  # "has year between 1980 and 1990" (Ferré's)
                return f"has year {self.comparison(vp.vp, closed)}"
            raise PrintError("'whose year' is only possible in a relative clause")
        if isinstance(vp, ir.QualifierOf):
            raise PrintError("'at which <Q> S ...' is only possible in a relative clause")
        if isinstance(vp, ir.TextIs):
            raise PrintError("'whose text' is only possible in a relative clause")
        if isinstance(vp, ir.TermKind):
            return {"literal": "is a literal", "number": "is a number"}.get(vp.kind, "is an IRI")
        if isinstance(vp, ir.SuchThat):
            own = self._own_computation(vp, closed)
            if own is not None:  # "has (the <P2048> * the <P2049>) equal to 100"
                return f"has {own}"
            return self.vp(ir.Be(ir.Quant("a", None, (vp,))), closed)  # "is something such that S"
        if isinstance(vp, ir.CountComparison):
            return f"has {self._count_comparison(vp, closed)}"
        if isinstance(vp, ir.BelongsTo):
            if vp.inverse:  # "is something that X belongs to"
                return self.vp(ir.Be(ir.Quant("a", None, (vp,))), closed)
            return f"belongs to {self.np(vp.np, closed)}"
        raise PrintError(f"not a verb phrase: {type(vp).__name__}")

    def _not(self, vp, closed) -> str:
        if isinstance(vp, ir.Stmt) and vp.inverse:
            return f"is not {self._be_tail(_as_relnoun(vp), closed)}"
        if isinstance(vp, ir.Stmt):
            return f"has not {self._has_tail(vp, closed)}"
        if isinstance(vp, (ir.Be, ir.Compare)):
            return f"is not {self._be_tail(vp, closed)}"
        if isinstance(vp, ir.StrTest) and vp.op in ("contains", "matches") and not vp.case_sensitive:
            verb = {"contains": "contain", "matches": "match"}[vp.op]
            return f"does not {verb} {self.literal(ir.Literal(vp.value))}"
        if isinstance(vp, ir.TermKind):
            return "is not " + self.vp(vp)[len("is "):]
        if isinstance(vp, ir.CountComparison):
            return f"has not {self._count_comparison(vp, closed)}"
        if isinstance(vp, ir.BelongsTo):
            if vp.inverse:
                return self._not(ir.Be(ir.Quant("a", None, (vp,))), closed)
            return f"does not belong to {self.np(vp.np, closed)}"
        own = self._own_computation(vp, closed) if isinstance(vp, ir.SuchThat) else None
        if own is not None:
            return f"has not {own}"
        raise PrintError(f"a negated {type(vp).__name__} cannot be written in SQUALL")

    def _own_computation(self, vp: ir.SuchThat, closed: bool = False) -> str | None:
        """``(the <P2048> * the <P2049>) equal to 100``, what follows "has" for "such that (its
        <P2048> * its <P2049>) is equal to 100" (a computed value of the subject's own values, where
        "such that" cannot stand: after a name, in a yes/no question), or None."""
        if not (isinstance(vp.vp, ir.Compare) and isinstance(vp.subject, ir.Arith) and _own_arith(vp.subject)):
            return None

        def operand(np):
            if isinstance(np, ir.Its):
                return f"the {self.prop(np.prop)}"
            if isinstance(np, ir.Arith):
                return f"({operand(np.left)} {np.op} {operand(np.right)})"
            return self.literal(np.term)

        return f"{operand(vp.subject)} {self.comparison(vp.vp, closed)}"

    def _count_comparison(self, vp: ir.CountComparison, closed: bool = False) -> str:
        """``more <P166> than <Q76>``: what follows "has" in a comparison of counts."""
        if vp.op == "=":
            return f"as many {self.prop(vp.prop)} as {self.np_item(vp.other, closed)}"
        more = {">": "more", "<": "fewer"}.get(vp.op)
        if more is None:
            raise PrintError(f"unknown comparison of counts {vp.op!r}")
        return f"{more} {self.prop(vp.prop)} than {self.np_item(vp.other, closed)}"

    def _be_tail(self, vp, closed=False) -> str:
        if isinstance(vp, ir.Be):
            return self.np(vp.np, closed)
        return self.comparison(vp, closed)

    def comparison(self, cmp: ir.Compare, closed: bool = False) -> str:
        if cmp.op == "between":
            low, high = cmp.args
            return f"between {self.np_atom(low, True)} and {self.np_atom(high, closed)}"
        words = _TEMPORAL_WORDS if cmp.temporal else _CMP_WORDS
        return f"{words[cmp.op]} {self.np_item(cmp.args[0], closed)}"

    def _has_tail(self, stmt: ir.Stmt, closed: bool = False) -> str:
        if stmt.inverse:
            raise PrintError("an inverse statement is written 'is a <P> of X' (Be of a relational noun)")
        quals = self.quals(stmt.quals, closed, stmt.any_rank, normalized=stmt.normalized, unit=stmt.unit)
        inner_closed = True if quals else closed
        prop = self.prop(stmt.prop)
        obj = stmt.obj
        if isinstance(obj, ir.AnyValue):
            if stmt.order is not None:
                raise PrintError("a statement without its value cannot be ranked")
            return f"a {prop} statement{quals}"
        if stmt.order is not None:
            return f"the {self.order(stmt.order)} {prop} {self.np(obj, inner_closed)}{quals}"
        if obj == ir.Quant("which"):
            return f"which {prop}{quals}"
        if isinstance(obj, ir.Quant) and obj.var is not None and obj == ir.Quant("which", var=obj.var):
            return f"which {prop} ?{obj.var}{quals}"  # "has which <P495> ?X ... is not ?X"
        if isinstance(obj, ir.Quant) and obj.var is not None and obj == ir.Quant("maybe", var=obj.var):
            return f"maybe a {prop} ?{obj.var}{quals}"  # "has maybe a <P26> ?s": an optional value, named
        if obj == ir.Quant("how_many") and not quals:
            return f"how many {prop}"  # "Which <book> has how many <author>?": a count per book
        if isinstance(obj, ir.Quant) and obj.noun is None and obj.var is None and obj.det not in ("which", "how_many"):
            det = self.det(obj)
            if obj.order is not None and not obj.rels:
                return f"{det} {self.order(obj.order)} {prop}{quals}"
            # "a <P>" would take a relative clause that follows ("that has a <P570> and that
            # has ..." reads the second clause as the <P570>'s): there, "<P> (something)"
            if obj.order is None and not (inner_closed and obj.rels) and not (inner_closed == "rel" and not obj.rels):
                if len(obj.rels) == 1 and isinstance(obj.rels[0], ir.Compare):
                    return f"{det} {prop} {self.comparison(obj.rels[0], inner_closed)}{quals}"
                if not (obj.rels and isinstance(obj.rels[0], ir.Compare)):
                    return f"{det} {prop}{self.rels(obj.rels)}{quals}"
        return f"{prop} {self._object(stmt, self.np(obj, inner_closed))}{quals}"

    def _verb_tail(self, stmt: ir.Stmt) -> str:
        """``<P> O`` (property as a verb); ``has-<label>`` where the ID is unknown."""
        try:
            prop = self.prop(stmt.prop, strict=True)
        except PrintError:
            prop = "has-" + self.prop(stmt.prop)
        quals = self.quals(stmt.quals, any_rank=stmt.any_rank, normalized=stmt.normalized, unit=stmt.unit)
        return f"{prop} {self._object(stmt, self.np(stmt.obj))}{quals}"

    @staticmethod
    def _object(stmt: ir.Stmt, text: str) -> str:
        """The object of a statement with qualifiers: "<film> at <P> v" would read as a noun with
        qualifiers (a relational noun), so a class noun is parenthesized there."""
        obj = stmt.obj
        marked = stmt.quals or stmt.any_rank or stmt.normalized or stmt.unit is not None
        if marked and isinstance(obj, ir.Quant) and isinstance(obj.noun, ir.ClassNoun) and not text.startswith("("):
            return f"({text})"
        return text

    def quals(self, quals, closed: bool = False, any_rank: bool = False, before_of: bool = False,
              normalized: bool = False, unit: ir.Entity | ir.Var | None = None) -> str:
        """The qualifiers, then ``at any rank`` for a statement of any rank. ``before_of``: an
        of-phrase follows ("<P69> at <P512> (a <Q163727>) of <Q76>"): a last value with a noun
        is parenthesized, else "a <Q163727> of <Q76>" would read as one noun phrase."""
        last = len(quals) - 1
        marked = any_rank or normalized or unit is not None
        text = "".join(" " + self.qual(q, closed if i == last and not marked else True,
                                       before_of=before_of and i == last and not marked)
                       for i, q in enumerate(quals))
        text = text + " at any rank" if any_rank else text
        text = text + " in SI units" if normalized else text
        return text + " in unit " + self.entity(unit) if unit is not None else text

    def qual(self, qual: ir.Qual, closed: bool = False, before_of: bool = False) -> str:
        prop = self.prop(qual.prop)
        value = qual.value
        if before_of and isinstance(value, ir.Quant) and value.noun is not None:
            return f"at {prop} ({self.np(value)})"
        if isinstance(value, ir.Quant) and value.noun is None and value.var is None:
            if value.det in ("which", "how_many"):
                raise PrintError("a question word in a qualifier must be fronted: 'At which <Q> ...'")
            det = self.det(value)
            if value.order is not None:
                if not value.rels:
                    return f"at {det} {self.order(value.order)} {prop}"
                # else "at <P> the highest thing that ...": the value as a noun phrase, below
            elif len(value.rels) == 1 and isinstance(value.rels[0], ir.Compare):
                return f"at {det} {prop} {self.comparison(value.rels[0], closed)}"
            elif not (closed and value.rels) and not (value.rels and isinstance(value.rels[0], ir.Compare)):
                return f"at {det} {prop}{self.rels(value.rels)}"
        return f"at {prop} {self.np_atom(value, closed)}"


def _flat_and(items):
    for item in items:
        if isinstance(item, ir.And):
            yield from _flat_and(item.items)
        else:
            yield item


def _conjunct(vp):
    """A disjunction inside a conjunction, in a form SQUALL can coordinate (it has no
    parentheses around verb phrases): ``is a <A> or a <B>`` (a disjunction of noun phrases)
    when every branch says what the subject is, else ``is something that ... or ...``. Both
    compile to the same UNION."""
    if not isinstance(vp, ir.Or):
        return vp
    if all(isinstance(i, ir.Be) for i in vp.items):
        return ir.Be(ir.Coord("or", tuple(i.np for i in vp.items)))
    return ir.Be(ir.Quant("a", None, (vp,)))


def _is_open(np, before_rel: bool = False) -> bool:
    """Whether text after ``np`` could be read as part of it (it ends in a relative clause,
    qualifiers or an of-phrase); ``before_rel``: the text after it is a relative clause, which
    every quantified NP but "what" takes."""
    if isinstance(np, ir.Quant):
        if before_rel and not (np.det == "which" and np.noun is None and np.var is None):
            return True
        if np.rels:
            return True
        noun = np.noun
        if isinstance(noun, ir.RelNoun):
            return noun.of is None or _is_open(noun.of) or True
        if isinstance(noun, (ir.YearOf, ir.DatePart, ir.Measure)):
            return True  # its of-phrase would take "and ..." after it
    return False


def _is_atom(np) -> bool:
    return not isinstance(np, (ir.Coord, ir.Arith))


def _as_relnoun(stmt: ir.Stmt) -> ir.Be:
    """An inverse statement (the Sparklis parser's "is the <P> of X") in SQUALL's words: "is a
    <P> of X" (a relational noun), which compiles to the same triple."""
    if stmt.order is not None:
        raise PrintError("an ordered inverse statement has no SQUALL form")
    if isinstance(stmt.obj, ir.AnyValue):
        raise PrintError("a statement without its value is said of its subject ('has a <P> statement')")
    return ir.Be(ir.Quant("a", ir.RelNoun(stmt.prop, stmt.obj, stmt.quals, stmt.any_rank, stmt.normalized, stmt.unit)))


def _which_of(q: ir.Quant):
    """The names X, Y of "which of X and Y" (a question word whose only clause is "is X or Y"),
    or None."""
    if q.order is None and len(q.rels) == 1 and isinstance(q.rels[0], ir.Be):
        np = q.rels[0].np
        if isinstance(np, ir.Coord) and np.op == "or" and all(isinstance(i, ir.Ref) for i in np.items):
            return np.items
    return None


def print_squall(query: ir.Query, notation: str = "label", *, id_labels: bool = True) -> str:
    """Render an IR query as SQUALL text in ``notation`` (``label``, ``id`` or ``ecai``)."""
    return SquallPrinter(notation, id_labels).query(query)



def _ends_in_a_term(rel) -> bool:
    """Whether a relative clause ends in a name or a literal ("that is <Q15862>", "that has <P19>
    <Q60>"), which takes nothing after it."""
    if isinstance(rel, ir.And):
        return _ends_in_a_term(rel.items[-1])
    if isinstance(rel, ir.Be):
        return isinstance(rel.np, ir.Ref)
    return (isinstance(rel, ir.Stmt) and isinstance(rel.obj, ir.Ref) and not rel.quals and not rel.any_rank
            and not rel.normalized and rel.unit is None)


def _own_arith(np) -> bool:
    """Arithmetic over the subject's own values (``its <P>``, without qualifiers) and numbers, one
    own value at least: what "has (the <P1> * the <P2>) equal to 100" can say."""
    def leaves(value):
        if isinstance(value, ir.Arith):
            return leaves(value.left) + leaves(value.right)
        if isinstance(value, ir.Its) and not value.quals:
            return ["its"]
        if (isinstance(value, ir.Ref) and isinstance(value.term, ir.Literal)
                and value.term.datatype in ("integer", "decimal") and value.term.value[:1].isdigit()):
            return ["number"]
        return ["other"]

    found = leaves(np)
    return "its" in found and "other" not in found


def _is_grouped_count(np) -> bool:
    """Whether ``np`` is ``the number of ...`` with a question word inside (its group keys): an
    aggregate of it is one of counts per group (``the average number of <Q1003> per <P50>``)."""
    return (isinstance(np, ir.Quant) and np.det == "number_of" and np.var is None and np.order is None
            and any(isinstance(n, ir.Quant) and n.det == "which" for n in ir.walk(np)))
