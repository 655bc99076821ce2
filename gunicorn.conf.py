"""gunicorn's settings, read by `gunicorn wsgi:app` from this directory and by `flask --app wsgi serve`.

The web workers of a host share one folder of metrics (PROMETHEUS_MULTIPROC_DIR, under DATA_DIR unless the
environment names one), emptied when the server starts, so that any worker's /metrics answers for all of them.
A stop (SIGTERM) lets requests under way finish for up to graceful_timeout seconds."""
import os
import shutil
from pathlib import Path

limit_request_line = 0  # no limit of gunicorn's own: webapp/limits.py refuses long lines itself, as JSON or a page
graceful_timeout = 30

os.environ.setdefault("PROMETHEUS_MULTIPROC_DIR", str(Path(os.environ.get("DATA_DIR") or "var") / "metrics"))


def on_starting(server):
    """An empty folder of metrics for this server's workers (what dead servers wrote is not theirs)."""
    folder = Path(os.environ["PROMETHEUS_MULTIPROC_DIR"])
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True, exist_ok=True)


def child_exit(server, worker):
    """A worker that ended no longer counts in the live figures."""
    from prometheus_client import multiprocess  # gunicorn's hooks run in the arbiter, which never imports the app

    multiprocess.mark_process_dead(worker.pid)
