"""Bar charts and the channel heat map as the templates draw them: listeners per value, largest first or in a fixed
order, and every bar and cell a link into the explorer narrowed to its listeners (the drill-down)."""
from __future__ import annotations

from datetime import date

from marshmallow import fields, validate

from api.arguments import RequestSchema, Whole
from core.explore.spec import REPEATABLE, SPEC
from core.history.query import SPANS, TREND_INTERVALS, joined_and_left, share_of
from core.listeners.fields import AGE_GROUPS
from core.segmentation.rules import SEGMENTS
from core.text.wording import number
from webapp.helpers import link
from webapp.labels import value_label

CHARTS = (("Segments", "segment"), ("Gender", "gender"), ("Age group", "age_group"), ("Channels used", "has_channel"),
          ("Peak time of day", "peak_time_of_day"), ("Top shows", "timeslot_id"), ("Languages", "language"),
          ("Locations", "location"))
FEWEST_FOR_A_SHARE = 20
"""Listeners under which a value is shown as a count, not as a share with a bar: "1 listener", never "<1% · 40×"
drawn full length (a share of one listener says nothing of the many)."""
FIXED_ORDER = {"segment": SEGMENTS, "age_group": AGE_GROUPS, "peak_time_of_day": SPEC["peak_time_of_day"][2]}


def with_filter(base: str, pairs: list, name: str, value: str) -> str:
    """The view narrowed by one more filter value (a drill-down), keeping the other filters."""
    if (name, value) in pairs:
        return link(base, pairs)
    kept = pairs if name in REPEATABLE else [p for p in pairs if p[0] != name]
    return link(base, kept + [(name, value)])


def counts_of(name: str, aggregate: dict) -> dict[str, int]:
    """Listeners per value of a filter in an aggregate, whatever the aggregate's shape for it."""
    raw = aggregate.get("timeslot_counts" if name == "timeslot_id" else name) or {}
    return {str(k): (v["count"] if isinstance(v, dict) else v) for k, v in raw.items()}


def charts(aggregate: dict, names: dict, base: str = "", pairs: list = (), most: int = 8) -> list[dict]:
    """Bar charts of the filtered set: listeners per value, the largest first (fixed order for ordered scales); each
    bar links to the explorer narrowed to it."""
    total, out = aggregate.get("total", 0), []
    for chart_title, name in CHARTS:
        counts = counts_of(name, aggregate)
        order = FIXED_ORDER.get(name)
        ranked = sorted(counts, key=lambda v: -counts[v])
        values = [v for v in order if v in counts or name == "segment"] if order else ranked[:most]
        top = max([counts.get(v, 0) for v in values] or [0])
        rows = [{"value": v, "label": value_label(name, v, names), "count": counts.get(v, 0),
                 "pct": 100.0 * counts.get(v, 0) / total if total else 0.0,
                 "width": 100.0 * counts.get(v, 0) / top if top else 0.0,
                 "url": with_filter(base, list(pairs), name, v)} for v in values]
        out.append({"title": chart_title, "name": name, "rows": rows, "more": max(0, len(counts) - len(values)),
                    "unknown": total - sum(counts.values()) if SPEC[name][0] in ("strings", "string") and
                    name != "segment" and total else 0})
    return out


def heat_map(cross: dict, base: str = "", filters: list = ()) -> dict:
    """Channel x channel: listeners active on both (the diagonal: on the channel at all) and single-channel ones;
    each cell links to the explorer narrowed to its listeners."""
    channels = [c for c in cross["channels"] if c["listeners"]]
    pairs = {tuple(sorted(p["channels"])): p for p in cross["pairs"]}
    rows = []
    for a in channels:
        cells = []
        for b in channels:
            if a is b:
                cells.append({"count": a["listeners"], "pct": a["percentage"], "diagonal": True,
                              "url": with_filter(base, list(filters), "has_channel", str(a["channel_type"]))})
                continue
            key = tuple(sorted((a["channel_type"], b["channel_type"])))
            pair = pairs.get(key, {"listeners": 0, "percentage": 0.0})
            cells.append({"count": pair["listeners"], "pct": pair["percentage"], "other": b["name"],
                          "pair": f"{key[0]},{key[1]}",
                          "url": link(base, [p for p in filters if p[0] != "channel_pair"]
                                      + [("channel_pair", f"{key[0]},{key[1]}")])})
        rows.append({"channel": a, "cells": cells})
    top = max([c["pct"] for row in rows for c in row["cells"] if not c.get("diagonal")] or [0]) or 1
    for cell in (c for row in rows for c in row["cells"]):
        cell["heat"] = min(cell["pct"] / top, 1.0)  # shaded against the strongest pair, so that contrasts show
    return {"total": cross["total"], "channels": channels, "rows": rows}


ROW, PAD = 56, 6
"""A trend row's height (px), the height of each column's tap target; PAD keeps dots off its edges. A column's width
is the stylesheet's (30 px, 44 px on a phone): every x is a percentage of the row, so that nothing stretches."""
LABEL_EVERY = 2
"""A date under every other column: a label is wider than a column."""


