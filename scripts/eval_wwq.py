"""TA-offline of the learned parser on the WikiWebQuestions dev split (243 questions, seeded;
never trained on), through the command a user runs:

    cnl2sparql translate --batch FILE --store SLICE --kg wikidata-wwq [options]

or, with ``--via ask``, the command that also answers (``cnl2sparql ask --batch FILE --store
SLICE --kg wikidata-wwq``), which adds the answer F1: each question's answers from ask's rows
against the gold SPARQL's answers on the same store, by the row-major F1 of `cnl.eval.metrics`
(over the questions whose gold has an answer there, as SPINACH and GRASP report it, and over
all, where two empty answers count 1).

Entities come from the project's linker over the store (not from the data); the output SPARQL
is compared with the gold by the canonical-form checker (cnl.sparql.equivalence). Figures over
all 243 questions; the reference line says how many a perfect parser could reach this way (the
gold queries that have a SQUALL target equivalent under wikidata-wwq, and those whose every
item is in the store).

    python scripts/eval_wwq.py --store .cache/slice [--via translate|ask] [--adapter DIR] [--limit N]
        [--out FILE.json] [-- extra options, e.g. --no-validate --el none --property-constraint candidates]

With ``-- --beams N`` it also reports how many questions have a right query among the N beams
(``translate`` lists them as ``nbest``): what a perfect choice among the beams would reach.
"""
from __future__ import annotations

import argparse
import functools
import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--store", required=True)
    ap.add_argument("--adapter", default=None)
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--kg", default="wikidata-wwq", help="profile translate compiles with (default: %(default)s)")
    ap.add_argument("--via", choices=["translate", "ask"], default="translate",
                    help="the command run: translate, or ask (also answers: adds the answer F1)")
    ap.add_argument("--rows", type=Path, default=None,
                    help="keep the command's output lines (JSONL) in this file as they come, and reuse those "
                         "already there: an interrupted run goes on where it stopped, a finished one is scored again")
    ap.add_argument("translate_options", nargs="*", help="more options for cnl2sparql translate (after --)")
    args = ap.parse_args(argv)

    from cnl.datasets.wwq.loader import load_wwq
    from cnl.datasets.wwq.targets import wwq_targets
    from cnl.kg import open_kg
    from cnl.sparql.equivalence import equivalent
    from cnl.sparql.namespaces import WD

    records = load_wwq("dev")[: args.limit]
    with open_kg(store=args.store) as kg:
        targets = {t.source: t for t in wwq_targets(records, kg)}
        qids = {q for r in records for q in re.findall(r"\bwd:(Q[0-9]+)", r.sparql)}
        in_store = {iri[len(WD):] for iri in kg.labels({WD + q for q in qids})}
    kept = read_rows(args.rows)[: len(records)] if args.rows is not None else []
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as handle:
        for r in records[len(kept):]:
            handle.write(json.dumps({"question": r.question}) + "\n")
    command = [str(Path(sys.executable).with_name("cnl2sparql")), args.via, "--batch", handle.name,
               "--store", args.store, "--kg", args.kg, *(["--adapter", args.adapter] if args.adapter else []),
               *args.translate_options]
    started = time.perf_counter()
    if len(kept) < len(records):
        print("$ " + " ".join(command) + (f"  # {len(kept)} rows kept from {args.rows}" if kept else ""),
              file=sys.stderr)
        if args.rows is not None:
            with args.rows.open("a") as out:
                subprocess.run(command, stdout=out, text=True, check=True)
            fresh = read_rows(args.rows)[len(kept):]
        else:
            done = subprocess.run(command, stdout=subprocess.PIPE, text=True, check=True)
            fresh = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
        rows = kept + fresh
    else:
        rows = kept
    wall = time.perf_counter() - started
    assert len(rows) == len(records), (len(rows), len(records))
    # a question is answerable over the store only if every item its gold names is in it
    known_of = {r.id: all(q in in_store for q in re.findall(r"\bwd:(Q[0-9]+)", r.sparql)) for r in records}
    gold_answers = gold_answers_on(args.store, records) if args.via == "ask" else {}
    f1s = {}
    hits, compiled, results = 0, 0, []
    abstained = 0
    hits_in_store = 0
    any_beam_right = 0  # with --beams: questions where some beam, not only the chosen one, is right
    for record, row in zip(records, rows):
        ok = False
        known = known_of[record.id]
        if row.get("sparql"):
            compiled += 1
            try:
                ok = bool(equivalent(row["sparql"], record.sparql))
            except Exception:  # noqa: BLE001 - an unreadable prediction is a miss
                ok = False
        hits += ok
        hits_in_store += ok and known
        abstained += bool(row.get("abstained"))
        if args.via == "ask":
            from cnl.eval.metrics import row_major_f1

            f1s[record.id] = row_major_f1(answers_of(row), gold_answers[record.id])
        beams_right = [ok] if "nbest" not in row else right_beams(
            row["nbest"], row.get("candidates", []), record.sparql, args.store, args.kg)
        any_beam_right += ok or any(beams_right)
        target = targets.get(f"wwq:{record.id}")
        # with beams, every candidate too: a chooser among the beams can be measured offline
        beam_fields = {"nbest": row["nbest"], "nbest_scores": row.get("nbest_scores"), "nbest_right": beams_right,
                       "all_candidates": row.get("candidates", [])} if "nbest" in row else {}
        results.append({"id": record.id, "question": record.question, "cnl": row.get("cnl"),
                        "reference": target.cnl if target else None, "ta_offline": ok,
                        "entities_in_store": known, **beam_fields,
                        **({"abstained": row["abstained"]} if row.get("abstained") else {}),
                        **({"f1": f1s[record.id]} if record.id in f1s else {}),
                        "candidates": [c.get("label") for c in row.get("candidates", [])][:3]})
    n = len(records)
    reachable = sum(1 for t in targets.values() if t.preset_equivalent)
    entities_known = sum(known_of.values())
    both = sum(1 for r in records if (t := targets.get(f"wwq:{r.id}")) is not None and t.preset_equivalent
               and known_of[r.id])
    figures = {"n": n, "ta_offline": hits / n, "compiles": compiled / n, "wall_s": round(wall, 1),
               "s_per_question": round(wall / n, 2), "reference_reachable": reachable / n,
               "entities_in_store": entities_known / n, "reachable_and_in_store": both / n,
               "ta_offline_entities_in_store": hits_in_store / max(entities_known, 1),
               "options": args.translate_options, "kg": args.kg, "via": args.via, "abstained": abstained}
    if args.via == "ask":
        with_gold = [r.id for r in records if not _empty(gold_answers[r.id])]
        figures["answer_f1"] = sum(f1s[i] for i in with_gold) / max(len(with_gold), 1)
        figures["answer_f1_questions"] = len(with_gold)
        figures["answer_f1_all"] = sum(f1s.values()) / n
    if any("nbest" in row for row in rows):
        figures["ta_offline_any_beam"] = any_beam_right / n
    print(f"WikiWebQuestions dev: {n} questions; TA-offline {hits}/{n} = {hits / n:.3f}; SPARQL for "
          f"{compiled / n:.3f}; {wall:.0f} s ({wall / n:.2f} s per question, model load included)")
    print(f"abstained: {abstained}/{n} = {abstained / n:.3f}")
    if args.via == "ask":
        print(f"answer F1 (row-major) over the {figures['answer_f1_questions']} questions whose gold has an answer "
              f"on the store: {figures['answer_f1']:.3f}; over all {n}: {figures['answer_f1_all']:.3f}")
    print(f"questions whose every item is in the store: TA-offline {hits_in_store}/{entities_known} = "
          f"{hits_in_store / max(entities_known, 1):.3f}")
    if "ta_offline_any_beam" in figures:
        print(f"some beam right (what a perfect choice among the beams would reach): {any_beam_right}/{n} = "
              f"{any_beam_right / n:.3f}")
    print(f"reference: a SQUALL target equivalent under {args.kg} for {reachable / n:.3f}; every item in the "
          f"store for {entities_known / n:.3f}; both {both / n:.3f}")
    if args.out:
        args.out.write_text(json.dumps({"figures": figures, "predictions": results}, indent=1, ensure_ascii=False))
    return 0


