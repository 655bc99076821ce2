"""The station overview: what the dashboard's first page and the four overview endpoints show.

Everything here is read from the rollup that the latest segmentation run stored (core.segmentation.rollups), so an
answer costs one small document read whatever the number of listeners.

Shapes (all percentages are 0..100 with one decimal):
- station_summary: {"company_id", "total_listeners", "as_of", "segments": {key: count for all 7 keys}}
- segment_breakdown: {"company_id", "total_listeners", "as_of", "segments": [{"segment", "label", "meaning", "count",
  "percentage", "averages": {"recency_days", "interactions_30d", "interactions_90d", "channels",
  "competition_share", "rfm_recency", "rfm_frequency", "rfm_engagement", "churn"}, "expected_quiet"}],
  "churn_horizon_days"}
- segment_insights: {"company_id", "total_listeners", "as_of", "insights": [{"segment", "label", "count",
  "percentage", "explanation"}], "headline"}
- segment_tags: {"company_id", "as_of", "tags": [{"tag", "total", "segments": {key: count}}]} (most used first)
- segment_movements: {"company_id", "run": {"run_id", "kind", "at", "previous_at"}|None, "moved", "matrix":
  {from_key: {to_key: count}}, "highlights": [sentence]}
"""
from __future__ import annotations

from core.churn.model import HORIZON_DAYS
from core.listeners import snapshot
from core.personal.keyed import is_keyed, tag_keys
from core.segmentation.insights import explain_segments
from core.segmentation.models import SegmentRun
from core.segmentation.rules import LABELS, MEANINGS, SEGMENTS
from core.stations.companies import get_company
from core.stations.labels import label_of, tag_labels


def latest_run(company_id: int, kind: str | None = None) -> SegmentRun | None:
    """The newest finished run of the company (of this kind: full, import, ...), if any."""
    runs = SegmentRun.objects(company_id=company_id, finished_at__ne=None)
    return (runs if kind is None else runs.filter(kind=kind)).order_by("-started_at").first()


def _rollup(company_id: int) -> tuple[dict, str | None]:
    get_company(company_id)
    run = latest_run(company_id)
    if run is None:
        return {"total": 0, "segments": {}, "tags": {}}, None
    return run.rollup, run.now.isoformat()


def station_summary(company_id: int) -> dict:
    """Total listeners and the count per segment."""
    rollup, as_of = _rollup(company_id)
    counts = {key: rollup["segments"].get(key, {}).get("count", 0) for key in SEGMENTS}
    return {"company_id": company_id, "total_listeners": rollup["total"], "as_of": as_of, "segments": counts}


def segment_breakdown(company_id: int) -> dict:
    """Every segment with its count, share and average statistics."""
    rollup, as_of = _rollup(company_id)
    rows = []
    for key in SEGMENTS:
        seg = rollup["segments"].get(key, {})
        rows.append({"segment": key, "label": LABELS[key], "meaning": MEANINGS[key], "count": seg.get("count", 0),
                     "percentage": seg.get("percentage", 0.0), "averages": seg.get("averages", {}),
                     "expected_quiet": seg.get("expected_quiet")})
    return {"company_id": company_id, "total_listeners": rollup["total"], "as_of": as_of, "segments": rows,
            "churn_horizon_days": rollup.get("churn_horizon_days") or HORIZON_DAYS}


def segment_insights(company_id: int) -> dict:
    """Each segment's share with a plain-English explanation built from the station's numbers."""
    rollup, as_of = _rollup(company_id)
    insights, headline = explain_segments(rollup)
    return {"company_id": company_id, "total_listeners": rollup["total"], "as_of": as_of, "headline": headline,
            "insights": insights}


def segment_tags(company_id: int) -> dict:
    """Every tag with its listener count per segment, most used first."""
    rollup, as_of = _rollup(company_id)
    counted = rollup.get("tags", {})
    names = _tag_names(company_id) if any(map(is_keyed, counted)) else {}
    tags = [{"tag": names.get(key, key), "total": sum(per.values()), "segments": {k: per.get(k, 0) for k in SEGMENTS}}
            for key, per in counted.items() if (key in names or not is_keyed(key)) and any(per.values())]
    tags.sort(key=lambda t: (-t["total"], t["tag"]))
    return {"company_id": company_id, "as_of": as_of, "tags": tags}


def _tag_names(company_id: int) -> dict[str, str]:
    """Tag key -> tag, for the station's tags (its snapshot's, sealed). A key no listener's tag has any more (an
    erased listener's own) names nothing; a tag counted plain by a run stored before keys names itself."""
    tags = [str(tag) for tag in snapshot.current(company_id).vocab.get("tags", [])]
    return dict(zip(tag_keys(company_id, tags), tags, strict=True))


def segment_movements(company_id: int) -> dict:
    """Transitions made by the latest run: the from-to matrix and the biggest moves in words."""
    get_company(company_id)
    run = latest_run(company_id)
    if run is None:
        return {"company_id": company_id, "run": None, "moved": 0, "matrix": {}, "highlights": []}
    movements = run.movements or {}
    return {"company_id": company_id,
            "run": {"run_id": run.run_id, "kind": run.kind, "at": run.now.isoformat(),
                    "previous_at": movements.get("previous_at")},
            "moved": movements.get("moved", 0), "matrix": movements.get("matrix", {}),
            "highlights": movements.get("highlights", [])}


def station_overview(company_id: int) -> dict:
    """Everything the overview page shows: breakdown, insights, tags and movements (only the breakdown before the
    first run)."""
    breakdown = segment_breakdown(company_id)
    if breakdown["as_of"] is None:
        return {"breakdown": breakdown, "insights": None, "tags": None, "movements": None}
    return {"breakdown": breakdown, "insights": segment_insights(company_id), "tags": segment_tags(company_id),
            "movements": segment_movements(company_id)}


def tag_names(company_id: int) -> list[dict]:
    """Every tag of the station (as the latest run counted them, most used first) and every interest AI inferred,
    each with the name pages give it: {"tag", "kind" ("tag" or "interest"), "listeners" (None for an interest),
    "label", "named" (the station chose the label)}."""
    labels = tag_labels(company_id)
    out = [{"tag": t["tag"], "kind": "tag", "listeners": t["total"]} for t in segment_tags(company_id)["tags"]]
    seen = {t["tag"] for t in out}
    interests = snapshot.current(company_id).vocab.get("inferred_interests", [])
    out += [{"tag": str(i), "kind": "interest", "listeners": None} for i in sorted(map(str, interests))
            if str(i) not in seen]
    return [{**t, "label": label_of(t["tag"], labels), "named": t["tag"] in labels} for t in out]
