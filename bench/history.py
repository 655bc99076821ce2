"""Issue 28, item 1: the rebuild of a station's segment history from its interactions, and what it stores:
`python -m bench.history --size 100000`.

On the station a `python -m bench.run --sizes <size>` left under bench/data/run-<size> (run that first): the
station's last 57 weeks (13 months) rebuilt as `flask --app wsgi history` and the worker's job after an import do it
(one read of every interaction, the segment rules again as of each week's end), timed with its phases, then the
stored points' count and size on the database (collStats). The figures go to measured/history-<size>.json.
"""
from __future__ import annotations

import argparse
import json
import time
from datetime import UTC, datetime
from pathlib import Path

from bench.station import close, existing_station, markdown

MEASURED = Path(__file__).resolve().parents[1] / "measured"


def measure(size: int) -> dict:
    """Rebuild the station's history once, timed, and size what it stored."""
    from core.db.connection import get_db
    from core.history.models import HistoryPoint
    from core.history.rebuild import rebuild_history

    ctx = existing_station(size)
    try:
        marks: list[tuple[str, float]] = []
        started = time.perf_counter()
        points = rebuild_history(ctx.company_id, now=ctx.now,
                                 progress=lambda said: marks.append((said, time.perf_counter() - started)))
        seconds = time.perf_counter() - started
        read_s = next(t for said, t in marks if said.startswith("read "))
        stats = get_db().command("collStats", HistoryPoint._get_collection_name())
        stored = HistoryPoint.objects(company_id=ctx.company_id, source="rebuilt").count()
        return {"listeners": f"{size:,}", "weeks rebuilt": points, "rebuild s": f"{seconds:.1f}",
                "of which reading the interactions s": f"{read_s:.1f}",
                "rules per week s": f"{(seconds - read_s) / max(points, 1):.2f}",
                "points stored": stored, "stored kB": f"{stats.get('size', 0) / 1024:.0f}",
                "kB per point": f"{stats.get('size', 0) / 1024 / max(stats.get('count', 1), 1):.1f}",
                "target s": 300}
    finally:
        close(ctx.settings)


def main(argv: list[str] | None = None) -> None:
    """Command line entry point."""
    parser = argparse.ArgumentParser(prog="python -m bench.history", description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=100_000)
    args = parser.parse_args(argv)
    row = measure(args.size)
    print(markdown([row]))
    out = MEASURED / f"history-{args.size}.json"
    out.write_text(json.dumps({"measured_at": datetime.now(UTC).isoformat(timespec="seconds"), **row}, indent=1)
                   + "\n")
    print(f"written to {out}")


if __name__ == "__main__":
    main()
