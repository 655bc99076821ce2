"""Listeners' personal fields are sealed: none is stored plain, every reader sees them, two writers of one listener
both land, and once a listener is erased no copy of their fields (a backup taken before) can be read, while the
others' fields still read."""
from __future__ import annotations

import bson
import pytest

from core import personal
from core.explore.listener import get_listener
from core.ingest.importer import import_rows
from core.listeners import sealed_profiles, sealed_writes
from core.listeners.declared import read_listeners
from core.listeners.models import Listener, ProfileKey
from core.privacy.encrypt import encrypt_stations
from core.privacy.erasure import erase_listener
from tests.factories import make_company, raw_listener, set_fields, stored_before_keys, stored_listener
from tests.memory import NOW

pytestmark = pytest.mark.db

PEOPLE = {"27830000001": ("Thandeka Zungu", "thandeka@example.org", "isiZulu"),
          "27830000002": ("Sipho Ndlovu", "sipho@example.org", "Sesotho"),
          "27830000003": ("Lerato Mokoena", "lerato@example.org", "Setswana")}


def row(originator: str) -> dict:
    name, email, language = PEOPLE[originator]
    return {"company_id": 1, "originator": originator, "name": name, "email": email, "language": language,
            "tags": ["gospel"], "opt_in": True}


@pytest.fixture
def station(app):
    import_rows("profiles", enumerate(map(row, PEOPLE), 1), now=NOW, resegment=False)


def stored() -> list[dict]:
    """Every listener document, as a copy of the database (a backup) holds it."""
    return list(Listener._get_collection().find({}))


def test_no_personal_value_is_stored_plain_and_every_reader_sees_them(station):
    raw = b"".join(bson.encode(doc) for doc in stored()).lower()
    words = [w.lower() for person in PEOPLE.values() for value in person for w in value.split()] + ["gospel"]
    words += [*PEOPLE, *(number[2:] for number in PEOPLE)]  # the originators, with or without the country code
    assert [w for w in words if w.encode() in raw] == []
    by_originator = {doc["originator"]: doc for doc in read_listeners(1)}
    assert {o: (d["name"], d["email"], d["language"], d["tags"], d["opt_in"]) for o, d in by_originator.items()} == \
        {o: (*person[:2], person[2], ["gospel"], True) for o, person in PEOPLE.items()}
    assert get_listener(1, "27830000002")["declared"]["name"] == "Sipho Ndlovu"
    assert all(doc["opt_in"] is True for doc in stored())  # the consents stay plain: they are asked of the database


def test_two_writers_of_one_listener_both_land(station):
    """The second write is made between the first one's read and its write: without the condition on the version
    read, the first would store its stale copy of the fields and undo the second."""
    calls = []

    def first(fields: dict) -> dict:
        calls.append(fields.get("location"))
        if len(calls) == 1:
            set_fields(1, "27830000001", location="Umlazi")
        return {"education": "Matric"}

    assert sealed_writes.edit(1, {"27830000001": first}) == {"27830000001"}
    assert calls == [None, "Umlazi"]  # read again after losing the race
    listener = stored_listener(1, "27830000001")
    assert (listener.location, listener.education, listener.name) == ("Umlazi", "Matric", "Thandeka Zungu")


def test_a_writer_that_read_a_listener_before_another_s_erasure_writes_into_the_new_group(station):
    group = raw_listener(1, "27830000002")["profile_group"]

    def meanwhile(fields: dict) -> dict:
        if fields.get("location") is None and ProfileKey.objects(group=group).count():
            erase_listener(1, "27830000001", "test-secret")  # moves the others out of the group, destroys its key
        return {"location": "Soweto"}

    assert sealed_writes.edit(1, {"27830000002": meanwhile}) == {"27830000002"}
    listener = stored_listener(1, "27830000002")
    assert (listener.name, listener.location) == ("Sipho Ndlovu", "Soweto")
    assert raw_listener(1, "27830000002")["profile_group"] != group
    assert ProfileKey.objects(group=group).count() == 0


def test_after_erasure_a_backup_copy_reads_nothing_and_the_others_read(station):
    backup = {doc["originator"]: doc for doc in stored()}
    receipt = erase_listener(1, "27830000001", "test-secret")
    assert receipt["stores"]["listeners"] == 1
    copy = [dict(doc) for doc in backup.values()]
    assert [doc.get("name") for doc in sealed_profiles.opened(copy)] == [None, None, None]
    assert [stored_listener(1, o).name for o in ("27830000002", "27830000003")] == ["Sipho Ndlovu", "Lerato Mokoena"]
    erased = Listener._get_collection().find_one({"originator": receipt["pseudonym"]})
    assert "profile" not in erased and erased["erased_at"] is not None


def test_an_erased_listener_takes_no_more_writes(station):
    raw = raw_listener(1, "27830000003")
    erase_listener(1, "27830000003", "test-secret")
    Listener._get_collection().update_one({"_id": raw["_id"]}, {"$set": {"originator": raw["originator"]}})
    assert sealed_writes.edit(1, {"27830000003": lambda _: {"name": "Lerato M"}}) == set()
    assert "profile" not in Listener._get_collection().find_one({"_id": raw["_id"]})


def test_a_few_listeners_without_a_group_share_the_station_s_open_group(app):
    make_company(1)
    Listener._get_collection().insert_many([{"company_id": 1, "originator": personal.key_of(1, o)}
                                            for o in PEOPLE])  # under their keys, without a group
    for originator, (name, _, _) in PEOPLE.items():
        set_fields(1, originator, name=name)
    groups = {doc["profile_group"] for doc in stored()}
    assert len(groups) == 1 and ProfileKey.objects(group=groups.pop()).get().open_for == 1
    erase_listener(1, "27830000001", "test-secret")
    assert [stored_listener(1, o).name for o in ("27830000002", "27830000003")] == ["Sipho Ndlovu", "Lerato Mokoena"]


def test_encrypt_seals_plain_listeners_in_place_and_a_second_run_seals_none(app):
    make_company(1)
    stored_before_keys(1)
    Listener._get_collection().insert_many([{"company_id": 1, "originator": o, "name": name, "email": email,
                                             "tags": ["gospel"], "opt_in": False}
                                            for o, (name, email, _) in PEOPLE.items()])
    assert encrypt_stations()["sealed"] == [1]
    assert all("name" not in doc and "tags" not in doc and doc["opt_in"] is False for doc in stored())
    assert {doc["originator"] for doc in stored()} == {raw_listener(1, o)["originator"] for o in PEOPLE}
    assert not any(o.encode() in bson.encode(doc) for doc in stored() for o in PEOPLE)
    assert [stored_listener(1, o).name for o in PEOPLE] == [person[0] for person in PEOPLE.values()]
    assert sealed_writes.seal_plain(1) == 0
