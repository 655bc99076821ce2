"""The profile of a filtered audience that a recommendation rests on, every count a vectorised pass over the snapshot.

Size, reachable (opted in and permission given), segments, primary channels, dayparts, days, shows and interests are
counted over the whole audience. Churn risk and the themes of messages need each listener's interactions, so they are
read for a sample of `sample_size` listeners: evenly spread over the audience ordered by latest interaction (then by
number), so that the same snapshot always gives the same sample and quiet and busy listeners are both in it.

Every figure a claim may cite is also in `figures`, by a name such as `segment.super_fan` or `channel.2`.
"""
from __future__ import annotations

import calendar
import re

import numpy as np

from core.ai.interests import THEMES
from core.churn.explain import LEVELS, level_codes
from core.explore.filters import ListenerFilter
from core.explore.operations import Selection, select
from core.explore.records import reachable
from core.search.texts import latest_messages
from core.segmentation.rules import LABELS
from core.stations.defaults import spoken_channel
from core.stations.shows import show_titles
from core.text.wording import agree, number, percentage, plural

TOP = 5
SAMPLE_DRAWN = ("evenly spread over the audience ordered by latest interaction (most recent first, then by number): "
                "every k-th listener, the same for the same data")
_THEMES = {theme: re.compile(words, re.IGNORECASE) for theme, words in THEMES.items()}


def audience_profile(company_id: int, flt: ListenerFilter, sample_size: int) -> dict:
    """The profile of the listeners the filter selects (see the module docstring)."""
    sel = select(company_id, flt)
    return profile_of(sel, flt, sample_size, show_titles(company_id))


def profile_of(sel: Selection, flt: ListenerFilter, sample_size: int, titles: dict) -> dict:
    """The profile of a selection already made."""
    snap, rows = sel.snap, sel.rows
    size = int(len(rows))
    if not size:
        return {"size": 0, "reachable": 0, "emptied_by": emptied_by(sel, flt), "sample": {"size": 0},
                "figures": {"size": 0, "reachable": 0}}
    reached = int(reachable(snap, rows).sum())
    channels = sel.company.channel_names()
    out = {"size": size, "reachable": reached, "reachable_share": percentage(reached, size),
           "segments": _counted(snap.cols["segment"][rows], snap.vocab["segment"], size,
                                lambda k: LABELS.get(k, k)),
           "channels": _channels(snap.cols["primary_channel"][rows], size, channels),
           "dayparts": _counted(snap.cols["peak_time_of_day"][rows], snap.vocab["peak_time_of_day"], size, str),
           "days": _days(snap.cols["primary_day_of_week"][rows], size),
           "weekday_share": percentage(int(snap.cols["weekday_pattern"][rows].sum()), size),
           "shows": _members(snap.cols["timeslots"][rows], snap.vocab.get("timeslots", []), size,
                             lambda t: titles.get(int(t), f"Show {t}")),
           "interests": _interests(snap, rows, size)}
    chosen = sample_rows(snap, rows, sample_size)
    originators = [str(o) for o in snap.originators[chosen].tolist()]
    out["sample"] = {"size": len(chosen), "drawn": SAMPLE_DRAWN}
    out["churn"] = _churn(snap, chosen)
    out["themes"] = _themes(sel.company.company_id, originators)
    out["figures"] = figures(out)
    out["widening"] = widening(sel, flt)
    return out


def widening(sel: Selection, flt: ListenerFilter) -> list[dict]:
    """For each filter of the audience, the listeners (and reachable ones) it would hold without that filter, most
    reachable first: what a plan proposes when its reach is too thin for its budget."""
    tz, values, out = sel.company.timezone, flt.as_values(), []
    for name in flt.values:
        rows = np.flatnonzero(ListenerFilter({k: v for k, v in flt.values.items() if k != name}).mask(sel.snap, tz))
        out.append({"field": name, "value": values[name], "size": int(len(rows)),
                    "reachable": int(reachable(sel.snap, rows).sum())})
    return sorted(out, key=lambda e: -e["reachable"])


def _entry(value, label: str, count: int, whole: int) -> dict:
    return {"value": value, "label": label, "count": count, "share": percentage(count, whole)}


def _counted(codes: np.ndarray, vocab: list, whole: int, label, top: int | None = None) -> list[dict]:
    """Listeners per value of a categorical column, most first."""
    counts = np.bincount(codes[codes >= 0], minlength=len(vocab))
    pairs = sorted(((str(v), int(c)) for v, c in zip(vocab, counts) if c), key=lambda p: (-p[1], p[0]))
    return [_entry(v, label(v), c, whole) for v, c in pairs[:top]]


def _channels(ids: np.ndarray, whole: int, names: dict) -> list[dict]:
    """Listeners per primary channel, most first, each channel named as a plan says it (never its number)."""
    values, counts = np.unique(ids[ids > 0], return_counts=True)
    pairs = sorted(zip(values.tolist(), counts.tolist()), key=lambda p: (-p[1], p[0]))
    return [_entry(int(v), spoken_channel(names, int(v)), int(c), whole) for v, c in pairs[:TOP]]


def _days(days: np.ndarray, whole: int) -> list[dict]:
    values, counts = np.unique(days[days > 0], return_counts=True)
    pairs = sorted(zip(values.tolist(), counts.tolist()), key=lambda p: (-p[1], p[0]))
    return [_entry(int(v), calendar.day_name[int(v) - 1], int(c), whole) for v, c in pairs]