def trend_day(iso: str, interval: str) -> str:
    """How a point's date reads under a chart: "16 Nov" for a week (its last day), "Nov 2026" for a month."""
    day = date.fromisoformat(iso)
    return f"{day.day} {day:%b}" if interval == "week" else f"{day:%b %Y}"


def trend_row(label: str, values: list, dates: list[str], url: str, kind: str = "line", css: str = "",
              text=number) -> dict:
    """One series as an SVG row: a line (or bars) over equal columns, each column a link to `url`; a value of None
    (nothing to share of) is drawn as a gap. x and widths are percentages of the row."""
    known = [v for v in values if v is not None]
    top, n = max(known or [0]) or 1, len(values) or 1
    points = []
    for i, (value, iso) in enumerate(zip(values, dates)):
        height = 0 if value is None else (ROW - 2 * PAD) * value / top
        points.append({"x": 100 * (i + 0.5) / n, "y": ROW - PAD - height, "h": height, "left": 100 * i / n,
                       "value": value, "text": "no listeners" if value is None else text(value), "date": iso,
                       "url": url})
    segments = [{"x1": a["x"], "y1": a["y"], "x2": b["x"], "y2": b["y"]} for a, b in zip(points, points[1:])
                if a["value"] is not None and b["value"] is not None]
    return {"label": label, "kind": kind, "css": css, "points": points, "segments": segments, "columns": len(values),
            "column": 100 / n, "latest": points[-1]["text"] if points else "",
            "top": text(max(known)) if known else "", "url": url}


def trend_ticks(dates: list[str], interval: str) -> list[dict]:
    """The dates under a chart's columns, every LABEL_EVERY-th from the latest back, so that the latest shows
    (the latest's label ends at the row's end, so that it is never cut)."""
    last, n = len(dates) - 1, len(dates) or 1
    return [{"x": 100.0 if i == last else 100 * (i + 0.5) / n, "anchor": "end" if i == last else "middle",
             "text": trend_day(iso, interval)} for i, iso in enumerate(dates) if (last - i) % LABEL_EVERY == 0]


def share_text(share: float) -> str:
    """A share of the station as a chart and its table say it: "13.1%"."""
    return f"{100 * share:.1f}%"


def trend_chart(chart_id: str, title: str, rows: list[dict], dates: list[str], interval: str, note: str = "") -> dict:
    """A chart of trend rows over the same columns, with its ticks and the table behind it (a row per date)."""
    for row in rows:
        for point in row["points"]:
            point["period"] = period(point["date"], interval)
    table = [{"date": iso, "period": period(iso, interval)[:1].upper() + period(iso, interval)[1:],
              "cells": [row["points"][i]["text"] for row in rows]} for i, iso in enumerate(dates)]
    return {"id": chart_id, "title": title, "rows": rows, "ticks": trend_ticks(dates, interval), "note": note,
            "count": len(dates), "columns": [row["label"] for row in rows], "table": table[::-1]}


def overview_trends(trends: dict, base: str, labels: dict) -> list[dict]:
    """The overview's charts: every segment's size, the station's new and lost listeners per week, its at-risk
    share; each column a link into the explorer (today's listeners of the segment: the past is not kept per
    listener)."""
    points, weekly, interval = trends["points"], trends["weekly"], trends["interval"]
    dates, weeks = [p["date"] for p in points], [p["date"] for p in weekly]
    sizes = [trend_row(labels[key], [p["segments"][key] for p in points], dates, link(base, [("segment", key)]),
                     css=f"seg-{key}") for key in SEGMENTS]
    moved = [trend_row("New", [p["new"] for p in weekly], weeks, link(base, [("segment", "new_listener")]), "bars",
                       "seg-new_listener"),
             trend_row("Lost", [p["lost"] for p in weekly], weeks, link(base, [("segment", "dormant")]), "bars",
                       "seg-dormant")]
    share = [trend_row(labels["at_risk"], [p["at_risk_share"] for p in points], dates,
                       link(base, [("segment", "at_risk")]), css="seg-at_risk", text=share_text)]
    return [trend_chart("sizes", "Segment sizes", sizes, dates, interval),
            trend_chart("new-lost", "New and lost listeners per week", moved, weeks, "week",
                        "New: heard for the first time that week. Lost: gone dormant that week."),
            trend_chart("at-risk", "At-risk share of the station", share, dates, interval)]


def segment_trend_charts(trends: dict, key: str, base: str, labels: dict) -> list[dict]:
    """A segment page's charts: its size, who joined and left it per week, and its share of the station beside the
    at-risk share."""
    points, weekly, interval = trends["points"], trends["weekly"], trends["interval"]
    dates, weeks = [p["date"] for p in points], [p["date"] for p in weekly]
    url, css = link(base, [("segment", key)]), f"seg-{key}"
    moves = [joined_and_left(p["moves"], key) for p in weekly]
    shares = [trend_row(labels[key], [share_of(p, key) for p in points], dates, url, css=css, text=share_text)]
    if key != "at_risk":
        shares.append(trend_row(labels["at_risk"], [p["at_risk_share"] for p in points], dates,
                                link(base, [("segment", "at_risk")]), css="seg-at_risk", text=share_text))
    return [trend_chart("sizes", f"{labels[key]} over time",
                        [trend_row(labels[key], [p["segments"][key] for p in points], dates, url, css=css)],
                        dates, interval),
            trend_chart("new-lost", "Joined and left per week",
                        [trend_row("Joined", [m[0] for m in moves], weeks, url, "bars", css),
                         trend_row("Left", [m[1] for m in moves], weeks, url, "bars", "seg-dormant")], weeks, "week",
                        "Joined: came from another segment or were heard for the first time. Left: moved to another."),
            trend_chart("at-risk", "Share of the station", shares, dates, interval)]


