"""Alert rules over HTTP: a rule saved, listed and deleted, its firings listed newest first, bad input refused with
422 naming the field, unknown fields refused, and another station's rules and firings out of reach."""
from __future__ import annotations

import dataclasses
from datetime import date, datetime

import pytest

from core import config
from core.alerts.check import check_station
from core.alerts.mail import NO_MAIL_SERVER
from core.history.models import HistoryPoint
from tests.factories import make_company
from tests.memory import NOW

pytestmark = pytest.mark.db

URL = "/api/v1/alerts/{}"
AT_RISK = {"kind": "grows_by", "metric": "at_risk", "threshold": 10, "webhook": True}


@pytest.fixture
def station(app):
    make_company(1, timezone="Africa/Johannesburg")
    make_company(2)
    for day, at_risk in ((date(2026, 11, 13), 1000), (date(2026, 11, 20), 1100)):
        HistoryPoint(company_id=1, date=day.isoformat(), source="run", total=5000, segments={"at_risk": at_risk},
                     as_of=datetime.combine(day, datetime.min.time())).save()
    return 1


def test_a_rule_is_saved_listed_and_deleted(client, key_for, station):
    headers = key_for(1)
    made = client.post(URL.format(1), json=AT_RISK, headers=headers)
    assert made.status_code == 200, made.get_json()
    rule = made.get_json()
    assert rule["description"] == "At risk grows by 10% week on week" and rule["email"] is None
    listed = client.get(URL.format(1), headers=headers).get_json()
    assert [r["rule_id"] for r in listed["rules"]] == [rule["rule_id"]]
    gone = client.delete(f"{URL.format(1)}/{rule['rule_id']}", headers=headers)
    assert gone.get_json() == {"company_id": 1, "rule_id": rule["rule_id"], "deleted": True}
    assert client.get(URL.format(1), headers=headers).get_json()["total"] == 0
    assert client.delete(f"{URL.format(1)}/{rule['rule_id']}", headers=headers).status_code == 404


def test_an_e_mail_rule_saved_while_no_mail_server_is_set_carries_a_warning_saying_so(client, key_for, station):
    headers = key_for(1)
    made = client.post(URL.format(1), json={**AT_RISK, "email": {"to": ["thandi@jozi.fm"]}}, headers=headers)
    assert made.status_code == 200 and made.get_json()["warning"] == NO_MAIL_SERVER
    assert client.get(URL.format(1), headers=headers).get_json()["rules"][0]["warning"] == NO_MAIL_SERVER
    assert client.post(URL.format(1), json=AT_RISK, headers=headers).get_json()["warning"] is None  # no e-mail


def test_an_e_mail_rule_carries_no_warning_once_a_mail_server_is_set(client, key_for, station, monkeypatch):
    monkeypatch.setattr(config, "_active", [dataclasses.replace(config.active(), smtp_host="mail.jozi.fm")])
    made = client.post(URL.format(1), json={**AT_RISK, "email": {"to": ["thandi@jozi.fm"]}}, headers=key_for(1))
    assert made.get_json()["warning"] is None


def test_the_firings_are_listed_with_their_values(client, key_for, station):
    headers = key_for(1)
    client.post(URL.format(1), json=AT_RISK, headers=headers)
    check_station(1, NOW)
    [firing] = client.get(f"{URL.format(1)}/firings", headers=headers).get_json()["firings"]
    assert firing["values"] == {"value": 1100, "compared": 1000.0, "change_percent": 10.0}
    assert (firing["period"], firing["date"], firing["source"]) == ("2026-W47", "2026-11-20", "daily")
    assert firing["delivered"] == {"webhook": "no endpoint subscribed"} and firing["fired_at"].endswith("Z")


@pytest.mark.parametrize(("body", "field"), [
    ({**AT_RISK, "kind": "grows"}, "kind"),
    ({**AT_RISK, "metric": "fans"}, "metric"),
    ({key: value for key, value in AT_RISK.items() if key != "metric"}, "metric"),
    ({**AT_RISK, "threshold": "10"}, "threshold"),
    ({**AT_RISK, "threshold": -1}, "threshold"),
    ({**AT_RISK, "webhook": "yes"}, "webhook"),
    ({**AT_RISK, "email": {"to": []}}, "email"),
    ({**AT_RISK, "email": {"to": ["not an address"]}}, "email"),
    ({**AT_RISK, "email": {"to": ["a@jozi.fm"], "at_once": 1}}, "at_once"),
    ({**AT_RISK, "email": {"to": ["a@jozi.fm"], "cc": ["b@jozi.fm"]}}, "cc"),
    ({**AT_RISK, "colour": "red"}, "colour"),
])
def test_a_bad_rule_is_refused_naming_its_field(client, key_for, station, body, field):
    answer = client.post(URL.format(1), json=body, headers=key_for(1))
    assert answer.status_code == 422
    assert field in str(answer.get_json()["detail"])
    assert client.get(URL.format(1), headers=key_for(1)).get_json()["total"] == 0


def test_another_station_s_key_reaches_no_rule_and_no_firing(client, key_for, station):
    rule = client.post(URL.format(1), json=AT_RISK, headers=key_for(1)).get_json()
    check_station(1, NOW)
    theirs = key_for(2)
    assert client.get(URL.format(1), headers=theirs).status_code == 403
    assert client.get(f"{URL.format(1)}/firings", headers=theirs).status_code == 403
    assert client.delete(f"{URL.format(2)}/{rule['rule_id']}", headers=theirs).status_code == 404
    assert client.get(URL.format(2), headers=theirs).get_json()["total"] == 0
    assert client.get(f"{URL.format(2)}/firings", headers=theirs).get_json()["total"] == 0
