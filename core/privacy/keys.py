"""A data key per listener (core.db.vault), and that listener's personal values sealed under it.

Erasure destroys the listener's key, after which nothing sealed under it can be read in any copy. Each key is named
by a keyed hash of the station and number, so the vault holds no number.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping

from bson.binary import Binary

from core.db.vault import Vault
from core.listeners.pseudonyms import keyed_hash


class Keys:
    """Seals and unseals listeners' personal values, each listener under a data key of its own."""

    def __init__(self, vault: Vault, secret: str):
        self.vault = vault
        self.secret = secret

    def name_of(self, company_id: int, originator: str) -> str:
        """The key name of a listener: a keyed hash, so the vault holds no number."""
        return "listener:" + keyed_hash(self.secret, f"{company_id}:{originator}")

    def seal(self, company_id: int, values: Mapping[str, dict]) -> dict[str, Binary]:
        """Each listener's values (a document) encrypted under that listener's key, made when it has none."""
        names = {originator: self.name_of(company_id, originator) for originator in values}
        sealed = self.vault.seal({names[originator]: document for originator, document in values.items()})
        return {originator: sealed[name] for originator, name in names.items()}

    def unseal(self, sealed: Iterable[Binary | None]) -> list[dict | None]:
        """The documents sealed by `seal`, in order; None where nothing was sealed or the key was destroyed."""
        return self.vault.unseal(sealed)

    def destroy(self, company_id: int, originators: Iterable[str]) -> int:
        """Delete the listeners' keys: what was sealed under them is unreadable from now on, in every copy."""
        return self.vault.destroy(self.name_of(company_id, originator) for originator in originators)
