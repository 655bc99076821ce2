"""Intelligence over HTTP: a listener's churn risk (read as of now), the listeners who behave like one listener, and
a segment's composite profile against its station, with their limits, errors and tenancy."""
from __future__ import annotations

import pytest

from core.clock import utcnow
from core.search.models import LookalikeCalibration
from core.segmentation.runs import segment_company
from core.stations.models import Company
from tests.conftest import kept, seeded
from tests.factories import make_listener
from tests.memory import NOW, event

pytestmark = pytest.mark.db

PROFILE = "/api/v1/intelligence/segments/1/{}/profile"
KINDS = {"21": (1, 2, "competition", ["gospel"]), "22": (2, 1, "song_request", ["jazz"]),
         "23": (3, 3, "shoutout", ["soccer"])}
"""Three kinds of listener by behaviour: (show, channel, campaign type, tags), keyed by their originators' prefix."""


def churn_risk(client, headers, originator: str, company_id: int = 1):
    return client.get(f"/api/v1/intelligence/listeners/{company_id}/{originator}/churn-risk", headers=headers)


@pytest.fixture
def regulars(app):
    """Company 1: sixty listeners who wrote every 4 days for half a year and stopped for good, one every 3 days up
    to half a year ago (the station's past that teaches what a silence means); then one who went quiet 27 days ago
    and one who wrote every 4 days until yesterday (times against the real clock: the endpoint scores as of now)."""
    now = utcnow()
    for k in range(60):
        make_listener(1, f"278300000{k:02d}", [event(3 * k + 4 * i, now=now) for i in range(45)])
    make_listener(1, "27820000027", [event(27 + 4 * i, now=now) for i in range(45)])
    make_listener(1, "27820000001", [event(1 + 4 * i, now=now) for i in range(45)])


@pytest.fixture
@kept
def crowd(app):
    """Company 1, segmented as of NOW: 4 occasional engagers (female, Soweto, WhatsApp) and 6 new listeners (2
    female and 4 male, Durban, SMS, one without a location)."""
    for i in range(4):
        make_listener(1, f"2782100000{i}", [event(10 - i, channel=2), event(20, channel=2)], gender="female",
                      location="Soweto")
    for i in range(6):
        make_listener(1, f"2782200000{i}", [event(1, channel=1)], gender="female" if i < 2 else "male",
                      location="Durban" if i else None)
    segment_company(1, NOW)


def test_listener_who_wrote_every_4_days_and_is_silent_27_days_is_high_risk(client, regulars, key_for):
    response = churn_risk(client, key_for(1), "27820000027")
    assert response.status_code == 200
    body = response.get_json()
    assert body["level"] == "high" and body["score"] >= 70
    assert (body["company_id"], body["originator"]) == (1, "27820000027")
    assert body["signals"][0]["name"] == "silence"
    assert body["signals"][0]["sentence"] == "Last heard from 27 days ago; usually active every 4 days."
    assert body["probability"] == pytest.approx(body["score"] / 100, abs=0.005)
    assert body["as_of"].startswith(str(utcnow().date()))


def test_a_station_too_small_to_learn_from_is_scored_by_days_since_the_last_interaction_and_says_so(
        client, regulars, key_for):
    body = churn_risk(client, key_for(1), "27820000027").get_json()
    assert body["method"] == body["backtest"]["chosen"] == "recency"
    assert body["backtest"]["labelled"] < 500 and "Only" in body["backtest"]["reason"]
    assert body["backtest"]["auc"]["model"] is None


def test_listener_active_yesterday_is_low_risk(client, regulars, key_for):
    body = churn_risk(client, key_for(1), "27820000001").get_json()
    assert body["level"] == "low" and body["score"] < 40


def test_churn_risk_of_an_unknown_listener_is_404(client, regulars, key_for):
    response = churn_risk(client, key_for(1), "27899999999")
    assert response.status_code == 404
    assert response.get_json()["detail"].startswith("Listener")


def test_churn_risk_of_an_erased_listener_is_404(client, regulars, key_for):
    headers = key_for(1)
    assert client.delete("/api/v1/listeners/1/27820000027", headers=headers).status_code == 200
    assert churn_risk(client, headers, "27820000027").status_code == 404


def test_a_key_for_company_2_is_refused_for_company_1(client, regulars, key_for):
    headers = key_for(2)
    assert churn_risk(client, headers, "27820000027").status_code == 403
    assert client.get(PROFILE.format("super_fan"), headers=headers).status_code == 403


