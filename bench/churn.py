"""Measure churn honestly, by the protocol the service itself uses (core.churn.model.backtest):
`python -m bench.churn [--sizes 20000 100000] [--seed 7] [--station FOLDER] [--cdnow PATH] [--ideas]`.

Per dataset: cut-offs 30, 60, 90 and 120 days before its end; the newest held out. The station's model learns from
the older ones, and every method is calibrated on the newest of those; each is judged on the held-out cut-off by AUC
(ranking who went quiet in the 30 days after it) and Brier score (its probabilities against what happened). The
methods: the learned model, days since the last interaction and BG/NBD's expected active days. Then the
reliability table of what the service chose, and the seconds the whole backtest took (what a full run adds).

The fixed-weight score that came before (weights set on our own generator) measured, by this protocol, AUC 0.862 on
the demo at 20,000 and 100,000 listeners and 0.759 on CDNOW (bench/README.md, "Churn").

Datasets: the demo station generated in memory (no database), and a real, public purchase log of a business whose
customers never cancel: CDNOW (23,570 customers, January 1997 to June 1998, as the lifetimes package ships it on
PyPI), one interaction per purchase day. Get it with `pip download lifetimes==0.11.3 --no-deps -d bench/data` and
pass the wheel (or CDNOW_master.txt) as --cdnow.

`--segments` also imports each dataset into a fresh database through the service (the demo by `seed_demo`, CDNOW as
one `purchase` interaction per purchase day), runs the full segmentation and reports the mean chance of going quiet
per segment as the overview reads it: the segment rule (a look back over 30 to 90 days) and the churn score (a look
ahead) must agree that at risk and dormant listeners are likelier to go quiet than super fans and show loyalists.
"""
from __future__ import annotations

import argparse
import json
import time
import zipfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np

from bench import churn_ideas
from bench.generate import DEFAULT_NOW
from bench.station import markdown
from core import measured
from core.churn.features import DAY, quiet_after
from core.churn.model import HORIZON_DAYS, LEARN_FROM, METHODS, Interactions, backtest
from core.churn.store import probabilities
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


def station_files(folder: Path) -> tuple[Interactions, datetime]:
    """A station written as import files (`interactions.jsonl` in the import format, and `meta.json` with its `now`
    and `timezone`, as bench.other_station writes them) as interactions; shows named by the rows only."""
    meta = json.loads((folder / "meta.json").read_text())
    rows = [json.loads(line) for line in (folder / "interactions.jsonl").open(encoding="utf-8")]
    _, who = np.unique([r["originator"] for r in rows], return_inverse=True)
    ts = np.array([datetime.fromisoformat(r["timestamp"]).timestamp() for r in rows]).astype(np.int64)
    _, campaign = np.unique([r["campaign_type"] for r in rows], return_inverse=True)
    channel = np.array([int(r["channel_type"]) for r in rows])
    show = np.array([int(r.get("timeslot_id", -1)) for r in rows])
    return (Interactions(who.astype(np.int64), ts, int(who.max()) + 1, meta["timezone"], channel, campaign, show),
            datetime.fromisoformat(meta["now"]))


def station_name(folder: Path) -> str:
    """A station's name and size as its files' meta.json gives them."""
    meta = json.loads((folder / "meta.json").read_text())
    return f"{meta.get('station', folder.name)} {meta.get('listeners', 0):,} (seed {meta.get('seed', '-')})"


def as_learned(events: Interactions, until: int | None = None, at_most: int | None = LEARN_FROM) -> Interactions:
    """What the service learns from (core.churn.store.learn): the interactions up to `until` (epoch seconds; None:
    all) of a random `at_most` of the listeners heard from (None: of all)."""
    known = slice(None) if until is None else events.ts <= until
    columns = (None if v is None else v[known] for v in (events.channel, events.campaign, events.timeslot))
    return Interactions.of(events.row[known], events.ts[known], events.n, events.tz, *columns, at_most=at_most)


def evaluate(name: str, events: Interactions, now: datetime) -> tuple[list[dict], list[dict], dict]:
    """One dataset: a row per method, the chosen method's reliability rows, and the backtest's summary."""
    started = time.perf_counter()
    report, _ = backtest(as_learned(events), now)
    seconds = time.perf_counter() - started
    rows = [{"dataset": name, "method": NAMES[m], "AUC": _fmt(report.metrics[m]["auc"]),
             "Brier": _fmt(report.metrics[m]["brier"]), "scores the station": "yes" if m == report.chosen else ""}
            for m in METHODS]
    bands = [{"dataset": name, "method": NAMES[report.chosen], **band} for band in report.reliability]
    summary = {"dataset": name, "listeners": f"{events.n:,}", "interactions": f"{len(events.ts):,}",
               "learned from": f"a random {LEARN_FROM:,} of {report.sampled_from:,}" if report.sampled_from else "all",
               "labelled at the held-out cut-off": f"{report.labelled:,}",
               "went quiet": f"{report.quiet_share:.1%}", "backtest s": f"{seconds:.1f}", "why": report.reason}
    return rows, bands, summary


