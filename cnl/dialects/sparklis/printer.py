"""IR -> Sparklis text (the verbalization :func:`cnl.dialects.sparklis.parser.parse_sparklis` reads).

Canonical like the SQUALL printer: parsing the printed text gives the IR back (up to what the
notation drops, see :func:`cnl.dialects.notation.for_notation`). Entities and classes print as
bare labels, or as ``[label]`` when a bare label would not read back as one label (it holds
a keyword such as "that"). Back-references (``and give me the number of film``,
``and give me the year of the <P577>``, ``and where ...``) are printed at the end, in the
order the parser applies them. IRs Sparklis cannot say raise :class:`PrintError`.
"""
from __future__ import annotations

from cnl import ir
from cnl.errors import CNLSyntaxError, PrintError
from cnl.dialects.notation import NOTATIONS, escape
from cnl.dialects.sparklis.forms import construct_name

_OPS = {"=": "=", "<": "<", ">": ">", ">=": ">=", "<=": "<="}


def _order_word(order: ir.Order) -> str:
    if order.limit or order.rank != 1 or order.count is not None or order.to_rank is not None:
        raise PrintError("Sparklis orders without a limit only (highest-to-lowest / lowest-to-highest); "
                         f"'{order.word}' with a limit or rank has no Sparklis verbalization")
    return "highest-to-lowest" if order.descending else "lowest-to-highest"


