"""Interaction messages are sealed a write at a time: no message is stored plain, a day of live batches shares one key,
and once a listener is erased no copy of any of their messages (a backup taken before) can be read, while the others'
messages still read, including a live batch stored while the erasure ran."""
from __future__ import annotations

import threading
import time

import bson
import pytest
from bson import ObjectId

from core.ingest.importer import import_rows
from core.ingest.live import record_interactions
from core.listeners import sealed_messages
from core.listeners.events import batch_document, listener_history
from core.listeners.models import InteractionBatch, MessageKey
from core.personal import originator_keys, sealed_groups
from core.personal.vault_connection import key_vault
from core.privacy.encrypt import encrypt_stations
from core.privacy.erasure import erase_listener
from core.search.texts import latest_messages
from tests.factories import make_company, stored_before_keys
from tests.memory import NOW

pytestmark = pytest.mark.db

SAID = {"27830000001": "Play Jerusalema for my gogo in Umlazi", "27830000002": "Load shedding again in Soweto",
        "27830000003": "Traffic on the N3 near Harrismith"}


def row(originator: str, message: str | None, minutes: int = 0) -> dict:
    return {"company_id": 1, "originator": originator, "timestamp": (NOW.replace(hour=8, minute=minutes)).isoformat(),
            "channel_type": 2, "campaign_type": "song_request", **({"message": message} if message else {})}


@pytest.fixture
def station(app):
    record_interactions(1, [row(o, said) for o, said in SAID.items()], now=NOW)


def stored() -> list[dict]:
    """Every interaction batch, as a copy of the database (a backup) holds it."""
    return list(InteractionBatch._get_collection().find({}))


def insert_as_written(batch: dict) -> None:
    """Store a batch document as core.listeners.events.write_batches does: under its listener's key, with the `_id`
    the writer's own copy holds."""
    batch["_id"] = ObjectId()
    key = originator_keys.key_of(batch["company_id"], batch["originator"])
    InteractionBatch._get_collection().insert_one({**batch, "originator": key})


def said(docs: list[dict]) -> dict[str, list]:
    """Each listener's messages in these batch documents, by originator (the documents hold its key)."""
    names = {originator_keys.key_of(1, o): o for o in [*SAID, *(f"278300000{n:02d}" for n in range(4, 21))]}
    return {names.get(doc["originator"], doc["originator"]): doc.get("messages")
            for doc in sealed_messages.opened(docs)}


def test_no_message_is_stored_plain_and_each_reads_back(station):
    raw = b"".join(bson.encode(doc) for doc in stored()).lower()
    assert [w for w in (b"jerusalema", b"umlazi", b"shedding", b"harrismith", b"2783000000") if w in raw] == []
    assert said(stored()) == {o: [message] for o, message in SAID.items()}
    assert listener_history(1, "27830000001", now=NOW).message == [SAID["27830000001"]]
    assert latest_messages(1, list(SAID)) == {o: [message] for o, message in SAID.items()}


def test_live_batches_share_the_stations_open_group(station):
    keys_before = key_vault().collection.count_documents({})
    record_interactions(1, [row("27830000004", "Greetings to Thandeka", 5)], now=NOW)
    record_interactions(1, [row("27830000005", "Shout out to Durban", 6)], now=NOW)
    assert len({doc["message_group"] for doc in stored()}) == 1
    assert key_vault().collection.count_documents({}) == keys_before
    assert MessageKey._get_collection().find_one({})["written"] == 5


def test_after_erasure_a_backup_reads_none_of_their_messages_and_the_others_read_live(station):
    backup = stored()
    erase_listener(1, "27830000001", "test-secret")
    assert [doc.get("messages") for doc in sealed_messages.opened(backup)] == [[], [], []]  # the group's key is gone
    live = said(stored())
    assert {o: live[o] for o in ("27830000002", "27830000003")} == {
        "27830000002": [SAID["27830000002"]], "27830000003": [SAID["27830000003"]]}
    assert b"Jerusalema" not in b"".join(bson.encode(doc) for doc in stored())
    record_interactions(1, [row("27830000002", "One more for the road", 9)], now=NOW)
    assert listener_history(1, "27830000002", now=NOW).message == [SAID["27830000002"], "One more for the road"]


def test_a_live_batch_claimed_before_an_erasure_and_stored_during_it_still_reads(station):
    """The erasure closes the group and waits for the claimed batch, then writes it again under a new key; without
    the wait it would be sealed under a destroyed key and its message lost."""
    late = batch_document(1, "27830000009", "late", [int(NOW.timestamp() * 1000)], [2], ["song_request"], [None],
                          ["Sorry I am late"], ["late:1"])
    claimed = sealed_messages.seal([late], shared=True)

    def store_late():
        time.sleep(0.5)
        insert_as_written(late)
        for group, count in claimed:
            sealed_messages.GROUPS.written(group, count)

    writer = threading.Thread(target=store_late)
    writer.start()
    erase_listener(1, "27830000001", "test-secret")
    writer.join()
    assert said(stored())["27830000009"] == ["Sorry I am late"]


def test_a_live_batch_stored_after_an_erasure_stopped_waiting_for_it_is_sealed_again_and_reads(station, monkeypatch):
    monkeypatch.setattr(sealed_groups, "SETTLE_SECONDS", 0.1)
    late = batch_document(1, "27830000009", "late", [int(NOW.timestamp() * 1000)], [2], ["song_request"], [None],
                          ["Sorry I am very late"], ["late:1"])
    with sealed_messages.sealed([late], shared=True):
        erase_listener(1, "27830000001", "test-secret")  # stops waiting for `late`, destroys the open group
        insert_as_written(late)
    assert said(stored())["27830000009"] == ["Sorry I am very late"]
    assert said(stored())["27830000002"] == [SAID["27830000002"]]


def test_encrypt_seals_plain_messages_in_place_and_resumes(app):
    make_company(1)
    plain = [batch_document(1, f"2783000001{n}", "old", [int(NOW.timestamp() * 1000)], [2], ["song_request"], [None],
                            [f"Old message {n}"], [f"old:{n}"]) for n in range(3)]
    plain.append(batch_document(1, "27830000020", "old", [int(NOW.timestamp() * 1000)], [2], ["poll"], [None],
                                [None], ["old:none"]))
    stored_before_keys(1)
    InteractionBatch._get_collection().insert_many(plain)
    encrypt_stations()
    raw = b"".join(bson.encode(doc) for doc in stored())
    assert b"Old message" not in raw and b"2783000001" not in raw and b"27830000020" not in raw
    assert said(stored()) == {**{f"2783000001{n}": [f"Old message {n}"] for n in range(3)}, "27830000020": None}
    assert sealed_messages.seal_plain(1) == 0


def test_an_import_of_two_stations_seals_each_stations_messages_under_keys_of_its_own(app):
    rows = [{**row(f"2783000010{n}", f"Hello from station {company_id}"), "company_id": company_id}
            for company_id in (1, 2) for n in range(3)]
    import_rows("interactions", enumerate(rows, start=1), now=NOW, resegment=False)
    groups = {doc["_id"]: doc["company_id"] for doc in MessageKey._get_collection().find()}
    assert {(doc["company_id"], groups[doc["message_group"]]) for doc in stored()} == {(1, 1), (2, 2)}
    assert {company_id: {m for doc in sealed_messages.opened(
        [d for d in stored() if d["company_id"] == company_id]) for m in doc["messages"]} for company_id in (1, 2)} == {
        1: {"Hello from station 1"}, 2: {"Hello from station 2"}}
