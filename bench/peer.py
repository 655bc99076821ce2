"""A peer in the benchmark (issue 51, item 1): the segment rules of segments.md written once more, as SQL run by
DuckDB over the very files bench.generate wrote, timed with their loading, and compared listener by listener with the
segments the service's run just published.

It is a second, independent reading of the rules: nothing of core.segmentation's rule code is imported. What it takes
from the service is what a station is told, not computed: its time zone (for a time written without an offset and for
the weeks of `active_weeks_90`), and, afterwards, the segments to compare with (the published snapshot, whose
originators are the station's own, as every reader of the snapshot sees them). It uses the default thresholds, so it
refuses a station that overrides them.

Like the service, it reads only interactions at or before `now` (a run with an earlier `now` sees the station as it
was then), and a listener is anyone in the profiles or the interactions (one without interactions is dormant).
"""
from __future__ import annotations

import sys
import time
from collections import Counter
from datetime import UTC

EXAMPLES = 10
INPUT_COLUMNS = {"n_total": "n_total", "since_first": "since_first_days", "r": "recency_days", "n_30": "n_30",
                 "n_prev30": "n_prev30", "n_90": "n_90", "channels_30": "channels_30",
                 "competition_share": "competition_share", "top_show_share_90": "top_show_share_90",
                 "active_weeks_90": "active_weeks_90"}
"""The peer's rule inputs (segments.md's names) and the snapshot column of the service's own."""

LOAD = """
CREATE OR REPLACE TEMP TABLE interactions AS
SELECT trim(originator) AS originator, CAST("timestamp" AS TIMESTAMPTZ) AS ts,
       epoch(CAST("timestamp" AS TIMESTAMPTZ)) AS t, channel_type, lower(trim(campaign_type)) AS campaign_type,
       timeslot_id
FROM read_json($interactions, format = 'newline_delimited',
               columns = {originator: 'VARCHAR', "timestamp": 'VARCHAR', channel_type: 'BIGINT',
                          campaign_type: 'VARCHAR', timeslot_id: 'BIGINT'})
"""

INPUTS = """
WITH seen AS (
    SELECT *, $now - t AS age FROM interactions WHERE t <= $now
), inputs AS (
    SELECT originator,
           count(*) AS n_total,
           ($now - min(t)) / 86400 AS since_first,
           ($now - max(t)) / 86400 AS r,
           count(*) FILTER (WHERE age < 30 * 86400) AS n_30,
           count(*) FILTER (WHERE age >= 30 * 86400 AND age < 60 * 86400) AS n_prev30,
           count(*) FILTER (WHERE age < 90 * 86400) AS n_90,
           count(DISTINCT channel_type) FILTER (WHERE age < 30 * 86400) AS channels_30,
           count(*) FILTER (WHERE campaign_type = 'competition') / count(*) AS competition_share,
           count(DISTINCT (isoyear(ts), week(ts))) FILTER (WHERE age < 90 * 86400) AS active_weeks_90
    FROM seen GROUP BY originator
), shows AS (
    SELECT originator, max(n) / sum(n) AS top_show_share_90
    FROM (SELECT originator, timeslot_id, count(*) AS n FROM seen
          WHERE age < 90 * 86400 AND timeslot_id IS NOT NULL GROUP BY originator, timeslot_id)
    GROUP BY originator
)"""

SEGMENTS = INPUTS + """, listeners AS (
    SELECT trim(originator) AS originator
    FROM read_json($profiles, format = 'newline_delimited', columns = {originator: 'VARCHAR'})
    UNION SELECT originator FROM interactions
)
SELECT originator,
       CASE
           WHEN n_total > 0 AND since_first <= 7 THEN 'new_listener'
           WHEN n_total IS NULL OR r > 90 THEN 'dormant'
           WHEN competition_share >= 0.70 THEN 'competition_chaser'
           WHEN r > 30 OR (n_prev30 >= 4 AND n_30 <= 0.5 * n_prev30) THEN 'at_risk'
           WHEN r <= 7 AND n_30 >= 10 AND channels_30 >= 2 AND n_30 >= n_prev30 THEN 'super_fan'
           WHEN n_90 >= 4 AND coalesce(top_show_share_90, 0) >= 0.60 AND active_weeks_90 >= 4 THEN 'show_loyalist'
           ELSE 'occasional_engager'
       END AS segment
FROM listeners LEFT JOIN inputs USING (originator) LEFT JOIN shows USING (originator)
"""

ALL_INPUTS = INPUTS + """
SELECT * REPLACE (coalesce(top_show_share_90, 0) AS top_show_share_90) FROM inputs LEFT JOIN shows USING (originator)
"""

EXPLAIN = INPUTS + """
SELECT originator, n_total, round(since_first, 2) AS since_first, round(r, 2) AS r, n_30, n_prev30, n_90, channels_30,
       round(competition_share, 3) AS competition_share, round(top_show_share_90, 3) AS top_show_share_90,
       active_weeks_90
FROM inputs LEFT JOIN shows USING (originator) WHERE originator IN (SELECT unnest($who))
"""