class SparklisPrinter:
    def __init__(self, notation: str = "ecai", id_labels: bool = True):
        if notation not in NOTATIONS:
            raise ValueError(f"unknown notation {notation!r}; choose one of {', '.join(NOTATIONS)}")
        self.notation = notation
        self.id_labels = id_labels
        self.extras: list[str] = []
        # inside a nested clause (the grammar's vp_in): statements take qualifiers only right
        # after their property, since a qualifier after the value belongs to the outer one
        self.nested = False

    # ---------------------------------------------------------------- terms
    def _angle(self, ident, label):
        if self.notation == "label" and label:
            return f"<{escape(label, '>')}>"
        if ident:
            if label and (self.notation == "ecai" or self.id_labels):
                return f"<{ident}:{escape(label.replace(' ', '_'), '>')}>"
            return f"<{ident}>"
        if label:
            return f"<{escape(label.replace(' ', '_') if self.notation != 'label' else label, '>')}>"
        raise PrintError("a term has neither an ID nor a label")

    def prop(self, prop: ir.Property) -> str:
        if isinstance(prop, ir.PropPath):
            raise PrintError("Sparklis has no property paths (it follows one property at a time)")
        return self._angle(prop.id, prop.label)

    def prop_or_bare(self, prop: ir.Property) -> str:
        """``<P…>`` for a property with an ID, else its bare label (how Sparklis shows it)."""
        return self.prop(prop) if isinstance(prop, ir.PropPath) or prop.id else self.bare(prop.label)

    @staticmethod
    def bare(label: str) -> str:
        from cnl.dialects.sparklis.parser import tokenize

        try:
            tokens = tokenize(label)
        except CNLSyntaxError:
            tokens = []
        if len(tokens) == 1 and tokens[0].type == "LABEL" and tokens[0].value == label and not label.startswith("["):
            return label
        return f"[{escape(label, ']')}]"

    def entity(self, term) -> str:
        if isinstance(term, ir.Literal):
            if term.lang:
                raise PrintError("Sparklis has no language-tagged strings")
            if term.typed:
                raise PrintError(f"Sparklis has no typed literals ({term.datatype})")
            if term.datatype == "string":
                return '"' + term.value.replace("\\", "\\\\").replace('"', '\\"') + '"'
            return term.value
        if isinstance(term, ir.Var):
            raise PrintError("Sparklis has no co-reference variables")
        if term.id and (self.notation == "id" or not term.label):
            if term.id.startswith("P"):
                return self._angle(term.id, term.label)
            return self._angle(term.id, term.label)
        if term.label:
            return self.bare(term.label)
        raise PrintError("a term has neither an ID nor a label")

    def noun(self, noun) -> str:
        if not isinstance(noun, ir.ClassNoun):
            raise PrintError(f"Sparklis nouns are classes, not {type(noun).__name__}")
        cls = noun.cls
        if cls.id and cls.id.startswith("P"):
            return self._angle(cls.id, cls.label)  # ECAI's classes written as <P17:country>
        return self.entity(cls)

    @staticmethod
    def _a(following: str) -> str:
        first = following.lstrip("<[")
        if ":" in first.split(">")[0] and following.startswith("<"):
            first = first.split(":", 1)[1]
        return "an" if first[:1].lower() in "aeiou" and first[:1] else "a"

    # ---------------------------------------------------------------- sentences
    def _minus_year(self, arith: ir.Arith) -> str:
        """"X has a <P569> and give me 2023 - the year of the <P569>" (the parser's Arith)."""
        right = arith.right
        value = right.noun.arg if isinstance(right, ir.Quant) and isinstance(right.noun, ir.YearOf) else None
        rel = value.noun if isinstance(value, ir.Quant) else None
        if not (arith.op == "-" and isinstance(arith.left, ir.Ref) and isinstance(arith.left.term, ir.Literal)
                and isinstance(rel, ir.RelNoun) and isinstance(rel.of, ir.Ref) and not value.rels
                and right.det == "the" and value.det == "the"):
            raise PrintError("Sparklis says an expression as 'X has a <P> and give me N - the year of the <P>' only")
        prop = self.prop_or_bare(rel.prop)
        return (f"{self.entity(rel.of.term)} has {self._a(prop)} {prop}{self.quals(rel.quals)} and give me "
                f"{self.entity(arith.left.term)} - the year of the {prop}")

    def _count_extra(self, counted_text: str, order: ir.Order | None = None) -> None:
        """"give me the number of N", or with a group key "for each K give me the number of N"."""
        key = self.group_key[1] if self.group_key is not None else None
        if order is not None:
            if key is None:
                raise PrintError("an ordering by a count needs 'for each' in Sparklis")
            word = "highest-to-lowest" if order.word == "most" else "lowest-to-highest"
            self.extras.append(f"for each {key} give me the {word} number of {counted_text}")
        elif key is not None:
            self.extras.append(f"for each {key} give me the number of {counted_text}")
        else:
            self.extras.append(f"give me the number of {counted_text}")


    def query(self, query: ir.Query) -> str:
        self.extras = []
        if query.vp is None and isinstance(query.subject, ir.Arith):
            return self._minus_year(query.subject)
        self.group_key = _group_key(query, self)
        # values named for a comparison with them ("where the <P577> > the <P570>")
        self.named = {}
        for node in ir.walk(query):
            if isinstance(node, (ir.Stmt, ir.Qual)):
                value = node.obj if isinstance(node, ir.Stmt) else node.value
                if isinstance(value, ir.Quant) and value.var is not None and value.noun is None:
                    self.named.setdefault(value.var, self.prop_or_bare(node.prop))
        if query.vp is None:
            text = "give me " + self.give_np(query.subject)
        else:
            text = self.subject_sentence(query.subject, query.vp)
        return text + "".join(" and " + extra for extra in self.extras)

    def give_np(self, np) -> str:
        counted = isinstance(np, ir.Quant) and np.det == "the" and np.order is not None and _counts(np.order)
        if not isinstance(np, ir.Quant) or (np.det not in ("which", "how_many", "a", "every") and not counted) or np.var:
            raise PrintError("Sparklis' 'give me' takes 'every C' or 'everything'")
        rels = self.rel_chain(np.rels)
        if np.noun is None:
            if np.order or np.det == "how_many":
                raise PrintError("'give me everything' takes no ordering or count")
            return "everything" + rels
        noun = self.noun(np.noun)
        if np.det == "how_many":
            self._count_extra(noun)
        if np.order is not None and _counts(np.order):
            self._count_extra(noun, np.order)
            return f"every {noun}{rels}"
        if np.order is not None:
            return f"the {_order_word(np.order)} {noun}{rels}"
        return f"every {noun}{rels}"

    def subject_sentence(self, subject, vp) -> str:
        items = vp.items if isinstance(vp, ir.And) else (vp,)
        if isinstance(subject, ir.Coord) and subject.op == "and" and all(isinstance(i, ir.Ref) for i in subject.items):
            if len(items) != 1:
                raise PrintError("coordinated subjects take one verb phrase in Sparklis")
            return " and ".join(f"{self.entity(i.term)} {self.vp(vp)}" for i in subject.items)
        if not isinstance(subject, ir.Ref):
            raise PrintError("a Sparklis sentence starts with 'give me' or a named entity")
        first = self.vp(items[0], chain=True)
        return f"{self.entity(subject.term)} " + " and ".join([first] + [self.vp(item) for item in items[1:]])

    def rel_chain(self, rels, nested: bool = False) -> str:
        if not rels:
            return ""
        outer, self.nested = self.nested, nested
        try:
            return " that " + " and that ".join(self.vp(r) for r in rels)
        finally:
            self.nested = outer

    def rel(self, rels, chain: bool = False) -> str:
        """One relative clause; ``chain``: the first object of a subject sentence, which takes
        "that ... and that ..." (the grammar's vp_chained)."""
        if not rels:
            return ""
        if chain and len(rels) > 1:
            return self.rel_chain(rels, nested=True)
        if len(rels) > 1:
            raise PrintError("a nested Sparklis noun takes one relative clause ('and that' belongs to the outer noun)")
        return self.rel_chain(rels, nested=True)

    # ---------------------------------------------------------------- verb phrases
    def vp(self, vp, chain: bool = False) -> str:
        if isinstance(vp, ir.Not):
            return "not " + self.vp(vp.vp)
        if isinstance(vp, ir.Be):
            np = vp.np
            if isinstance(np, ir.Ref):
                return "is " + self.entity(np.term)
            if isinstance(np, ir.Quant) and np.det in ("a", "which") and isinstance(np.noun, ir.ClassNoun) \
                    and np.order is None and np.var is None:
                noun = self.noun(np.noun)
                return f"is {self._a(noun)} {noun}{self.rel(np.rels)}"
            raise PrintError("Sparklis says 'is X' or 'is a C' only")
        if isinstance(vp, ir.Stmt):
            return self.stmt(vp, chain)
        if isinstance(vp, ir.And):
            raise PrintError("Sparklis cannot say a conjunction here")
        raise PrintError(f"Sparklis cannot say {construct_name(vp)}")

    def _value_quant(self, np) -> bool:
        return (isinstance(np, ir.Quant) and np.noun is None and (np.var is None or np.var in self.named)
                and np.order is None and np.det in ("a", "which", "how_many"))

    def _defer(self, prop_text: str, q: ir.Quant) -> list:
        """Print the value's back-referring clauses as extras; return the rest."""
        if q.det == "how_many":
            self._count_extra(prop_text)
        rest = []
        for rel in q.rels:
            if isinstance(rel, ir.YearIs):
                self.extras.append(self._year_extra(prop_text, rel.vp))
            elif isinstance(rel, ir.Compare) and rest:
                self.extras.append(f"where the {prop_text} {self.cmp(rel)}")
            elif isinstance(rel, ir.StrTest) and rel.op == "matches" and not rel.case_sensitive:
                self.extras.append(f"give me the string of the {prop_text} that matches {self.bare(rel.value)}")
            elif isinstance(rel, ir.Not) and isinstance(rel.vp, ir.StrTest) and rel.vp.op == "matches" and not rel.vp.case_sensitive:
                self.extras.append(f"give me the string of the {prop_text} that not matches {self.bare(rel.vp.value)}")
            else:
                rest.append(rel)
        return rest

    def _year_extra(self, prop_text, vp) -> str:
        shown = ir.Be(ir.Quant("which"))
        if vp == shown:
            return f"give me the year of the {prop_text}"
        if (isinstance(vp, ir.Be) and isinstance(vp.np, ir.Quant) and vp.np.order is not None
                and vp == ir.Be(ir.Quant("which", order=vp.np.order))):
            return f"give me {_order_word(vp.np.order)} the year of the {prop_text}"
        if isinstance(vp, ir.And) and len(vp.items) == 2 and vp.items[0] == shown:
            test = vp.items[1]
            if isinstance(test, ir.Compare):
                return f"give me the year of the {prop_text} {self.cmp(test)}"
            if isinstance(test, ir.Be) and isinstance(test.np, ir.Ref):
                return f"give me the year of the {prop_text} that is {self.entity(test.np.term)}"
            negated = isinstance(test, ir.Not)
            between = test.vp if negated else test
            if isinstance(between, ir.Compare) and between.op == "between" and len(between.args) == 2 \
                    and all(isinstance(a, ir.Ref) for a in between.args):
                low, high = (self.entity(a.term) for a in between.args)
                return (f"give me the year of the {prop_text} that {'not ' if negated else ''}is "
                        f"between {low} and {high}")
        if isinstance(vp, ir.Compare):
            return f"where the year of the {prop_text} {self.cmp(vp)}"
        raise PrintError("this test on a year has no Sparklis verbalization")

    def cmp(self, cmp: ir.Compare) -> str:
        if (cmp.op in _OPS and len(cmp.args) == 1 and isinstance(cmp.args[0], ir.Ref)
                and isinstance(cmp.args[0].term, ir.Var) and cmp.args[0].term.name in self.named):
            return f"{_OPS[cmp.op]} the {self.named[cmp.args[0].term.name]}"
        if cmp.op not in _OPS or len(cmp.args) != 1 or not isinstance(cmp.args[0], ir.Ref):
            raise PrintError(f"Sparklis compares with one value using = < > <= >=, not {cmp.op!r}")
        return f"{_OPS[cmp.op]} {self.entity(cmp.args[0].term)}"

    def stmt(self, st: ir.Stmt, chain: bool = False) -> str:
        obj = st.obj
        if (st.prop.id is None and st.prop.label == "label" and not st.inverse and not st.quals
                and isinstance(obj, ir.Quant) and obj.noun is None and obj.var is None and obj.order is None
                and len(obj.rels) == 1 and isinstance(obj.rels[0], ir.StrTest) and obj.rels[0].op == "matches"
                and not obj.rels[0].case_sensitive):
            return f"matches {self.bare(obj.rels[0].value)}"  # "give me every film that matches ace ventura"
        bare = st.prop.id is None
        prop = self.prop_or_bare(st.prop)
        if st.prop.label == "instance of" and st.prop.id in (None, "P31") and not st.inverse:
            return "is the instance of " + self.obj(obj) + self.quals(st.quals)
        label = st.prop.label or ""
        if (st.inverse and label.endswith(" of") and not st.quals and self._value_quant(obj)
                and obj.det == "how_many"):
            # "X has a member and give me the number of member" (read back through a property
            # lexicon as "member of", backwards): Sparklis' own words for counting it
            noun = self.bare(label[: -len(" of")])
            rest = self._defer(noun, obj)
            return f"has {self._a(noun)} {noun}{self.rel(tuple(rest))}"
        if st.inverse:
            quals = self.quals(st.quals)
            if bare and quals:
                raise PrintError("a property shown by its label takes no qualifier")
            if isinstance(obj, ir.Coord) and obj.op in ("and", "or"):
                return f"is the {prop}{quals} of " + f" {obj.op} of ".join(self.obj(item) for item in obj.items)
            return f"is the {prop}{quals} of {self.obj(obj, chain)}"
        if self._value_quant(obj):
            rest = self._defer(prop, obj)
            quals = self.quals(st.quals)
            if bare and quals:
                raise PrintError("a property shown by its label takes no qualifier")
            if len(rest) == 1 and isinstance(rest[0], ir.Compare) and not bare:
                return f"has {self._a(prop)} {prop}{quals} {self.cmp(rest[0])}"
            rel = self.rel(tuple(rest), chain)
            # qualifiers go right after the property, where no nested clause can take them, but
            # "with a <Q> that ..." would describe the qualifier's value: then after the clause
            # (top level only: a nested clause's qualifier after it would be the outer one's)
            last = st.quals[-1].value if st.quals else None
            swallowed = bool(rel and isinstance(last, ir.Quant) and last.noun is None and last.order is None)
            if swallowed:
                if self.nested or (chain and len(rest) > 1):
                    raise PrintError("a nested 'has a <P> with a <Q>' cannot also take a relative clause "
                                     "(it would describe the qualifier's value)")
                return f"has {self._a(prop)} {prop}{rel}{quals}"  # "has a <P> that ... with a <Q>"
            return f"has {self._a(prop)} {prop}{quals}{rel}"
        if bare and label.endswith(" of") and not st.quals and label[: -len(" of")].strip():
            # "X is the part of Y": the parser reads the property "part of" forwards
            noun = self.bare(label[: -len(" of")])
            if isinstance(obj, ir.Coord) and obj.op in ("and", "or"):
                return f"is the {noun} of " + f" {obj.op} of ".join(self.obj(item) for item in obj.items)
            return f"is the {noun} of {self.obj(obj, chain)}"
        if bare:
            raise PrintError(f"property {st.prop.label!r} needs an ID here")
        if (isinstance(obj, ir.Quant) and obj.det in ("the", "how_many") and obj.noun is None and obj.order is not None
                and obj.var is None):
            if self._defer(prop, obj):
                raise PrintError("an ordered value takes no relative clause in Sparklis")
            return f"has the {_order_word(obj.order)} {prop}{self.quals(st.quals)}"
        if isinstance(obj, ir.Ref) and not isinstance(obj.term, ir.Var) and not self.nested:
            return f"has as {self._a(prop)} {prop} {self.obj(obj)}{self.quals(st.quals)}"
        # before the value: nested, a qualifier after it would be the outer statement's; a
        # label right before the value's is bracketed so the two do not run together
        quals = self.quals(st.quals, bracket_last=True)
        return f"has as {self._a(prop)} {prop}{quals} {self.obj(obj, chain)}"

    def obj(self, np, chain: bool = False) -> str:
        if isinstance(np, ir.Ref):
            return self.entity(np.term)
        if isinstance(np, ir.Coord) and np.op == "and" and all(isinstance(i, ir.Ref) for i in np.items):
            # "X and Y": read back as two values with an entity lexicon that knows X and Y
            return " and ".join(self.entity(i.term) for i in np.items)
        if isinstance(np, ir.Quant) and np.var is None and np.order is None:
            if (np.det == "the" and np.noun is None and len(np.rels) >= 2 and isinstance(np.rels[0], ir.Be)
                    and isinstance(np.rels[0].np, ir.Ref)):
                return f"{self.entity(np.rels[0].np.term)}{self.rel(np.rels[1:], chain)}"
            if np.det in ("a", "which", "how_many"):
                if np.noun is None:
                    if np.det == "how_many":
                        # "something that is the part(s) of X and give me the number of part(s)"
                        of = [r for r in np.rels if isinstance(r, ir.Stmt) and r.inverse and not r.quals]
                        if not of:
                            raise PrintError("cannot count 'something'")
                        self._count_extra(self.prop_or_bare(of[0].prop))
                    return "something" + self.rel(np.rels, chain)
                noun = self.noun(np.noun)
                if np.det == "how_many":
                    self._count_extra(noun)
                return f"{self._a(noun)} {noun}{self.rel(np.rels, chain)}"
        if (isinstance(np, ir.Quant) and np.var is None and np.det == "the" and np.order is not None
                and _counts(np.order) and isinstance(np.noun, ir.ClassNoun)):
            # "... a Grammy Awards and for each human give me the highest-to-lowest number of Grammy Awards"
            noun = self.noun(np.noun)
            self._count_extra(noun, np.order)
            return f"{self._a(noun)} {noun}{self.rel(np.rels, chain)}"
        raise PrintError(f"Sparklis cannot say this noun phrase ({construct_name(np)})")

    def quals(self, quals, bracket_last: bool = False) -> str:
        return "".join(" " + self.qual(q, bracket_last and n == len(quals) - 1) for n, q in enumerate(quals))

    def qual(self, qual: ir.Qual, bracket: bool = False) -> str:
        prop = self.prop(qual.prop)
        value = qual.value
        if isinstance(value, ir.Ref):
            text = self.entity(value.term)
            if bracket and not text.startswith(("[", "<", '"')) and isinstance(value.term, ir.Entity):
                text = f"[{escape(value.term.label, ']')}]"
            return f"with {prop} {text}"
        if isinstance(value, ir.Quant) and value.var is None:
            if value.noun is None and value.order is None and value.det in ("a", "which", "how_many"):
                rest = self._defer(prop, value)
                return f"with {self._a(prop)} {prop}{self.rel(tuple(rest))}"
            if value.noun is None and value.order is not None and value.det in ("the", "how_many"):
                if self._defer(prop, value):
                    raise PrintError("an ordered value takes no relative clause in Sparklis")
                return f"with the {_order_word(value.order)} {prop}"
            if (isinstance(value.noun, ir.ClassNoun) and not value.rels and value.order is None
                    and value.det in ("a", "which", "how_many")):
                noun = self.noun(value.noun)
                if value.det == "how_many":
                    self._count_extra(noun)
                return f"with {prop} {self._a(noun)} {noun}"
        raise PrintError("this qualifier value has no Sparklis verbalization")


