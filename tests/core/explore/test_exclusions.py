"""The exclusion form of the shared filters (`exclude_<name>`): parsed as its filter, evaluated over a snapshot built
in memory as "none of these values", ANDed with the rest, written out and read back. No database."""
from __future__ import annotations

import pytest

from core.errors import ValidationFailed
from core.explore.filters import ListenerFilter, parse_filters
from core.explore.spec import EXCLUSIONS, SPEC
from tests.core.explore.test_filters import PEOPLE, matches
from tests.memory import NOW


def test_every_filter_of_several_values_or_a_whole_number_has_an_exclusion_with_its_kind_column_and_bounds():
    several = {name for name, (kind, _, _) in SPEC.items() if kind in ("strings", "ints", "all_of", "int")}
    assert {f"exclude_{name}" for name in several - set(EXCLUSIONS)} == set(EXCLUSIONS)
    assert all(SPEC[name] == SPEC[included] for name, included in EXCLUSIONS.items())
    assert {"exclude_has_channel", "exclude_peak_hour"} <= set(SPEC)
    assert not {"exclude_opt_in", "exclude_name", "exclude_employment_status"} & set(SPEC)


def test_never_having_used_a_channel_leaves_out_whoever_used_it_at_all():
    assert matches({"exclude_has_channel": 2}) == matches({}) - matches({"has_channel": 2})


def test_an_exclusion_keeps_the_listeners_with_none_of_its_values():
    assert matches({"exclude_language": ["ISIZULU"]}) == {"johan", "anon"}
    assert matches({"exclude_language": ["isiZulu", "Afrikaans"]}) == {"anon"}


def test_a_listener_whose_value_is_unknown_is_kept_by_an_exclusion():
    assert matches({"exclude_gender": ["female"]}) == {"johan", "anon"}
    assert matches({"exclude_location": ["Durban"]}) == {"anon"}


def test_an_exclusion_and_its_own_filter_are_anded():
    assert matches({"segment": ["new_listener", "dormant"], "exclude_segment": ["dormant"]}) == {"thandi"}


def test_exclude_segment_leaves_out_the_listeners_of_those_segments():
    assert matches({"exclude_segment": ["new_listener"]}) == {"johan", "anon"}


def test_exclude_tags_leaves_out_whoever_has_any_one_of_them():
    assert matches({"exclude_tags": "vip"}) == {"johan", "anon"}
    assert matches({"exclude_tags": "vip,music"}) == {"anon"}


def test_exclude_channel_type_is_about_the_primary_channel_only():
    assert matches({"exclude_channel_type": ["5"]}) == {"thandi", "johan", "anon"}
    assert matches({"exclude_channel_type": ["2", "3"]}) == {"johan"}


def test_exclude_timeslot_id_and_campaign_type_leave_out_whoever_took_part_once():
    assert matches({"exclude_timeslot_id": ["3"]}) == {"johan", "anon"}
    assert matches({"exclude_campaign_type": ["competition"]}) == {"johan", "anon"}


def test_exclude_missing_fields_keeps_those_who_gave_them():
    assert matches({"exclude_missing_fields": ["mobile_number"]}) == {"thandi"}


def test_an_erased_listener_is_never_kept_by_an_exclusion():
    erased = [{**PEOPLE[0], "erased_at": NOW}] + PEOPLE[1:]
    assert matches({"exclude_segment": ["dormant"]}, erased) == {"johan"}


@pytest.mark.parametrize(("params", "param"), [
    ({"exclude_segment": ["fans"]}, "exclude_segment"), ({"exclude_gender": ["robot"]}, "exclude_gender"),
    ({"exclude_channel_type": ["0"]}, "exclude_channel_type"), ({"exclude_peak_month": ["13"]}, "exclude_peak_month"),
    ({"exclude_tags": ","}, "exclude_tags"), ({"exclude_location": [""]}, "exclude_location")])
def test_an_exclusion_refuses_what_its_filter_refuses_at_its_own_name(params, param):
    with pytest.raises(ValidationFailed) as raised:
        parse_filters(params)
    assert [item["loc"] for item in raised.value.items] == [["query", param]]


def test_exclusions_are_written_out_and_read_back_like_their_filters():
    flt = parse_filters({"exclude_segment": ["dormant", "at_risk"], "exclude_tags": "vip, music",
                         "exclude_timeslot_id": "3,4"})
    assert flt.to_params() == [("exclude_segment", "dormant"), ("exclude_segment", "at_risk"),
                               ("exclude_timeslot_id", "3"), ("exclude_timeslot_id", "4"),
                               ("exclude_tags", "vip,music")]
    assert parse_filters(flt.as_values()) == flt


def test_a_facet_is_counted_with_the_exclusion_of_its_filter_still_applied():
    flt = parse_filters({"segment": ["dormant"], "exclude_segment": ["at_risk"]})
    assert flt.without("segment") == ListenerFilter({"exclude_segment": ("at_risk",)})
