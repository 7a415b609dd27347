"""The report of an evaluation run: markdown, a JSON of every figure, PNG plots."""
from __future__ import annotations

import json
import platform
import time
from pathlib import Path

from cnl.eval.taxonomy import CATEGORIES, PAPER_NUMBER

METRICS = ("bleu", "meteor", "rouge2", "exact_match", "parse_rate", "ta_offline", "ta",
           "row_major_f1", "hits_at_1_gold_query", "gold_string_compiles", "gold_answers_nonempty")
HEADERS = {"bleu": "BLEU", "meteor": "METEOR", "rouge2": "ROUGE-2", "exact_match": "EM",
           "parse_rate": "parsed", "ta_offline": "TA-offline", "ta": "TA (slice)",
           "row_major_f1": "row-major F1†", "hits_at_1_gold_query": "Hits@1*†",
           "gold_string_compiles": "gold compiles", "gold_answers_nonempty": "gold has answers"}

# The paper's Table 4 (Zephyr-7B / Mistral-7B, 700 training examples, implicit EL), for context.
PAPER_TA = {
    "Zephyr-7B": {"squall-label": 0.58, "squall-id": 0.50, "sparql-label": 0.53, "sparql-id": 0.44},
    "Mistral-7B": {"squall-label": 0.58, "squall-id": 0.47, "sparql-label": 0.50, "sparql-id": 0.44},
}
PAPER_EM_SPARKLIS = {"Zephyr-7B": {"label": 0.30, "id": 0.26}, "Mistral-7B": {"label": 0.29, "id": 0.26}}


def _hardware() -> str:
    import os

    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{os.cpu_count()} CPU cores ({cpu}), no GPU, Python {platform.python_version()}"


def _fmt(value) -> str:
    return "–" if value is None else f"{value:.3f}"


def _primary(f: dict):
    """The accuracy a cell is compared by: TA where executable, else TA-offline, else EM."""
    for key in ("ta", "ta_offline", "exact_match"):
        if f.get(key) is not None:
            return f[key], key
    return None, None


def write_report(config, results: list[dict], *, wall_seconds: float, log: list[str],
                 total_cells: int | None = None) -> dict:
    out = Path(config.out)
    out.mkdir(parents=True, exist_ok=True)
    figures = [r["figures"] for r in results]
    command = f"cnl2sparql eval --config {config.source}" if config.source else "cnl2sparql eval"
    data = {
        "name": config.name, "command": command, "hardware": _hardware(),
        "wall_seconds": round(wall_seconds, 1), "finished": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
        "experiments": [{"name": e.name, "languages": list(e.languages), "el": list(e.el),
                         "train_sizes": list(e.train_sizes)} for e in config.experiments],
        "cells_done": len(figures), "cells_total": total_cells or len(figures),
        "cells": figures,
    }
    (out / "results.json").write_text(json.dumps(data, indent=1, default=str))
    plots = _plots(config, figures, out)
    (out / "report.md").write_text(_markdown(config, data, figures, plots))
    data["out"] = str(out)
    return data


def _cell(figures, language, el, size):
    for f in figures:
        if f["language"] == language and f["el"] == el and f["train_size"] == size:
            return f
    return None


def _markdown(config, data, figures, plots) -> str:
    lines = [f"# Evaluation: {config.name}", "",
             f"- command: `{data['command']}`",
             f"- hardware: {data['hardware']}",
             f"- wall time: {data['wall_seconds'] / 60:.1f} min (training, generation, scoring; cached steps are not re-timed)",
             f"- finished: {data['finished']}", ""]
    if data["cells_done"] < data["cells_total"]:
        lines[1:1] = ["", f"**PARTIAL RUN: {data['cells_done']} of {data['cells_total']} cells scored** "
                          "(rows marked *not run* are missing; rerun the command to resume).", ""]
    for exp in config.experiments:
        lines += [f"## {exp.name}", "",
                  "| language | EL | train | " + " | ".join(HEADERS[m] for m in METRICS) + " | tokens/query |",
                  "|---|---|---|" + "---|" * (len(METRICS) + 1)]
        for lang in exp.languages:
            for el in exp.el:
                for size in exp.train_sizes:
                    f = _cell(figures, lang, el, size)
                    if f is None:
                        lines.append(f"| {lang} | {el} | {size} | " + " | ".join("not run" for _ in METRICS) + " | |")
                        continue
                    tpq = f.get("tokens_per_query")
                    lines.append(f"| {lang} | {el} | {size} | " + " | ".join(_fmt(f.get(m)) for m in METRICS)
                                 + f" | {'–' if tpq is None else f'{tpq:.1f}'} |")
        lines.append("")
    lines += _delta_section(figures)
    lines += ["## Error categories (paper's Table 8, automatic part)", "",
              "| language | EL | train | " + " | ".join(f"({PAPER_NUMBER[c]}) {c}" for c in CATEGORIES) + " |",
              "|---|---|---|" + "---|" * len(CATEGORIES)]
    for f in figures:
        lines.append(f"| {f['language']} | {f['el']} | {f['train_size']} | "
                     + " | ".join(str(f['errors'][c]) for c in CATEGORIES) + " |")
    lines += ["", "## Plots", ""] + [f"![{p}]({p})" for p in plots] + [""]
    lines += ["## Notes", "",
              "- *TA (slice)*: the paper's TA (A1: same answers as the gold query; A2 when both are empty: "
              "the same query string) on the embedded Wikidata slice, not on the live Wikidata.",
              "- *TA-offline*: the compiled prediction is equivalent (canonical SPARQL algebra) to the reference query.",
              "- *Hits@1\\**: the first predicted value is among the gold *query's* answers on the slice "
              "(the ECAI data carries no Mintaka gold answers).",
              "- †: over the questions whose gold query has answers on the slice (SPINACH/GRASP exclude empty gold answers).",
              "- A CNL is scored against its own gold string compiled to SPARQL (*gold compiles*; else the normalized gold "
              "SPARQL); SPARQL against the normalized gold query. *gold has answers*: share of questions whose "
              "reference query returns something on the slice — where it does not, TA falls back to A2 (string equality).",
              ""]
    return "\n".join(lines)


