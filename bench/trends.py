"""Issue 28, item 2: how long the trends take to read and the pages that draw them, at the most history a station
keeps: `python -m bench.trends [--listeners 400]`.

On a fresh embedded database of its own (DATA_DIR bench/data/trends, wiped first): the demo station seeded and
segmented, then its history stored as a rebuild and a year of daily runs leave it (57 rebuilt weeks, 365 run days:
422 points, every segment, moves of every pair). Measured: core.history.query.segment_trends for each interval and
span (median of REPEAT), and the overview and a segment page through the app with a signed-in producer (median, by
week over 52 weeks, the widest; the overview also over the default 26 weeks and over 4). Figures in
measured/trends.json.
"""
from __future__ import annotations

import argparse
import json
import shutil
import statistics
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bench.station import markdown

COMPANY, REPEAT, PASSWORD = 1, 15, "bench-trends-2026"
MEASURED = Path(__file__).resolve().parents[1] / "measured"


def store_history(company_id: int) -> int:
    """57 rebuilt Sundays and 365 run days up to today, each with a count per segment and a move of every pair."""
    from core.clock import station_today
    from core.history.models import HistoryPoint
    from core.segmentation.rules import SEGMENTS
    from core.stations.companies import get_company

    today = station_today(get_company(company_id).timezone)
    sunday = today - timedelta(days=today.isoweekday() % 7 or 7)
    days = [("rebuilt", sunday - timedelta(weeks=w)) for w in range(57)]
    days += [("run", today - timedelta(days=d)) for d in range(365)]
    moves = {a: {b: 3 for b in SEGMENTS if b != a} for a in SEGMENTS} | {"new": {"new_listener": 9}}
    docs = [HistoryPoint(company_id=company_id, source=source, date=day.isoformat(), total=7000,
                         as_of=datetime(day.year, day.month, day.day, tzinfo=UTC),
                         segments={key: 1000 for key in SEGMENTS}, moves=moves, new=9, lost=3).to_mongo()
            for source, day in days]
    HistoryPoint._get_collection().insert_many(docs)
    return len(docs)


def median_ms(call) -> float:
    call()
    timings = []
    for _ in range(REPEAT):
        started = time.perf_counter()
        call()
        timings.append(time.perf_counter() - started)
    return round(statistics.median(timings) * 1000, 1)


def bench_core() -> list[dict]:
    """segment_trends for each interval and span."""
    from core.history.query import SPANS, TREND_INTERVALS, segment_trends

    return [{"interval": interval, "weeks": weeks, "points": len(segment_trends(COMPANY, interval, weeks)["points"]),
             "segment_trends ms": median_ms(lambda i=interval, w=weeks: segment_trends(COMPANY, i, w))}
            for interval in TREND_INTERVALS for weeks in SPANS]


def bench_pages(folder: Path) -> dict:
    """The overview and a segment page by week over 52 weeks, and the overview's bytes, through the app."""
    from core.access.users import create_user
    from webapp import create_app

    app = create_app({"ENV": {"DATA_DIR": str(folder), "MONGODB_DATABASE": "bench_trends", "AUTO_EMBED": "false"},
                      "WTF_CSRF_ENABLED": False})
    create_user("bench@trends.fm", PASSWORD, companies=[COMPANY])
    client = app.test_client()
    client.post("/login", data={"email": "bench@trends.fm", "password": PASSWORD})
    pages = {"overview": f"/stations/{COMPANY}/?weeks=52", "segment": f"/stations/{COMPANY}/segments/at_risk?weeks=52"}
    figures = {f"{name} ms": median_ms(lambda p=path: client.get(p)) for name, path in pages.items()}
    figures["overview kB"] = round(len(client.get(pages["overview"]).data) / 1024)
    figures["overview 26 weeks ms"] = median_ms(lambda: client.get(f"/stations/{COMPANY}/"))
    figures["overview 4 weeks ms"] = median_ms(lambda: client.get(f"/stations/{COMPANY}/?weeks=4"))
    return figures


def main(argv: list[str] | None = None) -> None:
    """Command line entry point."""
    parser = argparse.ArgumentParser(prog="python -m bench.trends", description=__doc__.splitlines()[0])
    parser.add_argument("--listeners", type=int, default=400)
    args = parser.parse_args(argv)
    from core.config import Settings
    from core.demo.seed import seed_demo
    from core.service import startup

    folder = Path("bench/data/trends").resolve()
    shutil.rmtree(folder, ignore_errors=True)
    startup.start(Settings(data_dir=folder, database_name="bench_trends", auto_embed=False))
    seed_demo(COMPANY, args.listeners, seed=7)
    from core.history.models import HistoryPoint

    HistoryPoint.objects(company_id=COMPANY).delete()
    stored = store_history(COMPANY)
    core = bench_core()
    print(markdown(core))
    pages = bench_pages(folder)
    print(markdown([pages]))
    figures = {"measured_at": datetime.now(UTC).isoformat(timespec="seconds"), "points stored": stored,
               "listeners": args.listeners, "segment_trends": core, "pages": pages}
    (MEASURED / "trends.json").write_text(json.dumps(figures, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
