"""The shared filter set: parsing (422 items naming the parameter) and semantics, one rule per test."""
from __future__ import annotations

from datetime import timedelta

import pytest

from core import snapshot
from core.errors import ValidationFailed
from core.filters import parse_filters
from core.models import Listener, Show
from core.segmentation import segment_company
from tests.factories import NOW, event, make_company, make_listener


def matches(params: dict, company_id: int = 1) -> set[str]:
    """Originators matching the filter parameters."""
    snap = snapshot.current(company_id)
    return set(snap.originators[parse_filters(params).mask(snap)].tolist())


@pytest.fixture
def people(app):
    make_company(1)
    Show(company_id=1, timeslot_id=3, title="Breakfast Club", days=[1], start="06:00", end="09:00").save()
    Show(company_id=1, timeslot_id=4, title="Drive", days=[1], start="15:00", end="18:00").save()
    make_listener(1, "thandi", [event(1, channel=2, timeslot=3), event(2, channel=2, campaign="competition"),
                                event(3, channel=5)],
                  name="Thandi Mokoena", email="Thandi.M@Example.com", gender="female", age_group="25-34",
                  location="Durban", language="isiZulu", tags=["music", "vip"], opt_in=True, permission=False,
                  income_bracket="R10k-R20k", mobile_number="+27821234567", ethnicity="Black African",
                  id_number="9001015009087")
    make_listener(1, "johan", [event(40, channel=1, timeslot=4), event(41, channel=1)],
                  name="Johan van Wyk", email="johan@example.co.za", gender="male", location="durban",
                  language="Afrikaans", tags=["music"], opt_in=False)
    make_listener(1, "anon", [event(100, channel=3)])
    segment_company(1, NOW)


def test_no_filter_matches_everyone(people):
    assert matches({}) == {"thandi", "johan", "anon"}


def test_strings_match_exactly_but_case_insensitively(people):
    assert matches({"location": ["DURBAN"]}) == {"thandi", "johan"}
    assert matches({"location": ["Durb"]}) == set()


def test_repeatable_values_match_any_of_them(people):
    assert matches({"language": ["isiZulu", "Afrikaans"]}) == {"thandi", "johan"}


def test_filters_are_anded(people):
    assert matches({"location": ["Durban"], "gender": ["male"]}) == {"johan"}


def test_email_and_name_match_partially_and_case_insensitively(people):
    assert matches({"email": "example.CO"}) == {"thandi", "johan"}
    assert matches({"name": "van w"}) == {"johan"}


def test_originator_matches_exactly(people):
    assert matches({"originator": "thandi"}) == {"thandi"}
    assert matches({"originator": "than"}) == set()


def test_tags_must_all_match(people):
    assert matches({"tags": "music,vip"}) == {"thandi"}
    assert matches({"tags": "music"}) == {"thandi", "johan"}
    assert matches({"tags": "music,unknown"}) == set()


def test_channel_type_is_the_primary_channel_only(people):
    assert matches({"channel_type": ["5"]}) == set()
    assert matches({"channel_type": ["2"]}) == {"thandi"}


def test_has_channel_is_any_channel_ever_used(people):
    assert matches({"has_channel": "5"}) == {"thandi"}


def test_timeslot_id_keeps_listeners_with_an_interaction_in_any_given_show(people):
    assert matches({"timeslot_id": ["3"]}) == {"thandi"}
    assert matches({"timeslot_id": ["3", "4"]}) == {"thandi", "johan"}


def test_campaign_type_keeps_listeners_with_one_interaction_of_that_type(people):
    assert matches({"campaign_type": ["competition"]}) == {"thandi"}


def test_tri_state_flags_never_match_unknown(people):
    assert matches({"opt_in": "true"}) == {"thandi"}
    assert matches({"opt_in": "false"}) == {"johan"}
    assert matches({"permission": "false"}) == {"thandi"}