def read_rows(path: Path) -> list[dict]:
    """The rows a run left in ``path`` (none when absent); a last line cut by an interrupted run
    is dropped from the file, so that the run goes on from the question it was on."""
    if not path.exists():
        return []
    rows, lines = [], path.read_text().splitlines()
    for line in lines:
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError:
            break
    if len(rows) < len([line for line in lines if line.strip()]):
        path.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows))
    return rows


def gold_answers_on(store: str, records) -> dict:
    """Each record's gold answers on the store (rows of plain values, a bool, or None)."""
    from cnl.eval.execution import QueryRunner

    with QueryRunner(store) as runner:
        return {r.id: runner.run(r.sparql)[0] for r in records}


def answers_of(row: dict):
    """An ask --batch row's answers as the rows of plain values `QueryRunner.run` gives (IRIs
    and lexical forms, in the head's column order), a bool for ASK, None without any."""
    answers = row.get("answers")
    if answers is None or isinstance(answers, bool):
        return answers
    columns = answers.get("head", {}).get("vars", [])
    return [tuple((b.get(c) or {}).get("value") for c in columns)
            for b in answers.get("results", {}).get("bindings", [])]


def _empty(answer) -> bool:
    from cnl.eval.metrics import is_empty

    return answer is None or answer is False or is_empty(answer)


@functools.lru_cache(maxsize=1)
def _label_resolving_translator():
    from cnl.learn.inference import Translator

    return Translator(None, None)  # for its label resolver only: no model is loaded


def right_beams(beams: list[str], candidates: list, gold_sparql: str, store: str, profile: str) -> list[bool]:
    """Per beam, whether its CNL compiles (its labels resolved as translate resolves them: the
    question's candidates, property names, the store's names) to a query equivalent to the gold."""
    from cnl.dialects.squall.parser import parse_squall
    from cnl.sparql.compiler import compile_query
    from cnl.sparql.equivalence import equivalent

    resolver = _label_resolving_translator().resolver(candidates, store=store)
    right = []
    for cnl in beams:
        try:
            right.append(bool(equivalent(compile_query(parse_squall(cnl), profile, resolver), gold_sparql)))
        except Exception:  # noqa: BLE001 - a beam that does not compile, or an unreadable query, is not right
            right.append(False)
    return right


if __name__ == "__main__":
    sys.exit(main())
