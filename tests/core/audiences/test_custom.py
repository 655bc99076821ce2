"""A custom segment in core: each query runs as search does within the filters, and each listener keeps the best
score any query gave it, with that query; queries a caller brings are run as they are and still paid for."""
from __future__ import annotations

import pytest

from core.audiences.custom import custom_segment
from core.credits.ledger import account
from core.errors import CompanyNotFound, ValidationFailed
from core.explore.filters import ListenerFilter, parse_filters
from core.privacy.erasure import erase_listener
from core.search.search import search_listeners
from tests.conftest import restored
from tests.themes import CREDITS, GOSPEL_THEME, of_theme, originator, themed_station

pytestmark = pytest.mark.db

QUERIES = [GOSPEL_THEME, "soccer talk and the derby", "saving money for a small business"]


@pytest.fixture
def station(app):
    return restored("themed-1", themed_station)


def test_each_listener_keeps_the_best_score_any_query_gave_it_and_that_query(station):
    found = custom_segment(1, "anything", queries=QUERIES, min_score=0, limit=1000)
    by_query = [{r["originator"]: r["score"] for r in search_listeners(1, q, ListenerFilter(), min_score=0,
                                                                        limit=1000)["results"]} for q in QUERIES]
    assert found["total"] == 12  # each query's theme holders (the first query, "anything", holds nobody)
    for member in found["members"]:
        scores = [scored.get(member["originator"], -1) for scored in by_query]
        assert member["score"] == max(scores)
        assert member["query"] == QUERIES[scores.index(max(scores))]
    assert {q["query"]: q["members"] for q in found["queries"]} == {q: 4 for q in QUERIES}


def test_given_queries_ask_no_provider_but_are_charged(station, monkeypatch):
    monkeypatch.setattr("core.audiences.custom.search_queries", lambda *_: pytest.fail("the provider was asked"))
    found = custom_segment(1, GOSPEL_THEME, queries=QUERIES[:1], min_score=0, limit=4)
    assert (found["provider"], found["model"], found["cost"]) == ("given", None, 2)
    assert {m["originator"] for m in found["members"]} == of_theme(1, "gospel")
    assert account(1)["balance"] == CREDITS - 2


def test_members_come_with_the_listener_record_and_what_matched(station):
    member = custom_segment(1, GOSPEL_THEME, min_score=0, limit=1)["members"][0]
    assert {"originator", "segment", "gender", "location", "score", "matched", "query", "inferred"} <= member.keys()
    assert any("gospel" in part.lower() for part in member["matched"])


def test_filters_apply_before_ranking(station):
    found = custom_segment(1, GOSPEL_THEME, min_score=0, limit=2, flt=parse_filters({"location": "Durban",
                                                                                     "gender": "female"}))
    assert {m["originator"] for m in found["members"]} == {originator(1, "gospel", n) for n in (1, 3)}


def test_an_erased_listener_is_never_a_member(station, test_env):
    gone = originator(1, "gospel", 0)
    erase_listener(1, gone, test_env["SECRET_KEY"])
    found = custom_segment(1, GOSPEL_THEME, min_score=0, limit=1000)
    members = {m["originator"] for m in found["members"]}
    assert gone not in members and of_theme(1, "gospel") - {gone} <= members and found["total"] == len(members)


def test_an_unknown_company_is_404_and_an_invalid_request_422_both_before_any_charge(station):
    with pytest.raises(CompanyNotFound):
        custom_segment(99, GOSPEL_THEME)
    with pytest.raises(ValidationFailed):
        custom_segment(1, GOSPEL_THEME, queries=[" "])
    assert account(1)["balance"] == CREDITS
