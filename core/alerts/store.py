"""A station's alert rules, saved, listed and deleted, and the firings kept, newest first."""
from __future__ import annotations

import secrets

from core.alerts.mail import mail_warning
from core.alerts.models import AlertFiring, AlertRule
from core.alerts.rules import checked_rule, described
from core.clock import as_utc, utcnow
from core.errors import NotFound, ValidationFailed
from core.stations.companies import get_company

ID_BYTES = 8
MAX_RULES = 50
FIRINGS_SHOWN = 100


class AlertRuleNotFound(NotFound):
    """A rule id unknown to the station (another station's rule is unknown too); never repeats the id asked."""

    def __init__(self, detail: str = "Alert rule not found"):
        super().__init__(detail)


def create_rule(company_id: int, kind: str, metric: str, threshold: float, webhook: bool = False,
                email: dict | None = None) -> dict:
    """Save a rule for the station once its fields are checked (422 naming each problem); the rule as listed.
    `email`: {"to": [addresses], "at_once": bool}; without it or `webhook` a firing is kept and shown only."""
    get_company(company_id)
    fields = checked_rule(kind, metric, threshold, webhook, email)
    if AlertRule.objects(company_id=company_id).count() >= MAX_RULES:
        raise ValidationFailed.one(["body"], f"A station keeps at most {MAX_RULES} rules; delete one first.")
    rule = AlertRule(company_id=company_id, rule_id=secrets.token_urlsafe(ID_BYTES), created_at=utcnow(), **fields)
    rule.save()
    return shown(rule.to_mongo().to_dict())


def list_rules(company_id: int) -> dict:
    """The station's rules, oldest first."""
    get_company(company_id)
    docs = AlertRule._get_collection().find({"company_id": company_id}, sort=[("created_at", 1)])
    rules = [shown(doc) for doc in docs]
    return {"company_id": company_id, "total": len(rules), "rules": rules}


def rules_of(company_id: int) -> list[dict]:
    """The station's rules as stored (for the checks)."""
    return list(AlertRule._get_collection().find({"company_id": company_id}, {"_id": 0}, sort=[("created_at", 1)]))


def stations_with_rules() -> list[int]:
    """The stations that have at least one rule (those the daily check visits)."""
    return sorted(AlertRule._get_collection().distinct("company_id"))


def delete_rule(company_id: int, rule_id: str) -> dict:
    """Delete the rule; its firings stay kept."""
    get_company(company_id)
    if not AlertRule._get_collection().delete_one({"company_id": company_id, "rule_id": rule_id}).deleted_count:
        raise AlertRuleNotFound()
    return {"company_id": company_id, "rule_id": rule_id, "deleted": True}


def list_firings(company_id: int, limit: int = FIRINGS_SHOWN) -> dict:
    """The station's latest firings, newest first."""
    get_company(company_id)
    docs = AlertFiring._get_collection().find({"company_id": company_id}, {"_id": 0, "company_id": 0},
                                              sort=[("fired_at", -1)], limit=limit)
    firings = [{**doc, "fired_at": iso(doc["fired_at"])} for doc in docs]
    return {"company_id": company_id, "total": len(firings), "firings": firings}


def shown(doc: dict) -> dict:
    """A rule as the API and the page show it, with its words and its warning (e-mail while no mail server is
    set: core.alerts.mail)."""
    email = {"to": doc.get("recipients", []), "at_once": bool(doc.get("email_now"))} \
        if "email" in doc.get("delivery", ()) else None
    return {**{key: doc.get(key) for key in ("rule_id", "company_id", "kind", "metric", "threshold")},
            "webhook": "webhook" in doc.get("delivery", ()), "email": email, "description": described(doc),
            "created_at": iso(doc["created_at"]), "warning": mail_warning(doc.get("delivery"))}


def iso(moment) -> str:
    """A stored time as ISO 8601 UTC with Z, as every answer writes times."""
    return as_utc(moment).isoformat().replace("+00:00", "Z")
