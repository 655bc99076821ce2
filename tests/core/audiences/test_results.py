"""An audience's campaign results against its holdout, hand-counted on a small station: the window on the station's
calendar (23:59 in, midnight after the last day out), the goal, the listeners who joined later left out of both arms,
and the reason instead of a number where there is nothing to compare; counted from the moment the audience was made
(a second before it out, a second after in), whatever `from` asks, a refresh's new members from when they joined,
and nothing before a campaign is recorded, which may not start before the audience's day."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import pytest

from core.audiences import store
from core.audiences.arms import HOLDOUT, TARGET, arms_of
from core.audiences.results import NO_HOLDOUT, NOT_RECORDED, audience_results
from core.audiences.store import create_audience, record_campaign, refresh_audience
from core.errors import ValidationFailed
from core.search import vectors
from core.segmentation.runs import segment_company
from tests.conftest import restored
from tests.factories import add_interactions, make_listener
from tests.memory import event
from tests.themes import EVERYONE_THEME, GOSPEL, GOSPEL_THEME, THEMES, of_theme, person, themed_station

pytestmark = pytest.mark.db
LATER = datetime(2026, 11, 28, 9, 0, tzinfo=UTC)  # the station's today: 28 Nov, after the window
MADE = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)  # the audiences are made then (the tests' NOW), before the window
WINDOW = {"starts": "2026-11-21", "ends": "2026-11-25"}  # Johannesburg, UTC+2


def at(text: str, campaign: str = "song_request", channel: int = 1, timeslot: int | None = None) -> dict:
    return {"t": datetime.fromisoformat(text).replace(tzinfo=UTC), "channel": channel, "campaign": campaign,
            "timeslot": timeslot, "message": None}


@pytest.fixture
def station(app, monkeypatch):
    """The themed station; audiences made on it are made at MADE."""
    monkeypatch.setattr(store, "utcnow", lambda: MADE)
    return restored("themed-1", themed_station)


@pytest.fixture
def campaign(station, monkeypatch) -> dict:
    """Everyone in an audience holding half out, with responses planted around the window's edges; the arms."""
    everyone = sorted(o for theme in THEMES for o in of_theme(1, theme))
    chosen = next(f"split-{n}" for n in range(10_000)
                  if 2 <= arms_of(f"split-{n}", 50, everyone).count(TARGET) <= 9)  # 2 or more in each arm, 3 held
    monkeypatch.setattr(store, "secrets", SimpleNamespace(token_urlsafe=lambda _size: chosen))
    made = create_audience(1, "Everyone", EVERYONE_THEME, limit=1000, min_score=0, holdout_percent=50,
                           campaign=WINDOW)
    arms = {arm: [m["originator"] for m in made["members"] if m["arm"] == arm] for arm in (TARGET, HOLDOUT)}
    target, holdout = arms[TARGET], arms[HOLDOUT]
    add_interactions(1, target[0], [at("2026-11-22T10:00", "competition", channel=3)])
    add_interactions(1, target[1], [at("2026-11-21T21:59")])  # 23:59 on the 21st there
    add_interactions(1, holdout[0], [at("2026-11-25T22:00", "competition")])  # midnight after the last day: out
    add_interactions(1, holdout[1], [at("2026-11-20T21:59")])  # 23:59 the day before: out
    add_interactions(1, holdout[2], [at("2026-11-20T22:00", channel=3)])  # midnight of the first day: in
    segment_company(1, LATER)
    return {"audience": made, **arms}


def test_each_arm_counts_its_members_who_responded_in_the_window_on_the_station_calendar(campaign):
    found = audience_results(1, campaign["audience"]["audience_id"], now=LATER)
    target, holdout = len(campaign[TARGET]), len(campaign[HOLDOUT])
    assert found["arms"][TARGET] == {"members": target, "responded": 2, "rate": round(2 / target, 6)}
    assert found["arms"][HOLDOUT] == {"members": holdout, "responded": 1, "rate": round(1 / holdout, 6)}
    assert found["window"]["from"] == "2026-11-21" and found["window"]["to"] == "2026-11-25"
    assert not found["window"]["running"]
    assert found["lift"]["absolute"] == pytest.approx(2 / target - 1 / holdout, abs=1e-6)
    low, high = found["lift"]["interval"]
    assert low < found["lift"]["absolute"] < high and 0 < found["lift"]["p_value"] <= 1
    days = {day["date"]: (day[TARGET]["responded"], day[HOLDOUT]["responded"]) for day in found["daily"]}
    assert days == {"2026-11-21": (1, 1), "2026-11-22": (1, 0), "2026-11-23": (0, 0), "2026-11-24": (0, 0),
                    "2026-11-25": (0, 0)}


