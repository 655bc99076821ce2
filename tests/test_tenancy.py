"""Tenancy, from the application's own URL map: every route that takes a company_id, called by another company's
client (its API key and its producer's session), answers 403 or 404 and changes nothing.

Routes are not listed here: a new route is covered as soon as it exists, and a route with a path argument this test
cannot fill fails it until someone says what a real value of that argument is."""
from __future__ import annotations

from datetime import timedelta

import pytest
from bson import ObjectId, json_util

from core.access.api_keys import create_key
from core.access.users import create_user
from core.alerts.models import AlertRule
from core.audiences.models import Audience
from core.campaigns.models import SavedPlan
from core.clock import utcnow
from core.db.connection import get_db
from core.ingest.jobs import ImportJob
from core.segmentation.runs import segment_company
from core.webhooks.models import WebhookBatch, WebhookDelivery, WebhookEndpoint
from tests.factories import JSON, make_listener
from tests.memory import NOW, event

pytestmark = pytest.mark.db

THEIRS, OURS = 1, 2
SAMPLES = {"company_id": THEIRS, "originator": "27820000001", "kind": "profiles", "job_id": "64b000000000000000000001",
           "segment_key": "super_fan", "audience_id": "theirs-aud-1", "plan_id": "0123456789abcdef",
           "webhook_id": "wh_theirs1", "delivery_id": "dlv_theirs1",
           "rule_id": "theirs-rule-1"}
"""A real value of each path argument: a listener, an import job, a segment, an audience, a saved plan and an alert
rule of the other company."""

IGNORED_METHODS = {"HEAD", "OPTIONS"}


def company_routes(app) -> list[tuple[str, str, object]]:
    """(method, rule, rule object) of every route whose path names a company."""
    return [(method, rule.rule, rule) for rule in app.url_map.iter_rules() if "company_id" in rule.arguments
            for method in sorted(rule.methods - IGNORED_METHODS)]


def everything(db) -> dict:
    """Every document of every collection, as canonical JSON (GridFS snapshots included)."""
    return {name: sorted(json_util.dumps(doc, sort_keys=True, json_options=JSON) for doc in db[name].find())
            for name in sorted(db.list_collection_names()) if not name.startswith("system.")}


def their_audience() -> None:
    """An audience of the other company, with the listener as its member."""
    now = utcnow()
    Audience(company_id=THEIRS, audience_id=SAMPLES["audience_id"], name="Theirs", name_key="theirs", theme="vip",
             limit=10, min_score=0.5, expiry_days=30, created_at=now, expires_at=now + timedelta(days=30),
             strategy={"queries": ["vip"], "filters": {}, "min_score": 0.5, "limit": 10, "provider": "local",
                       "model": "m"},
             members=[{"originator": SAMPLES["originator"], "score": 0.9, "query": 0}]).save()


def their_webhook() -> None:
    """A webhook endpoint of the other company, with one delivered event of the listener in its log."""
    now = utcnow()
    WebhookEndpoint(company_id=THEIRS, webhook_id=SAMPLES["webhook_id"], url="https://hooks.example.com/theirs",
                    secret="their-secret-of-16+", events=["listener.entered_segment"], created_at=now).save()
    WebhookBatch(company_id=THEIRS, webhook_id=SAMPLES["webhook_id"], seq=0, count=1, delivered=True,
                 events=[{"event_id": "evt_theirs1", "type": "listener.entered_segment",
                          "originator": SAMPLES["originator"], "body": "{}"}], originators=[SAMPLES["originator"]],
                 created_at=now, delivered_at=now).save()
    WebhookDelivery(company_id=THEIRS, webhook_id=SAMPLES["webhook_id"], delivery_id=SAMPLES["delivery_id"],
                    event_ids=["evt_theirs1"], ok=True, status=200, at=now).save()


@pytest.fixture
def other_company_client(app):
    """A client of company 2 in every way it can present itself: its API key and its producer's session."""
    make_listener(THEIRS, SAMPLES["originator"], [event(d) for d in range(1, 12)], name="Lerato", tags=["vip"])
    make_listener(OURS, "27830000002", [event(3)])
    ImportJob(id=ObjectId(SAMPLES["job_id"]), company_id=THEIRS, kind="profiles", state="done").save()
    their_audience()
    their_webhook()
    SavedPlan(company_id=THEIRS, plan_id=SAMPLES["plan_id"], name="Theirs", answer='{"brief": "theirs"}').save()
    for company_id in (THEIRS, OURS):
        segment_company(company_id, NOW)
    AlertRule(company_id=THEIRS, rule_id=SAMPLES["rule_id"], kind="below", metric="super_fan", threshold=1000,
              delivery=["webhook"], created_at=utcnow()).save()
    create_user("producer@ours.fm", "our-password", companies=[OURS])
    _, token = create_key([OURS], name="ours")
    client = app.test_client()
    client.post("/login", data={"email": "producer@ours.fm", "password": "our-password"})
    assert client.get(f"/stations/{OURS}/").status_code == 200
    client.environ_base["HTTP_X_API_KEY"] = token
    return client


def test_every_company_route_is_refused_to_another_company_and_changes_nothing(app, other_company_client):
    routes = company_routes(app)
    unfillable = [rule for _, rule, obj in routes if set(obj.arguments) - set(SAMPLES)]
    assert not unfillable, f"add a real value for the path arguments of {unfillable} to SAMPLES"
    db = get_db()
    before = everything(db)
    answers = {}
    for method, rule, obj in routes:
        path = obj.build({name: SAMPLES[name] for name in obj.arguments}, append_unknown=False)[1]
        answers[f"{method} {rule}"] = other_company_client.open(path, method=method).status_code
    assert all(status in (403, 404) for status in answers.values()), answers
    assert everything(db) == before
    assert len(answers) >= 12  # the twelve operations and pages of today; fewer means routes went missing


def test_the_same_client_reaches_its_own_company(other_company_client):
    """The refusals above are about the company, not a broken client."""
    assert other_company_client.get(f"/api/v1/segments/{OURS}/summary").status_code == 200
    assert other_company_client.get(f"/stations/{OURS}/explorer").status_code == 200
    assert other_company_client.get(f"/api/v1/listeners/{OURS}/27830000002").status_code == 200
