"""Campaign results at scale: `python -m bench.results [--size 100000] [--runs 2000]`.

1. Speed: on the station a `bench.run` left under bench/data/run-<size>, an audience of every listener (100,000 at
   100k: the audience is written directly, since a theme's audience holds at most 5,000) holding 10% out, made at
   the start of the dataset's last 30 days with its campaign recorded over them (results count nothing from before
   an audience, nor before its campaign is recorded), its results over those days through the API: the first
   answer of the process (which reads the station's interactions from their columnar copy) and the median of the
   next ones. Target (issue 52): under 2 s.
2. Honesty: the simulation of core.audiences.simulation, in the same run, for the interval the results use
   (Agresti-Caffo) and the simplest one beside it (Wald's): how often each 95% interval holds the planted lift, and
   how often each calls a lift significant (with none planted: the false positives; with one: the power).
Figures go to measured/campaign_results.json.
"""
from __future__ import annotations

import argparse
import json
import secrets
import statistics
import time
from datetime import date, datetime, timedelta
from pathlib import Path

from bench.station import client as station_client
from bench.station import existing_station, markdown

OUT = Path(__file__).resolve().parents[1] / "measured" / "campaign_results.json"
REPEATS = 5
SCENARIOS = ((1000, 0.1, 0.10, 0.0), (1000, 0.1, 0.10, 0.05), (200, 0.5, 0.05, 0.0), (100, 0.2, 0.03, 0.0),
             (20000, 0.1, 0.04, 0.0), (20000, 0.1, 0.04, 0.01))
"""(members, holdout share, the holdout's response rate, the lift planted): audiences a station makes, small to
large, with rare and common responses."""


def whole_station_audience(ctx, first: date, last: date) -> str:
    """An audience of every listener of the station, 10% held out, made at the start of `first` on the station's
    calendar, its campaign recorded from then to `last`: its id."""
    from core.audiences import campaign, texts
    from core.audiences.models import Audience
    from core.audiences.stored import as_stored
    from core.clock import zone_of
    from core.listeners import snapshot
    from core.stations.companies import get_company

    Audience._get_collection().delete_many({"company_id": ctx.company_id,  # names are sealed: found by their key
                                            "name_key": {"$in": texts.name_keys(ctx.company_id, "bench results")}})
    snap = snapshot.current(ctx.company_id)
    audience_id = secrets.token_urlsafe(8)
    now = datetime(first.year, first.month, first.day, tzinfo=zone_of(get_company(ctx.company_id).timezone))
    members = [{"originator": o, "score": 0.9, "query": 0} for o in snap.originators.tolist()]
    strategy = {"queries": ["everyone"], "filters": {}, "min_score": 0.0, "limit": len(members), "provider": "given",
                "model": None}
    doc = {"company_id": ctx.company_id, "audience_id": audience_id, "name": "bench results", "theme": "everyone",
           "description": None, "limit": len(members), "min_score": 0.0, "expiry_days": 30, "holdout_percent": 10,
           "campaign": {**campaign.NO_CAMPAIGN, "starts": first.isoformat(), "ends": last.isoformat()},
           "plan_id": None, "strategy": strategy, "members": members, "created_at": now,
           "refreshed_at": None, "expires_at": now + timedelta(days=30), "changes": None}
    Audience._get_collection().insert_one(as_stored(ctx.company_id, doc))
    return audience_id


def speed(ctx) -> dict:
    """Seconds of the results of a whole-station audience over 30 days: first of the process, then the median. The
    station's interactions have their columnar copy, as the daily full run leaves it."""
    from core.listeners.events import load_events

    load_events(ctx.company_id, keep_copy=True)  # the copy a full run keeps (core.listeners.event_copies)
    client, headers = station_client(ctx)
    last = ctx.now.date()
    first = last - timedelta(days=29)
    audience_id = whole_station_audience(ctx, first, last)
    query = {"from": first.isoformat(), "to": last.isoformat()}
    url = f"/api/v1/audiences/{ctx.company_id}/{audience_id}/results"

    def timed() -> tuple[float, dict]:
        started = time.perf_counter()
        answer = client.get(url, query_string=query, headers=headers)
        assert answer.status_code == 200, answer.get_data(as_text=True)[:300]
        return time.perf_counter() - started, answer.get_json()

    first, found = timed()
    later = [timed()[0] for _ in range(REPEATS)]
    return {"listeners": f"{ctx.size:,}", "members": f"{sum(a['members'] for a in found['arms'].values()):,}",
            "held out": f"{found['arms']['holdout']['members']:,}", "days": found["window"]["days_counted"],
            "first s": round(first, 2), "later s (median)": round(statistics.median(later), 2),
            "verdict": found["verdict"]}


def honesty(runs: int) -> list[dict]:
    """The simulation's coverage table: both intervals on the same drawn campaigns."""
    from core.audiences.simulation import Scenario, coverage

    rows = []
    for members, share, base, planted in SCENARIOS:
        found = coverage(Scenario(members, share, base, planted), runs, seed=members, methods=("agresti-caffo", "wald"))
        rows.append({"members": f"{members:,}", "holdout": f"{share:.0%}", "holdout rate": f"{base:.0%}",
                     "planted lift": f"{100 * planted:.0f} pts", "runs": runs,
                     **{f"{name} covers": f"{found[key]['covered']:.1%}" for key, name in
                        (("agresti-caffo", "Agresti-Caffo"), ("wald", "Wald"))},
                     **{f"{name} significant": f"{found[key]['significant']:.1%}" for key, name in
                        (("agresti-caffo", "Agresti-Caffo"), ("wald", "Wald"))}})
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.results", description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=2000)
    parser.add_argument("--skip-speed", action="store_true", help="the simulation only (no station needed)")
    args = parser.parse_args(argv)
    measured = {"simulation": honesty(args.runs)}
    print(markdown(measured["simulation"]), flush=True)
    if not args.skip_speed:
        measured["speed"] = speed(existing_station(args.size))
        print(markdown([measured["speed"]]))
    OUT.write_text(json.dumps(measured, indent=2) + "\n")


if __name__ == "__main__":
    main()
