"""Writing the stored listener documents (core.listeners.sealed_profiles holds what their envelope holds and reads
them): new listeners sealed GROUPS.size to a group, changes sealed again, an erased listener's group destroyed.

Every write reads a listener's envelope, opens it, changes it and seals it again; two writers (an import and a
promotion, or an erasure moving the listener to a new group) could each undo the other's change. Each write is
therefore conditional on the `profile_version` it read, and gives a new one; a writer that lost the race reads the
listener again and applies its change to what it finds.

A listener changed later is sealed again in its own group. Erasing one writes the other members of its group under
new groups (250 to a group: about 4 ms each on the embedded database) and destroys the group's key, after which no
copy of the erased listener's fields, in the oplog or a backup, can be read.

Separate from reading because the readers (every run, search and page) need none of the race above, and the writers
(imports, live batches, promotions, erasure, `encrypt`) are few.
"""
from __future__ import annotations

from collections.abc import Callable

import bson
from bson import ObjectId
from pymongo import UpdateOne
from pymongo.errors import BulkWriteError

from core.db import ahead
from core.db.quirks import IN_CHUNK, find_by_originator
from core.listeners import finding
from core.listeners.models import Listener
from core.listeners.sealed_profiles import ENVELOPE, GROUPS, OPENED_AT_ONCE, SEALED, STORED, opened
from core.personal import originator_keys

SHARED_UP_TO = 25  # a write of up to this many listeners without a group goes into the station's open group
ATTEMPTS = 20

Change = Callable[[dict], dict | None]
"""What a writer does to one listener: given the listener's fields (opened), the fields to set, or None for
nothing. Called again with what it finds if another writer got there first."""


def insert(company_id: int, docs: list[dict], live: bool = False) -> set[str]:
    """Store new listener documents (as readers see them) sealed, each under its key, GROUPS.size to a new group
    (a live batch's few in the station's open group, as any other small write); the originators refused because
    they were stored meanwhile by another writer (the unique (company_id, originator) index decides). The documents
    are changed in place."""
    if not docs:
        return set()
    given, claimed = {doc["originator"]: dict(doc) for doc in docs}, []
    members = [(None, doc) for doc in docs]
    sealed = _sealed(company_id, None, members, claimed) if live else GROUPS.seal_all(
        company_id, [_envelope(doc) for doc in docs])
    keys = originator_keys.keys_of(company_id, list(given))
    for doc, key, (group, value) in zip(docs, keys, sealed, strict=True):
        for name in SEALED:
            doc.pop(name, None)
        doc.update(originator=key, profile=value, profile_group=group, profile_version=ObjectId())
    originators, groups = dict(zip(keys, given)), {doc["originator"]: doc["profile_group"] for doc in docs}
    try:
        refused = {originators[doc["originator"]] for doc in _insert_new(docs)}
    finally:
        gone = GROUPS.counted_in(claimed)
    lost = [originators[key] for key, group in groups.items() if group in gone and originators[key] not in refused]
    edit(company_id, {o: (lambda _, fields=given[o]: {n: fields[n] for n in SEALED if n in fields}) for o in lost})
    return refused


def edit(company_id: int, changes: dict[str, Change], new_groups: bool = False) -> set[str]:
    """Apply each listener's change to its fields and store them sealed again, atomically per listener (see the
    module's docstring); the listeners changed. Erased and unknown listeners are left alone. `new_groups`: seal them
    under new groups rather than each in its own."""
    pending, done = dict(changes), set()
    for _ in range(ATTEMPTS):
        if not pending:
            return done
        forms = finding.lookup(company_id, pending)
        writes, raws = [], _read_raw(company_id, sorted(forms))
        for raw, state in zip(raws, opened([dict(raw) for raw in raws])):
            originator = forms[raw["originator"]]
            change = pending[originator](state) if raw.get("erased_at") is None else None
            if change is not None:
                writes.append((raw, {**{name: state[name] for name in SEALED if name in state}, **change,
                                     "originator": originator}))
        stored, lost = _store(company_id, writes, new_groups)
        done |= stored - set(lost)
        pending = {o: pending[o] for o in {fields["originator"] for _, fields in writes} - stored}
        pending.update({o: (lambda _, fields=fields: fields) for o, fields in lost.items()})
    raise RuntimeError(f"the documents of {len(pending)} listeners of station {company_id} kept changing while "
                       "they were being written")


