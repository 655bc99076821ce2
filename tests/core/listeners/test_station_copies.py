"""A whole station's interactions and listeners are read from its copies and what was written since, exactly as the
documents alone would be read: a full run writes the copies, a later read takes them and the documents since (those
in the ten minutes before the copy's read began too, once), and a change in place (an erasure) makes every earlier
copy unreadable and gone, even one a run was writing meanwhile."""
from __future__ import annotations

from datetime import timedelta

import bson
import pytest
from bson import ObjectId

from core import personal
from core.clock import utcnow
from core.db.connection import get_db
from core.listeners import event_copies, listener_copies, station_copies
from core.listeners.declared import declared, read_declared, read_listeners
from core.listeners.events import batch_document, load_events, write_batches
from core.listeners.models import InteractionBatch, Listener
from core.privacy.erasure import erase_listener
from core.segmentation.runs import segment_company
from tests.factories import add_interactions, make_listener, set_fields
from tests.memory import column, event

pytestmark = pytest.mark.db

FAN, NEWBIE, GONE = "27820000001", "27820000002", "27820000003"


def summary(events) -> dict[str, list[tuple]]:
    """Originator -> its interactions (time, channel, campaign type, show), in order: what a reader can tell."""
    found: dict[str, list[tuple]] = {}
    for i, row in enumerate(events.row.tolist()):
        found.setdefault(events.originators[row], []).append(
            (int(events.ts[i]), int(events.channel[i]), events.campaign_vocab[events.campaign[i]],
             int(events.timeslot[i])))
    return {originator: sorted(rows) for originator, rows in found.items()}


def read_from_batches_alone() -> dict[str, list[tuple]]:
    """What the batches alone say: every copy forgotten first."""
    station_copies.forget(1)
    return summary(load_events(1))


def listeners() -> dict[str, dict]:
    """Originator -> the value of each of its declared columns, as a whole-station read gives them."""
    found = read_declared(1)
    return {originator: {name: column(found, name, originator) for name in found.cols}
            for originator in found.originators.tolist()}


def coded(found) -> tuple[dict, dict]:
    """The columns and vocabularies exactly as read (codes, not values), in the rows' order: a vocabulary's order
    is that of its values' first rows."""
    return {name: values.tolist() for name, values in found.cols.items()}, found.vocab


def copies() -> int:
    return station_copies.files().count_documents({"metadata.company_id": 1})


def old_batch(originator: str, days_ago: int, campaign: str) -> None:
    """A batch written days ago (its `_id` says so), as the station's history holds."""
    made = utcnow() - timedelta(days=days_ago)
    doc = batch_document(1, originator, "old", [int(made.timestamp() * 1000)], [2], [campaign], [4], [None],
                         [f"old:{originator}:{days_ago}"])
    doc["_id"] = ObjectId.from_datetime(made)
    write_batches([doc])


@pytest.fixture
def station(app, monkeypatch):
    """Three listeners, two of them with batches written weeks ago, and one full run (which copies them: copies are
    kept of stations of any size here)."""
    monkeypatch.setattr(station_copies, "WORTH_FROM", 0)
    now = utcnow()
    make_listener(1, FAN, [event(d, channel=1 + d % 2, now=now) for d in range(1, 9)], name="Sipho Ndlovu")
    make_listener(1, NEWBIE, [event(2, campaign="competition_entry", now=now)], name="Lerato Mokoena")
    make_listener(1, GONE, [], name="Thandeka Zungu")
    old_batch(FAN, 30, "shoutout")
    old_batch(GONE, 60, "song_request")
    segment_company(1)


def test_a_full_run_copies_what_it_read_and_the_next_read_takes_the_copy(station):
    assert event_copies.copied(1) is not None
    InteractionBatch._get_collection().delete_many({"company_id": 1, "import_id": "old"})
    read = summary(load_events(1))  # the old batches, gone from the collection, are still in the copy
    assert "shoutout" in {row[2] for row in read[FAN]}
    assert GONE in read


def test_the_copy_and_the_batches_since_read_as_the_batches_alone(station):
    add_interactions(1, FAN, [event(0.5)])
    make_listener(1, "27820000009", [event(1, campaign="competition_entry")], name="Ayanda Khumalo")
    with_copy = summary(load_events(1))
    assert with_copy == read_from_batches_alone()
    assert len(with_copy[FAN]) == 10 and "27820000009" in with_copy


def test_a_batch_stored_after_the_copy_but_made_in_the_hour_before_its_read_is_read_once(station):
    began = event_copies.copied(1)[1]
    made = began - timedelta(minutes=8)
    doc = batch_document(1, NEWBIE, "late", [int(made.timestamp() * 1000)], [3], ["song_request"], [None], [None],
                         ["late:1"])
    doc["_id"] = ObjectId.from_datetime(made)
    write_batches([doc])
    with_copy = summary(load_events(1))
    assert with_copy[NEWBIE].count((int(made.timestamp()), 3, "song_request", -1)) == 1
    assert with_copy == read_from_batches_alone()


def test_a_run_after_more_batches_copies_them_too(station):
    add_interactions(1, NEWBIE, [event(0.2)])
    segment_company(1)
    copy, _ = event_copies.copied(1)
    assert copy.counts.sum() == 8 + 1 + 1 + 1 + 1
    assert station_copies.files().count_documents({"metadata.company_id": 1, "metadata.kind": "events"}) == 1


def test_a_copy_made_minutes_after_its_batches_is_made_again_by_the_next_run(station):
    """The fixture's run copied batches written seconds before, so within the margin every read takes them from the
    collection once more: the next run copies them again, under a later read, rather than keeping that copy for good."""
    first = event_copies.copied(1)[1]
    segment_company(1)
    assert event_copies.copied(1)[1] > first


