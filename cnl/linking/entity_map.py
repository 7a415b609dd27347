"""EntityMap (BridgeKGLM §3.1): unique label → QID, built while passing over a dataset.

Labels shared by different QIDs are made unique with a number suffix ("Twilight",
"Twilight 2", …); entity-linker candidates are added when their probability is above a
threshold (0.1 by default, as in the paper).
"""
from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Iterable

from cnl.errors import DataError, LinkingError

DEFAULT_THRESHOLD = 0.1


class EntityMap:
    def __init__(self) -> None:
        self.label_to_qid: dict[str, str] = {}
        self._keys_of_qid: dict[str, list[str]] = {}
        self._vectors = None

    def __len__(self) -> int:
        return len(self.label_to_qid)

    def __contains__(self, label: str) -> bool:
        return label in self.label_to_qid

    def __getitem__(self, label: str) -> str:
        return self.label_to_qid[label]

    def copy(self) -> "EntityMap":
        """An independent map with the same entries (and the same cached key embeddings)."""
        other = EntityMap()
        other.label_to_qid = dict(self.label_to_qid)
        other._keys_of_qid = {qid: list(keys) for qid, keys in self._keys_of_qid.items()}
        other._vectors = self._vectors
        return other

    def keys(self) -> list[str]:
        return list(self.label_to_qid)

    def add(self, label: str, qid: str) -> str:
        """The key under which ``qid`` is stored for ``label`` (existing, or new and unique)."""
        label = " ".join(label.split())
        if not label or not qid:
            raise LinkingError(f"an EntityMap entry needs a label and a QID, got {label!r} → {qid!r}")
        for key in self._keys_of_qid.get(qid, ()):
            if key == label or key.rsplit(" ", 1)[0] == label and key.rsplit(" ", 1)[-1].isdigit():
                return key
        key, n = label, 1
        while key in self.label_to_qid:
            n += 1
            key = f"{label} {n}"
        self.label_to_qid[key] = qid
        self._keys_of_qid.setdefault(qid, []).append(key)
        self._vectors = None
        return key

    def add_pairs(self, pairs: Iterable[tuple[str, str]]) -> "EntityMap":
        """Gold (label, QID) pairs, e.g. the ECAI alignment of SQUALL labels to gold QIDs."""
        for label, qid in pairs:
            self.add(label, qid)
        return self

    def add_candidates(self, candidates: Iterable, threshold: float = DEFAULT_THRESHOLD) -> "EntityMap":
        """Linker candidates (objects with label/id/score, or ECAI dicts with Label/ID/Probability)."""
        for c in candidates:
            if isinstance(c, dict):
                label, qid, p = c.get("Label") or c.get("label"), c.get("ID") or c.get("id"), \
                    c.get("Probability", c.get("score", 0.0))
            else:
                label, qid, p = c.label, c.id, c.score
            if label and qid and float(p) > threshold:
                self.add(label, qid)
        return self

    @classmethod
    def from_ecai(cls, path: Path, threshold: float = DEFAULT_THRESHOLD, target: str = "SQUALL") -> "EntityMap":
        """The ReFinED candidates listed in the prompts of an ECAI CNL_KGQA split."""
        try:
            records = json.loads(Path(path).read_text())[target]
        except (OSError, ValueError, KeyError) as err:
            raise DataError(f"cannot read ECAI records from {path}: {err}") from None
        emap = cls()
        for record in records:
            emap.add_candidates(ecai_candidates(record["prompt"]), threshold)
        return emap

    def save(self, path: Path) -> None:
        Path(path).write_text(json.dumps(self.label_to_qid, ensure_ascii=False, indent=1))

    @classmethod
    def load(cls, path: Path) -> "EntityMap":
        try:
            data = json.loads(Path(path).read_text())
        except (OSError, ValueError) as err:
            raise DataError(f"cannot read the EntityMap {path}: {err}") from None
        emap = cls()
        for key, qid in data.items():
            emap.label_to_qid[key] = qid
            emap._keys_of_qid.setdefault(qid, []).append(key)
        return emap

    # --- nearest key by embedding (explicit EL) -----------------------------------------------

    def nearest(self, labels: list[str], cache_file: Path | None = None) -> list[tuple[str, float]]:
        """For each label, the most cosine-similar key (all-MiniLM-L6-v2) and the similarity."""
        from cnl.linking.embeddings import embed, embed_cached

        if not self.label_to_qid:
            raise LinkingError("the EntityMap is empty: nothing to correct labels against")
        keys = self.keys()
        out: list[tuple[str, float] | None] = [(l, 1.0) if l in self.label_to_qid else None for l in labels]
        todo = [i for i, o in enumerate(out) if o is None]
        if todo:  # exact keys need no embeddings (nor the model)
            if self._vectors is None:
                self._vectors = embed_cached(keys, cache_file)
            sims = embed([labels[i] for i in todo]) @ self._vectors.T
            for row, i in enumerate(todo):
                best = int(sims[row].argmax())
                out[i] = (keys[best], float(sims[row, best]))
        return out


def ecai_candidates(prompt: str) -> list[dict]:
    """The `Entities: [...]` list of an ECAI prompt (a Python literal)."""
    marker = "Entities:"
    at = prompt.find(marker)
    if at < 0:
        return []
    text = prompt[at + len(marker):].split("\n", 1)[0].strip()
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return []
    return value if isinstance(value, list) else []
