"""The four entity-linking variants of BridgeKGLM (§3.1), as functions the model code calls.

* none:     prompt without entity information, output used as generated;
* implicit: candidates rendered into the prompt (Figure 3 label-based, Figure 4 ID-based);
* explicit: no candidates in the prompt; after generation every entity label in the CNL is
            replaced by the most cosine-similar EntityMap key (all-MiniLM-L6-v2);
* hybrid:   both.
"""
from __future__ import annotations

import re
from typing import Iterable

from cnl.errors import LinkingError
from cnl.linking.entity_map import EntityMap

VARIANTS = ("none", "implicit", "explicit", "hybrid")

INSTRUCTION = ("You are an expert language parser and you are able to convert from Natural Question to "
               "{language} query. Below are the <Question> and <Entity Linking Information> defined for "
               "you to create the query.")

# Label-based notation: entities and classes in [..], properties in <..>. ECAI notation: <Label_with_underscores>,
# properties as <P123:label>.
_LABEL_ENTITY = re.compile(r"\[([^\[\]]+)\]")
_ECAI_TERM = re.compile(r"<([^<>:]+)>")
_ECAI_CLASS_AFTER = re.compile(r"(?i)\b(which|how many|what)\s+$")


def _article(text: str) -> str:
    return "an" if text[:1].lower() in "aeiou" else "a"


def _field(c, name: str):
    return c.get(name) if isinstance(c, dict) else getattr(c, name)


def entity_linking_block(candidates: Iterable, style: str = "label") -> str:
    """The paper's entity-linking text: one paragraph per text span, candidates in brackets."""
    if style not in ("label", "id"):
        raise LinkingError(f"unknown prompt style {style!r}: use 'label' (Figure 3) or 'id' (Figure 4)")
    by_span: dict[str, list] = {}
    for c in candidates:
        by_span.setdefault(_field(c, "mention"), []).append(c)
    if not by_span:
        return "The entity linking on the above mentioned question gave no entities."
    parts = ["The entity linking on the above mentioned question gave the following entities as results:"]
    for mention, cands in by_span.items():
        items = []
        for c in cands:
            name = _field(c, "label") if style == "label" else _field(c, "id")
            desc = _field(c, "description") or ""
            desc = f", {_article(desc)} {desc}" if desc else ""
            items.append(f"[The entity <{name}>{desc}, was identified with a probability {_field(c, 'score'):.4g}]")
        parts.append(f"For the text span {mention} the candidates within square brackets are below:\n"
                     + ",\n".join(items))
    return "\n\n".join(parts)


def build_prompt(question: str, candidates: Iterable = (), *, variant: str = "implicit",
                 language: str = "SQUALL", style: str = "label") -> str:
    """The full prompt: instruction, question and (implicit, hybrid) entity-linking information."""
    if variant not in VARIANTS:
        raise LinkingError(f"unknown EL variant {variant!r}: use one of {', '.join(VARIANTS)}")
    sections = ["###\n" + INSTRUCTION.format(language=language), f"###Question:\n{question}"]
    if variant in ("implicit", "hybrid"):
        sections.append("###Entity Linking Information:\n" + entity_linking_block(candidates, style))
    sections.append("###Answer:\n")
    return "\n\n".join(sections)


def entity_labels(cnl: str, notation: str = "label") -> list[tuple[int, int, str]]:
    """(start, end, label) of each entity label in a CNL string.

    ``label`` notation: the ``[Label]`` terms the SQUALL parser reads as entities (``[film]`` in
    "Which [film] ..." is a class and stays); every ``[Label]`` when the text does not parse.
    ``ecai`` notation: ``<Label_with_underscores>`` except
    properties (``<P123:…>``, excluded by the pattern), the class right after Which/How many/What,
    and lower-case terms (classes and properties like ``<part>``): a heuristic for that data.
    """
    if notation == "label":
        everything = [(m.start(1), m.end(1), m.group(1)) for m in _LABEL_ENTITY.finditer(cnl)]
        entity_spans = _parsed_entity_spans(cnl)
        if entity_spans is None:
            return everything
        return [item for item in everything if (item[0] - 1, item[1] + 1) in entity_spans]
    if notation != "ecai":
        raise LinkingError(f"unknown CNL notation {notation!r}: use 'label' or 'ecai'")
    out = []
    for m in _ECAI_TERM.finditer(cnl):
        label = m.group(1)
        if not label[:1].isupper() and not label[:1].isdigit():
            continue
        if _ECAI_CLASS_AFTER.search(cnl[:m.start()]):
            continue
        out.append((m.start(1), m.end(1), label.replace("_", " ")))
    return out


def _parsed_entity_spans(cnl: str) -> set | None:
    """Spans of the entity terms of a label-notation SQUALL text, or None if it does not parse."""
    from cnl.errors import CNLError
    from cnl import ir
    from cnl.dialects.squall.parser import parse_squall

    try:
        query = parse_squall(cnl, notation="label")
    except CNLError:
        return None
    except Exception:  # noqa: BLE001 - a parser callback failing on odd model output
        return None
    return {node.span for node in ir.walk(query) if isinstance(node, ir.Entity) and node.span}


def explicit_correct(cnl: str, entity_map: EntityMap, *, notation: str = "label",
                     min_similarity: float = 0.0) -> str:
    """Replace every entity label by its most similar EntityMap key (the paper always replaces)."""
    found = entity_labels(cnl, notation)
    if not found:
        return cnl
    nearest = entity_map.nearest([label for _, _, label in found])
    out, last = [], 0
    for (start, end, label), (key, sim) in zip(found, nearest):
        replacement = key if sim >= min_similarity else label
        if notation == "ecai":
            replacement = replacement.replace(" ", "_")
        out.append(cnl[last:start] + replacement)
        last = end
    return "".join(out) + cnl[last:]


def prompt_for(variant: str, question: str, candidates: Iterable = (), **kw) -> str:
    return build_prompt(question, candidates if variant in ("implicit", "hybrid") else (), variant=variant, **kw)


def postprocess(variant: str, generated: str, entity_map: EntityMap | None = None, **kw) -> str:
    """What to do with the model output: explicit/hybrid correct labels, none/implicit keep it."""
    if variant in ("explicit", "hybrid"):
        if entity_map is None:
            raise LinkingError(f"the {variant} EL variant needs an EntityMap")
        return explicit_correct(generated, entity_map, **kw)
    if variant not in VARIANTS:
        raise LinkingError(f"unknown EL variant {variant!r}: use one of {', '.join(VARIANTS)}")
    return generated
