"""Start-up of the domain in one process: settings, the database connection, every package's documents and the
registrations that let lower packages reach higher ones; importing every module that declares a store of personal
values to the registry (core.personal.registry), so that erasure and `encrypt` find them all.

The composition root of core: it may import every package, and nothing in core imports it.
"""
from __future__ import annotations

import logging

from pymongo.database import Database

from core import config
from core.access import models as _access_models  # noqa: F401 - registers the package's documents
from core.ai import learned
from core.ai import models as _ai_models  # noqa: F401 - registers the package's documents
from core.ai import profile as _ai_profiles  # noqa: F401 - declares the package's stores of personal values
from core.ai import promote as _ai_promotions  # noqa: F401 - declares the package's stores of personal values
from core.alerts import setup as alerts_setup
from core.audiences import models as _audience_models  # noqa: F401 - registers the package's documents
from core.audiences import stored as _audiences  # noqa: F401 - declares the package's stores of personal values
from core.campaigns import cache as _recommendations  # noqa: F401 - declares the package's stores of personal values
from core.campaigns import models as _campaign_models  # noqa: F401 - registers the package's documents
from core.campaigns import plans as _plans  # noqa: F401 - declares the package's stores of personal values
from core.churn import models as _churn_models  # noqa: F401 - registers the package's documents
from core.config import Settings
from core.credits import models as _credit_models  # noqa: F401 - registers the package's documents
from core.db import connection, documents, queue
from core.history import models as _history_models  # noqa: F401 - registers the package's documents
from core.history import record as history
from core.ingest import models as _ingest_models  # noqa: F401 - registers the package's documents
from core.ingest import personal as _ingest_stores  # noqa: F401 - declares the package's stores of personal values
from core.ingest import reports as _reports  # noqa: F401 - declares the package's stores of personal values
from core.ingest import staging as _uploads  # noqa: F401 - declares the package's stores of personal values
from core.listeners import models as _listener_models  # noqa: F401 - registers the package's documents
from core.listeners import personal as _listener_stores  # noqa: F401 - declares the package's personal stores
from core.personal import db_stores as _db_stores  # noqa: F401 - declares core.db's stores of personal values
from core.personal import vault_connection
from core.privacy import models as _privacy_models  # noqa: F401 - registers the package's documents
from core.search import models as _search_models  # noqa: F401 - registers the package's documents
from core.search import process_indexes, vectors
from core.segmentation import models as _segmentation_models  # noqa: F401 - registers the package's documents
from core.segmentation import personal as _segment_stores  # noqa: F401 - declares the package's personal stores
from core.segmentation import subscribers
from core.stations import labels as _station_labels  # noqa: F401 - declares the package's stores of personal values
from core.stations import models as _station_models  # noqa: F401 - registers the package's documents
from core.webhooks import setup as webhooks_setup

log = logging.getLogger(__name__)


def start(settings: Settings) -> Database:
    """Make these the process's settings, connect, and create every index; returns the database.

    A database that does not answer yet is no reason not to start: requests answer 503 until it is back, and the
    indexes are made by the next start (a web worker that could not boot would take the whole server down). A
    master key that cannot be read, or a key vault inside the data's backups, is: StartRefused, whose one sentence
    every entry point prints alone, before any database is started.
    """
    vault_connection.refuse_unsafe_keys(settings)  # a refused start changes nothing of the process
    config.activate(settings)
    subscribers.after_publish(vectors.schedule_refresh)
    queue.register(vectors.EMBED_JOB, queue.Kind(run=vectors.embed_job, merge=vectors.merged_listeners,
                                                    long=True))
    subscribers.after_run(history.after_run)
    queue.register(history.REBUILD_JOB, queue.Kind(run=history.rebuild_job, attempts=3))
    webhooks_setup.register()
    alerts_setup.register()
    vault_connection.prepare(settings)  # before the data's server starts: it reads whether DATA_DIR is new
    db = connection.connect(settings)
    try:
        documents.ensure_indexes()
        vault_connection.open_key_vault_at_start()  # another master key than the vault's keys' stops the start here
    except connection.UNAVAILABLE:
        log.warning("the database did not answer at start-up; indexes will be made at the next start")
    return db


def preload_stations(settings: Settings) -> int:
    """Every station's vector and lexical index read by a preforking server's parent, before it forks its web
    workers; how many stations. The workers inherit them copy-on-write and only catch up on what was written since,
    where each worker read and tokenised every stored text itself: at 1,000,000 listeners, four workers doing so at
    once on two cores passed gunicorn's timeout. The connection is closed after: a MongoClient must not cross a fork.

    Only with MONGODB_URI: without it the first worker starts the embedded server, which the parent of the workers
    should not own. A database that does not answer leaves each worker to read its own, as before. A setting that no
    process may start with (StartRefused) stops the server here, once, rather than in every worker."""
    vault_connection.refuse_unsafe_keys(settings)
    if not settings.mongodb_uri:
        return 0
    try:
        start(settings)
        stations = process_indexes.load_every_index()
        learned.open_every_copy()
        return stations
    except connection.UNAVAILABLE:
        log.warning("the database did not answer before the workers started; each worker reads its stations itself")
        return 0
    finally:
        stop()


def stop() -> None:
    """Close the process's clients: the key vault's own, and the data's."""
    vault_connection.close()
    connection.disconnect()
