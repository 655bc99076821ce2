"""Every byte that can name a listener: the master key and the key vault (where it lives, the start refusals), values
and envelopes sealed under its data keys, many small values sealed a group at a time, the keyed hashes that stand in
for what a station sends us (originators, interaction ids, lock and log subjects), erased listeners' pseudonyms, and
the registry of stores that hold personal values, which erasure, the `encrypt` migration and the audit walk (nothing
else lists stores).

The names below, with the registry (core.personal.registry), are the package's public surface: tests outside
tests/core/personal use only these (tests/test_layering.py holds them to it), so that how values are sealed can
change without touching the tests of what is sealed.
"""
from __future__ import annotations

import re

from core.personal.keyed import tag_keys
from core.personal.originator_keys import key_of, keys_of
from core.personal.spellings import spellings_of
from core.personal.vault_connection import VAULT_COLLECTION, key_vault

__all__ = ["VAULT_COLLECTION", "key_of", "keys_of", "keys_named", "opened", "seal", "spellings_of", "tag_keys"]


def seal(name: str, data: bytes) -> bytes:
    """An envelope of these bytes under the vault's data key of this name (made if new), as a store keeps it."""
    return key_vault().seal_bytes(name, data)


def opened(envelope: bytes) -> bytes | None:
    """What an envelope holds; None once its data key is destroyed (the listener or artifact erased)."""
    return key_vault().unseal_bytes([bytes(envelope)])[0]


def keys_named(prefix: str = "") -> int:
    """How many data keys the vault holds whose name begins with this prefix (all of them by default)."""
    query = {"keyAltNames": {"$regex": "^" + re.escape(prefix)}} if prefix else {}
    return key_vault().collection.count_documents(query)