def _members(matrix: np.ndarray, vocab: list, whole: int, label) -> list[dict]:
    """Listeners with each value of a multi-valued column (one listener counts under each of theirs), most first."""
    counts = matrix.sum(axis=0) if matrix.size else np.zeros(len(vocab), dtype=np.int64)
    pairs = sorted(((v, int(c)) for v, c in zip(vocab, counts) if c), key=lambda p: (-p[1], str(p[0])))
    return [_entry(v, label(v), c, whole) for v, c in pairs[:TOP]]


def _interests(snap, rows: np.ndarray, whole: int) -> list[dict]:
    """Declared tags and inferred interests together, most held first."""
    found = []
    for column in ("tags", "inferred_interests"):
        vocab = snap.vocab.get(column, [])
        if vocab:
            found += _members(snap.cols[column][rows], vocab, whole, lambda v: str(v).replace("_", " "))
    return sorted(found, key=lambda e: (-e["count"], str(e["value"])))[:TOP]


def sample_rows(snap, rows: np.ndarray, sample_size: int) -> np.ndarray:
    """Up to `sample_size` of the rows, evenly spread over them ordered by latest interaction, then by number."""
    order = rows[np.lexsort((snap.originators[rows], -snap.cols["last_ts"][rows].astype(np.int64)))]
    if len(order) <= sample_size:
        return order
    return order[np.unique(np.linspace(0, len(order) - 1, sample_size).round().astype(np.int64))]


def _churn(snap, rows: np.ndarray) -> dict:
    """The sample's churn-risk mix: listeners at low, medium and high risk, as the last run scored them
    (core.churn)."""
    churn = snap.cols["churn"][rows] if "churn" in snap.cols else np.zeros(0)
    counts = np.bincount(level_codes(churn), minlength=len(LEVELS)) if len(churn) else np.zeros(len(LEVELS), int)
    return {"sampled": int(len(churn)),
            **{level: {"count": int(counts[i]), "share": percentage(int(counts[i]), len(churn))}
               for i, level in enumerate(LEVELS)}}


def _themes(company_id: int, originators: list[str]) -> list[dict]:
    """Themes of the sample's latest messages: how many sampled listeners touched each, most first."""
    messages = latest_messages(company_id, originators)
    counts = {theme: sum(any(p.search(m) for m in texts) for texts in messages.values())
              for theme, p in _THEMES.items()}
    pairs = sorted(((t, c) for t, c in counts.items() if c), key=lambda p: (-p[1], p[0]))
    return [_entry(t, t, c, len(originators)) for t, c in pairs[:TOP]]


FIGURE_GROUPS = {"segment": "segments", "channel": "channels", "daypart": "dayparts", "day": "days", "show": "shows",
                 "interest": "interests", "sample.theme": "themes"}
"""The prefix of a figure's name -> the profile's list its value is an entry of ("show.6": the entry 6 of shows)."""


def figures(profile: dict) -> dict:
    """Every figure a claim may cite, by name."""
    out = {"size": profile["size"], "reachable": profile["reachable"]}
    for name, entries in FIGURE_GROUPS.items():
        out.update({f"{name}.{e['value']}": e["count"] for e in profile.get(entries, [])})
    out["weekday_share"] = profile.get("weekday_share", 0)
    out["sample.size"] = profile["sample"]["size"]
    out.update({f"sample.churn.{level}": profile["churn"][level]["count"] for level in LEVELS
                if "churn" in profile})
    return out


def figure_words(name: str, value, profile: dict) -> str:
    """A figure as a person reads it, with the station's names ("Occasional engagers: 23 of the audience", never
    "segment.occasional_engager = 23"): what a plan forwarded to an advertiser shows beside each claim."""
    sampled = profile.get("sample", {}).get("size", 0)
    fixed = {"size": f"{plural(value, 'listener')} {agree(value, 'matches', 'match')} the brief",
             "reachable": f"{number(value)} of them can be messaged directly (opted in, with permission)",
             "weekday_share": f"{number(value)}% of them are mostly active on weekdays",
             "sample.size": f"{plural(value, 'listener')} sampled for their messages"}
    if name in fixed:
        return fixed[name]
    group, _, key = name.rpartition(".")
    if group == "sample.churn":
        return f"{number(value)} of the {number(sampled)} sampled are at {key} risk of going quiet"
    entry = next((e for e in profile.get(FIGURE_GROUPS.get(group, ""), []) if str(e["value"]) == key), None)
    label = entry["label"] if entry else key.replace("_", " ")
    if group == "sample.theme":
        return f"{_capitalised(label)} in the messages of {number(value)} of the {number(sampled)} sampled"
    return f"{_capitalised(label)}: {number(value)} of the audience"


def _capitalised(label: str) -> str:
    return label[:1].upper() + label[1:]


def emptied_by(sel: Selection, flt: ListenerFilter) -> dict | None:
    """The filter that left nobody, taking them one by one: its name, value and how many matched before it."""
    tz = sel.company.timezone
    mask = ListenerFilter().mask(sel.snap, tz)
    for name, value in flt.values.items():
        before = int(mask.sum())
        mask &= ListenerFilter({name: value}).mask(sel.snap, tz)
        if not mask.any():
            return {"field": name, "value": ListenerFilter({name: value}).as_values()[name], "before": before}
    return None
