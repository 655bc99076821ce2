"""The keys an older version kept in the data's own database (its `key_vault` collection), moved once into the key
vault's own store, so that backups of the data stop holding them from then on.

The move copies every key document (an upsert by `_id`, so a copy cut midway is finished by the next), checks that
the vault holds them all, then drops the old collection. A marker in the vault's database says that a move is under
way, so that the process started after a cut goes on with it although the vault is no longer empty. A vault that
holds keys and no marker is never mixed with the data's: those may be the keys of listeners erased since, in a copy
of the data restored from before the move, and a key must not come back to life; the process says so in its log and
leaves them where they are.
"""
from __future__ import annotations

import logging
import uuid

from pymongo import ReplaceOne
from pymongo.collection import Collection

MARKER = "key_vault_moves"
BATCH = 1000
log = logging.getLogger(__name__)


def move_keys_home(old: Collection, vault: Collection) -> int:
    """Move the key documents of `old` (in the data's database) into `vault` (in its own); how many were moved."""
    if old.find_one({}, {"_id": 1}) is None:
        return 0
    markers, mark = vault.database[MARKER], {"_id": f"{old.database.name}.{old.name}"}
    if markers.find_one(mark) is None:
        if vault.find_one({}, {"_id": 1}) is not None:
            if not _same_database(old, vault):
                log.warning("the data's database holds a %s collection of its own, left unread and unmoved: the key "
                            "vault has keys already (a copy of the data restored from before the move?)", old.name)
            return 0
        markers.replace_one(mark, mark, upsert=True)
    if old.database[MARKER].find_one(mark) is not None:  # the vault turned out to be the data's own collection
        markers.delete_one(mark)
        return 0
    moved = _copied(old, vault)
    if vault.count_documents({}) < old.count_documents({}):
        raise RuntimeError("the key vault did not receive every key of the data's database; nothing was dropped")
    old.drop()
    markers.delete_one(mark)
    return moved


def _copied(old: Collection, vault: Collection) -> int:
    """Every key document of `old` written to `vault` under its own `_id` (again, if a cut move had written it)."""
    batch, moved = [], 0
    for doc in old.find({}, batch_size=BATCH):
        batch.append(ReplaceOne({"_id": doc["_id"]}, doc, upsert=True))
        if len(batch) == BATCH:
            moved += _written(vault, batch)
            batch = []
    return moved + (_written(vault, batch) if batch else 0)


def _written(vault: Collection, batch: list[ReplaceOne]) -> int:
    vault.bulk_write(batch, ordered=False)
    return len(batch)


def _same_database(old: Collection, vault: Collection) -> bool:
    """Whether the two are one database reached two ways (KEY_VAULT_URI naming the data's own deployment): a probe
    written through one is read through the other."""
    probe = {"_id": f"probe-{uuid.uuid4()}"}
    vault.database[MARKER].insert_one(probe)
    try:
        return old.database[MARKER].find_one(probe) is not None
    finally:
        vault.database[MARKER].delete_one(probe)
