"""A segment's composite profile on a snapshot built in memory (no database): shares against the profiled
listeners and the station, lift, the null entry of listeners without a value, the most engaged first under a limit,
erased listeners left out, and the distinctive traits in plain English."""
from __future__ import annotations

import numpy as np
import pytest

from core.errors import ValidationFailed
from core.intelligence.segment_profile import check_limit, check_segment, most_engaged, profile_of
from core.stations.models import Company
from tests.memory import event, snapshot_of

COMPANY = Company(company_id=1)


def station():
    """4 occasional engagers (female, Soweto, WhatsApp; the first two wrote more often) and 6 new listeners (2
    female and 4 male, SMS, in Durban but for one without a location)."""
    regulars = [{"originator": f"r{i}", "gender": "female", "location": "Soweto",
                 "events": [event(d, channel=2) for d in (3, 9, 20)] + [event(d, channel=2) for d in range(4, 9)
                                                                         if i < 2]} for i in range(4)]
    newcomers = [{"originator": f"n{i}", "gender": "female" if i < 2 else "male",
                  "location": "Durban" if i else None, "events": [event(1)]} for i in range(6)]
    return snapshot_of(regulars + newcomers)


def value(profile: dict, group: str, name: str, of):
    return next(v for v in profile[group][name] if v["value"] == of)


def test_shares_of_a_single_valued_facet_add_up_to_one_with_the_listeners_without_a_value():
    profile = profile_of(COMPANY, station(), "new_listener", 500, {})
    location = profile["declared"]["location"]
    assert [(v["value"], v["segment_count"]) for v in location] == [("Durban", 5), ("Soweto", 0), (None, 1)]
    assert sum(v["segment_share"] for v in location) == pytest.approx(1.0)
    assert sum(v["station_share"] for v in location) == pytest.approx(1.0)
    assert value(profile, "declared", "location", None)["label"] == "Not given"


def test_lift_is_the_segment_share_over_the_station_share():
    profile = profile_of(COMPANY, station(), "occasional_engager", 500, {})
    soweto = value(profile, "declared", "location", "Soweto")
    assert (soweto["segment_share"], soweto["station_share"], soweto["lift"]) == (1.0, 0.4, 2.5)
    male = value(profile, "declared", "gender", "male")
    assert (male["segment_count"], male["station_count"], male["lift"]) == (0, 4, 0.0)


def test_coded_values_carry_their_names():
    profile = profile_of(COMPANY, station(), "occasional_engager", 500, {})
    assert value(profile, "channels", "channel_type", "2")["label"] == "WhatsApp"
    day = profile["engagement"]["primary_day_of_week"][0]
    assert day["label"] in ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def test_the_limit_profiles_the_most_engaged_first_then_by_originator():
    snap = station()
    regulars = np.array([snap.row_of(f"r{i}") for i in (3, 2, 1, 0)])
    assert snap.originators[most_engaged(snap, regulars, 2)].tolist() == ["r0", "r1"]
    assert snap.originators[most_engaged(snap, regulars, 3)].tolist() == ["r0", "r1", "r2"]
    profile = profile_of(COMPANY, station(), "occasional_engager", 2, {})
    assert (profile["size"], profile["profiled"]) == (4, 2)
    assert value(profile, "engagement", "weekday_pattern", "true")["segment_count"] + \
        value(profile, "engagement", "weekday_pattern", "false")["segment_count"] == 2
    again = profile_of(COMPANY, station(), "occasional_engager", 2, {})
    assert again == profile


def test_erased_listeners_are_in_neither_the_segment_nor_the_station():
    snap = station()
    snap.cols["erased"][snap.row_of("r0")] = True
    profile = profile_of(COMPANY, snap, "occasional_engager", 500, {})
    assert (profile["size"], profile["station_size"]) == (3, 9)
    assert value(profile, "declared", "location", "Soweto")["station_count"] == 3


def test_distinctive_traits_are_the_highest_lifts_in_plain_english():
    traits = profile_of(COMPANY, station(), "occasional_engager", 500, {})["distinctive"]
    assert 0 < len(traits) <= 5
    assert [t["lift"] for t in traits] == sorted((t["lift"] for t in traits), reverse=True)
    assert traits[0]["lift"] == 2.5
    channel = next(t for t in traits if t["facet"] == "channel_type")
    assert channel["sentence"] == ("100% of the profiled occasional engagers mostly use WhatsApp, against 40% of "
                                   "the station's listeners (2.5 times as many).")


def test_a_segment_with_nobody_in_it_has_empty_shares_and_no_traits():
    profile = profile_of(COMPANY, station(), "dormant", 500, {})
    assert (profile["size"], profile["profiled"], profile["distinctive"]) == (0, 0, [])
    assert all(v["segment_share"] == 0 for v in profile["declared"]["gender"])


def test_an_unknown_segment_is_refused_naming_the_known_ones():
    with pytest.raises(ValidationFailed) as error:
        check_segment("superfans")
    assert error.value.items[0]["loc"] == ["path", "segment_key"] and "super_fan" in error.value.items[0]["msg"]


@pytest.mark.parametrize("limit", [0, 100_001])
def test_a_limit_outside_1_to_100000_is_refused(limit):
    with pytest.raises(ValidationFailed):
        check_limit(limit)
