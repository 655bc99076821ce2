"""The personal fields of listener documents (declared data but the two flags, tags, inferred and promoted values),
sealed as one envelope per listener, 250 listeners of a write to a group (core.db.sealed_groups).

One envelope, not a value per field, because a segmentation run reads every listener of the station: one AES-GCM
opening per listener. So every write reads a listener's envelope, opens it, changes it and seals it again; two writers
(an import and a promotion, or an erasure moving the listener to a new group) could each undo the other's change.
Each write is therefore conditional on the `profile_version` it read, and gives a new one; a writer that lost the
race reads the listener again and applies its change to what it finds.

A listener changed later is sealed again in its own group. Erasing one writes the other members of its group under
new groups (250 to a group: about 4 ms each on the embedded database) and destroys the group's key, after which no
copy of the erased listener's fields, in the oplog or a backup, can be read.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

import bson
from bson import ObjectId
from pymongo import UpdateOne

from core.db import ahead
from core.db.quirks import IN_CHUNK, find_by_originator
from core.db.sealed_groups import SealedGroups
from core.listeners.fields import DECLARED_NAMES, FLAGS
from core.listeners.models import Listener, ProfileKey

GROUPS = SealedGroups("profiles", ProfileKey, size=250)
SEALED = (*(name for name in DECLARED_NAMES if name not in FLAGS), "inferred", "promoted", "ai_profile",
          "promotions")
"""The fields a listener's envelope holds: everything personal about them but their originator and the consent flags
(asked of the database), including the AI's answer about them, kept for 30 days (core.ai.profile), and the history of
the values promoted to declared (core.ai.promote), so that an erasure reaches those too."""
STORED = {"profile": 1, "profile_group": 1, "profile_version": 1}
OPENED_AT_ONCE = 1_000  # listeners whose envelopes a reader opens together
SHARED_UP_TO = 25  # a write of up to this many listeners without a group goes into the station's open group
ATTEMPTS = 20

Change = Callable[[dict], dict | None]
"""What a writer does to one listener: given the listener's fields (opened), the fields to set, or None for
nothing. Called again with what it finds if another writer got there first."""


def fields_of(projection: dict | None) -> dict | None:
    """A reader's projection, with the envelope wherever it asks for a sealed field (None: whole documents)."""
    if projection is None or not any(projection.get(name) for name in SEALED):
        return projection
    return {**projection, **STORED}


def opened(docs: list[dict]) -> list[dict]:
    """These listener documents (as read) with their sealed fields in place of the envelope, the groups' keys
    unsealed together. A document stored before sealing reads as it is; one whose group's key is gone has no
    personal field."""
    values = GROUPS.open([(doc.get("profile_group"), doc.get("profile")) for doc in docs])
    codec = Listener._get_collection().codec_options
    for doc, value in zip(docs, values):
        sealed = doc.pop("profile", None)
        doc.pop("profile_group", None)
        doc.pop("profile_version", None)
        if sealed is not None and value is not None:
            doc.update(bson.decode(value, codec))
    return docs


def opened_stream(docs: Iterable[dict]) -> Iterator[dict]:
    """`opened`, OPENED_AT_ONCE documents at a time, for readers that stream a station."""
    for chunk in ahead.batches(docs, OPENED_AT_ONCE):
        yield from opened(chunk)


def read(company_id: int, originators: list[str]) -> list[dict]:
    """These listeners' documents, opened."""
    return opened(list(find_by_originator(Listener._get_collection(), company_id, originators, None)))


def seal_new(company_id: int, docs: list[dict]) -> None:
    """Seal in place the personal fields of new listener documents, GROUPS.size to a new group."""
    sealed = GROUPS.seal_all(company_id, [_envelope(doc) for doc in docs])
    for doc, (group, value) in zip(docs, sealed):
        for name in SEALED:
            doc.pop(name, None)
        doc.update(profile=value, profile_group=group, profile_version=ObjectId())


def edit(company_id: int, changes: dict[str, Change], new_groups: bool = False) -> set[str]:
    """Apply each listener's change to its fields and store them sealed again, atomically per listener (see the
    module's docstring); the listeners changed. Erased and unknown listeners are left alone. `new_groups`: seal them
    under new groups rather than each in its own."""
    pending, done = dict(changes), set()
    for _ in range(ATTEMPTS):
        if not pending:
            return done
        writes, raws = [], _read_raw(company_id, sorted(pending))
        for raw, state in zip(raws, opened([dict(raw) for raw in raws])):
            change = pending[raw["originator"]](state) if raw.get("erased_at") is None else None
            if change is not None:
                writes.append((raw, {**{name: state[name] for name in SEALED if name in state}, **change}))
        stored, lost = _store(company_id, writes, new_groups)
        done |= stored - set(lost)
        pending = {o: pending[o] for o in {raw["originator"] for raw, _ in writes} - stored}
        pending.update({o: (lambda _, fields=fields: fields) for o, fields in lost.items()})
    raise RuntimeError(f"the documents of {len(pending)} listeners of station {company_id} kept changing while "
                       "they were being written")


