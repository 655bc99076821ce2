"""Start-up of the domain in one process: settings, the database connection, every package's documents and the
registrations that let lower packages reach higher ones (the erasure hooks).

The composition root of core: it may import every package, and nothing in core imports it.
"""
from __future__ import annotations

from pymongo.database import Database

from core import config
from core.access import models as _access_models  # noqa: F401 - registers the package's documents
from core.config import Settings
from core.db import connection, documents
from core.ingest import models as _ingest_models  # noqa: F401 - registers the package's documents
from core.listeners import models as _listener_models  # noqa: F401 - registers the package's documents
from core.privacy import models as _privacy_models  # noqa: F401 - registers the package's documents
from core.segmentation import models as _segmentation_models  # noqa: F401 - registers the package's documents
from core.stations import models as _station_models  # noqa: F401 - registers the package's documents


def start(settings: Settings) -> Database:
    """Make these the process's settings, connect, and create every index; returns the database."""
    config.activate(settings)
    db = connection.connect(settings)
    documents.ensure_indexes()
    return db
