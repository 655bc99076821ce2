"""Interactions stored outside the accepted range (0001-01-01, 1899-12-31, 9999-12-31, any int64) or after the
`now` of a run are left out wherever stored events are read: no AI, intelligence or explorer operation of the station
answers 5xx, and the listener's profile counts only the interactions in range and at or before `now`."""
from __future__ import annotations

import pytest

from core.listeners import snapshot
from core.segmentation.rules import SEGMENTS
from core.segmentation.runs import segment_company
from tests.conftest import kept
from tests.memory import NOW
from tests.out_of_range import PLACEHOLDER, out_of_range_station
from tests.themes import GOSPEL_THEME

pytestmark = pytest.mark.db

BRIEF = "Reach women in Durban who love gospel, on WhatsApp. Budget R20 000."
ORDINARY = 8
"""The placeholder listener's interactions in range, all before NOW (tests.themes.person: 2 messages and 6 more)."""


@pytest.fixture
@kept
def station(app):
    return out_of_range_station(1)


@pytest.fixture(params=[True, False], ids=["segmented since", "stored after the last run"])
def either_station(app, request):
    return out_of_range_station(1, segmented_since=request.param)


def operations() -> list[tuple[str, str, dict]]:
    """(method, path, options) of every AI, intelligence and explorer operation that reads the station's events."""
    listener = f"/1/{PLACEHOLDER}"
    calls = [("get", f"/api/v1/listeners{listener}", {}),
             ("get", f"/api/v1/intelligence/listeners{listener}/churn-risk", {}),
             ("get", f"/api/v1/intelligence/listeners{listener}/similar", {}),
             *[("get", f"/api/v1/intelligence/segments/1/{key}/profile", {}) for key in SEGMENTS],
             ("get", "/api/v1/ai/segments/1/insights", {}),
             ("get", f"/api/v1/ai/listeners{listener}", {}),
             ("put", f"/api/v1/ai/listeners{listener}/promote-demographics", {}),
             ("post", "/api/v1/ai/segments/1/custom-segment", {"json": {"theme": GOSPEL_THEME}}),
             ("post", "/api/v1/agent/1/parse-brief", {"json": {"brief": BRIEF}}),
             ("post", "/api/v1/agent/1/recommend", {"json": {"brief": BRIEF}}),
             ("post", "/api/v1/audiences/1", {"json": {"name": "Gospel lovers", "theme": GOSPEL_THEME}})]
    calls += [("get", f"/api/v1/segments/1{tail}", {}) for tail in ("/summary", "", "/insights", "/tags")]
    calls += [("get", f"/api/v1/segments/1/{name}", {}) for name in ("filter", "aggregate", "completeness",
                                                                        "cross-channel")]
    calls += [("get", "/api/v1/segments/1/export", {"query_string": {"format": fmt}}) for fmt in ("json", "csv")]
    calls += [("get", "/api/v1/segments/1/search", {"query_string": {"q": "praise and worship"}})]
    return calls


def failures(client, headers: dict, calls: list[tuple[str, str, dict]]) -> list[str]:
    """The calls that did not succeed, each with its status (or the exception it raised)."""
    found = []
    for method, path, options in calls:
        try:
            answer = getattr(client, method)(path, headers=headers, **options)
            answer.get_data()  # a streamed export fails while it is read, after its status
            status = answer.status_code
        except Exception as error:  # noqa: BLE001 - the test names what a 500 would have hidden
            status = f"raised {error!r}"
        if not isinstance(status, int) or status >= 400:
            found.append(f"{method.upper()} {path} {options}: {status}")
    return found


def test_no_operation_fails_for_a_listener_with_interactions_outside_the_accepted_range(client, either_station,
                                                                                         key_for):
    headers = key_for(1)
    assert failures(client, headers, operations()) == []
    audience = client.get("/api/v1/audiences/1", headers=headers).get_json()["audiences"][0]["audience_id"]
    assert failures(client, headers, [("put", f"/api/v1/audiences/1/{audience}/refresh", {})]) == []


def test_a_live_interaction_of_that_listener_is_stored_and_segments_it(client, either_station, key_for):
    row = {"company_id": 1, "originator": PLACEHOLDER, "timestamp": "2026-11-19T07:15:00+02:00", "channel_type": 2,
           "campaign_type": "song_request"}
    answer = client.post("/api/v1/interactions/1", json=[row], headers=key_for(1))
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["rows"] == [{"index": 0, "status": "stored"}]


def interactions_counted() -> int:
    """The placeholder listener's interactions in the station's current snapshot."""
    snap = snapshot.current(1)
    return int(snap.cols["n_total"][snap.row_of(PLACEHOLDER)])


def test_a_segmentation_run_counts_only_the_interactions_in_range_and_at_or_before_now(station):
    assert segment_company(1, NOW).listeners == 12
    assert interactions_counted() == ORDINARY
    segment_company(1)  # as of the clock, the interaction three days after NOW is in the past
    assert interactions_counted() == ORDINARY + 1
