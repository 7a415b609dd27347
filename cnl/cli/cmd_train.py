"""`cnl2sparql train`: LoRA fine-tuning of the learned parser."""
from __future__ import annotations

import json
from pathlib import Path


def register(subparsers) -> None:
    p = subparsers.add_parser("train", help="fine-tune a LoRA adapter that translates questions into CNL",
                              description="Fine-tune a LoRA adapter on the ECAI training questions (and, with "
                                          "--extra-data, others). An "
                                          "interrupted run resumes from its checkpoint in --out.")
    from cnl.learn.prompts import EL_VARIANTS, NOTATIONS, PROMPT_STYLES, SQUALL_SOURCES, TARGETS
    from cnl.learn.train import LORA_MODULE_SETS, TrainConfig

    d = TrainConfig()
    p.add_argument("--target", choices=TARGETS, default=d.target)
    p.add_argument("--notation", choices=NOTATIONS, default=d.notation)
    p.add_argument("--el", choices=EL_VARIANTS, default=d.el, help="entity-linking variant of the prompts")
    p.add_argument("--train-size", type=int, default=None, help="a seeded random subset of N questions")
    p.add_argument("--epochs", type=float, default=d.epochs)
    p.add_argument("--max-steps", type=int, default=None)
    p.add_argument("--lr", type=float, default=d.lr)
    p.add_argument("--lora-r", type=int, default=d.lora_r)
    p.add_argument("--lora-alpha", type=int, default=d.lora_alpha)
    p.add_argument("--lora-layers", type=int, default=None, help="LoRA on the top N layers only (faster on CPU)")
    p.add_argument("--lora-modules", choices=list(LORA_MODULE_SETS), default=d.lora_modules,
                   help="the linear layers LoRA adapts: the attention projections, or all of them (the MLP's "
                        "too: about 2.6x the adapter's size at the same rank); default: %(default)s")
    p.add_argument("--batch-size", type=int, default=d.batch_size)
    p.add_argument("--seed", type=int, default=d.seed)
    p.add_argument("--prompt-style", choices=PROMPT_STYLES, default=d.prompt_style)
    p.add_argument("--squall-from", choices=SQUALL_SOURCES, default=d.squall_from,
                   help="SQUALL targets: the data's annotation, or the SQUALL that says what the gold SPARQL "
                        "says (the annotation where they agree, else the gold decompiled); default: %(default)s")
    p.add_argument("--extra-data", nargs="+", choices=["qald", "wwq"], default=[],
                   help="more SQUALL examples (need --store): qald = QALD-9-plus train, wwq = WikiWebQuestions "
                        "train less its seeded dev split, both decompiled to SQUALL")
    p.add_argument("--no-ecai", action="store_true", help="leave out the ECAI training questions (only --extra-data)")
    p.add_argument("--ecai-repeat", type=int, default=d.ecai_repeat, metavar="N",
                   help="each ECAI training question N times per epoch (beside more --extra-data); default: %(default)s")
    p.add_argument("--property-candidates", type=int, default=d.property_candidates, metavar="K",
                   help="show each prompt its K best property candidates (saved pool: property_pool.json); "
                        "default: %(default)s")
    p.add_argument("--shuffle-property-candidates", type=float, default=d.shuffle_property_candidates, metavar="P",
                   help="show a share P (0-1) of the training prompts their property candidates in a random order "
                        "instead of best first, so the model learns to choose by the question; default: %(default)s")
    p.add_argument("--autocast", choices=["bfloat16"], default=None,
                   help="mixed precision (a CPU with bfloat16 instructions: about 1.5x the tokens/s)")
    p.add_argument("--store", default=None, help="embedded store of the Wikidata slice (labels and candidates "
                                                 "for --extra-data)")
    p.add_argument("--demos", type=int, default=d.demos,
                   help="show each prompt the N most similar solved training questions (retrieved by question "
                        "structure; saved as demos.json beside the adapter); default: %(default)s")
    p.add_argument("--base-model", default=None, help="local folder or hub id (default: SmolLM2-135M-Instruct)")
    p.add_argument("--device", default=None, help="cpu, cuda, ... (default: cuda when available)")
    p.add_argument("--threads", type=int, default=None, help="torch CPU threads")
    p.add_argument("--checkpoint-every", type=int, default=d.checkpoint_every, help="steps between checkpoints")
    p.add_argument("--out", type=Path, default=d.out, help="adapter folder (default: %(default)s)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=run_train)


def run_train(args) -> int:
    from cnl.learn.train import TrainConfig, train

    config = TrainConfig(target=args.target, notation=args.notation, el=args.el, train_size=args.train_size,
                         epochs=args.epochs, lr=args.lr, lora_r=args.lora_r, lora_alpha=args.lora_alpha, lora_layers=args.lora_layers, lora_modules=args.lora_modules,
                         batch_size=args.batch_size, seed=args.seed, base_model=args.base_model, out=args.out,
                         max_steps=args.max_steps, prompt_style=args.prompt_style, squall_from=args.squall_from, extra_data=args.extra_data,
                         store=args.store, device=args.device, demos=args.demos,
                         threads=args.threads, checkpoint_every=args.checkpoint_every, ecai=not args.no_ecai, ecai_repeat=args.ecai_repeat,
                         property_candidates=args.property_candidates,
                         shuffle_property_candidates=args.shuffle_property_candidates, autocast=args.autocast)
    out = train(config, progress=not args.quiet)
    metrics = json.loads((out / "metrics.json").read_text())
    print(f"adapter saved in {out}")
    print(json.dumps(metrics, indent=2))
    return 0
