"""Plain-English explanations of the segment distribution, written from the station's own numbers."""
from __future__ import annotations

from core.segmentation.rules import LABELS, MEANINGS, SEGMENTS
from core.text.wording import agree, article, daypart, days_ago, is_one, join_words, number, percent, plural, sentence

ACTIONS = {
    "new_listener": "Welcome them within their first week: a greeting message and an easy first competition.",
    "super_fan": "Reward and recruit them: VIP invitations, on-air shout-outs and first access to events.",
    "show_loyalist": "Serve their show: presenter messages, show-specific polls and reminders before it airs.",
    "competition_chaser": "Turn prizes into habits: ask a song request or poll alongside every entry.",
    "occasional_engager": "Give them a reason to come back weekly: recurring features at their usual time.",
    "at_risk": "Win them back now: a personal message from their favourite show before they go quiet.",
    "dormant": "Re-activate selectively: one strong offer, then stop messaging those who do not answer.",
}

MEMBERS = {"new_listener": "new listener", "super_fan": "super fan", "show_loyalist": "show loyalist",
           "competition_chaser": "competition chaser", "occasional_engager": "occasional engager",
           "at_risk": "at-risk listener", "dormant": "dormant listener"}
"""What a sentence calls one listener of each segment (plurals come from core.text.wording)."""
STATES = {"at_risk": "at risk", "dormant": "dormant"}
"""Segments that a sentence names by an adjective after "is" or "are" ("3 listeners are at risk")."""
ENGAGED = ("super_fan", "show_loyalist", "occasional_engager", "new_listener")
LAPSING = ("at_risk", "dormant")


def members(key: str, count: int) -> str:
    """A number of a segment's listeners: "1 super fan", "3 at-risk listeners"."""
    return plural(count, MEMBERS[key])


def being(key: str, count: int) -> str:
    """What `count` listeners are when they are in the segment, after "is" or "are": "a super fan", "super fans",
    "at risk"."""
    if key in STATES:
        return STATES[key]
    return article(MEMBERS[key]) if is_one(count) else agree(count, MEMBERS[key])


def _who(share: float, count: int) -> str:
    """The part of a segment a habit is true of: "they" (one listener), "all of them" or "45% of them"."""
    if is_one(count):
        return "they"
    return "all of them" if share >= 100 else f"{percent(share / 100)} of them"


def _habits_sentence(habits: dict, count: int) -> str:
    """Their main channel, busiest daypart and most engaged-with show, each with the share of them it is true of."""
    clauses = []
    if habits.get("top_channel"):
        clauses.append(f"{_who(habits['top_channel']['share'], count)} mostly use {habits['top_channel']['name']}")
    if habits.get("top_daypart"):
        top = habits["top_daypart"]
        clauses.append(f"{_who(top['share'], count)} are most active {daypart(str(top['value']))}")
    if habits.get("top_show"):
        clauses.append(f"{_who(habits['top_show']['share'], count)} have engaged with {habits['top_show']['name']}")
    return sentence(join_words(clauses)) if clauses else ""


def _averages(key: str, a: dict) -> list[str]:
    """The averages that tell most about the segment, as clauses of a sentence whose subject is "they"."""
    heard = f"were last heard from {days_ago(a['recency_days'])}" if a.get("recency_days") is not None else ""
    if key in ENGAGED:
        return [f"made {plural(a['interactions_30d'], 'interaction')} in the last 30 days on "
                f"{plural(a.get('channels'), 'channel')}" if a.get("interactions_30d") is not None else "", heard]
    return [heard, f"made {plural(a['interactions_90d'], 'interaction')} in the last 90 days"
            if a.get("interactions_90d") is not None else ""]


def _numbers_sentence(key: str, a: dict, count: int) -> str:
    """What the segment's averages say ("On average, they ..." when there is more than one of them to average)."""
    if key == "competition_chaser":
        share = a.get("competition_share")
        text = f"{percent(share)} of their interactions are competition entries" if share is not None else ""
    else:
        clauses = join_words(_averages(key, a))
        text = f"they {clauses}" if clauses else ""
    if not text:
        return ""
    return sentence(text if is_one(count) else f"on average, {text}")


def _how_many(count: int, total: int) -> str:
    """The subject of a segment's first sentence: "3 of your 40 listeners (8%)", "All 4 listeners", "Your only
    listener"."""
    if count < total:
        return f"{number(count)} of your {plural(total, 'listener')} ({percent(count / total)})"
    return "your only listener" if is_one(total) else f"all {plural(total, 'listener')}"


def explain(key: str, entry: dict, total: int) -> str:
    """One segment in words: its size, what defines it, its numbers, its habits and what to do."""
    count = entry.get("count", 0)
    if not count:
        return sentence(f"no {agree(0, MEMBERS[key])} right now: {MEANINGS[key].lower()}")
    size = sentence(f"{_how_many(count, total)} {agree(count, 'is')} {being(key, count)}: {MEANINGS[key].lower()}")
    parts = [size, _numbers_sentence(key, entry.get("averages", {}), count),
             _habits_sentence(entry.get("habits", {}), count), ACTIONS[key]]
    return " ".join(part for part in parts if part)


def _largest(counts: dict, total: int) -> str:
    """The largest segment, or the segments tied for it: "super fans (40%)", "new listeners and super fans (50%
    each)"."""
    most = max(counts.values())
    tied = [agree(2, MEMBERS[key]) for key in SEGMENTS if counts[key] == most]
    each = " each" if len(tied) > 1 else ""
    return f"the largest {agree(len(tied), 'segment')} {agree(len(tied), 'is')} {join_words(tied)} " \
           f"({percent(most / total)}{each})"


def headline(counts: dict, total: int) -> str:
    """The station as a whole in one sentence: how many are engaged, how many lapsing, the largest segment."""
    if not total:
        return "No listeners yet: import interactions or run the demo to see segments."
    if is_one(total):
        only = max(SEGMENTS, key=lambda key: counts[key])
        return sentence(f"your only listener is {being(only, 1)}: {MEANINGS[only].lower()}")
    engaged, lapsing = (sum(counts[key] for key in keys) for keys in (ENGAGED, LAPSING))
    return sentence(f"{percent(engaged / total)} of your {plural(total, 'listener')} are actively engaged and "
                    f"{percent(lapsing / total)} are at risk or dormant; {_largest(counts, total)}")


def explain_segments(rollup: dict) -> tuple[list[dict], str]:
    """Every segment's insight, and a headline about the station as a whole."""
    total = rollup.get("total", 0)
    segs = rollup.get("segments", {})
    insights = [{"segment": k, "label": LABELS[k], "count": segs.get(k, {}).get("count", 0),
                 "percentage": segs.get(k, {}).get("percentage", 0.0),
                 "explanation": explain(k, segs.get(k, {}), total),
                 "recommended_action": ACTIONS[k]} for k in SEGMENTS]
    return insights, headline({i["segment"]: i["count"] for i in insights}, total)
