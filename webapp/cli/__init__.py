"""The CLI: `flask --app wsgi <command>`. One module per area; each command parses options and calls core."""
from __future__ import annotations

from flask import Flask


def init_app(app: Flask) -> None:
    """Register every command of every area on the app's CLI."""
    from webapp.cli import accounts, demo, importing, serving, station

    for module in (accounts, demo, importing, serving, station):
        for command in module.COMMANDS:
            app.cli.add_command(command)
