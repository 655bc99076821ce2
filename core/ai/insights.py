"""AI segment insights: what each segment means for this station and what to do about it, from either provider,
grounded in the station's own figures (core.ai.facts), paid for once and reused until the data changes.

"Until the data changes" is the company's `data_version`, which every import, live batch, run and erasure moves;
an answer made by one provider is not served when another is configured. Concurrent requests share one answer and
one charge (core.db.leases.single_flight).
"""
from __future__ import annotations

from core.ai.consistency import consistent
from core.ai.facts import station_facts
from core.ai.models import AiInsights
from core.ai.provider import provider
from core.clock import as_utc
from core.credits import charges
from core.db.leases import single_flight
from core.segmentation.rules import LABELS, SEGMENTS
from core.stations.companies import get_company

OPERATION = "ai_segment_insights"


def ai_segment_insights(company_id: int) -> dict:
    """Every segment's meaning and recommended actions, with what the answer cost and the balance left."""
    version = get_company(company_id).data_version or 0
    chosen = provider()

    def kept() -> dict | None:
        return _kept(company_id, version, chosen.name)

    with single_flight(f"{OPERATION}:{company_id}:{version}:{chosen.name}", kept) as found:
        if found is None:
            return _insights(company_id, version, chosen)
    spent = charges.cached(company_id, OPERATION, None, found["provider"], found.get("model"))
    return _answer(found, True, spent["cost"], spent["balance"])


def shown_again(company_id: int) -> dict | None:
    """The last answer while the station's data is what it was made from (what a later visit shows, uncharged and
    unrecorded: reading a page is not a call), else None; `cost` 0 and `balance` None."""
    found = _kept(company_id, get_company(company_id).data_version or 0, provider().name)
    return {**_answer(found, True, 0, None), "shown_again": True} if found else None


def _kept(company_id: int, version: int, provider_name: str) -> dict | None:
    return AiInsights._get_collection().find_one(
        {"company_id": company_id, "data_version": version, "provider": provider_name}, {"_id": 0},
        sort=[("made_at", -1)])


def _insights(company_id: int, version: int, chosen) -> dict:
    """New insights from the provider, paid for (refunded when it fails) and kept for this data version."""
    facts = station_facts(company_id)
    with charges.charge(company_id, OPERATION) as charge:
        content = chosen.insights(facts)
        charge.record(provider=content["provider"], model=content["model"], tokens_in=content["tokens_in"],
                      tokens_out=content["tokens_out"])
        record = _store(company_id, version, content, facts)
    return _answer(record, False, charge.cost, charge.balance)


def _store(company_id: int, version: int, content: dict, facts: dict) -> dict:
    """The answer, with the figures it was grounded in, replacing older answers of the company."""
    by_segment = {s["segment"]: s for s in content["segments"]}
    figures = {s["segment"]: {"count": s["count"], "percentage": s["percentage"], "churn": s["churn"],
                              "movements": {"joined": s["movements"]["joined"], "left": s["movements"]["left"]}}
               for s in facts["segments"]}
    shows = facts.get("shows") or {}
    segments = [{"segment": key, "label": LABELS[key], **_written(by_segment.get(key), shows), "figures": figures[key]}
                for key in SEGMENTS]
    record = AiInsights(company_id=company_id, data_version=version, provider=content["provider"],
                        model=content["model"], tokens_in=content["tokens_in"], tokens_out=content["tokens_out"],
                        content={"headline": content["headline"], "as_of": facts["as_of"],
                                 "total_listeners": facts["total_listeners"], "segments": segments})
    AiInsights.objects(company_id=company_id).delete()
    record.save()
    return record.to_mongo().to_dict()


def _written(entry: dict | None, shows: dict) -> dict:
    """What the provider wrote of one segment, without the actions that contradict the station's schedule
    (core.ai.consistency); a segment it left out says so rather than vanishing."""
    if entry is None:
        return {"meaning": "The provider wrote nothing about this segment.", "actions": [], "priority": "low"}
    actions, dropped = consistent(list(entry["actions"]), shows)
    return {"meaning": entry["meaning"], "actions": actions, "priority": entry["priority"], "dropped_actions": dropped}


def _answer(record: dict, cached: bool, cost, balance) -> dict:
    content = record["content"]
    return {"company_id": record["company_id"], "as_of": content["as_of"],
            "total_listeners": content["total_listeners"], "headline": content["headline"],
            "segments": content["segments"], "provider": record["provider"], "model": record.get("model"),
            "tokens_in": record.get("tokens_in", 0), "tokens_out": record.get("tokens_out", 0), "cached": cached,
            "made_at": as_utc(record["made_at"]).isoformat(), "data_version": record["data_version"], "cost": cost,
            "balance": balance}
