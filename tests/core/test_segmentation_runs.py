"""Behavioural profiles and segmentation runs over real stored interactions."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from core import snapshot
from core.listeners import get_listener
from core.models import SegmentChange, Show
from core.segmentation import resegment_listeners, segment_company
from tests.factories import NOW, event, make_company, make_listener

SAST = timezone(timedelta(hours=2))


def column(name: str, originator: str, company_id: int = 1):
    """A listener's value of one snapshot column (categorical columns as their labels)."""
    snap = snapshot.current(company_id)
    row = snap.row_of(originator)
    if name in snap.vocab and snap.cols[name].ndim == 1:
        return snap.labels(name)[row]
    if name in snap.vocab:
        return [v for v, on in zip(snap.vocab[name], snap.cols[name][row]) if on]
    return snap.cols[name][row].item()


def at_local(day: datetime, hour: int, minute: int = 0) -> dict:
    """An event at a local (SAST) wall-clock time on `day`."""
    return {"t": day.replace(hour=hour, minute=minute, tzinfo=SAST).astimezone(timezone.utc), "channel": 1,
            "campaign": "poll", "timeslot": None, "message": None}


@pytest.mark.parametrize("days_ago, expected", [(7, "new_listener"), (8, "occasional_engager")])
def test_first_interaction_on_day_7_is_new_and_on_day_8_is_not(app, days_ago, expected):
    make_listener(1, "a", [event(days_ago), event(1)])
    segment_company(1, NOW)
    assert column("segment", "a") == expected


def test_interaction_exactly_30_days_ago_counts_in_the_month_before(app):
    make_listener(1, "a", [event(30), event(29.99)])
    segment_company(1, NOW)
    assert (column("n_30", "a"), column("n_prev30", "a")) == (1, 1)


def test_interactions_after_now_are_ignored(app):
    make_listener(1, "a", [event(40), event(-5)])
    segment_company(1, NOW)
    assert column("n_total", "a") == 1
    assert column("segment", "a") == "at_risk"


def test_seven_of_ten_competition_entries_make_a_chaser(app):
    make_listener(1, "a", [event(20 + i, campaign="competition") for i in range(7)]
                  + [event(20 + i) for i in range(3)])
    make_listener(1, "b", [event(20 + i, campaign="competition") for i in range(69)]
                  + [event(20 + i) for i in range(31)])
    segment_company(1, NOW)
    assert column("segment", "a") == "competition_chaser"
    assert column("segment", "b") != "competition_chaser"


def test_peak_hour_and_daypart_are_in_the_company_time_zone(app):
    day = datetime(2026, 11, 10)
    make_listener(1, "a", [at_local(day, 7, 30), at_local(day, 7, 45), at_local(day, 13)])
    segment_company(1, NOW)
    assert column("peak_hour", "a") == 7
    assert column("peak_time_of_day", "a") == "breakfast"


def test_peak_ties_go_to_the_lowest_value(app):
    day = datetime(2026, 11, 10)  # a Tuesday
    make_listener(1, "a", [at_local(day, 20), at_local(day, 6), at_local(day + timedelta(days=1), 6),
                           at_local(day + timedelta(days=1), 20)])
    segment_company(1, NOW)
    assert column("peak_hour", "a") == 6
    assert column("primary_day_of_week", "a") == 2


def test_primary_channel_tie_goes_to_the_lowest_channel(app):
    make_listener(1, "a", [event(1, channel=5), event(2, channel=2), event(3, channel=5), event(4, channel=2)])
    segment_company(1, NOW)
    assert column("primary_channel", "a") == 2
    assert column("channels", "a") == [2, 5]


@pytest.mark.parametrize("weekdays, expected", [(3, True), (2, False)])
def test_weekday_pattern_needs_75_percent_monday_to_friday(app, weekdays, expected):
    monday, saturday = datetime(2026, 11, 9), datetime(2026, 11, 14)
    make_listener(1, "a", [at_local(monday, 10)] * weekdays + [at_local(saturday, 10)])
    segment_company(1, NOW)
    assert column("weekday_pattern", "a") is expected


def test_public_holiday_is_named_in_the_company_country(app):
    make_listener(1, "a", [at_local(datetime(2026, 9, 24), 9), at_local(datetime(2026, 9, 25), 9)])
    segment_company(1, NOW)
    assert column("public_holidays", "a") == ["Heritage Day"]


