"""Round trip SPARQL -> CNL -> SPARQL on real queries (issue 3, part 2 acceptance).

(a) the 550 ECAI gold queries (normalized): decompile to SQUALL in the ID notation, print,
parse the text back, compile under the returned profile options, and check equivalence with
the gold. Refusals that are not the decompiler's to fix are classed with a one-line reason:
a malformed gold (MALFORMED) or a construct the CNL has no form for (NO_CNL_FORM); the figure
is given raw, over the usable golds and over the expressible ones. (b) QALD-9-plus train
(371 hand-written Wikidata queries) and (d) WikiWebQuestions train (2,431): the same, plus a
table of refused constructs by count. With ``--store DIR`` (the embedded Wikidata slice), each
round-tripped query of (b) and (d) whose original returns at least one row there (an ASK: true)
runs again recompiled, and the report counts those with equal answers (rows compared as a
multiset of their values, column names aside), with a deadline per query.

    python scripts/roundtrip_report.py [--failures] [--sparklis] [--only ecai|qald|wwq ...]
                                       [--store DIR [--timeout S]]
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cnl.sparql.decompile import check_says, decompile_to_ir  # noqa: E402
from cnl.sparql.equivalence import equivalent  # noqa: E402
from cnl.sparql.compiler import compile_query  # noqa: E402
from cnl.datasets.paths import data_file  # noqa: E402
from cnl.errors import CNLError, MeaningChangeError, UnsupportedSPARQLError  # noqa: E402
from cnl.dialects import get_dialect  # noqa: E402


# The meaning guard's refusals (cnl.sparql.decompile.guard): a reading the library computed and
# then refused because, compiled again, it is not equivalent to the query. Counted on their own
# row, never among the constructs the CNL has no form for.
CHANGED = "compiled but not equivalent"


def round_trip(sparql: str, dialect: str = "squall") -> tuple[str, str, str, str]:
    """(outcome, detail, cnl, recompiled SPARQL): outcome is equivalent / refused / the
    CHANGED row (the library's meaning guard refused its own reading) / different (a change
    the guard let through: never expected) / error."""
    try:
        query, options = decompile_to_ir(sparql)
    except MeaningChangeError as err:
        return CHANGED, str(err), "", ""
    except UnsupportedSPARQLError as err:
        return "refused", err.construct, "", ""
    except CNLError as err:
        return "error", f"decompile: {str(err).splitlines()[0]}", "", ""
    speaker = get_dialect(dialect)
    try:
        text = speaker.print(speaker.printable(query), "id", id_labels=False)
    except Exception as err:  # noqa: BLE001 — a printer gap is reported, not fatal
        text = f"(print: {err})"
    try:
        check_says(speaker, query, options, sparql)
    except MeaningChangeError as err:
        return CHANGED, str(err), text, ""
    except UnsupportedSPARQLError as err:
        return "refused", err.construct, "", ""
    except CNLError as err:
        return "error", f"print: {str(err).splitlines()[0]}", text, ""
    try:
        back = speaker.parse(text, notation="id")
        compiled = compile_query(back, "wikidata", None, **options)
    except CNLError as err:
        return "error", f"reparse/compile: {str(err).splitlines()[0]}", text, ""
    if equivalent(compiled, sparql, distinct=True, drop_label_service=True):
        return "equivalent", "", text, compiled
    return "different", compiled, text, compiled


def _outcomes(outcomes: Counter) -> str:
    """The outcome counts, the guard's refusals always listed (0 when none)."""
    counts = dict(outcomes)
    counts.setdefault(CHANGED, 0)
    return ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))


