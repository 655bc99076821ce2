"""Recommend's parts: the cache key, explicit filters over the brief's, the audience profile against the explorer's
own counts, the sample, and the claims of both providers held to the figures."""
from __future__ import annotations

import numpy as np
import pytest

from core.campaigns.audience_profile import audience_profile, sample_rows
from core.campaigns.cache import cache_key
from core.campaigns.recommend import combine
from core.campaigns.recommend_local import write_recommendation
from core.campaigns.recommend_openai import checked
from core.demo.seed import seed_demo
from core.explore.filters import ListenerFilter, parse_filters
from core.explore.operations import aggregate
from core.listeners import snapshot
from tests.conftest import empty_database
from tests.memory import NOW

SOME = parse_filters({"segment": ["super_fan"]})


def test_the_cache_key_ignores_case_and_spacing_of_the_brief_only():
    key = cache_key("Women in Durban", SOME, 50, "local")
    assert cache_key("  women   in\nDURBAN ", SOME, 50, "local") == key
    others = [cache_key("Women in Soweto", SOME, 50, "local"), cache_key("Women in Durban", ListenerFilter(), 50,
              "local"), cache_key("Women in Durban", SOME, 51, "local"), cache_key("Women in Durban", SOME, 50,
              "openai"), cache_key("Women in Durban", parse_filters({"segment": ["dormant"]}), 50, "local")]
    assert key not in others and len(set(others)) == len(others)


def test_explicit_filters_replace_the_briefs_field_by_field():
    combined, overridden = combine({"gender": ["female"], "location": ["Durban"]},
                                   parse_filters({"gender": ["male"], "opt_in": True}))
    assert combined.values == {"gender": ("male",), "location": ("Durban",), "opt_in": True}
    assert overridden == [{"field": "gender", "from_brief": ["female"], "given": ["male"]}]
    assert combine({"gender": ["male"]}, parse_filters({"gender": ["male"]}))[1] == []


def test_an_exclusion_is_a_field_like_any_other_and_a_given_one_wins_over_the_briefs():
    combined, overridden = combine({"exclude_segment": ["dormant"], "opt_in": False},
                                   parse_filters({"exclude_segment": ["super_fan"], "exclude_channel_type": [1]}))
    assert combined.values == {"exclude_segment": ("super_fan",), "exclude_channel_type": (1,), "opt_in": False}
    assert overridden == [{"field": "exclude_segment", "from_brief": ["dormant"], "given": ["super_fan"]}]


def audience(**overrides) -> dict:
    base = {"size": 100, "reachable": 40, "segments": [{"value": "super_fan", "label": "Super fans", "count": 60,
                                                        "share": 60.0}],
            "channels": [{"value": 2, "label": "WhatsApp", "count": 70, "share": 70.0}],
            "dayparts": [{"value": "breakfast", "label": "breakfast", "count": 50, "share": 50.0}],
            "days": [{"value": 1, "label": "Monday", "count": 30, "share": 30.0}], "weekday_share": 80.0,
            "shows": [{"value": 3, "label": "Vuka Mzansi Breakfast", "count": 45, "share": 45.0}],
            "interests": [{"value": "gospel", "label": "gospel", "count": 20, "share": 20.0}],
            "themes": [{"value": "music", "label": "music", "count": 5, "share": 50.0}],
            "sample": {"size": 10, "drawn": "..."}, "churn": {"sampled": 10}}
    base["figures"] = {"size": 100, "reachable": 40, "segment.super_fan": 60, "channel.2": 70,
                       "daypart.breakfast": 50, "day.1": 30, "weekday_share": 80.0, "show.3": 45,
                       "interest.gospel": 20, "sample.theme.music": 5}
    return {**base, **overrides}


