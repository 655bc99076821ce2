"""Each test starts from an empty database, or from exactly the image a `kept` fixture restores: the emptying between
tests deletes only the collections written to since the last one, and a restore lays down again only the collections
changed since the same image was last laid (tests/conftest.py), so every way of changing documents must be seen."""
from __future__ import annotations

import threading

import pytest
from pymongo import ReturnDocument, UpdateOne

from core.db.connection import get_db
from tests.conftest import _WRITES, empty_database, restored

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


def contents() -> dict[str, list]:
    db = get_db()
    return {name: sorted(map(str, db[name].find())) for name in db.list_collection_names()
            if db[name].count_documents({})}


def _image() -> str:
    db = get_db()
    db.kept_a.insert_many([{"_id": n, "v": n} for n in range(3)])
    db.kept_b.insert_one({"_id": 1, "v": "b"})
    return "built"


def test_an_image_changed_every_way_comes_back_exactly(app):
    assert restored("test-image", _image) == "built"
    image = contents()
    db = get_db()
    db.kept_a.update_one({"_id": 0}, {"$set": {"v": "changed"}})
    db.kept_a.delete_one({"_id": 1})
    db.kept_b.find_one_and_update({"_id": 1}, {"$set": {"v": "changed"}})
    db.kept_b.bulk_write([UpdateOne({"_id": 2}, {"$set": {"v": 2}}, upsert=True)])
    db.not_in_image.insert_one({"a": 1})
    assert contents() != image
    assert restored("test-image", _image) == "built"
    assert contents() == image


def test_an_image_after_an_unknown_write_or_an_emptying_comes_back_exactly(app):
    restored("test-image", _image)
    image = contents()
    db = get_db()
    db.kept_a.aggregate([{"$match": {}}, {"$out": "copied"}])
    restored("test-image", _image)
    assert contents() == image
    empty_database()
    assert restored("test-image", _image) == "built" and contents() == image


def test_a_fixture_s_write_before_its_image_is_laid_fails_the_set_up_rather_than_vanishing(app):
    _WRITES.watch_before_image()  # what `app` does when one of the test's fixtures lays an image
    get_db().api_keys.insert_one({"a": 1})
    with pytest.raises(AssertionError, match="api_keys"):
        restored("test-image", _image)


def test_another_thread_s_write_before_the_image_is_laid_is_emptied_as_before(app):
    _WRITES.watch_before_image()
    writer = threading.Thread(target=lambda: get_db().left_by_a_thread.insert_one({"a": 1}))
    writer.start()
    writer.join()
    restored("test-image", _image)
    assert "left_by_a_thread" not in contents()