def test_missing_fields_and_profile_complete_use_declared_values(people):
    assert matches({"profile_complete": "true"}) == {"thandi"}
    assert matches({"missing_fields": ["mobile_number"]}) == {"johan", "anon"}


def test_last_interaction_window(people):
    after = (NOW - timedelta(days=10)).isoformat()
    assert matches({"last_interaction_after": after}) == {"thandi"}
    assert matches({"last_interaction_before": after}) == {"johan", "anon"}


def test_segment_filter(people):
    assert matches({"segment": ["new_listener"]}) == {"thandi"}
    assert matches({"segment": ["dormant", "at_risk"]}) == {"johan", "anon"}


def test_inferred_values_match_whatever_the_confidence(people):
    Listener.objects(company_id=1, originator="anon").update_one(
        set__inferred={"inferred_gender": {"value": "female", "confidence": 0.2},
                       "inferred_interests": {"value": ["gospel", "sport"], "confidence": 0.9}})
    segment_company(1, NOW)
    assert matches({"inferred_gender": "Female"}) == {"anon"}
    assert matches({"inferred_interests": "gospel,sport"}) == {"anon"}
    assert matches({"gender": ["female"]}) == {"thandi"}


def test_peak_hour_is_local_time(people):
    # every factory event is at 12:00 UTC, 14:00 in Africa/Johannesburg
    assert matches({"peak_hour": "14"}) == {"thandi", "johan", "anon"}
    assert matches({"peak_hour": "12"}) == set()


def test_weekday_pattern(people):
    # thandi: Tue-Thu; johan: a Saturday and a Sunday; anon: a Wednesday
    assert matches({"weekday_pattern": "true"}) == {"thandi", "anon"}
    assert matches({"weekday_pattern": "false"}) == {"johan"}


@pytest.mark.parametrize("params, param", [
    ({"segment": ["fans"]}, "segment"),
    ({"gender": ["robot"]}, "gender"),
    ({"age_group": ["20-30"]}, "age_group"),
    ({"channel_type": ["two"]}, "channel_type"),
    ({"primary_day_of_week": ["8"]}, "primary_day_of_week"),
    ({"primary_day_of_week": ["0"]}, "primary_day_of_week"),
    ({"peak_month": ["13"]}, "peak_month"),
    ({"peak_hour": "24"}, "peak_hour"),
    ({"has_channel": "x"}, "has_channel"),
    ({"opt_in": "maybe"}, "opt_in"),
    ({"last_interaction_after": "yesterday"}, "last_interaction_after"),
    ({"peak_time_of_day": ["lunch"]}, "peak_time_of_day"),
    ({"missing_fields": ["shoe_size"]}, "missing_fields"),
    ({"peak_hour": ["1", "2"]}, "peak_hour"),
])
def test_invalid_value_is_a_422_item_naming_the_parameter(params, param):
    with pytest.raises(ValidationFailed) as caught:
        parse_filters(params)
    assert caught.value.items[0]["loc"] == ["query", param]


@pytest.mark.parametrize("params", [{"primary_day_of_week": ["7"]}, {"primary_day_of_week": ["1"]},
                                    {"peak_hour": "0"}, {"peak_hour": "23"}, {"peak_month": ["12"]}])
def test_boundary_values_are_accepted(params):
    assert parse_filters(params)


def test_every_invalid_parameter_is_reported_at_once():
    with pytest.raises(ValidationFailed) as caught:
        parse_filters({"gender": ["robot"], "peak_hour": "99"})
    assert {tuple(i["loc"]) for i in caught.value.items} == {("query", "gender"), ("query", "peak_hour")}


def test_blank_values_are_no_filter():
    assert not parse_filters({"gender": [""], "name": "  "})


def test_json_body_values_parse_like_query_strings():
    flt = parse_filters({"segment": ["super_fan"], "opt_in": True, "channel_type": [2]}, location="body")
    assert flt.values == {"segment": ("super_fan",), "opt_in": True, "channel_type": (2,)}
