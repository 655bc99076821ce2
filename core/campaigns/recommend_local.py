"""The `local` provider's recommendation: a deterministic plan written from the audience's own figures, each claim
with the figure it rests on, so that a producer can check every sentence against the profile beside it."""
from __future__ import annotations

from core.segmentation.rules import MEANINGS
from core.stations.defaults import VOICE
from core.text.wording import agree, daypart, join_words, number, percent, plural, sentence

MODEL = "recommend-template-1"
WHY_SEGMENT = {
    "new_listener": "welcome them while the station is new to them",
    "super_fan": "they answer most and can carry the message to others",
    "show_loyalist": "a mention inside their show reaches them where they already listen",
    "competition_chaser": "they answer offers and prizes, less so the brand itself",
    "occasional_engager": "a clear reason to take part turns them into regulars",
    "at_risk": "a reason to come back now may keep them",
    "dormant": "a strong offer is needed to wake them; expect fewer answers",
}


LAPSED = ("at_risk", "dormant")
"""Segments that answer least: a plan leads with them only when the brief's goal is to win listeners back."""


def claim(text: str, name: str, value) -> dict:
    """One sentence and the figure it rests on."""
    return {"text": sentence(text), "figure": {"name": name, "value": value}}


def write_recommendation(audience: dict, parsed: dict) -> dict:
    """{"summary", "target", "channels", "timing", "angles", "expected_reach"} from the profile's figures."""
    if not audience["size"]:
        return nobody(audience)
    size = audience["size"]
    target = [claim(f"{e['label']}: {percent(e['share'] / 100)} of the audience ({number(e['count'])}); "
                    f"{MEANINGS.get(e['value'], '').lower()}, so {WHY_SEGMENT.get(e['value'], 'reach them')}",
                    f"segment.{e['value']}", e["count"]) for e in lead_segments(audience["segments"], parsed)]
    channels = [_channel_claim(e) for e in lead_channels(audience["channels"])]
    return {"summary": _summary(audience, parsed), "target": target, "channels": channels,
            "timing": _timing(audience), "angles": _angles(audience),
            "expected_reach": claim(f"{number(audience['reachable'])} of the {plural(size, 'listener')} opted in "
                                    "and gave permission, so a direct message can reach them", "reachable",
                                    audience["reachable"])}


def lead_segments(segments: list[dict], parsed: dict) -> list[dict]:
    """The two segments a plan leads with: the largest of those still listening (a brief's audience is often mostly
    lapsed listeners, who answer least), the lapsed ones after them; first when the goal is to win listeners back."""
    win_back = (parsed.get("goal") or {}).get("value") == "win_back"
    return sorted(segments, key=lambda e: (e["value"] in LAPSED) != win_back)[:2]


def lead_channels(channels: list[dict]) -> list[dict]:
    """The two channels a plan leads with: those a message can be sent on first, calls to the studio after them (a
    caller is reached on air, not by a message down the line)."""
    return sorted(channels, key=lambda e: e["value"] == VOICE)[:2]


def _channel_claim(entry: dict) -> dict:
    share = f"{number(entry['count'])} of them ({percent(entry['share'] / 100)})"
    if entry["value"] == VOICE:
        return claim(f"{entry['label']} are the main way {share} take part: reach them on air, in their shows",
                     f"channel.{entry['value']}", entry["count"])
    return claim(f"{entry['label']} is the main channel of {share}", f"channel.{entry['value']}", entry["count"])


def _summary(audience: dict, parsed: dict) -> str:
    leading = lead_segments(audience["segments"], parsed)
    segment = leading[0]["label"].lower() if leading else "listeners"
    leading_channels = lead_channels(audience["channels"])
    channel = leading_channels[0]["label"] if leading_channels else "the station's channels"
    when = daypart(audience["dayparts"][0]["value"]) if audience["dayparts"] else "when they listen"
    asked = f" for {parsed['goal']['value'].replace('_', ' ')}" if parsed.get("goal") else ""
    size = audience["size"]
    return sentence(f"{plural(size, 'listener')} {agree(size, 'matches', 'match')} the brief, "
                    f"{number(audience['reachable'])} of them reachable directly; lead with {segment}{asked}, on "
                    f"{channel}, {when}")


def _timing(audience: dict) -> list[dict]:
    out = [claim(f"Most active {daypart(e['value'])}: {plural(e['count'], 'listener')} "
                 f"({percent(e['share'] / 100)}) {agree(e['count'], 'peaks', 'peak')} then", f"daypart.{e['value']}",
                 e["count"])
           for e in audience["dayparts"][:2]]
    if audience["days"]:
        best = audience["days"][0]
        out.append(claim(f"{best['label']} is the busiest day for {number(best['count'])} of them",
                         f"day.{best['value']}", best["count"]))
    share = audience["weekday_share"]
    out.append(claim(f"{percent(share / 100)} interact mostly on weekdays, so "
                     f"{'weekday' if share >= 50 else 'weekend'} slots carry most of the plan", "weekday_share", share))
    return out


def _angles(audience: dict) -> list[dict]:
    out = [claim(f"Tie the message to {e['label']}: {number(e['count'])} of the audience "
                 f"({percent(e['share'] / 100)}) took part during it", f"show.{e['value']}", e["count"])
           for e in audience["shows"][:2]]
    out += [claim(f"Speak to an interest in {e['label']}, held by {number(e['count'])} of them",
                  f"interest.{e['value']}", e["count"]) for e in audience["interests"][:2]]
    themes = audience.get("themes", [])[:1]
    out += [claim(f"{e['label'].capitalize()} comes up in the messages of {number(e['count'])} of the "
                  f"{plural(audience['sample']['size'], 'sampled listener')}", f"sample.theme.{e['value']}",
                  e["count"]) for e in themes]
    return out


def nobody(audience: dict) -> dict:
    """The plan when no listener matches: which filter left nobody, and that nothing can be sent."""
    empty = audience.get("emptied_by")
    if empty:
        value = empty["value"]
        shown = join_words([str(v) for v in value]) if isinstance(value, list) else str(value)
        why = (f"No listener matches: {number(empty['before'])} matched until the "
               f"{empty['field'].replace('_', ' ')} filter ({shown}) left none")
    else:
        why = "No listener matches: the station has no listeners to choose from yet"
    return {"summary": sentence(f"{why}; loosen that criterion or drop it to get an audience"),
            "target": [claim(why, "size", 0)], "channels": [], "timing": [], "angles": [],
            "expected_reach": claim("Nobody can be reached with these criteria", "reachable", 0)}
