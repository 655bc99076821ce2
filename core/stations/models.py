"""The stored documents of stations: the company and its weekly schedule of shows."""
from __future__ import annotations

from mongoengine import (
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
    tag_labels = ListField(DictField())  # [{"tag", "label"}]: the station's own names of tags (core.stations.labels)
    rate_card = DictField()  # "show:<id>" or "channel:<id>" -> price of a spot or message (core.campaigns.schedule)
    data_version = IntField(default=0)  # bumped by every write that changes what filters see
    snapshot_file = ObjectIdField()  # GridFS id of the current listener snapshot (core.listeners.snapshot)
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
