"""How the grammar holds up when writers vary the SQUALL it reads: the ECAI SQUALL strings that
parse, each varied the ways other writers vary such text (tense, agreement, optional words,
synonyms of comparison words, punctuation), and each variant parsed again.

    python scripts/writer_variants_report.py [--list N]

Every variation keeps the meaning, so a variant must not only parse but mean what the string it
came from means: the report counts, per variation, the variants that parse and those whose
query is equivalent to the original's (compiled with the ECAI profile, compared by
``cnl.sparql.equivalence``). A variant that parses into another meaning is a silent change and
is listed. ``--list N`` shows up to N failing
variants of each variation with the parser's reason.

The variations are English (or SQUALL) rules, applied wherever they match; nothing here is about
a particular string. The ECAI data is read from ``CNL_DATA_DIR`` (``../shared/data``).
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

SUPERLATIVES = r"highest|lowest|earliest|latest|largest|smallest|most|least|longest|shortest"

# name -> (what writers do, the rewrite); each keeps the text's meaning
VARIATIONS = {
    "lower-case question word": lambda t: re.sub(r"^(Which|What|Who|How|Give|Is|Has|Does|At)\b",
                                                 lambda m: m.group(1).lower(), t),
    "no question mark": lambda t: t.rstrip(" ?."),
    "full stop for the question mark": lambda t: t.rstrip(" ?.") + ".",
    "space before the question mark": lambda t: (t[:-1].rstrip() + " ?" if t.endswith("?")
                                                 and not t[:-1].rstrip().endswith(".") else t),
    "past tense of has": lambda t: re.sub(r"\bhas\b(?!-)", "had", t),
    "past tense of is": lambda t: re.sub(r"\bis\b", "was", t),
    "past tense of does": lambda t: re.sub(r"\bdoes\b", "did", t),
    "superlative without the": lambda t: re.sub(rf"\bthe (\d+(?:st|nd|rd|th) )?({SUPERLATIVES})\b", r"\1\2", t),
    "has not for has no": lambda t: re.sub(r"\bhas no\b", "has not", t),
    "does not have for has not": lambda t: re.sub(r"\bhas not\b", "does not have", t),
    "more than for greater than": lambda t: re.sub(r"\bgreater than\b", "more than", t),
    "bigger than for greater than": lambda t: re.sub(r"\bgreater than\b", "bigger than", t),
    "before for earlier than": lambda t: re.sub(r"\bearlier than\b", "before", t),
    "after for later than": lambda t: re.sub(r"\blater than\b", "after", t),
    "which for that": lambda t: re.sub(r"\bthat (has|is)\b", r"which \1", t, count=1),
    "serial comma": lambda t: re.sub(r" and (has|is)\b", r", and \1", t, count=1),
    "whose year is equal to": lambda t: re.sub(r"\bwhose year is (\d{3,4})\b", r"whose year is equal to \1", t),
    "an before a vowel": lambda t: re.sub(r"\ba <([AEIOUaeiou])", r"an <\1", t),
    "plural class after How many": lambda t: re.sub(r"^How many <([^<>]+)>(?!-s)", r"How many <\1>-s", t),
    "Who for What before is the": lambda t: re.sub(r"^What is the\b", "Who is the", t),
    "What are for What is": lambda t: re.sub(r"^What is the\b", "What are the", t),
    "double spaces": lambda t: re.sub(r' (?=(?:[^"]*"[^"]*")*[^"]*$)', "  ", t),  # outside strings
    "What's for What is": lambda t: re.sub(r"^What is\b", "What's", t),
    "biggest for highest": lambda t: re.sub(r"\bhighest\b", "biggest", t),
    "upper-case keywords": lambda t: re.sub(r"\b(Which|has|that|is|and|the|of|What)\b(?![-:])",
                                            lambda m: m.group(1).upper(), t),
    "plural class after Which": lambda t: re.sub(r"^Which <([^<>]+)> (?!-)", r"Which <\1>-s ", t),
    "Does X have for Has X": lambda t: re.sub(r"^Has (<[^<>]+>) (an?|the) ", r"Does \1 have \2 ", t),
    "no article before a described property": lambda t: re.sub(r"\bhas an? (<[^<>]+>) (whose|that)\b", r"has \1 \2", t),
    "no article before a property with no value": lambda t: re.sub(
        r"\bhas an? (<[^<>]+>)(?=\s*(?:[?.,)]|$| and\b| or\b| at\b))", r"has \1", t),
    "Does X has for Has X": lambda t: re.sub(r"^Has (<[^<>]+>) (an?|the) ", r"Does \1 has \2 ", t),
    "has left out after and": lambda t: re.sub(r"(\bhas <[^<>]+> <[^<>]+>) and has (<[^<>]+> <[^<>]+>)", r"\1 and \2", t),
    "is <P> for is-<P>": lambda t: re.sub(r"\b(is|are|was|were)-<", r"\1 <", t),
    "a comma for and has": lambda t: re.sub(r"(\bhas <[^<>]+> <[^<>]+>) and has (<[^<>]+> <[^<>]+>)", r"\1, \2", t),
}


class _Any:
    """Reads every label as an ID of its own: the meaning of a text, not its KG, is compared."""

    def resolve(self, label, kind, span=None):
        return ("P" if kind == "property" else "Q") + str(abs(hash(label)) % 10**9)


def _reading(text: str, notation: str):
    """(the text's query, None) or (None, the parser's reason)."""
    from cnl.api import compile as compile_cnl
    from cnl.errors import CNLError

    try:
        return compile_cnl(text, dialect="squall", notation=notation, kg="wikidata-ecai", lexicon=_Any()), None
    except CNLError as err:
        return None, str(err).splitlines()[0]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--list", type=int, default=0, metavar="N", help="show up to N failing variants of each")
    args = ap.parse_args(argv)

    from cnl.datasets.ecai.loader import load_ecai
    from cnl.sparql.equivalence import equivalent

    originals = []
    for record in load_ecai("train") + load_ecai("test"):
        text = " ".join(record.squall.split())
        reading, _ = _reading(text, "ecai")
        if reading is not None:
            originals.append((text, reading))
    print(f"{len(originals)} ECAI SQUALL strings parse and compile; each varied as below and compiled again")
    print(f"{'variation':34s} {'varied':>6s} {'parse':>6s} {'same meaning':>12s}")
    totals = [0, 0, 0]
    changed_meaning, failures = [], {}
    for name, vary in VARIATIONS.items():
        varied = parsed = same = 0
        for text, reading in originals:
            variant = vary(text)
            if variant == text:
                continue
            varied += 1
            other, error = _reading(variant, "ecai")
            if other is None:
                failures.setdefault(name, []).append((variant, error))
                continue
            parsed += 1
            if other == reading or equivalent(other, reading):
                same += 1
            else:
                changed_meaning.append((name, text, variant))
        totals = [totals[0] + varied, totals[1] + parsed, totals[2] + same]
        print(f"{name:34s} {varied:6d} {parsed:6d} {same:12d}")
    varied, parsed, same = totals
    print(f"{'all':34s} {varied:6d} {parsed:6d} {same:12d}   parse {parsed / varied:.1%}, "
          f"same meaning {same / varied:.1%}")
    for name, text, variant in changed_meaning:
        print(f"means otherwise ({name}): {variant}\n    than {text}")
    if args.list:
        for name, found in failures.items():
            for variant, error in found[:args.list]:
                print(f"rejected ({name}): {variant}\n    {error}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
