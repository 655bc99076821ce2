"""Saved plans in core: kept from the recommendation cache only, one station's plans never another's, and erasure
leaving no number a plan's filters named."""
from __future__ import annotations

import json
from datetime import timedelta

import pytest

from core.campaigns import cache
from core.campaigns.models import SavedPlan
from core.campaigns.plans import PlanNotFound, erase_plans, get_plan, list_plans, save_plan
from core.clock import utcnow

pytestmark = pytest.mark.db

ANSWER = {"brief": "Reach  super fans\nin Durban", "made_at": "2026-11-20T10:00:00+00:00", "provider": "local",
          "model": "rules", "filters": {"originator": "27820000001"}, "audience": {"size": 1, "reachable": 1}}


def cached(company_id: int = 1, key: str = "k" * 64, age: timedelta = timedelta(0)) -> str:
    cache.store(company_id, key, ANSWER, utcnow() - age)
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


def test_erasure_replaces_the_number_a_plan_s_filters_named(app):
    plan = save_plan(1, cached())
    assert erase_plans(1, "27820000001", "erased-abc") == 1
    stored = SavedPlan.objects.get(plan_id=plan["plan_id"]).answer
    assert "27820000001" not in stored and json.loads(stored)["filters"] == {"originator": "erased-abc"}
