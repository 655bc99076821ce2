"""What a listener's own messages say: the language each is written in, and the station's places they mention.

Languages are told apart by lingua (offline, its models in the wheel), built once per process from exactly the
languages the station's listeners write in. A short message ("Yes", "1") tells nothing and yields no language. Each
message gives tokens, `lang:ZULU` and `place:Durban` (a place only when the station's listeners declare it as their
location); inference learns from the station's declared listeners how often each value of a field writes each
token (core.ai.demographics), so that a station where isiZulu speakers also write in English is read as it is.
Messages are read here and never kept: nothing in this module holds a message after a call.
"""
from __future__ import annotations

import functools
import re
from collections.abc import Iterable

from lingua import Language, LanguageDetectorBuilder

from core.listeners.events import message_batches, timed_messages

SPELLINGS = {Language.ENGLISH: ("english",), Language.AFRIKAANS: ("afrikaans",), Language.ZULU: ("isizulu", "zulu"),
             Language.XHOSA: ("isixhosa", "xhosa"), Language.SOTHO: ("sesotho", "sotho", "southern sotho"),
             Language.TSWANA: ("setswana", "tswana")}
"""The languages detected, and how a station may spell each as a declared `language` value (lower case)."""
NAMES = {Language.ENGLISH: "English", Language.AFRIKAANS: "Afrikaans", Language.ZULU: "isiZulu",
         Language.XHOSA: "isiXhosa", Language.SOTHO: "Sesotho", Language.TSWANA: "Setswana"}
"""How a producer reads a detected language the station has no spelling of."""
BY_NAME = {language.name: language for language in SPELLINGS}
CLEAR = 0.5
"""A message is in a language when lingua gives it at least this confidence among the languages above."""
MESSAGES = 10
"""The latest messages of a listener that are read."""


@functools.cache
def detector():
    """The one lingua detector of the process, for the languages of SPELLINGS only, their models read when it is
    built: lingua otherwise reads them at the first detection, 0.7 s of a web process's first AI profile."""
    return LanguageDetectorBuilder.from_languages(*SPELLINGS).with_preloaded_language_models().build()


def preload() -> None:
    """Build the detector (for a preforking server's parent, whose workers then share its models)."""
    detector()


def detect(text: str) -> Language | None:
    """The language a message is written in, None when it is too short or unclear to say."""
    if sum(ch.isalpha() for ch in text) < 2:
        return None
    values = detector().compute_language_confidence_values(text)
    return values[0].language if values and values[0].value >= CLEAR else None


def station_spelling(language: Language, vocabulary: Iterable[str]) -> str | None:
    """The station's own declared value for a detected language (isiZulu, Zulu, ...), None if it has none."""
    spellings = SPELLINGS[language]
    return next((value for value in vocabulary if value.strip().lower() in spellings), None)


def language_named(token: str) -> Language:
    """The language of a `lang:` token."""
    return BY_NAME[token.removeprefix("lang:")]


@functools.lru_cache(maxsize=64)
def _place_pattern(places: tuple[str, ...]) -> re.Pattern | None:
    """One case-insensitive, whole-word pattern of the station's places, longest first (Cape Town before Cape)."""
    names = sorted({p for p in places if len(p.strip()) >= 3}, key=len, reverse=True)
    if not names:
        return None
    return re.compile(r"(?<!\w)(" + "|".join(re.escape(n) for n in names) + r")(?!\w)", re.IGNORECASE)


def message_tokens(messages: list[str], places: tuple[str, ...], seen: dict | None = None) -> list[str]:
    """The tokens of some messages: one `lang:` per message in a clear language, one `place:` per place named.
    `seen` (text -> language) spares detecting a text twice within one caller's pass over many listeners; the caller
    drops it afterwards."""
    pattern, canonical = _place_pattern(places), {p.lower(): p for p in places}
    seen = {} if seen is None else seen
    tokens = []
    for text in messages:
        language = seen[text] if text in seen else seen.setdefault(text, detect(text))
        if language is not None:
            tokens.append(f"lang:{language.name}")
        if pattern is not None:
            tokens.extend(f"place:{canonical[m.lower()]}" for m in dict.fromkeys(pattern.findall(text)))
    return tokens


def latest_messages(company_id: int, originators: Iterable[str], n: int = MESSAGES) -> dict[str, list[str]]:
    """The latest `n` messages of each of these listeners, newest first (listeners without any are left out)."""
    found: dict[str, list[tuple[int, str]]] = {}
    for doc in message_batches(company_id, originators):
        found.setdefault(doc["originator"], []).extend(timed_messages(doc))
    return {o: newest(kept, n) for o, kept in found.items() if kept}


def newest(timed: list[tuple[int, str]], n: int = MESSAGES) -> list[str]:
    """The texts of the `n` latest (time, text) pairs, newest first."""
    return [text for _, text in sorted(timed, key=lambda pair: pair[0], reverse=True)[:n]]
