"""Each signal of the choice among candidates (cnl.learn.choice) measured on saved rows of the WWQ
dev split, without the model: the rows `ask --batch`/`translate --batch` wrote (with their
candidates and, with --beams, their n-best), e.g. those `scripts/eval_wwq.py --rows FILE` keeps.

    python scripts/choice_signals.py runs/wwq-ask.rows.jsonl [--store .cache/slice]

Prints how the type signal sorts the chosen outputs (the kind asked, whether the answer says
something, whether its kind fits, right or wrong against the gold), then TA-offline for each
chooser: the first candidate, answers, answers+type, answers+readings, those three, and with
the slot fit of a shared label's readings (the default).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter

CHOOSERS = [(), ("answers",), ("answers", "type"), ("answers", "readings"), ("answers", "type", "readings"),
            ("answers", "type", "readings", "fit")]


def right(sparql: str | None, gold: str) -> bool:
    from cnl.sparql.equivalence import equivalent

    if not sparql:
        return False
    try:
        return bool(equivalent(sparql, gold))
    except Exception:  # noqa: BLE001 - an unreadable prediction is a miss
        return False


def type_signal(kg, question: str, sparql: str) -> tuple[str, str] | None:
    """(answers or empty, fits / misfit / ?) of a chosen query, None when no kind is asked."""
    from cnl.errors import CNLError
    from cnl.kg.limits import query_limits
    from cnl.learn.choice import NUMBER, answer_kinds, answered, expected_kind, kind_fits, query_kinds

    expected = expected_kind(question)
    if expected is None:
        return None
    try:
        with query_limits(timeout=5, max_rows=20):
            result = kg.query(sparql)
    except CNLError:
        result = None
    says = answered(result)
    if says and not isinstance(result, bool):
        fits = kind_fits(expected, answer_kinds(result, kg), counts=NUMBER in (query_kinds(sparql) or ()))
    else:
        fits = kind_fits(expected, query_kinds(sparql) or set())
    return expected, "answers" if says else "empty", {True: "fits", False: "misfit", None: "?"}[fits]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("rows")
    ap.add_argument("--store", default=".cache/slice")
    args = ap.parse_args(argv)

    from cnl.datasets.wwq.loader import load_wwq
    from cnl.kg import open_kg
    from cnl.learn.inference import Translator

    rows = [json.loads(line) for line in open(args.rows) if line.strip()]
    records = load_wwq("dev")[: len(rows)]
    translator = Translator(None, None)  # no model: choose() judges the saved candidates
    with open_kg(store=args.store) as kg:
        table = Counter()
        for record, row in zip(records, rows):
            signal = type_signal(kg, record.question, row["sparql"]) if row.get("sparql") else None
            if signal:
                table[(*signal, "right" if right(row["sparql"], record.sparql) else "wrong")] += 1
        for key, count in sorted(table.items()):
            print("type signal:", *key, count)
        for chooser in CHOOSERS:
            translator.chooser = chooser
            hits = changed = 0
            started = time.perf_counter()
            for record, row in zip(records, rows):
                nbest = row.get("nbest") or ([row["cnl"]] if row.get("cnl") else [])
                if not nbest:
                    continue
                cands = row.get("candidates", [])
                _, sparql, _ = translator.choose(nbest, translator.resolver(cands, store=args.store, kg=kg), kg=kg,
                                                 profile="wikidata-wwq", question=record.question, candidates=cands)
                hits += right(sparql, record.sparql)
                changed += sparql != row.get("sparql")
            print(f"chooser={'+'.join(chooser) or 'first'}: {hits}/{len(rows)} right, {changed} differ from the "
                  f"run's ({time.perf_counter() - started:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
