"""Each test starts from an empty database: the emptying between tests deletes only the collections written to since
the last one (tests/conftest.py), so every way of adding documents must be seen."""
from __future__ import annotations

import pytest
from pymongo import ReturnDocument, UpdateOne

from core.db.connection import get_db
from tests.conftest import empty_database

pytestmark = pytest.mark.db


def counts() -> dict[str, int]:
    db = get_db()
    return {name: n for name in db.list_collection_names() if (n := db[name].count_documents({}))}


def test_every_way_of_adding_documents_is_emptied_before_the_next_test(app):
    db = get_db()
    db.plain.insert_one({"a": 1})
    db.upserted.update_one({"_id": 1}, {"$set": {"a": 1}}, upsert=True)
    db.found.find_one_and_update({"_id": 1}, {"$set": {"a": 1}}, upsert=True, return_document=ReturnDocument.AFTER)
    db.bulked.bulk_write([UpdateOne({"_id": 2}, {"$set": {"a": 2}}, upsert=True)])
    with db.client.start_session() as session, session.start_transaction():
        db.in_transaction.insert_one({"a": 1}, session=session)
    assert set(counts()) == {"plain", "upserted", "found", "bulked", "in_transaction"}
    empty_database()
    assert counts() == {}


def test_an_aggregation_that_writes_is_seen_as_a_write(app):
    db = get_db()
    db.source.insert_one({"a": 1})
    db.source.aggregate([{"$out": "copied"}])
    assert set(counts()) == {"source", "copied"}
    empty_database()
    assert counts() == {}
