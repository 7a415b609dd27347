"""`cnl2sparql prepare [--store DIR]`: the learned parser's one-time preparations, with progress.

Idempotent: what is ready is only checked. `translate` and `ask` run the missing ones themselves
(the same progress), so this command is how a set-up does them ahead of the first question.
"""
from __future__ import annotations

import sys
import time


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "prepare", help="do the learned parser's one-time preparations now (base model, property index, "
                        "a store's search index)",
        description="Convert the base model, embed the property index and, with --store, index the store's "
                    "names: each once, cached on disk, with progress. Running it again only checks.")
    p.add_argument("--store", default=None, help="also index this embedded store's names (for ask/translate --store)")
    p.add_argument("--adapter", default=None, help="adapter folder (default: the shipped SQUALL adapter)")
    p.add_argument("--base-model", default=None, help="base model folder or hub id")
    p.add_argument("--no-load", action="store_true", help="do not load the parser at the end to check the set-up")
    p.set_defaults(func=run)


def run(args) -> int:
    from cnl.learn.base_model import require_model_stack
    from cnl.learn.prepare import prepare

    require_model_stack()
    if args.store is not None:
        from cnl.kg.embedded import EmbeddedKG

        EmbeddedKG(args.store, read_only=True, isolate=False).close()  # a clear error for a missing store, first
    started = time.perf_counter()
    done = prepare(args.store, adapter=args.adapter, base_model=args.base_model, load=not args.no_load)
    print(f"ready in {time.perf_counter() - started:.1f} s: cnl2sparql ask \"QUESTION\""
          f"{' --store ' + args.store if args.store else ' --store DIR'}"
          + (f" (prepared now: {', '.join(name for name in done if name.startswith('the '))})"
             if any(name.startswith("the ") for name in done) else ""), file=sys.stderr)
    return 0
