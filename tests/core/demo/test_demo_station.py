"""The demo station generator: deterministic, valid ingest rows, and histories that land in their segments."""
from __future__ import annotations

from collections import Counter, defaultdict
from datetime import UTC, datetime, timedelta
from itertools import islice

import numpy as np
import pytest

from core.demo.people import ARCHETYPES
from core.demo.station import generate_station
from core.ingest.importer import KINDS
from core.listeners.fields import AGE_GROUPS, GENDERS
from core.segmentation.rules import DEFAULT_THRESHOLDS, SEGMENTS, assign

NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
CAMPAIGN_TYPES = {"competition", "song_request", "shoutout", "poll", "feedback", "other"}


def rows_of(station, kind: str, limit: int | None = None) -> list[dict]:
    return list(islice(getattr(station, kind)(), limit))


def inputs_of(interactions: list[dict], originators: list[str], now: datetime) -> dict:
    """The per-listener numbers of segments.md, computed straight from the rows."""
    by = defaultdict(list)
    for row in interactions:
        by[row["originator"]].append(row)
    cols = defaultdict(list)
    for originator in originators:
        rows = by[originator]
        times = [datetime.fromisoformat(r["timestamp"]) for r in rows]
        age = np.array([(now - t).total_seconds() / 86400 for t in times])
        last30, prev30, last90 = age < 30, (age >= 30) & (age < 60), age < 90
        shows = Counter(r["timeslot_id"] for r, keep in zip(rows, last90) if keep)
        cols["since_first_days"].append(age.max())
        cols["recency_days"].append(age.min())
        cols["n_total"].append(len(rows))
        cols["n_30"].append(last30.sum())
        cols["n_prev30"].append(prev30.sum())
        cols["n_90"].append(last90.sum())
        cols["channels_30"].append(len({r["channel_type"] for r, keep in zip(rows, last30) if keep}))
        cols["competition_share"].append(sum(r["campaign_type"] == "competition" for r in rows) / len(rows))
        cols["top_show_share_90"].append(max(shows.values()) / sum(shows.values()) if shows else 0.0)
        cols["active_weeks_90"].append(len({t.isocalendar()[:2] for t, keep in zip(times, last90) if keep}))
    return {name: np.array(values, dtype=float) for name, values in cols.items()}


@pytest.fixture(scope="module")
def station():
    return generate_station(7, 700, seed=11, now=NOW)


@pytest.fixture(scope="module")
def interactions(station):
    return rows_of(station, "interactions")


def test_same_seed_and_now_give_identical_rows(station):
    again = generate_station(7, 700, seed=11, now=NOW)
    for kind in KINDS:
        assert rows_of(again, kind) == rows_of(station, kind)


def test_a_different_seed_gives_different_rows(station):
    other = generate_station(7, 700, seed=12, now=NOW)
    assert rows_of(other, "profiles", 50) != rows_of(station, "profiles", 50)
    assert rows_of(other, "interactions", 200) != rows_of(station, "interactions", 200)


def test_a_naive_now_is_utc_as_segmentation_reads_it():
    naive = generate_station(1, 50, seed=1, now=datetime(2026, 11, 20, 12, 0))
    assert rows_of(naive, "interactions") == rows_of(generate_station(1, 50, seed=1, now=NOW), "interactions")


def test_channels_and_shows_follow_the_ingest_formats(station):
    channels, shows = rows_of(station, "channels"), rows_of(station, "shows")
    assert sorted(c["channel_type"] for c in channels) == [1, 2, 3, 4, 5, 6, 7]
    assert all(c["company_id"] == 7 and isinstance(c["name"], str) and c["name"] for c in channels)
    for show in shows:
        assert set(show) == {"company_id", "timeslot_id", "title", "days", "start", "end"}
        assert isinstance(show["timeslot_id"], int) and set(show["days"]) <= {1, 2, 3, 4, 5, 6, 7}
        assert show["start"] < show["end"] <= "24:00"


def test_every_hour_of_the_week_has_exactly_one_show(station):
    hours = Counter((day, hour) for show in rows_of(station, "shows") for day in show["days"]
                    for hour in range(int(show["start"][:2]), int(show["end"][:2])))
    assert len(hours) == 7 * 24 and set(hours.values()) == {1}


def test_profiles_follow_the_ingest_formats(station):
    profiles = rows_of(station, "profiles")
    assert 0.7 * 700 < len(profiles) < 700
    for row in profiles:
        assert row["company_id"] == 7 and row["originator"].startswith("27") and len(row["originator"]) == 11
        assert row.get("gender", "male") in GENDERS and row.get("age_group", "18-24") in AGE_GROUPS
        assert all(isinstance(row[f], bool) for f in ("opt_in", "permission") if f in row)
        assert all(isinstance(tag, str) for tag in row.get("tags", []))
        if "id_number" in row:
            assert len(row["id_number"]) == 13 and row["id_number"].isdigit()
        if "mobile_number" in row:
            assert row["mobile_number"].startswith("+27") and len(row["mobile_number"]) == 12


def test_some_profiles_are_complete_and_many_are_partial(station):
    declared = ("mobile_number", "gender", "age_group", "location", "language", "ethnicity", "name", "email",
                "id_number")
    filled = [sum(f in row for f in declared) for row in rows_of(station, "profiles")]
    assert 0.05 < filled.count(9) / len(filled) < 0.35
    assert sum(1 for n in filled if n < 9) > len(filled) / 2


