"""Churn in the runs: the first full run of a station day learns the station's scoring and keeps it with its report,
every run scores its listeners into the snapshot with it (so churn is a column like any other), and a full run learns
again only on another station day, at an earlier `now`, for another horizon, or once the interactions moved by more
than 1% (`store.stands`, tested here on documents built in memory at each boundary)."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from core.churn import store
from core.churn.models import ChurnModel
from core.listeners import snapshot
from core.segmentation.runs import resegment_listeners, segment_company
from tests.conftest import restored
from tests.factories import add_interactions, make_listener
from tests.memory import NOW, event, snapshot_of


@pytest.fixture
def station(app):
    """Twelve listeners heard from every few days until a day ago, twelve silent for seven weeks, one with none."""
    restored("churn-store", _station)
    return snapshot.current(1)


def _station() -> None:
    for n in range(12):
        make_listener(1, f"2782000{n:04d}", [event(d) for d in range(1, 200, 4)])
        make_listener(1, f"2783000{n:04d}", [event(d) for d in range(50, 200, 4)])
    make_listener(1, "27840000000", [])
    segment_company(1, NOW)


def churn_of(snap, originator: str) -> float:
    return float(snap.cols["churn"][snap.row_of(originator)])


@pytest.mark.db
def test_a_full_run_keeps_what_it_learned_and_why(station):
    report = store.report_of(1)
    assert report["chosen"] == "recency" and report["labelled"] == 24 and "Only 24" in report["reason"]
    assert report["metrics"]["recency"]["auc"] == 1.0  # the silent ones went quiet, the others did not
    assert report["horizon_days"] == 30 and report["held_out"].date() == (NOW - timedelta(days=30)).date()


@pytest.mark.db
def test_every_listener_gets_a_probability_in_the_snapshot_higher_for_the_long_silent(station):
    heard, silent = churn_of(station, "27820000000"), churn_of(station, "27830000000")
    assert 0 <= heard < silent <= 1
    assert np.isnan(churn_of(station, "27840000000"))  # nobody can say how a listener never heard from behaves


@pytest.mark.db
def test_a_listener_heard_from_again_is_scored_by_the_kept_model_without_learning_again(station):
    learned_at = ChurnModel.objects.get(company_id=1).made_at
    add_interactions(1, "27830000000", [event(0.5)], import_id="again")
    resegment_listeners(1, ["27830000000"], NOW)
    fresh = snapshot.current(1)
    assert churn_of(fresh, "27830000000") == pytest.approx(churn_of(station, "27820000000"), abs=0.01)
    assert ChurnModel.objects.get(company_id=1).made_at == learned_at


@pytest.mark.db
def test_the_next_full_run_learns_again_as_of_its_own_time(station):
    segment_company(1, NOW + timedelta(days=1))
    assert store.report_of(1)["as_of"].date() == (NOW + timedelta(days=1)).date()


LOCAL_MIDNIGHT = datetime(2026, 11, 20, 22, 0, tzinfo=UTC)  # NOW is 14:00 in Johannesburg, the test station's zone


def made_at() -> datetime:
    return ChurnModel.objects.get(company_id=1).made_at


@pytest.mark.db
def test_a_second_full_run_the_same_station_day_scores_with_the_kept_model_and_says_so(station):
    learned_at, steps = made_at(), []
    segment_company(1, LOCAL_MIDNIGHT - timedelta(seconds=1), progress=steps.append)  # 23:59:59 there
    assert made_at() == learned_at and store.report_of(1)["as_of"].replace(tzinfo=UTC) == NOW
    assert "kept the churn model learned earlier today" in steps


@pytest.mark.db
def test_the_first_full_run_after_midnight_in_the_station_s_zone_learns_though_the_utc_date_is_the_same(station):
    learned_at, steps = made_at(), []
    segment_company(1, LOCAL_MIDNIGHT, progress=steps.append)
    assert made_at() > learned_at and store.report_of(1)["as_of"].replace(tzinfo=UTC) == LOCAL_MIDNIGHT
    assert "kept the churn model learned earlier today" not in steps


@pytest.mark.db
def test_a_full_run_with_an_earlier_now_the_same_day_learns_as_of_it(station):
    earlier = NOW - timedelta(hours=1)
    segment_company(1, earlier)
    assert store.report_of(1)["as_of"].replace(tzinfo=UTC) == earlier


@pytest.mark.db
@pytest.mark.parametrize("added, learns", [(10, False), (11, True)])
def test_a_full_run_learns_again_once_the_interactions_moved_by_more_than_1_percent(station, added, learns):
    learned_at, learned_from = made_at(), ChurnModel.objects.get(company_id=1).interactions
    assert learned_from == 12 * 50 + 12 * 38  # 1% of 1056 is 10.56
    add_interactions(1, "27830000000", [event(0.5 + n / 100) for n in range(added)], import_id="more")
    segment_company(1, NOW + timedelta(hours=1))
    assert (made_at() > learned_at) is learns


def kept_doc(**overrides) -> dict:
    return {"as_of": NOW, "horizon_days": 30, "interactions": 1000, **overrides}


def test_a_kept_model_stands_the_same_station_day_until_local_midnight():
    tz = "Africa/Johannesburg"
    assert store.stands(kept_doc(), 1000, LOCAL_MIDNIGHT - timedelta(microseconds=1), 30, tz)
    assert not store.stands(kept_doc(), 1000, LOCAL_MIDNIGHT, 30, tz)
    assert not store.stands(kept_doc(), 1000, LOCAL_MIDNIGHT, 30, None)  # no zone named: the default station zone
    assert store.stands(kept_doc(), 1000, LOCAL_MIDNIGHT, 30, "UTC")


def test_a_kept_model_stands_at_its_own_now_but_not_before_it():
    assert store.stands(kept_doc(), 1000, NOW, 30, None)
    assert not store.stands(kept_doc(), 1000, NOW - timedelta(seconds=1), 30, None)


@pytest.mark.parametrize("count, stands", [(1010, True), (990, True), (1011, False), (989, False)])
def test_a_kept_model_stands_while_the_interactions_moved_by_at_most_1_percent(count, stands):
    assert store.stands(kept_doc(), count, NOW, 30, None) is stands


@pytest.mark.parametrize("count, stands", [(1, True), (2, False)])
def test_a_kept_model_of_a_small_station_stands_while_one_interaction_moved(count, stands):
    assert store.stands(kept_doc(interactions=0), count, NOW, 30, None) is stands


def test_a_kept_model_learned_for_another_horizon_does_not_stand():
    assert not store.stands(kept_doc(), 1000, NOW, 14, None)


def test_a_kept_model_stored_before_its_interactions_were_counted_does_not_stand():
    assert not store.stands({"as_of": NOW, "horizon_days": 30}, 1000, NOW, 30, None)
    assert not store.stands(None, 1000, NOW, 30, None)


@pytest.mark.db
def test_churn_risk_is_a_filter_and_the_silent_ones_are_high(station):
    from core.explore.filters import parse_filters
    from core.explore.operations import filter_listeners

    high = filter_listeners(1, parse_filters({"churn_risk": ["high"]}), 1, 100)["listeners"]
    low = filter_listeners(1, parse_filters({"churn_risk": ["low"]}), 1, 100)["listeners"]
    assert {r["originator"][:5] for r in low} == {"27820"} and len(low) == 12
    assert {r["originator"] for r in high} >= {f"2783000{n:04d}" for n in range(12)}
    assert all(r["churn_probability"] < 0.4 for r in low)


@pytest.mark.db
def test_the_explorer_sorts_by_churn_the_likeliest_to_go_quiet_first(station):
    from core.explore.filters import ListenerFilter
    from core.explore.operations import explore

    rows = explore(1, ListenerFilter(), 1, 30, sort="-churn")["results"]["listeners"]
    chances = [r["churn_probability"] for r in rows if r["churn_probability"] is not None]
    assert chances == sorted(chances, reverse=True) and rows[-1]["originator"].startswith("27820")


@pytest.mark.db
def test_each_segment_says_how_many_it_is_expected_to_lose(station):
    from core.segmentation.overview import segment_breakdown

    rows = [r for r in segment_breakdown(1)["segments"] if r["expected_quiet"] is not None]
    churn = snapshot.current(1).cols["churn"]
    assert rows and sum(r["expected_quiet"] for r in rows) == pytest.approx(np.nansum(churn), abs=len(rows))
    assert all(0 <= r["averages"]["churn"] <= 1 for r in rows)


def test_a_snapshot_written_before_churn_reads_it_as_absent():
    from core.listeners.snapshot_files import packed, unpacked

    old = snapshot_of([{"originator": "27820000001", "events": [event(d) for d in range(1, 60, 4)]},
                       {"originator": "27820000002", "events": [event(50)]}])
    old.cols.pop("churn"), old.cols.pop("churn_level"), old.vocab.pop("churn_level")
    read = unpacked(packed(old))
    assert np.isnan(read.cols["churn"]).all() and (read.cols["churn_level"] == -1).all()


@pytest.mark.db
def test_the_explorer_counts_listeners_at_each_level_as_the_filter_finds_them(station):
    from core.explore.filters import ListenerFilter, parse_filters
    from core.explore.operations import aggregate, filter_listeners

    counts = aggregate(1, ListenerFilter())["churn_risk"]
    assert counts and sum(counts.values()) == 25
    for level, count in counts.items():
        assert filter_listeners(1, parse_filters({"churn_risk": [level]}), 1, 100)["total"] == count


@pytest.mark.db
def test_the_horizon_is_a_station_setting_the_next_full_run_learns_with(station):
    from core.segmentation.overview import segment_breakdown
    from core.stations.models import Company

    Company.objects(company_id=1).update_one(set__churn_horizon_days=14)
    segment_company(1, NOW)
    report = store.report_of(1)
    assert report["horizon_days"] == 14 and report["held_out"].date() == (NOW - timedelta(days=14)).date()
    assert store.kept(1).horizon_days == 14 and segment_breakdown(1)["churn_horizon_days"] == 14


@pytest.mark.db
def test_a_listener_last_heard_at_23_23_is_last_heard_from_yesterday_at_08_00_in_the_station_s_zone(station):
    from datetime import UTC, datetime

    from core.intelligence.risk import listener_churn_risk
    late = datetime(2026, 11, 19, 21, 23, tzinfo=UTC)  # Thursday 23:23 in Johannesburg
    make_listener(1, "27850000000", [{"t": late - timedelta(days=d), "channel": 1, "campaign": "song_request",
                                      "timeslot": None, "message": None} for d in (0, 4, 8)])
    found = listener_churn_risk(1, "27850000000", now=datetime(2026, 11, 20, 6, 0, tzinfo=UTC))  # Friday 08:00
    silence = next(s for s in found["signals"] if s["name"] == "silence")
    assert silence["sentence"].startswith("Last heard from yesterday")
