"""Where rate-limit counters live: in the service's own database, so that every worker of every server shares them.

The edges count with the limits library (flask-limiter in the dashboard); they name the storage by STORAGE_URI and
the strategy by STRATEGY, and this module makes that storage the database of core.db.connection.
"""
from __future__ import annotations

from limits.storage import MongoDBStorage
from pymongo import MongoClient
from pymongo.database import Database

from core.access.models import RateLimitWindow
from core.db.connection import get_db
from core.db.quirks import RATE_LIMIT_STRATEGY

SCHEME = "service-database"
STORAGE_URI = f"{SCHEME}://"
"""The storage URI for limits and flask-limiter: the process's own connection, whatever its server."""
STRATEGY = RATE_LIMIT_STRATEGY


class ServiceDatabaseStorage(MongoDBStorage):
    """limits' MongoDB storage over the process's connection rather than a client of its own.

    One connection pool per process (core.db.connection), the database and timeouts the service uses, and a reconnect
    is followed. The limits storage would also close its client when collected, opening one first if it never had
    one, which at interpreter exit waits forever for a thread that cannot start; the connection here is
    core.db.connection's to close. The TTL index of the windows is made at start-up (RateLimitWindow).
    """

    STORAGE_SCHEME = [SCHEME]

    def __init__(self, uri: str = STORAGE_URI, **options):
        super().__init__(uri, window_collection_name=RateLimitWindow._get_collection_name(),
                         counter_collection_name="rate_limit_counters", **options)

    @property
    def storage(self) -> MongoClient:
        return get_db().client

    @property
    def _database(self) -> Database:
        return get_db()

    def __del__(self) -> None:
        """Nothing to close: the connection is not this storage's."""