def per_segment(name: str, load_station) -> list[dict]:
    """Import a dataset into a fresh database, segment it, and read each segment's mean churn probability and
    expected losses from the overview's breakdown."""
    from bench.station import DEFAULT_OUT, close, fresh_database
    from core.segmentation.overview import segment_breakdown

    settings = fresh_database(0, DEFAULT_OUT / "churn-segments")
    try:
        company_id = load_station()
        breakdown = segment_breakdown(company_id)
    finally:
        close(settings)
    rows = [{"dataset": name, "segment": s["label"], "listeners": f"{s['count']:,}",
             "mean chance of going quiet": _fmt(s["averages"].get("churn")),
             f"expected to go quiet in {breakdown['churn_horizon_days']} days": f"{s['expected_quiet'] or 0:,}"}
            for s in breakdown["segments"] if s["count"]]
    means = {s["segment"]: s["averages"].get("churn") or 0.0 for s in breakdown["segments"] if s["count"]}
    ahead = [k for k in ("at_risk", "dormant") if k in means]
    behind = [k for k in ("super_fan", "show_loyalist") if k in means]
    agree = all(means[a] > means[b] for a in ahead for b in behind)
    rows.append({"dataset": name, "segment": "at risk and dormant above super fans and show loyalists",
                 "listeners": "", "mean chance of going quiet": ("yes" if agree else "NO") if ahead and behind
                 else "no such segments"})
    return rows


def seeded_demo(size: int, seed: int, now: str = DEFAULT_NOW):
    """The demo station imported and segmented as `make run` makes it; its company id."""
    from core.demo.seed import seed_demo

    seed_demo(1, size, seed, now=datetime.fromisoformat(now))
    return 1


def imported_cdnow(path: Path) -> int:
    """CDNOW imported as interactions of station 9 (one `purchase` per customer and purchase day, at noon UTC) and
    segmented as of the day after its last purchase; its company id. The log is moved forward by whole weeks to end
    at the bench's reference time (weekdays and gaps kept), since the service accepts no time before 2000."""
    from core.ingest.importer import import_rows
    from core.segmentation.runs import segment_company
    from core.stations.companies import ensure_company
    from core.stations.models import Company

    events, end = cdnow(path)
    weeks = (datetime.fromisoformat(DEFAULT_NOW) - end).days // 7
    shift, end = weeks * 7 * DAY, end + timedelta(weeks=weeks)
    ensure_company(9)
    Company.objects(company_id=9).update_one(set__timezone="UTC", set__name="CDNOW")
    rows = ((i + 1, {"company_id": 9, "originator": f"cdnow-{int(r)}", "channel_type": 1,
                     "campaign_type": "purchase",
                     "timestamp": datetime.fromtimestamp(int(t) + shift, UTC).isoformat()})
            for i, (r, t) in enumerate(zip(events.row, events.ts, strict=True)))
    import_rows("interactions", rows, source="bench", resegment=False, now=end)
    segment_company(9, end)
    return 9


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.4f}"


def kept_against_learned(name: str, events: Interactions, end: datetime, ages=(0, 12, 23)) -> list[dict]:
    """A full run later in a station day scores with the model the day's first run learned, up to a day before
    (core.churn.store.learned_or_kept). At `at`, a horizon before the data's end (so what followed is known), each
    model learned `age` hours before scores every listener as of `at`; AUC on who went quiet in the horizon after,
    beside days since the last interaction, the simplest baseline, in the same run."""
    from sklearn.metrics import roc_auc_score  # late: the other tables do not need it

    at = end - timedelta(days=HORIZON_DAYS)
    cutoff = int(at.timestamp())
    quiet = quiet_after(events.row, events.ts, events.n, cutoff + 1, HORIZON_DAYS)  # what `at` itself saw is known
    heard = events.at(cutoff + 1)
    rows = [{"dataset": name, "scored by": "days since the last interaction", "learned before the run": "-",
             "interactions added since": "-", "AUC": _fmt(roc_auc_score(quiet[heard.rows], heard.recency))}]
    for age in ages:
        learned_at = at - timedelta(hours=age)
        _, scoring = backtest(as_learned(events, int(learned_at.timestamp())), learned_at)
        chance = probabilities(scoring, events, at)[heard.rows]
        added = int(((events.ts <= cutoff) & (events.ts > learned_at.timestamp())).sum())
        rows.append({"dataset": name, "scored by": NAMES[scoring.method], "learned before the run": f"{age} h",
                     "interactions added since": f"{added:,}",
                     "AUC": _fmt(roc_auc_score(quiet[heard.rows], chance))})
    return rows


