"""Alerts by e-mail through a loopback SMTP server (aiosmtpd): the weekly digest of the week just ended, queued by
the daily check and sent once by the worker, with the segment sizes against last week and four weeks ago, new and
lost listeners, the at-risk share and the week's alerts, in HTML with a text alternative; a rule's mail at once."""
from __future__ import annotations

import dataclasses
from datetime import UTC, date, datetime, timedelta
from email import message_from_bytes, policy

import pytest
from aiosmtpd.controller import Controller

from core import config
from core.alerts.check import check_station, daily_check
from core.alerts.models import AlertDigest
from core.alerts.store import create_rule, list_firings
from core.db import queue
from core.db.embedded import free_port
from core.history.models import HistoryPoint
from core.service.worker import Worker
from tests.factories import make_company
from tests.memory import NOW

pytestmark = pytest.mark.db

SUNDAY = date(2026, 11, 15)  # the last day of 2026-W46, the week before NOW's


class Inbox:
    """What the loopback server received: (recipients, message) per mail."""

    def __init__(self):
        self.mails = []

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 - aiosmtpd's name
        self.mails.append((envelope.rcpt_tos, message_from_bytes(envelope.content, policy=policy.default)))
        return "250 OK"


@pytest.fixture
def smtp(app, monkeypatch):
    """A loopback SMTP server the process's settings send through (no STARTTLS, no login)."""
    inbox, port = Inbox(), free_port()
    server = Controller(inbox, hostname="127.0.0.1", port=port)
    server.start()
    settings = dataclasses.replace(config.active(), smtp_host="127.0.0.1", smtp_port=port, smtp_starttls=False,
                                   smtp_from="alerts@jozi.fm")
    monkeypatch.setattr(config, "_active", [settings])
    yield inbox
    server.stop()


def store_point(day: date, total: int, new: int = 0, lost: int = 0, **segments) -> None:
    HistoryPoint(company_id=1, date=day.isoformat(), source="run", as_of=datetime.combine(day, datetime.min.time()),
                 total=total, segments=segments, new=new, lost=lost).save()


def jozi_weeks() -> None:
    """Station 1's last five weeks to SUNDAY: super fans 1,200 four weeks ago, 1,050 a week ago, 980 now."""
    make_company(1, name="Jozi FM", timezone="Africa/Johannesburg")
    store_point(SUNDAY - timedelta(days=28), 5000, super_fan=1200, at_risk=500)
    store_point(SUNDAY - timedelta(days=7), 5000, new=40, super_fan=1050, at_risk=600)
    store_point(SUNDAY - timedelta(days=3), 5100, new=70, lost=12, super_fan=1000, at_risk=700)
    store_point(SUNDAY, 5120, new=50, lost=8, super_fan=980, at_risk=768)


def received_digest(smtp) -> tuple[list[str], object]:
    """Jozi FM's digest of 2026-W46 as the loopback server received it, after a rule fired that week."""
    jozi_weeks()
    create_rule(1, "below", "super_fan", 1000, email={"to": ["thandi@jozi.fm"]})
    create_rule(1, "grows_by", "at_risk", 25, webhook=True, email={"to": ["sipho@jozi.fm", "thandi@jozi.fm"]})
    check_station(1, datetime(2026, 11, 15, 12, tzinfo=UTC))
    daily_check(1, NOW)
    Worker(config.active()).work_until_idle()
    [(recipients, mail)] = smtp.mails
    return recipients, mail


def test_the_digest_of_the_week_just_ended_reaches_every_recipient_once(smtp):
    recipients, mail = received_digest(smtp)
    assert recipients == ["sipho@jozi.fm", "thandi@jozi.fm"]
    assert mail["Subject"] == "Jozi FM: the week to 15 November 2026, 2 alerts" and mail["From"] == "alerts@jozi.fm"
    daily_check(1, NOW + timedelta(days=1))
    assert Worker(config.active()).work_until_idle() == 0 and len(smtp.mails) == 1
    assert AlertDigest.objects(company_id=1, period="2026-W46").count() == 1


def test_the_digest_s_text_has_the_trends_and_the_alerts_that_fired(smtp):
    text = received_digest(smtp)[1].get_body(("plain",)).get_content()
    assert "- Super fans: 980 / 1,050 / 1,200" in text
    assert "120 new listeners and 20 lost listeners this week." in text
    assert "At risk: 15% of listeners (last week 12%)." in text
    assert "- Super fans falls below 1,000: 980 on 15 November 2026" in text
    assert "- At risk grows by 25% week on week: 768 on 15 November 2026, against 600 (+28%)" in text


def test_the_digest_s_html_is_a_table_headed_for_screen_readers_with_the_alerts(smtp):
    html = received_digest(smtp)[1].get_body(("html",)).get_content()
    assert '<th scope="row" style="padding:6px 10px;border-bottom:1px solid #d0d7de;;text-align:left">Super fans' \
           not in html  # one style per cell
    assert "<th scope=\"col\"" in html and ">Four weeks ago</th>" in html and ">1,200</td>" in html
    assert "<li>Super fans falls below 1,000: 980 on 15 November 2026</li>" in html


def test_the_firings_of_the_digest_say_they_were_sent_in_it_and_this_week_s_wait_for_the_next(smtp):
    received_digest(smtp)
    sent = {(f["period"], f["delivered"]["email"]) for f in list_firings(1)["firings"]}
    assert sent == {("2026-W46", "sent in the digest"), ("2026-W47", "in the digest")}


def test_a_rule_that_asks_for_it_mails_its_firing_at_once(smtp):
    jozi_weeks()
    create_rule(1, "below", "super_fan", 1000, email={"to": ["thandi@jozi.fm"], "at_once": True})
    [firing] = check_station(1, datetime(2026, 11, 15, 12, tzinfo=UTC))
    assert firing["delivered"] == {"email": "queued"}
    Worker(config.active()).work_until_idle()
    [(recipients, mail)] = smtp.mails
    assert recipients == ["thandi@jozi.fm"] and mail["Subject"] == "Alert: Super fans falls below 1,000"
    assert list_firings(1)["firings"][0]["delivered"] == {"email": "sent"}


def test_a_digest_the_smtp_server_refused_waits_for_another_try_and_counts_as_unsent(smtp, monkeypatch):
    jozi_weeks()
    create_rule(1, "below", "super_fan", 1000, email={"to": ["thandi@jozi.fm"]})
    nobody = dataclasses.replace(config.active(), smtp_port=free_port())  # nothing listens there
    monkeypatch.setattr(config, "_active", [nobody])
    daily_check(1, NOW)
    Worker(config.active()).work_until_idle()
    [job] = queue.Job._get_collection().find({"kind": "alert-mail"})
    assert job["state"] == "queued" and job["attempts"] == 1 and "Connection" in job["error"]
    assert AlertDigest.objects.count() == 0 and smtp.mails == []
