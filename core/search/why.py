"""Why a result matched: the parts of a listener's text that share a word with the query (words compared by their
first five letters, so that "gospel" meets "Gospel Sunday" and "competitions" meets "competition"), or, with none,
their leading traits. Messages are read with the English of their words in the station's other languages, as the
query is ("beurtkrag" meets "krag is weer af"), and shown as written."""
from __future__ import annotations

import functools
import re

from core.search.glosses import glossed
from core.search.texts import MESSAGES_LABEL

WORD = re.compile(r"[^\W\d_]{3,}", re.UNICODE)
STOPWORDS = frozenset("the and who for with that this are was from they their them like likes love loves lovers "
                      "listeners listener people fans fan who which into onto about more most".split())


def _once(part: str) -> str:
    """A messages part with each message once (a listener who sent the same words twice is shown them once)."""
    if not part.startswith(MESSAGES_LABEL):
        return part
    return MESSAGES_LABEL + " | ".join(dict.fromkeys(part[len(MESSAGES_LABEL):].split(" | ")))


def matched(query: str | None, text: str) -> list[str]:
    """The parts of a listener's text that share a word with the query; without shared words, the listener's leading
    traits (a match in meaning, not in words)."""
    return parts(stems(glossed(query)) if query else set(), text)


def parts(wanted: set[str], text: str) -> list[str]:
    """The parts of a text that share one of these stems (at most four), else its first three."""
    found = [_once(part.strip()) for part in text.split(". ") if part.strip()]
    if wanted:
        hits = [part for part in found if _shares(wanted, part)]
        if hits:
            return hits[:4]
    return found[:3]


def _shares(wanted: set[str], part: str) -> bool:
    """Whether a part of a listener's text shares a word with the query: a trait as written, messages as written
    or else with the English of their words (glossing costs more than the look)."""
    if not part.startswith(MESSAGES_LABEL):
        return bool(wanted & _trait_stems(part))
    return bool(wanted & stems(part)) or bool(wanted & stems(glossed(part)))


@functools.lru_cache(maxsize=4096)
def _trait_stems(part: str) -> frozenset[str]:
    """The stems of a trait part ("shows: Gospel Sunday"), which recur across a station's listeners."""
    return frozenset(stems(part))


def stems(text: str) -> set[str]:
    """The query-comparable stems of a text: its words' first five letters, framing words out."""
    return {word[:5] for word in WORD.findall(text.casefold()) if word not in STOPWORDS}