def sampled_against_all(name: str, events: Interactions, end: datetime,
                        sizes=(5_000, 10_000, LEARN_FROM)) -> list[dict]:
    """A backtest learns from a random LEARN_FROM of a station's listeners (core.churn.model.LEARN_FROM). At `at`, a
    horizon before the data's end, scorings learned from every listener and from random samples of `sizes` score
    every listener heard from as of `at`; AUC on who went quiet in the horizon after, the Brier score of the
    probabilities, and the backtest's seconds, beside days since the last interaction, in the same run."""
    from sklearn.metrics import roc_auc_score  # late: the other tables do not need it

    at = end - timedelta(days=HORIZON_DAYS)
    cutoff = int(at.timestamp())
    quiet = quiet_after(events.row, events.ts, events.n, cutoff + 1, HORIZON_DAYS)  # what `at` itself saw is known
    heard = events.at(cutoff + 1)
    rows = [{"dataset": name, "learned from": "-", "scored by": "days since the last interaction", "backtest s": "-",
             "AUC": _fmt(roc_auc_score(quiet[heard.rows], heard.recency)), "Brier": "-"}]
    for size in [None, *(s for s in sizes if s < len(heard.rows))]:
        started = time.perf_counter()
        report, scoring = backtest(as_learned(events, cutoff, size), at)
        seconds = time.perf_counter() - started
        chance = probabilities(scoring, events, at)[heard.rows]
        rows.append({"dataset": name, "learned from": f"a random {size:,}" if size else f"all {len(heard.rows):,}",
                     "scored by": NAMES[scoring.method], "backtest s": f"{seconds:.2f}",
                     "AUC": _fmt(roc_auc_score(quiet[heard.rows], chance)),
                     "Brier": _fmt(float(np.mean((chance - quiet[heard.rows]) ** 2)))})
    return rows


def figures(seed: int, summaries: list, tables: list, reliabilities: list, optional: dict[str, list]) -> dict:
    """What measured/churn_backtest.json keeps: this run's tables, and of the optional ones (CDNOW's 39-week holdout,
    `--kept`, `--sampled`, `--ideas`, `--segments`) each as this run measured it or, when not asked for, as it was
    last measured, with its date."""
    today, last = datetime.now(UTC).date().isoformat(), measured.read("churn_backtest") or {}
    found = {"measured_at": today, "seed": seed, "summary": summaries, "methods": tables, "reliability": reliabilities}
    for name, rows in optional.items():
        found[name] = {"measured_at": today, "rows": rows} if rows else last.get(name)
    return found


def main(argv: list[str] | None = None) -> None:
    """Command line entry point."""
    parser = argparse.ArgumentParser(prog="python -m bench.churn", description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="*", default=[20_000, 100_000])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--cdnow", type=Path, help="the lifetimes wheel, or CDNOW_master.txt")
    parser.add_argument("--station", type=Path, action="append", default=[],
                        help="a station's import files (bench.other_station's folder), as a dataset; repeatable")
    parser.add_argument("--kept", action="store_true",
                        help="also score with models learned hours before the run, as a day's later runs do")
    parser.add_argument("--sampled", action="store_true",
                        help="also score with models learned from random samples of listeners against from all")
    parser.add_argument("--ideas", action="store_true",
                        help="also measure each idea for a better model beside the baselines (bench.churn_ideas)")
    parser.add_argument("--segments", action="store_true",
                        help="also import each dataset, segment it and report the mean churn per segment")
    args = parser.parse_args(argv)
    datasets = [(f"demo {size:,} (seed {args.seed})", lambda size=size: demo(size, args.seed)) for size in args.sizes]
    datasets += [(station_name(folder), lambda folder=folder: station_files(folder)) for folder in args.station]
    if args.cdnow:
        datasets.append(("CDNOW (real, public)", lambda: cdnow(args.cdnow)))
    tables, reliabilities, summaries = [], [], []
    for name, load in datasets:
        print(f"  {name} ...", flush=True)
        rows, bands, summary = evaluate(name, *load())
        tables += rows
        reliabilities += bands
        summaries.append(summary)
    kept = [row for name, load in datasets if args.kept for row in kept_against_learned(name, *load())]
    sampled = [row for name, load in datasets if args.sampled for row in sampled_against_all(name, *load())]
    ideas = [row for name, load in datasets if args.ideas for row in churn_ideas.ideas(name, *load())]
    holdout = churn_ideas.holdout("CDNOW (real, public)", *cdnow(args.cdnow)) if args.cdnow else []
    segments = []
    if args.segments:
        stations = [(f"demo {size:,} (seed {args.seed})", lambda size=size: seeded_demo(size, args.seed))
                    for size in args.sizes]
        if args.cdnow:
            stations.append(("CDNOW (real, public)", lambda: imported_cdnow(args.cdnow)))
        for name, load_station in stations:
            print(f"  {name}: imported and segmented ...", flush=True)
            segments += per_segment(name, load_station)
    for table in (summaries, tables, reliabilities, holdout, kept, sampled, ideas, segments):
        if table:
            print(markdown(table) + "\n")
    path = measured.write("churn_backtest", figures(args.seed, summaries, tables, reliabilities,
                                                    {"holdout_39_weeks": holdout, "kept": kept, "sampled": sampled,
                                                     "ideas": ideas, "per_segment": segments}))
    print(f"written to {path}")


if __name__ == "__main__":
    main()