def test_every_claim_of_the_local_plan_cites_a_figure_of_the_profile_with_its_value():
    plan = write_recommendation(audience(), {"goal": {"value": "foot_traffic", "words": "feet"}})
    claims = [*plan["target"], *plan["channels"], *plan["timing"], *plan["angles"], plan["expected_reach"]]
    assert len(claims) == 9
    for claim in claims:
        assert audience()["figures"][claim["figure"]["name"]] == claim["figure"]["value"], claim
    assert "foot traffic" in plan["summary"] and "40 of the 100 listeners" in plan["expected_reach"]["text"]


def test_a_models_claim_that_misquotes_its_figure_is_dropped_and_counted():
    claim = {"text": "Right.", "figure": {"name": "channel.2", "value": 70}}
    wrong = {"text": "Wrong.", "figure": {"name": "channel.2", "value": 71}}
    content = {"summary": " Go. ", "target": [claim, wrong], "channels": [wrong], "timing": [], "angles": [claim],
               "expected_reach": {"text": "All.", "figure": {"name": "reachable", "value": 100}}}
    plan = checked(content, audience(), {})
    assert (plan["target"], plan["channels"], plan["angles"], plan["dropped_claims"]) == ([claim], [], [claim], 3)
    assert plan["expected_reach"]["figure"] == {"name": "reachable", "value": 40}


@pytest.fixture(scope="module")
def station(_app):
    empty_database()
    seed_demo(1, 300, seed=7, now=NOW)
    return 1


@pytest.mark.db
def test_the_audience_is_counted_as_the_explorer_counts_it(station):
    flt = parse_filters({"gender": ["female"]})
    profile, counts = audience_profile(1, flt, 25), aggregate(1, flt)
    assert profile["size"] == counts["total"]
    assert {e["value"]: e["count"] for e in profile["segments"]} == counts["segment"]
    assert {e["value"]: e["count"] for e in profile["dayparts"]} == counts["peak_time_of_day"]
    channels = {int(k): c["count"] for k, c in counts["channel_type"].items()}
    assert [(e["value"], e["count"]) for e in profile["channels"]] == sorted(channels.items(),
                                                                             key=lambda p: (-p[1], p[0]))[:5]
    assert profile["reachable"] == aggregate(1, parse_filters({"gender": ["female"], "opt_in": True,
                                                               "permission": True}))["total"]


@pytest.mark.db
def test_the_sample_is_spread_over_the_audience_and_the_same_each_time(station):
    snap = snapshot.current(1)
    rows = np.flatnonzero(ListenerFilter().mask(snap))
    chosen = sample_rows(snap, rows, 30)
    assert len(chosen) == 30 and len(set(chosen.tolist())) == 30
    assert np.array_equal(chosen, sample_rows(snap, rows[::-1].copy(), 30))
    last = snap.cols["last_ts"][chosen]
    assert last.max() == snap.cols["last_ts"][rows].max() and last.min() == snap.cols["last_ts"][rows].min()
    assert audience_profile(1, ListenerFilter(), 30)["sample"]["size"] == 30


LAPSED_MOSTLY = [{"value": "dormant", "label": "Dormant", "count": 50, "share": 50.0},
                 {"value": "at_risk", "label": "At risk", "count": 30, "share": 30.0},
                 {"value": "occasional_engager", "label": "Occasional engagers", "count": 15, "share": 15.0},
                 {"value": "super_fan", "label": "Super fans", "count": 5, "share": 5.0}]


def test_a_plan_leads_with_the_listeners_still_listening_even_when_lapsed_ones_are_more():
    plan = write_recommendation(audience(segments=LAPSED_MOSTLY), {"goal": {"value": "sales", "words": "sell"}})
    assert [c["figure"]["name"] for c in plan["target"]] == ["segment.occasional_engager", "segment.super_fan"]
    assert "lead with occasional engagers" in plan["summary"]


def test_a_win_back_plan_leads_with_the_lapsed_listeners():
    plan = write_recommendation(audience(segments=LAPSED_MOSTLY), {"goal": {"value": "win_back", "words": "back"}})
    assert [c["figure"]["name"] for c in plan["target"]] == ["segment.dormant", "segment.at_risk"]
