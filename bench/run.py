"""Benchmark import and segmentation: `python -m bench.run --sizes 10000 100000 [--skip-generate]`.

For each size: a fresh database (the embedded server on its own DATA_DIR `bench/data/run-<size>`, or database
`bench_<size>` of MONGODB_URI when that is set), the four files imported with `core.ingest.import_file`, then one full
`segment_company`. Every function of BENCHMARKS adds columns to the size's row of a Markdown table that is printed and
appended to `bench/results/<date>.md`. A later benchmark (filter, aggregate, export latency) is one more function.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import time
from datetime import date, datetime, timedelta
from pathlib import Path

from bench.ai import bench_ai_profile
from bench.explorer import bench_explorer, bench_export, bench_overview
from bench.generate import DEFAULT_OUT, folder_of, generate, is_generated
from bench.live import bench_live, bench_live_sustained
from bench.peer import bench_peer
from bench.search import bench_embeddings, bench_search
from bench.station import Context, close, fresh_database, markdown
from core.ingest.importer import KINDS

RESULTS = Path(__file__).resolve().parent / "results"


def bench_import(ctx: Context) -> dict:
    """Import the four files in order, as an operator would (no re-segmentation per import), as of the dataset's
    `now`: times are accepted up to a day after the moment of import, and a dataset may be generated for any `now`."""
    from core.ingest.importer import import_file

    seconds, rows, per_kind = 0.0, 0, {}
    for kind in KINDS:
        started = time.perf_counter()
        report = import_file(kind, ctx.folder / f"{kind}.jsonl", resegment=False, now=ctx.now)
        per_kind[kind] = time.perf_counter() - started
        seconds += per_kind[kind]
        rows += report.rows
        if report.error_count:
            raise RuntimeError(f"{kind}: {report.error_count} rows rejected, first: {report.errors[:3]}")
    return {"listeners": f"{ctx.meta['listeners']:,}", "interactions": f"{ctx.meta['rows']['interactions']:,}",
            "import s": f"{seconds:.1f}", "import rows/s": f"{rows / seconds:,.0f}",
            "interactions import s": f"{per_kind['interactions']:.1f}",
            "interactions rows/s": f"{ctx.meta['rows']['interactions'] / per_kind['interactions']:,.0f}"}


def bench_segmentation(ctx: Context) -> dict:
    """One full segmentation run as of the dataset's `now`, with its read/churn/compute/write split (churn: the
    backtest that learns who goes quiet, core.churn)."""
    from core.segmentation.runs import segment_company

    started = time.perf_counter()
    run = segment_company(ctx.company_id, ctx.now)
    seconds = ctx.found["segmentation_s"] = time.perf_counter() - started  # bench_peer's ratio is to this
    timings = getattr(run, "timings", None) or {}
    split = "/".join(f"{timings[k]:.1f}" for k in ("read_s", "churn_s", "compute_s", "write_s") if k in timings)
    return {"segmentation s": f"{seconds:.1f}", "read/churn/compute/write s": split or "-"}


def bench_next_run(ctx: Context) -> dict:
    """The station's next full run, which reads the copies the first one wrote and the documents written since
    (core.listeners.station_copies), as a run more than the copies' margin after the import reads them: nothing
    else writes to the station meanwhile, so a margin of nought reads what ten minutes later would. Its segments must
    be the first run's (bench_peer left them), and its time is set beside the peer's."""
    return _run_on_copies(ctx, "next")


def bench_learning_run(ctx: Context) -> dict:
    """The day's first full run, which also learns who goes quiet (core.churn.store.learned_or_kept): the next run
    again with the kept churn model set aside, at the peer's `now`, so that it reads and writes what the next run does
    and its time beside the peer's adds the learning alone (a day on would also write the day's segment changes)."""
    from core.churn.models import ChurnModel

    ChurnModel._get_collection().delete_many({"company_id": ctx.company_id})
    return _run_on_copies(ctx, "learning")


def _run_on_copies(ctx: Context, word: str) -> dict:
    """A full run on the station's copies, timed, set beside the peer and checked against its segments; `word` names
    the columns."""
    from bench.peer import service_segments
    from core.listeners import station_copies
    from core.segmentation.runs import segment_company

    kept_margin, station_copies.MARGIN = station_copies.MARGIN, timedelta(0)
    try:
        started = time.perf_counter()
        run = segment_company(ctx.company_id, ctx.now)
        seconds = time.perf_counter() - started
    finally:
        station_copies.MARGIN = kept_margin
    timings = getattr(run, "timings", None) or {}
    split = "/".join(f"{timings[k]:.1f}" for k in ("read_s", "churn_s", "compute_s", "write_s") if k in timings)
    same = ctx.found.get("segments") == service_segments(ctx.company_id) if "segments" in ctx.found else None
    peer_s = ctx.found.get("peer_s")
    return {f"{word} run s": f"{seconds:.1f}", f"{word} read/churn/compute/write s": split or "-",
            f"{word}/peer": f"{seconds / peer_s:.1f}" if peer_s else "-",
            f"{word} run same segments": {True: "yes", False: "NO", None: "-"}[same]}


def bench_purge(ctx: Context) -> dict:
    """The purge that makes erasure reach the disk: the seconds the database is rewritten (and the service answers
    503), which is what the daily run costs and what the receipt's bound adds to 24 hours."""
    from core.privacy.purge import purge

    started = time.perf_counter()
    report = purge(ctx.settings, actor="bench")
    return {"purge s": f"{time.perf_counter() - started:.1f}", "purge": report["method"]}


