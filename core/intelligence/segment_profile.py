"""A segment's composite profile set against its whole station: declared and inferred demographics, channel
preferences, interests and engagement patterns, each value with the share of the segment and of the station and the
lift between them, and in plain English the traits that most set the segment apart.

The counts are those of the explorer's aggregate (core.explore.operations), one vectorised pass over the snapshot for
the profiled listeners and one for the station; erased listeners are in neither. At most `limit` listeners of the
segment are profiled: the most engaged first (highest RFM total: recency + frequency + engagement scores), then by
originator, so that the same snapshot always gives the same profile.
"""
from __future__ import annotations

import calendar

import numpy as np

from core.clock import iso_from_epoch
from core.errors import ValidationFailed
from core.explore.filters import ListenerFilter
from core.explore.operations import Selection, breakdown
from core.listeners import snapshot
from core.listeners.snapshot import Snapshot
from core.segmentation.insights import MEMBERS
from core.segmentation.rules import LABELS, MEANINGS, SEGMENTS
from core.stations.companies import get_company
from core.stations.labels import label_of
from core.stations.models import Company
from core.stations.shows import show_titles
from core.text.query import check_bounds
from core.text.wording import agree, article, daypart, number, percent, sentence

DEFAULT_LIMIT, MAX_LIMIT = 500, 100_000
"""Listeners profiled by default and at most (the spec gives the default; the bound lets the document state one)."""
GROUPS = {
    "declared": ("gender", "age_group", "language", "location", "ethnicity", "income_bracket", "education",
                 "employment_status"),
    "inferred": ("inferred_gender", "inferred_age_group", "inferred_language", "inferred_location", "inferred_lsm"),
    "channels": ("channel_type", "has_channel"),
    "interests": ("inferred_interests", "tags", "campaign_type"),
    "engagement": ("peak_time_of_day", "primary_day_of_week", "peak_month", "weekday_pattern", "timeslot_id"),
}
"""The facets of the profile by group; a facet is named like the filter parameter that selects its values."""
MULTI = {"has_channel", "inferred_interests", "tags", "campaign_type", "timeslot_id"}
"""Facets where a listener counts under each of their values, so that shares do not add up to 1."""
ABSENT = {"declared": "Not given", "inferred": "Not inferred", "channels": "No interactions",
          "engagement": "No interactions"}
"""What the entry of listeners without a value of a single-valued facet is called (value null)."""
MIN_SHARE, MIN_COUNT, MIN_LIFT, DISTINCTIVE = 0.10, 3, 1.2, 5
"""A distinctive trait holds for at least 10% and 3 of the profiled listeners, at 1.2 times the station's share or
more; the 5 with the highest lift are given."""
PHRASES = {
    "gender": "give their gender as {}", "age_group": "are aged {}", "language": "speak {}", "location": "live in {}",
    "ethnicity": "give their ethnicity as {}", "income_bracket": "are in the {} income bracket",
    "education": "give their education as {}", "employment_status": "give their employment as {}",
    "inferred_gender": "are inferred to be {}", "inferred_age_group": "are inferred to be aged {}",
    "inferred_language": "are inferred to speak {}", "inferred_location": "are inferred to live in {}",
    "inferred_lsm": "are inferred to be in {}", "inferred_interests": "are inferred to be interested in {}",
    "tags": "are tagged {}", "campaign_type": "have taken part in {}", "channel_type": "mostly use {}",
    "has_channel": "have used {}", "peak_time_of_day": "are most active {}",
    "primary_day_of_week": "are most active on {}s",
    "peak_month": "were most active in {}", "weekday_pattern": "{}", "timeslot_id": "have engaged with {}",
}
"""Each facet's trait as the predicate of a sentence about some of the segment's listeners."""
WEEKDAYS = {"true": "mostly interact on weekdays", "false": "interact at weekends too"}


def check_segment(key: str) -> str:
    """A known segment key, else 422 naming the known ones (not the asked-for key: a path can carry anything)."""
    if key not in SEGMENTS:
        raise ValidationFailed.one(["path", "segment_key"], f"Unknown segment. Known segments: {', '.join(SEGMENTS)}.")
    return key


def check_limit(limit: int) -> int:
    """1 <= limit <= MAX_LIMIT, else 422."""
    try:
        return check_bounds(limit, 1, MAX_LIMIT)
    except ValueError as error:
        raise ValidationFailed.one(["query", "limit"], str(error)) from None


def segment_profile(company_id: int, segment_key: str, limit: int = DEFAULT_LIMIT) -> dict:
    """The composite profile of up to `limit` of the segment's most engaged listeners against the whole station."""
    check_segment(segment_key)
    check_limit(limit)
    company = get_company(company_id)
    return profile_of(company, snapshot.current(company_id), segment_key, limit, show_titles(company_id))


def profile_of(company: Company, snap: Snapshot, segment_key: str, limit: int, titles: dict) -> dict:
    """The profile from a snapshot already read (pure: no database)."""
    tz = company.timezone
    station = Selection(company, snap, ListenerFilter().mask(snap, tz))
    members = ListenerFilter({"segment": (segment_key,)}).mask(snap, tz)
    chosen = most_engaged(snap, np.flatnonzero(members), limit)
    mask = np.zeros(len(snap), dtype=bool)
    mask[chosen] = True
    profiled = Selection(company, snap, mask)
    ours, theirs = breakdown(profiled, titles), breakdown(station, titles)
    out = {"company_id": company.company_id, "segment": segment_key, "label": LABELS[segment_key],
           "meaning": MEANINGS[segment_key], "size": int(members.sum()), "profiled": int(len(chosen)), "limit": limit,
           "station_size": int(station.mask.sum()), "as_of": _as_of(snap, station.mask)}
    labels = {pair["tag"]: pair["label"] for pair in company.tag_labels or []}
    for group, names in GROUPS.items():
        out[group] = {name: facet(name, group, ours, theirs, labels) for name in names}
    out["distinctive"] = distinctive(out, segment_key)
    return out


