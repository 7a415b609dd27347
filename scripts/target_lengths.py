"""Average number of tokens per target (BridgeKGLM Table 7) with the SmolLM2 tokenizer.

    python scripts/target_lengths.py
"""
from __future__ import annotations

import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> int:
    from cnl.learn.examples import build_examples
    from cnl.learn.base_model import token_counts

    print(f"{'target':18} {'split':6} {'n':>4} {'mean tokens':>12} {'median':>7}")
    for target, notation, name in [("squall", "label", "SQUALL-label"), ("squall", "id", "SQUALL-ID"),
                                   ("sparklis", "label", "Sparklis"), ("sparql", "id", "SPARQL-ID"),
                                   ("sparql", "label", "SPARQL-label")]:
        for split in ("train", "test"):
            exs = build_examples(split, target, notation, "none", keep_invalid=False)
            counts = token_counts([e.completion for e in exs])
            print(f"{name:18} {split:6} {len(counts):4d} {statistics.mean(counts):12.1f} {statistics.median(counts):7.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
