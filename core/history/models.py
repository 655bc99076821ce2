"""The stored points of a station's segment history."""
from __future__ import annotations

from mongoengine import DateTimeField, DictField, Document, IntField, StringField

from core.db.documents import stored
from core.personal.registry import Store, declare


@stored
class HistoryPoint(Document):
    """The station's segments on a day of its own calendar: counted by a full run that day (`source` "run"), or
    rebuilt from its interactions as of a past week's end ("rebuilt"). `moves` are the listeners who moved between
    segments since the point before ({from: {to: n}}, "new" as from for listeners heard for the first time); `new`
    and `lost` count the listeners first heard since then and those who became dormant since then."""

    company_id = IntField(required=True)
    date = StringField(required=True)  # YYYY-MM-DD in the station's zone
    source = StringField(required=True, choices=("run", "rebuilt"))
    as_of = DateTimeField(required=True)
    total = IntField(required=True)
    segments = DictField()
    moves = DictField()
    new = IntField(default=0)
    lost = IntField(default=0)
    meta = {"collection": "segment_history",
            "indexes": [{"fields": ["company_id", "source", "date"], "unique": True}]}


POINTS = declare(Store("segment_history_points", "segment_history", free=(
    "_id", "company_id", "date", "source", "as_of", "total", "segments", "moves", "new", "lost")))