def test_the_goal_narrows_what_counts_as_a_response(campaign):
    audience_id = campaign["audience"]["audience_id"]
    competition = audience_results(1, audience_id, {"campaign_type": "Competition"}, now=LATER)
    assert (competition["arms"][TARGET]["responded"], competition["arms"][HOLDOUT]["responded"]) == (1, 0)
    assert competition["goal"]["campaign_type"] == "competition"
    on_three = audience_results(1, audience_id, {"channel_type": 3}, now=LATER)
    assert (on_three["arms"][TARGET]["responded"], on_three["arms"][HOLDOUT]["responded"]) == (1, 1)
    wider = audience_results(1, audience_id, {"to": "2026-11-26"}, now=LATER)
    assert wider["arms"][HOLDOUT]["responded"] == 2


def test_a_window_still_running_counts_up_to_today_and_says_so(campaign):
    found = audience_results(1, campaign["audience"]["audience_id"], now=datetime(2026, 11, 22, 8, tzinfo=UTC))
    assert found["window"]["running"] and [day["date"] for day in found["daily"]] == ["2026-11-21", "2026-11-22"]
    assert found["verdict"].startswith("So far (the campaign runs until 2026-11-25)")


def test_a_campaign_not_yet_started_has_nothing_to_compare(campaign):
    found = audience_results(1, campaign["audience"]["audience_id"], now=datetime(2026, 11, 19, tzinfo=UTC))
    assert found["lift"] is None and found["daily"] == [] and found["reason"] == "not started"
    assert "starts on 2026-11-21" in found["verdict"]


def test_a_listener_who_joined_the_station_after_the_audience_was_made_is_in_neither_arm(campaign):
    audience_id = campaign["audience"]["audience_id"]
    before = audience_results(1, audience_id, now=LATER)
    make_listener(1, "27819999999", [event(1, channel=2, message=m, now=LATER) for m in GOSPEL])  # first heard
    # from after the audience was made (a day before LATER)
    person(1, "27818888888", GOSPEL)  # first sent to us now, but heard from before the audience: counted
    segment_company(1, LATER)
    vectors.refresh_embeddings(1)
    assert {"27819999999", "27818888888"} <= set(refresh_audience(1, audience_id)["changes"]["joined"])
    after = audience_results(1, audience_id, now=LATER)
    members = {arm: after["arms"][arm]["members"] - before["arms"][arm]["members"] for arm in (TARGET, HOLDOUT)}
    assert sum(members.values()) == 1 and after["excluded"] == {"joined_after": 1}


def test_an_audience_without_a_holdout_answers_the_reason_instead_of_a_lift(station):
    made = create_audience(1, "Nobody held", GOSPEL_THEME, limit=1000, min_score=0, campaign=WINDOW)
    found = audience_results(1, made["audience_id"], now=LATER)
    assert found["lift"] is None and found["sample_size"] is None and found["reason"] == NO_HOLDOUT
    assert found["arms"][HOLDOUT]["members"] == 0


@pytest.mark.parametrize(("asked", "field"), [({"from": "2026-11-25", "to": "2026-11-24"}, "to"),
                                              ({"from": "2026-13-01"}, "from"),
                                              ({"from": "2025-01-01", "to": "2026-01-02"}, "to"),
                                              ({"campaign_type": "no such type"}, "campaign_type"),
                                              ({"channel_type": 0}, "channel_type")])
def test_a_bad_window_or_goal_is_refused_naming_the_field(campaign, asked, field):
    with pytest.raises(ValidationFailed) as refused:
        audience_results(1, campaign["audience"]["audience_id"], asked, now=LATER)
    assert [item["loc"] for item in refused.value.items] == [["query", field]]


def test_a_campaign_recorded_later_replaces_the_one_made_with_the_audience(campaign):
    audience_id = campaign["audience"]["audience_id"]
    recorded = record_campaign(1, audience_id, {"starts": "2026-11-22", "ends": "2026-11-22",
                                                "campaign_type": "competition", "hoped_lift_points": 5})
    assert recorded["campaign"]["campaign_type"] == "competition" and recorded["campaign"]["hoped_lift_points"] == 5
    found = audience_results(1, audience_id, now=LATER)
    assert (found["arms"][TARGET]["responded"], found["arms"][HOLDOUT]["responded"]) == (1, 0)
    assert found["sample_size"]["lift"] == 0.05
    with pytest.raises(ValidationFailed) as refused:
        record_campaign(1, audience_id, {"starts": "2026-11-22", "ends": "2026-11-21"})
    assert [item["loc"] for item in refused.value.items] == [["body", "ends"]]



LATE = datetime(2026, 11, 24, 21, 47, tzinfo=UTC)  # 23:47 on 24 Nov in Johannesburg
LATE_WINDOW = {"starts": "2026-11-24", "ends": "2026-11-27"}


@pytest.fixture
def late(station, monkeypatch) -> dict:
    """Everyone in an audience made at 23:47 station time, nobody held out, its campaign from that day: one member
    wrote a second before it was made, another a second after."""
    monkeypatch.setattr(store, "utcnow", lambda: LATE)
    made = create_audience(1, "Late", GOSPEL_THEME, limit=1000, min_score=0, campaign=LATE_WINDOW)
    first, second = (m["originator"] for m in made["members"][:2])
    add_interactions(1, first, [at("2026-11-24T21:46:59")])
    add_interactions(1, second, [at("2026-11-24T21:47:01")])
    segment_company(1, LATER)
    return made


