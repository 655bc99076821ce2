"""Start-up of the domain in one process: settings, the database connection, every package's documents and the
registrations that let lower packages reach higher ones (the erasure hooks).

The composition root of core: it may import every package, and nothing in core imports it.
"""
from __future__ import annotations

import logging

from pymongo.database import Database

from core import config
from core.access import models as _access_models  # noqa: F401 - registers the package's documents
from core.ai import models as _ai_models  # noqa: F401 - registers the package's documents
from core.ai.profile import erase_ai_profile, forget_charges
from core.ai.promote import erase_promotions
from core.alerts import setup as alerts_setup
from core.audiences import models as _audience_models  # noqa: F401 - registers the package's documents
from core.audiences.members import erase_members
from core.campaigns import models as _campaign_models  # noqa: F401 - registers the package's documents
from core.campaigns.cache import erase_recommendations
from core.campaigns.plans import erase_plans
from core.churn import models as _churn_models  # noqa: F401 - registers the package's documents
from core.config import Settings
from core.credits import models as _credit_models  # noqa: F401 - registers the package's documents
from core.db import connection, documents, queue
from core.history import models as _history_models  # noqa: F401 - registers the package's documents
from core.history import record as history
from core.ingest import models as _ingest_models  # noqa: F401 - registers the package's documents
from core.listeners import models as _listener_models  # noqa: F401 - registers the package's documents
from core.privacy import hooks as erasure_hooks
from core.privacy import models as _privacy_models  # noqa: F401 - registers the package's documents
from core.search import models as _search_models  # noqa: F401 - registers the package's documents
from core.search import vectors
from core.segmentation import models as _segmentation_models  # noqa: F401 - registers the package's documents
from core.segmentation import runs
from core.stations import models as _station_models  # noqa: F401 - registers the package's documents
from core.webhooks import setup as webhooks_setup

log = logging.getLogger(__name__)


def start(settings: Settings) -> Database:
    """Make these the process's settings, connect, and create every index; returns the database.

    A database that does not answer yet is no reason not to start: requests answer 503 until it is back, and the
    indexes are made by the next start (a web worker that could not boot would take the whole server down).
    """
    config.activate(settings)
    runs.after_publish(vectors.schedule_refresh)
    queue.register(vectors.EMBED_JOB, queue.Kind(run=vectors.embed_job, merge=vectors.merged_listeners,
                                                    long=True))
    runs.after_run(history.after_run)
    queue.register(history.REBUILD_JOB, queue.Kind(run=history.rebuild_job, attempts=3))
    erasure_hooks.register("vector_index", vectors.erase_vectors)
    erasure_hooks.register("ai_profiles", erase_ai_profile)
    erasure_hooks.register("demographic_promotions", erase_promotions)
    erasure_hooks.register("credit_ledger", forget_charges)
    erasure_hooks.register("audiences", erase_members)
    erasure_hooks.register("recommendations", erase_recommendations)
    erasure_hooks.register("saved_plans", erase_plans)
    webhooks_setup.register()
    alerts_setup.register()
    db = connection.connect(settings)
    vault = connection.key_vault()  # an unreadable master key stops the start here, with its reason
    try:
        documents.ensure_indexes()
        vault.ensure_indexes()
        vault.check()  # as does another key than the vault's
    except connection.UNAVAILABLE:
        log.warning("the database did not answer at start-up; indexes will be made at the next start")
    return db


def preload_stations(settings: Settings) -> int:
    """Every station's vector and lexical index read by a preforking server's parent, before it forks its web
    workers; how many stations. The workers inherit them copy-on-write and only catch up on what was written since,
    where each worker read and tokenised every stored text itself: at 1,000,000 listeners, four workers doing so at
    once on two cores passed gunicorn's timeout. The connection is closed after: a MongoClient must not cross a fork.

    Only with MONGODB_URI: without it the first worker starts the embedded server, which the parent of the workers
    should not own. A database that does not answer leaves each worker to read its own, as before."""
    if not settings.mongodb_uri:
        return 0
    try:
        start(settings)
        return vectors.load_every_index()
    except connection.UNAVAILABLE:
        log.warning("the database did not answer before the workers started; each worker reads its stations itself")
        return 0
    finally:
        connection.disconnect()