class AnswerCheck:
    """Runs an original query and its round trip on a store: does the original have data there,
    and are the answers equal? Counts: with data, equal, different, and queries that failed or
    ran past the deadline (their own count, never counted as equal)."""

    def __init__(self, store: str, timeout: float):
        from cnl.kg import open_kg

        self.kg = open_kg(store=store, timeout=timeout, max_rows=1_000_000)
        self.counts = Counter()

    def answers(self, sparql: str):
        """A comparable answer: an ASK's bool, or the rows as a multiset of their values."""
        result = self.kg.query(sparql)
        if isinstance(result, bool):
            return result
        if result.truncated:
            raise ValueError("a result cut at the row cap")
        return Counter(tuple(sorted((t.n3() if t is not None else "") for t in row)) for row in result.rows)

    def check(self, original: str, recompiled: str) -> str:
        """no data / equal / different / failed (also counted)."""
        try:
            gold = self.answers(original)
        except (CNLError, ValueError):
            outcome = "original failed or timed out"
        else:
            if not gold:  # an empty table, or an ASK answering no
                outcome = "no data"
            else:
                try:
                    outcome = "equal" if self.answers(recompiled) == gold else "different"
                except (CNLError, ValueError):
                    outcome = "recompiled failed or timed out"
        self.counts[outcome] += 1
        return outcome

    def report(self) -> None:
        c = self.counts
        data = c["equal"] + c["different"] + c["recompiled failed or timed out"]
        share = f" = {100 * c['equal'] / data:.1f} %" if data else ""
        print(f"    answers on the store: {data} round-tripped queries with data there, {c['equal']}/{data}{share} "
              f"with equal answers ({', '.join(f'{k} {v}' for k, v in sorted(c.items()))})")

    def close(self) -> None:
        self.kg.close()


# Refusals of ECAI golds that are not the decompiler's to fix, each with its one-line reason.
# The gold is malformed: it does not say what it was written to say.
MALFORMED = {
    "a FILTER over constants only (always true or always false)":
        "compares two constants (FILTER(1975 < 1980)): the FILTER never looks at the data",
    "an ill-formed xsd:dateTime literal (a date without a time)":
        '"2000-01-01"^^xsd:dateTime is not a valid xsd:dateTime (no time part)',
    "ORDER BY a variable the query never binds":
        "orders by ?P585 where the pattern binds ?P585_17: only LIMIT 1 applies, an arbitrary answer",
    "ORDER BY the things of a class (their IRIs) with a limit":
        "ORDER BY DESC(?Q5_24) LIMIT 1 ranks people by their IRIs: an arbitrary answer",
}
# Well-formed, but outside what the CNL can say (by design, not a decompiler gap).
NO_CNL_FORM = {
    "BIND of STR()": "no string conversion as an answer column (BIND(STR(?x)) then a REGEX on it)",
    "BIND of a comparison (a true/false answer)": "a true/false value as an answer column",
    "a FILTER on an expression": 'a string comparison of a date (STR(?d) <= "2005")',
    "a predicate outside Wikidata's wdt:/p:/ps:/pq: namespaces": "rdfs:label is presentation, not a CNL property",
    "ORDER BY an expression": "an ordering by a cast value (xsd:integer(?x))",
    "a FILTER on isLITERAL()": "no test of a term's kind in the CNL",
}


def ecai(show: bool) -> float:
    from cnl.datasets.ecai.loader import load_all, normalize_gold_sparql

    outcomes, unusable, refused = Counter(), Counter(), Counter()
    for record in load_all():
        try:
            gold = normalize_gold_sparql(record.sparql_raw)
        except CNLError as err:
            outcomes["unusable gold"] += 1
            unusable[str(err).split(" (")[0]] += 1
            if show:
                print(f"  {record.split}#{record.index} unusable gold: {err}")
            continue
        outcome, detail, text, _ = round_trip(gold)
        outcomes[outcome] += 1
        if outcome == "refused":
            refused[detail] += 1
        if show and outcome != "equivalent":
            print(f"  {record.split}#{record.index} {outcome}: {detail.strip()[:300]!r}\n    cnl: {text}\n    gold: {' '.join(gold.split()[-40:])}")
    total = sum(outcomes.values())
    share = outcomes["equivalent"] / total
    print(f"(a) ECAI gold round trip: {outcomes['equivalent']}/{total} = {100 * share:.1f} % equivalent "
          f"({_outcomes(outcomes)})")
    usable = total - outcomes["unusable gold"]
    print(f"    of the {usable} usable golds: {outcomes['equivalent']}/{usable} = "
          f"{100 * outcomes['equivalent'] / usable:.1f} %")
    print("    unusable golds (counted as failures above): "
          + "; ".join(f"{n} {reason}" for reason, n in unusable.most_common()))
    malformed = sum(n for c, n in refused.items() if c in MALFORMED)
    no_form = sum(n for c, n in refused.items() if c in NO_CNL_FORM)
    expressible = usable - malformed - no_form
    print(f"    of the {expressible} expressible golds (usable, well-formed, with a CNL form): "
          f"{outcomes['equivalent']}/{expressible} = {100 * outcomes['equivalent'] / expressible:.1f} %")
    print("    refused constructs:")
    for construct, n in refused.most_common():
        why = (f"  [malformed gold: {MALFORMED[construct]}]" if construct in MALFORMED else
               f"  [no CNL form: {NO_CNL_FORM[construct]}]" if construct in NO_CNL_FORM else "  [decompiler gap]")
        print(f"    {n:5d}  {construct}{why}")
    return share


