"""An audience's holdout in the store: asked for when it is made, kept by refreshes (a listener keeps their arm, a new
member is split by the same rule), never in the export, and left by an erased listener whichever arm they were in."""
from __future__ import annotations

import pytest

from core.audiences.arms import HOLDOUT, TARGET, arms_of
from core.audiences.export import audience_rows
from core.audiences.members import erase_members
from core.audiences.store import create_audience, get_audience, list_audiences, refresh_audience
from core.errors import ValidationFailed
from core.search import vectors
from core.segmentation.runs import segment_company
from tests.conftest import restored
from tests.memory import NOW
from tests.themes import GOSPEL, GOSPEL_THEME, of_theme, person, split_both_ways, themed_station

pytestmark = pytest.mark.db


@pytest.fixture
def station(app):
    return restored("themed-1", themed_station)


@pytest.fixture
def held(station, monkeypatch) -> dict:
    """A gospel audience holding half out, under an id that puts its four members in both arms."""
    split_both_ways(monkeypatch, of_theme(1, "gospel"))
    return create_audience(1, "Gospel", GOSPEL_THEME, limit=4, min_score=0, holdout_percent=50)


def arms(audience: dict) -> dict[str, str]:
    return {m["originator"]: m["arm"] for m in audience["members"]}


def test_an_audience_made_without_a_holdout_has_everyone_in_the_target(station):
    made = create_audience(1, "Gospel", GOSPEL_THEME, limit=4, min_score=0)
    assert set(arms(made).values()) == {TARGET}
    assert (made["holdout_percent"], made["target_count"], made["holdout_count"]) == (0, 4, 0)


def test_each_member_says_its_arm_and_the_audience_counts_both(held):
    assert set(arms(held).values()) == {TARGET, HOLDOUT}
    assert held["holdout_count"] == list(arms(held).values()).count(HOLDOUT)
    assert held["target_count"] + held["holdout_count"] == held["member_count"] == 4
    listed = list_audiences(1)["audiences"][0]
    assert (listed["holdout_percent"], listed["holdout_count"]) == (50, held["holdout_count"])


@pytest.mark.parametrize("percent", [-1, 51, 1.5, True, "10"])
def test_a_percent_outside_0_to_50_is_refused_naming_the_field(station, percent):
    with pytest.raises(ValidationFailed) as refused:
        create_audience(1, "Gospel", GOSPEL_THEME, limit=4, min_score=0, holdout_percent=percent)
    assert [item["loc"] for item in refused.value.items] == [["body", "holdout_percent"]]


def test_a_listener_keeps_their_arm_through_refreshes_and_a_new_member_is_split_by_the_same_rule(station,
                                                                                                    monkeypatch):
    split_both_ways(monkeypatch, of_theme(1, "gospel"))
    made = create_audience(1, "Gospel", GOSPEL_THEME, limit=1000, min_score=0, holdout_percent=50)
    newcomer = "27819999999"
    person(1, newcomer, GOSPEL)
    segment_company(1, NOW)
    vectors.refresh_embeddings(1)
    first = refresh_audience(1, made["audience_id"])
    second = refresh_audience(1, made["audience_id"])
    assert first["changes"]["joined"] == [newcomer]
    assert {o: a for o, a in arms(first).items() if o != newcomer} == arms(made)
    assert arms(second) == arms(first) == arms(get_audience(1, made["audience_id"]))
    assert arms(first)[newcomer] == arms_of(made["audience_id"], 50, [newcomer])[0]


def test_the_export_holds_the_target_arm_only_and_says_how_many_were_held_out(held):
    table = audience_rows(1, held["audience_id"])
    exported = [dict(zip(table.headers, row))["originator"] for row in table.rows]
    assert exported == [m["originator"] for m in held["members"] if m["arm"] == TARGET]
    assert table.held_out == held["holdout_count"] > 0


@pytest.mark.parametrize("arm", [TARGET, HOLDOUT])
def test_erasure_takes_a_listener_out_of_either_arm(held, arm):
    gone = next(o for o, their in arms(held).items() if their == arm)
    assert erase_members(1, gone) == 1
    after = get_audience(1, held["audience_id"])
    assert gone not in arms(after) and after["target_count"] + after["holdout_count"] == 3
    assert arms(after) == {o: a for o, a in arms(held).items() if o != gone}
