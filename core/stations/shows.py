"""A station's weekly schedule: which show airs at a local minute, and the titles of its shows.

`end` is exclusive, a show whose end is at or before its start runs past midnight, and where shows overlap a minute
belongs to the lowest `timeslot_id` (ingest.md, shows).
"""
from __future__ import annotations

from collections.abc import Iterable

from core.stations.models import Show

WEEK_MINUTES = 7 * 1440


def minutes(hhmm: str) -> int:
    """Minutes after midnight of an "HH:MM" time."""
    hours, mins = hhmm.split(":")
    return int(hours) * 60 + int(mins)


def timeslot_lookup(shows: Iterable[dict]) -> list:
    """Minute of the local week (Monday 00:00 = 0) -> timeslot_id airing then; overlaps go to the lowest id."""
    slots = [None] * WEEK_MINUTES
    for show in sorted(shows, key=lambda s: -s["timeslot_id"]):
        start, end = minutes(show["start"]), minutes(show["end"])
        length = end - start if end > start else end + 1440 - start
        for day in show["days"]:
            first = (day - 1) * 1440 + start
            for minute in range(first, first + length):
                slots[minute % WEEK_MINUTES] = show["timeslot_id"]
    return slots


def schedule(company_id: int) -> list:
    """The station's minute-of-week lookup, from its stored shows."""
    return timeslot_lookup(Show._get_collection().find({"company_id": company_id}, {"_id": 0}))


def show_titles(company_id: int) -> dict[int, str]:
    """Timeslot id -> show title."""
    shows = Show._get_collection().find({"company_id": company_id}, {"_id": 0, "timeslot_id": 1, "title": 1})
    return {s["timeslot_id"]: s.get("title") for s in shows}  # read raw: a search asks twice, documents cost 8 ms


def timeslot_ids(company_id: int) -> list[int]:
    """The station's timeslot ids, in order."""
    return sorted(s.timeslot_id for s in Show.objects(company_id=company_id).only("timeslot_id"))