def peer_segments(db, folder, now_s: float, zone: str) -> dict[str, str]:
    """Every listener's segment as of `now_s` (epoch seconds) by the SQL above, from the files in `folder` (read
    here, not before), on a fresh DuckDB connection `db`."""
    db.execute(f"SET TimeZone = '{zone}'")  # a time without an offset is the station's; so are its ISO weeks
    db.execute(LOAD, {"interactions": str(folder / "interactions.jsonl")})
    rows = db.execute(SEGMENTS, {"profiles": str(folder / "profiles.jsonl"), "now": now_s}).fetchall()
    return dict(rows)


def service_segments(company_id: int) -> dict[str, str]:
    """Every listener's segment as the service's latest run published it (its snapshot, the listeners by originator)."""
    from core.listeners import snapshot

    snap = snapshot.current(company_id)
    return dict(zip(snap.originators.tolist(), snap.labels("segment").tolist(), strict=True))


def compare_inputs(db, now_s: float, company_id: int) -> tuple[int, dict[str, int]]:
    """How many listeners with interactions the peer counts, and per rule input how many of them the service's
    snapshot holds another value for (counts exactly, days and shares to 1e-9): a sharper check than the segments,
    whose generated histories seldom sit on a threshold."""
    import numpy as np

    from core.listeners import snapshot

    peer = db.execute(ALL_INPUTS, {"now": now_s}).fetchnumpy()
    snap = snapshot.current(company_id)
    rows = snap.rows_of(np.asarray(peer["originator"]).astype(str))
    held = rows >= 0
    differ = {"not in the service's snapshot": int((~held).sum())}
    for peer_name, name in INPUT_COLUMNS.items():
        ours = np.asarray(snap.cols[name][rows[held]], dtype=float)
        theirs = np.asarray(peer[peer_name], dtype=float)[held]
        differ[name] = int((~np.isclose(ours, theirs, rtol=0, atol=1e-9)).sum())
    return len(rows), differ


def compare(service: dict[str, str], peer: dict[str, str]) -> tuple[int, list[tuple[str, str | None, str | None]]]:
    """How many listeners of either side agree, and every one that does not (listener, service, peer)."""
    differ = [(o, service.get(o), peer.get(o)) for o in sorted(service.keys() | peer.keys())
              if service.get(o) != peer.get(o)]
    return len(service.keys() | peer.keys()) - len(differ), differ


def bench_peer(ctx) -> dict:
    """DuckDB's reading of the rules over the generated files, timed with the load, against the service's run."""
    import duckdb

    from core.stations.companies import ensure_company, timezone_of

    overrides = ensure_company(ctx.company_id).thresholds
    if overrides:
        raise RuntimeError(f"the peer knows the default thresholds only; the station overrides {sorted(overrides)}")
    zone, now_s = timezone_of(ctx.company_id), ctx.now.astimezone(UTC).timestamp()
    with duckdb.connect() as db:
        started = time.perf_counter()
        peer = peer_segments(db, ctx.folder, now_s, zone)
        seconds = ctx.found["peer_s"] = time.perf_counter() - started  # bench_next_run's ratio is to this too
        service = ctx.found["segments"] = service_segments(ctx.company_id)
        agree, differ = compare(service, peer)
        _report(db, now_s, differ, service, peer)
        counted, inputs_differ = compare_inputs(db, now_s, ctx.company_id)
    service_s = ctx.found.get("segmentation_s")  # bench_segmentation's, in the same run
    return {"peer s": f"{seconds:.1f}", "service/peer": f"{service_s / seconds:.1f}" if service_s else "-",
            "segments agree": f"{agree:,} of {agree + len(differ):,}",
            "rule inputs differ": ", ".join(f"{n:,} {name}" for name, n in inputs_differ.items() if n)
            or f"none of {counted:,}"}


def _report(db, now_s: float, differ: list, service: dict, peer: dict) -> None:
    """On disagreement, what differs (by pair of segments) and a few listeners with the peer's rule inputs, on stderr
    (the generated station's numbers are made up: they name nobody)."""
    if not differ:
        return
    pairs = Counter((s, p) for _, s, p in differ)
    print(f"  peer: {len(differ):,} listeners differ (service {len(service):,}, peer {len(peer):,} listeners); "
          "service -> peer: " + ", ".join(f"{s} -> {p}: {n:,}" for (s, p), n in pairs.most_common()),
          file=sys.stderr)
    examples = differ[:EXAMPLES]
    cursor = db.execute(EXPLAIN, {"now": now_s, "who": [originator for originator, _, _ in examples]})
    names = [column[0] for column in cursor.description][1:]
    inputs = {row[0]: ", ".join(f"{n} {v}" for n, v in zip(names, row[1:], strict=True)) for row in cursor.fetchall()}
    for originator, ours, theirs in examples:
        print(f"    {originator}: service {ours}, peer {theirs}; {inputs.get(originator, 'no interactions')}",
              file=sys.stderr)
