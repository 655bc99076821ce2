"""CLI: embed a station's listeners (or every station's) whose text changed, and index them."""
from __future__ import annotations

import time

import click

from core.search.process_indexes import current_index
from core.search.vectors import refresh_embeddings
from core.stations.companies import list_companies


@click.command("embed")
@click.option("--company", "company_id", type=int, help="company_id of the station")
@click.option("--all", "every_station", is_flag=True, help="every station, one after the other")
def embed(company_id: int | None, every_station: bool):
    """Embed the listeners whose text changed since their vector was made, and bring the index up to date."""
    if (company_id is None) == (not every_station):
        raise click.UsageError("give --company or --all")
    for one in [company.company_id for company in list_companies()] if every_station else [company_id]:
        started = time.perf_counter()
        counts = refresh_embeddings(one)
        indexed = len(current_index(one))
        click.echo(f"Station {one}: {counts['embedded']:,} listeners embedded ({counts['texts']:,} distinct texts), "
                   f"{counts['kept']:,} unchanged, "
                   f"{indexed:,} in the index ({time.perf_counter() - started:.1f}s)")


COMMANDS = [embed]