def ecai_sparklis() -> float:
    """The same round trip through the Sparklis dialect (printed and parsed as Sparklis)."""
    from cnl.datasets.ecai.loader import load_all, normalize_gold_sparql

    outcomes = Counter()
    for record in load_all():
        try:
            gold = normalize_gold_sparql(record.sparql_raw)
        except CNLError:
            outcomes["unusable gold"] += 1
            continue
        outcomes[round_trip(gold, "sparklis")[0]] += 1
    total = sum(outcomes.values())
    print(f"(c) ECAI gold round trip through Sparklis text: {outcomes['equivalent']}/{total} = "
          f"{100 * outcomes['equivalent'] / total:.1f} % equivalent "
          f"({_outcomes(outcomes)})")
    return outcomes["equivalent"] / total


def hand_written(name: str, label: str, path: tuple[str, ...], show: bool, answers: AnswerCheck | None = None) -> float:
    """Round trip of a data set of hand-written Wikidata queries (a JSON list of {id, sparql});
    with ``answers``, the round-tripped ones also run on its store."""
    data = json.loads(data_file(*path).read_text("utf-8"))
    outcomes, refused = Counter(), Counter()
    for item in data:
        outcome, detail, text, compiled = round_trip(item["sparql"])
        outcomes[outcome] += 1
        if outcome == "refused":
            refused[detail] += 1
        if show and outcome != "equivalent":  # refusals too, with their construct and SPARQL
            print(f"  {name} {item['id']} {outcome}: {detail.strip()[:300]!r}\n    cnl: {text}\n"
                  f"    sparql: {' '.join(item['sparql'].split())}")
        if answers is not None and outcome == "equivalent":
            found = answers.check(item["sparql"], compiled)
            if show and found not in ("equal", "no data"):
                print(f"  {name} {item['id']} answers {found}\n    cnl: {text}")
    total = len(data)
    share = outcomes["equivalent"] / total
    print(f"{label}: {outcomes['equivalent']}/{total} = {100 * share:.1f} % decompiled and "
          f"recompiled to an equivalent query ({_outcomes(outcomes)})")
    print("    refused constructs:")
    for construct, n in refused.most_common():
        print(f"    {n:5d}  {construct}")
    if answers is not None:
        answers.report()
    return share


def qald(show: bool, store: str | None = None, timeout: float = 10.0) -> float:
    return _with_answers(store, timeout, lambda answers: hand_written(
        "qald", "(b) QALD-9-plus train", ("benchmarks", "qald9plus_train.json"), show, answers))


def wwq(show: bool, store: str | None = None, timeout: float = 10.0) -> float:
    return _with_answers(store, timeout, lambda answers: hand_written(
        "wwq", "(d) WikiWebQuestions train", ("wikiwebquestions", "train.json"), show, answers))


def _with_answers(store, timeout, run):
    if store is None:
        return run(None)
    answers = AnswerCheck(store, timeout)
    try:
        return run(answers)
    finally:
        answers.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--failures", action="store_true", help="list every query that is not equivalent (refused ones too, with their SPARQL)")
    parser.add_argument("--sparklis", action="store_true", help="also round-trip the ECAI golds through Sparklis text")
    parser.add_argument("--only", choices=("ecai", "qald", "wwq"), action="append",
                        help="report only these data sets (repeatable; default: all three)")
    parser.add_argument("--store", help="an embedded Wikidata store (the slice): also compare the answers of "
                                        "QALD-9-plus and WikiWebQuestions queries with data there")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds per query on the store (default 10)")
    args = parser.parse_args()
    chosen = args.only or ("ecai", "qald", "wwq")
    if "ecai" in chosen:
        ecai(args.failures)
    if "qald" in chosen:
        qald(args.failures, args.store, args.timeout)
    if "wwq" in chosen:
        wwq(args.failures, args.store, args.timeout)
    if args.sparklis:
        ecai_sparklis()


if __name__ == "__main__":
    main()
