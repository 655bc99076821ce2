"""gunicorn's settings, read by `gunicorn wsgi:app` from this directory and by `flask --app wsgi serve`.

The web workers of a host share one folder of metrics (PROMETHEUS_MULTIPROC_DIR, under DATA_DIR unless the
environment names one), emptied when the server starts, so that any worker's /metrics answers for all of them.
A stop (SIGTERM) lets requests under way finish for up to graceful_timeout seconds.

Before it forks its workers, the server imports the service's code, reads the offline model's weights and the language
detector's models, loads every station's vector and lexical index and what inference learned of it, and closes its
connection: nothing that holds a connection or a thread crosses the
fork. The workers share those pages (copy-on-write) rather than each reading its own copy, and each station's index
file is shared as a memory map (core.search.index). What was read is then frozen out
of the garbage collector's reach: a worker's collections would otherwise write to every object and so copy every
page (about 40 MB a worker at 100,000 listeners). Measured with
`python -m bench.memory` (bench/README.md, "Memory per worker count")."""
import gc
import os
import shutil
from pathlib import Path

os.environ.setdefault("PROMETHEUS_MULTIPROC_DIR", str(Path(os.environ.get("DATA_DIR") or "var") / "metrics"))

from webapp.limits import MAX_HEADER  # noqa: E402 - the metrics' folder must be set before the service's modules load

worker_class = "webapp.server.BoundedWorker"  # request lines of up to 32 KB read in constant time (webapp/server.py)
limit_request_fields = 100
limit_request_field_size = MAX_HEADER
graceful_timeout = 30
access_log_format = ('%(t)s "%(m)s %({lss.route}e)s" %(s)s %(B)s %(M)sms '
                     'subject=%({lss.subject}e)s id=%({lss.request_id}e)s')
"""The access log names a request's route pattern and a keyed hash of its path (webapp/observability.py): never the
path, the query or the referer, which may hold a listener's number, name or a search's words."""


def on_starting(server):
    """An empty folder of metrics for this server's workers (what dead servers wrote is not theirs)."""
    folder = Path(os.environ["PROMETHEUS_MULTIPROC_DIR"])
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True, exist_ok=True)
    _shared_before_fork()


def _shared_before_fork() -> None:
    """The service's modules, the offline model's weights, the language detector's models and every station's indexes
    and what inference learned of it (core.service.startup's preload_stations), read once here for every worker to
    share."""
    import webapp  # noqa: F401 - the modules every worker imports: their code and constants, shared

    if (os.environ.get("EMBEDDING_PROVIDER") or "local") == "local":
        from core.search import local_model

        local_model.preload()
    from core.ai import language
    from core.config import Settings
    from core.service.startup import preload_stations

    language.preload()
    preload_stations(Settings.from_env())
    gc.freeze()  # what was read here is never collected: a worker's collections would write to each object's header


def post_worker_init(worker):
    """Each web worker keeps every station's indexes caught up in the background (core.search.following), so that
    the first search after a worker process embedded an import does not do that catching up on a producer's
    request."""
    from core.search.following import start_following

    start_following()


def child_exit(server, worker):
    """A worker that ended no longer counts in the live figures."""
    from prometheus_client import multiprocess  # gunicorn's hooks run in the arbiter, which never imports the app

    multiprocess.mark_process_dead(worker.pid)