def test_interactions_follow_the_ingest_formats(interactions):
    required = {"company_id", "originator", "timestamp", "channel_type", "campaign_type"}
    for row in interactions:
        assert required <= set(row) and row["company_id"] == 7
        assert isinstance(row["channel_type"], int) and 1 <= row["channel_type"] <= 7
        assert row["campaign_type"] in CAMPAIGN_TYPES and isinstance(row["timeslot_id"], int)
        assert row["timestamp"].endswith("+02:00") and datetime.fromisoformat(row["timestamp"]) < NOW
        assert isinstance(row.get("message", ""), str) and isinstance(row["interaction_id"], str)


def test_interaction_ids_and_originators_are_unique(station, interactions):
    assert len({row["interaction_id"] for row in interactions}) == len(interactions)
    originators = [originator for originator, _ in station.archetypes()]
    assert len(set(originators)) == len(originators) == 700


def test_about_twenty_interactions_per_listener_over_thirteen_months(interactions):
    assert 14 < len(interactions) / 700 < 26
    oldest = min(datetime.fromisoformat(row["timestamp"]) for row in interactions)
    assert NOW - timedelta(days=410) < oldest < NOW - timedelta(days=360)


def test_every_archetype_is_present(station):
    assert set(archetype for _, archetype in station.archetypes()) == set(ARCHETYPES)


def test_each_archetype_history_lands_in_its_segment(station, interactions):
    originators, archetypes = zip(*station.archetypes())
    codes = assign(inputs_of(interactions, list(originators), NOW), DEFAULT_THRESHOLDS)
    assert [SEGMENTS[code] for code in codes] == list(archetypes)


def test_histories_land_in_their_segments_whatever_the_time_of_day():
    for now in (datetime(2027, 1, 3, 22, 5, tzinfo=UTC), datetime(2026, 6, 15, 0, 1, tzinfo=UTC)):
        station = generate_station(2, 300, seed=5, now=now)
        originators, archetypes = zip(*station.archetypes())
        codes = assign(inputs_of(rows_of(station, "interactions"), list(originators), now), DEFAULT_THRESHOLDS)
        assert [SEGMENTS[code] for code in codes] == list(archetypes)


def test_messages_come_in_the_stations_languages(interactions):
    messages = " | ".join(row["message"] for row in interactions if "message" in row)
    for phrase in ("Ngicela", "asseblief", "Ndicela", "Ke kopa", "Please play"):
        assert phrase in messages


def test_competition_entries_come_in_bursts(interactions):
    days = Counter(row["timestamp"][:10] for row in interactions if row["campaign_type"] == "competition")
    top_five = sum(count for _, count in days.most_common(5))
    assert len(days) < 120 and top_five > 0.15 * sum(days.values())


@pytest.mark.db
def test_seeded_station_lands_every_listener_in_its_segment(app):
    from core.demo.seed import seed_demo
    from core.listeners import snapshot
    from core.stations.models import Company

    summary = seed_demo(3, 2000, seed=7, now=NOW)
    assert summary["imported"]["channels"] == 7 and summary["segmented"] == 2000
    labels = snapshot.current(3).labels("segment")
    assert set(labels) == set(SEGMENTS)
    expected = dict(generate_station(3, 2000, seed=7, now=NOW).archetypes())
    got = dict(zip(snapshot.current(3).originators.tolist(), labels.tolist()))
    assert got == expected
    assert Company.objects.get(company_id=3).name == "Demo FM"


@pytest.mark.db
def test_demo_command_seeds_a_station_and_prints_a_summary(runner):
    result = runner.invoke(args=["demo", "--company", "4", "--listeners", "300", "--seed", "3",
                                 "--now", "2026-11-20T14:00:00+02:00"])
    assert result.exit_code == 0, result.output
    assert "interactions:" in result.output and "300 listeners segmented" in result.output


@pytest.mark.db
def test_a_seeded_demo_has_its_thirteen_months_of_history_once_a_worker_has_run(app):
    """`make run` seeds the demo without an import's run, so the seeding itself asks for the rebuild."""
    from core.demo.seed import seed_demo
    from core.history.models import HistoryPoint
    from core.service.worker import Worker

    seed_demo(6, 300, seed=7)
    assert HistoryPoint.objects(company_id=6).count() == 1  # the seeding's run: the day's point only
    Worker(app.config["SETTINGS"]).work_until_idle()
    assert HistoryPoint.objects(company_id=6, source="rebuilt").count() >= 52


@pytest.mark.db
def test_a_demo_station_as_of_a_future_now_is_imported_whole_and_lands_in_its_segments(app):
    """The demo imports as of its own `now`: times are accepted up to a day after the moment of import."""
    from core.clock import utcnow
    from core.demo.seed import seed_demo
    from core.listeners import snapshot

    later = utcnow() + timedelta(days=60)
    summary = seed_demo(5, 300, seed=7, now=later)
    assert summary["imported"]["interactions"] == summary["rows"]["interactions"]
    got = dict(zip(snapshot.current(5).originators.tolist(), snapshot.current(5).labels("segment").tolist()))
    assert got == dict(generate_station(5, 300, seed=7, now=later).archetypes())
