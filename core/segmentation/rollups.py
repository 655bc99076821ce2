"""Per-company rollups computed once per segmentation run, so the overview never scans listeners per request."""
from __future__ import annotations

import numpy as np

from core.listeners.snapshot import Snapshot
from core.segmentation.insights import being, members
from core.segmentation.rules import SEGMENTS
from core.stations.models import Company
from core.stations.shows import show_titles
from core.text.wording import agree, article, percent, percentage


def _mean(values: np.ndarray) -> float | None:
    finite = values[np.isfinite(values)] if values.dtype.kind == "f" else values
    return round(float(finite.mean()), 2) if len(finite) else None


def _top(matrix_or_codes: np.ndarray, vocab: list, names: dict | None = None) -> dict | None:
    """The most common value in a group: from a membership matrix or from categorical codes."""
    if matrix_or_codes.ndim == 2:
        counts = matrix_or_codes.sum(axis=0)
        total = len(matrix_or_codes)
    else:
        codes = matrix_or_codes[matrix_or_codes >= 0]
        counts, total = np.bincount(codes, minlength=len(vocab)), len(matrix_or_codes)
    if not len(vocab) or counts.max(initial=0) == 0:
        return None
    best = int(counts.argmax())
    value = vocab[best]
    return {"value": value, "name": (names or {}).get(value, str(value)), "share": percentage(counts[best], total)}


def _segment_stats(s: Snapshot, rows: np.ndarray, shows: dict, channels: dict) -> dict:
    c = s.cols
    return {
        "recency_days": _mean(c["recency_days"][rows]),
        "interactions_30d": _mean(c["n_30"][rows]),
        "interactions_90d": _mean(c["n_90"][rows]),
        "channels": _mean(c["channels"][rows].sum(axis=1)),
        "competition_share": _mean(c["competition_share"][rows]),
        "rfm_recency": _mean(c["rfm_recency"][rows]),
        "rfm_frequency": _mean(c["rfm_frequency"][rows]),
        "rfm_engagement": _mean(c["rfm_engagement"][rows]),
    }, {
        "top_show": _top(c["timeslots"][rows], s.vocab["timeslots"], shows),
        "top_channel": _top(c["primary_channel"][rows].reshape(-1, 1) == np.array(s.vocab["channels"]),
                            s.vocab["channels"], channels),
        "top_daypart": _top(c["peak_time_of_day"][rows], s.vocab["peak_time_of_day"]),
        "weekday_share": percentage(c["weekday_pattern"][rows].sum(), len(rows)),
        "complete_share": percentage(c["profile_complete"][rows].sum(), len(rows)),
    }


def rollup(s: Snapshot, company: Company) -> dict:
    """Counts, shares, averages, habits and tag counts per segment."""
    total = len(s)
    shows, channels = show_titles(company.company_id), company.channel_names()
    segment = s.cols["segment"] if total else np.zeros(0, dtype=np.int16)
    out = {"total": total, "segments": {}, "tags": {}}
    for code, key in enumerate(SEGMENTS):
        rows = np.flatnonzero(segment == code)
        entry = {"count": len(rows), "percentage": percentage(len(rows), total)}
        if len(rows):
            entry["averages"], entry["habits"] = _segment_stats(s, rows, shows, channels)
        out["segments"][key] = entry
    if total and len(s.vocab.get("tags", [])):
        per_segment = np.stack([s.cols["tags"][segment == code].sum(axis=0) for code in range(len(SEGMENTS))])
        for t, tag in enumerate(s.vocab["tags"]):
            out["tags"][tag] = {key: int(per_segment[k, t]) for k, key in enumerate(SEGMENTS) if per_segment[k, t]}
    return out


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
