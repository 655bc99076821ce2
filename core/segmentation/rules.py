"""The segment rules of segments.md, vectorised over all listeners at once, and their plain-English reasons.

`assign` is a pure function of the per-listener inputs and the thresholds: the same numbers always give the same
segment. The order of RULE_ORDER is the order of the spec: the first rule that holds gives the segment.
"""
from __future__ import annotations

import numpy as np

from core.text.wording import percent

SEGMENTS = ("new_listener", "super_fan", "show_loyalist", "competition_chaser", "occasional_engager", "at_risk",
            "dormant")
"""Segment keys in the spec's order; a segment's code in the snapshot is its index here."""

RULE_ORDER = ("new_listener", "dormant", "competition_chaser", "at_risk", "super_fan", "show_loyalist",
              "occasional_engager")

LABELS = {
    "new_listener": "New listeners",
    "super_fan": "Super fans",
    "show_loyalist": "Show loyalists",
    "competition_chaser": "Competition chasers",
    "occasional_engager": "Occasional engagers",
    "at_risk": "At risk",
    "dormant": "Dormant",
}

MEANINGS = {
    "new_listener": "First interaction within the last 7 days",
    "super_fan": "Recent, frequent, multi-channel, growing",
    "show_loyalist": "Consistent engagement with the same show",
    "competition_chaser": "70% or more of interactions are competition entries",
    "occasional_engager": "Active within 30 days",
    "at_risk": "Was active, now declining",
    "dormant": "No recent engagement",
}

DEFAULT_THRESHOLDS = {
    "new_days": 7,
    "dormant_days": 90,
    "competition_share": 0.70,
    "at_risk_days": 30,
    "at_risk_min_prev30": 4,
    "at_risk_drop_ratio": 0.5,
    "super_fan_recency_days": 7,
    "super_fan_min_n30": 10,
    "super_fan_min_channels": 2,
    "loyalist_min_n90": 4,
    "loyalist_min_show_share": 0.60,
    "loyalist_min_weeks": 4,
}

RFM_RECENCY_DAYS = (7, 14, 30, 60)  # R <= these give 5, 4, 3, 2; otherwise 1
RFM_FREQUENCY = (20, 10, 5, 2)  # n_30 >= these give 5, 4, 3, 2; otherwise 1
RFM_ENGAGEMENT = (10, 7, 4, 2)  # active_weeks_90 >= these give 5, 4, 3, 2; otherwise 1


def rules_in_words(th: dict = DEFAULT_THRESHOLDS) -> dict[str, str]:
    """Each segment's rule in one line a producer reads without the spec, built from the thresholds themselves so
    that the words can never say something the rules do not do (the dashboard's help and glossary show these)."""
    return {
        "new_listener": f"First took part within the last {th['new_days']} days.",
        "dormant": f"Has not taken part for more than {th['dormant_days']} days, or never has.",
        "competition_chaser": f"{percent(th['competition_share'])} or more of their interactions are competition "
                              "entries.",
        "at_risk": f"Last took part more than {th['at_risk_days']} days ago, or in the last 30 days took part no "
                   f"more than {_fraction(th['at_risk_drop_ratio'])} as often as in the 30 days before (when that was "
                   f"{th['at_risk_min_prev30']} times or more).",
        "super_fan": f"Took part in the last {th['super_fan_recency_days']} days, {th['super_fan_min_n30']} times or "
                     f"more in the last 30 days on {th['super_fan_min_channels']} or more channels, and no less than "
                     "in the 30 days before.",
        "show_loyalist": f"{th['loyalist_min_n90']} or more interactions in the last 90 days, "
                         f"{percent(th['loyalist_min_show_share'])} or more of them with one show, in "
                         f"{th['loyalist_min_weeks']} or more different weeks.",
        "occasional_engager": "Took part in the last 30 days but fits none of the other rules.",
    }


def _fraction(ratio: float) -> str:
    return {0.5: "half", 0.25: "a quarter"}.get(ratio) or percent(ratio)


