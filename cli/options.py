"""Option parsers shared by the CLI commands."""
from __future__ import annotations

from datetime import datetime

import click


def iso_time(_ctx, _param, value):
    """A click callback: an ISO 8601 time, or None when the option is not given."""
    if value is None:
        return None
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        raise click.BadParameter("use ISO 8601, e.g. 2026-11-20T12:00:00+02:00") from None
