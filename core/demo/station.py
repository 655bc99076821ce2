"""A deterministic demo station: channels, shows, declared profiles and 13 months of interactions, as ingest rows.

`generate_station` describes the station; its iterators yield rows in the formats of ingest.md, listener batch by
listener batch, so that a million listeners never sit in memory at once. The same seed and `now` give the same rows.
Who the listeners are is core.demo.people; when they interacted, core.demo.history; what with, core.demo.catalogue.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property

import numpy as np

from core.clock import as_utc
from core.demo import catalogue as cat
from core.demo.history import TYPES, Calendar, place, plan_histories
from core.demo.people import ARCHETYPES, CITY_TABLE, NAME_POOLS, make_people

BATCH = 2000


@dataclass(frozen=True)
class DemoStation:
    """One demo station as of `now`; every iterator can be consumed any number of times."""

    company_id: int
    listeners: int
    seed: int
    now: datetime

    @cached_property
    def calendar(self) -> Calendar:
        """Weekdays, shows on air, competitions and holidays of the days before `now`."""
        return Calendar(self.now)

    def channels(self) -> Iterator[dict]:
        """The station's seven channels with its own names."""
        for channel_type, name in cat.CHANNELS.items():
            yield {"company_id": self.company_id, "channel_type": channel_type, "name": name}

    def shows(self) -> Iterator[dict]:
        """The week's schedule: every hour of every day belongs to one show."""
        for timeslot_id, title, days, start, end, *_ in cat.SHOWS:
            yield {"company_id": self.company_id, "timeslot_id": timeslot_id, "title": title, "days": list(days),
                   "start": start, "end": end}

    def batches(self) -> Iterator[dict]:
        """The listeners' latent attributes, BATCH at a time."""
        for start in range(0, self.listeners, BATCH):
            yield make_people(self.seed, start, min(BATCH, self.listeners - start))

    def profiles(self) -> Iterator[dict]:
        """Declared data of the listeners who gave any (a row carries only the fields they declared)."""
        for p in self.batches():
            for i in np.flatnonzero(p["declared"]["has_profile"]).tolist():
                yield _profile_row(p, i, self.company_id, self.now.year)

    def archetypes(self) -> Iterator[tuple[str, str]]:
        """(originator, archetype) of every listener: the segment its history was built for."""
        for p in self.batches():
            yield from zip(p["originator"], (ARCHETYPES[a] for a in p["archetype"].tolist()))

    def interactions(self) -> Iterator[dict]:
        """Every interaction, listener by listener in time order, with an idempotent interaction_id."""
        for p in self.batches():
            rng = np.random.default_rng([self.seed, int(p["index"][0]), 2])
            events = place(rng, plan_histories(rng, p, self.calendar), p, self.calendar)
            yield from _interaction_rows(self, p, events)


def generate_station(company_id: int, listeners: int, seed: int, now: datetime) -> DemoStation:
    """The demo station of this size and seed as of `now`."""
    return DemoStation(company_id=company_id, listeners=listeners, seed=seed, now=as_utc(now))


def _luhn(digits: str) -> str:
    """The Luhn check digit that completes a South African ID number."""
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch) * (2 if i % 2 == 0 else 1)
        total += d - 9 if d > 9 else d
    return str((10 - total % 10) % 10)


def _id_number(p: dict, i: int, year: int) -> str:
    """YYMMDD of a birth date within the age group, gender digits, citizenship, 8, check digit."""
    low, high = cat.AGE_BIRTH_YEARS[p["age"][i]]
    b = p["birth"][i]
    born = year - low - int(b[0] * (high - low + 1))
    serial = int(p["id_serial"][i]) + (5000 if p["gender"][i] == 1 else 0)
    digits = f"{born % 100:02d}{1 + int(b[1] * 12):02d}{1 + int(b[2] * 28):02d}{serial:04d}08"
    return digits + _luhn(digits)


def _names(p: dict, i: int) -> tuple[str, str]:
    female, male, surnames = cat.NAMES[NAME_POOLS[p["pool"][i]]]
    firsts = male if p["gender"][i] == 1 else female
    return firsts[p["first"][i] % len(firsts)], surnames[p["surname"][i] % len(surnames)]


