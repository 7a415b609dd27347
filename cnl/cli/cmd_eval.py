"""`cnl2sparql eval --config experiment.toml`: run an experiment grid and write its report."""
from __future__ import annotations


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "eval", help="train/translate/score a grid of target languages × EL variants × train sizes",
        description="Run the experiments of a TOML configuration (see docs/evaluation.md): trains "
                    "adapters, translates the test questions and scores them (BLEU, METEOR, ROUGE-2, "
                    "EM, TA, TA-offline, row-major F1, error categories). Everything is cached, so "
                    "an interrupted run resumes; the report goes to the configuration's `out`.")
    parser.add_argument("--config", required=True, help="experiment configuration (TOML)")
    parser.add_argument("--quiet", action="store_true", help="no progress bars or log lines")
    parser.set_defaults(func=run)


def run(args) -> int:
    from cnl.eval.runner import run_config

    data = run_config(args.config, progress=not args.quiet)
    print(f"{len(data['cells'])} cells scored in {data['wall_seconds'] / 60:.1f} min; "
          f"report: {data.get('out', '')}")
    return 0
