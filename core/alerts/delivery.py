"""How a firing reaches people: an `alert.fired` event to the station's webhooks, a mail at once when the rule asks
for it, and the weekly digest; mails are jobs of the worker (core.db.queue), sent over SMTP (core.alerts.mail)."""
from __future__ import annotations

from datetime import date, timedelta

from core.alerts.mail import digest_message, firing_message, send
from core.alerts.models import AlertDigest, AlertFiring, AlertRule
from core.alerts.rules import period_of
from core.clock import utcnow
from core.config import active
from core.db import queue
from core.webhooks import events

MAIL_JOB = "alert-mail"
EVENT = "alert.fired"


def deliver(firing: dict, rule: dict) -> dict:
    """Send the firing on its rule's ways, and keep how each went; the firing."""
    delivered = {}
    if "webhook" in rule["delivery"]:
        queued = events.emit(firing["company_id"], EVENT, event_data(firing))
        delivered["webhook"] = "emitted" if queued else "no endpoint subscribed"
    if "email" in rule["delivery"]:
        delivered["email"] = _mail_now(firing) if rule.get("email_now") else "in the digest"
    AlertFiring._get_collection().update_one({"firing_id": firing["firing_id"]}, {"$set": {"delivered": delivered}})
    return {**firing, "delivered": delivered}


def event_data(firing: dict) -> dict:
    """The `data` of an alert.fired event: the rule, its words, its values and the station's day."""
    rule = firing["rule"]
    return {"firing_id": firing["firing_id"], "rule_id": firing["rule_id"], "kind": rule["kind"],
            "metric": rule["metric"], "threshold": rule["threshold"], "description": rule["description"],
            "date": firing["date"], "period": firing["period"], **firing["values"]}


def _mail_now(firing: dict) -> str:
    if not active().smtp_host:
        return "not sent: SMTP_HOST is not set"
    queue.enqueue(MAIL_JOB, f"{MAIL_JOB}:firing:{firing['firing_id']}",
                  {"company_id": firing["company_id"], "firing_id": firing["firing_id"]})
    return "queued"


def queue_digest(company_id: int, today: date) -> bool:
    """Queue the digest of the week before `today`'s unless it went, or nobody reads mail; True when queued."""
    period = period_of(today - timedelta(days=today.isoweekday()))
    if not active().smtp_host or not digest_recipients(company_id) or \
            AlertDigest.objects(company_id=company_id, period=period).count():
        return False
    queue.enqueue(MAIL_JOB, f"{MAIL_JOB}:digest:{company_id}:{period}", {"company_id": company_id, "period": period})
    return True


def digest_recipients(company_id: int) -> list[str]:
    """Everyone a rule of the station mails."""
    rules = AlertRule._get_collection().find({"company_id": company_id, "delivery": "email"}, {"recipients": 1})
    return sorted({address for rule in rules for address in rule.get("recipients", ())})


def mail_job(payload: dict) -> None:
    """What a worker does with a mail job: a firing's mail, or a station's digest of a week."""
    if "firing_id" in payload:
        firing = AlertFiring._get_collection().find_one({"firing_id": payload["firing_id"]}, {"_id": 0})
        if firing is not None and firing.get("delivered", {}).get("email") != "sent":
            send(firing_message(firing), firing["rule"]["recipients"])
            _delivered({"firing_id": firing["firing_id"]}, "sent")
        return
    company_id, period = int(payload["company_id"]), payload["period"]
    if AlertDigest.objects(company_id=company_id, period=period).count():
        return  # sent already: a job queued twice sends once
    recipients = digest_recipients(company_id)
    if recipients:
        send(digest_message(company_id, period), recipients)
        AlertDigest(company_id=company_id, period=period, recipients=recipients, sent_at=utcnow()).save()
        waiting = AlertFiring._get_collection().find({"company_id": company_id, "period": period})
        for firing in waiting:  # by each firing's id: a filter on a nested field is not served here by an index
            if firing.get("delivered", {}).get("email") == "in the digest":
                _delivered({"_id": firing["_id"]}, "sent in the digest")


def _delivered(which: dict, how: str) -> None:
    AlertFiring._get_collection().update_one(which, {"$set": {"delivered.email": how}})
