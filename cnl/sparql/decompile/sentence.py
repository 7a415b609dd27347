"""Stages around the tree: what the sentence is about, and the sentence.

:func:`choose_root` picks the term the tree hangs from (the counted variable, the first answer
column, a BIND's input, an ASK's subject), its determiner ("which", "how many") and the other
answer columns written "which". Once the tree is built, :func:`write_query` makes the sentence:
the root's noun taken from its VPs, a question about a qualifier ("At which <Q> does S <P> O?"),
"whose year ..." as relative clauses, or an answer computed by a BIND.
"""
from __future__ import annotations

from dataclasses import replace

from rdflib import URIRef, Variable

from cnl import ir
from cnl.errors import UnsupportedSPARQLError
from cnl.sparql.decompile.binds import bind_np
from cnl.sparql.decompile.build import conj
from cnl.sparql.decompile.corefs import name_corefs
from cnl.sparql.decompile.count_values import aggregated_counts, count_test
from cnl.sparql.decompile.flatten import Group, group_vars
from cnl.sparql.decompile.fold import fold
from cnl.sparql.decompile.sentence_filters import is_sentence
from cnl.sparql.decompile.state import Decompilation
from cnl.sparql.decompile.terms import class_noun, ir_term, is_node, same


def choose_root(state: Decompilation) -> None:
    if state.form == "AskQuery" or state.choice is not None:
        # a choice's test is read as the yes/no question it would be
        state.count_test = count_test(state.top)
        if state.count_test is not None:  # "Is the number of ... greater than ...?"
            state.root, state.det, state.which = None, "a", set()
            return
        state.root, state.det, state.which = ask_root(state.top, state.first_year), "a", set()
        return
    if state.form == "AskQuery":
        state.root, state.det, state.which = ask_root(state.top, state.first_year), "a", set()
        return
    state.counts_aggregated = aggregated_counts(state.top, state.aggregated, state.group_keys)
    if state.counts_aggregated is not None:  # "the average of (the number of <P> of a <C>)"
        state.root, state.det, state.which = None, "a", set()
        return
    counted, select_vars = state.counted, state.select_vars
    root = counted if counted is not None else (select_vars[0] if select_vars else None)
    if state.aggregated is not None:
        root = state.aggregated[1]
    if state.answer_bind is not None:
        root = state.answer_bind.input
    if root is None:
        raise UnsupportedSPARQLError("a SELECT without a variable to answer")
    state.root = root
    state.det = "how_many" if counted is not None else "a" if state.aggregated is not None else "which"
    # ordering keys need no "which": the compiler lists them under projection "focus" anyway
    if state.focus_columns or counted is not None or state.aggregated is not None:
        state.which = set(select_vars) - {root} - set(state.orders)
    if counted is None and not state.order_conditions and state.limit is not None:
        if state.offset:
            raise UnsupportedSPARQLError("OFFSET without ORDER BY")
        state.default_limit = state.limit


def ask_root(top: Group, prefer=None):
    """An ASK query's subject: the first triple's subject (a constant or a variable); with
    ``prefer``, the constant whose statement's value it is."""
    try:
        edges = fold(top.triples, {}, set())
    except UnsupportedSPARQLError:
        edges = []
    if prefer is not None:
        for e in edges:
            if same(e.obj, prefer) and isinstance(e.subject, URIRef):
                return e.subject
    # a statement's subject, a named thing first ("Has <Q567> a <P569> ...?"), never a
    # statement node (fold has taken those into their statements)
    for e in edges:
        if isinstance(e.subject, URIRef):
            return e.subject
    for e in edges:
        if isinstance(e.subject, Variable):
            return e.subject
    for s, _, _ in top.triples:
        if isinstance(s, Variable):
            return s
        if isinstance(s, URIRef):
            return s
    vars_ = sorted(group_vars(top), key=str)
    if not vars_:
        raise UnsupportedSPARQLError("an ASK without a subject")
    return vars_[0]


