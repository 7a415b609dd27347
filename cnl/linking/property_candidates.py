"""Property candidates for a question, as the paper gives entity candidates: the top-k Wikidata
properties by

* embedding similarity (all-MiniLM-L6-v2) between the question and each property's label,
  each of its aliases (the best one counts) and its label with aliases;
* the properties of the most similar solved questions (a pool of training questions with
  the properties of their targets: "who is justin bieber's brother" finds "who are X's
  siblings" and its ``sibling``), weighted by their similarity;
* how often a property was used in the pool (a prior: log count);
* with a KG, the properties around the question's linked entities (statements of theirs,
  forwards, backwards and their qualifiers).

Properties come from the list shipped with the package (``cnl.sparql.wikidata_properties``),
less those no question asks for (external identifiers, media, URLs, lexemes). The pool is
saved beside an adapter trained with property candidates (``property_pool.json``), so
inference builds the same prompts on a machine without the data. Weights were tuned on the
WikiWebQuestions dev split only (``scripts/property_recall.py``).
"""
from __future__ import annotations

import json
import math
import threading
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from cnl.errors import DataError
from cnl.linking.cache import cache_root
from cnl.sparql.namespaces import P, PQ, WD, WDT

SKIPPED_DATATYPES = frozenset({"ExternalId", "CommonsMedia", "Url", "Math", "MusicalNotation", "TabularData",
                               "GeoShape", "WikibaseLexeme", "WikibaseSense", "WikibaseForm"})
# Weights of the score's parts (tuned on the WikiWebQuestions dev split: recall@10).
NEIGHBOUR_WEIGHT = 0.2
PRIOR_WEIGHT = 0.03
AROUND_WEIGHT = 0.1
NEIGHBOURS = 10
MAX_ALIASES = 10


@dataclass(frozen=True)
class PropertyCandidate:
    id: str
    label: str
    score: float
    aliases: tuple[str, ...] = ()

    def to_dict(self) -> dict:
        return {"id": self.id, "label": self.label, "score": self.score}


@dataclass(frozen=True)
class Solved:
    """A solved question of the pool and the properties its target uses."""
    question: str
    properties: tuple[str, ...]