def period(iso: str, interval: str) -> str:
    """The interval a point stands for, as a table row and a link say it: "week to 16 Nov 2026", "Nov 2026"."""
    day = date.fromisoformat(iso)
    return f"week to {day.day} {day:%b %Y}" if interval == "week" else f"{day:%b %Y}"


def flow_matrix(moves: dict, base: str, labels: dict) -> dict:
    """From -> to over the span: a row per segment listeners left (first-time listeners last), a column per segment
    they joined, each count a link into the explorer (today's listeners of the segment joined)."""
    sources = [key for key in SEGMENTS if moves.get(key)] + (["new"] if moves.get("new") else [])
    top = max([n for s in sources for t, n in moves[s].items() if t != s] or [0]) or 1
    rows = []
    for source in sources:
        cells = [{"to": t, "count": moves[source].get(t, 0) if t != source else 0, "self": t == source,
                  "heat": min(moves[source].get(t, 0) / top, 1.0), "url": link(base, [("segment", t)])}
                 for t in SEGMENTS]
        rows.append({"key": source, "label": "First heard" if source == "new" else labels[source], "cells": cells,
                     "total": sum(c["count"] for c in cells)})
    joined = [sum(r["cells"][i]["count"] for r in rows) for i in range(len(SEGMENTS))]
    return {"rows": rows, "joined": joined, "moved": sum(joined)}


class TrendArgs(RequestSchema):
    """The trends a person chose (`?interval=month&weeks=13`): by week over 26 weeks unless said."""

    interval = fields.Str(load_default="week", validate=validate.OneOf(TREND_INTERVALS))
    weeks = Whole(min(SPANS), max(SPANS), load_default=26, validate=validate.OneOf(SPANS))


ARMS_BOX = {"width": 360, "height": 190, "left": 50, "right": 12, "top": 12, "bottom": 160}
"""The campaign chart's viewBox and plot area: it scales to its card's width (at most 520 px wide in the stylesheet),
so that it fits a 390 px phone with its labels still readable."""
ARM_LABELS = {"target": "Target (contacted)", "holdout": "Holdout (not contacted)"}
NICE_TOPS = (0.01, 0.02, 0.05, 0.1, 0.2, 0.25, 0.5, 1.0)
MOST_DOTS = 31
"""Days up to which each day's share is also drawn as a dot (beyond, the dots would touch)."""


def arms_chart(daily: list[dict]) -> dict:
    """Both arms' daily share responding (audience_results' `daily`) as an SVG's coordinates: a line per arm, the
    y grid as percentages, dates under the first, middle and last days, and the same numbers as a table."""
    box, n = ARMS_BOX, len(daily)
    known = [day[arm]["rate"] for day in daily for arm in ARM_LABELS if day[arm]["rate"] is not None]
    top = next((t for t in NICE_TOPS if t >= max(known or [0])), 1.0)
    wide, high = box["width"] - box["left"] - box["right"], box["bottom"] - box["top"]

    def x(i: int) -> float:
        return box["left"] + (wide * i / (n - 1) if n > 1 else wide / 2)

    lines = []
    for arm, label in ARM_LABELS.items():
        dots = [{"x": round(x(i), 1), "y": round(box["bottom"] - high * day[arm]["rate"] / top, 1),
                 "text": share_text(day[arm]["rate"]), "date": day["date"]}
                for i, day in enumerate(daily) if day[arm]["rate"] is not None]
        if dots:
            lines.append({"arm": arm, "label": label, "points": " ".join(f"{d['x']},{d['y']}" for d in dots),
                          "dots": dots if n <= MOST_DOTS else []})
    shown = sorted({0, n // 2, n - 1}) if n > 2 else list(range(n))
    return {**box, "lines": lines, "top": top,
            "grid": [{"y": round(box["bottom"] - high * f, 1), "text": share_text(top * f)} for f in (0, 0.5, 1)],
            "ticks": [{"x": round(x(i), 1), "text": trend_day(daily[i]["date"], "week"),
                       "anchor": "start" if i == 0 and n > 1 else "end" if i == n - 1 and n > 1 else "middle"}
                      for i in shown],
            "table": [{"date": day["date"], **{arm: "–" if day[arm]["rate"] is None else
                                               f"{share_text(day[arm]['rate'])} ({number(day[arm]['responded'])} of "
                                               f"{number(day[arm]['members'])})" for arm in ARM_LABELS}}
                      for day in daily]}
