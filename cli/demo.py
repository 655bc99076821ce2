"""CLI: seed a demo station (a realistic South African radio station) through the ingest path, then segment it."""
from __future__ import annotations

import time

import click

from cli.options import iso_time
from core.demo.seed import seed_demo


@click.command("demo")
@click.option("--company", "company_id", type=int, default=1, show_default=True, help="company_id of the station")
@click.option("--listeners", type=click.IntRange(min=1), default=20000, show_default=True)
@click.option("--seed", type=int, default=7, show_default=True, help="same seed and --now give the same station")
@click.option("--now", callback=iso_time, help="reference time, ISO 8601 (default: now; no offset means UTC)")
def demo(company_id: int, listeners: int, seed: int, now):
    """Generate and import a demo station with 13 months of history, then segment it."""
    started = time.perf_counter()

    def progress(message: str) -> None:
        click.echo(f"[{time.perf_counter() - started:6.1f}s] {message}")

    summary = seed_demo(company_id, listeners, seed, now=now, progress=progress)
    rows = ", ".join(f"{summary['imported'][kind]:,} {kind}" for kind in summary["imported"])
    click.echo(f"Demo station {company_id} as of {summary['now']}: {rows}; "
               f"{summary['segmented']:,} listeners segmented in {time.perf_counter() - started:.1f}s")


COMMANDS = [demo]