def scores_in_words() -> dict[str, str]:
    """What each RFM score measures and how its points are given, from the score tables above."""
    def scale(bounds: tuple, step: str, first: str) -> str:
        steps = [f"5 {step} {first.format(bounds[0])}"]
        steps += [f"{points} {step} {bound}" for points, bound in zip((4, 3, 2), bounds[1:])]
        return ", ".join(steps) + ", otherwise 1"

    return {
        "recency": f"How lately they last took part: {scale(RFM_RECENCY_DAYS, 'within', '{} days')}.",
        "frequency": "How often they took part in the last 30 days: "
                     f"{scale(RFM_FREQUENCY, 'for', '{} times or more')}.",
        "engagement": "In how many different weeks of the last 90 days they took part: "
                      f"{scale(RFM_ENGAGEMENT, 'for', '{} weeks or more')}.",
    }


EXPLANATIONS = rules_in_words()
"""Each segment's rule in words, with the default thresholds."""
SCORES = scores_in_words()
"""Each RFM score (recency, frequency, engagement) in words."""


def thresholds_for(overrides: dict | None) -> dict:
    """The defaults with a company's overrides applied (unknown keys ignored)."""
    merged = dict(DEFAULT_THRESHOLDS)
    merged.update({k: type(DEFAULT_THRESHOLDS[k])(v) for k, v in (overrides or {}).items() if k in DEFAULT_THRESHOLDS})
    return merged


def rule_masks(c: dict, th: dict) -> dict[str, np.ndarray]:
    """For each rule, where its condition holds (before the first-match order is applied).

    `c` holds per-listener arrays: since_first_days, recency_days, n_total, n_30, n_prev30, n_90, channels_30,
    competition_share, top_show_share_90, active_weeks_90 (recency is +inf for a listener with no interactions).
    """
    n_prev30 = c["n_prev30"]
    return {
        "new_listener": (c["n_total"] > 0) & (c["since_first_days"] <= th["new_days"]),
        "dormant": (c["n_total"] == 0) | (c["recency_days"] > th["dormant_days"]),
        "competition_chaser": c["competition_share"] >= th["competition_share"],
        "at_risk": (c["recency_days"] > th["at_risk_days"])
        | ((n_prev30 >= th["at_risk_min_prev30"]) & (c["n_30"] <= th["at_risk_drop_ratio"] * n_prev30)),
        "super_fan": (c["recency_days"] <= th["super_fan_recency_days"]) & (c["n_30"] >= th["super_fan_min_n30"])
        & (c["channels_30"] >= th["super_fan_min_channels"]) & (c["n_30"] >= n_prev30),
        "show_loyalist": (c["n_90"] >= th["loyalist_min_n90"])
        & (c["top_show_share_90"] >= th["loyalist_min_show_share"])
        & (c["active_weeks_90"] >= th["loyalist_min_weeks"]),
        "occasional_engager": np.ones(len(c["n_total"]), dtype=bool),
    }


def assign(c: dict, th: dict) -> np.ndarray:
    """Segment code (index into SEGMENTS) of every listener: the first rule in RULE_ORDER that holds."""
    masks = rule_masks(c, th)
    conditions = [masks[key] for key in RULE_ORDER]
    choices = [SEGMENTS.index(key) for key in RULE_ORDER]
    return np.select(conditions, choices).astype(np.int8)


def _score(values: np.ndarray, bounds: tuple, higher_is_better: bool) -> np.ndarray:
    score = np.ones(len(values), dtype=np.int8)
    for points, bound in zip((5, 4, 3, 2), bounds):
        hit = values >= bound if higher_is_better else values <= bound
        score = np.where((score == 1) & hit, points, score).astype(np.int8)
    return score


def rfm_scores(c: dict) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Recency, frequency and engagement scores 1..5 per listener, by the table of segments.md."""
    return (_score(c["recency_days"], RFM_RECENCY_DAYS, higher_is_better=False),
            _score(c["n_30"], RFM_FREQUENCY, higher_is_better=True),
            _score(c["active_weeks_90"], RFM_ENGAGEMENT, higher_is_better=True))
