"""The station's own words for its listeners (shows, interests, message themes, places, languages, channels, dayparts,
ways of taking part), each phrased as a listener's text phrases it (core.search.texts), so that a query made of one
finds the listeners whose text holds it; and which of them a theme is about.

A term is chosen only with a basis in the theme: a word of the theme that is (nearly) a word of the term, a theme of
messages whose words the theme uses, or a meaning close enough by the embedding model. Nothing else is ever added.
"""
from __future__ import annotations

import re
import threading
from dataclasses import dataclass

import numpy as np
from rapidfuzz import fuzz, process

from core.ai.interests import CAMPAIGNS, THEMES
from core.listeners import snapshot
from core.search.embeddings import embedder
from core.search.texts import DAYPART_WORDS
from core.search.why import STOPWORDS
from core.stations.companies import get_company
from core.stations.defaults import channel_name
from core.stations.shows import show_titles

WORD = re.compile(r"[^\W\d_]{3,}", re.UNICODE)
GENERIC = frozenset("show shows time talk with hour live radio station your our you all".split())
"""Words of show titles and themes too common to be a basis on their own ("Drive Time" is not about time)."""
WORD_MATCH = 85  # rapidfuzz ratio from which two words are one (plurals, a typo): "commuters" and "commute" 87.5
SEMANTIC_FLOOR = 0.55
"""Cosine from which a term is close enough in meaning alone: "church" and "faith" 0.51 fell short, "gospel lovers"
and "Gospel Sunday" 0.79 passed, and one-word themes reach 0.44 with unrelated places ("amapiano", "Sesotho"), so the
floor sits above what unrelated words reach."""
CACHE_LIMIT = 20_000


@dataclass(frozen=True)
class Term:
    """One word of the station: its kind, its value as the station names it, and the phrase a listener text has."""

    kind: str  # show | interest | theme | place | language | channel | daypart | campaign
    value: str
    phrase: str
    pattern: re.Pattern | None = None  # a message theme: the words that show it, in the station's languages


def station_terms(company_id: int) -> list[Term]:
    """Every term of the station, from its schedule, its channels and its listeners' current snapshot."""
    company, snap = get_company(company_id), snapshot.current(company_id)
    return terms_of(company.channel_names(), snap.vocab if len(snap) else {}, show_titles(company_id))


def terms_of(channels: dict[int, str], vocab: dict, shows: dict[int, str]) -> list[Term]:
    """station_terms of a station's channel names, its snapshot's vocabulary and its shows' titles."""
    terms = [Term("show", title, f"shows: {title}") for title in shows.values()]
    terms += [Term("theme", theme, f"messages: {', '.join(_pattern_words(theme, words))}",
                   re.compile(words, re.IGNORECASE)) for theme, words in THEMES.items()]
    terms += [Term("interest", str(v), f"interests: {v}") for v in [*vocab.get("inferred_interests", []),
                                                                     *CAMPAIGNS.values()]]
    terms += [Term("place", str(v), f"location: {v}") for v in vocab.get("location", [])]
    terms += [Term("language", str(v), f"language: {v}") for v in vocab.get("language", [])]
    names = [channel_name(channels, int(c)) for c in vocab.get("channels", [])]
    terms += [Term("channel", name, f"channels: {name}") for name in names]
    terms += [Term("daypart", words, f"listens: {words}") for words in DAYPART_WORDS.values()]
    terms += [Term("campaign", str(c).replace("_", " "), f"takes part in: {str(c).replace('_', ' ')}")
              for c in vocab.get("campaign_types", [])]
    return _distinct(terms)


def closest_terms(text: str, terms: list[Term], most: int = 4) -> list[Term]:
    """The terms the text is about, closest first: a word or message theme in common first, then meaning alone."""
    if not terms:
        return []
    words = [w for w in _words(text) if w not in GENERIC]
    cosines = _cosines(text, [term.value for term in terms])
    scored = []
    for term, cosine in zip(terms, cosines.tolist()):
        lexical = _in_common(term, text, words)
        if lexical or cosine >= SEMANTIC_FLOOR:
            scored.append((lexical + cosine, term))
    scored.sort(key=lambda pair: (-pair[0], pair[1].phrase))
    return [term for _, term in scored[:most]]


def _in_common(term: Term, text: str, words: list[str]) -> float:
    """1 when the text shares a word with the term (or uses its message theme's words), else 0."""
    if term.pattern is not None and term.pattern.search(text):
        return 1.0
    for word in _words(term.value):
        if word in GENERIC:
            continue
        if len(word) < 4:  # short words only when equal: "god" is not "good"
            if word in words:
                return 1.0
        elif process.extractOne(word, words, scorer=fuzz.ratio, score_cutoff=WORD_MATCH):
            return 1.0
    return 0.0


def _words(text: str) -> list[str]:
    return [w for w in WORD.findall(text.casefold()) if w not in STOPWORDS]


def _pattern_words(theme: str, pattern: str) -> list[str]:
    """The theme's name, then the plain words of its pattern ("church|\\bpray|gospel" -> church, pray, gospel)."""
    words = WORD.findall(pattern.replace(r"\b", " ").replace(r"\d", " "))
    return list(dict.fromkeys([theme, *words]))[:8]


def _distinct(terms: list[Term]) -> list[Term]:
    seen: set[str] = set()
    out = []
    for term in terms:
        if term.phrase.casefold() not in seen:
            seen.add(term.phrase.casefold())
            out.append(term)
    return out


_vectors: dict[tuple[str, str], np.ndarray] = {}
_lock = threading.Lock()


def _cosines(text: str, values: list[str]) -> np.ndarray:
    """Cosine of the text with each value; each value is embedded once per process and model (a station's words
    change little between data versions), the text every time."""
    model = embedder()
    with _lock:
        missing = sorted({v for v in values if (model.name, v) not in _vectors})
    made = model.embed([text, *missing], kind="query")
    query = made[0]
    with _lock:
        if len(_vectors) > CACHE_LIMIT:
            _vectors.clear()
        _vectors.update({(model.name, v): vector for v, vector in zip(missing, made[1:])})
    with _lock:
        matrix = np.stack([_vectors.get((model.name, v), np.zeros_like(query)) for v in values])
    return matrix @ query
