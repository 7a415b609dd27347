"""Exact match and TA-offline of the learned parser on the ECAI test questions.

For each entity-linking variant at inference (prompt with or without candidates; explicit
correction or not) and with/without grammar-constrained decoding (greedy search), the output
post-processed as `translate` does it (the question's numbers, negation, directions; a text that
does not compile repaired as `translate` repairs it, e.g. a class that is a property's name):
  * EM: the generated SQUALL equals the gold SQUALL printed in the label notation;
  * parse: the generated SQUALL parses;
  * TA-offline: the prediction, compiled with the example's resolver (`resolver_for`) and the
    ECAI-compatible Wikidata profile, is equivalent to the normalized gold SPARQL;
  * TA-off/SQUALL: the same against the gold SQUALL string compiled the same way (the data's
    SQUALL and SPARQL disagree for about 45 % of the test questions, so the first figure's
    ceiling, printed first, is the gold SQUALL's own score).

    python scripts/eval_translate.py [--adapter DIR] [--limit N] [--el hybrid none ...] [--out FILE.json]
    python scripts/eval_translate.py --rescore FILE.json [--el ...] [--modes ...] [--out FILE.json]

``--rescore`` scores the predictions an earlier ``--out`` file holds again, without generating:
the post-processing (numbers, explicit EL) and the scoring of this version on the same outputs.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def _compiled(example, text):
    """The SPARQL of a SQUALL-label text under the example's resolver, or None."""
    from cnl.sparql.compiler import compile_query
    from cnl.datasets.ecai.preset import ECAI_PROFILE
    from cnl.learn.examples import example_resolver as resolver_for
    from cnl.dialects.squall.parser import parse_squall

    try:
        return compile_query(parse_squall(text, notation="label"), ECAI_PROFILE, resolver_for(example))
    except Exception:  # noqa: BLE001 - a syntax/lexicon/compile error, or a parser crash
        return None


def parses(text) -> bool:
    from cnl.dialects.squall.parser import parse_squall

    try:
        parse_squall(text, notation="label")
        return True
    except Exception:  # noqa: BLE001 - count any parser crash as "does not parse"
        return False


def score(example, text, gold_cnl_sparql=None, reference=None):
    """(EM, parses, TA-offline against the normalized gold SPARQL, TA-offline against the gold
    SQUALL compiled the same way). The data's gold SQUALL and gold SPARQL often disagree
    (README, *Real data (issue 2)*): the second reference measures what the model was taught."""
    from cnl.sparql.equivalence import equivalent

    em = " ".join(text.split()) == " ".join((reference or example.completion).split())
    if not parses(text):
        return em, False, False, False
    sparql = _compiled(example, text)
    if sparql is None:
        return em, True, False, False

    def same(reference):
        try:
            return reference is not None and bool(equivalent(sparql, reference))
        except Exception:  # noqa: BLE001
            return False

    return em, True, same(example.gold_sparql), same(gold_cnl_sparql)


