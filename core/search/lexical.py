"""Lexical relevance: BM25 (bm25s, Lucene's variant) over the same listener texts the vectors were made from, one
document per vector id, so that the words a listener wrote ("Jerusalema", "load shedding") find them even where a
sentence embedding of a short query does not.

bm25s builds a static index; a station's documents change with every run. So the documents are kept here as token
ids (tokenised once, when their vector is written) and the index is built again from them when they changed, the way
a search engine refreshes: at once for a small station, in the background for a large one (about 6 s per 100,000
listeners), searches meanwhile reading the last build (a listener written since has no lexical score until the next
one, as a document indexed after Elasticsearch's last refresh is not found yet).

A score is given as a share of the query: the BM25 score over what a document of average length holding each of
the query's known terms once would score (Lucene's BM25 gives such a term idf / (1 + k1)); words no listener wrote
cannot tell listeners apart and count for nothing. A raw BM25 score grows with the number and rarity of the
query's terms; the share is comparable across queries, which a station-wide calibration needs.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path

import bm25s
import numpy as np
import Stemmer

from core.search import lexical_builds

K1, B, METHOD = 1.5, 0.75, "lucene"
PARAMS = (K1, B, METHOD)
BUILD_AT_ONCE_BELOW = 5_000
"""Documents under which an index is built on the request that finds it stale (about 0.3 s at 5,000)."""
_stemmer = Stemmer.Stemmer("english")


def tokenized(texts: list[str]) -> list[list[str]]:
    """Lower-cased word tokens of each text, English stop words out, English stems (other languages' words pass
    through the stemmer mostly unchanged, and match as written)."""
    if not texts:
        return []
    return bm25s.tokenize(texts, stopwords="english", stemmer=_stemmer, return_ids=False, show_progress=False)


@dataclass(frozen=True)
class Built:
    """One build: the retriever, the term ids and document count it covers, and each term's idf."""

    retriever: bm25s.BM25 | None
    terms: dict[str, int]
    docs: int
    idf: np.ndarray


EMPTY = Built(None, {}, 0, np.zeros(0))
NO_TOKENS = np.zeros(0, dtype=np.int32)
NO_TOKENS.flags.writeable = False


class Docs:
    """The token ids of each vector id's text: a flat base, which is a map of the host's shared build once one is
    made (core.search.lexical_builds), and the ids written since, each an array of its own. A list of one array per
    listener held about 400 bytes a listener in every process, a view per listener of the shared base as much."""

    def __init__(self, flat: np.ndarray = NO_TOKENS, offsets: np.ndarray | None = None):
        self.flat = flat
        self.offsets = np.zeros(1, dtype=np.int64) if offsets is None else offsets
        self.since: dict[int, np.ndarray] = {}
        self.size = len(self.offsets) - 1

    @classmethod
    def of(cls, docs: list[np.ndarray]) -> Docs:
        lengths = np.fromiter((len(d) for d in docs), dtype=np.int64, count=len(docs))
        flat = np.concatenate(docs).astype(np.int32) if docs else NO_TOKENS
        return cls(flat, np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64))

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, at: int) -> np.ndarray:
        found = self.since.get(at)
        if found is not None:
            return found
        if at < len(self.offsets) - 1:
            return self.flat[self.offsets[at]:self.offsets[at + 1]]
        return NO_TOKENS

    def __setitem__(self, at: int, tokens: np.ndarray) -> None:
        self.since[at] = tokens
        self.size = max(self.size, at + 1)

    def __iter__(self):
        return (self[at] for at in range(self.size))

    def copy(self) -> Docs:
        """The documents as they are now (the base is shared, the ids written since are copied)."""
        copied = Docs(self.flat, self.offsets)
        copied.since, copied.size = dict(self.since), self.size
        return copied

    def on(self, flat: np.ndarray, offsets: np.ndarray, was: Docs) -> Docs:
        """These documents on a new base that holds them as they were in `was`: only the ids written since `was`
        was copied stay arrays of their own."""
        moved = Docs(flat, offsets)
        moved.since = {at: d for at, d in self.since.items() if was.since.get(at) is not d}
        moved.size = self.size
        return moved


