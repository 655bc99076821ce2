"""How the service's collections are laid over a sharded MongoDB cluster (docs/operations.md#a-sharded-mongodb).

Only the collections that grow with the number of listeners are sharded; each is keyed by the station first and the
listener's keyed originator next. A listener's documents then sit on one shard (a page, a live event, an AI profile
or an erasure reads one), a station's documents sit in a range of chunks that the balancer spreads over shards by
originator (keyed hashes, so evenly), and a whole-station read names its station and reaches only the shards that
hold it. Everything else (stations, accounts, keys, jobs, leases, credits) is a few documents per station: it stays
unsharded on the database's primary shard, where the credit ledger's transactions and the job queue's claims stay
single-shard.
"""
from __future__ import annotations

from types import MappingProxyType

SHARD_KEYS = MappingProxyType({
    "listeners": ("company_id", "originator"),
    "interactions": ("company_id", "originator"),
    "listener_embeddings": ("company_id", "model", "originator"),
    "ai_profiles": ("company_id", "originator"),
    "segment_changes": ("company_id", "originator"),
    "demographic_promotions": ("company_id", "originator"),
    "snapshots.chunks": ("files_id", "n"),
    "station_copies.chunks": ("files_id", "n"),
})
"""Collection -> its ranged shard key (ascending). MongoDB requires every unique index of a sharded collection to
start with its shard key and an index to start with it before it shards a collection that holds documents;
tests/core/db/test_sharding.py checks both against the declared indexes. The GridFS chunks hold the station
snapshots and copies (core.listeners.snapshot_files, core.listeners.station_copies): a file's chunks stay together."""


def shard_commands(database: str) -> list[dict]:
    """The admin commands that shard the service's database as SHARD_KEYS says, in the order to run them."""
    commands: list[dict] = [{"enableSharding": database}]
    for collection, fields in SHARD_KEYS.items():
        commands.append({"shardCollection": f"{database}.{collection}", "key": dict.fromkeys(fields, 1)})
    return commands