def erase(company_id: int, originator: str) -> int:
    """Make every copy of this listener's personal fields unreadable: the other listeners of its group are written
    again under new groups, and the group's key is destroyed; how many others were written again. The caller then
    clears the listener's own document."""
    doc = Listener._get_collection().find_one({"company_id": company_id, "originator": originator},
                                              {"profile_group": 1})
    group = (doc or {}).get("profile_group")
    if group is None:
        return 0
    GROUPS.settle([group])  # every writer that claimed room in it (its open group) has stored its listener
    moved = set()
    for _ in range(ATTEMPTS):
        others = {member["originator"] for member in Listener._get_collection().find(
            {"company_id": company_id, "profile_group": group}, {"originator": 1})} - {originator}  # the index alone
        if not others:
            break
        moved |= edit(company_id, dict.fromkeys(others, _unchanged), new_groups=True)
    GROUPS.destroy([group])
    return len(moved)


def seal_plain(company_id: int) -> int:
    """Seal the personal fields of listener documents stored before sealing, OPENED_AT_ONCE at a time (GROUPS.size
    to a group); how many listeners. Resumable: only documents without an envelope are read."""
    collection, done = Listener._get_collection(), 0
    plain = collection.find({"company_id": company_id, "profile_version": None, "erased_at": None},
                            {"originator": 1})
    for chunk in ahead.batches((doc["originator"] for doc in plain), OPENED_AT_ONCE):
        done += len(edit(company_id, dict.fromkeys(chunk, _unchanged), new_groups=True))
    return done


def _unchanged(state: dict) -> dict:
    return {}


def _envelope(fields: dict) -> bytes:
    return bson.encode({name: fields[name] for name in SEALED if fields.get(name) is not None})


def _read_raw(company_id: int, originators: list[str]) -> list[dict]:
    return list(find_by_originator(Listener._get_collection(), company_id, originators, None))


def _store(company_id: int, writes: list[tuple[dict, dict]], new_groups: bool) -> tuple[set[str], dict[str, dict]]:
    """Write each (document as read, its fields afterwards), conditional on the version read; the listeners
    written, and those written in an open group whose key an erasure destroyed meanwhile (with their fields, to
    write again)."""
    by_group: dict[ObjectId | None, list] = {}
    for raw, fields in writes:
        by_group.setdefault(None if new_groups else raw.get("profile_group"), []).append((raw, fields))
    updates, versions, groups, claimed = [], {}, {}, []
    for group, members in by_group.items():
        for (raw, fields), (sealed_in, value) in zip(members, _sealed(company_id, group, members, claimed)):
            version = versions[raw["_id"]] = ObjectId()
            groups[raw["originator"]] = sealed_in
            plain = {name: given for name, given in fields.items() if name not in SEALED}
            updates.append(UpdateOne(
                {"_id": raw["_id"], "profile_version": raw.get("profile_version"), "erased_at": None},
                {"$set": {**plain, "profile": value, "profile_group": sealed_in, "profile_version": version},
                 "$unset": dict.fromkeys(SEALED, "")}))
    matched = 0
    try:
        if updates:
            matched = Listener._get_collection().bulk_write(updates, ordered=False).matched_count
    finally:
        gone = GROUPS.counted_in(claimed)
    stored = groups if matched == len(updates) else _stored_as(versions)  # else read which went in
    lost = {raw["originator"]: fields for raw, fields in writes
            if raw["originator"] in stored and stored[raw["originator"]] in gone}
    return set(stored), lost


def _sealed(company_id: int, group: ObjectId | None, members: list, claimed: list) -> list[tuple[ObjectId, bytes]]:
    """The members' envelopes sealed in `group`, or under new groups when it is None or its key is gone (a few in
    the station's open group, whose claim goes into `claimed`)."""
    values = [_envelope(fields) for _, fields in members]
    if group is not None:
        try:
            return [(group, value) for value in GROUPS.seal_in(group, values)]
        except LookupError:
            pass
    if len(values) > SHARED_UP_TO:
        return GROUPS.seal_all(company_id, values)
    shared, sealed = GROUPS.seal_shared(company_id, values)
    claimed.append((shared, len(values)))
    return [(shared, value) for value in sealed]


def _stored_as(versions: dict[ObjectId, ObjectId]) -> dict[str, ObjectId]:
    """Of the documents written (`_id` -> the version written), those whose write went in: originator -> group."""
    ids, found = list(versions), {}
    for start in range(0, len(ids), IN_CHUNK):
        for doc in Listener._get_collection().find({"_id": {"$in": ids[start:start + IN_CHUNK]}},
                                                   {"originator": 1, "profile_version": 1, "profile_group": 1}):
            if doc.get("profile_version") == versions[doc["_id"]]:
                found[doc["originator"]] = doc["profile_group"]
    return found