class PropertyRetriever:
    """Top-k property candidates of a question (see the module). ``pool``: solved questions
    (their properties as PIDs; an inverse ``^P`` counts as P)."""

    def __init__(self, pool=(), properties=None, *, cache_dir: Path | None = None, descriptions: bool = False):
        """``descriptions``: the label-with-aliases text also carries the property's description
        (measured in scripts/property_recall.py --descriptions; not what the shipped adapter was
        trained with)."""
        from cnl.sparql.wikidata_properties import wikidata_properties

        if properties is None:
            properties = [p for p in wikidata_properties() if p.label and p.datatype not in SKIPPED_DATATYPES]
        self.properties = list(properties)
        self.position = {p.id: i for i, p in enumerate(self.properties)}
        self.pool = [Solved(s.question, tuple(pid.lstrip("^") for pid in s.properties)) for s in pool]
        counts = Counter(pid for s in self.pool for pid in s.properties)
        self.prior = [math.log1p(counts.get(p.id, 0)) for p in self.properties]
        self.cache_dir = cache_dir or cache_root() / "property-candidates"
        self.descriptions = descriptions
        self._names = None
        self._owner = None
        self._whole = None
        self._pool_vectors = None
        self._text_lists = None
        # concurrent first requests (a server) compute the embeddings once, not once each
        self._lock = threading.RLock()

    def prepare(self) -> "PropertyRetriever":
        """Compute (or read from the cache) every embedding now rather than on the first question."""
        self._vectors()
        self._pool_matrix()
        return self

    # -- embeddings (computed once, cached on disk) ----------------------------------------
    def _vectors(self):
        with self._lock:
            return self._compute_vectors()

    def _texts(self) -> tuple[list[str], list[int], list[str]]:
        """What is embedded: each property's label and aliases (with the property each names),
        and each property's label with its aliases (and description) as one text."""
        if self._text_lists is None:
            self._text_lists = self._build_texts()
        return self._text_lists

    def _build_texts(self) -> tuple[list[str], list[int], list[str]]:
        texts, owner = [], []
        for i, p in enumerate(self.properties):
            for name in (p.label, *p.aliases[:MAX_ALIASES]):
                texts.append(name)
                owner.append(i)
        whole = [p.label + (" (" + ", ".join(p.aliases[:8]) + ")" if p.aliases else "")
                 + (": " + p.description if self.descriptions and p.description else "") for p in self.properties]
        return texts, owner, whole

    def _embedding_files(self, texts=None, whole=None) -> list[tuple[list[str], Path, str]]:
        """(texts, cache file, what a progress bar calls them) of each embedding the retriever uses."""
        if texts is None or whole is None:
            texts, _owner, whole = self._texts()
        return [(texts, self.cache_dir / "names.npy", f"embedding {len(self.properties):,} properties' names (once)"),
                (whole, self.cache_dir / "whole.npy", "embedding the properties with their aliases (once)"),
                ([s.question for s in self.pool], self.cache_dir / "pool.npy",
                 f"embedding {len(self.pool):,} solved questions (once)")]

    def is_prepared(self) -> bool:
        """Whether every embedding is already on disk (``prepare`` then only reads them)."""
        from cnl.linking.embeddings import cache_path

        return all(cache_path(texts, file).exists() for texts, file, _ in self._embedding_files())

    def _compute_vectors(self):
        if self._names is None:
            import numpy as np

            from cnl.linking.embeddings import embed_cached

            texts, owner, whole = self._texts()
            (_, names_file, said), (_, whole_file, said_whole), _ = self._embedding_files(texts, whole)
            self._names = embed_cached(texts, names_file, description=said)
            self._owner = np.array(owner)
            self._whole = embed_cached(whole, whole_file, description=said_whole)
        return self._names, self._owner, self._whole

    def _pool_matrix(self):
        with self._lock:
            if self._pool_vectors is None:
                from cnl.linking.embeddings import embed_cached

                questions, pool_file, said = self._embedding_files((), ())[2]
                self._pool_vectors = embed_cached(questions, pool_file, description=said)
            return self._pool_vectors

    # -- retrieval --------------------------------------------------------------------------
    def scores(self, questions: list[str], *, around=None, exclude=None):
        """(len(questions) x properties) scores. ``around``: per question, the PIDs around its
        entities (or None); ``exclude``: per question, a pool question to leave out (training:
        its own)."""
        import numpy as np

        from cnl.linking.embeddings import embed

        names, owner, whole = self._vectors()
        q = embed(list(questions))
        best = np.full((len(questions), len(self.properties)), -1.0, dtype=np.float32)
        sims = q @ names.T
        for row in range(len(questions)):
            np.maximum.at(best[row], owner, sims[row])
        score = 0.5 * best + 0.5 * (q @ whole.T) + PRIOR_WEIGHT * np.asarray(self.prior, dtype=np.float32)
        if self.pool:
            near = q @ self._pool_matrix().T
            for row, question in enumerate(questions):
                skip = exclude[row] if exclude else None
                taken = 0
                for n in np.argsort(-near[row]):
                    if skip is not None and self.pool[n].question == skip:
                        continue
                    for pid in self.pool[n].properties:
                        if pid in self.position:
                            score[row, self.position[pid]] += NEIGHBOUR_WEIGHT * near[row, n]
                    taken += 1
                    if taken >= NEIGHBOURS:
                        break
        for row, pids in enumerate(around or ()):
            for pid in pids or ():
                if pid in self.position:
                    score[row, self.position[pid]] += AROUND_WEIGHT
        return score

    def candidates(self, question: str, k: int = 10, *, around=None, exclude: str | None = None) -> list[PropertyCandidate]:
        """The ``k`` best properties for ``question``, best first."""
        return self.batch([question], k, around=[around] if around is not None else None,
                          exclude=[exclude] if exclude is not None else None)[0]

    def batch(self, questions: list[str], k: int = 10, *, around=None, exclude=None) -> list[list[PropertyCandidate]]:
        import numpy as np

        if not questions:
            return []
        score = self.scores(questions, around=around, exclude=exclude)
        out = []
        for row in range(len(questions)):
            top = np.argsort(-score[row])[:k]
            out.append([PropertyCandidate(self.properties[i].id, self.properties[i].label,
                                          round(float(score[row, i]), 4), tuple(self.properties[i].aliases))
                        for i in top])
        return out

    # -- the pool beside an adapter ---------------------------------------------------------
    def save_pool(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps([[s.question, list(s.properties)] for s in self.pool], ensure_ascii=False,
                                         indent=0), encoding="utf-8")

    @classmethod
    def shared(cls, path: str | Path) -> "PropertyRetriever":
        """The retriever of the pool at ``path``, loaded once per process (the one-time
        preparations and the translator ask for the same one)."""
        path = Path(path).resolve()
        key = (str(path), path.stat().st_mtime_ns if path.exists() else 0)
        with _SHARED_LOCK:
            if key not in _SHARED:
                _SHARED[key] = cls.load_pool(path)
            return _SHARED[key]

    @classmethod
    def load_pool(cls, path: str | Path, **options) -> "PropertyRetriever":
        try:
            items = json.loads(Path(path).read_text(encoding="utf-8"))
            return cls([Solved(q, tuple(pids)) for q, pids in items], **options)
        except (OSError, ValueError, TypeError) as err:
            raise DataError(f"cannot read the property pool {path}: {err}") from None


_SHARED: dict = {}
_SHARED_LOCK = threading.Lock()


def properties_around(kg, entity_ids) -> set[str]:
    """PIDs of the statements of ``entity_ids`` in ``kg`` (as subject or object, and the
    qualifiers of their statements): one query for all of them (each query a store runs is
    also parsed and checked, a cost per query on a cold start)."""
    items = " ".join(f"<{WD}{qid}>" for qid in dict.fromkeys(entity_ids) if qid.startswith("Q") and qid[1:].isdigit())
    if not items:
        return set()
    sparql = (f"SELECT DISTINCT ?p WHERE {{ VALUES ?item {{ {items} }} "
              f"{{ ?item ?p ?o }} UNION {{ ?s ?p ?item }} UNION "
              f"{{ ?item ?x ?st . ?st ?p ?v FILTER(STRSTARTS(STR(?p), \"{PQ}\")) }} }} LIMIT 5000")
    try:
        rows = kg.select(sparql).rows
    except Exception:  # noqa: BLE001 - a failing KG gives no hint, not an error
        return set()
    found: set[str] = set()
    for (p,) in rows:
        iri = getattr(p, "value", str(p))
        for namespace in (WDT, PQ, P):
            if iri.startswith(namespace):
                found.add(iri[len(namespace):])
                break
    return found


__all__ = ["PropertyRetriever", "PropertyCandidate", "Solved", "properties_around", "SKIPPED_DATATYPES"]