def _counts(order: ir.Order) -> bool:
    return order.word in ("most", "least") and not order.limit


def _group_key(query: ir.Query, printer: SparklisPrinter):
    """The one noun phrase a count is grouped by ("for each human ..."), with how ``printer``
    names it (its class, or the property it is the value of); None without one."""
    quants = [n for n in ir.walk(query) if isinstance(n, ir.Quant)]
    if not any(n.det == "how_many" or (n.order is not None and _counts(n.order)) for n in quants):
        return None
    shown = {id(n) for y in ir.walk(query) if isinstance(y, ir.YearIs) for n in ir.walk(y)}
    keys = [n for n in quants if n.det == "which" and id(n) not in shown]
    if not keys:
        return None
    if len(keys) > 1:
        raise PrintError("Sparklis groups a count by one noun ('for each C') only")
    key = keys[0]
    if isinstance(key.noun, ir.ClassNoun):
        return key, printer.noun(key.noun)
    owner = next((n for n in ir.walk(query) if isinstance(n, (ir.Stmt, ir.Qual))
                  and (n.obj if isinstance(n, ir.Stmt) else n.value) is key), None)
    if owner is None or key.noun is not None:
        raise PrintError("the noun a count is grouped by needs a class or a property in Sparklis")
    return key, printer.prop_or_bare(owner.prop)


def print_sparklis(query: ir.Query, notation: str = "ecai", *, id_labels: bool = True) -> str:
    """Render an IR query as Sparklis text in ``notation``."""
    return SparklisPrinter(notation, id_labels).query(query)
