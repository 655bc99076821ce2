"""Every move is an event, end to end: a brand new listener who arrives by a live event enters their first segment
(`from_segment` null), and a loopback endpoint subscribed to `listener.entered_segment` receives it from the worker,
signed with its secret."""
from __future__ import annotations

import hmac
import json
from datetime import timedelta

import pytest

from core.clock import utcnow
from core.segmentation.runs import segment_company
from core.service.worker import Worker
from core.webhooks.signing import HEADER, signature
from tests.core.webhooks.receiver import receiving
from tests.factories import make_listener
from tests.memory import event

pytestmark = pytest.mark.db

SECRET = "a-secret-of-the-station-1"
NEW = "27820000099"


@pytest.fixture
def station(app):
    """Company 1 segmented as of the real clock, with one listener the new one is not."""
    now = utcnow()
    make_listener(1, "27820000001", [event(2, now=now)])
    segment_company(1, now)
    return 1


def signed_with(secret: str, body: bytes, header: str) -> bool:
    """True when the header is our signature of this body with this secret (core.webhooks.signing)."""
    timestamp = int(dict(part.split("=", 1) for part in header.split(","))["t"])
    return hmac.compare_digest(signature(secret, body, timestamp), header)


def test_a_new_listener_from_a_live_event_reaches_an_endpoint_as_entered_segment_from_none(client, station,
                                                                                           key_for):
    headers = key_for(1)
    with receiving() as receiver:
        added = client.post("/api/v1/webhooks/1", json={"url": receiver.url, "secret": SECRET,
                                                        "events": ["listener.entered_segment"]}, headers=headers)
        assert added.status_code == 200, added.get_json()
        row = {"company_id": 1, "originator": NEW, "timestamp": (utcnow() - timedelta(hours=1)).isoformat(),
               "channel_type": 2, "campaign_type": "song_request"}
        answer = client.post("/api/v1/interactions/1", json=[row], headers=headers).get_json()
        assert answer["listeners"] == [{"originator": NEW, "segment": "new_listener"}]
        assert client.get("/api/v1/webhooks/1", headers=headers).get_json()["webhooks"][0]["waiting"] == 1
        Worker(settings=None).work_until_idle()
    [request] = receiver.received
    assert signed_with(SECRET, request["body"], request["headers"][HEADER])
    assert not signed_with("another-secret-entirely", request["body"], request["headers"][HEADER])
    [sent] = json.loads(request["body"])["events"]
    assert sent["type"] == "listener.entered_segment"
    assert {k: sent["data"][k] for k in ("originator", "from_segment", "to_segment", "run_kind")} == {
        "originator": NEW, "from_segment": None, "to_segment": "new_listener", "run_kind": "live"}
    assert client.get("/api/v1/webhooks/1", headers=headers).get_json()["webhooks"][0]["waiting"] == 0
