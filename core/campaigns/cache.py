"""Recommendations kept for 24 hours: the same brief with the same filters, sample size and provider is answered
again from the cache, for free (docs/decisions.md §6 and §8).

The key is the brief normalised (case folded, blanks collapsed), every filter value, the sample size and the provider:
two briefs that differ only in case or spacing share an answer, any other difference does not.
"""
from __future__ import annotations

import hashlib
import json
from datetime import datetime, timedelta

from core.campaigns.models import CachedRecommendation
from core.clock import as_utc, utcnow
from core.explore.filters import ListenerFilter

CACHE_HOURS = 24


def cache_key(brief: str, flt: ListenerFilter, sample_size: int, provider: str) -> str:
    """The digest of what makes two requests the same."""
    parts = {"brief": " ".join(brief.casefold().split()), "filters": sorted(flt.to_params()),
             "sample_size": sample_size, "provider": provider}
    return hashlib.sha256(json.dumps(parts, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def expires(made_at: datetime) -> datetime:
    """When an answer made then stops being served."""
    return as_utc(made_at) + timedelta(hours=CACHE_HOURS)


def fresh(company_id: int, key: str) -> dict | None:
    """The answer stored under the key less than CACHE_HOURS ago, None otherwise."""
    found = CachedRecommendation._get_collection().find_one(
        {"company_id": company_id, "key": key, "made_at": {"$gt": utcnow() - timedelta(hours=CACHE_HOURS)}},
        {"_id": 0, "answer": 1}, sort=[("made_at", -1)])
    return json.loads(found["answer"]) if found else None


def store(company_id: int, key: str, answer: dict, made_at: datetime) -> None:
    """Keep the answer under its key, replacing an older one."""
    CachedRecommendation._get_collection().replace_one(
        {"company_id": company_id, "key": key},
        {"company_id": company_id, "key": key, "provider": answer["provider"], "model": answer["model"],
         "answer": json.dumps(answer, ensure_ascii=False), "made_at": made_at}, upsert=True)


def erase_recommendations(company_id: int, originator: str, _pseudonym: str = "") -> int:
    """Drop the company's cached recommendations, whose figures counted the erased listener (and a brief could name
    them); returns how many were dropped."""
    return CachedRecommendation._get_collection().delete_many({"company_id": company_id}).deleted_count
