"""A sharded cluster takes the service's collections as core.db.sharding says: MongoDB refuses to shard a collection
whose unique index does not start with the shard key, or that holds documents and has no index starting with it, and
a query that names the whole key reaches one shard only. Checked against every declared document, no database."""
from __future__ import annotations

import re
from pathlib import Path

import core.service.startup  # noqa: F401 - imports every package's documents, as a process does
from core.db.documents import documents
from core.db.sharding import SHARD_KEYS, shard_commands
from core.personal.registry import stores

OPERATIONS = Path(__file__).resolve().parents[3] / "docs" / "operations.md"


def _indexes() -> dict[str, list[dict]]:
    """Collection -> its declared indexes as [{'fields': (...), 'unique': bool}], the `_id` index included."""
    found: dict[str, list[dict]] = {}
    for document in documents():
        specs = found.setdefault(document._get_collection_name(), [{"fields": ("_id",), "unique": True}])
        for spec in document._meta["index_specs"]:
            specs.append({"fields": tuple(name for name, _ in spec["fields"]), "unique": bool(spec.get("unique"))})
    for store in stores():  # GridFS's own: pymongo makes a bucket's unique (files_id, n) index
        if store.collection.endswith(".chunks"):
            found[store.collection] = [{"fields": ("_id",), "unique": True},
                                       {"fields": ("files_id", "n"), "unique": True}]
    return found


def test_every_sharded_collection_is_one_the_service_declares():
    assert set(SHARD_KEYS) <= set(_indexes())


def test_every_unique_index_of_a_sharded_collection_starts_with_its_shard_key():
    indexes = _indexes()
    for collection, key in SHARD_KEYS.items():
        for index in indexes[collection]:
            if index["unique"] and index["fields"] != ("_id",):  # _id: unique per shard, ObjectIds made by the driver
                assert index["fields"][:len(key)] == key, (collection, index)


def test_every_sharded_collection_has_an_index_that_starts_with_its_shard_key():
    indexes = _indexes()
    for collection, key in SHARD_KEYS.items():
        assert any(index["fields"][:len(key)] == key for index in indexes[collection]), collection


def test_every_gridfs_bucket_s_chunks_are_sharded_by_their_file():
    buckets = {store.collection for store in stores() if store.collection.endswith(".chunks")}
    assert buckets and all(SHARD_KEYS.get(bucket) == ("files_id", "n") for bucket in buckets)


def test_every_per_listener_collection_is_sharded_by_station_then_listener():
    """A collection with a document per listener (its declared index names the originator) would otherwise grow on
    the primary shard alone."""
    per_listener = {collection for collection, specs in _indexes().items()
                    if any(spec["fields"][:2] == ("company_id", "originator") for spec in specs)}
    assert per_listener <= set(SHARD_KEYS)
    for collection in per_listener:
        assert SHARD_KEYS[collection][0] == "company_id" and SHARD_KEYS[collection][-1] == "originator"


def test_the_operations_page_gives_the_commands_the_code_gives():
    shown = re.findall(r'sh\.shardCollection\("lss\.([\w.]+)", \{([^}]*)\}\)', OPERATIONS.read_text())
    expected = [(command["shardCollection"].removeprefix("lss."), ", ".join(f"{name}: 1" for name in command["key"]))
                for command in shard_commands("lss")[1:]]
    assert shown == expected
