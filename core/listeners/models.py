"""The stored documents of listeners: declared data, interactions in per-listener batches, suppressed numbers.

Bulk paths use `Doc._get_collection()` with plain dicts; the fields here are the schema. Interactions are stored
grouped, one `InteractionBatch` per listener per import, holding the events as parallel arrays, because the
embedded database pays per document (core.db.quirks). Derived data (behavioural profiles, segments) lives in the
columnar snapshot of each company (core.listeners.snapshot), not in per-listener documents.
"""
from __future__ import annotations

from mongoengine import (
    BinaryField,
    BooleanField,
    DateTimeField,
    DictField,
    Document,
    IntField,
    ListField,
    ObjectIdField,
    StringField,
)

from core.clock import utcnow
from core.db.documents import stored
from core.personal.registry import Store, declare
from core.personal.sealed_groups import OPEN_GROUP_INDEX, GroupKey


@stored
class Listener(Document):
    """Declared data of one listener of one station, plus AI-inferred values (with confidences).

    The personal fields (every declared one but the two flags, and the inferred and promoted values) are stored
    sealed in `profile` (core.listeners.sealed_profiles); the named fields below hold them only in documents stored
    before sealing.
    """

    company_id = IntField(required=True)
    originator = StringField(required=True)
    name = StringField()
    email = StringField()
    mobile_number = StringField()
    id_number = StringField()
    gender = StringField()
    age_group = StringField()
    location = StringField()
    language = StringField()
    ethnicity = StringField()
    income_bracket = StringField()
    education = StringField()
    employment_status = StringField()
    tags = ListField(StringField())
    permission = BooleanField(null=True)
    opt_in = BooleanField(null=True)
    inferred = DictField()  # {"inferred_gender": {"value": ..., "confidence": ...}, ..., "inferred_at": ...}
    promoted = DictField()  # declared field -> the inferred value copied into it (core.ai.promote)
    profile = BinaryField()  # the personal fields, sealed in the group `profile_group`
    profile_group = ObjectIdField()
    profile_version = ObjectIdField()  # new at every write of `profile`: a write is conditional on the one it read
    created_at = DateTimeField(default=utcnow)
    erased_at = DateTimeField()
    meta = {"collection": "listeners",
            "indexes": [{"fields": ["company_id", "originator"], "unique": True}, ("company_id", "profile_group"),
                        ("company_id", "profile_version")]}  # the listeners written since a station's copy


@stored
class InteractionBatch(Document):
    """Events of one listener from one import as parallel columns; index i of each is one interaction.

    times, channels and timeslots are packed binary (see core.listeners.events.batch_document); the messages are
    sealed with those of the other batches of the same write (core.listeners.sealed_messages); the other lists are
    plain.
    """

    company_id = IntField(required=True)
    originator = StringField(required=True)
    import_id = StringField()
    n = IntField()
    times = BinaryField()  # little-endian int64 epoch milliseconds
    channels = BinaryField()  # little-endian int16
    timeslots = BinaryField()  # little-endian int32, -1 = no show
    campaigns = ListField(StringField())
    messages = ListField(StringField(null=True))  # stored before sealing
    sealed_messages = BinaryField()  # the messages, sealed in the group `message_group`
    message_group = ObjectIdField()
    keys = ListField(StringField())  # idempotency keys: interaction_id or a hash of the whole row
    meta = {"collection": "interactions", "indexes": [("company_id", "originator"), ("company_id", "message_group"),
                                                      ("company_id", "_id")]}  # the batches since a station's copy


@stored
class MessageKey(GroupKey):
    """The content key of one group of interaction batches' messages (core.listeners.sealed_messages)."""

    meta = {"collection": "message_keys", "indexes": [OPEN_GROUP_INDEX]}


@stored
class ProfileKey(GroupKey):
    """The content key of one group of listeners' personal fields (core.listeners.sealed_profiles)."""

    meta = {"collection": "profile_keys", "indexes": [OPEN_GROUP_INDEX]}


@stored
class Suppression(Document):
    """A keyed hash of a number whose interactions are dropped at import (erasure with suppress=true)."""

    company_id = IntField(required=True)
    number_hash = StringField(required=True)
    created_at = DateTimeField(default=utcnow)
    meta = {"collection": "suppressions",
            "indexes": [{"fields": ["company_id", "number_hash"], "unique": True}]}


@stored
class SnapshotDelta(Document):
    """Re-profiled rows of a few listeners, on top of one snapshot file (core.listeners.snapshot): written per live
    batch, read by every process, deleted by the next run that publishes a file (which includes them)."""

    company_id = IntField(required=True)
    base = ObjectIdField(null=True)  # the snapshot file these rows go on (None: the company has none yet)
    seq = IntField(required=True)  # the company's data_version when written: the order of application
    data = BinaryField()  # the rows as in snapshot files: sealed under the base file's key
    vocab = DictField()  # beside the plain npz of deltas written before sealing; sealed within `data` since
    snapshot_meta = DictField(db_field="meta")
    meta = {"collection": "snapshot_deltas", "indexes": [("company_id", "base", "seq")]}


GROUP_KEY_FIELDS = ("_id", "company_id", "key", "open_for", "opened_at", "members", "written")
"""The fields of a group's content key (core.personal.sealed_groups.GroupKey): a key sealed under the vault, and counts,
never a value; each kind of group declares its collection with them."""
MESSAGE_KEYS = declare(Store("message_keys", "message_keys", free=GROUP_KEY_FIELDS))
PROFILE_KEYS = declare(Store("profile_keys", "profile_keys", free=GROUP_KEY_FIELDS))
