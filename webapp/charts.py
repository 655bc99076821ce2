"""Bar charts and the channel heat map as the templates draw them: listeners per value, largest first or in a fixed
order, and every bar and cell a link into the explorer narrowed to its listeners (the drill-down)."""
from __future__ import annotations

from core.explore.spec import REPEATABLE, SPEC
from core.listeners.fields import AGE_GROUPS
from core.segmentation.rules import SEGMENTS
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
