"""`cnl2sparql ensemble`: several trained adapters that decode together as one."""
from __future__ import annotations

from pathlib import Path


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "ensemble", help="combine trained LoRA adapters into one ensemble adapter",
        description="Write an adapter folder whose members (LoRA adapters of one base model, trained with the "
                    "same prompts, e.g. other seeds or data) decode together: each next token is the one with "
                    "the best mean log-probability. Use it like any adapter (--adapter DIR). Greedy and beam search "
                    "on a CPU run all members in one batch (two members: about 1.1x the latency of one adapter for "
                    "one question, about 1.3x the time in batches of 8); GPUs and other base models run the first member only.")
    p.add_argument("adapters", nargs="+", type=Path, metavar="ADAPTER",
                   help="adapter folders written by cnl2sparql train (the first one's prompts and property pool "
                        "are the ensemble's)")
    p.add_argument("--out", type=Path, required=True, help="new folder for the ensemble")
    p.set_defaults(func=run_ensemble)


def run_ensemble(args) -> int:
    from cnl.learn.ensemble import make_ensemble

    out = make_ensemble(args.adapters, args.out)
    print(f"ensemble of {len(args.adapters)} adapters saved in {out}; use it with --adapter {out}")
    return 0
