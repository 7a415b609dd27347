"""Latency of `translate` for one question, and the cost of grammar-constrained decoding.

    python benchmarks/bench_translate.py [--adapter DIR] [--questions 8] [--threads 2]

Prints the median seconds per question for greedy decoding without and with the grammar
constraint, their ratio, and the default pipeline (constrained, 4-beam n-best validation).
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
    ap.add_argument("--any-property", action="store_true", help="constrained decoding without the known-property constraint")
    ap.add_argument("--skip-beams", action="store_true", help="leave out the 4-beam validated pipeline")
    ap.add_argument("--dtype", choices=["float32", "bfloat16"], default=None,
                    help="model weights (default: bfloat16 on a CPU)")
    args = ap.parse_args(argv)

    from cnl.datasets.ecai.loader import load_ecai
    from cnl.learn.inference import Translator

    start = time.perf_counter()
    translator = Translator.load(args.adapter, threads=args.threads, dtype=args.dtype)
    translator.constrain_properties = not args.any_property
    print(f"model + adapter loaded in {time.perf_counter() - start:.1f} s")
    records = load_ecai("test")[: args.questions]
    modes = [("greedy, unconstrained", dict(constrained=False, validate=False)),
             ("greedy, constrained", dict(constrained=True, validate=False))]
    if not args.skip_beams:
        modes.append(("default: constrained + 4-beam validation", dict(constrained=True, validate=True)))
    translator.translate(records[0].question, constrained=True, validate=False)  # warm-up
    medians = {}
    for name, options in modes:
        times, tokens = [], []
        for record in records:
            t0 = time.perf_counter()
            result = translator.translate(record.question, **options)
            times.append(time.perf_counter() - t0)
            tokens.append(len(translator.tokenizer(result.cnl or "")["input_ids"]))
        medians[name] = statistics.median(times)
        print(f"{name:42} median {medians[name]:.3f} s/question  (min {min(times):.3f}, max {max(times):.3f}, "
              f"{statistics.mean(tokens):.1f} tokens)")
    ratio = medians["greedy, constrained"] / medians["greedy, unconstrained"]
    print(f"constrained / unconstrained latency ratio: {ratio:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
