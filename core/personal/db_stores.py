"""The database layer's stores (core.db), declared here: core.db lies below this package and cannot declare
itself. The queue's job records, the leases, the key vault (when it shares the data's database), the idempotency
keys of payments and the count of destroyed group keys."""
from __future__ import annotations

from core.db.idempotency import IdempotencyKey
from core.db.queue import Job
from core.personal.registry import Store, declare
from core.personal.sealed_groups import DESTRUCTIONS
from core.personal.vault_connection import VAULT_COLLECTION
from core.personal.vault_move import MARKER

JOBS = declare(Store(
    "jobs", Job._get_collection_name(),
    personal=("payload",  # keyed: an embedding job names its listeners by their keys (core.search.vectors)
              "error"),  # a failure's type and words, numbers and e-mails replaced (core.db.queue.failure_of)
    free=("_id", "kind", "key", "state", "attempts", "run_after", "lease_until", "started_at", "owner", "created_at",
          "finished_at", "request_id", "long")))
LOCKS = declare(Store("locks", "locks", personal=("_id",),  # a single flight's is keyed: its name says whose answer
                      free=("owner", "until")))
KEY_VAULT = declare(Store("key_vault", VAULT_COLLECTION, free=(  # names are of artifacts, by their ids
    "_id", "keyAltNames", "keyMaterial", "masterKey", "status", "creationDate", "updateDate")))
IDEMPOTENCY = declare(Store("idempotency_keys", IdempotencyKey._get_collection_name(), free=(
    "_id", "company_id", "operation", "key", "fingerprint", "outcome", "at")))
DESTROYED = declare(Store("sealed_group_destructions", DESTRUCTIONS, free=("_id", "n")))
MOVES = declare(Store("key_vault_moves", MARKER, free=("_id",)))  # in the vault's own database (vault_move)