def test_active_weeks_are_local_iso_weeks(app):
    # Sunday 23:30 local is still the old ISO week although it is Sunday 21:30 UTC; Monday 00:30 local is the next
    sunday, monday = datetime(2026, 11, 15), datetime(2026, 11, 16)
    make_listener(1, "a", [at_local(sunday, 23, 30), at_local(monday, 0, 30)])
    make_listener(1, "b", [at_local(monday, 0, 30), at_local(monday, 1, 30)])
    segment_company(1, NOW)
    assert column("active_weeks_90", "a") == 2
    assert column("active_weeks_90", "b") == 1


def test_a_loyal_weekly_show_listener_is_a_show_loyalist(app):
    make_company(1)
    Show(company_id=1, timeslot_id=3, title="Breakfast Club", days=[1, 2, 3, 4, 5], start="06:00", end="09:00").save()
    make_listener(1, "a", [event(9 + 7 * w, timeslot=3) for w in range(5)] + [event(100)])
    segment_company(1, NOW)
    assert column("segment", "a") == "show_loyalist"
    assert column("timeslots", "a") == [3]


def test_profile_only_listener_with_no_interactions_is_dormant(app):
    make_listener(1, "a", [], name="Thandi")
    segment_company(1, NOW)
    assert column("segment", "a") == "dormant"


def test_a_run_appends_history_only_for_listeners_whose_segment_changed(app):
    make_listener(1, "a", [event(1), event(3)])
    make_listener(1, "b", [event(100)])
    segment_company(1, NOW)
    run = segment_company(1, NOW + timedelta(days=10))
    moves = {(c.originator, c.from_segment, c.to_segment) for c in SegmentChange.objects(run_id=run.run_id)}
    assert moves == {("a", "new_listener", "occasional_engager")}
    history = get_listener(1, "a")["segment_history"]
    assert [(h["from"], h["to"]) for h in history] == [(None, "new_listener"), ("new_listener", "occasional_engager")]
    assert history[1]["at"] == (NOW + timedelta(days=10)).isoformat()


def test_movements_count_transitions_and_name_the_show_in_words(app):
    make_company(1)
    Show(company_id=1, timeslot_id=3, title="Breakfast Club", days=[1], start="06:00", end="09:00").save()
    for i in range(3):
        make_listener(1, f"l{i}", [event(d, channel=1 + d % 2, timeslot=3) for d in range(1, 13)]
                      + [event(200, timeslot=3)])
    segment_company(1, NOW)
    run = segment_company(1, NOW + timedelta(days=40))
    assert run.movements["matrix"] == {"super_fan": {"at_risk": 3}}
    assert run.movements["highlights"] == ["3 super fans became at risk, most of them Breakfast Club listeners"]


def test_resegmenting_touched_listeners_keeps_the_others_as_they_were(app):
    make_listener(1, "a", [event(1), event(3)])
    make_listener(1, "b", [event(2), event(4)])
    segment_company(1, NOW)
    later = NOW + timedelta(days=20)
    resegment_listeners(1, ["a"], now=later)
    assert column("segment", "a") == "occasional_engager"
    assert column("segment", "b") == "new_listener"
    assert len(snapshot.current(1)) == 2


def test_same_interactions_and_now_always_give_the_same_segments(app):
    make_listener(1, "a", [event(d, channel=1 + d % 3) for d in range(1, 30)])
    make_listener(1, "b", [event(40), event(41)])
    first = segment_company(1, NOW).rollup
    snapshot.clear_cache()
    assert segment_company(1, NOW).rollup == first


def test_a_partial_run_keeps_fixed_vocabularies_in_their_order(app):
    make_listener(1, "a", [event(1)], name="A", email="a@x.fm")
    make_listener(1, "b", [event(2)])
    segment_company(1, NOW)
    resegment_listeners(1, ["a"], now=NOW)
    snap = snapshot.current(1)
    from core.vocabulary import DECLARED_FIELDS
    from core.segments import SEGMENTS

    assert snap.vocab["missing_fields"] == list(DECLARED_FIELDS)
    assert snap.vocab["segment"] == list(SEGMENTS)
    assert column("missing_fields", "a") == ["mobile_number", "gender", "age", "location", "language", "ethnicity",
                                             "id_number"]