def test_segment_profile_shares_add_up_and_lift_is_against_the_station(client, crowd, key_for):
    body = client.get(PROFILE.format("occasional_engager"), headers=key_for(1)).get_json()
    assert (body["size"], body["profiled"], body["station_size"], body["limit"]) == (4, 4, 10, 500)
    for group in ("declared", "inferred", "channels", "engagement"):
        for name, values in body[group].items():
            if name not in ("has_channel", "timeslot_id") and values:
                assert sum(v["segment_count"] for v in values) == 4, name
                assert sum(v["segment_share"] for v in values) == pytest.approx(1.0, abs=1e-3), name
                assert sum(v["station_share"] for v in values) == pytest.approx(1.0, abs=1e-3), name
    female = next(v for v in body["declared"]["gender"] if v["value"] == "female")
    assert (female["segment_count"], female["segment_share"], female["station_count"], female["station_share"]) == \
        (4, 1.0, 6, 0.6)
    assert female["lift"] == pytest.approx(1.0 / 0.6, abs=0.01)
    not_given = next(v for v in body["declared"]["location"] if v["value"] is None)
    assert (not_given["label"], not_given["segment_count"], not_given["station_count"]) == ("Not given", 0, 1)
    whatsapp = next(v for v in body["channels"]["channel_type"] if v["value"] == "2")
    assert (whatsapp["label"], whatsapp["lift"]) == ("WhatsApp", 2.5)


def test_segment_profile_says_what_sets_the_segment_apart(client, crowd, key_for):
    traits = client.get(PROFILE.format("occasional_engager"), headers=key_for(1)).get_json()["distinctive"]
    assert traits and all(t["lift"] >= 1.2 for t in traits)
    assert [t["lift"] for t in traits] == sorted((t["lift"] for t in traits), reverse=True)
    soweto = next(t for t in traits if t["facet"] == "location")
    assert soweto["sentence"] == ("100% of the profiled occasional engagers live in Soweto, against 40% of the "
                                  "station's listeners (2.5 times as many).")


def test_segment_profile_limit_takes_the_most_engaged_first(client, crowd, key_for):
    body = client.get(PROFILE.format("occasional_engager") + "?limit=2", headers=key_for(1)).get_json()
    assert (body["size"], body["profiled"], body["limit"]) == (4, 2, 2)
    assert sum(v["segment_count"] for v in body["declared"]["gender"]) == 2


@pytest.mark.parametrize("query", ["limit=0", "limit=100001", "limit=many", "limit=5&limit=6"])
def test_segment_profile_limit_outside_1_to_100000_is_422(client, crowd, key_for, query):
    response = client.get(PROFILE.format("super_fan") + f"?{query}", headers=key_for(1))
    assert response.status_code == 422
    assert response.get_json()["detail"][0]["loc"] == ["query", "limit"]


def test_segment_profile_limit_bounds_are_inclusive(client, crowd, key_for):
    for limit in (1, 100_000):
        assert client.get(PROFILE.format("super_fan") + f"?limit={limit}", headers=key_for(1)).status_code == 200


def test_unknown_segment_is_422_naming_the_known_keys(client, crowd, key_for):
    response = client.get(PROFILE.format("superfans"), headers=key_for(1))
    assert response.status_code == 422
    item = response.get_json()["detail"][0]
    assert item["loc"] == ["path", "segment_key"]
    assert "super_fan" in item["msg"] and "dormant" in item["msg"]


@pytest.mark.parametrize("path", ["/api/v1/intelligence/segments/1/super_fan/profile?limt=5",
                                  "/api/v1/intelligence/listeners/1/27821000000/churn-risk?now=2026-01-01"])
def test_an_unknown_query_parameter_is_422(client, crowd, key_for, path):
    response = client.get(path, headers=key_for(1))
    assert response.status_code == 422
    assert response.get_json()["detail"][0]["type"] == "extra_forbidden"


def similar(client, headers, originator: str, company_id: int = 1, **params):
    return client.get(f"/api/v1/intelligence/listeners/{company_id}/{originator}/similar", query_string=params,
                      headers=headers)


@pytest.fixture
@kept
def kinds(app):
    """Company 1: four listeners of each of KINDS, who keep to their kind's show, channel and campaign type (the
    first of each less often than the others), and one who never interacted; company 2: one listener like the
    first kind. Segmented as of NOW."""
    for prefix, (show, channel, campaign, tags) in KINDS.items():
        for n in range(4):
            habits = [event(2 + 3 * i, channel=channel, campaign=campaign, timeslot=show) for i in range(6 + n)]
            make_listener(1, f"278{prefix}00000{n}", habits + [event(40, channel=4, timeslot=4)], tags=tags)
    make_listener(1, "27829000000", [], tags=["gospel"])
    make_listener(2, "27830000001", [event(2 + i, channel=2, campaign="competition", timeslot=1) for i in range(6)])
    for company_id in (1, 2):
        segment_company(company_id, NOW)


