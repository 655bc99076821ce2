"""CLI: `purge`, the rewrite of the database files that makes every erasure reach the disk at once; `encrypt`, the
sealing in place of what stations stored before sealing was built."""
from __future__ import annotations

import click
from flask import current_app

from core.privacy.encrypt import encrypt_stations
from core.privacy.purge import purge


@click.command("purge")
def purge_command():
    """Rewrite the database into fresh files now: afterwards no file holds an erased value."""
    settings = current_app.config["SETTINGS"]
    click.echo("Purging: the service answers 503 until the database is back (a few seconds per 100k listeners).")
    report = purge(settings, actor="cli")
    if report["method"] == "rewrite":
        click.echo(f"Rewrote {report['documents']:,} documents of {report['collections']} collections into fresh "
                   f"files in {report['seconds']} s; the old files are deleted.")
    else:
        click.echo(f"Asked {report['collections']} collections to compact. On a real MongoDB this frees space but "
                   "does not promise that old bytes are gone (see docs/operations.md).")


@click.command("encrypt")
def encrypt_command():
    """Seal what every station still holds plain (its snapshot); started again after a stop, it goes on where it
    stopped."""
    done = encrypt_stations(click.echo)
    click.echo(f"Sealed {len(done['sealed'])} stations; {len(done['already'])} were sealed already.")


COMMANDS = [purge_command, encrypt_command]
