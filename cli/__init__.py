"""The CLI: `flask --app wsgi <command>`. One module per area; each command parses options and calls core."""
from __future__ import annotations

import functools

import click
from flask import Flask

from cli import access, credits, demo, ingest, privacy, search, segmentation, serving
from core.db.connection import UNAVAILABLE


def init_app(app: Flask) -> None:
    """Register every command of every area on the app's CLI."""
    for module in (access, credits, demo, ingest, privacy, search, segmentation, serving):
        for command in module.COMMANDS:
            app.cli.add_command(_plain_when_unavailable(command))


def _plain_when_unavailable(command: click.Command) -> click.Command:
    """A database that stops answering ends any command with one plain sentence and exit code 1, not a traceback."""
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            _plain_when_unavailable(sub)
    elif command.callback is not None:
        callback = command.callback

        @functools.wraps(callback)
        def guarded(*args, **kwargs):
            try:
                return callback(*args, **kwargs)
            except UNAVAILABLE as error:
                raise click.ClickException(
                    "The database stopped answering; nothing it acknowledged is lost. Run the command again when "
                    f"it is back ({type(error).__name__}).") from None

        command.callback = guarded
    return command