def test_results_count_from_the_moment_the_audience_was_made_not_from_midnight_of_that_day(late):
    found = audience_results(1, late["audience_id"], now=LATER)
    assert found["arms"][TARGET]["responded"] == 1
    assert (found["daily"][0]["date"], found["daily"][0][TARGET]["responded"]) == ("2026-11-24", 1)
    assert found["window"]["counted_from"] == "2026-11-24T23:47:00+02:00"
    assert found["window"]["counted_words"] == ("Counted from when the audience was made, 24 Nov 2026 at 23:47: "
                                                "what members did before is not a response.")


def test_a_from_earlier_than_the_audience_still_counts_from_its_making_and_says_so(late):
    found = audience_results(1, late["audience_id"], {"from": "2026-11-01"}, now=LATER)
    assert found["arms"][TARGET]["responded"] == 1 and found["window"]["from"] == "2026-11-01"
    assert found["daily"][0]["date"] == "2026-11-24" and found["window"]["days_counted"] == 4
    assert found["window"]["counted_from"] == "2026-11-24T23:47:00+02:00"


def test_a_window_asked_to_end_before_the_audience_was_made_is_refused_naming_to(late):
    with pytest.raises(ValidationFailed) as refused:
        audience_results(1, late["audience_id"], {"from": "2026-11-01", "to": "2026-11-23"}, now=LATER)
    assert [item["loc"] for item in refused.value.items] == [["query", "to"]]


def test_a_campaign_may_be_recorded_from_the_day_the_audience_was_made_but_not_the_day_before(late):
    assert record_campaign(1, late["audience_id"], {"starts": "2026-11-24"})["campaign"]["starts"] == "2026-11-24"
    with pytest.raises(ValidationFailed) as refused:
        record_campaign(1, late["audience_id"], {"starts": "2026-11-23", "ends": "2026-11-25"})
    assert [item["loc"] for item in refused.value.items] == [["body", "starts"]]
    assert store.get_audience(1, late["audience_id"])["campaign"]["starts"] == "2026-11-24"


def test_a_new_audience_s_campaign_may_not_start_before_today_on_the_station_s_calendar(station, monkeypatch):
    monkeypatch.setattr(store, "utcnow", lambda: LATE)
    with pytest.raises(ValidationFailed) as refused:
        create_audience(1, "Too early", GOSPEL_THEME, limit=1000, min_score=0, campaign={"starts": "2026-11-23"})
    assert [item["loc"] for item in refused.value.items] == [["body", "starts"]]
    assert create_audience(1, "Today", GOSPEL_THEME, limit=1000, min_score=0,
                           campaign={"starts": "2026-11-24"})["campaign"]["starts"] == "2026-11-24"


def test_before_a_campaign_is_recorded_nothing_is_counted_and_the_answer_says_so(station):
    made = create_audience(1, "No campaign yet", GOSPEL_THEME, limit=1000, min_score=0, holdout_percent=50)
    for asked in (None, {"from": "2026-11-20", "to": "2026-11-27"}):
        found = audience_results(1, made["audience_id"], asked, now=LATER)
        assert found["campaign"] is None and found["arms"] is None and found["lift"] is None
        assert found["daily"] == [] and found["window"] is None and found["reason"] == NOT_RECORDED


def test_after_a_refresh_results_still_count_from_the_making_and_a_new_member_from_when_they_joined(late,
                                                                                                    monkeypatch):
    stayed = late["members"][2]["originator"]
    add_interactions(1, stayed, [at("2026-11-25T10:00")])  # before the refresh: counted, a member since the making
    person(1, "27818888881", GOSPEL)
    person(1, "27818888882", GOSPEL)
    add_interactions(1, "27818888881", [at("2026-11-25T10:00")])  # before they joined: not counted
    add_interactions(1, "27818888882", [at("2026-11-26T12:00")])  # after they joined: counted
    segment_company(1, LATER)
    vectors.refresh_embeddings(1)
    refreshed = datetime(2026, 11, 26, 10, 0, tzinfo=UTC)
    monkeypatch.setattr(store, "utcnow", lambda: refreshed)
    assert {"27818888881", "27818888882"} <= set(refresh_audience(1, late["audience_id"])["changes"]["joined"])
    monkeypatch.setattr(store, "utcnow", lambda: refreshed + timedelta(days=1))
    refresh_audience(1, late["audience_id"])  # a second refresh keeps when they joined
    found = audience_results(1, late["audience_id"], now=LATER)
    assert found["arms"][TARGET]["responded"] == 3  # the one a second after the making, `stayed` and the second
    assert found["window"]["counted_from"] == "2026-11-24T23:47:00+02:00"
    assert found["window"]["counted_words"].endswith("2 members who joined at a later refresh are counted from "
                                                     "when they joined.")
