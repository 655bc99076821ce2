"""Recommend: parse the brief, combine its criteria with the filters the client gave (theirs win, and the answer says
where), profile the audience they select, and synthesise a plan whose every claim cites a figure of that profile.

Charged as one operation (the brief's reading included) and kept 24 hours: the same brief, filters, sample size and
provider are answered again from the cache at no cost (docs/decisions.md §6, §8); requests racing for one answer share
one computation and one charge (core.db.leases.single_flight).
"""
from __future__ import annotations

from core.campaigns import cache, recommend_openai
from core.campaigns.audience_profile import audience_profile, figure_words
from core.campaigns.brief import check_brief, read
from core.campaigns.brief_questions import answered, given_dates
from core.campaigns.recommend_local import MODEL, write_recommendation
from core.campaigns.schedule import schedule
from core.clock import station_today, utcnow
from core.config import Settings, active
from core.credits import charges
from core.db.leases import single_flight
from core.errors import ValidationFailed
from core.explore.filters import ListenerFilter, parse_filters
from core.explore.spec import SPEC
from core.search.vocabulary import station_vocabulary
from core.stations.companies import get_company
from core.text.query import check_bounds

OPERATION = "recommend"
DEFAULT_SAMPLE, MAX_SAMPLE = 50, 1000
PARSED = ("criteria", "filters", "dates", "questions", "budget", "goal", "unmapped", "unused")


def check_sample_size(sample_size) -> int:
    """1 <= sample_size <= MAX_SAMPLE, else 422."""
    try:
        if isinstance(sample_size, bool) or not isinstance(sample_size, int):
            raise ValueError("Not a valid integer.")
        return check_bounds(sample_size, 1, MAX_SAMPLE)
    except ValueError as error:
        raise ValidationFailed.one(["body", "sample_size"], str(error)) from None


def recommend(company_id: int, brief: str, sample_size: int = DEFAULT_SAMPLE,
              flt: ListenerFilter | None = None, dates: dict | None = None, loc: tuple = ("body", "dates")) -> dict:
    """The campaign recommendation for the brief and filters, from the cache (free) when made in the last 24 hours;
    `dates` ({"start", "end"}), when given, answer the brief's questions about its dates and replace its own (422
    at `loc` when they are wholly in the past, backwards or no dates)."""
    text, size, given = check_brief(brief), check_sample_size(sample_size), flt or ListenerFilter()
    settings = active()
    if dates is not None:
        dates = given_dates(dates, station_today(get_company(company_id).timezone), loc)
    key = cache.cache_key(text, given, size, settings.ai_provider, dates)
    with single_flight(f"{OPERATION}:{company_id}:{key}", lambda: cache.fresh(company_id, key)) as found:
        if found is None:
            return _recommend(company_id, text, size, given, key, settings, dates)
    spent = charges.cached(company_id, OPERATION, None, found["provider"], found["model"])
    return {**found, "cached": True, "cost": spent["cost"], "balance": spent["balance"]}


def _recommend(company_id: int, text: str, size: int, given: ListenerFilter, key: str, settings: Settings,
               dates: dict | None = None) -> dict:
    """A new recommendation, paid for (refunded when it fails) and kept under `key` for CACHE_HOURS."""
    vocab = station_vocabulary(company_id)  # an unknown company is a 404 before any charge
    with charges.charge(company_id, OPERATION) as bill:
        made_at, company = utcnow(), get_company(company_id)
        today = station_today(company.timezone, made_at)
        parsed = read(vocab, text, made_at, today)
        parsed = answered(parsed, dates) if dates else parsed
        combined, overridden = combine(parsed["filters"], given)
        audience = audience_profile(company_id, combined, size)
        written = _written(settings, text, parsed, audience)
        planned = schedule(company, parsed["dates"], parsed["budget"], audience, today)
        answer = {"company_id": company_id, "brief": text, "sample_size": size, "key": key,
                  "made_at": made_at.isoformat(), "expires_at": cache.expires(made_at).isoformat(),
                  "criteria": {k: parsed[k] for k in PARSED}, "filters": combined.as_values(),
                  "overridden": overridden, "audience": audience, "recommendation": written["recommendation"],
                  "schedule": planned,
                  "provider": parsed["provider"], "model": written["model"] or parsed["model"],
                  "tokens_in": parsed["tokens_in"] + written["tokens_in"],
                  "tokens_out": parsed["tokens_out"] + written["tokens_out"]}
        bill.record(provider=answer["provider"], model=answer["model"], tokens_in=answer["tokens_in"],
                    tokens_out=answer["tokens_out"])
        cache.store(company_id, key, answer, made_at)
    return {**answer, "cached": False, "cost": bill.cost, "balance": bill.balance}


def combine(from_brief: dict, given: ListenerFilter) -> tuple[ListenerFilter, list[dict]]:
    """The brief's filters with the given ones over them, field by field; where a given one replaced a different
    value of the brief, {"field", "from_brief", "given"}."""
    brief_filter = parse_filters(from_brief)
    values, overridden = dict(brief_filter.values), []
    for name, value in given.values.items():
        if name in values and values[name] != value:
            overridden.append({"field": name, "from_brief": brief_filter.as_values()[name],
                               "given": given.as_values()[name]})
        values[name] = value
    return ListenerFilter({name: values[name] for name in SPEC if name in values}), overridden


def _written(settings: Settings, brief: str, parsed: dict, audience: dict) -> dict:
    """The plan from the configured provider: {"recommendation", "model", "tokens_in", "tokens_out"}."""
    if settings.ai_provider == "openai":
        written = recommend_openai.write(brief, parsed, audience, settings)
    else:
        written = {"recommendation": write_recommendation(audience, parsed), "model": MODEL, "tokens_in": 0,
                   "tokens_out": 0}
    written["recommendation"].setdefault("dropped_claims", 0)
    _worded(written["recommendation"], audience)
    return written


def _worded(recommendation: dict, audience: dict) -> None:
    """Each claim's figure with its words (core.campaigns.audience_profile.figure_words), whoever wrote the plan."""
    for section in ("target", "channels", "timing", "angles", "expected_reach"):
        found = recommendation.get(section)
        for claim in found if isinstance(found, list) else [found] if found else []:
            figure = claim["figure"]
            figure["words"] = figure_words(figure["name"], figure["value"], audience)
