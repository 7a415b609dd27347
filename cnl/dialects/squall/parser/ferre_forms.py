"""The callbacks of Ferré's SQUALL forms that the writer forms still refused (issue 29, i29w3): the
rules are ``squall_ferre_forms.lark``; each form is read into the IR of a canonical form, so that
printing gives the canonical form back (``docs/cnl-reference.md`` section 11).

- "For every <C> X, <question>": the thing is the question's answer column (its group key when
  the question counts), the IR of "which <C>" where the question first names it;
- "and maybe the <P>" / "and if defined, what is the <P>" in a coordination of answers, "and maybe
  whose <P> is X": an optional answer or value (the ``maybe`` determiner);
- participles: "<P>-ed by X" (= "has <P> X": directed by X), "<P>-ing X" (= "<P> X");
- "where S" after a noun (= "such that S")."""
from __future__ import annotations

import re
from dataclasses import replace

from lark import Token, Transformer, v_args

from cnl import ir
from cnl.ir.traverse import map_children, walk
from cnl.dialects.squall.parser.reading import current_text, error_at
from cnl.dialects.squall.parser.sparql_forms import StatementMark
from cnl.dialects.squall.parser.terms import property_noun, read_property, token_span

# What "it" reads as until "For every <C>" binds it: no variable can have this name (a space)
PRONOUN = ir.Var("it ")
_NAMES_FOR_THE_THING = ("x", "y", "z", "x1", "x2", "x3")


def _is_name(node, name: str) -> bool:
    return isinstance(node, ir.Ref) and node.term == ir.Var(name)


def _replace_first(node, found, make):
    """``node`` with the first sub-node (in reading order) for which ``found`` holds replaced by
    ``make()``, and the later ones by ``make(later=True)``."""
    first = [True]

    def visit(n):
        if found(n):
            made = make(later=not first[0])
            first[0] = False
            return made
        return map_children(n, visit)
    return visit(node)


def _only_under_a_test(node, target, tested: bool = False) -> bool:
    """Whether ``target`` (found by identity) lies under ``node`` only inside a negation, an
    alternative or an optional or universal noun phrase, where an answer column is not bound."""
    if node is target:
        return tested
    if isinstance(node, (ir.Not, ir.Or)) or (isinstance(node, ir.Quant) and node.det in ("no", "maybe", "every")):
        tested = True
    if isinstance(node, tuple):
        children = node
    elif hasattr(node, "__dataclass_fields__"):
        children = tuple(getattr(node, f) for f in node.__dataclass_fields__)
    else:
        return False
    return any(_only_under_a_test(child, target, tested) for child in children
               if isinstance(child, tuple) or hasattr(child, "__dataclass_fields__"))


def _own_answers(query: ir.Query, name: str) -> ir.Query:
    """``query`` with each answer that is "its <P>" read as "the <P> of" the thing named ``name``
    ("For every <C>, give me its <P>": the thing's <P>)."""
    owned = [np for np in _answer_slots(query) if isinstance(np, ir.Its)]
    if not owned:
        return query

    def visit(node):
        if any(node is np for np in owned):
            return ir.Quant("the", ir.RelNoun(node.prop, ir.Ref(ir.Var(name)), node.quals))
        return map_children(node, visit)
    return visit(query)


def _answer_slots(query: ir.Query):
    """The noun phrases that are the answers of ``query``: the NP of "Give me NP" (each item of a
    coordination), or of "What is NP?"."""
    if query.vp is None:
        np = query.subject
    elif isinstance(query.vp, ir.Be) and query.subject == ir.Quant("which"):
        np = query.vp.np
    else:
        return ()
    return np.items if isinstance(np, ir.Coord) else (np,)


def _named(quant: ir.Quant, name: str) -> ir.Quant:
    """``quant`` named ``name`` as the printer can write it: a class noun takes the variable
    ("a <C> ?x"); any other noun becomes a clause ("something ?x that is a <P> of ...")."""
    det = _answer_det(quant.det)
    if quant.noun is None or isinstance(quant.noun, ir.ClassNoun):
        return replace(quant, det=det, var=name)
    return ir.Quant(det, None, (ir.Be(ir.Quant("a", quant.noun)), *quant.rels), quant.order, quant.number, name)


def _answer_det(det: str) -> str:
    """The determiner of the thing each answer is about: "every <C>" there is each one of them, as
    "a <C>" says it (what "every" says in a test, that all of them pass it, is not meant)."""
    return "a" if det in ("a", "the", "every") else det


