"""The CLI: `flask --app wsgi <command>`. One module per area; each command parses options and calls core."""
from __future__ import annotations

from flask import Flask

from cli import access, demo, ingest, segmentation, serving


def init_app(app: Flask) -> None:
    """Register every command of every area on the app's CLI."""
    for module in (access, demo, ingest, segmentation, serving):
        for command in module.COMMANDS:
            app.cli.add_command(command)
