"""CLI: segment a station."""
from __future__ import annotations

import time

import click

from cli.options import iso_time
from core.segmentation.runs import segment_company


@click.command("segment")
@click.option("--company", "company_id", type=int, required=True, help="company_id of the station")
@click.option("--now", callback=iso_time, help="reference time, ISO 8601 (default: now)")
def segment(company_id: int, now):
    """Profile and segment every listener of a station."""
    started = time.perf_counter()

    def progress(message: str) -> None:
        click.echo(f"[{time.perf_counter() - started:6.1f}s] {message}")

    run = segment_company(company_id, now, progress=progress)
    click.echo(f"Segmented {run.listeners:,} listeners as of {run.now.isoformat()} "
               f"(read {run.timings['read_s']}s, compute {run.timings['compute_s']}s, write {run.timings['write_s']}s)")
    for key, entry in run.rollup["segments"].items():
        click.echo(f"  {key:<20} {entry['count']:>8,}  {entry['percentage']:>5}%")


COMMANDS = [segment]