def write_query(state: Decompilation) -> None:
    if state.counts_aggregated is not None:
        state.query = name_corefs(ir.Query(ir.Aggregate(state.aggregated[0], state.count_subject, state.aggregate_separator), None),
                                  state.builder)
        return
    if state.count_subject is not None:
        subject, vps = state.count_subject, state.vps
    elif is_node(state.root):
        subject, vps = _root_subject(state)
    else:
        subject, vps = ir.Ref(ir_term(state.root)), state.vps
    if not isinstance(subject, ir.Quant) and any(is_sentence(v) for v in vps):
        vps = _sentences_on_a_value(state, vps)
    if isinstance(subject, ir.Quant) and state.answer_bind is None:
        # SQUALL writes "whose year ..." and "at which <Q> ..." only as relative clauses.
        clauses = tuple(v for v in vps if isinstance(v, (ir.YearIs, ir.QualifierOf)) or is_sentence(v))
        if any(is_sentence(v) for v in vps):
            # "such that S" last, after the clauses that name its values
            clauses = tuple(v for v in vps if not is_sentence(v)) + tuple(v for v in vps if is_sentence(v))
        if clauses:
            subject = replace(subject, rels=subject.rels + clauses)
            vps = [v for v in vps if v not in clauses]
    if state.aggregated is not None:
        # "Give me the average <P> of ...": the values are the root's NP, said with all its VPs
        if not isinstance(subject, ir.Quant):
            raise UnsupportedSPARQLError("an aggregate of a constant")
        if state.answer_bind is not None:  # "the minimum of the year of the <P577> of ..."
            values = _bind_answer(state, subject, vps)
        else:
            values = ir.Quant("a", subject.noun, subject.rels + tuple(vps), order=subject.order)
        state.query = ir.Query(ir.Aggregate(state.aggregated[0], values, state.aggregate_separator), None)
    elif state.answer_bind is not None:
        state.query = ir.Query(_bind_answer(state, subject, vps), None)
    elif isinstance(subject, ir.Quant) and subject.det == "which" and not vps:
        # keep the relative clauses ("whose year is ..." moved there above)
        state.query = ir.Query(replace(subject, det="a"), None)
    else:
        state.query = ir.Query(subject, conj(vps) if vps else ir.Exists())
    if state.choice is not None:
        _, then, otherwise = state.choice
        test = state.query
        if test.vp is None:
            raise UnsupportedSPARQLError("BIND(IF(...)) whose test has no CNL sentence")
        state.query = ir.Query(ir.Choice(test.subject, test.vp, then, otherwise), None)
    state.query = name_corefs(state.query, state.builder)


def _sentences_on_a_value(state: Decompilation, vps: list) -> list:
    """A question about a named thing has no noun phrase for "such that S" (a relative clause):
    S is said of the first value the question names with a co-reference variable, which the
    sentence's test is about ("Has <Q64> <P1082> (something ?p such that (?p / 2) is greater than
    1000000)?"). Only a value said in the question's own group (not under a negation or a
    disjunction, whose tests would be in another scope); none: refused."""
    sentences = tuple(v for v in vps if is_sentence(v))
    firsts = {id(np): node for node, np in state.builder.first_nps.items() if node in state.builder.corefs}
    taken: list = []

    def attach(node):
        if taken or isinstance(node, (ir.Not, ir.Or)) or (isinstance(node, ir.Coord) and node.op == "or"):
            return node
        if (isinstance(node, ir.Quant) and id(node) in firsts and node.noun is None and node.det == "a"
                and node.order is None and node.number is None):
            named = replace(node, rels=node.rels + sentences)
            state.builder.first_nps[firsts[id(node)]] = named
            taken.append(named)
            return named
        return ir.map_children(node, attach)

    said = [attach(v) for v in vps if not is_sentence(v)]
    if not taken:
        raise UnsupportedSPARQLError("a FILTER over several values in a question about a named thing",
                                     "'such that S' is a relative clause of a noun phrase, and no value "
                                     "of the question takes it")
    return said


def _root_subject(state: Decompilation):
    """(the root's NP, the VPs left to say about it)."""
    root, det, orders = state.root, state.det, state.orders
    noun, vps = _root_noun(state.root_classes, state.vps, det)
    # a root the tree reaches again is named by its variable (name_corefs checks the noun)
    var = state.builder.corefs.get(root)
    if var is not None and noun is not None and not isinstance(noun, ir.ClassNoun) and state.answer_bind is None:
        # only a class noun takes a variable: "something ?l that is a <label> of <Q76>"
        noun, vps = None, [ir.Be(ir.Quant("a", noun))] + list(vps)
    subject = ir.Quant(det, noun, order=orders.get(root), var=var)
    if (noun is None and det in ("which", "how_many") and state.answer_bind is None and len(vps) == 1
            and isinstance(vps[0], ir.QualifierOf) and isinstance(vps[0].subject, ir.Ref)
            and isinstance(vps[0].vp, ir.Stmt) and not (det == "how_many" and orders.get(root))):
        # "At which <Q> does S <P> O?" / "At how many <Q> ...?": the answer is a qualifier
        # of S's statement.
        qof, stmt = vps[0], vps[0].vp
        wh = ir.Qual(qof.prop, ir.Quant(det, order=orders.get(root)))
        subject, vps = qof.subject, [replace(stmt, quals=stmt.quals + (wh,), order=None)]
    return subject, vps


