"""Inference where there is nothing to go on (tiny stations built with the factories): a field without any evidence
is None, never a guess."""
from __future__ import annotations

import pytest

from core.ai.local import DEMOGRAPHICS, infer_listener
from core.segmentation.runs import segment_company
from tests.factories import make_listener
from tests.memory import NOW, event

pytestmark = pytest.mark.db

ZULU = "Sawubona DJ! Ngicela udlale iculo lami, ngiyabonga kakhulu"


def test_on_a_station_where_nobody_declared_anything_no_demographic_is_given(app):
    make_listener(1, "27820000001", [event(d, timeslot=1, message=ZULU) for d in (1, 2, 3)])
    make_listener(1, "27820000002", [event(d, timeslot=1) for d in (1, 2)])
    segment_company(1, NOW)
    values = infer_listener(1, "27820000001")["values"]
    assert all(values[name] is None for name in (*DEMOGRAPHICS, "inferred_lsm"))


def test_a_listener_without_interactions_gets_no_demographic_and_no_interest(app):
    for i in range(3):
        make_listener(1, f"2782000001{i}", [event(d, channel=2, timeslot=1) for d in (1, 2)], gender="female",
                      age_group="25-34", language="isiZulu", location="Durban", income_bracket="R5k-R10k")
    make_listener(1, "27820000099")
    segment_company(1, NOW)
    values = infer_listener(1, "27820000099")["values"]
    assert all(values[name] is None for name in (*DEMOGRAPHICS, "inferred_lsm"))
    assert values["inferred_interests"] == []


def test_a_listener_like_the_declared_ones_gets_their_values_but_not_for_promotion(app):
    for i in range(3):
        make_listener(1, f"2782000001{i}", [event(d, channel=2, timeslot=1) for d in (1, 2)], gender="female",
                      location="Durban")
    make_listener(1, "27820000099", [event(d, channel=2, timeslot=1) for d in (1, 2, 3)])
    segment_company(1, NOW)
    values = infer_listener(1, "27820000099")["values"]
    assert values["inferred_gender"]["value"] == "female"
    assert values["inferred_location"]["value"] == "Durban"
    assert values["inferred_gender"]["confidence"] is None  # 3 look-alikes agreeing and no message: too little
    assert values["inferred_gender"]["evidence"].endswith("not enough evidence for a confidence (it takes 5 "
                                                          "look-alikes agreeing or 2 of their messages).")
    assert values["inferred_interests"][0]["confidence"] == 1.0
