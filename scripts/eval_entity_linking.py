"""Entity linking on Mintaka dev (part 1) with the Wikidata slice's labels as the index.

Prints recall@1 / recall@5 (per gold entity, among candidates whose mention overlaps the gold
span), candidate recall (gold QID anywhere among the question's candidates), the questions
with a gold entity among their candidates ("q any"), the question-level ceiling (every gold
entity of the question among its candidates: the paper's 88 % measure), mean candidates per
question, by complexity type; then a reliability table of the scores and the linking latency.

``--wwq``: the WikiWebQuestions dev split instead (another writer's questions, the seeded split
of cnl.datasets.wwq): gold items are the question's linked entities that its gold SPARQL uses;
no mention spans, so candidate recall and in the prompt.

    PYTHONPATH=. python scripts/eval_entity_linking.py --store STORE_DIR [--lowercase] [--wwq]
"""
from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from collections import defaultdict

from cnl.datasets.paths import data_file
from cnl.linking.indices import entity_index_for_store
from cnl.linking.linker import BuiltinLinker
from cnl.learn.prompts import prompt_candidates


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--store", required=True, help="embedded store holding the Wikidata slice")
    ap.add_argument("--dataset", default=None, help="Mintaka JSON (default: shared mintaka_dev_part1.json)")
    ap.add_argument("--lowercase", action="store_true",
                    help="lower-case every question first: writers who do not capitalise names (as in WebQuestions)")
    ap.add_argument("--wwq", action="store_true", help="the WikiWebQuestions dev split instead of Mintaka")
    args = ap.parse_args()
    entities = entity_index_for_store(args.store)
    linker = BuiltinLinker(entities)
    names = len(entities.names)
    print(f"index: {len(entities):,} entities, {names:,} indexed names (labels + aliases)")
    if args.wwq:
        return wwq_dev(linker, entities, args.lowercase)
    path = args.dataset or data_file("mintaka", "mintaka_dev_part1.json")
    with open(path) as f:
        questions = json.load(f)

    stats = defaultdict(lambda: defaultdict(float))
    bins = defaultdict(lambda: [0, 0.0, 0])  # bin → [count, score sum, correct]
    latencies = []
    for q in questions:
        gold = [e for e in q["questionEntity"] if e["entityType"] == "entity"]
        start = time.perf_counter()
        cands = linker.link(q["question"].lower() if args.lowercase else q["question"])
        latencies.append((time.perf_counter() - start) * 1000)
        gold_ids = {g["name"] for g in gold}
        for c in cands:
            b = min(int(c.score * 10), 9)
            bins[b][0] += 1
            bins[b][1] += c.score
            bins[b][2] += c.id in gold_ids
        for key in (q["complexityType"], "ALL"):
            s = stats[key]
            s["questions"] += 1
            s["candidates"] += len(cands)
            if not gold:
                continue
            s["questions_with_gold"] += 1
            s["any_found"] += any(g["name"] in {c.id for c in cands} for g in gold)
            all_found = True
            for g in gold:
                s["gold"] += 1
                s["in_index"] += entities.get(g["name"]) is not None
                lo, hi = g["span"]
                local = [c.id for c in cands if c.start < hi and lo < c.end]
                s["r1"] += g["name"] in local[:1]
                s["r5"] += g["name"] in local[:5]
                found = g["name"] in {c.id for c in cands}
                s["cand_recall"] += found
                s["in_prompt"] += g["name"] in {c.id for c in prompt_candidates(cands)}
                all_found &= found
            s["all_found"] += all_found

    order = sorted(k for k in stats if k != "ALL") + ["ALL"]
    print(f"\n{'type':<13}{'qs':>5}{'gold':>6}{'in idx':>8}{'R@1':>7}{'R@5':>7}{'cand R':>8}{'prompt':>8}"
          f"{'q any':>8}{'q ceil':>8}{'cands/q':>9}")
    for k in order:
        s = stats[k]
        g = s["gold"] or 1
        with_gold = s["questions_with_gold"] or 1
        print(f"{k:<13}{int(s['questions']):>5}{int(s['gold']):>6}{s['in_index'] / g:>8.1%}{s['r1'] / g:>7.1%}"
              f"{s['r5'] / g:>7.1%}{s['cand_recall'] / g:>8.1%}{s['in_prompt'] / g:>8.1%}"
              f"{s['any_found'] / with_gold:>8.1%}{s['all_found'] / with_gold:>8.1%}"
              f"{s['candidates'] / s['questions']:>9.2f}")
    s = stats["ALL"]
    in_index = s["in_index"] or 1
    print(f"\nrecall among gold entities present in the index: R@1 {s['r1'] / in_index:.1%}, "
          f"R@5 {s['r5'] / in_index:.1%}, candidate recall {s['cand_recall'] / in_index:.1%}")
    print("\nscore reliability (candidate is a gold question entity):")
    print(f"{'score':<10}{'n':>6}{'mean score':>12}{'accuracy':>10}")
    for b in sorted(bins):
        n, total, ok = bins[b]
        print(f"{b / 10:.1f}-{(b + 1) / 10:.1f}   {n:>6}{total / n:>12.3f}{ok / n:>10.3f}")
    latencies.sort()
    print(f"\nlatency per question over {len(latencies)} questions: median {statistics.median(latencies):.2f} ms, "
          f"p95 {latencies[int(0.95 * len(latencies))]:.2f} ms, max {latencies[-1]:.2f} ms "
          f"({len(entities):,} entities / {names:,} names)")
    return 0


def wwq_dev(linker, entities, lowercase: bool) -> int:
    """Gold items of the WikiWebQuestions dev split among the candidates (they have no spans)."""
    from cnl.datasets.wwq.loader import load_wwq

    counts = defaultdict(float)
    for record in load_wwq("dev"):
        used = set(re.findall(r"wd:(Q[0-9]+)", record.sparql))
        gold = {qid for _, qid in record.entities if qid in used}
        cands = linker.link(record.question.lower() if lowercase else record.question)
        ids = [c.id for c in cands]
        shown = {c.id for c in prompt_candidates(cands)}
        counts["questions"] += 1
        counts["candidates"] += len(cands)
        counts["any"] += bool(gold & set(ids))
        counts["with_gold"] += bool(gold)
        for qid in gold:
            counts["gold"] += 1
            counts["in_index"] += entities.get(qid) is not None
            counts["found"] += qid in ids
            counts["prompt"] += qid in shown
    g = counts["gold"] or 1
    print(f"WikiWebQuestions dev: {int(counts['questions'])} questions, {int(counts['gold'])} gold items "
          f"({counts['in_index'] / g:.1%} in the index)")
    print(f"gold item among the candidates {counts['found'] / g:.1%}, in the prompt {counts['prompt'] / g:.1%}; "
          f"questions with a gold item among their candidates "
          f"{counts['any'] / (counts['with_gold'] or 1):.1%}; {counts['candidates'] / counts['questions']:.2f} "
          f"candidates per question")
    return 0


if __name__ == "__main__":
    sys.exit(main())