def test_an_erasure_leaves_no_copy_and_the_next_read_names_the_pseudonym(station):
    assert copies() == 2 and personal.keys_named("copy:1:") == 2
    receipt = erase_listener(1, FAN, "test-secret")
    assert copies() == 0 and get_db()[f"{station_copies.BUCKET}.chunks"].count_documents({}) == 0
    assert personal.keys_named("copy:1:") == 0
    read = summary(load_events(1))
    assert FAN not in read and len(read[receipt["pseudonym"]]) == 9
    assert FAN not in listeners() and listeners()[receipt["pseudonym"]]["name"] == b""


def test_a_copy_a_run_read_before_an_erasure_is_deleted_as_it_is_written(station):
    epoch_of_the_read = station_copies.epoch(1)
    erase_listener(1, GONE, "test-secret")  # meanwhile: its listener and batches move to the pseudonym
    assert station_copies.save(1, "listeners", b"what the run read", utcnow(), epoch_of_the_read) is None
    assert copies() == 0
    assert GONE not in summary(load_events(1)) and GONE not in listeners()


def test_the_listeners_copy_and_those_written_since_read_as_the_listeners_alone(station):
    set_fields(1, NEWBIE, name="Lerato Mokoena-Dube")
    make_listener(1, "27820000009", name="Ayanda Khumalo")
    with_copy = listeners()
    assert with_copy[NEWBIE]["name"] == b"lerato mokoena-dube" and with_copy["27820000009"]["name"] == b"ayanda khumalo"
    station_copies.forget(1)
    assert with_copy == listeners()


def test_values_read_beside_the_copy_are_coded_as_a_read_of_every_listener_codes_them(station):
    """A value nobody holds any more leaves the vocabulary; a new one comes in the order of its first listener, a
    tag in sorted order: the run reads the same codes from the copy as from the documents alone."""
    set_fields(1, FAN, gender="male", tags=["zulu", "drive"], location="Durban")
    segment_company(1)  # copies them
    set_fields(1, FAN, gender="female", tags=["breakfast"], location=None)
    set_fields(1, GONE, location="Soweto")
    make_listener(1, "27820000009", name="Ayanda Khumalo", gender="male", tags=["alpha"])
    with_copy = read_declared(1)
    assert with_copy.vocab["gender"] == ["female", "male"] and with_copy.vocab["location"] == ["Soweto"]
    assert with_copy.vocab["tags"] == ["alpha", "breakfast"]
    documents = {doc["originator"]: doc for doc in read_listeners(1)}
    in_the_copys_order = [documents[originator] for originator in with_copy.originators.tolist()]
    assert coded(with_copy) == coded(declared(1, in_the_copys_order))


def test_a_copy_of_documents_as_an_earlier_release_kept_is_read_as_none(station):
    station_copies.forget(1)
    began, epoch = utcnow(), station_copies.epoch(1)
    documents = b"".join(bson.encode({"_id": ObjectId(), "originator": FAN, "name": "Someone Else"}) for _ in range(2))
    station_copies.save(1, "listeners", documents, began, epoch)
    assert listeners()[FAN]["name"] == b"sipho ndlovu" and len(listeners()) == 3


def test_a_full_run_copies_the_listeners_and_the_next_read_takes_the_copy(station):
    Listener._get_collection().delete_one({"company_id": 1, "originator": personal.key_of(1, GONE)})
    assert listeners()[GONE]["name"] == b"thandeka zungu"  # gone from the collection, still in the copy


def test_a_read_of_some_listeners_never_takes_the_copy(station):
    InteractionBatch._get_collection().delete_many({"company_id": 1, "import_id": "old"})
    assert "shoutout" not in {row[2] for row in summary(load_events(1, [FAN]))[FAN]}


def test_a_station_too_small_for_copies_to_be_worth_it_keeps_none(station, monkeypatch):
    monkeypatch.setattr(station_copies, "WORTH_FROM", 4)  # three listeners, and four batches
    station_copies.forget(1)
    segment_company(1)
    assert station_copies.files().count_documents({"metadata.company_id": 1, "metadata.kind": "listeners"}) == 0
    assert station_copies.files().count_documents({"metadata.company_id": 1, "metadata.kind": "events"}) == 1


def test_a_copy_of_the_columns_of_other_fields_is_read_as_none(station, monkeypatch):
    """A release that declares another field reads the copy an earlier one made as none (it has no such column)."""
    Listener._get_collection().delete_one({"company_id": 1, "originator": personal.key_of(1, GONE)})
    monkeypatch.setattr(listener_copies, "FORMAT", listener_copies.FORMAT + ",favourite_presenter")
    assert GONE not in listeners() and FAN in listeners()


def test_the_interactions_copy_holds_its_listeners_named(station):
    copy, _ = event_copies.copied(1)
    assert {FAN, NEWBIE, GONE} <= set(copy.originators)
    assert personal.key_of(1, FAN) not in copy.originators


def test_a_copy_holding_listeners_as_stored_is_named_when_read_and_copied_again_named(station, monkeypatch):
    """As an earlier release copied them: the read names them, and a full run's read copies them again named, though
    no batch was written since."""
    monkeypatch.setattr(station_copies, "MARGIN", timedelta(0))
    copy, _ = event_copies.copied(1)
    copy.originators = [personal.key_of(1, originator) for originator in copy.originators]
    began = utcnow() + timedelta(seconds=2)  # after every batch, to the second the versions tell
    station_copies.save(1, "events", event_copies._packed(copy), began, station_copies.epoch(1))
    with_copy = summary(load_events(1, keep_copy=True))
    assert FAN in event_copies.copied(1)[0].originators
    assert with_copy == read_from_batches_alone()
