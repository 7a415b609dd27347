"""Retrieved demonstrations for the learned parser's prompt.

A 135M model copies the shape of a similar solved question far more reliably than it invents
one. :class:`DemoPool` holds the training questions with their targets and finds, for a new
question, the most similar ones by TF-IDF cosine over the question's *structure words*: names
(capitalized words after the first) and numbers are masked, so "How many Star Trek movies has
Chris Pine been in?" retrieves other "how many ... movies ... been in" questions, whatever the
entities. The pool is saved beside an adapter trained with it (``demos.json``), so inference
builds the same prompts on a machine without the data.
"""
from __future__ import annotations

import json
import math
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from cnl.errors import DataError

_TOKEN = re.compile(r"[A-Za-z][A-Za-z'\-]*|[0-9]+")


def structure_tokens(question: str) -> list[str]:
    """Lower-cased words of ``question`` with names and numbers masked, plus bigrams."""
    words = []
    for i, m in enumerate(_TOKEN.finditer(question)):
        w = m.group()
        if w[0].isdigit():
            words.append("<num>")
        elif i > 0 and w[0].isupper():
            if not words or words[-1] != "<name>":
                words.append("<name>")
        else:
            words.append(w.lower())
    return words + [f"{a} {b}" for a, b in zip(words, words[1:])]


@dataclass(frozen=True)
class Demo:
    question: str
    completion: str


class DemoPool:
    """Solved questions, searchable by structural similarity."""

    def __init__(self, demos: list[Demo]):
        self.demos = list(demos)
        docs = [Counter(structure_tokens(d.question)) for d in self.demos]
        df = Counter(t for doc in docs for t in doc)
        n = max(len(docs), 1)
        self.idf = {t: math.log((1 + n) / (1 + c)) + 1.0 for t, c in df.items()}
        self.vectors = [self._vector(doc) for doc in docs]

    @classmethod
    def from_examples(cls, examples) -> "DemoPool":
        return cls([Demo(e.question, e.completion) for e in examples])

    def _vector(self, counts: Counter) -> dict:
        vec = {t: (1 + math.log(c)) * self.idf.get(t, 0.0) for t, c in counts.items()}
        norm = math.sqrt(sum(v * v for v in vec.values())) or 1.0
        return {t: v / norm for t, v in vec.items() if v}

    def nearest(self, question: str, k: int, exclude: str | None = None) -> list[Demo]:
        """The ``k`` most similar demos, most similar last (nearest the question in the
        prompt); ``exclude`` leaves out a demo with that very question (training)."""
        if k <= 0:
            return []
        query = self._vector(Counter(structure_tokens(question)))
        scored = []
        for i, (demo, vec) in enumerate(zip(self.demos, self.vectors)):
            if exclude is not None and demo.question == exclude:
                continue
            sim = sum(w * vec.get(t, 0.0) for t, w in query.items())
            scored.append((sim, -i, demo))
        scored.sort(key=lambda s: (s[0], s[1]), reverse=True)
        return [d for _, _, d in reversed(scored[:k])]

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps([[d.question, d.completion] for d in self.demos], ensure_ascii=False,
                                         indent=0), encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> "DemoPool":
        try:
            items = json.loads(Path(path).read_text(encoding="utf-8"))
            return cls([Demo(q, c) for q, c in items])
        except (OSError, ValueError, TypeError) as err:
            raise DataError(f"cannot read the demonstration pool {path}: {err}") from None


__all__ = ["Demo", "DemoPool", "structure_tokens"]
