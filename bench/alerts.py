"""Issue 28, item 3: how long a station's alert check and its weekly digest take at the most a station keeps (50
rules, 422 points of history): `python -m bench.alerts`.

On a fresh embedded database of its own (DATA_DIR bench/data/alerts, wiped first): a station, its history as
bench.trends stores it (57 rebuilt weeks and 365 run days, every size 1,000, 9 new listeners a day), and 50 rules of
every kind and metric, delivered by webhook and e-mail. Measured: the first check (the rules that hold fire and are
kept and delivered), a check in the same week (every rule read again, nothing fires twice; median of REPEAT) and the
digest of last week composed (HTML and text; median). Figures in measured/alerts.json.
"""
from __future__ import annotations

import argparse
import itertools
import json
import shutil
import time
from datetime import UTC, datetime
from pathlib import Path

from bench.station import markdown
from bench.trends import median_ms, store_history

COMPANY = 1
MEASURED = Path(__file__).resolve().parents[1] / "measured"


def make_rules(company_id: int, count: int) -> None:
    """`count` rules cycling through every kind and metric, each by webhook and e-mail."""
    from core.alerts.rules import KINDS, METRICS
    from core.alerts.store import create_rule

    thresholds = {"grows_by": 0, "falls_by": 0, "below": 2000, "above": 5, "under_monthly_mean": 0}
    for kind, metric in itertools.islice(itertools.cycle(itertools.product(KINDS, METRICS)), count):
        create_rule(company_id, kind, metric, thresholds[kind], webhook=True,
                    email={"to": ["producer@station.co.za"]})


def main(argv: list[str] | None = None) -> None:
    """Command line entry point."""
    parser = argparse.ArgumentParser(prog="python -m bench.alerts", description=__doc__.splitlines()[0])
    parser.add_argument("--rules", type=int, default=50)
    args = parser.parse_args(argv)
    from core.alerts.check import check_station
    from core.alerts.mail import digest_message
    from core.alerts.rules import period_of
    from core.clock import station_today
    from core.config import Settings
    from core.service import startup
    from core.stations.companies import ensure_company

    folder = Path("bench/data/alerts").resolve()
    shutil.rmtree(folder, ignore_errors=True)
    startup.start(Settings(data_dir=folder, database_name="bench_alerts", auto_embed=False))
    ensure_company(COMPANY)
    stored = store_history(COMPANY)
    make_rules(COMPANY, args.rules)
    started = time.perf_counter()
    fired = len(check_station(COMPANY))
    first_ms = round((time.perf_counter() - started) * 1000, 1)
    today = station_today("Africa/Johannesburg")
    figures = {"rules": args.rules, "points stored": stored, "fired at the first check": fired,
               "first check ms": first_ms, "check again ms": median_ms(lambda: check_station(COMPANY)),
               "digest ms": median_ms(lambda: digest_message(COMPANY, period_of(today)))}
    print(markdown([figures]))
    (MEASURED / "alerts.json").write_text(json.dumps(
        {"measured_at": datetime.now(UTC).isoformat(timespec="seconds"), **figures}, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