def erase(company_id: int, originator: str) -> int:
    """Make every copy of this listener's personal fields unreadable: the other listeners of its group are written
    again under new groups, and the group's key is destroyed; how many others were written again. The caller then
    clears the listener's own document."""
    doc = Listener._get_collection().find_one(finding.matching(company_id, [originator]), {"profile_group": 1})
    group = (doc or {}).get("profile_group")
    if group is None:
        return 0
    GROUPS.settle([group])  # every writer that claimed room in it (its open group) has stored its listener
    moved = set()
    for _ in range(ATTEMPTS):
        members = opened(list(Listener._get_collection().find({"company_id": company_id, "profile_group": group},
                                                              {"originator": 1, **STORED})))
        others = {member["originator"] for member in members
                  if not originator_keys.is_key(member["originator"])} - {originator}
        if not others:
            break
        moved |= edit(company_id, dict.fromkeys(others, _unchanged), new_groups=True)
    GROUPS.destroy([group])
    return len(moved)


def seal_plain(company_id: int) -> int:
    """Seal the personal fields of listener documents stored before sealing, and key those stored under their
    plain originator, OPENED_AT_ONCE at a time (GROUPS.size to a group); how many listeners. Resumable: only
    documents whose originator is plain are written."""
    found = Listener._get_collection().find({"company_id": company_id, "erased_at": None}, {"originator": 1})
    plain, done = (doc["originator"] for doc in found if not originator_keys.is_key(doc["originator"])), 0
    for chunk in ahead.batches(plain, OPENED_AT_ONCE):
        done += len(edit(company_id, dict.fromkeys(chunk, _unchanged), new_groups=True))
    return done


def _unchanged(state: dict) -> dict:
    return {}


def _envelope(fields: dict) -> bytes:
    return bson.encode({name: fields[name] for name in ENVELOPE if fields.get(name) is not None})


def _insert_new(docs: list[dict]) -> list[dict]:
    """insert_many that tolerates duplicate keys; the documents refused for one."""
    try:
        Listener._get_collection().insert_many(docs, ordered=False)
    except BulkWriteError as exc:
        errors = exc.details.get("writeErrors", [])
        if any(error.get("code") != 11000 for error in errors):
            raise
        return [docs[error["index"]] for error in errors]
    return []


def _read_raw(company_id: int, forms: list[str]) -> list[dict]:
    return list(find_by_originator(Listener._get_collection(), company_id, forms, None,
                                   population=lambda: finding.station_keys(company_id)))


def _store(company_id: int, writes: list[tuple[dict, dict]], new_groups: bool) -> tuple[set[str], dict[str, dict]]:
    """Write each (document as read, its fields afterwards), conditional on the version read; the listeners
    written, and those written in an open group whose key an erasure destroyed meanwhile (with their fields, to
    write again)."""
    by_group: dict[ObjectId | None, list] = {}
    for raw, fields in writes:
        by_group.setdefault(None if new_groups else raw.get("profile_group"), []).append((raw, fields))
    updates, versions, groups, claimed = [], {}, {}, []
    for group, members in by_group.items():
        sealed = _sealed(company_id, group, members, claimed)
        keys = originator_keys.keys_of(company_id, [fields["originator"] for _, fields in members])
        for (raw, fields), key, (sealed_in, value) in zip(members, keys, sealed, strict=True):
            version, originator = ObjectId(), fields["originator"]
            versions[raw["_id"]] = (version, originator)
            groups[originator] = sealed_in
            plain = {name: given for name, given in fields.items() if name not in ENVELOPE}
            updates.append(UpdateOne(
                {"_id": raw["_id"], "profile_version": raw.get("profile_version"), "erased_at": None},
                {"$set": {**plain, "originator": key, "profile": value, "profile_group": sealed_in,
                          "profile_version": version},
                 "$unset": dict.fromkeys(SEALED, "")}))
    matched = 0
    try:
        if updates:
            matched = Listener._get_collection().bulk_write(updates, ordered=False).matched_count
    finally:
        gone = GROUPS.counted_in(claimed)
    stored = groups if matched == len(updates) else _stored_as(versions)  # else read which went in
    lost = {fields["originator"]: fields for _, fields in writes
            if fields["originator"] in stored and stored[fields["originator"]] in gone}
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


def _stored_as(versions: dict[ObjectId, tuple[ObjectId, str]]) -> dict[str, ObjectId]:
    """Of the documents written (`_id` -> the version written, and whose), those whose write went in: originator ->
    group."""
    ids, found = list(versions), {}
    for start in range(0, len(ids), IN_CHUNK):
        for doc in Listener._get_collection().find({"_id": {"$in": ids[start:start + IN_CHUNK]}},
                                                   {"profile_version": 1, "profile_group": 1}):
            version, originator = versions[doc["_id"]]
            if doc.get("profile_version") == version:
                found[originator] = doc["profile_group"]
    return found
