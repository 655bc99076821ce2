"""Per-company rollups computed once per segmentation run, so the overview never scans listeners per request."""
from __future__ import annotations

import numpy as np

from core.listeners.snapshot import Snapshot
from core.personal.keyed import tag_keys
from core.segmentation.insights import being, members
from core.segmentation.rules import SEGMENTS
from core.stations.models import Company
from core.stations.shows import show_titles
from core.text.wording import agree, article, percent, percentage

AVERAGED = {"recency_days": "recency_days", "interactions_30d": "n_30", "interactions_90d": "n_90",
            "channels": "channels", "competition_share": "competition_share", "rfm_recency": "rfm_recency",
            "rfm_frequency": "rfm_frequency", "rfm_engagement": "rfm_engagement", "churn": "churn"}
"""Each average of a segment and the snapshot column it is taken over (`channels`: how many a listener uses;
`churn`: the chance of going quiet, whose sum is how many the segment is expected to lose)."""


def sums(s: Snapshot) -> dict:
    """What the rollup is made of, as sums that add up: counts, per-column totals and per-value counts per segment,
    so that a live batch updates them by the difference of the listeners it touched instead of a pass over all.

    Shape: {"total", "segments": {key: {"count", "sums": {average: {"sum", "n"}}, "tops": {habit: [[value, n]]},
    "weekday", "complete"}}, "tags": [[tag key, {key: n}]]}; value lists keep the snapshot's vocabulary order."""
    total = len(s)
    segment = s.cols["segment"] if total else np.zeros(0, dtype=np.int16)
    out = {"total": total, "segments": {}, "tags": []}
    per_tag = []
    for code, key in enumerate(SEGMENTS):
        rows = np.flatnonzero(segment == code)
        out["segments"][key] = _segment_sums(s, rows) if len(rows) else {"count": 0}
        per_tag.append(s.cols["tags"][rows].sum(axis=0) if total and len(s.vocab.get("tags", [])) else [])
    if total:  # each tag by its keyed hash: a run's document is not sealed (core.segmentation.overview names them)
        tags = tag_keys(s.company_id, map(str, _plain(s.vocab.get("tags", []))))
        out["tags"] = [[tag, {key: int(per_tag[k][t]) for k, key in enumerate(SEGMENTS)}] for t, tag in enumerate(tags)]
    return out


def _segment_sums(s: Snapshot, rows: np.ndarray) -> dict:
    c = s.cols
    columns = {name: c[column][rows] for name, column in AVERAGED.items() if name != "channels"}
    columns["channels"] = c["channels"][rows].sum(axis=1)
    return {
        "count": len(rows),
        "sums": {name: _total(columns[name]) for name in AVERAGED},
        "tops": {
            "top_show": _counts(c["timeslots"][rows].sum(axis=0), s.vocab["timeslots"]),
            "top_channel": _counts((c["primary_channel"][rows].reshape(-1, 1) == np.array(s.vocab["channels"]))
                                   .sum(axis=0), s.vocab["channels"]),
            "top_daypart": _counts(np.bincount(_known(c["peak_time_of_day"][rows]),
                                               minlength=len(s.vocab["peak_time_of_day"])),
                                   s.vocab["peak_time_of_day"]),
        },
        "weekday": int(c["weekday_pattern"][rows].sum()),
        "complete": int(c["profile_complete"][rows].sum()),
    }


def _known(codes: np.ndarray) -> np.ndarray:
    return codes[codes >= 0]


def _total(values: np.ndarray) -> dict:
    """Sum and count of the values an average is taken over (finite ones only, for floats), summed as numpy's mean
    sums, so that a full run's averages are exactly those of a mean."""
    finite = values[np.isfinite(values)] if values.dtype.kind == "f" else values
    return {"sum": float(np.add.reduce(finite, dtype=np.float64)) if len(finite) else 0.0, "n": len(finite)}


def _counts(counts: np.ndarray, vocab: list) -> list:
    return [[value, int(n)] for value, n in zip(_plain(vocab), counts.tolist(), strict=True)]


def _plain(values) -> list:
    """Vocabulary values as the database stores them (numpy scalars as Python numbers)."""
    return [v.item() if isinstance(v, np.generic) else v for v in values]


def add(base: dict, plus: dict, sign: int = 1) -> dict:
    """`base` with `plus` added (sign 1) or taken away (sign -1); values only one side has count as zero there."""
    if isinstance(base, dict) or isinstance(plus, dict):
        base, plus = base or {}, plus or {}
        return {key: add(base.get(key), plus.get(key), sign) for key in {**base, **plus}}
    if isinstance(base, list) or isinstance(plus, list):
        merged = dict(_pairs(base))
        for value, n in _pairs(plus):
            merged[value] = add(merged.get(value), n, sign)
        return [[value, n] for value, n in merged.items()]
    return (base or 0) + sign * (plus or 0)


