"""Plans a producer keeps: a recommendation saved with its brief and filters as it was made, listed, reopened for
free (nothing is asked of the provider again), and written as a PDF to forward to an advertiser.

A plan is saved from the recommendation cache by its key (core.campaigns.cache), so what is kept is exactly what was
shown and paid for; after the cache's 24 hours it must be asked for again. A plan holds counts, never a listener,
but its brief and filters may name one: each plan's name and answer are sealed (core.campaigns.sealed_answers), and
erasure writes a plan that named the listener again with the pseudonym, destroying the old key (`erase_plans`).
"""
from __future__ import annotations

import json
import secrets

from core.campaigns import cache
from core.campaigns.models import SavedPlan
from core.campaigns.sealed_answers import SealedAnswers
from core.clock import as_utc
from core.errors import NotFound
from core.personal.registry import Erasure, Store, declare

NAME_CHARS = 80


class PlanNotFound(NotFound):
    """A plan id unknown to the station (another station's id is unknown too)."""


def save_plan(company_id: int, key: str, actor: str = "") -> dict:
    """Keep the recommendation made under `key` (in the last 24 hours) as a plan; its summary."""
    answer = cache.fresh(company_id, key or "")
    if answer is None:
        raise PlanNotFound("This recommendation is no longer kept (24 hours): ask for it again, then save it.")
    brief = " ".join(answer["brief"].split())
    content = {"name": brief if len(brief) <= NAME_CHARS else brief[:NAME_CHARS - 1].rstrip() + "…", "answer": answer}
    plan = SavedPlan(company_id=company_id, plan_id=secrets.token_hex(8), saved_by=actor,
                     **PLANS.sealed(company_id, content)).save()
    return _summary(plan.to_mongo().to_dict(), content)


def list_plans(company_id: int) -> list[dict]:
    """The station's plans, newest first (a plan an erasure is writing again this moment is left out)."""
    docs = list(SavedPlan._get_collection().find({"company_id": company_id}).sort("saved_at", -1))
    return [_summary(doc, content) for doc, content in zip(docs, PLANS.opened(docs), strict=True) if content]


def get_plan(company_id: int, plan_id: str) -> dict:
    """A plan with its recommendation as it was made."""
    for _ in range(2):  # its key destroyed between the read and the opening: an erasure wrote it again, read that
        doc = SavedPlan._get_collection().find_one({"company_id": company_id, "plan_id": plan_id})
        if doc is None:
            break
        content = PLANS.opened([doc])[0]
        if content is not None:
            return {**_summary(doc, content), "recommendation": content["answer"]}
    raise PlanNotFound("Plan not found")


def erase_plans(erasure: Erasure) -> int:
    """Write again, the erased listener's number, name and e-mail replaced in any spelling, the plans that named
    them (a filter, the brief, the plan's name); returns the plans changed. Their old keys are destroyed, so a
    backup's copy reads as nothing."""
    return PLANS.erase(erasure)


def _plain(doc: dict) -> dict:
    """A plan stored before sealing: its name and answer beside each other, plain."""
    return {"name": doc["name"], "answer": json.loads(doc["answer"])}


PLANS = SealedAnswers("plan", SavedPlan._get_collection, _plain, ("answer", "name"))
STORE = declare(Store("saved_plans", "saved_plans", erase=erase_plans, migrate=PLANS.seal_plain,
                      personal=("sealed_answer", "answer", "name"),
                      free=("_id", "company_id", "plan_id", "answer_key", "saved_by", "saved_at")))


def _summary(doc: dict, content: dict) -> dict:
    answer = content["answer"]
    audience = answer.get("audience", {})
    return {"plan_id": doc["plan_id"], "name": content["name"], "saved_by": doc.get("saved_by", ""),
            "saved_at": as_utc(doc["saved_at"]).isoformat(), "made_at": answer.get("made_at"),
            "size": audience.get("size", 0), "reachable": audience.get("reachable", 0),
            "filters": answer.get("filters", {})}
