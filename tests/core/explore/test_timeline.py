"""A listener's interaction timeline: newest first across every import, paged without overlap, channels and shows
named by the station, read from that listener's own batches, and gone with an erasure."""
from __future__ import annotations

from datetime import datetime

import pytest

from core import personal
from core.errors import ListenerNotFound, ValidationFailed
from core.explore import timeline as timeline_module
from core.explore.timeline import listener_timeline
from core.listeners.models import InteractionBatch
from core.privacy.erasure import erase_listener
from core.stations.models import Show
from tests.factories import add_interactions, make_company, make_listener
from tests.memory import NOW, event

LERATO, SIPHO = "27820000001", "27820000002"


def days_ago(timeline: dict) -> list[int]:
    """The entries' ages in whole days before NOW, as the timeline lists them."""
    return [round((NOW - datetime.fromisoformat(e["at"])).total_seconds() / 86400) for e in timeline["entries"]]


@pytest.mark.db
def test_the_timeline_is_newest_first_across_every_import(app):
    make_listener(1, LERATO, [event(5), event(1), event(9)])
    add_interactions(1, LERATO, [event(3), event(12), event(0)], import_id="second")
    timeline = listener_timeline(1, LERATO)
    assert days_ago(timeline) == [0, 1, 3, 5, 9, 12]
    assert timeline["total"] == 6 and timeline["pages"] == 1


@pytest.mark.db
def test_pages_of_the_timeline_neither_overlap_nor_skip_an_interaction(app):
    same_moment = [event(2, message=f"tie {i}") for i in range(4)]  # four interactions of one millisecond
    make_listener(1, LERATO, [event(d / 10, message=f"at {d}") for d in range(1, 9)] + same_moment)
    pages = [listener_timeline(1, LERATO, page, page_size=5) for page in (1, 2, 3)]
    messages = [e["message"] for p in pages for e in p["entries"]]
    assert [len(p["entries"]) for p in pages] == [5, 5, 2]
    assert messages == [f"at {d}" for d in range(1, 9)] + [f"tie {i}" for i in range(4)]
    assert {p["total"] for p in pages} == {12} and {p["pages"] for p in pages} == {3}


@pytest.mark.db
def test_a_page_past_the_oldest_interaction_is_empty(app):
    make_listener(1, LERATO, [event(1), event(2)])
    timeline = listener_timeline(1, LERATO, page=2)
    assert timeline["entries"] == [] and timeline["total"] == 2


@pytest.mark.parametrize("page", [0, -1])
def test_a_page_below_the_first_is_refused_before_anything_is_read(monkeypatch, page):
    def reached(*_args, **_kwargs):
        raise AssertionError("the station was read for a page it should have refused")

    for name in ("get_company", "find_listener", "listener_history"):
        monkeypatch.setattr(timeline_module, name, reached)
    with pytest.raises(ValidationFailed) as refused:
        listener_timeline(1, LERATO, page=page)
    assert refused.value.items[0]["loc"][-1] == "page"


@pytest.mark.db
def test_channels_and_shows_are_named_by_the_station(app):
    make_company(1, channels={"2": "WhatsApp line"})
    Show(company_id=1, timeslot_id=7, title="Drive Time", days=[1, 2, 3, 4, 5], start="15:00", end="19:00").save()
    make_listener(1, LERATO, [event(1, channel=2, timeslot=7, campaign="competition"),
                              event(2, channel=1, timeslot=9), event(3, channel=42)])
    first, second, third = listener_timeline(1, LERATO)["entries"]
    assert (first["channel_name"], first["show"], first["campaign"]) == ("WhatsApp line", "Drive Time", "competition")
    assert (second["channel_name"], second["show"], second["timeslot"]) == ("SMS", "Show 9", 9)
    assert (third["channel_name"], third["show"], third["timeslot"]) == ("Channel 42", None, None)


@pytest.mark.db
def test_each_entry_carries_its_message_or_none(app):
    make_listener(1, LERATO, [event(1, message="Please play some gqom!"), event(2)])
    assert [e["message"] for e in listener_timeline(1, LERATO)["entries"]] == ["Please play some gqom!", None]


@pytest.mark.db
def test_entries_keep_the_moment_in_utc_for_pages_to_show_in_the_stations_zone(app):
    make_listener(1, LERATO, [event(1)])
    assert listener_timeline(1, LERATO)["entries"][0]["at"] == "2026-11-19T12:00:00+00:00"


@pytest.mark.db
def test_only_the_listeners_own_batches_are_read(app, monkeypatch):
    make_listener(1, LERATO, [event(1)])
    make_listener(1, SIPHO, [event(2), event(3)])
    make_listener(2, LERATO, [event(4), event(5), event(6)])
    asked = []
    collection = InteractionBatch._get_collection()
    original = type(collection).find

    def spying_find(self, flt=None, *args, **kwargs):
        if self.name == collection.name:
            asked.append(flt)
        return original(self, flt, *args, **kwargs)

    monkeypatch.setattr(type(collection), "find", spying_find)
    timeline = listener_timeline(1, LERATO)
    assert timeline["total"] == 1 and days_ago(timeline) == [1]
    assert asked and all(f == {"company_id": 1, "originator": {"$in": [personal.key_of(1, LERATO)]}}
                         for f in asked)


@pytest.mark.db
def test_an_unknown_listener_has_no_timeline(app):
    make_company(1)
    with pytest.raises(ListenerNotFound):
        listener_timeline(1, LERATO)


@pytest.mark.db
def test_an_erased_listeners_old_number_has_no_timeline(app):
    make_listener(1, LERATO, [event(1, message="Call me")])
    erase_listener(1, LERATO, "test-secret")
    with pytest.raises(ListenerNotFound):
        listener_timeline(1, LERATO)
