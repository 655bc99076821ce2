"""Saved audiences in core: one name per station even under racing creates, a refresh that re-runs the saved
strategy without asking the provider, the erasure hook, and the table a CSV export is written from."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import bson
import pytest
from pymongo.errors import DuplicateKeyError

from core import personal
from core.audiences.export import HEADERS, audience_rows
from core.audiences.members import erase_members
from core.audiences.models import Audience
from core.audiences.store import create_audience, get_audience, list_audiences, refresh_audience
from core.credits.ledger import account, check
from core.errors import AudienceNotFound, Conflict
from core.explore.filters import parse_filters
from core.privacy.encrypt import encrypt_stations
from tests.conftest import restored
from tests.themes import CREDITS, GOSPEL_THEME, originator, themed_station

pytestmark = pytest.mark.db


@pytest.fixture
def station(app):
    return restored("themed-1", themed_station)


def gospel(name: str = "Gospel", **more) -> dict:
    return create_audience(1, name, GOSPEL_THEME, limit=4, min_score=0, **more)


def test_creates_racing_with_one_name_save_one_audience_and_charge_once(station, reconciled):
    def attempt(name: str):
        try:
            return gospel(name)["audience_id"]
        except Conflict:
            return None

    with ThreadPoolExecutor(4) as pool:
        made = [found for found in pool.map(attempt, ["Gospel", "gospel", "GOSPEL ", " Gospel"]) if found]
    assert len(made) == 1 and Audience.objects(company_id=1).count() == 1
    assert account(1)["balance"] == CREDITS - 2 and check(1)["agrees"]


def test_the_database_itself_refuses_a_second_audience_of_one_name(station):
    doc = Audience._get_collection().find_one({"audience_id": gospel()["audience_id"]}, {"_id": 0})
    with pytest.raises(DuplicateKeyError):
        Audience._get_collection().insert_one({**doc, "audience_id": "another-id"})


def test_the_strategy_is_saved_whole(station):
    made = gospel(flt=parse_filters({"gender": "female"}), description="Sunday choirs")
    saved = get_audience(1, made["audience_id"])
    assert saved["queries"][0]["query"] == f"{GOSPEL_THEME}. Sunday choirs"
    assert (saved["filters"], saved["min_score"], saved["limit"], saved["provider"]) == (
        {"gender": ["female"]}, 0, 4, "local")


def test_an_audience_s_name_theme_and_queries_are_stored_sealed_and_its_name_still_unique(station):
    made = gospel("VIP 27829990001", description="Sunday choirs")
    raw = bson.encode(Audience._get_collection().find_one({"audience_id": made["audience_id"]}))
    assert b"27829990001" not in raw and b"Sunday choirs" not in raw and GOSPEL_THEME.encode() not in raw
    assert [a["name"] for a in list_audiences(1)["audiences"]] == ["VIP 27829990001"]
    with pytest.raises(Conflict):
        gospel("vip  27829990001")


def test_a_refresh_runs_the_saved_queries_without_asking_the_provider(station, monkeypatch):
    made = gospel()
    monkeypatch.setattr("core.audiences.custom.search_queries", lambda *_: pytest.fail("the provider was asked"))
    again = refresh_audience(1, made["audience_id"])
    assert [q["query"] for q in again["queries"]] == [q["query"] for q in made["queries"]]
    assert again["changes"] == {"joined": [], "left": [], "stayed": 4}
    assert [m["originator"] for m in again["members"]] == [m["originator"] for m in made["members"]]


def test_erasure_pulls_the_listener_from_every_audience_of_the_company_and_counts_them(station):
    themed_station(2)
    gone = originator(1, "gospel", 1)
    first, second = gospel("A"), gospel("B")
    create_audience(2, "A", GOSPEL_THEME, limit=4, min_score=0)
    assert erase_members(1, gone) == 2 and erase_members(1, gone) == 0
    for made in (first, second):
        assert gone not in {m["originator"] for m in get_audience(1, made["audience_id"])["members"]}
    assert all(len(doc.members) == 4 for doc in Audience.objects(company_id=2))


def test_erasure_leaves_no_originator_in_a_saved_strategy(station):
    gone = originator(1, "gospel", 0)
    made = gospel(flt=parse_filters({"originator": gone}))
    assert [m["originator"] for m in made["members"]] == [gone]
    assert erase_members(1, gone, "erased-abc") == 1
    saved = Audience.objects.get(audience_id=made["audience_id"])
    assert saved.strategy["filters"] == {"originator": "erased-abc"} and saved.members == []


def test_erasure_leaves_no_originator_in_the_last_refresh_s_lists_of_who_joined_and_left(station):
    made = gospel(flt=parse_filters({"gender": "female"}))
    left = made["members"][0]["originator"]
    key = personal.key_of(1, left)  # as stored
    Audience._get_collection().update_one({"audience_id": made["audience_id"]},  # as if they had left at a refresh
                                          {"$set": {"changes": {"joined": [key], "left": [key], "stayed": 3}}})
    assert erase_members(1, left) == 1
    stored = Audience._get_collection().find_one({"audience_id": made["audience_id"]})
    assert stored["changes"] == {"joined": [], "left": [], "stayed": 3} and key not in str(stored)


def test_an_audience_refreshed_before_the_lists_were_kept_shows_no_lists_and_erasure_passes_it_by(station):
    made = gospel()
    Audience._get_collection().update_one({"audience_id": made["audience_id"]},
                                          {"$set": {"changes": {"joined": 1, "left": 1, "stayed": 3}}})
    assert get_audience(1, made["audience_id"])["changes"] is None
    assert get_audience(1, made["audience_id"])["last_changes"] == {"joined": 1, "left": 1, "stayed": 3}
    erase_members(1, originator(1, "soccer", 0))  # no error on a count where a list is now kept


def test_another_company_s_audience_is_not_found(station):
    themed_station(2)
    theirs = create_audience(2, "Theirs", GOSPEL_THEME, limit=4)["audience_id"]
    with pytest.raises(AudienceNotFound):
        get_audience(1, theirs)
    assert list_audiences(1)["total"] == 0


def test_the_export_table_has_a_row_per_member_with_names_beside_keys(station):
    made = gospel()
    headers, rows, held_out, _ = audience_rows(1, made["audience_id"])
    assert headers == HEADERS and len(rows) == 4 and held_out == 0
    row = dict(zip(headers, rows[0]))
    assert row["originator"] == made["members"][0]["originator"] and row["segment_name"]
    assert set(row["channels"].split("|")) == {"SMS", "WhatsApp"}
    assert row["reachable"] in ("true", "false") and row["query"] == made["members"][0]["query"]


def test_an_audience_stored_with_plain_texts_reads_stays_unique_and_encrypt_seals_it(station):
    made = gospel("Choir VIPs", description="Sunday choirs")
    stored = Audience._get_collection().find_one({"audience_id": made["audience_id"]})
    queries = get_audience(1, made["audience_id"])["queries"]
    Audience._get_collection().replace_one({"_id": stored["_id"]}, {  # as today's main stored it
        **{k: v for k, v in stored.items() if k not in ("sealed_texts", "texts_key")}, "name": "Choir VIPs",
        "name_key": "choir vips", "theme": GOSPEL_THEME, "description": "Sunday choirs",
        "strategy": {**stored["strategy"], "queries": [q["query"] for q in queries]}})
    assert get_audience(1, made["audience_id"])["name"] == "Choir VIPs"
    with pytest.raises(Conflict):
        gospel("choir VIPs")
    encrypt_stations()
    raw = bson.encode(Audience._get_collection().find_one({"audience_id": made["audience_id"]}))
    assert b"Choir" not in raw and b"Sunday" not in raw
    assert get_audience(1, made["audience_id"])["queries"] == queries
