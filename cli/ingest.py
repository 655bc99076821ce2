"""`flask --app wsgi import KIND FILE`: import a JSONL or CSV file and print what was imported and what was skipped."""
from __future__ import annotations

from pathlib import Path

import click
from flask.cli import with_appcontext

from core.ingest.importer import KINDS, import_file

BAR_FROM_LINES = 10_000  # shorter files import in a blink: no bar
SHOWN_BAD_ROWS = 20  # and as many warnings


@click.command("import")
@click.argument("kind", type=click.Choice(KINDS))
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@with_appcontext
def import_command(kind: str, file: str) -> None:
    """Import a .jsonl or .csv file of channels, shows, profiles or interactions."""
    try:
        lines = count_lines(file)
        if lines < BAR_FROM_LINES:
            report = import_file(kind, file)
        else:
            with click.progressbar(length=lines, label=f"Importing {kind}") as bar:
                report = import_file(kind, file, progress=bar.update)
                bar.update(lines - bar.pos)  # a CSV header and blank lines are lines but not rows
    except (ValueError, OSError) as exc:  # the file cannot be read; bad rows never raise
        raise click.ClickException(str(exc)) from exc
    echo_report(report, Path(file).name)


def echo_report(report, name: str) -> None:
    """The counts, then the first bad rows as "line N: reason" and the first warnings as "line N: warning: reason";
    the file's name as the operator gave it (a report does not keep it: core.ingest.personal)."""
    repeated = "duplicates" if report.kind == "interactions" else "unchanged"
    click.echo(f"Imported {report.kind} from {name}")
    click.echo(f"  rows:       {report.rows}")
    click.echo(f"  imported:   {report.imported}")
    click.echo(f"  {repeated + ':':<11} {report.duplicates}")
    if report.suppressed:
        click.echo(f"  suppressed: {report.suppressed}")
    click.echo(f"  bad rows:   {report.error_count}")
    if report.warning_count:
        click.echo(f"  warnings:   {report.warning_count} (the rows were kept without the fields named)")
    _echo_first(report.errors, report.error_count, "line {line}: {reason}", "")
    _echo_first(report.warnings, report.warning_count, "line {line}: warning: {reason}", " warnings")


def _echo_first(entries: list[dict], count: int, form: str, noun: str) -> None:
    """The first SHOWN_BAD_ROWS entries of a report list, then how many more the saved report holds."""
    for entry in entries[:SHOWN_BAD_ROWS]:
        click.echo(form.format(**entry))
    if count > SHOWN_BAD_ROWS:
        click.echo(f"... and {count - SHOWN_BAD_ROWS} more{noun} (see the import report)")


def count_lines(path: str) -> int:
    """Lines of the file, counted in binary chunks (a 2M-line file in well under a second)."""
    count, last = 0, b"\n"
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            count += chunk.count(b"\n")
            last = chunk[-1:]
    return count + (last != b"\n")


COMMANDS = [import_command]
