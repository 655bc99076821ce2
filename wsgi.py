"""WSGI entry point: `gunicorn wsgi:app`, and `flask --app wsgi <command>` for the CLI, which loads the app inside a
click context and leaves its start to the command that runs (cli.init_app), so that `--help` needs no key or database.

A setting no process may start with stops this one with its sentence alone: exit status 3 is gunicorn's "worker
failed to boot", which stops the server rather than starting the worker again."""
import sys

import click

from core.config import StartRefused
from webapp import create_app

try:
    app = create_app(start=click.get_current_context(silent=True) is None)
except StartRefused as refused:
    print(f"Error: {refused}", file=sys.stderr)
    raise SystemExit(3) from None
