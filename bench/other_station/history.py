"""When and what each Mokgosi FM listener sent: a lifetime (joined on a day, maybe gone after some weeks), a daily
rate from their habit, the station's seasons and competitions, and a message for most written interactions.

Churn here is a hazard, not an archetype: jackpot crowds join in a burst and half of them leave within weeks,
casual listeners drift away at about 1.6% a week, faders' rates decay from the day they join. The segments of
segments.md are not built in: they follow from the rows (the tests check that each one occurs).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from bench.other_station import catalogue as cat
from bench.other_station import words as w
from bench.other_station.calendar import HISTORY_DAYS, SLOTS, Calendar, show_at
from bench.other_station.people import Listener, writes_in

HOUR_CDF = np.cumsum(cat.HOUR_WEIGHTS) / np.sum(cat.HOUR_WEIGHTS)
TYPE_CDF = np.cumsum(cat.CAMPAIGN_SHARES) / np.sum(cat.CAMPAIGN_SHARES)
CHANNELS = list(cat.CHANNELS)
HAZARD = {"regular": 0.008, "chatty": 0.004, "casual": 0.016, "chaser": 0.01, "fader": 0.012}  # per week


@dataclass
class Event:
    """One interaction as sent."""

    t: float
    channel: int
    kind: str
    slot: int | None
    message: str | None = None
    said: set = field(default_factory=set)
    at_show: bool = False


def lifetime(p: Listener, rng) -> tuple[int, int]:
    """(J, E): the day (before now) the listener first interacted and the day of their last (E = 0: still here)."""
    u = rng.random()
    if u < 0.05:
        return int(rng.integers(0, 7)), 0
    if u < 0.27:
        start, length, _ = cat.JACKPOTS[int(rng.integers(len(cat.JACKPOTS)))]
        joined = start - int(rng.integers(0, length))
        if rng.random() < 0.55:
            return joined, max(0, joined - int(rng.integers(10, 60)))
    else:
        joined = int(rng.integers(60, 200)) if p.habit == "fader" else int(rng.integers(8, HISTORY_DAYS))
    left = joined - 7 * int(rng.geometric(HAZARD[p.habit]))
    return joined, max(0, left)


def daily_counts(p: Listener, cal: Calendar, joined: int, left: int, rng) -> tuple[np.ndarray, np.ndarray]:
    """Interactions per day k (index k) and how many of them are at the favourite show's hour."""
    alive = np.zeros(HISTORY_DAYS, dtype=bool)
    alive[left:joined + 1] = True
    rate = np.zeros(HISTORY_DAYS)
    at_show = np.zeros(HISTORY_DAYS)
    if p.habit == "chatty":
        rate[:] = rng.lognormal(np.log(0.45), 0.4)
    elif p.habit == "casual":
        rate[:] = rng.uniform(0.015, 0.07)
    elif p.habit == "fader":
        age = joined - np.arange(HISTORY_DAYS)
        rate[:] = rng.uniform(0.2, 0.5) * 0.5 ** (age.clip(0) / rng.uniform(30, 90))
    elif p.habit == "chaser":
        rate[:] = 0.01 + cal.competing * np.where(cal.jackpot >= 0, rng.uniform(0.5, 1.5), rng.uniform(0.3, 1.0))
    else:
        rate[:] = 0.015
        at_show[cal.airings(p.fav)] = rng.uniform(0.55, 0.9)
    counts = rng.poisson(rate * cal.activity * alive)
    shows = (rng.random(HISTORY_DAYS) < (at_show * cal.activity).clip(max=1)) & alive
    counts[joined] = max(1, counts[joined])
    if left:
        counts[left] = max(1, counts[left])
    return counts, shows.astype(int)


def _entry_chance(p: Listener, cal: Calendar, k: int) -> float:
    if not cal.competing[k]:
        return 0.0
    if p.habit == "chaser":
        return 0.97
    return 0.25 if cal.jackpot[k] >= 0 else 0.07


def _event(p: Listener, cal: Calendar, k: int, at_show: bool, rng) -> Event:
    """One interaction on day k: at the favourite show's hour, or at an hour drawn from the station's day."""
    if at_show:
        _, start, end = SLOTS[p.fav]
        minute = int(rng.integers(start, end))
    else:
        minute = int(np.searchsorted(HOUR_CDF, rng.random())) * 60 + int(rng.integers(60))
    t = cal.moment(k, minute, int(rng.integers(60)))
    day, weekday, minute = cal.day_of(t)
    entry = rng.random() < _entry_chance(p, cal, day)
    u, v, x = rng.random(3)
    split = 0.5 if p.habit == "chatty" else 0.7
    channel = p.primary if u < split else p.secondary if u < 0.95 else CHANNELS[int(x * len(CHANNELS))]
    if entry and v < 0.5:
        channel = cat.SMS
    kind = "competition" if entry else cat.CAMPAIGN_TYPES[int(np.searchsorted(TYPE_CDF, v))]
    if kind == "prayer_request" and not p.prays:
        kind = "dedication"
    return Event(t, channel, kind, show_at(weekday, minute), at_show=at_show)


