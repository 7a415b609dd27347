"""Explicit EL measured: corrupt entity labels in gold SQUALL (ECAI test split) and count how
many the EntityMap + all-MiniLM-L6-v2 correction restores to the gold label.

Entity labels are found with `<([^<>:]+)>` minus the class right after Which/How many/What and
lower-case terms (see cnl.linking.el_variants.entity_labels, notation="ecai"): good enough for a
measurement, not a parser. The EntityMap holds the gold labels of train+test plus the ECAI
ReFinED candidates above 0.1. Corruptions (seeded): a typo (swap, drop or double a letter),
a dropped word (multi-word labels), a synonym/paraphrase from a small list.

    PYTHONPATH=. python scripts/eval_explicit_correction.py [--seed 0]
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter

from cnl.datasets.paths import data_file
from cnl.linking.el_variants import entity_labels
from cnl.linking.entity_map import EntityMap, ecai_candidates

SYNONYMS = {"Academy Award": "Oscar", "United States of America": "USA", "United Kingdom": "UK",
            "film": "movie", "Association": "League", "Football Club": "FC", "F.C.": "Football Club",
            "National": "Natl", "Award": "Prize", "Best": "Top", "Saint": "St.", "and": "&",
            "The ": "", "New York": "NY", "Los Angeles": "LA", "University": "Univ."}


def typo(label: str, rng: random.Random) -> str:
    positions = [i for i, c in enumerate(label) if c.isalpha()]
    i = rng.choice(positions)
    kind = rng.choice(["swap", "drop", "double"])
    if kind == "swap" and i + 1 < len(label):
        return label[:i] + label[i + 1] + label[i] + label[i + 2:]
    if kind == "drop":
        return label[:i] + label[i + 1:]
    return label[:i] + label[i] + label[i:]


def drop_word(label: str, rng: random.Random) -> str | None:
    words = label.split()
    if len(words) < 2:
        return None
    del words[rng.randrange(len(words))]
    return " ".join(words)


def synonym(label: str, rng: random.Random) -> str | None:
    options = [(a, b) for a, b in SYNONYMS.items() if a in label]
    if not options:
        return None
    a, b = rng.choice(options)
    return label.replace(a, b, 1).strip() or None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    emap = EntityMap()
    gold_labels = []
    for split in ("train", "test"):
        records = json.loads(data_file("cnl_kgqa", f"{split}.json").read_text())["SQUALL"]
        for r in records:
            labels = [label for *_, label in entity_labels(r["completion"], "ecai")]
            # gold SQUALL labels have no QID here; the label stands in as its own identity
            emap.add_pairs((label, "label:" + label) for label in labels)
            emap.add_candidates(ecai_candidates(r["prompt"]), 0.1)
            if split == "test":
                gold_labels += labels
    print(f"EntityMap: {len(emap)} keys; test split: {len(gold_labels)} entity labels")

    trials = []
    for label in gold_labels:
        for kind, corrupt in (("typo", lambda l: typo(l, rng)), ("drop word", lambda l: drop_word(l, rng)),
                              ("synonym", lambda l: synonym(l, rng))):
            bad = corrupt(label)
            if bad and bad != label:
                trials.append((kind, label, bad))
    restored = emap.nearest([bad for _, _, bad in trials])
    total, ok = Counter(), Counter()
    examples = []
    for (kind, label, bad), (key, sim) in zip(trials, restored):
        total[kind] += 1
        hit = key == label
        ok[kind] += hit
        if not hit and len(examples) < 8:
            examples.append(f"  {kind}: {bad!r} → {key!r} (gold {label!r}, cos {sim:.2f})")
    for kind in total:
        print(f"{kind:<10} {ok[kind]:>4}/{total[kind]:<4} restored = {ok[kind] / total[kind]:.1%}")
    print(f"{'all':<10} {sum(ok.values()):>4}/{sum(total.values()):<4} restored = "
          f"{sum(ok.values()) / sum(total.values()):.1%}")
    print("some misses:\n" + "\n".join(examples))
    return 0


if __name__ == "__main__":
    sys.exit(main())
