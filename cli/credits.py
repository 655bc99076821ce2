"""CLI: `credits check`, the reconciliation of every station's balance with its ledger."""
from __future__ import annotations

import click

from core.credits.ledger import check_all


@click.group("credits")
def credits_group():
    """AI credits of the stations."""


@credits_group.command("check")
def check_command():
    """Reconcile every account with its ledger: one line per station; exit code 1 when any disagrees or misses an
    entry (for cron and the test suite)."""
    reports = check_all()
    wrong = [r for r in reports if not r["agrees"] or r["missing_seq"]]
    for report in reports:
        state = "ok" if report not in wrong else "MISMATCH"
        missing = f", entries missing for seq {report['missing_seq']}" if report["missing_seq"] else ""
        click.echo(f"company {report['company_id']}: balance {report['balance']}, ledger sum {report['recomputed']}"
                   f"{missing}: {state}")
    if wrong:
        raise click.ClickException(f"{len(wrong)} of {len(reports)} accounts disagree with their ledger.")
    click.echo(f"All {len(reports)} accounts agree with their ledgers.")


COMMANDS = [credits_group]
