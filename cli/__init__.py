"""The CLI: `flask --app wsgi <command>`. One module per area; each command parses options and calls core."""
from __future__ import annotations

import functools

import click
from flask import Flask, current_app
from flask.cli import with_appcontext

from cli import access, credits, demo, ingest, privacy, search, segmentation, serving
from core.config import StartRefused
from core.db.connection import UNAVAILABLE
from core.service import startup


def init_app(app: Flask) -> None:
    """Register every command of every area on the app's CLI."""
    for module in (access, credits, demo, ingest, privacy, search, segmentation, serving):
        for command in module.COMMANDS:
            app.cli.add_command(_guarded(command))


def _guarded(command: click.Command) -> click.Command:
    """Each command starts the domain first when the app has not (wsgi.py leaves it to the command, so that `--help`
    needs no key or database). A setting no process may start with (an unreadable master key, a key vault inside the
    data's backups), or a database that stops answering, ends it with one plain sentence and exit code 1, not a
    traceback."""
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            _guarded(sub)
    elif command.callback is not None:
        callback = command.callback

        @functools.wraps(callback)
        def guarded(*args, **kwargs):
            try:
                _started(current_app)
                return callback(*args, **kwargs)
            except StartRefused as refused:
                raise click.ClickException(str(refused)) from None
            except UNAVAILABLE as error:
                raise click.ClickException(
                    "The database stopped answering; nothing it acknowledged is lost. Run the command again when "
                    f"it is back ({type(error).__name__}).") from None

        command.callback = with_appcontext(guarded)  # the app to start, under the test runner too
    return command


def _started(app: Flask) -> None:
    """The domain started for this app, once."""
    if "db" not in app.extensions:
        app.extensions["db"] = startup.start(app.config["SETTINGS"])
