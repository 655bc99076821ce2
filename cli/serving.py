"""CLI: `serve`, what `make run` starts (the database, a demo station on first run, gunicorn for requests and one
worker for every background job), and `worker`, the background process on its own (core.service.worker), as production
runs several of each."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import click
from flask import current_app

from core.config import Settings
from core.db import embedded as embedded_db
from core.db.connection import resolve_uri
from core.demo.access import ensure_demo_access
from core.demo.seed import seed_demo
from core.errors import CompanyNotFound
from core.personal.vault_connection import key_server_dir, key_vault, resolve_key_vault_uri
from core.segmentation.overview import station_summary
from core.service.worker import Worker

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


def _worker_process(env: dict) -> subprocess.Popen:
    """`flask --app wsgi worker`, guarded to stop when this process ends, whatever ends it."""
    command = [str(Path(sys.executable).with_name("flask")), "--app", "wsgi", "worker"]
    return subprocess.Popen(embedded_db.guarded(command), env=env, cwd=Path(__file__).resolve().parents[1])


def _gunicorn(port: int, workers: int, env: dict) -> subprocess.Popen:
    """gunicorn, guarded to stop when this process ends, whatever ends it."""
    command = [str(Path(sys.executable).with_name("gunicorn")), "--config", str(GUNICORN_CONFIG),
               "--workers", str(workers), "--threads", "4",
               "--bind", f"127.0.0.1:{port}", "--access-logfile", "-", "--timeout", "120", "wsgi:app"]
    return subprocess.Popen(embedded_db.guarded(command), env=env)


def _databases(settings: Settings) -> tuple[dict, list[Path]]:
    """The environment of this server's processes, which reach the databases it reached (the embedded ones started
    and owned here, on their stable ports), and the folders of the embedded servers it watches."""
    env = {**os.environ, "MONGODB_URI": resolve_uri(settings)}
    vault_uri = resolve_key_vault_uri(settings)
    if vault_uri:
        env["KEY_VAULT_URI"] = vault_uri
    key_vault()  # the keys an older version kept in the data's database moved home before any worker starts
    keys = None if settings.key_vault_uri else key_server_dir(settings)
    return env, [*([] if settings.mongodb_uri else [Path(settings.data_dir)]), *([keys] if keys else [])]


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
    env, watched = _databases(settings)
    _seed_if_empty(demo_listeners, seed=7)
    login, password, token = ensure_demo_access(settings.data_dir, DEMO_COMPANY)
    helpers = [embedded_db.Supervisor(folder) for folder in watched]
    for helper in helpers:
        helper.start()
    signal.signal(signal.SIGTERM, _interrupt)
    background = _worker_process(env)
    server = _gunicorn(port, workers, env)
    click.echo(f"\n  Dashboard:  http://127.0.0.1:{port}/\n  Login:      {login} / {password}\n"
               f"  API key:    {token}\n  API docs:   http://127.0.0.1:{port}/api/v1/docs\n"
               f"  Try:        curl -H 'X-API-Key: {token}' "
               f"http://127.0.0.1:{port}/api/v1/segments/{DEMO_COMPANY}/summary\n")
    try:
        server.wait()
    except KeyboardInterrupt:
        for process in (server, background):
            process.send_signal(signal.SIGTERM)
        for process in (server, background):
            process.wait(timeout=60)
    finally:
        for helper in helpers:
            helper.stop()
        if not settings.mongodb_uri:
            click.echo("Stopping the embedded database...")
            embedded_db.stop(settings.data_dir)  # and its key vault's server


@click.command("worker")
@click.option("--once", is_flag=True, help="work every job that is due now, then stop (cron, tests)")
def worker(once: bool):
    """Run every background job (embedding, daily runs, purge) until stopped; run as many as you like, on any host."""
    settings = current_app.config["SETTINGS"]
    this = Worker(settings)
    if once:
        this.catch_up()
        click.echo(f"Worked {this.work_until_idle()} jobs.")
        return
    signal.signal(signal.SIGTERM, lambda _signum, _frame: this.stop())
    click.echo(f"Worker {this.name} started; SIGTERM or Ctrl-C finishes the job under way, then stops.")
    try:
        this.run()
    except KeyboardInterrupt:
        this.stop()
    click.echo(f"Worker {this.name} stopped: " + (", ".join(f"{n} {k}" for k, n in this.done.items()) or "no jobs"))


COMMANDS = [serve, worker]
