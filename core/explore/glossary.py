"""The dashboard's measures in one line each, and the glossary that gathers every explanation a producer may need.

Texts have one home each: a segment's rule in words next to the rules (core.segmentation.rules.EXPLANATIONS), the RFM
scores next to their tables (rules.SCORES), a filter's next to its definition (core.explore.spec.HELP) and the other
measures here. Pages show them on hover and focus; the glossary page lists them all.
"""
from __future__ import annotations

from core.explore.spec import HELP, SPEC
from core.segmentation.rules import EXPLANATIONS, LABELS, RULE_ORDER, SCORES

METRICS: dict[str, tuple[str, str]] = {
    "listeners": ("Listeners", "Everyone the latest segmentation run placed in a segment, each listener once."),
    "matching_listeners": ("Matching listeners", "Listeners who pass every active filter at once."),
    "changed_segment": ("Changed segment", "Listeners whose segment the latest segmentation run changed."),
    "interactions_30d": ("Interactions in 30 days", "Messages, entries, votes and every other interaction in the 30 "
                         "days up to the latest segmentation run."),
    "interactions_90d": ("Interactions in 90 days", "Every interaction in the 90 days up to the latest segmentation "
                         "run."),
    "first_interaction": ("First interaction", "When they first took part at the station."),
    "last_interaction": ("Last interaction", "When they last took part, as of the latest segmentation run."),
    "active_weeks": ("Active weeks", "Different calendar weeks of the last 90 days in which they took part."),
    "competition_share": ("Competition entries", "The share of all their interactions that were competition "
                          "entries."),
    "top_channel": ("Top channel", "The commonest primary channel among these listeners (a listener's primary "
                    "channel is the one they used most)."),
    "completeness": ("Profile completeness", "The share of listeners who gave each declared field; values "
                     "estimated by AI never count."),
    "cross_channel": ("Cross-channel", "The share of these listeners who used both channels of a cell; the diagonal "
                      "is everyone who used that channel."),
    "movements": ("Movements", "How many listeners went from one segment to another in the latest segmentation "
                  "run."),
    "churn": ("Chance of going quiet", "The chance a listener sends nothing in the next 30 days, learned from the "
              "station's own past: of listeners scored 70, about 70 in 100 went quiet last time. Low under 40, "
              "medium from 40, high from 70."),
    "churn_ranking": ("How well going quiet is predicted", "Listeners scored as of 30 days back, then checked "
                      "against who was heard from since: how often one who went quiet ranked above one who did not "
                      "(AUC; 50% is a coin toss)."),
    "habit_model": ("Habit model (BG/NBD)", "A standard model of customers who stop without saying so: each takes "
                    "part at their own pace and may stop after any active day. A yardstick for the chance of going "
                    "quiet."),
    "expected_quiet": ("Expected to go quiet", "The sum of the listeners' chances of going quiet: how many of them "
                       "the station can expect not to hear from in the next 30 days."),
    **{key: (f"{key.capitalize()} score", text) for key, text in SCORES.items()},
}
"""The dashboard's other numbers: (title, one line) by key."""

TEXTS = {"segment": EXPLANATIONS, "metric": {key: text for key, (_, text) in METRICS.items()}, "filter": HELP}
"""Every explanation by kind and key, as pages look them up."""


def glossary(filter_title) -> dict[str, list[dict]]:
    """Segments in the order their rules are tried, the measures, and the filters by their title on the page
    (`filter_title` names a filter parameter as the page does)."""
    segments = [{"key": key, "title": LABELS[key], "text": EXPLANATIONS[key]} for key in RULE_ORDER]
    metrics = [{"key": key, "title": title, "text": text} for key, (title, text) in METRICS.items()]
    filters = sorted(({"key": name, "title": filter_title(name), "text": HELP[name]} for name in SPEC),
                     key=lambda row: row["title"].lower())
    return {"segments": segments, "metrics": sorted(metrics, key=lambda row: row["title"].lower()),
            "filters": filters}
