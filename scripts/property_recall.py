"""Property recall@k of the property candidates (cnl/linking/property_candidates.py): the share
of the gold properties (those the SQUALL target writes inside <...>) among a question's top k
candidates, on the WikiWebQuestions dev split and the ECAI test questions.

The pool of solved questions is the training data of the adapter (ECAI train + WikiWebQuestions
train without the dev split), as `cnl2sparql train --property-candidates K` builds it; with
--store, the properties around the question's linked entities count too (the project's linker
over the store for WikiWebQuestions, the data's recorded candidates for ECAI).

    python scripts/property_recall.py --store .cache/slice [--k 5 10 20] [--no-pool] [--descriptions]
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def recall(retriever, examples, ks, kg=None) -> dict:
    from cnl.learn.prompts import candidate_field, prompt_candidates
    from cnl.linking.property_candidates import properties_around

    examples = [e for e in examples if e.property_ids()]
    around = None
    if kg is not None:
        around = [properties_around(kg, [candidate_field(c, "id") for c in prompt_candidates(e.candidates)])
                  for e in examples]
    found = retriever.batch([e.question for e in examples], max(ks), around=around)
    gold = sum(len(e.property_ids()) for e in examples)
    out = {"questions": len(examples), "gold_properties": gold}
    for k in ks:
        hits = sum(len(set(e.property_ids()) & {c.id for c in cands[:k]}) for e, cands in zip(examples, found))
        all_found = sum(set(e.property_ids()) <= {c.id for c in cands[:k]} for e, cands in zip(examples, found))
        out[k] = (hits / gold, all_found / len(examples))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--store", default=None, help="embedded store of the Wikidata slice")
    ap.add_argument("--k", type=int, nargs="+", default=[5, 10, 20])
    ap.add_argument("--no-pool", action="store_true", help="embedding similarity only (no solved questions)")
    ap.add_argument("--descriptions", action="store_true",
                    help="the properties' descriptions in the embedded text too (label + aliases + description)")
    args = ap.parse_args(argv)
    if not args.store:
        ap.error("--store is needed to label and link the WikiWebQuestions targets")

    from cnl.kg import open_kg
    from cnl.learn.examples import build_examples, property_pool, wwq_examples
    from cnl.linking.property_candidates import PropertyRetriever

    train = build_examples("train", "squall", "label", "hybrid") + wwq_examples(args.store, "train")
    retriever = PropertyRetriever() if args.no_pool else property_pool(train)
    retriever.descriptions = args.descriptions
    sets = {"WikiWebQuestions dev": wwq_examples(args.store, "dev"),
            "ECAI test": [e for e in build_examples("test", "squall", "label", "hybrid") if e.record is not None]}
    print(f"pool: {'none' if args.no_pool else f'{len(retriever.pool)} solved training questions'}; "
          f"{len(retriever.properties)} properties")
    with open_kg(store=args.store) as kg:
        for name, examples in sets.items():
            for with_kg in (False, True):
                r = recall(retriever, examples, args.k, kg if with_kg else None)
                cells = "  ".join(f"R@{k} {r[k][0]:.3f} (all {r[k][1]:.3f})" for k in args.k)
                print(f"{name:22} {'+ around entities' if with_kg else 'question only    '}  {r['questions']} questions, "
                      f"{r['gold_properties']} gold properties:  {cells}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
