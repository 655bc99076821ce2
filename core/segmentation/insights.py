"""Plain-English explanations of the segment distribution, written from the station's own numbers."""
from __future__ import annotations

from core.segmentation.rules import LABELS, MEANINGS, SEGMENTS
from core.wording import percent

ACTIONS = {
    "new_listener": "Welcome them within their first week: a greeting message and an easy first competition.",
    "super_fan": "Reward and recruit them: VIP invitations, on-air shout-outs and first access to events.",
    "show_loyalist": "Serve their show: presenter messages, show-specific polls and reminders before it airs.",
    "competition_chaser": "Turn prizes into habits: ask a song request or poll alongside every entry.",
    "occasional_engager": "Give them a reason to come back weekly: recurring features at their usual time.",
    "at_risk": "Win them back now: a personal message from their favourite show before they go quiet.",
    "dormant": "Re-activate selectively: one strong offer, then stop messaging those who do not answer.",
}


def _habit_phrase(habits: dict) -> str:
    parts = []
    if habits.get("top_channel"):
        parts.append(f"mostly on {habits['top_channel']['name']} ({habits['top_channel']['share']}%)")
    if habits.get("top_daypart"):
        parts.append(f"at {habits['top_daypart']['name']} ({habits['top_daypart']['share']}%)")
    if habits.get("top_show"):
        parts.append(f"{habits['top_show']['share']}% have engaged with {habits['top_show']['name']}")
    return "; ".join(parts)


def _numbers_phrase(key: str, a: dict) -> str:
    recency = a.get("recency_days")
    recency_text = f"last heard from {recency:.0f} days ago on average" if recency is not None else ""
    if key in ("super_fan", "occasional_engager", "show_loyalist", "new_listener"):
        return (f"{a.get('interactions_30d', 0):.1f} interactions each in the last 30 days on "
                f"{a.get('channels', 0):.1f} channels, {recency_text}")
    if key == "competition_chaser":
        return f"{percent(a.get('competition_share') or 0)} of their interactions are competition entries"
    return f"{recency_text}, {a.get('interactions_90d', 0):.1f} interactions each in the last 90 days"


def explain(key: str, entry: dict, total: int) -> str:
    """One segment in words: its size, what defines it, its habits and what to do."""
    count, pct = entry.get("count", 0), entry.get("percentage", 0.0)
    if not count:
        return f"No listeners are {LABELS[key].lower()} right now ({MEANINGS[key].lower()})."
    text = f"{count:,} of {total:,} listeners ({pct}%) are {LABELS[key].lower()}: {MEANINGS[key].lower()}. "
    text += f"They average {_numbers_phrase(key, entry.get('averages', {}))}."
    habits = _habit_phrase(entry.get("habits", {}))
    if habits:
        text += f" They engage {habits}."
    return text + " " + ACTIONS[key]


def explain_segments(rollup: dict) -> tuple[list[dict], str]:
    """Every segment's insight, and a headline about the station as a whole."""
    total = rollup.get("total", 0)
    segs = rollup.get("segments", {})
    insights = [{"segment": k, "label": LABELS[k], "count": segs.get(k, {}).get("count", 0),
                 "percentage": segs.get(k, {}).get("percentage", 0.0),
                 "explanation": explain(k, segs.get(k, {}), total),
                 "recommended_action": ACTIONS[k]} for k in SEGMENTS]
    if not total:
        return insights, "No listeners yet: import interactions or run the demo to see segments."
    biggest = max(insights, key=lambda i: i["count"])
    engaged = sum(segs.get(k, {}).get("count", 0) for k in ("super_fan", "show_loyalist", "occasional_engager",
                                                              "new_listener"))
    lapsing = sum(segs.get(k, {}).get("count", 0) for k in ("at_risk", "dormant"))
    headline = (f"{percent(engaged / total)} of your {total:,} listeners are actively engaged and "
                f"{percent(lapsing / total)} are at risk or dormant; the largest segment is "
                f"{biggest['label'].lower()} ({biggest['percentage']}%).")
    return insights, headline
