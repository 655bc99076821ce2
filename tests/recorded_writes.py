"""What the database holds, field by field, as a copy of its files would: every top-level field of every document
now (`stored`), and of every document written while `recording`, deleted since or not (a lock, a job record, a
staged upload), as the oplog keeps them. For each (collection, field), which of some byte strings (a listener's
number, name) its values held as they are stored.

The recorder listens to the commands of this process's database clients; pymongo tells only the clients made after
a listener is registered, so this module registers it when imported: at collection, before any fixture connects."""
from __future__ import annotations

import threading
from collections import defaultdict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import bson
from bson.binary import UuidRepresentation
from bson.codec_options import CodecOptions
from bson.raw_bson import RawBSONDocument
from pymongo import monitoring

from core.db.connection import get_db

RAW = CodecOptions(document_class=RawBSONDocument)
ENCODED = CodecOptions(uuid_representation=UuidRepresentation.STANDARD)  # the key vault's ids are UUIDs
WITHOUT_VALUES = ("$unset", "$pull", "$pullAll", "$pop")
"""Update operators that write no value (a field they name is one a document already had)."""


class Seen:
    """(collection, top-level field) -> which of `forms` its values held, for every field seen."""

    def __init__(self, forms: Sequence[bytes]) -> None:
        self.forms, self.held = tuple(forms), defaultdict(set)
        self._lock = threading.Lock()  # writes are seen on the threads that make them

    def saw(self, collection: str, field: str, value) -> None:
        raw = bson.encode({"v": value}, codec_options=ENCODED)
        found = {form for form in self.forms if form in raw}
        with self._lock:
            self.held[collection, field.split(".")[0]].update(found)

    def saw_document(self, collection: str, doc) -> None:
        for field, value in doc.items():
            self.saw(collection, field, value)

    def add(self, other: Seen) -> Seen:
        for place, found in other.held.items():
            self.held[place].update(found)
        return self


def stored(forms: Sequence[bytes]) -> Seen:
    """Every document of every collection of the database now: GridFS files and chunks, locks, and the key vault
    when it shares the data's database, included."""
    db, seen = get_db().with_options(codec_options=RAW), Seen(forms)
    for name in db.list_collection_names():
        if not name.startswith("system."):
            for doc in db[name].find():
                seen.saw_document(name, doc)
    return seen


class _Recorder(monitoring.CommandListener):
    """Each insert's documents, each update's values (and an upsert's query) of one database, while `seen` is set."""

    def __init__(self) -> None:
        self.database: str | None = None
        self.seen: Seen | None = None
        self.missed: list[str] = []  # commands that could not be read (pymongo would only log the error)

    def started(self, event) -> None:
        if self.seen is None or event.database_name != self.database:
            return
        try:
            self._read(event.command_name, event.command)
        except Exception as error:  # noqa: BLE001 - kept, so that `recording` fails on a write it could not read
            self.missed.append(f"{event.command_name}: {error!r}")

    def _read(self, name: str, command) -> None:
        collection = command.get(name)
        if name == "insert":
            for doc in command.get("documents", ()):
                self.seen.saw_document(collection, doc)
        elif name == "update":
            for statement in command.get("updates", ()):
                self._updated(collection, statement["q"], statement["u"], statement.get("upsert", False))
        elif name.lower() == "findandmodify" and "update" in command:
            self._updated(collection, command.get("query") or {}, command["update"], command.get("upsert", False))

    def _updated(self, collection: str, query, update, upsert: bool) -> None:
        for stage in update if isinstance(update, list) else [update]:
            if not any(key.startswith("$") for key in stage):
                self.seen.saw_document(collection, stage)  # a replacement
                continue
            for operator, fields in stage.items():
                if operator == "$rename":
                    for new_name in fields.values():
                        self.seen.saw(collection, new_name, None)
                elif operator not in WITHOUT_VALUES:
                    self.seen.saw_document(collection, fields)
        if upsert:
            self.seen.saw_document(collection, {k: v for k, v in query.items() if not k.startswith("$")})

    def succeeded(self, event) -> None:
        pass

    def failed(self, event) -> None:
        pass


_RECORDER = _Recorder()
monitoring.register(_RECORDER)


@contextmanager
def recording(forms: Sequence[bytes]) -> Iterator[Seen]:
    """What the block's writes to the database held, filled as they are made."""
    _RECORDER.database, _RECORDER.seen, _RECORDER.missed = get_db().name, Seen(forms), []
    try:
        yield _RECORDER.seen
    finally:
        seen, _RECORDER.seen = _RECORDER.seen, None
    assert not _RECORDER.missed, _RECORDER.missed
    assert seen.held, "no write was seen: the recorder was registered after the database's client was made"