def _pairs(pairs: list | None) -> list:
    return [(value, n) for value, n in pairs or []]


def render(parts: dict, company: Company) -> dict:
    """The overview's rollup from its sums: counts, shares, averages, habits and tag counts per segment."""
    total = parts["total"]
    shows, channels = show_titles(company.company_id), company.channel_names()
    out = {"total": total, "segments": {}, "tags": {}, "churn_horizon_days": company.churn_horizon_days}
    for key in SEGMENTS:
        seg = parts["segments"].get(key) or {"count": 0}
        entry = {"count": seg["count"], "percentage": percentage(seg["count"], total)}
        if seg["count"]:
            entry["averages"] = {name: _mean(seg["sums"][name]) for name in AVERAGED if name in seg["sums"]}
            churn = seg["sums"].get("churn") or {"n": 0}
            entry["expected_quiet"] = round(churn["sum"]) if churn["n"] else None
            entry["habits"] = _habits(seg, shows, channels)
        out["segments"][key] = entry
    if total:
        for tag, per in parts["tags"]:
            out["tags"][tag] = {key: per[key] for key in SEGMENTS if per.get(key)}
    return out


def _mean(total: dict) -> float | None:
    return round(total["sum"] / total["n"], 2) if total["n"] else None


def _habits(seg: dict, shows: dict, channels: dict) -> dict:
    count, tops = seg["count"], seg["tops"]
    return {
        "top_show": _top(tops["top_show"], count, shows),
        "top_channel": _top(tops["top_channel"], count, channels),
        "top_daypart": _top(tops["top_daypart"], count),
        "weekday_share": percentage(seg["weekday"], count),
        "complete_share": percentage(seg["complete"], count),
    }


def _top(counts: list, total: int, names: dict | None = None) -> dict | None:
    """The most common value in a group (the first in vocabulary order on a tie)."""
    best = max(counts, key=lambda pair: pair[1], default=None)
    if best is None or best[1] == 0:
        return None
    value = best[0]
    return {"value": value, "name": (names or {}).get(value, str(value)), "share": percentage(best[1], total)}


def rollup(s: Snapshot, company: Company) -> dict:
    """Counts, shares, averages, habits and tag counts per segment."""
    return render(sums(s), company)


def movements(moves: dict, fresh: Snapshot, company: Company, previous_at: str | None) -> dict:
    """The from-to matrix of a run's moves and its biggest moves in words (first assignments are 'unsegmented')."""
    matrix: dict[str, dict[str, int]] = {}
    for src, dst in zip(moves["from"].tolist(), moves["to"].tolist()):
        row = matrix.setdefault(src or "unsegmented", {})
        row[dst] = row.get(dst, 0) + 1
    moved = int(sum(1 for src in moves["from"].tolist() if src))
    return {"previous_at": previous_at, "moved": moved, "first_assignments": int(len(moves["rows"]) - moved),
            "matrix": matrix, "highlights": highlights(moves, fresh, show_titles(company.company_id))}


def highlights(moves: dict, fresh: Snapshot, shows: dict, most: int = 3) -> list[str]:
    """Sentences for the largest transitions, naming the show most of the movers listen to most."""
    pairs: dict[tuple, list[int]] = {}
    for row, src, dst in zip(moves["rows"].tolist(), moves["from"].tolist(), moves["to"].tolist()):
        if src:
            pairs.setdefault((src, dst), []).append(row)
    sentences = []
    for (src, dst), rows in sorted(pairs.items(), key=lambda item: -len(item[1]))[:most]:
        moved = len(rows)
        sentence = f"{members(src, moved)} {agree(moved, 'is')} now {being(dst, moved)}"
        sentences.append(sentence + _show_clause(fresh.cols["top_timeslot"][rows], shows))
    return sentences


def _show_clause(top_shows: np.ndarray, shows: dict) -> str:
    """The show the movers engage with most, when it is one of them or at least a fifth of them."""
    known = top_shows[top_shows >= 0]
    if not len(known):
        return ""
    ids, counts = np.unique(known, return_counts=True)
    best, share = int(ids[counts.argmax()]), counts.max() / len(top_shows)
    title = shows.get(best, f"timeslot {best}")
    if len(top_shows) == 1:
        return f", {article(title + ' listener')}"
    if share < 0.2:
        return ""
    part = "all" if share == 1 else ("most" if share > 0.5 else percent(share))
    return f", {part} of them {title} listeners"
