"""Entity linking: find mentions in a question and propose KG entities for each.

The built-in linker matches word n-grams against the entity index (exact label, alias, and
fuzzy via rapidfuzz) and scores each candidate with a probability-like number (see
``BuiltinLinker._score``). ReFinED is an optional backend (``get_linker("refined")``).
"""
from __future__ import annotations

import importlib.util
import logging
import math
from dataclasses import asdict, dataclass

from rapidfuzz import fuzz, process

from cnl.errors import LinkingError, OptionalDependencyMissing
from cnl.linking.entity_index import EntityIndex, short_id
from cnl.linking.text import STOPWORDS, token_spans

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Candidate:
    mention: str
    start: int
    end: int
    id: str
    label: str
    description: str
    score: float

    def to_dict(self) -> dict:
        return asdict(self)


class BuiltinLinker:
    """n-gram matching over an EntityIndex.

    ``max_per_mention`` candidates are kept per mention and at most ``max_candidates`` per
    question, all scoring at least ``min_score``.
    """

    def __init__(self, index: EntityIndex, *, max_ngram: int = 8, fuzzy_threshold: float = 88.0,
                 max_per_mention: int = 8, max_candidates: int = 30, min_score: float = 0.02,
                 context_weight: float | None = None) -> None:
        self.index = index
        self.max_ngram = max_ngram
        self.fuzzy_threshold = fuzzy_threshold
        self.max_per_mention = max_per_mention
        self.max_candidates = max_candidates
        self.min_score = min_score
        # None: weigh the context when the embedding model is installed (0 turns it off)
        self.context_weight = CONTEXT_WEIGHT if context_weight is None else context_weight
        self._entity_vectors: dict[int, object] = {}  # entity index -> its label-and-description vector
        self._names = index.names.keys

    def link(self, question: str) -> list[Candidate]:
        words = token_spans(question)
        case_blind = is_case_blind(question)
        if case_blind:
            # no capitals to tell names from common words: every content word may start a name
            words = [w if w[0] in STOPWORDS else (w[0], w[1], w[2], _case_blind_form(w[3])) for w in words]
            words = [(w[0], w[1], w[2], w[3].upper()) if k and words[k - 1][0] in ARTICLES and w[0] in PRONOUNS
                     else w for k, w in enumerate(words)]
        found: dict[tuple[int, int], list[tuple[int, float]]] = {}  # span → (name index, match quality)
        for i in range(len(words)):
            for j in range(i + 1, min(len(words), i + self.max_ngram) + 1):
                gram = words[i:j]
                if all(_is_stop(w) for w in gram) or _is_stop(gram[-1]):
                    continue
                key = " ".join(w[0] for w in gram)
                hits = self._exact(key, gram)
                if _is_stop(gram[0]):  # "the Lion King" only as a whole name
                    if hits:
                        found[(i, j)] = hits
                    continue
                if not hits and self._fuzzy_worthy(gram, key):
                    hits = self._fuzzy(key, gram) + self._partial(key, gram)
                elif hits:
                    # "Harry Potter" may mean "Harry Potter film series": longer names that
                    # contain the mention stay candidates, ranked below the exact matches.
                    exact = {ni for ni, _ in hits}
                    hits = hits + [(ni, q * 0.9) for ni, q in self._partial(key, gram) if ni not in exact][:4]
                if hits:
                    found[(i, j)] = hits
        return self._rank(question, words, found, case_blind)

    def _exact(self, key: str, gram) -> list[tuple[int, float]]:
        acronym = len(gram) == 1 and gram[0][3].isupper() and len(key) >= 2
        name_like = len(gram) > 1 or acronym or gram[0][3][:1].isupper()

        def lookup(k: str, quality: float) -> list[tuple[int, float]]:
            found = [(ni, quality) for ni in self.index.exact.get(k, ())]
            if name_like:
                # article-less forms ("Oscars" for "The Oscars"); acronyms only for all-caps mentions
                found += [(ni, quality * 0.9) for ni in self.index.variants.get(k, ())
                          if acronym or not self._is_acronym_of(k, self.index.names[ni][1])]
                # the same letters with the spaces elsewhere: "NSYNC" is 'N Sync, "U.S." is US,
                # "Babysitters Club" is The Baby-Sitters Club
                squeezed = k.replace(" ", "")
                found += [(ni, quality * 0.9) for ni in self.index.joined.get(squeezed, ())]
                if squeezed != k:
                    found += [(ni, quality * 0.9) for ni in self.index.exact.get(squeezed, ())]
            return found

        hits = lookup(key, 1.0)
        if not hits and key.endswith("s") and len(key) > 4:  # "Oscars" → "Oscar"
            hits = lookup(key[:-1], 0.9)
        if not hits and len(gram) > 1:  # "World War 2" → "World War II", "Super Bowl 42" → "Super Bowl XLII"
            roman = " ".join(_roman(word) for word in key.split())
            if roman != key:
                hits = lookup(roman, 0.95)
        seen: set[int] = set()
        return [(ni, q) for ni, q in hits if not (ni in seen or seen.add(ni))]

    @staticmethod
    def _is_acronym_of(key: str, name: str) -> bool:
        return " " not in key and len(name.split()) > 1 and not name.endswith(key)

    def _partial(self, key: str, gram) -> list[tuple[int, float]]:
        # the mention's words all inside a longer name: "Best Picture" → "Academy Award for Best Picture"
        content = [w[0] for w in gram if w[0] not in STOPWORDS]
        if not content or not all(w[3][:1].isupper() or w[3][:1].isdigit() for w in gram if w[0] not in STOPWORDS):
            return []
        # the little words inside the mention belong to the name too: "president when Bill
        # Clinton" is no "President Bill Clinton", "Lord of the Rings" is "The Lord of the Rings"
        inner = {w[0] for w in gram[1:-1] if w[0] in STOPWORDS}
        out = self._names_containing(content, inner)
        roman = [_roman(w) for w in content]
        if roman != content:  # "Elizabeth 1" inside "Elizabeth I of England", as _exact reads numbers
            seen = {ni for ni, _ in out}
            out += [(ni, q * 0.95) for ni, q in self._names_containing(roman, inner) if ni not in seen]
        # the better match first, and among equals the more used entity ("Liverpool" in
        # "Liverpool F.C." before a rarely mentioned name of the same length)
        return sorted(out, key=lambda h: (h[1], self.index.popularity[self.index.names[h[0]][0]]), reverse=True)[:30]

    def _names_containing(self, content: list[str], inner: set[str] = frozenset()) -> list[tuple[int, float]]:
        postings = sorted((self.index.postings.get(w, []) for w in content), key=len)
        if not postings[0] or len(postings[0]) > 3000:
            return []
        common = set(postings[0]).intersection(*postings[1:])
        labels = self.index.entities.labels
        out = []
        for ni in common:
            ei, key, _ = self.index.names[ni]
            # a concept's name (a label in lower case: "faculty member", "county seat") is no
            # longer form of one word it contains; a proper name is ("Patriots": New England Patriots)
            if len(content) == 1 and labels[ei][:1].islower():
                continue
            words = key.split()
            if not inner <= set(words):
                continue
            # a stop word counts where the mention has it too (the numeral "I" in "Elizabeth I")
            name_words = [w for w in words if w not in STOPWORDS or w in content]
            if len(name_words) > 7:
                continue
            # in the name's order: "Canada's capital" is not "capital city in Canada"; all of the
            # name's words in another order are the name said the other way ("the Shannon river")
            if _in_order(content, name_words):
                out.append((ni, 0.55 + 0.35 * len(content) / max(len(name_words), 1)))
            elif len(content) > 1 and sorted(content) == sorted(name_words):
                out.append((ni, PERMUTED_NAME))
        return out

    @staticmethod
    def _fuzzy_worthy(gram, key: str) -> bool:
        # fuzzy only for name-like n-grams: a capitalised word and enough letters to misspell
        return len(key) >= 5 and any(w[3][:1].isupper() for w in gram) and gram[-1][0] not in STOPWORDS

    def _fuzzy(self, key: str, gram) -> list[tuple[int, float]]:
        # candidates share the gram's rarest non-stopword keyword (or a 4-letter prefix of it),
        # or its second rarest: the rarest may be the misspelt one ("New York Nicks")
        content = [w[0] for w in gram if w[0] not in STOPWORDS]
        pool: set[int] = set()
        for rare in sorted(content, key=lambda w: len(self.index.postings.get(w, ())) or 10**9)[:2]:
            pool.update(self.index.postings.get(rare, ()))
            if len(rare) >= 5:
                for kw in self.index.prefix_keywords(rare[:4], limit=50):
                    pool.update(self.index.postings[kw])
        if not pool or len(pool) > 5000:
            return []
        # as in a partial match, the little words inside the mention belong to the name
        inner = {w[0] for w in gram[1:-1] if w[0] in STOPWORDS}
        pool_list = [ni for ni in pool if not inner or inner <= set(self._names[ni].split())]
        choices = [self._names[ni] for ni in pool_list]
        matches = process.extract(key, choices, scorer=fuzz.ratio, score_cutoff=self.fuzzy_threshold, limit=10)
        return [(pool_list[pos], score / 100 * 0.85) for _, score, pos in matches]

    def _rank(self, question: str, words, found, case_blind: bool = False) -> list[Candidate]:
        spans = sorted(found, key=lambda s: s[0] - s[1])  # longest first
        candidates: list[Candidate] = []
        covered: list[tuple[int, int, float, int]] = []  # a name-like span: its words, best score, content words
        context: dict = {}  # the question's vector, computed once if a mention is ambiguous
        for (i, j) in spans:
            start, end = words[i][1], words[j - 1][2]
            mention = question[start:end]
            content = sum(w[0] not in STOPWORDS for w in words[i:j])
            outer = [(score, n) for a, b, score, n in covered if a <= i and j <= b and (a, b) != (i, j)]
            inside_longer = bool(outer)
            # A part of a longer name that reads well and says more ("Philip" in "Philip Pullman"):
            # its other readings are mostly other people and works sharing a word with it.
            limit = self.max_per_mention
            if any(score >= NESTED_OUTER_SCORE and n > content for score, n in outer):
                limit = min(limit, NESTED_READINGS)
            best: dict[int, float] = {}
            hits = found[(i, j)]
            pops = [self.index.popularity[self.index.names[ni][0]] for ni, _ in hits]
            total = sum(math.log1p(p) + 1 for p in pops)
            for (ni, quality), pop in zip(hits, pops):
                ei, _, alias = self.index.names[ni]
                share = (math.log1p(pop) + 1) / total
                score = self._score(words[i:j], quality, alias, share, pop, inside_longer, case_blind)
                best[ei] = max(best.get(ei, 0.0), score)
            if self.context_weight and len(best) > 1:
                # the context reorders as many readings for each one kept as for a free mention
                best = self._in_context(question, best, context, max(2, CONTEXT_READINGS * limit // self.max_per_mention))
            top = [(ei, score) for ei, score in sorted(best.items(), key=lambda kv: kv[1], reverse=True)[:limit]
                   if score >= self.min_score]
            for ei, score in top:
                e = self.index.entities[ei]
                candidates.append(Candidate(mention, start, end, e.id, e.label, e.description, round(score, 4)))
            if top and any(w[3][:1].isupper() for w in words[i:j]):
                covered.append((i, j, top[0][1], content))
        candidates.sort(key=lambda c: c.score, reverse=True)
        # one candidate per entity, from the mention that reads it best (as a prompt shows them)
        seen: set[str] = set()
        candidates = [c for c in candidates if not (c.id in seen or seen.add(c.id))]
        return candidates[: self.max_candidates]

    def _in_context(self, question: str, best: dict[int, float], context: dict,
                    readings: int = 0) -> dict[int, float]:
        """The scores of one mention's readings moved by how well each entity's label and
        description fit the question ("who is darwin and what is his theory?": the naturalist
        rather than the city; "what cars does gm make?": General Motors rather than George
        Michael), relative to the mention's other readings. Without the embedding model the
        scores stay as they are (said once in the log)."""
        from cnl.linking import embeddings

        ranked = sorted(best.items(), key=lambda kv: kv[1], reverse=True)[:readings or CONTEXT_READINGS]
        try:
            if "question" not in context:
                context["question"] = embeddings.embed([question])[0]
            missing = [ei for ei, _ in ranked if ei not in self._entity_vectors]
            if missing:
                entities = [self.index.entities[ei] for ei in missing]
                vectors = embeddings.embed([e.label + (": " + e.description if e.description else "") for e in entities])
                self._entity_vectors.update(zip(missing, vectors))
        except OptionalDependencyMissing as err:
            log.warning("entity linking without the question's context: %s", err)
            self.context_weight = 0.0
            return best
        sims = [float(self._entity_vectors[ei] @ context["question"]) for ei, _ in ranked]
        mean = sum(sims) / len(sims)
        out = dict(best)
        for (ei, score), sim in zip(ranked, sims):
            logit = math.log(max(score, 1e-6) / max(1 - score, 1e-6)) + self.context_weight * (sim - mean)
            out[ei] = 1 / (1 + math.exp(-logit))
        return out

    def _score(self, gram, quality: float, alias: bool, share: float, popularity: int, inside_longer: bool,
               case_blind: bool = False) -> float:
        """A probability-like score from match quality, ambiguity and how name-like the mention is.

        Hand-set weights, checked against Mintaka (scripts/eval_entity_linking.py prints the
        reliability table): candidates scored ~p are right about p of the time.
        """
        if case_blind:
            # written without capitals: a longer n-gram matching a name is likelier a name
            capitalised = CASE_BLIND_CAPITALISED[min(len(gram), len(CASE_BLIND_CAPITALISED)) - 1]
        else:
            capitalised = sum(w[3][:1].isupper() for w in gram) / len(gram)
        name_like = 0.35 + 0.65 * capitalised
        if len(gram) == 1 and capitalised == 0:
            name_like *= 0.4  # a lone lower-case word ("film", "book") is rarely the entity asked about
        prominence = 0.6 + 0.4 * math.log1p(popularity) / max(self.index.log_pop_max, 1.0)
        logit = (3.0 * quality - (0.4 if alias else 0.0) + 2.2 * share + 1.5 * name_like + 1.0 * prominence
                 + 0.25 * min(len(gram), 4) - (1.2 if inside_longer else 0.0) - 5.0)
        return 1 / (1 + math.exp(-logit))


# How name-like an n-gram of 1, 2, 3+ words is when the question has no capitals to say so.
CASE_BLIND_CAPITALISED = (0.3, 0.8, 1.0)


def is_case_blind(question: str) -> bool:
    """True when ``question`` has no capital letter after its first character ("who directed
    inception?"): its case then says nothing about which words are names."""
    return not any(ch.isupper() for ch in question[1:])


def _case_blind_form(text: str) -> str:
    """How a word of a question without capitals may have been meant: a name ("inception" →
    "Inception"), and a two- or three-letter word that is no common English word may be an
    acronym ("eu", "gm", "usc"; not "go", "won", "war")."""
    if 2 <= len(text) <= 3 and text.isalpha() and text.lower() not in COMMON_SHORT_WORDS:
        return text.upper()
    return text[:1].upper() + text[1:]


# Common English words of two or three letters (besides the stopwords): in a question without
# capitals they are words, not acronyms. Read as acronyms, "go to college" linked George
# Orwell and Gary Oldman (G. O.).
COMMON_SHORT_WORDS = frozenset("""
ad ah am ax go ha hi if ok oh ox up so ye
ace act add age ago aid aim air ale ant ape arc arm art ash ask ate awe axe bad bag ban bar
bat bay bed bee beg bet bid big bin bit bow box boy bud bug bun bus buy bye cab can cap car
cat cow cry cub cup cut dad dam day den dew die dig dim dip dog dot dry due dug dye ear eat
egg ego elf elk end era eve eye fan far fat fax fed fee few fig fin fit fix flu fly foe fog
fox fry fun fur gap gas gel gem get god got gum gun gut guy gym had ham hat hay hen hid hip
hit hog hop hot hug hum hut ice icy ill ink inn ion ivy jam jar jaw jet job jog joy key kid
kin kit lab lad lag lap law lay led leg let lid lie lip lit log lot low mad man map mat maw
may men met mid mix mob mom mop mud mug nap net new nod nor now nut oak oar oat odd off oil
old opt orb ore owe owl own pad pal pan paw pay pea pen pet pie pig pin pit ply pod pop pot
pro pub pun pup put rag ram ran rap rat raw ray red rib rid rig rim rip rob rod rot row rub
rug rum run rut sad sag sap sat saw say sea see set sew sex shy sin sip sir sit six ski sky
sly sob sod son sow soy spa spy sub sue sum sun tab tag tan tap tar tax tea tee ten tie tin
tip toe ton too top tow toy try tub tug two use van vat vet via vow wag war was wax way web
wed wet who why wig win wit woe wok won woo wow yak yam yap yes yet zap zip zoo
""".split())


def _roman(word: str) -> str:
    """A number from 1 to 99 in lower-case Roman numerals (as names write it: "World War II");
    any other word as it is."""
    if not word.isdigit() or not 1 <= int(word) <= 99 or word.startswith("0"):
        return word
    tens, units = divmod(int(word), 10)
    return (("", "x", "xx", "xxx", "xl", "l", "lx", "lxx", "lxxx", "xc")[tens]
            + ("", "i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix")[units])


def _in_order(words: list[str], name_words: list[str]) -> bool:
    """Whether ``words`` occur in ``name_words`` in the same order (others may come between)."""
    rest = iter(name_words)
    return all(word in rest for word in words)


# The question's context (all-MiniLM-L6-v2 similarity of the question to each reading's label
# and description, minus the mean over the mention's readings) moves a reading's logit by this
# weight times the difference. Chosen on Mintaka dev (R@1 76.9 -> 78.5 % at 4; flat from 4 to 6)
# and checked on WikiWebQuestions train, never tuned there (gold items in the prompt 0.802 -> 0.818).
CONTEXT_WEIGHT = 4.0
# how many of a mention's best readings the context may reorder (a part of a longer name, which
# keeps NESTED_READINGS, reorders that share of them: its other readings stay below)
CONTEXT_READINGS = 20


# The match quality of a name whose words the mention has in another order.
PERMUTED_NAME = 0.8

# A mention inside a longer one that says more (more words that are no stopwords) and whose best
# reading scores at least NESTED_OUTER_SCORE keeps its NESTED_READINGS best readings. Mintaka
# dev, cased: 15.6 -> 11.1 candidates per question, gold among them 92.8 -> 92.7 %.
NESTED_OUTER_SCORE = 0.7
NESTED_READINGS = 2


# An article is followed by a noun, never by a personal pronoun: in a question without capitals
# "the us" and "the it department" are the acronyms US and IT, not the pronouns.
ARTICLES = frozenset({"the", "a", "an"})
PRONOUNS = frozenset({"us", "it", "me", "we", "he", "she", "him", "her", "you", "they", "them", "i"})


def _is_stop(word) -> bool:
    """A stopword, unless written in capitals: "US" and the pieces of "U.S." are names."""
    return word[0] in STOPWORDS and not word[3].isupper()


class ReFinEDLinker:
    """ReFinED (Amazon; pip install 'refined@git+https://github.com/amazon-science/ReFinED') as a backend.

    It downloads its own Wikidata model (several GB) on first use and needs network access;
    it cannot be installed in this offline environment. Enable it with::

        pip install torch==2.13.0
        pip install "refined @ git+https://github.com/amazon-science/ReFinED"
        cnl2sparql link "QUESTION" --linker refined
    """

    def __init__(self, model_name: str = "questions_model", entity_set: str = "wikidata") -> None:
        if importlib.util.find_spec("refined") is None:
            raise OptionalDependencyMissing(
                "the ReFinED linker", "refined",
                'install it with `pip install "refined @ git+https://github.com/amazon-science/ReFinED"` '
                "(needs network access to fetch its model), or use the built-in linker")
        from refined.inference.processor import Refined

        self.model = Refined.from_pretrained(model_name=model_name, entity_set=entity_set)

    def link(self, question: str) -> list[Candidate]:
        out = []
        for span in self.model.process_text(question):
            for qid, prob in (span.top_k_predicted_entities or [])[:5]:
                if qid.wikidata_entity_id:
                    out.append(Candidate(span.text, span.start, span.start + span.ln, qid.wikidata_entity_id,
                                         qid.wikipedia_entity_title or "", "", round(float(prob), 4)))
        return sorted(out, key=lambda c: c.score, reverse=True)


def get_linker(name: str = "builtin", index: EntityIndex | None = None, **options):
    if name == "builtin":
        if index is None:
            raise LinkingError("the built-in linker needs an entity index (build one from a store)")
        return BuiltinLinker(index, **options)
    if name == "refined":
        return ReFinEDLinker(**options)
    raise LinkingError(f"unknown linker {name!r}: use 'builtin' or 'refined'")


class LabelLinker:
    """Entity linking over any KG by exact name: the question's n-grams (as written, lower-case
    and capitalised) looked up as English ``rdfs:label``/``skos:altLabel`` values in one query.
    For an endpoint, where no local index is at hand; a longer mention and a label (rather than
    an alias) score higher."""

    def __init__(self, kg, *, max_ngram: int = 6, max_candidates: int = 30) -> None:
        self.kg = kg
        self.max_ngram = max_ngram
        self.max_candidates = max_candidates

    def mentions(self, question: str) -> dict[str, tuple[int, int, int]]:
        """Name variant -> (start, end, number of words) of the n-grams worth looking up."""
        words = token_spans(question)
        out: dict[str, tuple[int, int, int]] = {}
        for i in range(len(words)):
            for j in range(i + 1, min(len(words), i + self.max_ngram) + 1):
                gram = words[i:j]
                if _is_stop(gram[0]) and len(gram) == 1 or _is_stop(gram[-1]) or all(_is_stop(w) for w in gram):
                    continue
                start, end = gram[0][1], gram[-1][2]
                text = question[start:end]
                if len(text) < 3:
                    continue
                for variant in {text, text.lower(), " ".join(w[:1].upper() + w[1:] for w in text.split())}:
                    out.setdefault(variant, (start, end, len(gram)))
        return out

    def link(self, question: str) -> list[Candidate]:
        from cnl.sparql.namespaces import RDFS_LABEL, SCHEMA_DESCRIPTION, SKOS_ALT_LABEL

        mentions = self.mentions(question)
        if not mentions:
            return []
        values = " ".join('"' + m.replace("\\", "\\\\").replace('"', '\\"') + '"@en' for m in mentions)
        sparql = (f"SELECT ?e ?name ?p ?d WHERE {{ VALUES ?name {{ {values} }} "
                  f"VALUES ?p {{ <{RDFS_LABEL}> <{SKOS_ALT_LABEL}> }} ?e ?p ?name "
                  f"OPTIONAL {{ ?e <{SCHEMA_DESCRIPTION}> ?d FILTER(LANGMATCHES(LANG(?d), \"en\")) }} }} LIMIT 500")
        try:
            rows = self.kg.select(sparql).rows
        except Exception as err:  # noqa: BLE001 - an endpoint error is a linking error here
            raise LinkingError(f"entity lookup failed: {err}") from None
        best: dict[str, Candidate] = {}
        for e, name, p, d in rows:
            ident = short_id(getattr(e, "value", str(e)))
            start, end, n = mentions[name.value]
            alias = getattr(p, "value", "").endswith("altLabel")
            score = round(1 / (1 + math.exp(-(0.8 * min(n, 4) - (0.6 if alias else 0.0) - 0.5))), 4)
            cand = Candidate(question[start:end], start, end, ident, name.value, getattr(d, "value", "") if d else "", score)
            if ident not in best or best[ident].score < score:
                best[ident] = cand
        return sorted(best.values(), key=lambda c: -c.score)[: self.max_candidates]