class LexicalIndex:
    """Token ids of each vector id's text (an empty array: no text, or a dead id), the terms' ids, and the last
    build of the BM25 index over them."""

    def __init__(self, lineage: tuple = (), shared_at: Path | None = None):
        self.lineage = lineage  # which vector index the ids are of
        self.shared_at = shared_at  # where the host's processes share builds (core.search.lexical_builds); None: not
        self.seq = 0  # the embeddings' write counter this is current to
        self.terms: dict[str, int] = {}
        self.where: dict[str, int] = {}  # each listener's vector id
        self.docs = Docs()
        self.said: list[str] = []  # what each vector id's listener said, as embedded: shown with results, unread again
        self.changed = False
        self.built = EMPTY
        self._building = threading.Lock()
        self._docs = threading.Lock()  # a build moving the documents onto a shared base, against `put`

    def put(self, ids: list[int], texts: list[str], dead: list[int] = (), said: list[str] | None = None) -> None:
        """Set these vector ids' texts (and what their listeners said, stored as a search engine stores a field),
        and empty those of ids no longer live."""
        top = max([*ids, *dead], default=-1)
        tokens = tokenized(list(texts))
        with self._docs:
            if top >= len(self.said):
                self.said.extend("" for _ in range(top + 1 - len(self.said)))
            self.docs.size = max(self.docs.size, top + 1)
            for at in dead:
                self.docs[at], self.said[at] = NO_TOKENS, ""
            for at, words in zip(ids, said or ()):
                self.said[at] = words
            for at, words in zip(ids, tokens):
                self.docs[at] = np.fromiter((self.terms.setdefault(t, len(self.terms)) for t in words),
                                            dtype=np.int32)
            self.changed = self.changed or bool(ids) or bool(dead)

    def refresh(self) -> None:
        """Build again if the documents changed: here for a small index or the first build, else in a background
        thread (one at a time), the last build serving meanwhile. Here, a build another thread has under way is
        waited for: it has taken the change, and returning before its end answered from no build at all (two
        requests at once fitted the station's calibration on different lexical scores)."""
        if self.built.retriever is None or len(self.docs) < BUILD_AT_ONCE_BELOW:
            with self._building:
                if self.changed:
                    self._made_again()
        elif self.changed and self._building.acquire(blocking=False):
            self._building.release()
            threading.Thread(target=self._build, daemon=True, name="lexical-index").start()

    def _build(self) -> None:
        with self._building:
            self._made_again()

    def _made_again(self) -> None:
        """The build of the documents as they are now (the caller holds `_building`)."""
        with self._docs:
            self.changed = False
            was, terms = self.docs.copy(), dict(self.terms)
        docs = list(was)
        if not any(len(d) for d in docs):
            self.built = Built(None, terms, len(docs), np.zeros(len(terms)))
            return
        retriever, idf = self._shared(docs, terms, was) or _made(docs, terms)
        self.built = Built(retriever, terms, len(docs), idf)

    def _shared(self, docs: list[np.ndarray], terms: dict, was: Docs) -> tuple | None:
        """The host's build of exactly these documents (`was`, listed), made and saved first if it has none; the
        documents then rest on its token ids, shared too, but for those written since. None when this index is not
        shared or the disk takes nothing."""
        if self.shared_at is None:
            return None
        folder = lexical_builds.folder_of(self.shared_at, lexical_builds.digest(docs, len(terms), PARAMS))
        found = lexical_builds.load(folder, len(docs), len(terms), PARAMS)
        if found is None and lexical_builds.save(folder, *_made(docs, terms), docs):
            found = lexical_builds.load(folder, len(docs), len(terms), PARAMS)
        if found is None:
            return None
        retriever, idf, flat, offsets = found
        with self._docs:
            self.docs = self.docs.on(flat, offsets, was)
        return retriever, idf

    def without(self, gone: list[int], lineage: tuple) -> LexicalIndex:
        """A copy without these ids' texts, holding only the terms the others use (an erased listener's words go
        with them), which serves this one's last build until its own is made (a gone id is no candidate)."""
        fresh, gone_ids = LexicalIndex(lineage, self.shared_at), set(gone)
        fresh.seq, fresh.where = self.seq, {o: at for o, at in self.where.items() if at not in gone_ids}
        docs = [np.zeros(0, dtype=np.int32) if at in gone_ids else d for at, d in enumerate(self.docs)]
        held = [d for d in docs if len(d)]
        used = np.unique(np.concatenate(held)) if held else np.zeros(0, dtype=np.int32)
        renumbered = np.full(len(self.terms), -1, dtype=np.int32)
        renumbered[used] = np.arange(len(used), dtype=np.int32)
        names = list(self.terms)  # ids were given in order, so a term's position is its id
        fresh.terms = {names[at]: n for n, at in enumerate(used.tolist())}
        fresh.docs = Docs.of([renumbered[d] if len(d) else d for d in docs])
        fresh.said = ["" if at in gone_ids else words for at, words in enumerate(self.said)]
        fresh.built, fresh.changed = self.built, True
        return fresh

    def said_of(self, ids: np.ndarray) -> list[str]:
        """What the listener of each vector id said, as last embedded ("": nothing, or an id this does not hold)."""
        return [self.said[at] if 0 <= at < len(self.said) else "" for at in ids.tolist()]

    def holding(self, word: str) -> tuple[np.ndarray | None, float]:
        """Which vector ids' texts hold the word (its English stem), and how much holding it tells (its idf; a word
        no listener wrote tells the most a word can). (None, 0) for a word that is no word to the index (a stop
        word)."""
        built = self.built
        stems = (tokenized([word]) or [[]])[0]
        if not stems:
            return None, 0.0
        known = [built.terms[s] for s in stems if s in built.terms and built.terms[s] < len(built.idf)]
        if built.retriever is None or len(known) < len(stems):
            return np.zeros(len(self.docs), dtype=bool), unheard_idf(built.docs)
        held = np.zeros(len(self.docs), dtype=bool)
        held[:built.docs] = np.logical_and.reduce([built.retriever.get_scores([t])[:built.docs] > 0 for t in known])
        return held, float(max(built.idf[t] for t in known))

    def shares(self, query: str) -> np.ndarray:
        """Each vector id's BM25 score for the query as a share of the query (0: none of its words, or no text yet)."""
        built, out = self.built, np.zeros(len(self.docs))
        asked = sorted({built.terms[t] for t in (tokenized([query]) or [[]])[0] if t in built.terms})
        whole = float(built.idf[asked].sum()) / (1 + K1) if asked else 0.0
        if built.retriever is None or whole <= 0:
            return out
        scores = built.retriever.get_scores(asked)
        out[:built.docs] = scores[:built.docs] / whole
        return out


def _made(docs: list[np.ndarray], terms: dict) -> tuple[bm25s.BM25, np.ndarray]:
    """A BM25 build of the documents (term ids into `terms`), and each term's idf."""
    retriever = bm25s.BM25(k1=K1, b=B, method=METHOD)
    retriever.index(bm25s.tokenization.Tokenized(ids=[d.tolist() for d in docs], vocab=dict(terms)),
                    show_progress=False)
    return retriever, _idf(docs, len(terms))


def unheard_idf(docs: int) -> float:
    """Lucene's idf of a term no document holds: what a word nobody wrote would tell, were anyone to."""
    return float(np.log1p((docs + 0.5) / 0.5))


def _idf(docs: list[np.ndarray], terms: int) -> np.ndarray:
    """Lucene's idf of every term: ln(1 + (N - df + 0.5) / (df + 0.5)), as bm25s computes it."""
    live = [np.unique(d) for d in docs if len(d)]
    df = np.bincount(np.concatenate(live), minlength=terms) if live else np.zeros(terms)
    return np.log1p((len(docs) - df + 0.5) / (df + 0.5))  # bm25s counts every document, empty or not
