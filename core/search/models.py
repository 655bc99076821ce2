"""The stored embeddings: one document per listener and model, the source of truth every process builds its FAISS
index from (core.search.index), so that any node can rebuild it and nothing is lost with an index file."""
from __future__ import annotations

from mongoengine import (
    BinaryField,
    DateTimeField,
    DictField,
    Document,
    FloatField,
    IntField,
    ListField,
    ObjectIdField,
    StringField,
)

from core.clock import utcnow
from core.db.documents import stored
from core.personal.registry import Store, declare


@stored
class ListenerEmbedding(Document):
    """A listener's text as one vector: which provider and model made it, a hash of the text it was made from (a
    listener whose text did not change is not embedded again), and `seq`, the company's write counter at the time,
    by which every process picks up the vectors written since it last looked."""

    company_id = IntField(required=True)
    model = StringField(required=True)  # "<provider>:<model>", one index per company and model
    originator = StringField(required=True)
    text_hash = StringField(required=True)
    # What was embedded, the lexical index's document (core.search.lexical), sealed under its group's content key
    # (core.search.sealed_texts); `text_groups`: every group a text of the listener was sealed in, destroyed with
    # erasure. `text`: the plain text of documents written before sealing (`flask --app wsgi encrypt` seals them).
    sealed_text = BinaryField()
    text_group = ObjectIdField()
    text_groups = ListField(ObjectIdField())
    text = StringField()
    vector = BinaryField(required=True)  # float32, L2-normalised
    seq = IntField(required=True)
    updated_at = DateTimeField(default=utcnow)
    meta = {"collection": "listener_embeddings",
            "indexes": [{"fields": ["company_id", "model", "originator"], "unique": True},
                        ("company_id", "model", "seq"), ("company_id", "text_group")]}


@stored
class TextKey(Document):
    """The content key of one group of stored texts, sealed under the group's data key (core.personal.vault): destroying
    that data key makes every copy of the group's texts unreadable."""

    group = ObjectIdField(primary_key=True)
    company_id = IntField(required=True)
    key = BinaryField(required=True)
    meta = {"collection": "text_keys"}


@stored
class EmbeddingCounter(Document):
    """The last `seq` given out per company and model (an atomic $inc hands out the next ones), and the embedding
    runs under way (core.search.progress)."""

    company_id = IntField(required=True)
    model = StringField(required=True)
    seq = IntField(default=0)
    written_at = DateTimeField()
    runs = DictField()
    meta = {"collection": "embedding_counters",
            "indexes": [{"fields": ["company_id", "model"], "unique": True}]}


@stored
class SearchCalibration(Document):
    """How a station's free-word search stands (core.search.calibration): each value's floor of meaning, and what
    an answer's score was worth (the share relevant) on its labelled queries, with the number of vectors it was
    measured on."""

    company_id = IntField(required=True)
    model = StringField(required=True)
    floors = ListField(ListField())  # [keyed phrase, floor]: each value's floor of meaning (core.search.meaning)
    said_queries = IntField()  # how many labelled queries were listeners' own words (never stored themselves)
    upper = ListField(FloatField())
    accuracy = ListField(FloatField())
    samples = IntField(default=0)
    queries = ListField(StringField())
    vectors = IntField(default=0)
    seq = IntField(default=0)  # the index's write counter when it was fitted
    made_at = DateTimeField(default=utcnow)
    meta = {"collection": "search_calibrations", "indexes": [{"fields": ["company_id", "model"], "unique": True}]}


@stored
class LookalikeCalibration(Document):
    """A station's map from the raw behaviour similarity of look-alikes to the share that shared the listener's main
    traits (core.search.lookalike_calibration), with the snapshot file it was measured on."""

    company_id = IntField(required=True)
    model = StringField(required=True)  # the representation measured (core.search.lookalikes.MODEL)
    upper = ListField(FloatField())
    accuracy = ListField(FloatField())
    samples = IntField(default=0)
    seeds = IntField(default=0)
    listeners = IntField(default=0)
    file = StringField()  # the snapshot file (a full run) it was fitted on: a new file fits it again
    made_at = DateTimeField(default=utcnow)
    meta = {"collection": "lookalike_calibrations",
            "indexes": [{"fields": ["company_id", "model"], "unique": True}]}


TEXT_KEYS = declare(Store("text_keys", "text_keys", free=("_id", "company_id", "key")))
COUNTERS = declare(Store("embedding_counters", "embedding_counters", free=(
    "_id", "company_id", "model", "seq", "written_at", "runs")))
SEARCH_CALIBRATIONS = declare(Store("search_calibrations", "search_calibrations", free=(
    "_id", "company_id", "model", "upper", "accuracy", "samples",
    "queries",  # values of the station's listeners (tags, places, languages), each held by at least 10 of them
    "floors",  # keyed hashes of the station's value names (core.personal.keyed), with a similarity each
    "said_queries",  # a count: the words themselves are never stored
    "vectors", "seq", "made_at")))
LOOKALIKE_CALIBRATIONS = declare(Store("lookalike_calibrations", "lookalike_calibrations", free=(
    "_id", "company_id", "model", "upper", "accuracy", "samples", "seeds", "listeners", "file", "made_at")))
