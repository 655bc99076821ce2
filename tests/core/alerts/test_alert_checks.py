"""Alert checks on a station's stored history: a rule fires once in a week however often it is checked, after a
full run (on the point that run recorded) and by the daily job, and its firing is kept with its values and sent as
an `alert.fired` event to the station's webhooks; rules and firings stay within their station."""
from __future__ import annotations

from datetime import date, datetime, timedelta

import pytest

from core.alerts.check import check_station
from core.alerts.models import AlertFiring
from core.alerts.store import create_rule, delete_rule, list_firings, list_rules
from core.config import Settings
from core.errors import NotFound
from core.history.models import HistoryPoint
from core.segmentation.runs import segment_company
from core.service.daily import jobs_of, run_due
from core.service.worker import Worker
from core.webhooks import events
from core.webhooks.endpoints import add_endpoint
from tests.core.webhooks.receiver import receiving
from tests.factories import make_company, make_listener
from tests.memory import NOW, event

pytestmark = pytest.mark.db

TODAY = date(2026, 11, 20)  # NOW in Johannesburg, a Friday of 2026-W47
DAILY = Settings.from_env({"DAILY_PURGE": "false", "DAILY_SEGMENTATION": "false"})


def store_point(day: date, total: int = 0, new: int = 0, **segments) -> None:
    HistoryPoint(company_id=1, date=day.isoformat(), source="run", as_of=datetime.combine(day, datetime.min.time()),
                 total=total, segments=segments, new=new).save()


@pytest.fixture
def growing(app):
    """Station 1 whose at-risk listeners went from 1,000 to 1,100 in the week to NOW."""
    make_company(1, timezone="Africa/Johannesburg")
    store_point(TODAY - timedelta(days=7), total=5000, at_risk=1000)
    store_point(TODAY, total=5000, at_risk=1100)
    return 1


def at_risk_rule(**overrides) -> dict:
    return create_rule(1, **{"kind": "grows_by", "metric": "at_risk", "threshold": 10, "webhook": True,
                             **overrides})


def test_a_rule_that_holds_fires_with_its_values_and_day(growing):
    rule = at_risk_rule()
    [firing] = check_station(1, NOW)
    assert (firing["rule_id"], firing["date"], firing["period"]) == (rule["rule_id"], "2026-11-20", "2026-W47")
    assert firing["values"] == {"value": 1100, "compared": 1000, "change_percent": 10.0}
    assert list_firings(1)["firings"][0]["rule"]["description"] == "At risk grows by 10% week on week"


def test_a_rule_fires_once_in_a_week_however_often_it_is_checked(growing):
    at_risk_rule()
    assert len(check_station(1, NOW)) == 1
    assert check_station(1, NOW, "run") == [] and check_station(1, NOW + timedelta(days=1)) == []
    assert AlertFiring.objects(company_id=1).count() == 1


def test_a_rule_that_still_holds_the_next_week_fires_again(growing):
    at_risk_rule()
    check_station(1, NOW)
    store_point(TODAY + timedelta(days=7), total=5000, at_risk=1300)
    assert [f["period"] for f in check_station(1, NOW + timedelta(days=7))] == ["2026-W48"]


def test_a_rule_that_does_not_hold_keeps_nothing(growing):
    at_risk_rule(threshold=10.1)
    assert check_station(1, NOW) == [] and AlertFiring.objects.count() == 0


def test_a_full_run_checks_the_rules_on_the_point_it_recorded(app):
    make_company(1, timezone="Africa/Johannesburg")
    for n in range(3):
        make_listener(1, f"2782000000{n}", [event(d) for d in range(1, 20, 3)])
    create_rule(1, "above", "total", 2, webhook=True)
    segment_company(1, NOW)
    [firing] = AlertFiring._get_collection().find()
    assert (firing["source"], firing["values"]["value"], firing["date"]) == ("run", 3, "2026-11-20")


def test_the_daily_job_checks_a_station_with_rules_once_a_day(growing):
    assert run_due(jobs_of(DAILY), NOW) == []  # no rules, no check
    at_risk_rule()
    assert run_due(jobs_of(DAILY), NOW) == ["alerts:1"]
    assert run_due(jobs_of(DAILY), NOW + timedelta(hours=1)) == []
    assert AlertFiring._get_collection().find_one()["source"] == "daily"
    assert run_due(jobs_of(DAILY), NOW + timedelta(days=1)) == ["alerts:1"]  # checked again, fired already
    assert AlertFiring.objects.count() == 1


def test_a_firing_reaches_the_station_s_webhooks_as_an_alert_fired_event(growing, monkeypatch):
    emitted = []

    def emit(company_id, event_type, data, originator=None):
        emitted.append((company_id, event_type, data))
        return 1  # one endpoint subscribed

    monkeypatch.setattr(events, "emit", emit)
    rule = at_risk_rule()
    [firing] = check_station(1, NOW)
    [(company_id, event_type, data)] = emitted
    assert (company_id, event_type) == (1, "alert.fired")
    assert data["rule_id"] == rule["rule_id"] and data["value"] == 1100 and data["compared"] == 1000
    assert data["description"] == "At risk grows by 10% week on week" and data["period"] == "2026-W47"
    assert firing["delivered"] == {"webhook": "emitted"}


def test_a_firing_is_delivered_to_a_loopback_receiver_by_the_webhooks_worker(growing):
    with receiving() as server:
        add_endpoint(1, server.url, "whsec-alerts-test-0123456789", ["alert.fired"])
        rule = at_risk_rule()
        check_station(1, NOW)
        Worker(settings=None).work_until_idle()
        [body] = server.events()
    assert (body["type"], body["company_id"]) == ("alert.fired", 1)
    assert body["data"]["rule_id"] == rule["rule_id"] and body["data"]["change_percent"] == 10.0


def test_a_webhook_rule_of_a_station_without_endpoints_says_so(growing):
    at_risk_rule()
    assert check_station(1, NOW)[0]["delivered"] == {"webhook": "no endpoint subscribed"}


def test_an_e_mail_rule_without_smtp_waits_for_the_digest(growing):
    at_risk_rule(webhook=False, email={"to": ["Producer@Jozi.fm"]})
    assert check_station(1, NOW)[0]["delivered"] == {"email": "in the digest"}
    assert list_rules(1)["rules"][0]["email"] == {"to": ["producer@jozi.fm"], "at_once": False}


def test_a_rule_without_delivery_is_kept_and_shown_only(growing):
    at_risk_rule(webhook=False)
    assert check_station(1, NOW)[0]["delivered"] == {} and list_firings(1)["total"] == 1


def test_a_deleted_rule_no_longer_fires_and_its_firings_stay(growing):
    rule = at_risk_rule()
    check_station(1, NOW)
    delete_rule(1, rule["rule_id"])
    store_point(TODAY + timedelta(days=7), total=5000, at_risk=1300)
    assert check_station(1, NOW + timedelta(days=7)) == [] and list_firings(1)["total"] == 1


def test_another_station_s_rule_is_unknown(growing):
    make_company(2)
    rule = at_risk_rule()
    with pytest.raises(NotFound):
        delete_rule(2, rule["rule_id"])
    assert list_rules(2)["total"] == 0 and list_rules(1)["total"] == 1