def _saved_predictions(ap, path: Path) -> list:
    """The predictions of an earlier ``--out`` file; a clear error where it is none."""
    try:
        rows = json.loads(path.read_text("utf-8"))["predictions"]
    except (OSError, ValueError, KeyError, TypeError) as err:
        ap.error(f"--rescore {path}: not an output of this script ({type(err).__name__}: {err})")
    if not all(isinstance(r, dict) and {"el", "mode", "question", "pred"} <= r.keys() for r in rows):
        ap.error(f"--rescore {path}: its predictions lack el/mode/question/pred")
    return rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--adapter", default=None)
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--el", nargs="+", default=["hybrid", "implicit", "none", "explicit"])
    ap.add_argument("--modes", nargs="+", default=["unconstrained", "constrained"],
                    choices=["unconstrained", "constrained", "nbest"],
                    help="nbest: constrained beam search (--beams), then the first beam that compiles "
                         "and, with --store, has a non-empty answer on the store")
    ap.add_argument("--beams", type=int, default=4)
    ap.add_argument("--store", type=Path, default=None, help="embedded store for the nbest answer check")
    ap.add_argument("--batch-size", type=int, default=1, help="1 on CPU: batched (left-padded) generation was 2-3x slower per question here")
    ap.add_argument("--max-new-tokens", type=int, default=64, help="the longest SQUALL-label target has 57 tokens")
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--out", type=Path, default=None, help="write predictions and figures as JSON")
    ap.add_argument("--rescore", type=Path, default=None,
                    help="score the predictions of an earlier --out file again (no generation)")
    ap.add_argument("--squall-from", choices=["annotation", "gold"], default=None,
                    help="the reference SQUALL of EM and of the TA-off/SQUALL column: the data's annotation, or the "
                         "SQUALL that says what the gold SPARQL says (default: what the adapter was trained on)")
    ap.add_argument("--any-property", action="store_true",
                    help="constrained decoding without the known-property-label constraint inside <...>")
    ap.add_argument("--no-properties", action="store_true",
                    help="prompts without property candidates, even for an adapter trained with them")
    ap.add_argument("--property-constraint", choices=["known", "candidates"], default="known",
                    help="constrained decoding: <...> any known property label, or only the question's candidates "
                         "and the adapter's training properties")
    ap.add_argument("--dtype", choices=["float32", "bfloat16"], default=None,
                    help="model weights (default: bfloat16 on a CPU)")
    args = ap.parse_args(argv)
    saved = _saved_predictions(ap, args.rescore) if args.rescore else None  # checked before the model loads

    from cnl.datasets.ecai.preset import ECAI_PROFILE
    from cnl.datasets.ecai.properties import known_property_labels
    from cnl.datasets.ecai.resolution import data_entity_map
    from cnl.learn.examples import build_examples, example_resolver as resolver_for
    from cnl.learn.inference import Translator

    # the paper's setting: the data's EntityMap for explicit EL, its property labels for decoding
    translator = Translator.load(args.adapter, threads=args.threads, dtype=args.dtype,
                                 known_properties=known_property_labels(), entity_map=data_entity_map())
    translator.constrain_properties = not args.any_property
    translator.property_constraint = args.property_constraint
    if args.no_properties:
        translator.config["property_candidates"] = 0
    kg = None
    if args.store:
        from cnl.kg import open_kg

        kg = open_kg(store=args.store)
    # implicit/hybrid share a prompt (with candidates), none/explicit too (without): generate once per prompt kind
    prompt_kind = {"hybrid": "hybrid", "implicit": "hybrid", "none": "none", "explicit": "none"}
    squall_from = args.squall_from or translator.config.get("squall_from", "annotation")
    print(f"reference SQUALL: {squall_from}", file=sys.stderr)
    # prompts, gold SPARQL and label resolvers come from the annotation examples whatever the
    # reference, so TA-offline does not depend on it
    examples = {kind: build_examples("test", "squall", "label", kind, demos=translator.demos,
                                     demo_pool=translator.demo_pool)[: args.limit]
                for kind in {prompt_kind[e] for e in args.el}}
    references = {kind: [r.completion for r in build_examples("test", "squall", "label", kind, squall_from=squall_from)[: args.limit]]
                  for kind in examples}
    generated, timings, prompts, allowed, beams_of = {}, {}, {}, {}, {}
    for kind, exs in examples.items():
        # the adapter's own prompts: property candidates (around the recorded entity candidates with --store)
        props = translator.properties_for([e.question for e in exs], [e.candidates for e in exs], kg)
        prompts[kind] = [translator.prompt(e.question, e.candidates, kind, p) for e, p in zip(exs, props)]
        allowed[kind] = [translator.allowed_properties(p) for p in props]
        if all(a is None for a in allowed[kind]):
            allowed[kind] = None
    print(f"prompt example:\n{prompts[next(iter(prompts))][0]}", file=sys.stderr)
    for kind, exs in examples.items():
        for mode in args.modes:
            if saved is not None:  # the earlier outputs, in the examples' order
                rows_of = [r for r in saved if prompt_kind[r["el"]] == kind and r["mode"] == mode]
                by_question = {r["question"]: r["pred"] for r in rows_of}
                missing = [e.question for e in exs if e.question not in by_question]
                if missing:
                    ap.error(f"{args.rescore} has no {kind}/{mode} output for {len(missing)} question(s), "
                             f"e.g. {missing[0]!r}: rescore with the --el/--modes of the run that wrote it")
                generated[(kind, mode)] = [by_question[e.question] for e in exs]
                beams_of[(kind, mode)] = [[p] for p in generated[(kind, mode)]]
                timings[(kind, mode)] = 0.0
                continue
            start = time.perf_counter()
            beams = args.beams if mode == "nbest" else 1
            outs = translator.generate(prompts[kind], constrained=mode != "unconstrained",
                                       batch_size=args.batch_size, max_new_tokens=args.max_new_tokens,
                                       num_beams=beams, n_best=beams, properties=allowed[kind])
            timings[(kind, mode)] = time.perf_counter() - start
            beams_of[(kind, mode)] = outs
            # n-best validation is the Translator's own, with the example's resolver
            generated[(kind, mode)] = [translator.choose(o, resolver_for(ex), kg=kg if mode == "nbest" else None,
                                                         profile=ECAI_PROFILE)[0]
                                       if mode == "nbest" else o[0] for ex, o in zip(exs, outs)]
            print(f"generated {len(exs)} ({kind} prompts, {mode}) in {timings[(kind, mode)]:.1f} s",
                  file=sys.stderr, flush=True)
    rows, report = [], {}
    gold_cnl = {kind: [_compiled(ex, ref) for ex, ref in zip(exs, references[kind])] for kind, exs in examples.items()}
    any_kind = next(iter(examples))
    ceiling = [score(ex, ref_text, ref, ref_text) for ex, ref, ref_text
               in zip(examples[any_kind], gold_cnl[any_kind], references[any_kind])]
    report["reference_squall"] = squall_from
    report["gold_squall"] = {"n": len(ceiling), "ta_offline": sum(c[2] for c in ceiling) / len(ceiling),
                             "ta_offline_vs_gold_squall": sum(c[3] for c in ceiling) / len(ceiling)}
    print(f"the gold SQUALL itself: TA-off vs gold SPARQL {report['gold_squall']['ta_offline']:.3f} "
          f"(the ceiling of that column), gold SQUALL compiles for {report['gold_squall']['ta_offline_vs_gold_squall']:.3f}")
    print(f"{'EL':9} {'decoding':13} {'n':>4} {'EM':>6} {'parse':>6} {'TA-off':>7} {'TA-off/SQUALL':>14}")
    for el in args.el:
        kind = prompt_kind[el]
        exs = examples[kind]
        for mode in args.modes:
            preds = []
            for ex, text in zip(exs, generated[(kind, mode)]):
                cands = [{"id": c.id, "label": c.label, "probability": c.probability} for c in ex.record.candidates]
                pred = translator.postprocess(text, el, cands, ex.question)
                if mode != "nbest":  # a text that does not compile gets the repairs `translate` makes
                    pred = translator.choose([pred], resolver_for(ex), profile=ECAI_PROFILE)[0] or pred
                preds.append(pred)
            scores = [score(ex, p, ref, ref_text) for ex, p, ref, ref_text in zip(exs, preds, gold_cnl[kind], references[kind])]
            n = len(scores)
            usable = sum(1 for ex in exs if ex.gold_sparql is not None)
            em, parse, ta, ta_cnl = (sum(s[i] for s in scores) for i in range(4))
            from cnl.eval.metrics import bleu, meteor, rouge2

            refs = references[kind]
            paper = {"bleu": bleu(preds, refs), "meteor": meteor(preds, refs), "rouge2": rouge2(preds, refs)}
            report[f"{el}/{mode}"] = {"n": n, "em": em / n, "parse": parse / n, "ta_offline": ta / n, **paper,
                                      "ta_offline_vs_gold_squall": ta_cnl / n,
                                      "ta_usable_gold": ta / max(usable, 1), "usable_gold": usable,
                                      "generation_s": round(timings[(kind, mode)], 1)}
            print(f"{el:9} {mode:13} {n:4d} {em / n:6.3f} {parse / n:6.3f} {ta / n:7.3f} {ta_cnl / n:14.3f}"
                  f"  BLEU {paper['bleu']:.3f} METEOR {paper['meteor']:.3f} ROUGE-2 {paper['rouge2']:.3f}")
            rows += [{"el": el, "mode": mode, "question": ex.question, "gold": ref_text, "pred": p,
                      "em": s[0], "parses": s[1], "ta": s[2], "ta_vs_gold_squall": s[3],
                      **({"nbest": beams} if mode == "nbest" else {})}
                     for ex, p, s, ref_text, beams in zip(exs, preds, scores, references[kind], beams_of[(kind, mode)])]
    if args.out:
        args.out.write_text(json.dumps({"figures": report, "predictions": rows}, indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