def test_similar_ranks_listeners_who_behave_alike_first_never_the_listener_itself(client, kinds, key_for):
    body = similar(client, key_for(1), "27821000000", min_score=0, limit=3).get_json()
    assert [r["originator"][:5] for r in body["results"]] == ["27821"] * 3
    assert "27821000000" not in {r["originator"] for r in body["results"]}
    scores = [r["score"] for r in body["results"]]
    assert scores == sorted(scores, reverse=True)
    assert body["results"][0]["shared"][0] == {"trait": "shows", "values": ["show 1"]}
    assert "tags: gospel" in body["results"][0]["matched"]


def test_a_station_too_small_to_measure_answers_the_raw_similarity_and_says_so(client, kinds, key_for):
    body = similar(client, key_for(1), "27821000000", min_score=0).get_json()
    assert body["calibrated"] is False and body["model"] == "behaviour-1"
    assert all(r["score"] == r["similarity"] for r in body["results"])
    assert (body["candidates"], body["indexed"]) == (12, 11)  # the one who never interacted cannot be alike


def test_similar_can_leave_out_a_segment(client, kinds, key_for):
    segment = client.get("/api/v1/listeners/1/27822000000", headers=key_for(1)).get_json()["segment"]["key"]
    body = similar(client, key_for(1), "27822000000", min_score=0, exclude_segment=segment).get_json()
    assert body["exclude_segment"] == segment and all(r["segment"] != segment for r in body["results"])


def test_similar_defaults_and_unknown_listener(client, kinds, key_for):
    body = similar(client, key_for(1), "27822000000").get_json()
    assert (body["limit"], body["min_score"]) == (20, 0.75)
    assert similar(client, key_for(1), "27899999999").status_code == 404


def test_an_erased_listener_is_never_a_look_alike_and_has_none(client, kinds, key_for):
    assert client.delete("/api/v1/listeners/1/27821000001", headers=key_for(1)).status_code == 200
    body = similar(client, key_for(1), "27821000000", min_score=0, limit=1000).get_json()
    assert "27821000001" not in {r["originator"] for r in body["results"]} and len(body["results"]) == 10
    assert similar(client, key_for(1), "27821000001").status_code == 404


def test_a_listener_without_interactions_has_no_look_alikes_and_the_answer_says_why(client, kinds, key_for):
    response = similar(client, key_for(1), "27829000000", min_score=0)
    assert response.status_code == 200
    body = response.get_json()
    assert (body["results"], body["total"], body["reason"]) == ([], 0, "no_interactions")


def test_look_alikes_are_of_the_station_asked_about_only(client, kinds, key_for):
    body = similar(client, key_for(1), "27821000000", min_score=0, limit=1000).get_json()
    assert "27830000001" not in {r["originator"] for r in body["results"]}
    assert similar(client, key_for(1), "27830000001").status_code == 404  # station 2's listener, asked of 1
    assert similar(client, key_for(2), "27821000000").status_code == 403


def most_recent(client, headers) -> str:
    """The originator of the station's most recently active listener."""
    return client.get("/api/v1/segments/1/filter?page_size=1", headers=headers).get_json()["listeners"][0][
        "originator"]


def test_on_a_station_big_enough_scores_are_the_share_alike_and_the_fit_is_kept(client, app, key_for):
    seeded(200)
    originator = most_recent(client, key_for(1))
    body = similar(client, key_for(1), originator).get_json()
    assert body["calibrated"] is True and body["reason"] is None
    assert all(r["score"] >= 0.75 and 0 <= r["similarity"] <= 1 for r in body["results"])
    fit = LookalikeCalibration.objects.get(company_id=1)
    assert fit.samples >= 200 and fit.file == str(Company.objects.get(company_id=1).snapshot_file)
    everyone = similar(client, key_for(1), originator, min_score=0, limit=1000).get_json()["results"]
    assert [r["score"] for r in everyone] == sorted((r["score"] for r in everyone), reverse=True)


def test_the_fit_is_made_again_once_the_station_is_segmented_again(client, app, key_for):
    seeded(200)
    originator = most_recent(client, key_for(1))
    similar(client, key_for(1), originator)
    before = LookalikeCalibration.objects.get(company_id=1).file
    segment_company(1, NOW)
    similar(client, key_for(1), originator)
    after = LookalikeCalibration.objects.get(company_id=1).file
    assert after != before and after == str(Company.objects.get(company_id=1).snapshot_file)