def most_engaged(snap: Snapshot, rows: np.ndarray, limit: int) -> np.ndarray:
    """Up to `limit` of the rows: highest RFM total first, then by originator (deterministic), in row order."""
    if len(rows) <= limit:
        return rows
    rfm = sum(snap.cols[name][rows].astype(np.int64) for name in ("rfm_recency", "rfm_frequency", "rfm_engagement"))
    order = np.lexsort((snap.originators[rows], -rfm))
    return np.sort(rows[order[:limit]])


def _as_of(snap: Snapshot, mask: np.ndarray) -> str | None:
    """When the station's listeners were last profiled (ISO 8601 UTC), None before the first segmentation."""
    if "as_of" not in snap.cols or not mask.any():
        return None
    return iso_from_epoch(int(snap.cols["as_of"][mask].max()))


def _counts(aggregate: dict, name: str) -> dict[str, tuple[int, str | None]]:
    """Listeners per value of a facet in an aggregate, with the value's name where the aggregate gives one."""
    raw = aggregate.get("timeslot_counts" if name == "timeslot_id" else name) or {}
    out = {}
    for value, entry in raw.items():
        if isinstance(entry, dict):
            out[value] = (entry["count"], entry.get("name") or entry.get("title"))
        elif value != "unknown":
            out[value] = (entry, None)
    return out


def _label(name: str, value: str, given: str | None, labels: dict[str, str]) -> str | None:
    """How people name a coded value (channels, shows, days, months, the weekday pattern, tags and interests by the
    station's names); None where the value reads as it is."""
    if given:
        return given
    if name in ("tags", "inferred_interests"):
        return label_of(value, labels)
    if name == "primary_day_of_week":
        return calendar.day_name[int(value) - 1]
    if name == "peak_month":
        return calendar.month_name[int(value)]
    if name == "weekday_pattern":
        return "Mostly weekdays" if value == "true" else "Weekends too"
    return None


def facet(name: str, group: str, ours: dict, theirs: dict, labels: dict[str, str] | None = None) -> list[dict]:
    """Every value the station has, the segment's count and share beside the station's, and the lift; listeners
    without a value of a single-valued facet under value null. Most common in the segment first."""
    seg_total, station_total = ours.get("total", 0), theirs.get("total", 0)
    mine, station = _counts(ours, name), _counts(theirs, name)
    rows = [_entry(value, _label(name, value, given, labels or {}), mine.get(value, (0, None))[0], count, seg_total,
                   station_total) for value, (count, given) in station.items()]
    if name not in MULTI:
        seg_absent = seg_total - sum(c for c, _ in mine.values())
        station_absent = station_total - sum(c for c, _ in station.values())
        if station_absent:
            rows.append(_entry(None, ABSENT[group], seg_absent, station_absent, seg_total, station_total))
    rows.sort(key=lambda r: (r["value"] is None, -r["segment_count"], -r["station_count"], str(r["value"])))
    return rows


def _entry(value, label, count: int, station_count: int, total: int, station_total: int) -> dict:
    share = count / total if total else 0.0
    station_share = station_count / station_total if station_total else 0.0
    entry = {"value": value, "segment_count": int(count), "segment_share": round(share, 4),
             "station_count": int(station_count), "station_share": round(station_share, 4),
             "lift": round(share / station_share, 2) if station_share else None}
    if label is not None:
        entry["label"] = label
    return entry


def distinctive(profile: dict, segment_key: str) -> list[dict]:
    """The traits that most set the segment apart: highest lift among values held by enough of the profiled
    listeners (MIN_SHARE, MIN_COUNT, MIN_LIFT), each with its sentence."""
    found = [{"facet": name, **row} for group in GROUPS for name, rows in profile[group].items() for row in rows
             if row["value"] is not None and row["segment_count"] >= MIN_COUNT and row["segment_share"] >= MIN_SHARE
             and (row["lift"] or 0) >= MIN_LIFT]
    found.sort(key=lambda r: (-r["lift"], -r["segment_share"], r["facet"], str(r["value"])))
    return [{**trait, "sentence": trait_sentence(trait, segment_key)} for trait in found[:DISTINCTIVE]]


def trait_sentence(trait: dict, segment_key: str) -> str:
    """"62% of super fans are most active at breakfast, against 30% of the station's listeners (2.1 times as
    many)"."""
    name, value = trait["facet"], str(trait["value"])
    shown = trait.get("label") or value.replace("_", " ")
    if name == "peak_time_of_day":
        shown = daypart(value)
    elif name == "weekday_pattern":
        shown = WEEKDAYS[value]
    elif name == "campaign_type":
        shown = article(shown)
    who = f"{percent(trait['segment_share'])} of the profiled {agree(2, MEMBERS[segment_key])}"
    return sentence(f"{who} {PHRASES[name].format(shown)}, against {percent(trait['station_share'])} of the "
                    f"station's listeners ({number(trait['lift'])} times as many)")