def events_of(p: Listener, cal: Calendar, rng) -> list[Event]:
    """Every interaction of the listener, in time order, with its message."""
    joined, left = lifetime(p, rng)
    counts, shows = daily_counts(p, cal, joined, left, rng)
    events = [_event(p, cal, k, False, rng) for k in np.flatnonzero(counts).tolist() for _ in range(counts[k])]
    events += [_event(p, cal, k, True, rng) for k in np.flatnonzero(shows).tolist()]
    events.sort(key=lambda e: e.t)
    for e in events:
        if e.channel not in cat.SPOKEN and rng.random() < 0.88:
            e.message = message(p, e, cal, rng)
    _say_what_matters(p, events, rng)
    return events


def _choose(rng, phrasings, language: str) -> str:
    own = [text for lang, text in phrasings if lang == language]
    pool = own if own and rng.random() < 0.6 else [text for _, text in phrasings]
    return pool[int(rng.integers(len(pool)))]


def taste_request(p: Listener, rng, language: str) -> str:
    """A request for the listener's message-only taste, in one of its phrasings."""
    return w.texted(_choose(rng, w.MESSAGE_TASTES[p.message_taste], language), rng)


def theme_message(p: Listener, rng, language: str) -> str:
    """A message raising the listener's theme."""
    return w.texted(_choose(rng, w.THEMES[p.theme][1], language).format(place=p.written_place), rng)


def _template(options: dict, language: str, rng) -> str:
    texts = options.get(language) or options[w.EN]
    return texts[int(rng.integers(len(texts)))]


def _request(p: Listener, e: Event, language: str, rng) -> str:
    """A song request naming a station-held music taste by an artist or its genre (the listener's own, if any)."""
    music = [t for t in p.tastes if t in cat.MUSIC] or [cat.MUSIC[int(rng.integers(len(cat.MUSIC)))]]
    taste = music[int(rng.integers(len(music)))]
    if taste in p.tastes:
        e.said.add(f"held-{taste}")
    names = cat.TASTES[taste][1] if rng.random() < 0.7 else w.GENRE_WORDS[taste]
    return _template(w.REQUEST, language, rng).format(x=names[int(rng.integers(len(names)))])


def message(p: Listener, e: Event, cal: Calendar, rng) -> str:
    """What the listener wrote with interaction e (its `said` holds a message-only taste or theme it names)."""
    language = writes_in(p, rng)
    if e.kind == "competition":
        keyword = cal.keyword[cal.day_of(e.t)[0]] or "MOKGOSI"
        template = w.COMPETITION[int(rng.integers(len(w.COMPETITION)))]
        return template.format(keyword=keyword, place=p.written_place, name=p.name[0])
    if e.kind == "song_request" and p.message_taste and rng.random() < 0.45:
        e.said.add(f"taste-{p.message_taste}")
        return taste_request(p, rng, language)
    if e.kind == "song_request":
        return w.texted(_request(p, e, language, rng), rng)
    if p.theme and e.kind == w.THEMES[p.theme][0] and rng.random() < 0.35:
        e.said.add(f"theme-{p.theme}")
        return theme_message(p, rng, language)
    talk = [t for t in p.tastes if t in w.TALK]
    if e.kind == "feedback" and talk and rng.random() < 0.4:
        taste = talk[int(rng.integers(len(talk)))]
        names = cat.TASTES[taste][1]
        e.said.add(f"held-{taste}")
        return _template({w.EN: w.TALK[taste]}, w.EN, rng).format(x=names[int(rng.integers(len(names)))])
    return w.texted(_template(w.GENERAL[e.kind], language, rng).format(place=p.written_place), rng)


def _say_what_matters(p: Listener, events: list[Event], rng) -> None:
    """A listener's latest written message names their message-only taste, the one before it their theme: what
    people ask for they ask for again, and recent messages are what a station reads."""
    wanted = [("taste", p.message_taste), ("theme", p.theme)]
    wanted = [(kind, value) for kind, value in wanted if value]
    if not wanted:
        return
    written = [e for e in events if e.message is not None]
    if not written:
        events[-1].channel, written = cat.WHATSAPP, [events[-1]]
    for (kind, value), e in zip(wanted, reversed(written)):
        language = writes_in(p, rng)
        if kind == "taste":
            e.kind, e.message = "song_request", taste_request(p, rng, language)
        else:
            e.kind, e.message = w.THEMES[value][0], theme_message(p, rng, language)
        e.said = {f"{kind}-{value}"}
