"""A custom segment: the listeners a theme is about, found by the provider's search queries within the shared
filters, merged best score first. Charged as "custom_segment" (docs/decisions.md §6); nothing is stored but the ledger
entry, and a failure of the provider is refunded."""
from __future__ import annotations

from core.audiences.matching import match, member_results
from core.audiences.queries import search_queries
from core.audiences.rules import (
    DESCRIPTION_MAX,
    MIN_SCORE,
    SEGMENT_LIMIT,
    SEGMENT_LIMITS,
    THEME_MAX,
    Problems,
    filter_params,
)
from core.credits import charges
from core.explore.filters import ListenerFilter
from core.explore.operations import select
from core.search.search import coverage

OPERATION = "custom_segment"
GIVEN = "given"
"""The provider named when the caller brings the queries (a page saving the queries of its preview)."""


def custom_segment(company_id: int, theme: str, description: str | None = None, limit: int = SEGMENT_LIMIT,
                   min_score: float = MIN_SCORE, flt: ListenerFilter | None = None,
                   queries: list[str] | None = None) -> dict:
    """The listeners the theme is about, best first, each with its score and the query that found it."""
    problems = Problems()
    theme = problems.text("theme", theme, THEME_MAX)
    description = problems.text("description", description, DESCRIPTION_MAX, required=False)
    limit, min_score = problems.whole("limit", limit, SEGMENT_LIMITS), problems.score("min_score", min_score)
    queries = problems.queries(queries)
    problems.check()
    flt = flt or ListenerFilter()
    sel = select(company_id, flt)
    with charges.charge(company_id, OPERATION) as bill:
        made = made_queries(company_id, theme, description, queries)
        bill.record(provider=made["provider"], model=made["model"], tokens_in=made["tokens_in"],
                    tokens_out=made["tokens_out"])
        found = match(sel, made["queries"], limit, min_score)
        members = member_results(sel, found, made["queries"])
    return {"company_id": company_id, "theme": theme, "description": description, "limit": limit,
            "min_score": min_score, "filters": filter_params(flt), "queries": found.per_query(made["queries"]),
            **{key: made[key] for key in ("provider", "model", "tokens_in", "tokens_out")},
            "cost": bill.cost, "balance": bill.balance, "cached": False, **coverage(sel), "total": len(members),
            "members": members}


def made_queries(company_id: int, theme: str, description: str | None, queries: list[str] | None) -> dict:
    """The provider's queries for the theme; or those the caller brings (a page saving its preview), as an answer
    nobody was asked for: no provider, no tokens."""
    if queries:
        return {"queries": queries, "provider": GIVEN, "model": None, "tokens_in": 0, "tokens_out": 0}
    return search_queries(company_id, theme, description)