BENCHMARKS = [bench_import, bench_segmentation, bench_peer, bench_next_run, bench_learning_run, bench_overview,
              bench_explorer, bench_export, bench_live, bench_live_sustained, bench_embeddings, bench_search,
              bench_ai_profile, bench_purge]


def _peak_rss_mb() -> float:
    """Peak resident memory of this process so far (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run_size(size: int, data: Path, without: tuple[str, ...] = ()) -> dict:
    """Every benchmark on one size; returns its table row."""
    settings = fresh_database(size, data)
    ctx = Context(size, folder_of(data, size), settings, json.loads((folder_of(data, size) / "meta.json").read_text()))
    row = {"size": f"{size:,}"}
    try:
        for benchmark in [b for b in BENCHMARKS if b.__name__ not in without]:
            print(f"  {size:,}: {benchmark.__name__} ...", flush=True)
            row.update(benchmark(ctx))
    finally:
        close(settings)
    row["peak RSS MB"] = f"{_peak_rss_mb():,.0f}"
    return row


def _record(table: str) -> Path:
    """Append the table, with when and where it ran, to bench/results/<date>.md."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"{date.today().isoformat()}.md"
    where = "MONGODB_URI" if os.environ.get("MONGODB_URI") else "embedded SecantusDB"
    header = (f"## {datetime.now().isoformat(timespec='seconds')}\n\n{platform.platform()}, Python "
              f"{platform.python_version()}, {os.cpu_count()} CPUs, database: {where}. "
              f"Peak RSS is this process's, cumulative over the sizes run before.\n\n")
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(header + table + "\n\n")
    return path


def main(argv: list[str] | None = None) -> None:
    """Command line entry point."""
    parser = argparse.ArgumentParser(prog="python -m bench.run", description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--data", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--skip-generate", action="store_true", help="use the files already in --data")
    parser.add_argument("--without", nargs="*", default=(), metavar="BENCHMARK",
                        help="leave these out (names as in BENCHMARKS, e.g. bench_embeddings bench_search)")
    args = parser.parse_args(argv)
    rows = []
    for size in args.sizes:
        if not args.skip_generate:
            generate(size, args.data)
        elif not is_generated(args.data, size):
            parser.error(f"no complete dataset for {size} in {folder_of(args.data, size)}")
        rows.append(run_size(size, args.data, tuple(args.without)))
    table = markdown(rows)
    print(table)
    print(f"\nwritten to {_record(table)}")


if __name__ == "__main__":
    main()