def _fresh_name() -> str:
    """A variable name the sentence does not use (a name the parser gives is printed back)."""
    text = current_text.get() or ""
    for name in _NAMES_FOR_THE_THING:
        if not re.search(rf"\?{name}\b", text, re.I) and not re.search(rf"(?<![\w?]){name}\b", text, re.I):
            return name
    raise error_at(None, "name the thing the 'of' is about with a variable: 'the <P1> of a <C> ?x and maybe "
                         "the <P2> of ?x'")


def optional_answers(query: ir.Query) -> ir.Query:
    """"What is A and maybe B?" (Ferré's "What is A and if defined, what is B?") = "Give me A and
    maybe B": two answers, the second optional (where "What is A and B?" asks for one value that
    is both)."""
    vp = query.vp
    if (isinstance(vp, ir.Be) and isinstance(vp.np, ir.Coord) and query.subject == ir.Quant("which")
            and any(isinstance(item, ir.Quant) and item.det == "maybe" for item in vp.np.items)):
        return ir.Query(vp.np, None)
    return query


@v_args(inline=True)
class FerreForms(Transformer):
    """Mixed into :class:`~cnl.dialects.squall.parser.transform.ToIR`; ``rel_such_that`` and the
    other canonical callbacks are its own."""

    # ---- "For every <C> X, <question>"
    def it_np(self, _tok):
        return ir.Ref(PRONOUN)

    def for_every(self, prefix, head, *rest):
        var = rest[0].value.lstrip("?") if isinstance(rest[0], Token) and rest[0].type == "VAR_NAME" else None
        rels = tuple(r for r in rest[:-1] if not isinstance(r, Token))
        name = var or PRONOUN.name
        if var is not None and any(_is_name(node, PRONOUN.name) for node in walk(rest[-1])):
            raise error_at(token_span(prefix), f"the question names the thing both '{var}' and 'it': write '{var}'")
        query = _own_answers(rest[-1], name)
        uses = sum(_is_name(node, name) for node in walk(query))
        if not uses:
            raise error_at(token_span(prefix), "'For every <C> X, ...' asks of each thing: name it in the question "
                                               "('For every <C> X, what is the <P> of X?', 'For each <C>, how many "
                                               "<P> does it have?', 'For every <C>, give me its <P>.')")
        kept = (var or _fresh_name()) if uses > 1 else None
        thing = ir.Quant("which", ir.ClassNoun(head.as_class()), rels, var=kept)
        bound = _replace_first(query, lambda n: _is_name(n, name), lambda later: ir.Ref(ir.Var(kept)) if later else thing)
        if _only_under_a_test(bound, thing):
            raise error_at(token_span(prefix), "'For every <C> X, ...' makes X an answer: name X first where it is not "
                                               "negated, optional or one of alternatives ('For every <C> X, which <D> "
                                               "has <P> X and has not <Q> X?')")
        return bound

    # ---- "and maybe the <P>"
    def np_and_maybe(self, first, mark, noun, *rels):
        maybe_of = noun.of if isinstance(noun, ir.RelNoun) else None
        prop = property_noun(first) if maybe_of is not None else None
        if prop is not None:
            first_noun = first.noun if isinstance(first.noun, ir.RelNoun) else ir.RelNoun(prop)
            if isinstance(maybe_of, ir.Quant):
                name = maybe_of.var or _fresh_name()
                shared = _named(maybe_of, name)
                first = replace(first, noun=replace(first_noun, of=shared))
                noun = replace(noun, of=ir.Ref(ir.Var(name)))
            elif isinstance(maybe_of, ir.Ref):
                first = replace(first, noun=replace(first_noun, of=maybe_of))
            else:
                raise error_at(token_span(mark), "write the 'of' of each: 'the <P1> of X and maybe the <P2> of X'")
        return ir.Coord("and", (first, ir.Quant("maybe", noun, rels)))

    def rel_maybe_whose(self, _mark, prop_tok, vp):
        if isinstance(vp, ir.Be) and isinstance(vp.np, ir.Ref) and isinstance(vp.np.term, ir.Var):
            value = ir.Quant("maybe", var=vp.np.term.name)
        else:
            value = ir.Quant("maybe", None, (vp,))
        return ir.Stmt(read_property(prop_tok), value)

    def quant_var_of(self, det, head, var, *rest):
        nodes = [r for r in rest if not isinstance(r, Token)]
        at = next(i for i, n in enumerate(nodes) if not isinstance(n, ir.Qual))
        if isinstance(nodes[at], StatementMark):
            raise error_at(token_span(var), "'an <P> X of Y' takes qualifiers ('at <P> v'), not a statement mark")
        quals, of, rels = tuple(nodes[:at]), nodes[at], tuple(nodes[at + 1:])
        noun = ir.RelNoun(head.as_property(), of, quals)
        return _named(ir.Quant(det[0], noun, rels, None, det[1]), var.value.lstrip("?"))

    # ---- string functions
    def string_call(self, name, *args):
        nodes = [a for a in args if not isinstance(a, Token)]
        call = ir.StringCall(name.value.rstrip("( \t").lower(), tuple(nodes))
        fewest, most = ir.StringCall.ARITY[call.name]
        if len(call.args) < fewest or (most is not None and len(call.args) > most):
            raise error_at(token_span(name), "substr() takes a value, a start and maybe a length: 'substr(the <P1476> of "
                                             "X, 1, 3)'")
        return call

    def string_call_of(self, name, *args):
        nodes = [a for a in args if not isinstance(a, Token)]
        call, thing = self.string_call(name, *nodes[:-1]), nodes[-1]
        owned = [arg for arg in call.args if property_noun(arg) is not None]
        if not owned:
            raise error_at(token_span(name), "'concat(...) of X' takes the values of X written 'the <P>': "
                                             "'concat(the <P735>, \" \", the <P734>) of X'")
        if isinstance(thing, ir.Ref):
            return replace(call, args=tuple(_of(arg, thing) if arg in owned else arg for arg in call.args))
        if not isinstance(thing, ir.Quant):
            raise error_at(token_span(name), "'concat(...) of X': X is one name or one noun phrase")
        name_ = thing.var or (_fresh_name() if len(owned) > 1 else None)
        first = [True]

        def owner():
            if first[0]:
                first[0] = False
                return _named(thing, name_) if name_ else replace(thing, det=_answer_det(thing.det))
            return ir.Ref(ir.Var(name_))
        return replace(call, args=tuple(_of(arg, owner()) if any(arg is o for o in owned) else arg
                                        for arg in call.args))

    def has_string_call(self, name, *args):
        nodes = [a for a in args if not isinstance(a, Token)]
        count = len(nodes) - next(i for i, n in enumerate(reversed(nodes)) if not _is_vp(n))
        call = self.string_call(name, *nodes[:count])
        own = replace(call, args=tuple(ir.Its(property_noun(a)) if property_noun(a) is not None else a
                                       for a in call.args))
        if own == call:
            raise error_at(token_span(name), "'has concat(...)' is about the subject's own values, written 'the <P>': "
                                             "'has substr(the <P1476>, 1, 3) that contains \"Dr\"'")
        rels = tuple(nodes[count:])
        return ir.SuchThat(own, rels[0] if len(rels) == 1 else ir.And(rels))  # one string, all its clauses

    # ---- participles
    def participle_passive(self, tok, agent):
        # "<P57>-ed by X" (directed by X) = "has <P57> X": the agent is the property's value, as in
        # "was <director> by [X]" (a Wikidata property is named for its value's role)
        return ir.Stmt(_participle_property(tok), agent)

    def participle_active(self, tok, obj):
        return ir.Stmt(_participle_property(tok), obj)


def _is_vp(node) -> bool:
    """Whether ``node`` is a verb phrase (a relative clause's IR), not a noun phrase."""
    return isinstance(node, (ir.Stmt, ir.Be, ir.Compare, ir.Not, ir.And, ir.Or, ir.StrTest, ir.Exists, ir.YearIs,
                             ir.TextIs, ir.QualifierOf, ir.LangIs, ir.SuchThat, ir.TermKind, ir.CountComparison))


def _of(np: ir.Quant, thing) -> ir.Quant:
    """"the <P>" (a property noun without "of") as "the <P> of thing"."""
    return ir.Quant("the", ir.RelNoun(property_noun(np), thing))


def _participle_property(tok: Token):
    """The property of a participle token ("<P57>-ed by", "<director>-ing"): its term, read as a
    property whatever the notation."""
    term = tok.value[:tok.value.rindex(">") + 1]
    return read_property(Token("PROP", term, tok.start_pos, tok.line, tok.column, tok.line,
                               tok.column + len(term), tok.start_pos + len(term)))
