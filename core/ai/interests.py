"""Interests: what a listener's own interactions show they care about, each with the share of the evidence.

Three kinds of evidence, each a share of its own whole: a show (its title) by the share of the listener's
interactions during shows that fell in it; a kind of taking part (competitions, song requests, shout-outs, polls)
by the share of all their interactions of that campaign type; a theme of their messages (music, family, load
shedding, ...) by the share of their latest messages that touch it, found by a small table of words in the
station's languages. At most LIMIT interests, strongest first; an interest needs at least MIN_SHARE of its whole
and MIN_COUNT interactions or messages behind it.
"""
from __future__ import annotations

import re
from collections import Counter

from core.listeners.events import History
from core.text.wording import agree, percent, plural

LIMIT = 6
MIN_SHARE, MIN_COUNT = 0.15, 2
CAMPAIGNS = {"competition": "competitions", "song_request": "song requests", "shoutout": "shout-outs",
             "poll": "polls"}
"""Campaign types that show an interest, and the interest's name."""
THEMES = {
    "music": r"\bplay\b|\bsong\b|\brequest|\bspeel\b|liedjie|musiek|music|dlala|bapale|mmino|umculo|omculo",
    "family": r"\bmom\b|\bmother|\bgogo\b|granny|\bouma\b|\bma\b|umama|\bmme\b|nkgono|umakhulu",
    "load shedding": r"load.?shedding|\bkrag\b|ugesi|umbane|motlakase|\bpower\b|electricity",
    "traffic": r"traffic|\bN\d\b|\bjam\b",
    "water supply": r"water outage|no water|amanzi|\bmetsi\b",
    "faith": r"church|\bpray|\bgod\b|gospel|kerk|\bbaba\b|\bamen\b",
    "sport": r"soccer|football|rugby|cricket|bafana|springbok|chiefs|pirates|sundowns",
    "public holidays": r"holiday|heritage day|freedom day|youth day|christmas|new year",
}
"""Themes of messages, each a case-insensitive pattern of words in English, Afrikaans, isiZulu, isiXhosa and
Sesotho."""
_PATTERNS = {theme: re.compile(words, re.IGNORECASE) for theme, words in THEMES.items()}


def interests(history: History, titles: dict[int, str], messages: list[str]) -> list[dict]:
    """The listener's interests: [{"value", "confidence", "evidence"}], strongest first."""
    found = _shows(history, titles) + _campaigns(history) + _themes(messages)
    kept = [f for f in found if f["confidence"] >= MIN_SHARE and f.pop("count") >= MIN_COUNT]
    kept.sort(key=lambda f: (-f["confidence"], f["value"]))
    return kept[:LIMIT]


def _entry(value: str, count: int, whole: int, evidence: str) -> dict:
    return {"value": value, "confidence": round(count / whole, 2), "count": count, "evidence": evidence}


def _shows(history: History, titles: dict[int, str]) -> list[dict]:
    during = [int(t) for t in history.timeslot.tolist() if t >= 0 and int(t) in titles]
    counts = Counter(during)
    return [_entry(titles[slot], n, len(during),
                   f"{percent(n / len(during))} of this listener's {plural(len(during), 'interaction')} during "
                   f"shows were during {titles[slot]}.") for slot, n in counts.items()]


def _campaigns(history: History) -> list[dict]:
    counts, whole = Counter(history.campaign), len(history.campaign)
    return [_entry(name, counts[kind], whole,
                   f"{percent(counts[kind] / whole)} of this listener's {plural(whole, 'interaction')} were "
                   f"{name}.") for kind, name in CAMPAIGNS.items() if counts[kind]]


def _themes(messages: list[str]) -> list[dict]:
    counts = {theme: sum(bool(p.search(m)) for m in messages) for theme, p in _PATTERNS.items()}
    return [_entry(theme, n, len(messages),
                   f"{n} of this listener's {plural(len(messages), 'latest message')} {agree(n, 'touches', 'touch')} "
                   f"on {theme}.")
            for theme, n in counts.items() if n]