def _delta_section(figures) -> list[str]:
    """ΔTA of each language against SPARQL-ID at the same train size and EL (the paper's Δ_L TA)."""
    rows = []
    for f in figures:
        if f["language"] == "sparql-id":
            continue
        base = _cell(figures, "sparql-id", f["el"], f["train_size"])
        if base is None:
            continue
        value, key = _primary(f)
        base_value = base.get(key)
        if value is None or base_value is None:
            continue
        rows.append(f"| {f['language']} | {f['el']} | {f['train_size']} | {key} | {value:.3f} | "
                    f"{base_value:.3f} | {value - base_value:+.3f} |")
    if not rows:
        return []
    return ["## ΔTA against SPARQL-ID at equal training data", "",
            "| language | EL | train | metric | language | SPARQL-ID | Δ |", "|---|---|---|---|---|---|---|",
            *rows, ""]


def _plots(config, figures, out: Path) -> list[str]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    made = []
    # sample efficiency: accuracy against train size, one line per language (implicit EL)
    sizes_by_lang: dict[str, list] = {}
    for f in figures:
        if f["el"] == "implicit":
            sizes_by_lang.setdefault(f["language"], []).append(f)
    if any(len(v) > 1 for v in sizes_by_lang.values()):
        fig, axes = plt.subplots(1, 2, figsize=(10, 4))
        for lang, cells in sizes_by_lang.items():
            cells = sorted(cells, key=lambda f: f["train_size"])
            if len(cells) < 2:
                continue
            xs = [f["train_size"] for f in cells]
            for ax, key in zip(axes, ("ta", "ta_offline")):
                ys = [f.get(key) for f in cells]
                if all(y is not None for y in ys):
                    ax.plot(xs, ys, marker="o", label=lang)
        for ax, title in zip(axes, ("TA (slice)", "TA-offline")):
            ax.set_xlabel("training examples")
            ax.set_ylabel(title)
            ax.set_title(f"{title} vs training size (implicit EL)")
            ax.grid(alpha=0.3)
            ax.legend()
        fig.tight_layout()
        fig.savefig(out / "sample_efficiency.png", dpi=110)
        plt.close(fig)
        made.append("sample_efficiency.png")
    # languages at the largest size (Table 4/5 shape)
    implicit = [f for f in figures if f["el"] == "implicit"]
    if implicit:
        # the train size at which the most languages were run (then the largest such size)
        sizes = {f["train_size"] for f in implicit}
        top = max(sizes, key=lambda n: (sum(f["train_size"] == n for f in implicit), n))
        cells = [f for f in implicit if f["train_size"] == top]
        metrics = ("bleu", "meteor", "rouge2", "exact_match", "ta_offline", "ta")
        fig, ax = plt.subplots(figsize=(10, 4))
        width = 0.8 / max(len(cells), 1)
        for i, f in enumerate(cells):
            ax.bar([j + i * width for j in range(len(metrics))], [f.get(m) or 0 for m in metrics],
                   width, label=f["language"])
        ax.set_xticks([j + width * (len(cells) - 1) / 2 for j in range(len(metrics))])
        ax.set_xticklabels([HEADERS[m] for m in metrics])
        ax.set_ylim(0, 1)
        ax.set_title(f"metrics by language (implicit EL, {top} training examples; missing = not applicable)")
        ax.legend()
        fig.tight_layout()
        fig.savefig(out / "languages.png", dpi=110)
        plt.close(fig)
        made.append("languages.png")
    # EL variants (Table 2 shape)
    by_el = {}
    for f in figures:
        by_el.setdefault((f["language"], f["train_size"]), {})[f["el"]] = f
    el_groups = {k: v for k, v in by_el.items() if len(v) > 1}
    if el_groups:
        fig, ax = plt.subplots(figsize=(8, 4))
        order = ("none", "explicit", "implicit", "hybrid")
        width = 0.8 / len(el_groups)
        for i, ((lang, size), cells) in enumerate(sorted(el_groups.items())):
            ys = []
            for el in order:
                value, _ = _primary(cells[el]) if el in cells else (None, None)
                ys.append(value or 0)
            ax.bar([j + i * width for j in range(len(order))], ys, width, label=f"{lang} (n={size})")
        ax.set_xticks([j + width * (len(el_groups) - 1) / 2 for j in range(len(order))])
        ax.set_xticklabels(["w/o EL", "explicit", "implicit", "hybrid"])
        ax.set_ylabel("TA (slice), else TA-offline")
        ax.set_title("EL variants")
        ax.legend()
        fig.tight_layout()
        fig.savefig(out / "el_variants.png", dpi=110)
        plt.close(fig)
        made.append("el_variants.png")
    return made
