"""Saved plans in core: kept from the recommendation cache only, one station's plans never another's, and plans
and cached answers sealed, so that erasure leaves no readable copy of one that named a listener."""
from __future__ import annotations

import json
from datetime import timedelta

import bson
import pytest

from core.campaigns import cache
from core.campaigns.cache import erase_recommendations
from core.campaigns.models import CachedRecommendation, SavedPlan
from core.campaigns.plans import PLANS, PlanNotFound, erase_plans, get_plan, list_plans, save_plan
from core.clock import utcnow
from core.personal import spellings_of
from core.personal.registry import Erasure
from core.privacy.encrypt import encrypt_stations
from tests.factories import make_company

pytestmark = pytest.mark.db

ANSWER = {"brief": "Reach  super fans\nin Durban", "made_at": "2026-11-20T10:00:00+00:00", "provider": "local",
          "model": "rules", "filters": {"originator": "27820000001"}, "audience": {"size": 1, "reachable": 1}}


def cached(company_id: int = 1, key: str = "k" * 64, age: timedelta = timedelta(0), answer: dict = ANSWER) -> str:
    cache.store(company_id, key, answer, utcnow() - age)
    return key


def test_a_cached_recommendation_is_saved_named_by_its_brief_and_reopened_as_it_was(app):
    plan = save_plan(1, cached(), "thandi@jozi.fm")
    assert plan["name"] == " ".join(ANSWER["brief"].split())
    again = get_plan(1, plan["plan_id"])
    assert again["recommendation"] == ANSWER and again["saved_by"] == "thandi@jozi.fm"
    assert [p["plan_id"] for p in list_plans(1)] == [plan["plan_id"]]


def test_a_recommendation_past_the_cache_s_hours_cannot_be_saved(app):
    with pytest.raises(PlanNotFound):
        save_plan(1, cached(age=timedelta(hours=cache.CACHE_HOURS, minutes=1)))


def test_another_station_s_plan_is_not_found_and_not_listed(app):
    plan = save_plan(1, cached())
    with pytest.raises(PlanNotFound):
        get_plan(2, plan["plan_id"])
    assert list_plans(2) == []
    with pytest.raises(PlanNotFound):
        save_plan(2, cached(1))  # the key of another station's recommendation saves nothing


def test_erasure_writes_a_plan_that_named_the_number_again_and_its_old_copy_reads_as_nothing(app):
    plan = save_plan(1, cached())
    other = save_plan(1, cached(key="o" * 64, answer={**ANSWER, "filters": {"segment": ["super_fan"]}}))
    before = SavedPlan._get_collection().find_one({"plan_id": plan["plan_id"]})  # a backup's copy
    assert erase_plans(erasure_of("27820000001")) == 1
    assert get_plan(1, plan["plan_id"])["recommendation"]["filters"] == {"originator": "erased-abc"}
    assert PLANS.opened([before]) == [None]  # its key is destroyed
    assert get_plan(1, other["plan_id"])["recommendation"]["filters"] == {"segment": ["super_fan"]}


@pytest.mark.parametrize("written", ["Zanele Qwertyuiop", "zq.probe77@EXAMPLE.org", "082 999 0001", "27829990001",
                                     "+27 (0)82-999-0001", "0829990001"])
def test_erasure_replaces_every_spelling_of_the_listener_in_a_plans_brief_and_name(app, written):
    brief = f"Reach {written} and the super fans"
    plan = save_plan(1, cached(answer={**ANSWER, "brief": brief}))
    assert erase_plans(erasure_of("27829990001", name="Zanele Qwertyuiop", email="zq.probe77@example.org")) == 1
    kept = get_plan(1, plan["plan_id"])
    assert kept["name"] == kept["recommendation"]["brief"] == "Reach [erased] and the super fans"


def test_erasure_leaves_a_plan_naming_another_number_or_a_longer_one_alone(app):
    plan = save_plan(1, cached(answer={**ANSWER, "brief": "Reach 0829990002 and 108299900019"}))
    assert erase_plans(erasure_of("27829990001")) == 0
    assert get_plan(1, plan["plan_id"])["name"] == "Reach 0829990002 and 108299900019"


def erasure_of(originator: str, name: str | None = None, email: str | None = None) -> Erasure:
    """One listener being erased, as erasure hands them to every store."""
    return Erasure(1, originator, "erased-abc", spellings_of([originator], [name], [email, originator]))


def test_a_plan_and_a_cached_answer_store_no_word_of_the_brief_or_its_filters(app):
    cached(answer={**ANSWER, "brief": "Reach Thandeka Mokoena and 27820000001"})
    plan = save_plan(1, "k" * 64)
    raw = b"".join(bson.encode(doc) for collection in (SavedPlan, CachedRecommendation)
                   for doc in collection._get_collection().find())
    assert b"27820000001" not in raw and b"Thandeka" not in raw and b"Durban" not in raw
    assert plan["name"] == "Reach Thandeka Mokoena and 27820000001"


def test_plans_and_answers_stored_before_sealing_read_and_encrypt_seals_them(app):
    make_company(1)
    SavedPlan(company_id=1, plan_id="p1", name="Reach super fans", answer=json.dumps(ANSWER)).save()
    CachedRecommendation(company_id=1, key="k" * 64, provider="local", model="rules", answer=json.dumps(ANSWER),
                         made_at=utcnow()).save()
    assert get_plan(1, "p1")["recommendation"] == ANSWER and cache.fresh(1, "k" * 64) == ANSWER
    encrypt_stations()
    raw = b"".join(bson.encode(doc) for collection in (SavedPlan, CachedRecommendation)
                   for doc in collection._get_collection().find())
    assert b"27820000001" not in raw and b"Durban" not in raw
    assert get_plan(1, "p1")["name"] == "Reach super fans" and cache.fresh(1, "k" * 64) == ANSWER


def test_erasure_drops_cached_answers_and_their_keys(app):
    cached()
    before = CachedRecommendation._get_collection().find_one({})
    assert erase_recommendations(1, "27820000001") == 1
    assert cache.fresh(1, "k" * 64) is None and cache.ANSWERS.opened([before]) == [None]
