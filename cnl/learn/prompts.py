"""The learned parser's prompts (BridgeKGLM §4, Figures 3/4): instruction, question,
entity-linking information for the implicit/hybrid EL variants, and the answer marker."""
from __future__ import annotations

from cnl.errors import DataError
from cnl.linking.el_variants import build_prompt as paper_prompt

TARGETS = ("squall", "sparklis", "sparql")
NOTATIONS = ("label", "id")
EL_VARIANTS = ("none", "implicit", "explicit", "hybrid")
PROMPT_STYLES = ("compact", "paper")
# Where a SQUALL target comes from: the data's SQUALL annotation, or the gold SPARQL (the
# annotation where it compiles to the gold, else the gold decompiled and printed; see
# cnl.learn.examples.gold_squall). The two disagree for about a third of the ECAI questions.
SQUALL_SOURCES = ("annotation", "gold")

LANGUAGE_NAMES = {"squall": "SQUALL", "sparklis": "Sparklis", "sparql": "SPARQL"}
# Candidates below this linking score are left out of the prompt (the paper's EntityMap
# threshold); at most this many per prompt keeps prompts short for CPU training.
CANDIDATE_THRESHOLD = 0.1
MAX_PROMPT_CANDIDATES = 3


def candidate_field(candidate, *names):
    """The first of ``names`` a candidate has (a dict, or an object with attributes)."""
    for name in names:
        if isinstance(candidate, dict) and name in candidate:
            return candidate[name]
        if hasattr(candidate, name):
            return getattr(candidate, name)
    return None


def candidate_score(candidate) -> float:
    return float(candidate_field(candidate, "probability", "score") or 0.0)


def prompt_candidates(candidates, threshold: float = CANDIDATE_THRESHOLD, limit: int = MAX_PROMPT_CANDIDATES):
    """The candidates worth showing: above the threshold, best first, one per ID."""
    seen, out = set(), []
    for c in sorted(candidates, key=lambda c: -candidate_score(c)):
        cid = candidate_field(c, "id")
        if cid in seen or candidate_score(c) < threshold:
            continue
        seen.add(cid)
        out.append(c)
    return out[:limit]


def build_prompt(question: str, candidates=(), *, el: str = "hybrid", target: str = "squall",
                 notation: str = "label", style: str = "compact", demos=(), properties=()) -> str:
    """The model's prompt. ``paper`` is the exact Figure 3/4 text
    (:func:`cnl.linking.el_variants.build_prompt`); ``compact`` keeps its sections (instruction,
    question, entity-linking information, answer) in about a quarter of the tokens, which
    matters for training on a CPU. ``demos``: solved similar questions
    (:class:`cnl.learn.demos.Demo`) shown first, compact style only. ``properties``: property
    candidates (:class:`cnl.linking.property_candidates.PropertyCandidate`, best first), shown
    as a ``Properties:`` line (compact style; labels in the label notation, IDs in the ID one)."""
    if el not in EL_VARIANTS:
        raise DataError(f"unknown EL variant {el!r}: use one of {', '.join(EL_VARIANTS)}")
    shown = prompt_candidates(candidates) if el in ("implicit", "hybrid") else []
    language = LANGUAGE_NAMES.get(target, target)
    if style == "paper":
        if properties:
            raise DataError("property candidates go into compact prompts only")
        cands = [{"mention": candidate_field(c, "mention") or candidate_field(c, "label"),
                  "label": candidate_field(c, "label"), "id": candidate_field(c, "id"),
                  "description": candidate_field(c, "description"), "score": candidate_score(c)} for c in shown]
        return paper_prompt(question, cands, variant=el, language=language, style=notation)
    if style != "compact":
        raise DataError(f"unknown prompt style {style!r}: use one of {', '.join(PROMPT_STYLES)}")
    # The paper's sections (instruction, question, entity-linking information, answer) with
    # the instruction folded into the answer marker: every prompt token costs training time.
    lines = []
    for demo in demos:
        lines += [f"Example: {demo.question}", f"{language} ({notation}): {demo.completion}"]
    lines.append(f"Question: {question}")
    if el in ("implicit", "hybrid"):
        items = []
        for c in shown:
            name = candidate_field(c, "label") if notation == "label" else candidate_field(c, "id")
            items.append(f"[{name}] {_short(candidate_field(c, 'description') or '')}".rstrip())
        lines.append("Entities: " + ("; ".join(items) if items else "none"))
    if properties:
        names = [candidate_field(p, "label") if notation == "label" else candidate_field(p, "id") for p in properties]
        lines.append("Properties: " + "; ".join(names))
    lines.append(f"{language} ({notation}):")
    return "\n".join(lines) + " "


def _short(text: str, limit: int = 28) -> str:
    if len(text) <= limit:
        return text
    return text[:limit].rsplit(" ", 1)[0]
