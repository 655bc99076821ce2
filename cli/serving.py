"""CLI: `serve`, what `make run` starts: the database, a demo station on first run, and gunicorn."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import click
from flask import current_app

from core.daily import DailyJobs
from core.db import embedded as embedded_db
from core.db.connection import resolve_uri
from core.demo.access import ensure_demo_access
from core.demo.seed import seed_demo
from core.errors import CompanyNotFound
from core.search.vectors import schedule_refresh
from core.segmentation.overview import station_summary
from core.stations.companies import list_companies

DEMO_COMPANY = 1
GUNICORN_CONFIG = Path(__file__).resolve().parents[1] / "gunicorn.conf.py"


def _seed_if_empty(listeners: int, seed: int) -> None:
    try:
        if station_summary(DEMO_COMPANY)["total_listeners"]:
            return
    except CompanyNotFound:
        pass
    click.echo(f"Seeding a demo station (company {DEMO_COMPANY}, {listeners:,} listeners); this takes a minute once.")
    seed_demo(DEMO_COMPANY, listeners, seed, progress=lambda message: click.echo(f"  {message}"))


def _gunicorn(port: int, workers: int, uri: str) -> subprocess.Popen:
    """gunicorn, guarded to stop when this process ends, whatever ends it."""
    command = [str(Path(sys.executable).with_name("gunicorn")), "--config", str(GUNICORN_CONFIG),
               "--workers", str(workers), "--threads", "4",
               "--bind", f"127.0.0.1:{port}", "--access-logfile", "-", "--timeout", "120", "wsgi:app"]
    return subprocess.Popen(embedded_db.guarded(command), env={**os.environ, "MONGODB_URI": uri})


def _interrupt(_signum, _frame):
    """SIGTERM ends the server like Ctrl-C does, through the same clean-up."""
    raise KeyboardInterrupt


@click.command("serve")
@click.option("--port", type=int, default=None, help="default: $PORT or 8000")
@click.option("--workers", type=int, default=2)
@click.option("--demo-listeners", type=int, default=20000, help="size of the demo station seeded on first run")
def serve(port, workers, demo_listeners):
    """Start the dashboard and API with gunicorn; Ctrl-C stops the server and the embedded database."""
    settings = current_app.config["SETTINGS"]
    port = port or settings.port
    uri = resolve_uri(settings)
    _seed_if_empty(demo_listeners, seed=7)
    login, password, token = ensure_demo_access(settings.data_dir, DEMO_COMPANY)
    helpers = [DailyJobs(settings)]
    if not settings.mongodb_uri:
        helpers.append(embedded_db.Supervisor(settings.data_dir))
    for helper in helpers:
        helper.start()
    for company in list_companies():  # what CLI imports and runs left unembedded, in the background
        schedule_refresh(company.company_id, None)
    signal.signal(signal.SIGTERM, _interrupt)
    server = _gunicorn(port, workers, uri)
    click.echo(f"\n  Dashboard:  http://127.0.0.1:{port}/\n  Login:      {login} / {password}\n"
               f"  API key:    {token}\n  API docs:   http://127.0.0.1:{port}/api/v1/docs\n"
               f"  Try:        curl -H 'X-API-Key: {token}' "
               f"http://127.0.0.1:{port}/api/v1/segments/{DEMO_COMPANY}/summary\n")
    try:
        server.wait()
    except KeyboardInterrupt:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
    finally:
        for helper in helpers:
            helper.stop()
        if not settings.mongodb_uri:
            click.echo("Stopping the embedded database...")
            embedded_db.stop(settings.data_dir)


COMMANDS = [serve]
