"""Many small values sealed a group at a time: each group under a content key of its own, itself sealed under a data
key per group in the key vault (core.personal.vault).

A write of a thousand values costs one pass through libmongocrypt and AES-GCM in C for each value; reading them costs
one unsealing per group. A data key per value would cost 0.64 ms each to read (about a minute for 100,000 listeners).
Erasing one member of a group is the caller's: it writes the other members' values again under new groups, then
destroys the old groups' keys, after which no copy of the erased member's values, in the oplog or a backup, can be
read.

A write of a few values (a live batch) goes into the station's open group instead, shared by every process until it
holds `size` values or is SHARED_FOR old, so that a day of live batches does not fill the vault with keys.
A writer claims room in it (`members`) before sealing and counts its values in (`written`) once they are stored, so
that an erasure can close the group and wait for every claimed value to be stored before it writes them again.
"""
from __future__ import annotations

import time
from collections.abc import Iterable
from datetime import timedelta

from bson import Binary, ObjectId
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from mongoengine import BinaryField, DateTimeField, Document, IntField, ObjectIdField
from pymongo.errors import DuplicateKeyError

from core.clock import as_utc, utcnow
from core.db.quirks import IN_CHUNK
from core.personal.vault import cipher, decrypted, encrypted
from core.personal.vault_connection import key_vault

SHARED_FOR = timedelta(hours=1)
SETTLE_SECONDS = 10.0
"""How long an erasure waits for writers that claimed room in a group to store their values: a writer that died
meanwhile stored nothing, so nothing is lost by going on."""
DESTRUCTIONS = "sealed_group_destructions"
"""A count per kind of group, raised by every destruction of keys, so that a process keeping keys in memory learns in
one look-up whether it must drop them."""
AT_HAND_GROUPS = 4_096
"""Groups whose opened content key a process keeps in memory (never stored): a listener page read again, or the next
batch of an embedding, opens none again. Only groups whose key still exists are ever read from it."""


class GroupKey(Document):
    """The content key of one group, sealed under the group's data key (core.personal.vault); the fields of the
    station's open group beside it. Each kind of group keeps its keys in a collection of its own (a subclass)."""

    group = ObjectIdField(primary_key=True)
    company_id = IntField(required=True)
    key = BinaryField(required=True)
    open_for = IntField()  # the station whose open group this is: few values of a write share it (`seal_shared`)
    opened_at = DateTimeField()
    members = IntField()  # values claimed in the open group
    written = IntField()  # of which stored
    meta = {"abstract": True}


OPEN_GROUP_INDEX = {"fields": ["open_for"], "unique": True, "sparse": True}
"""The index a kind of group's keys needs for `seal_shared`: one open group per station."""


