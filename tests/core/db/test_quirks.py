"""The SecantusDB differences that core.db.quirks works around, reproduced, so that a release that fixes one shows."""
from __future__ import annotations

import threading
from datetime import UTC, datetime

import numpy as np
import pytest
from pymongo.uri_parser import parse_uri

from core.db import quirks
from core.db.connection import get_db
from core.db.embedded import uri_of_port
from core.db.quirks import is_secantus

pytestmark = pytest.mark.db


def test_a_stored_date_compared_with_now_is_wrong_on_secantus_only(app):
    db = get_db()
    db["quirk"].insert_one({"at": datetime(2000, 1, 1, tzinfo=UTC)})
    [row] = db["quirk"].aggregate([{"$project": {"past": {"$lt": ["$at", "$$NOW"]}}}])
    assert row["past"] is not is_secantus(db)


class Counting:
    """A collection that counts the documents its finds hand out."""

    def __init__(self, collection):
        self.collection, self.read = collection, 0

    def find(self, *args, **kwargs):
        cursor = self.collection.find(*args, **kwargs)
        try:
            for doc in cursor:
                self.read += 1
                yield doc
        finally:
            cursor.close()  # an abandoned range closes its cursor now, not at collection by a background task


@pytest.fixture
def batches(app, monkeypatch):
    """600 listeners with 1 to 3 documents each; ranges of 20 wanted listeners above 10."""
    monkeypatch.setattr(quirks, "RANGE_ABOVE", 10)
    monkeypatch.setattr(quirks, "RANGE_CHUNK", 20)
    collection = get_db()["quirk_batches"]
    collection.create_index([("company_id", 1), ("originator", 1)])
    collection.insert_many([{"company_id": 1, "originator": f"+27{i:09d}", "part": part}
                            for i in range(600) for part in range(1 + i % 3)])
    collection.insert_one({"company_id": 2, "originator": "+27000000003", "part": 0})
    return Counting(collection)


EVERYONE = np.array([f"+27{i:09d}" for i in range(600)])


def _read(batches, wanted, exact=True, population=None):
    return sorted((d["originator"], d["part"])
                  for d in quirks.find_by_originator(batches, 1, wanted, exact=exact, population=population))


def _all_of(wanted):
    return sorted((o, part) for o in wanted for part in range(1 + int(o[3:]) % 3))


@pytest.mark.parametrize("population", [None, EVERYONE])
@pytest.mark.parametrize("step", [1, 2, 50])
def test_every_document_of_the_wanted_listeners_is_read_once_however_spread_they_are(batches, step, population):
    wanted = [f"+27{i:09d}" for i in range(0, 600, step)]
    assert _read(batches, wanted, population=population) == _all_of(wanted)


def test_listeners_spread_thin_are_looked_up_rather_than_read_with_everything_between_them(batches):
    wanted = [f"+27{i:09d}" for i in range(0, 600, 20)]  # 30 of 600: every range would span the whole company
    assert _read(batches, wanted, population=EVERYONE) == _all_of(wanted)
    assert batches.read == len(_all_of(wanted))


def test_a_caller_that_checks_membership_itself_still_gets_every_wanted_document(batches):
    wanted = [f"+27{i:09d}" for i in range(0, 600, 7)]
    assert set(_all_of(wanted)) <= set(_read(batches, wanted, exact=False))


def test_racing_first_updates_of_a_new_document_each_get_the_document_back(app):
    collection = get_db()["quirk_counters"]
    collection.create_index("key", unique=True)
    start, answers = threading.Barrier(20), []

    def bump():
        start.wait()
        answers.append(quirks.updated_creating(collection, {"key": "k"}, {"$inc": {"n": 1}}, {"n": 0}))

    threads = [threading.Thread(target=bump) for _ in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answer["n"] for answer in answers) == list(range(1, 21))
    assert collection.count_documents({}) == 1


def test_an_insert_retried_after_it_was_applied_is_taken_as_done_and_nothing_is_stored_twice(app):
    """What the driver's retry met on SecantusDB under load: the same documents, with the `_id`s the first attempt
    gave them, sent again after they were stored."""
    collection = get_db()["retried_inserts"]
    docs = [{"n": n} for n in range(5)]
    collection.insert_many(docs)  # the first attempt: the driver gives each document its _id
    quirks.insert_all(collection, [dict(doc) for doc in docs] + [{"n": 5}])  # the retry, and one more
    assert sorted(d["n"] for d in collection.find({}, {"_id": 0})) == [0, 1, 2, 3, 4, 5]


def test_a_retried_insert_refused_by_another_unique_index_is_taken_as_done(app):
    collection = get_db()["retried_unique_inserts"]
    collection.create_index("key", unique=True)
    docs = [{"key": k} for k in "abc"]
    collection.insert_many(docs)
    quirks.insert_all(collection, [dict(doc) for doc in docs] + [{"key": "d"}])
    assert sorted(d["key"] for d in collection.find({}, {"_id": 0})) == ["a", "b", "c", "d"]


def test_an_insert_refused_by_another_unique_index_still_fails(app):
    from pymongo.errors import BulkWriteError

    collection = get_db()["unique_inserts"]
    collection.create_index("key", unique=True)
    collection.insert_one({"key": "a"})
    with pytest.raises(BulkWriteError):
        quirks.insert_all(collection, [{"key": "a"}, {"key": "b"}])


class Windows(Counting):
    """A collection that records the `seq` bounds of each find."""

    def __init__(self, collection):
        super().__init__(collection)
        self.asked = []

    def find(self, query, *args, **kwargs):
        self.asked.append((query["seq"]["$gt"], query["seq"]["$lte"]))
        return super().find(query, *args, **kwargs)


def test_what_was_written_since_a_seq_is_read_window_by_window_once_each_and_nothing_outside(app, monkeypatch):
    monkeypatch.setattr(quirks, "SEQ_WINDOW", 3)
    collection = get_db()["quirk_seq"]
    collection.create_index([("company_id", 1), ("model", 1), ("seq", 1)])
    collection.insert_many([{"company_id": 1, "model": "m", "seq": seq} for seq in (1, 2, 3, 4, 6, 7, 9, 10, 11)]
                           + [{"company_id": 1, "model": "other", "seq": 5}, {"company_id": 2, "model": "m", "seq": 5}])
    windows = Windows(collection)
    read = [doc["seq"] for doc in quirks.by_seq(windows, {"company_id": 1, "model": "m"}, 2, 10, {"_id": 0, "seq": 1})]
    assert read == [3, 4, 6, 7, 9, 10]
    assert windows.asked == [(2, 5), (5, 8), (8, 10)]
    assert list(quirks.by_seq(windows, {"company_id": 1, "model": "m"}, 10, 10)) == []


def test_the_embedded_server_is_waited_for_seconds_before_it_is_taken_for_down():
    """Its `hello` waits behind the reads it is serving: a second's patience cancelled a whole-station read under
    load. A MongoDB keeps the service's setting, at least a second."""
    assert quirks.connect_timeout_ms(400, embedded=False) == 1000
    assert quirks.connect_timeout_ms(3000, embedded=False) == 3000
    assert quirks.connect_timeout_ms(400, embedded=True) >= 5000


def test_the_servers_this_service_starts_are_written_to_without_retryable_writes(app):
    """Each retryable write makes SecantusDB scan (and past 10,000, sort) every one it recorded: the service's
    connection to a server it started, like the tests' own, turns them off."""
    assert get_db().client.options.retry_writes is False
    assert parse_uri(uri_of_port(27017, "10.0.0.2"))["options"]["retryWrites"] is False
