"""CLI: segment a station, or every station (what cron runs when the server's daily run is off); rebuild a
station's segment history from its interactions."""
from __future__ import annotations

import time

import click

from cli.options import iso_time
from core.history.rebuild import rebuild_history
from core.segmentation.runs import segment_company
from core.stations.companies import list_companies


@click.command("segment")
@click.option("--company", "company_id", type=int, help="company_id of the station")
@click.option("--all", "every_station", is_flag=True, help="every station, one after the other (for cron)")
@click.option("--now", callback=iso_time, help="reference time, ISO 8601 (default: now)")
def segment(company_id: int | None, every_station: bool, now):
    """Profile and segment every listener of a station, or of every station with --all."""
    if (company_id is None) == (not every_station):
        raise click.UsageError("give --company or --all")
    company_ids = [company.company_id for company in list_companies()] if every_station else [company_id]
    for one in company_ids:
        if every_station:
            click.echo(f"Station {one}")
        _segment_one(one, now)


def _segment_one(company_id: int, now) -> None:
    """One station's full run, its progress timed, then its distribution."""
    started = time.perf_counter()

    def progress(message: str) -> None:
        click.echo(f"[{time.perf_counter() - started:6.1f}s] {message}")

    run = segment_company(company_id, now, progress=progress)
    click.echo(f"Segmented {run.listeners:,} listeners as of {run.now.isoformat()} "
               f"(read {run.timings['read_s']}s, compute {run.timings['compute_s']}s, write {run.timings['write_s']}s)")
    for key, entry in run.rollup["segments"].items():
        click.echo(f"  {key:<20} {entry['count']:>8,}  {entry['percentage']:>5}%")


@click.command("history")
@click.option("--company", "company_id", type=int, help="company_id of the station")
@click.option("--all", "every_station", is_flag=True, help="every station, one after the other")
@click.option("--now", callback=iso_time, help="reference time, ISO 8601 (default: now)")
def history(company_id: int | None, every_station: bool, now):
    """Rebuild a station's segment history for the past 13 months (each week's end) from its interactions, without
    touching its current segments; a worker does the same after every import."""
    if (company_id is None) == (not every_station):
        raise click.UsageError("give --company or --all")
    for one in [company.company_id for company in list_companies()] if every_station else [company_id]:
        _rebuild_one(one, now)


def _rebuild_one(company_id: int, now) -> None:
    started = time.perf_counter()

    def progress(message: str) -> None:
        click.echo(f"[{time.perf_counter() - started:6.1f}s] {message}")

    weeks = rebuild_history(company_id, now, progress=progress)
    click.echo(f"Station {company_id}: {weeks} weeks rebuilt in {time.perf_counter() - started:.1f}s")


COMMANDS = [segment, history]