class SealedGroups:
    """Groups of one kind (their key names begin with `kind`), their sealed content keys stored in `keys`' collection
    (a Document with `_id` the group, `company_id` and `key`)."""

    def __init__(self, kind: str, keys: type[Document], size: int):
        self.kind, self.keys, self.size = kind, keys, size  # size: the most values a writer puts in one group
        self._at_hand: dict[ObjectId, AESGCM] = {}  # content keys this process opened or made lately
        self._destroyed_seen: int | None = None  # the kind's count of destructions when they were last checked

    def key_name(self, group: ObjectId) -> str:
        return f"{self.kind}:{group}"

    def seal_all(self, company_id: int, values: list[bytes]) -> list[tuple[ObjectId, Binary]]:
        """Each value's (group, sealed value), sealed `size` to a new group under the group's content key, bound to
        the group; the groups' keys made and stored together."""
        if not values:
            return []
        groups = [ObjectId() for _ in range(0, len(values), self.size)]
        keys = key_vault().new_content_keys([self.key_name(group) for group in groups], fresh=True)
        self.keys._get_collection().insert_many([{"_id": group, "company_id": company_id, "key": sealed_key}
                                                 for group, (_, sealed_key) in zip(groups, keys, strict=True)])
        found = []
        for index, (group, (content_key, _)) in enumerate(zip(groups, keys)):
            with_key = self._keep(group, cipher(content_key))
            found += [(group, Binary(encrypted(with_key, value, group.binary)))
                      for value in values[index * self.size:(index + 1) * self.size]]
        return found

    def seal_in(self, group: ObjectId, values: list[bytes]) -> list[Binary]:
        """The values sealed in an existing group (LookupError when its key is gone). A key this process opened
        lately is used without asking the database whether another process destroyed it since: the caller's write
        must fail in that case (core.listeners.sealed_writes writes conditional on what it read)."""
        with_key = self._at_hand.get(group) or self._ciphers([group]).get(group)
        if with_key is None:
            raise LookupError(f"the key of {self.kind} group {group} was destroyed")
        return [Binary(encrypted(with_key, value, group.binary)) for value in values]

    def seal_shared(self, company_id: int, values: list[bytes]) -> tuple[ObjectId, list[Binary]]:
        """The values sealed in the station's open group (a new group when it has no room); the caller calls
        `written` once they are stored, whether or not the write succeeded. The keys' Document needs `open_for` (the
        station whose open group it is, unique and sparse), `opened_at`, `members` and `written`."""
        group, with_key = self._claim(company_id, len(values))
        return group, [Binary(encrypted(with_key, value, group.binary)) for value in values]

    def written(self, group: ObjectId, count: int) -> None:
        self.keys._get_collection().update_one({"_id": group}, {"$inc": {"written": count}})

    def counted_in(self, claimed: list[tuple[ObjectId, int]]) -> set[ObjectId]:
        """Count the values claimed in open groups (group, how many) in as written, whether or not their write went
        in; those groups whose key an erasure destroyed meanwhile, having stopped waiting for them: the caller seals
        their values again under groups of their own."""
        for group, count in claimed:
            self.written(group, count)
        groups = {group for group, _ in claimed}
        return groups - set(self.existing(groups)) if groups else set()

    def settle(self, groups: list[ObjectId]) -> None:
        """Close these groups to new values and wait (up to SETTLE_SECONDS) until every value claimed in them is
        stored, so that a reader of their members sees them all."""
        collection = self.keys._get_collection()
        collection.update_many({"_id": {"$in": groups}}, {"$unset": {"open_for": ""}})
        deadline = time.monotonic() + SETTLE_SECONDS
        while time.monotonic() < deadline and self._unsettled(groups):
            time.sleep(0.05)

    def open(self, sealed: list[tuple[ObjectId | None, bytes | None]]) -> list[bytes | None]:
        """Each (group, sealed value) opened, in order, the groups' keys unsealed together; None where nothing was
        sealed or the group's key was destroyed."""
        ciphers = self._ciphers(group for group, value in sealed if value is not None)
        return [decrypted(ciphers[group], value, group.binary) if value is not None and group in ciphers else None
                for group, value in sealed]

    def existing(self, groups: Iterable[ObjectId]) -> list[ObjectId]:
        """Those of these groups whose key still exists, sorted."""
        return sorted(doc["_id"] for doc in self._find(sorted(set(groups)), {"_id": 1}))

    def destroy(self, groups: list[ObjectId]) -> None:
        """Destroy the groups' keys: every copy of a value sealed in them is unreadable from now on."""
        key_vault().destroy(self.key_name(group) for group in groups)
        self.keys._get_collection().delete_many({"_id": {"$in": groups}})
        for group in groups:
            self._at_hand.pop(group, None)
        if groups:
            self.keys._get_collection().database[DESTRUCTIONS].update_one({"_id": self.kind}, {"$inc": {"n": 1}},
                                                                          upsert=True)

    def forget(self) -> None:
        """Drop the content keys this process keeps in memory, as a fresh process starts."""
        self._at_hand.clear()

    def _unsettled(self, groups: list[ObjectId]) -> bool:
        """Whether a value claimed in one of these groups is not stored yet."""
        return any(doc.get("members", 0) > doc.get("written", 0) for doc in self._find(groups, {"members": 1,
                                                                                             "written": 1}))

    def _claim(self, company_id: int, count: int) -> tuple[ObjectId, AESGCM]:
        """Room for `count` values in the station's open group, opening a new one when it is full, old or closed."""
        collection = self.keys._get_collection()
        for _ in range(3):
            current = collection.find_one({"open_for": company_id})
            if current is not None and as_utc(current["opened_at"]) > utcnow() - SHARED_FOR and collection.update_one(
                    {"_id": current["_id"], "open_for": company_id, "members": {"$lte": self.size - count}},
                    {"$inc": {"members": count}}).modified_count:
                return current["_id"], self._cipher_of(current)
            if current is not None:
                collection.update_one({"_id": current["_id"]}, {"$unset": {"open_for": ""}})
            group = ObjectId()
            [(content_key, sealed_key)] = key_vault().new_content_keys([self.key_name(group)], fresh=True)
            try:
                collection.insert_one({"_id": group, "company_id": company_id, "key": sealed_key,
                                       "open_for": company_id, "opened_at": utcnow(), "members": count, "written": 0})
            except DuplicateKeyError:  # another process opened one meanwhile: claim room in it
                key_vault().destroy([self.key_name(group)])
                continue
            return group, self._keep(group, cipher(content_key))
        raise RuntimeError(f"no open {self.kind} group could be claimed for station {company_id}")

    def _cipher_of(self, key_doc: dict) -> AESGCM:
        opened = self._opened([key_doc])
        if key_doc["_id"] not in opened:
            raise LookupError(f"the key of {self.kind} group {key_doc['_id']} was destroyed")
        return opened[key_doc["_id"]]

    def _ciphers(self, groups: Iterable[ObjectId]) -> dict[ObjectId, AESGCM]:
        """The cipher of each of these groups whose key still exists. The kind's count of destructions is asked of
        the database at every call: when another process destroyed a key since, every key in memory is dropped, so
        that a destroyed key is final at once; else the groups at hand are not asked for one by one (a `$in` of 50
        groups cost 13 ms a page on the embedded database, the count 0.5 ms)."""
        wanted = list(dict.fromkeys(groups))
        if not wanted:
            return {}
        destroyed = self._destructions()
        if destroyed != self._destroyed_seen:
            self._at_hand.clear()
            self._destroyed_seen = destroyed
        found = {group: self._at_hand[group] for group in wanted if group in self._at_hand}
        missing = [group for group in wanted if group not in found]
        return {**found, **(self._opened(list(self._find(missing, {"key": 1}))) if missing else {})}

    def _destructions(self) -> int:
        doc = self.keys._get_collection().database[DESTRUCTIONS].find_one({"_id": self.kind})
        return int((doc or {}).get("n", 0))

    def _opened(self, key_docs: list[dict]) -> dict[ObjectId, AESGCM]:
        """The cipher of each of these key documents: those this process opened lately from memory, the others
        unsealed together."""
        found = {doc["_id"]: self._at_hand.get(doc["_id"]) for doc in key_docs}
        missing = [doc for doc in key_docs if found[doc["_id"]] is None]
        for doc, key in zip(missing, key_vault().open_content_keys(doc["key"] for doc in missing)):
            if key is not None:
                found[doc["_id"]] = self._keep(doc["_id"], cipher(key))
        return {group: with_key for group, with_key in found.items() if with_key is not None}

    def _keep(self, group: ObjectId, with_key: AESGCM) -> AESGCM:
        if len(self._at_hand) >= AT_HAND_GROUPS:
            self._at_hand.clear()
        self._at_hand[group] = with_key
        return with_key

    def _find(self, groups: list[ObjectId], fields: dict | None = None):
        collection = self.keys._get_collection()
        for start in range(0, len(groups), IN_CHUNK):
            yield from collection.find({"_id": {"$in": groups[start:start + IN_CHUNK]}}, fields)

