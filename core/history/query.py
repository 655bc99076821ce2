"""A station's history by interval, as the trends and the API read it.

The series is the rebuilt weeks up to the last of them, then the days full runs recorded after it, so that a rebuilt
past and the runs since never count a week twice. Each interval is represented by its last point (counts are
stocks: how many listeners a segment had at the end of the interval); moves, new and lost listeners add up over it.
"""
from __future__ import annotations

from datetime import date, timedelta

from core.clock import station_today, zone_of
from core.errors import ValidationFailed
from core.history.models import HistoryPoint
from core.segmentation.insights import being, members
from core.segmentation.rules import SEGMENTS
from core.stations.companies import get_company
from core.text.wording import plural

INTERVALS = ("day", "week", "month")
DEFAULT_SPAN = timedelta(days=396)
"""13 months: what a rebuild covers."""


def segment_history(company_id: int, start: date | None = None, end: date | None = None,
                    interval: str = "week") -> dict:
    """{"company_id", "interval", "from", "to", "points": [{"date", "total", "segments", "new", "lost", "moves"}],
    "moves": {from: {to: n}} over the span (after its first point)}."""
    company = get_company(company_id)
    if interval not in INTERVALS:
        raise ValidationFailed.one(["query", "interval"], f"Must be one of: {', '.join(INTERVALS)}.", "enum")
    end = end or station_today(company.timezone)
    start = start or (end - DEFAULT_SPAN if end - date.min > DEFAULT_SPAN else date.min)
    # a span that ends before it starts holds no day: no points, as its document says (not a refusal of a request
    # the document calls valid)
    series = _series(company_id, start, end) if start <= end else []
    return {"company_id": company_id, "interval": interval, "from": start.isoformat(), "to": end.isoformat(),
            "timezone": zone_of(company.timezone).key, **history_of(series, interval)}


def history_of(series: list[dict], interval: str) -> dict:
    """{"points", "moves"} of a span's stored points (oldest first): a point per interval, and the moves over the
    span after its first point."""
    points = [_bucket(group) for group in _grouped(series, interval)]
    return {"points": points, "moves": _summed(point["moves"] for point in points[1:])}


def _series(company_id: int, start: date, end: date) -> list[dict]:
    """The points of the span: rebuilt weeks, then the runs' days after the last of them. Three reads on the
    (company_id, source, date) index, so that a year of daily runs under a rebuilt past is never read."""
    fields = {"_id": 0, "date": 1, "total": 1, "segments": 1, "moves": 1, "new": 1, "lost": 1, "source": 1}
    points = HistoryPoint._get_collection()
    span = {"$gte": start.isoformat(), "$lte": end.isoformat()}
    rebuilt = list(points.find({"company_id": company_id, "source": "rebuilt", "date": span}, fields).sort("date", 1))
    latest = points.find_one({"company_id": company_id, "source": "rebuilt", "date": {"$lte": end.isoformat()}},
                             {"_id": 0, "date": 1}, sort=[("date", -1)])
    last = latest["date"] if latest else ""
    since = {"$gt": last} if last >= span["$gte"] else {"$gte": span["$gte"]}
    runs = list(points.find({"company_id": company_id, "source": "run", "date": {**since, "$lte": span["$lte"]}},
                            fields).sort("date", 1))
    return rebuilt + runs


def _grouped(series: list[dict], interval: str) -> list[list[dict]]:
    """Consecutive points of one day, ISO week or month together."""
    groups: list[list[dict]] = []
    for point in series:
        key = _key(date.fromisoformat(point["date"]), interval)
        if groups and _key(date.fromisoformat(groups[-1][-1]["date"]), interval) == key:
            groups[-1].append(point)
        else:
            groups.append([point])
    return groups


def _key(day: date, interval: str) -> tuple:
    if interval == "day":
        return (day,)
    if interval == "week":
        return tuple(day.isocalendar()[:2])
    return (day.year, day.month)


def _bucket(group: list[dict]) -> dict:
    last = group[-1]
    return {"date": last["date"], "total": last["total"],
            "segments": {key: int(last.get("segments", {}).get(key, 0)) for key in SEGMENTS},
            "new": sum(p.get("new", 0) for p in group), "lost": sum(p.get("lost", 0) for p in group),
            "moves": _summed(p.get("moves") or {} for p in group)}


def _summed(matrices) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for matrix in matrices:
        for source, row in matrix.items():
            for target, n in row.items():
                out.setdefault(source, {})[target] = out.get(source, {}).get(target, 0) + int(n)
    return out


TREND_INTERVALS = ("week", "month")
SPANS = (4, 13, 26, 52)
"""The spans, in weeks, a person may read the trends over: a month, a quarter, half a year, a year."""


def segment_trends(company_id: int, interval: str = "week", weeks: int = 26, today: date | None = None) -> dict:
    """The trends of the station's last `weeks` weeks from one read of its stored points (a few hundred at most):
    sizes and the at-risk share by week or month, new and lost listeners per week, and the flows over the span."""
    company = get_company(company_id)
    if interval not in TREND_INTERVALS:
        raise ValidationFailed.one(["query", "interval"], f"Must be one of: {', '.join(TREND_INTERVALS)}.", "enum")
    if weeks not in SPANS:
        raise ValidationFailed.one(["query", "weeks"], f"Must be one of: {', '.join(map(str, SPANS))}.", "enum")
    end = today or station_today(company.timezone)
    return {"company_id": company_id,
            **trends_of(_series(company_id, end - timedelta(weeks=weeks), end), interval, weeks, end)}


def trends_of(series: list[dict], interval: str, weeks: int, end: date) -> dict:
    """The trends of the stored points of the `weeks` weeks to `end` (oldest first), as segment_trends says them."""
    points = [_bucket(group) for group in _grouped(series, interval)]
    for point in points:
        point["at_risk_share"] = share_of(point, "at_risk")
    moves = _summed(p.get("moves") or {} for p in series[1:])
    return {"interval": interval, "weeks": weeks, "to": end.isoformat(),
            "from": (end - timedelta(weeks=weeks)).isoformat(), "points": points,
            "weekly": [_bucket(group) for group in _grouped(series, "week")], "moves": moves, "flows": flows(moves)}


def share_of(point: dict, key: str) -> float | None:
    """A segment's share of the station's listeners at a point (0 to 1); None where the station had none."""
    return point["segments"].get(key, 0) / point["total"] if point["total"] else None


def flows(moves: dict[str, dict[str, int]]) -> list[dict]:
    """The moves between two different segments, the largest first, each with a sentence a person reads."""
    found = [{"from": source, "to": target, "count": n, "sentence": flow_sentence(source, target, n)}
             for source, row in moves.items() for target, n in row.items() if n and source != target]
    order = {key: i for i, key in enumerate(("new", *SEGMENTS))}
    return sorted(found, key=lambda f: (-f["count"], order.get(f["from"], 99), order.get(f["to"], 99)))


def flow_sentence(source: str, target: str, count: int) -> str:
    """'120 super fans became at risk', '5 first-time listeners joined as new listeners'."""
    if source == "new":
        return f"{plural(count, 'first-time listener')} joined as {being(target, count)}"
    return f"{members(source, count)} became {being(target, count)}"


def joined_and_left(moves: dict[str, dict[str, int]], key: str) -> tuple[int, int]:
    """How many listeners came into a segment (first-time listeners included) and how many went out of it."""
    joined = sum(row.get(key, 0) for source, row in moves.items() if source != key)
    return joined, sum(n for target, n in moves.get(key, {}).items() if target != key)
