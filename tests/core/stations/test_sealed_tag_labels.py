"""A station's names of its tags are personal until shown otherwise (issue 48, item 3): a tag is text the station
sent ("call 082 999 0001") and a name is what a producer typed, so the pairs are stored as one envelope under a key
of the station's own, sealed again under a new key at every change with the old key destroyed. Readers see the same
names; a station stored before sealing still reads and `seal_plain_labels` seals it once; erasure drops a name whose
tag names the listener and replaces the listener in the others."""
from __future__ import annotations

import bson
import pytest

from core import personal
from core.db.connection import get_db
from core.personal import spellings_of
from core.personal.registry import Erasure
from core.stations.companies import get_company
from core.stations.labels import erase_labels, seal_plain_labels, set_tag_labels, tag_labels
from core.stations.models import Company, sealed_tag_labels

pytestmark = pytest.mark.db

NUMBER, NAME = "27829990001", "Zanele Qwertyuiop"
TAG = "call 082 999 0001"
LABELS = {TAG: "Call back", "vip": f"{NAME}'s circle", "gospel": "Gospel lovers"}


def raw() -> dict:
    return get_db()["companies"].find_one({"company_id": 1})


def stored() -> bytes:
    """Every company document as the database holds it."""
    return b"".join(bson.encode(doc) for doc in get_db()["companies"].find())


def opens(envelope: bytes) -> bool:
    return personal.opened(envelope) is not None


def plain_station(labels: dict[str, str]) -> None:
    """A station as stored before the names were sealed."""
    get_db()["companies"].insert_one({"company_id": 1, "name": "", "tag_labels": [
        {"tag": tag, "label": label} for tag, label in sorted(labels.items())]})


def erasure() -> Erasure:
    return Erasure(company_id=1, originator=NUMBER, pseudonym="p-1", spellings=spellings_of([NUMBER], [NAME]))


def test_the_stored_station_holds_no_tag_or_name_in_plain_text(app):
    set_tag_labels(1, LABELS)
    assert "tag_labels" not in raw() and raw()["sealed_tag_labels"]
    assert b"999" not in stored() and b"Zanele" not in stored() and b"Gospel" not in stored()


def test_readers_see_the_names_as_they_were_given(app):
    set_tag_labels(1, LABELS)
    assert tag_labels(1) == LABELS
    assert get_company(1).tag_labels == [{"tag": tag, "label": LABELS[tag]} for tag in sorted(LABELS)]


def test_a_change_seals_the_names_under_a_new_key_and_destroys_the_old_one(app):
    set_tag_labels(1, LABELS)
    before = raw()
    set_tag_labels(1, {"vip": ""})
    assert raw()["tag_labels_key"] != before["tag_labels_key"]
    assert not opens(before["sealed_tag_labels"]) and opens(raw()["sealed_tag_labels"])
    assert tag_labels(1) == {TAG: "Call back", "gospel": "Gospel lovers"}


def test_naming_none_keeps_no_envelope_and_no_key(app):
    set_tag_labels(1, {"vip": "VIP circle"})
    before = raw()
    set_tag_labels(1, {"vip": ""})
    assert raw()["sealed_tag_labels"] is None and not opens(before["sealed_tag_labels"]) and tag_labels(1) == {}


def test_a_document_read_before_another_process_changed_the_names_reads_the_new_ones(app):
    set_tag_labels(1, LABELS)
    read_earlier = Company.objects.get(company_id=1)
    assert tag_labels(1) == LABELS  # opened, and kept for this version
    set_tag_labels(1, {"gospel": "Gospel Sunday"})  # the old key destroyed
    assert tag_labels(1)["gospel"] == "Gospel Sunday"
    assert {pair["tag"]: pair["label"] for pair in read_earlier.tag_labels}["gospel"] == "Gospel Sunday"


def test_names_written_by_another_process_are_read_at_once(app):
    set_tag_labels(1, LABELS)
    assert tag_labels(1) == LABELS
    get_db()["companies"].update_one({"company_id": 1}, {"$set": sealed_tag_labels(1, {"vip": "VIP circle"})})
    assert tag_labels(1) == {"vip": "VIP circle"}


def test_a_station_stored_before_sealing_still_reads(app):
    plain_station(LABELS)
    assert tag_labels(1) == LABELS
    assert get_company(1).tag_labels == [{"tag": tag, "label": LABELS[tag]} for tag in sorted(LABELS)]


def test_seal_plain_labels_seals_a_station_stored_plain_once(app):
    plain_station(LABELS)
    assert seal_plain_labels(1) == 1
    assert "tag_labels" not in raw() and b"999" not in stored() and b"Zanele" not in stored()
    assert tag_labels(1) == LABELS
    key = raw()["tag_labels_key"]
    assert seal_plain_labels(1) == 0 and raw()["tag_labels_key"] == key


def test_a_change_to_a_station_stored_plain_keeps_its_names_and_seals_them(app):
    plain_station(LABELS)
    set_tag_labels(1, {"vip": ""})
    assert "tag_labels" not in raw() and tag_labels(1) == {TAG: "Call back", "gospel": "Gospel lovers"}


def test_erasure_drops_a_name_whose_tag_names_the_listener_and_replaces_them_in_the_others(app):
    set_tag_labels(1, LABELS)
    before = raw()
    assert erase_labels(erasure()) == 2
    assert tag_labels(1) == {"vip": "[erased]'s circle", "gospel": "Gospel lovers"}
    assert not opens(before["sealed_tag_labels"])


def test_erasure_of_a_listener_no_name_mentions_writes_nothing(app):
    set_tag_labels(1, {"gospel": "Gospel lovers"})
    key = raw()["tag_labels_key"]
    assert erase_labels(erasure()) == 0 and raw()["tag_labels_key"] == key


def test_erasure_on_a_station_stored_plain_leaves_it_sealed_without_the_listener(app):
    plain_station(LABELS)
    assert erase_labels(erasure()) == 2
    assert "tag_labels" not in raw() and b"Zanele" not in stored()
    assert tag_labels(1) == {"vip": "[erased]'s circle", "gospel": "Gospel lovers"}


def test_a_backup_taken_before_an_erasure_and_restored_yields_no_names(app):
    set_tag_labels(1, LABELS)
    backup = raw()
    erase_labels(erasure())
    get_db()["companies"].replace_one({"company_id": 1}, backup)  # restored, in the process that erased
    assert tag_labels(1) == {} and get_company(1).tag_labels == []
