"""The station's own figures that AI segment insights are grounded in, gathered once per answer: each segment's
size and share, its movements in the latest run, its habits and distinctive traits, and its churn-risk mix.

Both providers read the same facts: the local one writes from them, the openai one is given them as data. A fact
that the station cannot support (no run yet, an empty segment) is absent rather than invented.
"""
from __future__ import annotations

from datetime import timedelta

import numpy as np

from core.churn.explain import mix
from core.intelligence.segment_profile import profile_of
from core.listeners import snapshot
from core.segmentation.behaviour import DAYPART_OF_HOUR, DAYPARTS
from core.segmentation.models import SegmentRun
from core.segmentation.overview import latest_run, segment_breakdown, segment_insights, segment_movements
from core.segmentation.rules import SEGMENTS
from core.stations.companies import get_company
from core.stations.models import Show
from core.stations.shows import show_titles

WEEK = timedelta(days=7)
PROFILED = 300  # the most engaged listeners of a segment whose traits are set against the station
TRAITS = 3


def station_facts(company_id: int) -> dict:
    """{"company_id", "station", "total_listeners", "as_of", "headline", "segments": [per segment facts]}."""
    company = get_company(company_id)
    breakdown, insights = segment_breakdown(company_id), segment_insights(company_id)
    moves = segment_movements(company_id).get("matrix", {})
    snap = snapshot.current(company_id)
    summaries = {row["segment"]: row["explanation"] for row in insights["insights"]}
    run = latest_run(company_id)
    airs = _airtimes(company_id)
    habits = {key: _with_airtime(seg.get("habits", {}), airs)
              for key, seg in (run.rollup if run else {}).get("segments", {}).items()}
    week = _week_before(company_id, run)
    churn = churn_mix(snap) if len(snap) else {}
    titles = show_titles(company_id) if len(snap) else {}
    segments = []
    for row in breakdown["segments"]:
        key = row["segment"]
        traits = _traits(company, snap, key, titles) if row["count"] else []
        segments.append({"segment": key, "label": row["label"], "definition": row["meaning"], "count": row["count"],
                         "percentage": row["percentage"], "averages": row["averages"],
                         "summary": summaries.get(key, ""), "habits": habits.get(key, {}),
                         "movements": _movements(moves, key), "distinctive": traits, "churn": churn.get(key),
                         "week_before": week.get(key)})
    return {"company_id": company_id, "station": company.display_name, "total_listeners": breakdown["total_listeners"],
            "as_of": breakdown["as_of"], "headline": insights["headline"], "segments": segments, "shows": airs}


def _airtimes(company_id: int) -> dict[str, dict]:
    """Each show's air time by title: its days, hours and the daypart it starts in."""
    return {s["title"]: {"days": sorted(s.get("days") or []), "start": s["start"], "end": s["end"],
                         "daypart": DAYPARTS[int(DAYPART_OF_HOUR[int(s["start"][:2]) % 24])]}
            for s in Show._get_collection().find({"company_id": company_id}, {"_id": 0, "title": 1, "days": 1,
                                                                             "start": 1, "end": 1})}


def _with_airtime(habits: dict, airs: dict) -> dict:
    """The habits, their top show with when it airs (so an action never pairs a show with a time it is not on)."""
    show = habits.get("top_show")
    if not show or show.get("name") not in airs:
        return habits
    return {**habits, "top_show": {**show, "airs": airs[show["name"]]}}


def _week_before(company_id: int, run) -> dict[str, int]:
    """Each segment's size at the newest run made at least WEEK before the latest one (none when there is none)."""
    if run is None:
        return {}
    older = (SegmentRun.objects(company_id=company_id, finished_at__ne=None, now__lte=run.now - WEEK)
             .order_by("-now").only("rollup").first())
    segments = (older.rollup or {}).get("segments", {}) if older else {}
    return {key: seg.get("count", 0) for key, seg in segments.items()}


def _movements(matrix: dict, key: str) -> dict:
    """Who came into the segment and who left it in the latest run, by the segment they came from or went to."""
    joined = {src: row[key] for src, row in matrix.items() if src != key and row.get(key)}
    left = {dst: count for dst, count in matrix.get(key, {}).items() if dst != key and count}
    return {"joined": sum(joined.values()), "left": sum(left.values()), "joined_from": joined, "left_to": left}


def _traits(company, snap, key: str, titles: dict) -> list[dict]:
    """The few traits that most set the segment apart, as sentences with their shares and lift."""
    profile = profile_of(company, snap, key, PROFILED, titles)
    return [{"facet": t["facet"], "value": t["value"], "label": t.get("label"), "segment_share": t["segment_share"],
             "station_share": t["station_share"], "lift": t["lift"], "sentence": t["sentence"]}
            for t in profile["distinctive"][:TRAITS]]


def churn_mix(snap) -> dict:
    """Each segment's churn mix now (core.churn.explain.mix), from the probabilities the last run scored; none before
    a run has scored any."""
    if "churn" not in snap.cols or np.isnan(snap.cols["churn"]).all():
        return {}
    codes, churn = snap.cols["segment"], snap.cols["churn"]
    alive = ~snap.cols["erased"] if "erased" in snap.cols else np.ones(len(snap), dtype=bool)
    return {key: mix(churn[(codes == code) & alive]) for code, key in enumerate(snap.vocab["segment"])
            if key in SEGMENTS and ((codes == code) & alive).any()}


