"""Exact match and TA-offline of the learned parser on the ECAI test questions.

For each entity-linking variant at inference (prompt with or without candidates; explicit
correction or not) and with/without grammar-constrained decoding (greedy search):
  * EM: the generated SQUALL equals the gold SQUALL printed in the label notation;
  * parse: the generated SQUALL parses;
  * TA-offline: the prediction, compiled with the example's resolver (`resolver_for`) and the
    ECAI-compatible Wikidata profile, is equivalent to the normalized gold SPARQL.

    python scripts/eval_translate.py [--adapter DIR] [--limit N] [--el hybrid none ...] [--out FILE.json]
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def score(example, text):
    from cnl.compiler.equivalence import equivalent
    from cnl.compiler.sparql import compile_query
    from cnl.data.alignment import ALIGNMENT_PROFILE
    from cnl.data.training import resolver_for
    from cnl.errors import CNLError
    from cnl.parser.squall import parse_squall

    em = " ".join(text.split()) == " ".join(example.completion.split())
    try:
        query = parse_squall(text, notation="label")
    except CNLError:
        return em, False, False
    except Exception:  # noqa: BLE001 - count any parser crash as "does not parse"
        return em, False, False
    if example.gold_sparql is None:
        return em, True, False
    try:
        sparql = compile_query(query, ALIGNMENT_PROFILE, resolver_for(example))
        return em, True, bool(equivalent(sparql, example.gold_sparql))
    except CNLError:
        return em, True, False
    except Exception:  # noqa: BLE001
        return em, True, False


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--adapter", default=None)
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--el", nargs="+", default=["hybrid", "implicit", "none", "explicit"])
    ap.add_argument("--modes", nargs="+", default=["unconstrained", "constrained"])
    ap.add_argument("--batch-size", type=int, default=1, help="1 on CPU: batched (left-padded) generation was 2-3x slower per question here")
    ap.add_argument("--max-new-tokens", type=int, default=64, help="the longest SQUALL-label target has 57 tokens")
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--out", type=Path, default=None, help="write predictions and figures as JSON")
    args = ap.parse_args(argv)

    from cnl.data.training import build_examples
    from cnl.model.inference import Translator

    translator = Translator.load(args.adapter, threads=args.threads)
    # implicit/hybrid share a prompt (with candidates), none/explicit too (without): generate once per prompt kind
    prompt_kind = {"hybrid": "hybrid", "implicit": "hybrid", "none": "none", "explicit": "none"}
    examples = {kind: build_examples("test", "squall", "label", kind)[: args.limit]
                for kind in {prompt_kind[e] for e in args.el}}
    generated, timings = {}, {}
    for kind, exs in examples.items():
        for mode in args.modes:
            start = time.perf_counter()
            outs = translator.generate([e.prompt for e in exs], constrained=mode == "constrained",
                                       batch_size=args.batch_size, max_new_tokens=args.max_new_tokens)
            timings[(kind, mode)] = time.perf_counter() - start
            generated[(kind, mode)] = [o[0] for o in outs]
            print(f"generated {len(exs)} ({kind} prompts, {mode}) in {timings[(kind, mode)]:.1f} s",
                  file=sys.stderr, flush=True)
    rows, report = [], {}
    print(f"{'EL':9} {'decoding':13} {'n':>4} {'EM':>6} {'parse':>6} {'TA-off':>7} {'TA/usable-gold':>15}")
    for el in args.el:
        kind = prompt_kind[el]
        exs = examples[kind]
        for mode in args.modes:
            preds = []
            for ex, text in zip(exs, generated[(kind, mode)]):
                cands = [{"id": c.id, "label": c.label, "probability": c.probability} for c in ex.record.candidates]
                preds.append(translator.postprocess(text, el, cands))
            scores = [score(ex, p) for ex, p in zip(exs, preds)]
            n = len(scores)
            usable = sum(1 for ex in exs if ex.gold_sparql is not None)
            em, parse, ta = (sum(s[i] for s in scores) for i in range(3))
            report[f"{el}/{mode}"] = {"n": n, "em": em / n, "parse": parse / n, "ta_offline": ta / n,
                                      "ta_usable_gold": ta / max(usable, 1), "usable_gold": usable,
                                      "generation_s": round(timings[(kind, mode)], 1)}
            print(f"{el:9} {mode:13} {n:4d} {em / n:6.3f} {parse / n:6.3f} {ta / n:7.3f} {ta / max(usable, 1):9.3f} (of {usable})")
            rows += [{"el": el, "mode": mode, "question": ex.question, "gold": ex.completion, "pred": p,
                      "em": s[0], "parses": s[1], "ta": s[2]} for ex, p, s in zip(exs, preds, scores)]
    if args.out:
        args.out.write_text(json.dumps({"figures": report, "predictions": rows}, indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
