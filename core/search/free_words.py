"""A query's free words read against one station (core.search.evidence has the rule): for each word, the station's
values it means (core.search.meaning), who among the candidates holds them, who wrote the word (the lexical
index), and what holding it tells. Read as written and, where the query holds words of the station's other
languages, as their English (core.search.glosses)."""
from __future__ import annotations

import re

import numpy as np

from core.explore.filters import parse_filters
from core.listeners.snapshot import Snapshot
from core.search.evidence import Reading, Word
from core.search.glosses import NGUNI_PREFIXES, glossed, themes_of
from core.search.lexical import LexicalIndex, unheard_idf
from core.search.meaning import Meanings, Value
from core.search.queries import FILLER

ALL_OF = ("tags", "inferred_interests")
TOKEN = re.compile(r"[^\W_]+(?:-[^\W_]+)*", re.UNICODE)


def words_of(text: str) -> list[str]:
    """The distinct words of a text that can be evidence, in its order: two characters or more with a letter among
    them ("N3", "De la Rey"), not the words that only frame a query."""
    found = (w.casefold() for w in TOKEN.findall(text or ""))
    return list(dict.fromkeys(w for w in found if len(w) > 1 and w not in FILLER and not w.isdigit()))


def readings(free_text: str, rows: np.ndarray, ids: np.ndarray, snap: Snapshot, tz: str | None,
             lexical: LexicalIndex | None, meanings: Meanings | None, model,
             own: frozenset[str] = frozenset()) -> list[Reading]:
    """The readings of the free text over these candidate rows (`ids`: their vector ids, -1 none): as written,
    and, when it holds words of the station's other languages, as the English themes they name (each theme one
    word: a listener who wrote any of its words holds it, but for the words every listener's text holds for what
    they did, `own`: the English of "liedjie" is not the song requests of the text's "takes part in: song request").
    `meanings` None: by the listeners' own words alone."""
    written = words_of(free_text)
    if not written:
        return []
    meant = meanings.meant(model.embed(written, kind="query")) if meanings is not None else [[] for _ in written]
    out = [Reading(tuple(_word(w, tuple(m), rows, ids, snap, tz, lexical) for w, m in zip(written, meant)))]
    english = [_theme(theme, ids, lexical, own) for theme in themes_of(free_text)
               if any(w not in FILLER and w not in own for w in words_of(theme))]
    return out + ([Reading(tuple(english))] if english else [])


def _word(word: str, meant: tuple[tuple[Value, float], ...], rows: np.ndarray, ids: np.ndarray, snap: Snapshot,
          tz: str | None, lexical: LexicalIndex | None) -> Word:
    """One word over the candidates: who holds what it means, who wrote it, its weight."""
    held, idf = written_as(word, lexical) if lexical is not None else (None, 0.0)
    if held is None and not meant:
        return Word(word)  # a stop word, meaning nothing of the station's: no evidence either way
    writers = _on_rows(held, ids) if held is not None else None
    weight = idf or _unheard(lexical, len(rows))
    heard = bool(meant) or (writers is not None and bool(writers.any()))
    return Word(word, meant, _holders(meant, rows, snap, tz), writers, weight, heard)


def written_as(word: str, lexical: LexicalIndex) -> tuple[np.ndarray | None, float]:
    """Who wrote the word (lexical.holding) or the same word spelled another way (lexical.spelled_like), or, when
    nobody wrote it, its stem without a Nguni prefix that somebody wrote ("umaskandi" is maskandi with the noun
    class's u-). A hyphenated word whose parts the index cannot read whole ("K-pop") is written by nobody: its "pop"
    is not it."""
    if any(len(part) < 2 for part in word.split("-")):
        return np.zeros(len(lexical.docs), dtype=bool), unheard_idf(int(lexical.built.docs))
    held, idf = lexical.holding(word)
    if held is None:
        return held, idf
    other = lexical.spelled_like(word)
    if other:
        held = held | lexical.holding_terms(other)
    if held.any():
        return held, idf
    for prefix in NGUNI_PREFIXES:
        if word.startswith(prefix) and len(word) - len(prefix) >= 4:
            bare, bare_idf = lexical.holding(word[len(prefix):])
            if bare is not None and bare.any():
                return bare, bare_idf
    return held, idf


def _theme(theme: str, ids: np.ndarray, lexical: LexicalIndex | None, own: frozenset[str]) -> Word:
    """An English theme as one word: written by whoever wrote any of its words; weighing what its most telling
    word a listener wrote tells."""
    writers, weights = np.zeros(len(ids), dtype=bool), []
    for word in words_of(theme):
        if word in FILLER or word in own:
            continue  # "complaining" frames what is complained of
        held, idf = lexical.holding(word) if lexical is not None else (None, 0.0)
        if held is not None and held.any():
            writers |= _on_rows(held, ids)
            weights.append(idf)
    return Word(theme, (), None, writers, max(weights, default=_unheard(lexical, len(ids))), bool(weights))


def _unheard(lexical: LexicalIndex | None, candidates: int) -> float:
    return unheard_idf(int(lexical.built.docs) if lexical is not None else candidates)


def _on_rows(held: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """A bool per vector id read at the candidates' ids (False where they have none yet)."""
    out = np.zeros(len(ids), dtype=bool)
    known = (ids >= 0) & (ids < len(held))
    out[known] = held[ids[known]]
    return out


def _holders(meant: tuple[tuple[Value, float], ...], rows: np.ndarray, snap: Snapshot,
             tz: str | None) -> np.ndarray | None:
    """Who among the candidates holds any of the values meant (None: the word means none)."""
    if not meant:
        return None
    mask = np.zeros(len(snap), dtype=bool)
    for value, _ in meant:
        mask |= holders_of(value, snap, tz)
    return mask[rows]


def holders_of(value: Value, snap: Snapshot, tz: str | None) -> np.ndarray:
    """Who holds one of the station's values, as a bool per snapshot row (tags and interests: the one asked)."""
    return parse_filters({value.field: value.value if value.field in ALL_OF else [value.value]}).mask(snap, tz)


def worded(free_text: str, found: list[Reading]) -> str:
    """The free text as words are scored (a share of BM25, core.search.lexical): with the English of its words of
    other languages and the names of the station's values its words mean, so that a listener holding the value
    "faith" scores on "worship" as one who wrote it would."""
    meant = [v.phrase for reading in found for word in reading.words for v, _ in word.meant]
    return " ".join([glossed(free_text), *dict.fromkeys(meant)])


def meant_of(found: list[Reading]) -> list[dict]:
    """What each free word was taken to mean, as answers carry it (words meaning nothing are left out)."""
    seen: dict[str, dict] = {}
    for reading in found:
        for word in reading.words:
            if word.meant and word.text not in seen:
                seen[word.text] = {"words": word.text, "values": [
                    {"field": v.field, "value": v.value, "label": v.label, "similarity": round(s, 3)}
                    for v, s in word.meant]}
    return list(seen.values())
