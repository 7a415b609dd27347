"""Latency and batch throughput of `translate`, and the cost of grammar-constrained decoding.

    python benchmarks/bench_translate.py [--adapter DIR] [--questions 8] [--threads 2] [--store DIR] [--batch 100]

Warm latency (model loaded, one warm-up question): the median seconds per question of greedy
decoding without the grammar constraint, of the default pipeline (`translate`'s defaults:
constrained greedy decoding, the output compiled; with --store the entities are linked over the
store, as `translate --store` and `ask` do), their ratio, and the 4-beam n-best pipeline (the
first beam that compiles and answers on the store). With --batch N: N questions of
the WikiWebQuestions dev split through `Translator.translate_batch` (what `translate --batch`
runs), the default pipeline, reported as questions/s and seconds per question.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--adapter", default=None)
    ap.add_argument("--questions", type=int, default=8)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--store", default=None, help="link over this store and validate on it (default pipeline)")
    ap.add_argument("--batch", type=int, default=0, help="also time a batch of N WikiWebQuestions dev questions")
    ap.add_argument("--batch-size", type=int, default=None, help="prompts generated together in the batch run")
    ap.add_argument("--any-property", action="store_true", help="constrained decoding without the known-property constraint")
    ap.add_argument("--skip-beams", action="store_true", help="leave out the 4-beam validated pipeline")
    ap.add_argument("--dtype", choices=["float32", "bfloat16"], default=None,
                    help="model weights (default: bfloat16 on a CPU)")
    args = ap.parse_args(argv)

    from cnl.datasets.ecai.loader import load_ecai
    from cnl.kg import open_kg
    from cnl.learn.inference import Translator

    start = time.perf_counter()
    translator = Translator.load(args.adapter, threads=args.threads, dtype=args.dtype)
    translator.constrain_properties = not args.any_property
    print(f"model + adapter loaded in {time.perf_counter() - start:.1f} s")
    kg = open_kg(store=args.store) if args.store else None
    questions = [r.question for r in load_ecai("test")[: args.questions]]
    modes = [("greedy, unconstrained", dict(constrained=False, validate=False)),
             ("default: greedy, constrained, compiled", dict(constrained=True, validate=True))]
    if not args.skip_beams:
        modes.append(("constrained + 4-beam n-best validation", dict(constrained=True, validate=True, num_beams=4)))
    translator.translate(questions[0], constrained=True, validate=False, kg=kg)  # warm-up (indices, pools)
    medians = {}
    for name, options in modes:
        times, tokens = [], []
        for question in questions:
            t0 = time.perf_counter()
            result = translator.translate(question, kg=kg, **options)
            times.append(time.perf_counter() - t0)
            tokens.append(len(translator.tokenizer(result.cnl or "")["input_ids"]))
        medians[name] = statistics.median(times)
        print(f"{name:42} median {medians[name]:.3f} s/question  (min {min(times):.3f}, max {max(times):.3f}, "
              f"{statistics.mean(tokens):.1f} tokens)")
    ratio = medians["default: greedy, constrained, compiled"] / medians["greedy, unconstrained"]
    print(f"constrained / unconstrained latency ratio: {ratio:.2f}")
    if args.batch:
        from cnl.datasets.wwq.loader import load_wwq

        batch = [r.question for r in load_wwq("dev")[: args.batch]]
        for name, options in modes[1:]:
            beams = options.get("num_beams", 1)
            size = args.batch_size or (1 if beams > 1 else 8)
            t0 = time.perf_counter()
            translator.translate_batch(batch, kg=kg, batch_size=size, **options)
            wall = time.perf_counter() - t0
            print(f"batch of {len(batch)} ({name}, {size} prompts at a time): {wall:.1f} s, "
                  f"{len(batch) / wall:.2f} questions/s, {wall / len(batch):.2f} s per question")
    if kg is not None:
        kg.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
