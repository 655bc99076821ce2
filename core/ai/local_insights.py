"""The `local` provider's segment insights: what each segment means for this station and what to do about it,
written from the station's facts (core.ai.facts) with the house's wording, so that every number is the station's
own and every sentence reads correctly whatever the numbers."""
from __future__ import annotations

from core.segmentation.insights import ACTIONS, MEMBERS
from core.text.wording import agree, daypart, join_words, number, percent, plural, sentence

MODEL = "station-facts-2"
DAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
URGENT = {"at_risk", "new_listener"}  # segments where a week's delay loses listeners
HIGH_RISK = 0.4  # share of a segment at high churn risk that makes winning them back the first action


def write_insights(facts: dict) -> dict:
    """{"headline", "segments": [{"segment", "label", "meaning", "actions", "priority"}]} from the facts."""
    total = facts["total_listeners"]
    segments = [_segment(seg, facts["station"], total) for seg in facts["segments"]]
    return {"headline": facts["headline"], "segments": segments}


def _segment(seg: dict, station: str, total: int) -> dict:
    key, count = seg["segment"], seg["count"]
    if not count:
        return {"segment": key, "label": seg["label"], "priority": "low", "actions": [],
                "meaning": sentence(f"{station} has no {agree(0, MEMBERS[key])} right now: "
                                    f"{seg['definition'].lower()}")}
    meaning = " ".join(part for part in (
        sentence(f"{plural(count, MEMBERS[key])} ({percent(seg['percentage'] / 100)} of {station}'s "
                 f"{plural(total, 'listener')}): {seg['definition'].lower()}"),
        _week(seg), _movement(seg), _trait(seg), _churn(seg)) if part)
    return {"segment": key, "label": seg["label"], "meaning": meaning, "actions": _actions(seg),
            "priority": _priority(seg, total)}


def _week(seg: dict) -> str:
    """How the segment's size moved since a week before (the newest run at least seven days older)."""
    before = seg.get("week_before")
    if before is None:
        return ""
    change = seg["count"] - before
    if not change:
        return sentence(f"the same size as a week before ({number(before)})")
    return sentence(f"{'up' if change > 0 else 'down'} {number(abs(change))} since a week before "
                    f"(from {number(before)})")


def _movement(seg: dict) -> str:
    moves = seg["movements"]
    if not (moves["joined"] or moves["left"]):
        return ""
    parts = []
    if moves["joined"]:
        source = max(moves["joined_from"], key=moves["joined_from"].get)
        before = f"{agree(2, MEMBERS[source])} before" if source in MEMBERS else "new to the station"
        parts.append(f"{number(moves['joined'])} joined in the latest run, most of them {before}")
    if moves["left"]:
        target = max(moves["left_to"], key=moves["left_to"].get)
        became = f"to become {agree(2, MEMBERS[target])}" if target in MEMBERS else "out of the station's segments"
        parts.append(f"{number(moves['left'])} left, most of them {became}")
    return sentence(join_words(parts))


def _trait(seg: dict) -> str:
    return seg["distinctive"][0]["sentence"] if seg["distinctive"] else ""


def _churn(seg: dict) -> str:
    churn = seg.get("churn")
    if not churn:
        return ""
    return sentence(f"of {plural(churn['sampled'], 'listener')} checked, {percent(churn['high'])} are at high risk "
                    f"of going quiet and {percent(churn['medium'])} at medium risk")


def _actions(seg: dict) -> list[str]:
    """The segment's playbook action, where and when to reach them, and a win-back when many may leave."""
    actions = []
    churn = seg.get("churn") or {}
    if churn.get("high", 0) >= HIGH_RISK and seg["segment"] not in ("dormant",):
        actions.append(sentence(f"act this week: {percent(churn['high'])} of them are at high churn risk; start "
                                f"with those who were most engaged"))
    actions.append(ACTIONS[seg["segment"]])
    actions += _reach(seg.get("habits") or {})
    return actions


def _reach(habits: dict) -> list[str]:
    """Where and when to reach them, each action a channel and a time, or a show and its air time, that hold
    together: a show is never paired with a daypart it is not on ("SMS overnight, around The Drive" cannot be said).
    """
    channel, when, show = habits.get("top_channel"), habits.get("top_daypart"), habits.get("top_show")
    direct = " ".join(part for part in (
        f"on {channel['name']} ({percent(channel['share'] / 100)} of them use it most)" if channel else "",
        daypart(str(when["value"])) if when else "") if part)
    airs = (show or {}).get("airs")
    if show and airs and when and airs["daypart"] == str(when["value"]):
        return [sentence(f"reach them {direct}, around {show['name']} ({_air_time(airs)})")]
    out = [sentence(f"message them {direct}, when most of them are active")] if direct else []
    if show:
        on_air = f" ({_air_time(airs)})" if airs else ""
        out.append(sentence(f"on air, mention it during {show['name']}{on_air}, the show most of them follow"))
    return out


def _air_time(airs: dict) -> str:
    days = airs["days"]
    named = ("weekdays" if days == [1, 2, 3, 4, 5] else "weekends" if days == [6, 7] else
             "every day" if days == list(range(1, 8)) else join_words([DAY_NAMES[d - 1] for d in days]))
    return f"{named} {airs['start']}-{airs['end']}"


def _priority(seg: dict, total: int) -> str:
    """high for a segment that loses listeners soon or holds many at risk, medium for a large one, else low."""
    churn = seg.get("churn") or {}
    if seg["segment"] in URGENT or churn.get("high", 0) >= HIGH_RISK:
        return "high"
    return "medium" if total and seg["count"] / total >= 0.15 else "low"
