"""The stored listener documents: their personal fields (the originator, declared data but the two flags, tags,
inferred and promoted values) sealed as one envelope per listener, 250 listeners of a write to a group
(core.personal.sealed_groups), and each document found by the keyed hash of its originator
(core.personal.originator_keys).

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
from pymongo.errors import BulkWriteError

from core.db import ahead
from core.db.quirks import IN_CHUNK, find_by_originator, looked_up
from core.listeners import finding
from core.listeners.fields import DECLARED_NAMES, FLAGS
from core.listeners.models import Listener, ProfileKey
from core.personal import originator_keys
from core.personal.sealed_groups import SealedGroups

GROUPS = SealedGroups("profiles", ProfileKey, size=250)
SEALED = (*(name for name in DECLARED_NAMES if name not in FLAGS), "inferred", "promoted", "ai_profile",
          "promotions")
"""The personal fields stored in a listener's envelope alone: everything personal about them but the consent flags
(asked of the database), including the AI's answer about them, kept for 30 days (core.ai.profile), and the history of
the values promoted to declared (core.ai.promote), so that an erasure reaches those too."""
ENVELOPE = ("originator", *SEALED)
"""What the envelope holds: the fields above, and the originator, which the document holds as its key."""
STORED = {"profile": 1, "profile_group": 1, "profile_version": 1}
OPENED_AT_ONCE = 1_000  # listeners whose envelopes a reader opens together
SHARED_UP_TO = 25  # a write of up to this many listeners without a group goes into the station's open group
ATTEMPTS = 20
LOOKED_UP_AT_MOST = 2_000  # listeners new since the snapshot whose keys `originators_of` looks up rather than scan

Change = Callable[[dict], dict | None]
"""What a writer does to one listener: given the listener's fields (opened), the fields to set, or None for
nothing. Called again with what it finds if another writer got there first."""


def fields_of(projection: dict | None) -> dict | None:
    """A reader's projection, with the envelope wherever it asks for a sealed field or the originator (None: whole
    documents)."""
    if projection is None or not any(projection.get(name) for name in ENVELOPE):
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


def find(company_id: int, originators: Iterable[str] | None = None, projection: dict | None = None,
         exact: bool = True) -> Iterator[dict]:
    """Stream the documents of the station's listeners, or of these (by their keys; see
    core.db.quirks.find_by_originator for `exact`), opened; the projection as readers write it (None: whole
    documents)."""
    collection, fields = Listener._get_collection(), fields_of(projection)
    if originators is None:
        return opened_stream(find_by_originator(collection, company_id, None, fields))
    forms = list(finding.lookup(company_id, originators))
    return opened_stream(find_by_originator(collection, company_id, forms, fields, exact,
                                            population=lambda: finding.station_keys(company_id)))


def find_one(company_id: int, originator: str, projection: dict | None = None) -> dict | None:
    """One listener's document, opened; None when there is none (an erased listener is stored under its
    pseudonym, so its number finds nothing)."""
    doc = Listener._get_collection().find_one(finding.matching(company_id, [originator]), fields_of(projection))
    return None if doc is None else opened([doc])[0]


def read(company_id: int, originators: list[str]) -> list[dict]:
    """These listeners' documents, opened."""
    return list(find(company_id, originators))


def existing(company_id: int, originators: list[str], stored: set[str] | None = None) -> set[str]:
    """Those of these listeners that are stored, by their keys alone (the index answers; nothing is opened), or
    from `stored`, the station's stored values as `stored_values` read them."""
    forms = finding.lookup(company_id, originators)
    if stored is not None:
        return {originator for form, originator in forms.items() if form in stored}
    return {forms[doc["originator"]] for doc in looked_up(Listener._get_collection(), company_id, list(forms),
                                                           {"_id": 0, "originator": 1})}


def stored_values(company_id: int) -> set[str]:
    """The values (keys; plain originators stored before keys) every stored listener of the station is stored
    under, in one pass over its index range: for a writer that asks about a good part of the station, a tenth of
    the cost per listener of look-ups (0.05 ms against 0.4 ms on the embedded database)."""
    found = Listener._get_collection().find({"company_id": company_id}, {"_id": 0, "originator": 1}, batch_size=5000)
    return {doc["originator"] for doc in found}


def originators_of(company_id: int, stored: list[str], among: list[str] | None = None) -> list[str]:
    """The originators of values as a keyed store holds them, in order: a key is matched to the originators `among`
    (those the caller has at hand), then looked up in the station's snapshot, else its listener's envelope is opened
    (all the station's, when more are new than LOOKED_UP_AT_MOST); a value stored plain (before keys, or an erased
    listener's pseudonym) is its own. A key whose listener is gone reads as it is."""
    keys = {value for value in stored if originator_keys.is_key(value)}
    found = {key: originator for key, originator in zip(originator_keys.keys_of(company_id, among or ()), among or ())
             if key in keys}
    found.update(finding.known(company_id, keys - set(found)))
    missing = sorted(keys - set(found))
    if missing:
        wanted = None if len(missing) > LOOKED_UP_AT_MOST else missing
        raw = find_by_originator(Listener._get_collection(), company_id, wanted, {"originator": 1, **STORED},
                                 population=lambda: finding.station_keys(company_id))
        for chunk in ahead.batches(raw, OPENED_AT_ONCE):
            stored_as = [doc["originator"] for doc in chunk]
            found.update(zip(stored_as, (doc.get("originator") for doc in opened(chunk)), strict=True))
    return [found.get(value, value) for value in stored]


def named(company_id: int, docs: list[dict], among: list[str] | None = None) -> list[dict]:
    """These documents of a keyed store, in place, with their listener's originator where they hold its key (see
    `originators_of`)."""
    originators = originators_of(company_id, [doc["originator"] for doc in docs], among)
    for doc, originator in zip(docs, originators, strict=True):
        doc["originator"] = originator
    return docs


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
