"""The `openai` provider's reading of a brief, against the loopback OpenAI server, on the demo station's vocabulary in
memory: its schema offers exclusions and false flags, and what the model says the audience is not comes back as
exclusions, checked against the station's values like everything else."""
from __future__ import annotations

import pytest

from core.campaigns import brief_openai
from core.campaigns.brief import shaped
from core.config import Settings
from core.explore.filters import parse_filters
from core.explore.spec import EXCLUSIONS
from tests.memory import NOW


def reading(vocab, **entries) -> dict:
    """A model's reading: every member of the schema, null unless given."""
    schema = brief_openai.brief_schema(vocab)
    return {**{name: None for name in schema["required"]}, "unmapped": [], **entries}


def read(vocab, server, brief: str) -> dict:
    settings = Settings(ai_provider="openai", openai_base_url=server.url, openai_api_key="sk-test",
                        openai_model="test-model")
    return shaped(vocab, brief_openai.read_brief(vocab, brief, NOW, settings))


def test_the_schema_offers_an_exclusion_beside_each_filter_of_several_values_with_the_same_values(vocab):
    fields = brief_openai.brief_schema(vocab)["properties"]
    excluded = {name for name in fields if name.startswith("exclude_")}
    assert {"exclude_segment", "exclude_gender", "exclude_channel_type", "exclude_tags", "exclude_location",
            "exclude_timeslot_id"} <= excluded <= set(EXCLUSIONS)
    for name in excluded:
        assert fields[name] == fields[EXCLUSIONS[name]]
    assert "employment_status" in fields and "exclude_employment_status" not in fields


def test_the_model_is_told_that_negations_are_exclusions_or_false_flags(vocab, openai_server):
    openai_server.script = [reading(vocab)]
    read(vocab, openai_server, "Everyone but super fans, not opted in.")
    told = " ".join(str(m["content"]) for m in openai_server.requests[-1].body["messages"])
    assert "exclude_" in told and "opt_in" in told and "false" in told.lower()


def test_the_models_exclusions_and_false_flags_come_back_as_filters(vocab, openai_server):
    sms = next(name for name, channel in brief_openai.choices(vocab)["channel_type"].items() if channel == 1)
    openai_server.script = [reading(vocab, exclude_segment={"values": ["super_fan"], "words": "exclude super fans"},
                                    exclude_channel_type={"values": [sms], "words": "no SMS"},
                                    opt_in={"values": [False], "words": "not opted in"},
                                    gender={"values": ["female"], "words": "women"})]
    answer = read(vocab, openai_server, "Women who have not opted in; exclude super fans, no SMS.")
    assert answer["filters"] == {"exclude_segment": ["super_fan"], "exclude_channel_type": [1], "opt_in": False,
                                 "gender": ["female"]}
    assert parse_filters(answer["filters"]).values.keys() == answer["filters"].keys()
    assert {"field": "exclude_channel_type", "values": [1], "words": "no SMS"} in answer["criteria"]


def test_the_models_unmapped_negations_are_kept_with_their_reason(vocab, openai_server):
    said = {"words": "who don't own a car", "reason": "No filter holds what listeners own."}
    openai_server.script = [reading(vocab, unmapped=[said])]
    assert read(vocab, openai_server, "Men who don't own a car")["unmapped"] == [said]


@pytest.mark.parametrize("name", ["exclude_segment", "exclude_location"])
def test_an_exclusion_of_a_value_the_station_does_not_hold_is_unmapped_never_applied(vocab, name):
    raw = {"items": [{"field": name, "values": ["Atlantis"], "words": "not Atlantis"}], "unmapped": []}
    answer = shaped(vocab, raw)
    assert answer["filters"] == {}
    assert answer["unmapped"] == [{"words": "not Atlantis", "reason": "Not a value of this station's "
                                   f"{EXCLUSIONS[name].replace('_', ' ')} filter."}]
