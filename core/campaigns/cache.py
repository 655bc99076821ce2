"""Recommendations kept for 24 hours: the same brief with the same filters, sample size and provider is answered
again from the cache, for free (docs/decisions.md §6 and §8).

The key is the brief normalised (case folded, blanks collapsed), every filter value, the sample size, the provider and
any dates the client gave:
two briefs that differ only in case or spacing share an answer, any other difference does not. Answers are sealed
(core.campaigns.sealed_answers): a brief may name a listener.
"""
from __future__ import annotations

import hashlib
import json
from datetime import datetime, timedelta

from core.campaigns.models import CachedRecommendation
from core.campaigns.sealed_answers import SealedAnswers
from core.clock import as_utc, utcnow
from core.explore.filters import ListenerFilter
from core.personal.registry import Store, by_listener, declare

CACHE_HOURS = 24


def cache_key(brief: str, flt: ListenerFilter, sample_size: int, provider: str, dates: dict | None = None) -> str:
    """The digest of what makes two requests the same (dates a client gave are part of it)."""
    parts = {"brief": " ".join(brief.casefold().split()), "filters": sorted(flt.to_params()),
             "sample_size": sample_size, "provider": provider}
    if dates:
        parts["dates"] = [dates["start"], dates["end"]]
    return hashlib.sha256(json.dumps(parts, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def expires(made_at: datetime) -> datetime:
    """When an answer made then stops being served."""
    return as_utc(made_at) + timedelta(hours=CACHE_HOURS)


def fresh(company_id: int, key: str) -> dict | None:
    """The answer stored under the key less than CACHE_HOURS ago, None otherwise."""
    found = CachedRecommendation._get_collection().find_one(
        {"company_id": company_id, "key": key, "made_at": {"$gt": utcnow() - timedelta(hours=CACHE_HOURS)}},
        ANSWERS.fields, sort=[("made_at", -1)])
    return ANSWERS.opened([found])[0] if found else None


def store(company_id: int, key: str, answer: dict, made_at: datetime) -> None:
    """Keep the answer under its key, replacing an older one (whose key is destroyed)."""
    collection = CachedRecommendation._get_collection()
    before = collection.find_one({"company_id": company_id, "key": key}, {"answer_key": 1})
    collection.replace_one(
        {"company_id": company_id, "key": key},
        {"company_id": company_id, "key": key, "provider": answer["provider"], "model": answer["model"],
         **ANSWERS.sealed(company_id, answer), "made_at": made_at}, upsert=True)
    if before is not None:
        ANSWERS.destroy(company_id, [before])


def erase_recommendations(company_id: int, originator: str, _pseudonym: str = "") -> int:
    """Drop the company's cached recommendations, whose figures counted the erased listener (and a brief could name
    them), and destroy their keys, so that no copy of them reads; returns how many were dropped."""
    collection = CachedRecommendation._get_collection()
    docs = list(collection.find({"company_id": company_id}, {"answer_key": 1}))
    dropped = collection.delete_many({"_id": {"$in": [doc["_id"] for doc in docs]}}).deleted_count
    ANSWERS.destroy(company_id, docs)
    return dropped


ANSWERS = SealedAnswers("recommendation", CachedRecommendation._get_collection, lambda doc: json.loads(doc["answer"]))
STORE = declare(Store("recommendations", "recommendations", erase=by_listener(erase_recommendations),
                      migrate=ANSWERS.seal_plain, personal=("sealed_answer", "answer", "key"),
                      free=("_id", "company_id", "provider", "model", "answer_key", "made_at")))
