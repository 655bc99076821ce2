"""Why a listener's chance of going quiet is what it is: the signals that moved it most against the station's typical
listener, each in a sentence with the listener's own numbers ("Silent for 27 days; usually active every 4 days").

A signal's points are how far the score (0 to 100) moves when that part of the listener's behaviour is replaced by
the typical listener's (the station's medians at the latest cut-off), the rest kept: what the station's scoring
makes of it, whichever method scores (days since the last interaction and BG/NBD read only the silence, so only it
moves them).
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from core.churn.features import NAMES, AsOf
from core.churn.model import Scoring
from core.text.wording import number, plural, sentence

GROUPS = {
    "silence": ("days since the last interaction", "silence against their habit"),
    "habit": ("days since the first", "active days", "interactions", "active weeks of the last 13",
              "interactions in the last 90 days"),
    "trend": ("interactions in the last 30 days", "interactions in the 30 days before", "30-day trend"),
    "reach": ("channels", "kinds of campaign", "share on their main show"),
}
"""The features a signal replaces together (a sentence speaks of them together)."""
HIGH, MEDIUM = 70, 40
LEVELS = ("low", "medium", "high")


def level(score: int) -> str:
    """high from 70 (7 in 10 like them went quiet), medium from 40, else low."""
    return "high" if score >= HIGH else "medium" if score >= MEDIUM else "low"


def level_codes(probabilities: np.ndarray) -> np.ndarray:
    """The index in LEVELS of each probability's level (a listener never heard from, NaN, is high: score 100)."""
    scores = np.where(np.isnan(probabilities), 100, np.round(100 * np.nan_to_num(probabilities)))
    return (scores >= MEDIUM).astype(np.int64) + (scores >= HIGH)


def mix(probabilities: np.ndarray) -> dict:
    """Of these listeners: how many, and the share at each level."""
    if not len(probabilities):
        return {"sampled": 0, **{name: 0.0 for name in LEVELS}}
    counts = np.bincount(level_codes(probabilities), minlength=len(LEVELS))
    return {"sampled": int(len(probabilities)),
            **{name: round(float(counts[i]) / len(probabilities), 3) for i, name in enumerate(LEVELS)}}


def signals(scoring: Scoring, one: AsOf, last_heard: str) -> list[dict]:
    """The listener's signals (`one` holds one listener), those that moved the score most first; `last_heard` names
    the day of their last interaction by the station's calendar (core.text.wording.heard: "yesterday"), as the
    time shown beside it is read, rather than as elapsed 24-hour days."""
    score, usual = _score(scoring, one), np.asarray(scoring.usual)
    if not len(usual):  # nothing learned yet, so no typical listener to set them against: their pace alone
        return [{"name": "silence", "points": 0.0, "sentence": _sentence("silence", one, last_heard),
                 "effect": "barely moves"}]
    found = []
    for name, columns in GROUPS.items():
        if scoring.method != "model" and name != "silence":
            continue
        points = score - _score(scoring, _as_typical(one, usual, columns))
        found.append({"name": name, "points": round(float(points), 1), "sentence": _sentence(name, one, last_heard),
                      "effect": "raises" if points > 0.5 else "lowers" if points < -0.5 else "barely moves"})
    return sorted(found, key=lambda s: -abs(s["points"]))


def _score(scoring: Scoring, one: AsOf) -> float:
    return 100.0 * float(scoring.probability(one)[0])


def _as_typical(one: AsOf, usual: np.ndarray, columns: tuple[str, ...]) -> AsOf:
    """The listener with these features set to the typical listener's (the silence also in the raw values the
    baselines read)."""
    at = [NAMES.index(c) for c in columns]
    matrix = one.matrix.copy()
    matrix[:, at] = usual[at]
    if "days since the last interaction" not in columns:
        return replace(one, matrix=matrix)
    recency = np.expm1(usual[NAMES.index("days since the last interaction")])
    return replace(one, matrix=matrix, recency=np.array([recency]),
                   span=np.maximum(0.0, one.age - recency))


def _sentence(name: str, one: AsOf, last_heard: str) -> str:
    raw = {n: float(v) for n, v in zip(NAMES, one.matrix[0])}
    count = {n: round(float(np.expm1(raw[n]))) for n in ("interactions in the last 30 days",
                                                           "interactions in the 30 days before", "channels",
                                                           "active days", "interactions")}
    if name == "silence":
        last = f"Last heard from {last_heard}"
        if not one.repeat_days[0]:
            return sentence(f"{last}, their only active day so far")
        gap = float(one.span[0]) / float(one.repeat_days[0])
        return sentence(f"{last}; usually active every {plural(max(1, round(gap)), 'day')}")
    if name == "trend":
        last, before = count["interactions in the last 30 days"], count["interactions in the 30 days before"]
        if last == before:
            return sentence(f"{plural(last, 'interaction')} in the last 30 days, as many as in the 30 days before")
        way = "down" if last < before else "up"
        return sentence(f"{plural(last, 'interaction')} in the last 30 days, {way} from {number(before)}")
    if name == "habit":
        weeks = round(raw["active weeks of the last 13"] * 13)
        return sentence(f"Active on {plural(count['active days'], 'day')} in all, {plural(weeks, 'week')} of the "
                        "last 13")
    share = raw["share on their main show"]
    return sentence(f"Uses {plural(count['channels'], 'channel')}"
                    + (f"; {round(100 * share)}% of their interactions on one show" if share > 0 else ""))

