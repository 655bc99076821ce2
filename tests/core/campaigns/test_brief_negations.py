"""What a brief says its audience is not, read by the local provider on the demo station's vocabulary in memory: an
exclusion, a flag's other answer, or unmapped with the reason; never dropped, never turned into its opposite."""
from __future__ import annotations

import pytest

from core.campaigns.brief import read
from core.explore.filters import parse_filters
from tests.memory import NOW


def parsed(vocab, brief: str) -> dict:
    return read(vocab, brief, NOW)


def filters(vocab, brief: str) -> dict:
    return parsed(vocab, brief)["filters"]


@pytest.mark.parametrize("brief", ["Listeners who have not opted in", "listeners who haven't opted in",
                                   "those who did not opt in", "opt_in=false", "opt-in = no", "opt_in != true",
                                   "listeners who opted out"])
def test_not_opted_in_is_opt_in_false(vocab, brief):
    assert filters(vocab, brief) == {"opt_in": False}


@pytest.mark.parametrize("brief", ["Only listeners who opted in", "opt_in=true"])
def test_opted_in_or_opt_in_true_is_opt_in_true(vocab, brief):
    assert filters(vocab, brief) == {"opt_in": True}


@pytest.mark.parametrize("brief", ["Listeners without permission", "no consent given", "permission=false"])
def test_without_permission_or_no_consent_is_permission_false(vocab, brief):
    assert filters(vocab, brief) == {"permission": False}


def test_exclude_super_fans_becomes_an_exclusion_of_the_super_fan_segment(vocab):
    answer = parsed(vocab, "Reach women in Durban, exclude super fans")
    assert answer["filters"] == {"gender": ["female"], "location": ["Durban"], "exclude_segment": ["super_fan"]}
    assert {"field": "exclude_segment", "values": ["super_fan"], "words": "exclude super fans"} in answer["criteria"]
    assert answer["unmapped"] == []


@pytest.mark.parametrize(("brief", "segment"), [("Everyone excluding dormant listeners", "dormant"),
                                                ("listeners who are not at risk", "at_risk"),
                                                ("all listeners except new listeners", "new_listener")])
def test_a_negated_segment_becomes_an_exclusion_of_that_segment(vocab, brief, segment):
    assert filters(vocab, brief) == {"exclude_segment": [segment]}


@pytest.mark.parametrize(("brief", "channel"), [("no SMS", 1), ("listeners not on WhatsApp", 2),
                                                ("those who don't use the app", 5)])
def test_a_negated_channel_becomes_an_exclusion_of_that_primary_channel(vocab, brief, channel):
    assert filters(vocab, brief) == {"exclude_channel_type": [channel]}


@pytest.mark.parametrize(("brief", "gender"), [("no women", "female"), ("excluding men", "male")])
def test_a_negated_gender_becomes_an_exclusion_of_that_gender(vocab, brief, gender):
    assert filters(vocab, brief) == {"exclude_gender": [gender]}


@pytest.mark.parametrize(("brief", "excluded"), [
    ("not Zulu speakers", {"exclude_language": ["isiZulu"]}),
    ("listeners not in Durban", {"exclude_location": ["Durban"]}),
    ("not Vuka Mzansi Breakfast listeners", {"exclude_timeslot_id": [3]}),
    ("listeners who never entered a competition", {"exclude_campaign_type": ["competition"]}),
    ("no soccer fans", {"exclude_tags": ["soccer"]}),
    ("exclude breakfast listeners", {"exclude_peak_time_of_day": ["breakfast"]}),
    ("not seniors", {"exclude_age_group": ["55-64", "65+"]}),
    ("not over 50s", {"exclude_age_group": ["45-54", "55-64", "65+"]}),
    ("excluding LSM 1-3", {"exclude_inferred_lsm": ["LSM 1", "LSM 2", "LSM 3"]})])
def test_every_filter_of_several_values_the_vocabulary_matches_can_be_excluded(vocab, brief, excluded):
    assert filters(vocab, brief) == excluded


def test_a_negated_flag_that_is_no_opt_in_is_its_other_answer(vocab):
    assert filters(vocab, "not weekday listeners") == {"weekday_pattern": False}


def test_a_negation_carries_over_a_list_of_values_of_one_filter(vocab):
    assert filters(vocab, "excluding super fans, dormant and at risk listeners") == {
        "exclude_segment": ["super_fan", "dormant", "at_risk"]}
    assert filters(vocab, "not on SMS or on WhatsApp") == {"exclude_channel_type": [1, 2]}


def test_a_negation_does_not_carry_over_to_another_filter_or_a_new_place(vocab):
    assert filters(vocab, "not dormant, women") == {"exclude_segment": ["dormant"], "gender": ["female"]}
    assert filters(vocab, "not in Durban and in Cape Town") == {"exclude_location": ["Durban"],
                                                                "location": ["Cape Town"]}


def test_not_only_is_no_negation(vocab):
    assert filters(vocab, "not only super fans but also new listeners") == {"segment": ["super_fan",
                                                                                       "new_listener"]}


def test_a_negation_inside_a_close_spelling_is_never_read_as_its_opposite(vocab):
    answer = parsed(vocab, "listeners we cannot contact")
    assert answer["filters"] == {}
    assert [u["words"] for u in answer["unmapped"]] == ["we cannot contact"]


@pytest.mark.parametrize(("brief", "words", "reason"), [
    ("not students", "not students", "employment status filter takes one value"),
    ("listeners who are not contactable", "not contactable", "fail any one of its conditions"),
    ("listeners who don't own cars", "who don't own cars", "No filter holds what listeners own"),
    ("families without kids", "without kids", "no such field")])
def test_a_negation_no_filter_can_say_is_unmapped_with_the_reason(vocab, brief, words, reason):
    answer = parsed(vocab, brief)
    assert answer["filters"] == {}
    assert len(answer["unmapped"]) == 1
    assert answer["unmapped"][0]["words"] == words and reason in answer["unmapped"][0]["reason"]


def test_filters_written_as_parameters_are_read_as_written(vocab):
    assert filters(vocab, "segment=super_fan, exclude_segment=dormant, channel_type != 1") == {
        "segment": ["super_fan"], "exclude_segment": ["dormant"], "exclude_channel_type": [1]}
    unmapped = parsed(vocab, "opt_in=maybe")["unmapped"]
    assert unmapped == [{"words": "opt_in=maybe", "reason": "Not a value of the opt in filter."}]


def test_negated_criteria_parse_as_filters_and_combine_with_included_ones(vocab):
    found = filters(vocab, "Women in Gauteng but not Durban, no SMS, not super fans, who have not opted in")
    gauteng = ["Gauteng", "Johannesburg", "Pretoria", "Sandton", "Soweto", "Vereeniging"]  # a province, its cities
    assert found == {"gender": ["female"], "location": gauteng, "exclude_location": ["Durban"],
                     "exclude_channel_type": [1], "exclude_segment": ["super_fan"], "opt_in": False}
    assert parse_filters(found).values.keys() == found.keys()
