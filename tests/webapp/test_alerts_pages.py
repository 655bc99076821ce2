"""The Alerts page over HTTP: linked from the station's menu, a rule made from plain choices and listed in words,
a refusal said beside its field with nothing saved, a rule deleted with its firings kept, the fragment alone for
htmx, and another station's producer kept out."""
from __future__ import annotations

import dataclasses
from datetime import date, datetime

import pytest

from core import config
from core.access.users import create_user
from core.alerts.check import check_station
from core.alerts.mail import NO_MAIL_SERVER
from core.alerts.store import list_firings, list_rules
from core.history.models import HistoryPoint
from tests.factories import make_company
from tests.memory import NOW
from tests.webapp.conftest import PASSWORD

pytestmark = pytest.mark.db

ALERTS = "/stations/1/alerts"
AT_RISK = {"metric": "at_risk", "kind": "grows_by", "threshold": "10", "webhook": "1"}


def store_points() -> None:
    for day, at_risk in ((date(2026, 11, 13), 1000), (date(2026, 11, 20), 1100)):
        HistoryPoint(company_id=1, date=day.isoformat(), source="run", total=5000, segments={"at_risk": at_risk},
                     as_of=datetime.combine(day, datetime.min.time())).save()


@pytest.fixture
def producer(client, app):
    """Station 1 (Jozi FM, with two points of history) and its producer, signed in; station 2 with its own."""
    make_company(1, name="Jozi FM", timezone="Africa/Johannesburg")
    make_company(2, name="Coast Radio")
    store_points()
    create_user("thandi@jozi.fm", PASSWORD, companies=[1])
    create_user("sipho@coast.fm", PASSWORD, companies=[2])
    client.post("/login", data={"email": "thandi@jozi.fm", "password": PASSWORD})
    return client


def test_the_station_menu_links_to_its_alerts(producer):
    assert f'href="{ALERTS}"' in producer.get("/stations/1/").get_data(as_text=True)


def test_a_rule_made_from_plain_choices_is_listed_in_words(producer):
    answer = producer.post(ALERTS, data={**AT_RISK, "email": "1", "recipients": "thandi@jozi.fm, sipho@jozi.fm"})
    assert answer.status_code == 303
    html = producer.get(ALERTS).get_data(as_text=True)
    assert "At risk grows by 10% week on week" in html
    assert "Webhook and e-mail to sipho@jozi.fm and thandi@jozi.fm (in the weekly digest)." in html


def test_while_no_mail_server_is_set_the_form_and_an_e_mail_rule_say_so_and_the_rule_is_saved(producer):
    assert NO_MAIL_SERVER in producer.get(ALERTS).get_data(as_text=True)  # before anything is saved
    answer = producer.post(ALERTS, data={**AT_RISK, "email": "1", "recipients": "thandi@jozi.fm"},
                           follow_redirects=True)
    html = answer.get_data(as_text=True)
    assert 'data-testid="alert-rule-warning">' + NO_MAIL_SERVER in html
    assert html.count(NO_MAIL_SERVER) == 3  # the saved flash, the form and the rule
    assert list_rules(1)["rules"][0]["warning"] == NO_MAIL_SERVER


def test_once_a_mail_server_is_set_no_warning_is_shown(producer, monkeypatch):
    monkeypatch.setattr(config, "_active", [dataclasses.replace(config.active(), smtp_host="mail.jozi.fm")])
    producer.post(ALERTS, data={**AT_RISK, "email": "1", "recipients": "thandi@jozi.fm"})
    assert "No mail server is set" not in producer.get(ALERTS).get_data(as_text=True)


def test_a_count_is_read_as_people_type_it(producer):
    producer.post(ALERTS, data={"metric": "super_fan", "kind": "below", "threshold": "1,000", "webhook": "1"})
    assert list_rules(1)["rules"][0]["description"] == "Super fans falls below 1,000"


def test_a_refusal_is_said_beside_its_field_and_nothing_is_saved(producer):
    answer = producer.post(ALERTS, data={**AT_RISK, "threshold": "ten", "email": "1", "recipients": "nobody"})
    html = answer.get_data(as_text=True)
    assert answer.status_code == 422
    assert 'id="alert-threshold-problem"' in html and 'id="alert-recipients-problem"' in html
    assert 'value="ten"' in html and list_rules(1)["total"] == 0


def test_the_firings_kept_are_shown_and_stay_when_their_rule_is_deleted(producer):
    producer.post(ALERTS, data=AT_RISK)
    check_station(1, NOW)
    html = producer.get(ALERTS).get_data(as_text=True)
    assert "At risk grows by 10% week on week: 1,100 on 20 November 2026, against 1,000 (+10%)" in html
    rule_id = list_rules(1)["rules"][0]["rule_id"]
    assert producer.post(f"{ALERTS}/{rule_id}/delete").status_code == 303
    assert list_rules(1)["total"] == 0 and list_firings(1)["total"] == 1
    assert "1,100 on 20 November 2026" in producer.get(ALERTS).get_data(as_text=True)


def test_htmx_gets_the_rules_and_firings_alone(producer):
    answer = producer.get(ALERTS, headers={"HX-Request": "true"})
    html = answer.get_data(as_text=True)
    assert 'id="alerts-fragment"' in html and "<html" not in html and "HX-Request" in answer.headers["Vary"]


def test_another_station_s_producer_is_kept_out(producer, client):
    producer.post(ALERTS, data=AT_RISK)
    client.post("/logout")
    client.post("/login", data={"email": "sipho@coast.fm", "password": PASSWORD})
    rule_id = list_rules(1)["rules"][0]["rule_id"]
    assert client.get(ALERTS).status_code == 403
    assert client.post(ALERTS, data=AT_RISK).status_code == 403
    assert client.post(f"{ALERTS}/{rule_id}/delete").status_code == 403
    assert list_rules(1)["total"] == 1
