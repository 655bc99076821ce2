"""The shared filter set: parsing (422 items naming the parameter) and semantics over a snapshot built in memory,
one rule per test. No database."""
from __future__ import annotations

from datetime import timedelta

import pytest

from core.errors import ValidationFailed
from core.explore.filters import parse_filters
from tests.memory import NOW, event, snapshot_of

PEOPLE = [
    {"originator": "thandi", "events": [event(1, channel=2, timeslot=3), event(2, channel=2, campaign="competition"),
                                        event(3, channel=5)],
     "name": "Thandi Mokoena", "email": "Thandi.M@Example.com", "gender": "female", "age_group": "25-34",
     "location": "Durban", "language": "isiZulu", "tags": ["music", "vip"], "opt_in": True, "permission": False,
     "income_bracket": "R10k-R20k", "mobile_number": "+27821234567", "ethnicity": "Black African",
     "id_number": "9001015009087"},
    {"originator": "johan", "events": [event(40, channel=1, timeslot=4), event(41, channel=1)],
     "name": "Johan van Wyk", "email": "johan@example.co.za", "gender": "male", "location": "durban",
     "language": "Afrikaans", "tags": ["music"], "opt_in": False},
    {"originator": "anon", "events": [event(100, channel=3)]},
]


def matches(params: dict, people: list[dict] = PEOPLE) -> set[str]:
    """Originators of the people matching the filter parameters, over their snapshot as of NOW."""
    snap = snapshot_of(people, timeslots=[3, 4])
    return set(snap.originators[parse_filters(params).mask(snap)].tolist())


@pytest.fixture
def people():
    """Three listeners: a new one, an at-risk one and a dormant one (see PEOPLE)."""
    return PEOPLE


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
    inferred = {"inferred_gender": {"value": "female", "confidence": 0.2},
                "inferred_interests": {"value": ["gospel", "sport"], "confidence": 0.9}}
    guessed = people[:2] + [{**people[2], "inferred": inferred}]
    assert matches({"inferred_gender": "Female"}, guessed) == {"anon"}
    assert matches({"inferred_interests": "gospel,sport"}, guessed) == {"anon"}
    assert matches({"gender": ["female"]}, guessed) == {"thandi"}


def test_erased_listeners_never_match(people):
    erased = [{**people[0], "erased_at": NOW}] + people[1:]
    assert matches({}, erased) == {"johan", "anon"}
    assert matches({"segment": ["new_listener"]}, erased) == set()


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


@pytest.mark.parametrize("params", [{"gender": [""]}, {"name": "  "}, {"last_interaction_before": ""},
                                    {"segment": ["super_fan", ""]}, {"peak_hour": [""]}])
def test_an_empty_value_is_a_422_not_an_absent_filter(params):
    with pytest.raises(ValidationFailed) as caught:
        parse_filters(params)
    assert caught.value.items[0]["loc"] == ["query", next(iter(params))]
    assert "Empty value" in caught.value.items[0]["msg"]


def test_a_json_null_is_an_absent_filter():
    assert not parse_filters({"gender": None, "segment": []}, location="body")


@pytest.mark.parametrize("written", [" 2", "+2", "٢", "2_0", "2.0", "0x2"])
def test_integers_are_plain_ascii_digits(written):
    with pytest.raises(ValidationFailed) as caught:
        parse_filters({"channel_type": [written]})
    assert caught.value.items[0]["msg"] == "Not a valid integer."


def test_json_body_values_parse_like_query_strings():
    flt = parse_filters({"segment": ["super_fan"], "opt_in": True, "channel_type": [2]}, location="body")
    assert flt.values == {"segment": ("super_fan",), "opt_in": True, "channel_type": (2,)}


PLACES = [{"originator": "sowetan", "location": "Soweto"}, {"originator": "jozi", "location": "johannesburg"},
          {"originator": "province", "location": "Gauteng"}, {"originator": "durban", "location": "Durban"},
          {"originator": "cbd", "location": "Joburg CBD"}, {"originator": "nowhere"}]


@pytest.mark.parametrize("place", ["Gauteng", "GP", "gauteng", "ZA-GP"])
def test_a_province_takes_every_location_that_lies_in_it(place):
    assert matches({"location": [place]}, PLACES) == {"sowetan", "jozi", "province"}


def test_a_city_by_another_of_its_names_takes_its_townships_but_not_its_province():
    assert matches({"location": ["Joburg"]}, PLACES) == {"sowetan", "jozi"}


def test_excluding_a_province_leaves_out_everyone_in_it_and_keeps_who_declared_none():
    assert matches({"exclude_location": ["Gauteng"]}, PLACES) == {"durban", "cbd", "nowhere"}


def test_a_location_the_map_does_not_know_is_matched_by_its_own_spelling_only():
    assert matches({"location": ["joburg cbd"]}, PLACES) == {"cbd"}


def test_a_place_where_nobody_lives_matches_nobody():
    assert matches({"location": ["Limpopo"]}, PLACES) == set()
