"""Plans a producer keeps: a recommendation saved with its brief and filters as it was made, listed, reopened for
free (nothing is asked of the provider again), and written as a PDF to forward to an advertiser.

A plan is saved from the recommendation cache by its key (core.campaigns.cache), so what is kept is exactly what was
shown and paid for; after the cache's 24 hours it must be asked for again. A plan holds counts, never a listener,
except a filter that named one by number, which erasure replaces with the pseudonym (`erase_plans`).
"""
from __future__ import annotations

import json
import secrets

from core.campaigns import cache
from core.campaigns.models import SavedPlan
from core.clock import as_utc
from core.errors import NotFound

NAME_CHARS = 80


class PlanNotFound(NotFound):
    """A plan id unknown to the station (another station's id is unknown too)."""


def save_plan(company_id: int, key: str, actor: str = "") -> dict:
    """Keep the recommendation made under `key` (in the last 24 hours) as a plan; its summary."""
    answer = cache.fresh(company_id, key or "")
    if answer is None:
        raise PlanNotFound("This recommendation is no longer kept (24 hours): ask for it again, then save it.")
    brief = " ".join(answer["brief"].split())
    name = brief if len(brief) <= NAME_CHARS else brief[:NAME_CHARS - 1].rstrip() + "…"
    plan = SavedPlan(company_id=company_id, plan_id=secrets.token_hex(8), name=name, saved_by=actor,
                     answer=json.dumps(answer, ensure_ascii=False)).save()
    return _summary(plan.to_mongo().to_dict(), answer)


def list_plans(company_id: int) -> list[dict]:
    """The station's plans, newest first."""
    return [_summary(doc, json.loads(doc["answer"]))
            for doc in SavedPlan._get_collection().find({"company_id": company_id}).sort("saved_at", -1)]


def get_plan(company_id: int, plan_id: str) -> dict:
    """A plan with its recommendation as it was made."""
    doc = SavedPlan._get_collection().find_one({"company_id": company_id, "plan_id": plan_id})
    if doc is None:
        raise PlanNotFound("Plan not found")
    answer = json.loads(doc["answer"])
    return {**_summary(doc, answer), "recommendation": answer}


def erase_plans(company_id: int, originator: str, pseudonym: str = "") -> int:
    """Replace an erased listener's number in the plans whose filters named it; returns the plans changed."""
    changed = 0
    for doc in SavedPlan._get_collection().find({"company_id": company_id}, {"_id": 1, "answer": 1}):
        if originator in doc["answer"]:
            answer = doc["answer"].replace(originator, pseudonym or "erased")
            SavedPlan._get_collection().update_one({"_id": doc["_id"]}, {"$set": {"answer": answer}})
            changed += 1
    return changed


def _summary(doc: dict, answer: dict) -> dict:
    audience = answer.get("audience", {})
    return {"plan_id": doc["plan_id"], "name": doc["name"], "saved_by": doc.get("saved_by", ""),
            "saved_at": as_utc(doc["saved_at"]).isoformat(), "made_at": answer.get("made_at"),
            "size": audience.get("size", 0), "reachable": audience.get("reachable", 0),
            "filters": answer.get("filters", {})}