def _root_noun(root_classes: list, vps: list, det: str):
    """(the root's noun, the VPs without the one it was taken from): its first class, else
    "a <P> of X" said of it, else for "how many" a statement read backwards; None if none."""
    if root_classes:
        first = ir.Be(ir.Quant("a", class_noun(root_classes[0][0])))
        if vps and vps[0] == first:
            return first.np.noun, vps[1:]
    for i, vp in enumerate(vps):
        if (isinstance(vp, ir.Be) and isinstance(vp.np, ir.Quant) and vp.np.det == "a"
                and isinstance(vp.np.noun, ir.RelNoun) and not vp.np.rels and vp.np.order is None):
            return vp.np.noun, vps[:i] + vps[i + 1:]
    if det == "how_many":
        for i, vp in enumerate(vps):
            if not isinstance(vp, ir.Stmt) or isinstance(vp.obj, ir.AnyValue):
                continue
            if vp.normalized or vp.unit is not None:
                continue
            if not vp.inverse and vp.order is None and isinstance(vp.prop, ir.PropPath):
                # "How many ^<P>+ of X": the things that have P+ X.
                return ir.RelNoun(ir.PropPath("^", (vp.prop,)), vp.obj, vp.quals, vp.any_rank), vps[:i] + vps[i + 1:]
            if not vp.inverse and vp.order is None and vp.prop.id:
                # "How many <^P> of X": the things that have P X.
                return ir.RelNoun(ir.Property("^" + vp.prop.id), vp.obj, vp.quals, vp.any_rank), vps[:i] + vps[i + 1:]
    return None, vps


def _bind_answer(state: Decompilation, subject, vps):
    """The answer of a BIND over the root: an expression whose input is the root's NP; with
    several answer BINDs, "A and B", the others' inputs said by their co-reference variables
    (the root's, named at its first mention, in A)."""
    if not isinstance(subject, ir.Quant):
        raise UnsupportedSPARQLError("BIND over a constant")
    if subject.var is not None and not isinstance(subject.noun, ir.ClassNoun):
        # a root another answer reads is named at its first mention: "something ?s at which
        # ...", "something ?s that is a <P569> of <Q76>" (only a class noun takes a variable)
        said = (ir.Be(ir.Quant("a", subject.noun)),) if subject.noun is not None else ()
        root_np = ir.Quant("a", None, said + tuple(vps), order=subject.order, var=subject.var)
    else:
        root_np = ir.Quant("the", subject.noun, tuple(vps), order=subject.order, var=subject.var)
    answers = [_one_bind_answer(state, bind, root_np) for bind in state.answer_binds()]
    return answers[0] if len(answers) == 1 else ir.Coord("and", tuple(answers))


def _one_bind_answer(state: Decompilation, bind, root_np):
    builder, orders = state.builder, state.orders
    corefs = {v: ir.Ref(ir.Var(builder.corefs[v])) for v in bind.others}
    if bind.input is not None:
        root_np = {bind.input: root_np, **corefs} if corefs else root_np
    else:  # a further answer: every input is a value the first one's tree named
        root_np = corefs
    answer = bind_np(bind.expr, bind.input, root_np, builder.year_casts)
    if bind.filters:
        if not isinstance(answer, ir.Quant):
            raise UnsupportedSPARQLError("a FILTER on an arithmetic BIND")
        tests = tuple(builder.filter_vp(f, bind.var, set()) for f in bind.filters)
        answer = ir.Quant(answer.det, answer.noun, answer.rels + tests, order=answer.order)
    if bind.var in orders:
        if not isinstance(answer, ir.Quant):
            raise UnsupportedSPARQLError("ORDER BY an arithmetic BIND")
        answer = ir.Quant(answer.det, answer.noun, answer.rels, order=orders[bind.var])
    return answer