def _tags(p: dict, i: int) -> list[str]:
    """Interests: the favourite show's genre, competitions for chasers, a few others."""
    tags = [cat.GENRE_TAGS[cat.SHOWS[p["fav"][i]][5]]]
    if p["archetype"][i] == ARCHETYPES.index("competition_chaser"):
        tags.append("competitions")
    tags += [tag for tag, on in zip(cat.EXTRA_TAGS, p["tags_extra"][i]) if on and tag not in tags]
    return tags


def _profile_row(p: dict, i: int, company_id: int, year: int) -> dict:
    """The declared fields of listener i, those it declared only."""
    first, surname = _names(p, i)
    city, province, _ = CITY_TABLE[p["city"][i]]
    originator = p["originator"][i]
    handle = f"{first}.{surname}".lower().replace(" ", "")
    values = {
        "name": f"{first} {surname}", "email": f"{handle}{p['email_n'][i]}@{cat.EMAIL_DOMAINS[p['domain'][i]]}",
        "mobile_number": "+" + (originator[:4] + originator[:3:-1] if p["other_mobile"][i] else originator),
        "gender": cat.GENDERS[p["gender"][i]], "age": cat.AGE_GROUPS[p["age"][i]],
        "location": province if p["province_only"][i] else city, "language": cat.LANGUAGES[p["language"][i]],
        "ethnicity": cat.ETHNICITIES[p["ethnicity"][i]], "id_number": _id_number(p, i, year),
        "income_bracket": cat.INCOME_BRACKETS[p["income"][i]], "education": cat.EDUCATION[p["education"][i]],
        "employment_status": cat.EMPLOYMENT[p["employment"][i]], "tags": _tags(p, i),
        "opt_in": bool(p["opt_in"][i]), "permission": bool(p["permission"][i]),
    }
    row = {"company_id": company_id, "originator": originator}
    row.update({("age_group" if f == "age" else f): v for f, v in values.items() if p["declared"][f][i]})
    return row


def _message(kind: str, language: str, variant: int, fill: dict) -> str:
    templates = cat.MESSAGES[kind][language]
    return templates[variant % len(templates)].format(**fill)


def _song(genre: str, language: str, variant: int) -> tuple[str, str]:
    pool = "afrikaans" if language == "Afrikaans" and variant % 3 == 0 else cat.GENRE_SONGS.get(genre, "music")
    songs = cat.SONGS[pool]
    return songs[(variant >> 4) % len(songs)]


def _fill(station: DemoStation, p: dict, e: dict, i: int, j: int) -> tuple[str, dict]:
    """Which template family and what goes into it, for interaction i of listener j (index within the batch)."""
    kind = TYPES[e["type"][i]]
    holiday = station.calendar.holiday[e["k"][i]]
    if kind == "shoutout" and holiday:
        kind = "holiday"
    show = cat.SHOWS[e["show"][i]]
    language = cat.LANGUAGES[e["language"][i]]
    song, artist = _song(show[5], language, int(e["variant"][i]))
    keyword = station.calendar.campaigns[e["campaign"][i]][1] if kind == "competition" else ""
    fill = {"song": song, "artist": artist, "city": CITY_TABLE[p["city"][j]][0], "holiday": holiday or "",
            "keyword": keyword, "name": _names(p, j)[0]}
    return kind, fill


def _interaction_rows(station: DemoStation, p: dict, e: dict) -> Iterator[dict]:
    local = (e["t"] + cat.UTC_OFFSET_HOURS * 3600).astype("datetime64[s]")
    stamps = np.datetime_as_string(local, unit="s").tolist()
    timeslots = np.asarray([show[0] for show in cat.SHOWS])[e["show"]].tolist()
    columns = zip(e["who"].tolist(), e["rank"].tolist(), stamps, e["channel"].tolist(), e["type"].tolist(),
                  timeslots, e["has_message"].tolist())
    for i, (j, rank, stamp, channel, kind, timeslot, has_message) in enumerate(columns):
        row = {"company_id": station.company_id, "originator": p["originator"][j],
               "timestamp": stamp + cat.OFFSET_SUFFIX, "channel_type": channel, "campaign_type": TYPES[kind],
               "timeslot_id": timeslot, "interaction_id": f"{station.seed}-{p['index'][j]}-{rank}"}
        if has_message:
            template, fill = _fill(station, p, e, i, j)
            row["message"] = _message(template, cat.LANGUAGES[e["language"][i]], int(e["variant"][i]), fill)
        yield row
