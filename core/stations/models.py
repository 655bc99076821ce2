"""The stored documents of stations: the company and its weekly schedule of shows.

A station's own names of its tags are kept as one envelope under a key of the station's own in the key vault
(`tag-labels:<company_id>:<version>`, a new version at every write: core.stations.labels): a tag is text the station
sent, and may hold a listener's number ("call 082 999 0001"). Opened once per version in a process.
"""
from __future__ import annotations

import bson
from bson import ObjectId
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
from core.personal.vault_connection import key_vault
from core.stations import defaults


@stored
class Company(Document):
    """A station: its time zone, country (for public holidays), channel names and segment threshold overrides."""

    company_id = IntField(required=True, unique=True)
    name = StringField(default="")
    timezone = StringField(default=defaults.TIMEZONE)
    country = StringField(default=defaults.COUNTRY)
    channels = DictField()  # str(channel_type) -> name; missing ones fall back to defaults.CHANNELS
    thresholds = DictField()  # overrides of core.segmentation.rules.DEFAULT_THRESHOLDS
    churn_horizon_days = IntField(default=30, min_value=7, max_value=365)  # going quiet: silent this long (core.churn)
    sealed_tag_labels = BinaryField()  # the station's own names of tags, one envelope (see the module's docstring)
    tag_labels_key = StringField()  # the version of the key it is sealed under; None when the station named none
    plain_tag_labels = ListField(DictField(), db_field="tag_labels", default=None)  # [{"tag", "label"}] stored
    # before sealing: still read, sealed in place by `encrypt` (core.stations.labels.seal_plain_labels)
    rate_card = DictField()  # "show:<id>" or "channel:<id>" -> price of a spot or message (core.campaigns.schedule)
    data_version = IntField(default=0)  # bumped by every write that changes what filters see
    snapshot_file = ObjectIdField()  # GridFS id of the current listener snapshot (core.listeners.snapshot)
    copies_epoch = IntField(default=0)  # moved on when documents change in place (core.listeners.station_copies)
    # True once no store holds a listener's plain originator: made so, or keyed by `encrypt` (core.listeners
    # .originator_keys); until then readers look for both forms
    originators_keyed = BooleanField(default=False)
    created_at = DateTimeField(default=utcnow)
    meta = {"collection": "companies"}

    def channel_names(self) -> dict[int, str]:
        """Channel id -> name, station names over the defaults."""
        names = dict(defaults.CHANNELS)
        names.update({int(k): v for k, v in (self.channels or {}).items()})
        return names

    @property
    def tag_labels(self) -> list[dict]:
        """The station's own names of tags, [{"tag", "label"}] by tag, opened."""
        labels = opened_tag_labels(self.company_id, self.tag_labels_key, self.sealed_tag_labels,
                                   self.plain_tag_labels)
        if labels is None:  # a write replaced the envelope, and destroyed its key, since this document was read
            labels = stored_tag_labels(self.company_id)
        return [{"tag": tag, "label": label} for tag, label in sorted(labels.items())]

    @property
    def display_name(self) -> str:
        """The station's name as people read it."""
        return defaults.display_name(self.company_id, self.name)


@stored
class Show(Document):
    """A timeslot: a named show airing on some weekdays between start (inclusive) and end (exclusive), local time."""

    company_id = IntField(required=True)
    timeslot_id = IntField(required=True)
    title = StringField(required=True)
    days = ListField(IntField())
    start = StringField(required=True)
    end = StringField(required=True)
    meta = {"collection": "shows", "indexes": [{"fields": ["company_id", "timeslot_id"], "unique": True}]}


_OPENED: dict[int, tuple[str, dict[str, str]]] = {}
"""company_id -> (version, names) last opened or sealed in this process: a version is never sealed twice, so an entry
is the station's current names or never asked for again; a sealing replaces it, so the names of a version whose key
this process destroys are not kept (a backup restored later cannot be read through it)."""


def tag_labels_key(company_id: int, version: str) -> str:
    """The name of the vault key a version of a station's tag names is sealed under."""
    return f"tag-labels:{company_id}:{version}"


def sealed_tag_labels(company_id: int, labels: dict[str, str]) -> dict:
    """The fields that store these names, sealed under a new key (none for none)."""
    _OPENED.pop(company_id, None)
    if not labels:
        return {"sealed_tag_labels": None, "tag_labels_key": None}
    version = str(ObjectId())
    data = bson.encode({"l": sorted([tag, label] for tag, label in labels.items())})
    envelope = key_vault().seal_bytes(tag_labels_key(company_id, version), data)
    _OPENED[company_id] = (version, dict(labels))
    return {"sealed_tag_labels": bson.Binary(envelope), "tag_labels_key": version}


def opened_tag_labels(company_id: int, version: str | None, envelope: bytes | None,
                      plain: list[dict] | None) -> dict[str, str] | None:
    """The names, tag -> label, stored as these fields; None when their key has been destroyed meanwhile."""
    if envelope is None:
        return {pair["tag"]: pair["label"] for pair in plain or []}  # stored before sealing
    cached = _OPENED.get(company_id)
    if cached is None or cached[0] != version:
        opened = key_vault().unseal_bytes([bytes(envelope)])[0]
        if opened is None:
            return None
        cached = _OPENED[company_id] = (version, dict(bson.decode(opened)["l"]))
    return dict(cached[1])


def stored_tag_labels(company_id: int) -> dict[str, str]:
    """The station's names as the database holds them now, tag -> label."""
    for _ in range(3):  # each miss is a write that replaced the names between the read and the opening
        raw = Company._get_collection().find_one(
            {"company_id": company_id}, {"sealed_tag_labels": 1, "tag_labels_key": 1, "tag_labels": 1}) or {}
        labels = opened_tag_labels(company_id, raw.get("tag_labels_key"), raw.get("sealed_tag_labels"),
                                   raw.get("tag_labels"))
        if labels is not None:
            return labels
    return {}


SHOWS = declare(Store("shows", "shows", free=("_id", "company_id", "timeslot_id", "title", "days", "start", "end")))
