"""One charge per answer: requests racing for the same cacheable AI answer (the listener's AI profile, segment
insights, a recommendation) share one computation and one charge; the others get it from the cache, free. Whatever
happened, every balance still equals its ledger (`credits check`, by the `reconciled` fixture)."""
from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from core.credits.models import CreditEntry
from core.listeners import snapshot
from tests.conftest import seeded

pytestmark = pytest.mark.db

RACERS = 8


@pytest.fixture
def demo(app):
    """The demo station (company 1, 200 listeners) with its demo credits; a listener of it."""
    seeded(200)
    return str(snapshot.current(1).originators[3])


def race(app, headers: dict, method: str, path: str, body: dict | None = None) -> list[dict]:
    """RACERS clients sending the same request at the same moment; their answers."""
    start = threading.Barrier(RACERS)

    def send(_):
        client = app.test_client()
        start.wait()
        answer = client.open(path, method=method, headers=headers, json=body)
        assert answer.status_code == 200, answer.get_json()
        return answer.get_json()

    with ThreadPoolExecutor(RACERS) as pool:
        return list(pool.map(send, range(RACERS)))


def paid_and_cached(operation: str) -> tuple[int, int]:
    entries = CreditEntry.objects(company_id=1, operation=operation)
    return entries.filter(kind="spend").count(), entries.filter(kind="cached").count()


def test_eight_racing_requests_for_one_ai_profile_pay_once(app, key_for, demo, reconciled):
    answers = race(app, key_for(1), "GET", f"/api/v1/ai/listeners/1/{demo}")
    assert paid_and_cached("ai_listener_profile") == (1, RACERS - 1)
    assert sorted(a["cost"] for a in answers) == [0] * (RACERS - 1) + [1]
    assert len({a["made_at"] for a in answers}) == 1


def test_eight_racing_requests_for_segment_insights_pay_once(app, key_for, demo, reconciled):
    answers = race(app, key_for(1), "GET", "/api/v1/ai/segments/1/insights")
    assert paid_and_cached("ai_segment_insights") == (1, RACERS - 1)
    assert [a["cached"] for a in answers].count(False) == 1


def test_eight_racing_requests_for_one_recommendation_pay_once(app, key_for, demo, reconciled):
    answers = race(app, key_for(1), "POST", "/api/v1/agent/1/recommend",
                   {"brief": "Reach our super fans on WhatsApp for a gospel concert", "sample_size": 20})
    assert paid_and_cached("recommend") == (1, RACERS - 1)
    assert len({a["made_at"] for a in answers}) == 1
