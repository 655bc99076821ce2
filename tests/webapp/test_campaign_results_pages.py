"""A campaign and its results on the dashboard over HTTP: recorded from the audience's page (a refused one said in
words with 422, nothing recorded); the results section saying what the API answers for the same audience (the
verdict, each group's counts and share, the range in words, a chart of both groups day by day with its numbers) and
no statistics jargon; the reason where there is nothing to compare; a plan's audience carrying the plan's id and
listed on the plan's page with its verdict; the plan's PDF with a page of results per audience."""
from __future__ import annotations

import re
from datetime import UTC, datetime
from html import unescape

import pytest
from flask import render_template

from core.access.api_keys import create_key
from core.access.users import create_user
from core.audiences import store
from core.audiences.campaign import made_day
from core.audiences.results import NO_HOLDOUT, NOT_RECORDED, audience_results
from tests.conftest import restored
from tests.themes import EVERYONE_THEME, themed_station
from tests.webapp import test_briefs_pages as briefs_pages
from tests.webapp import test_plans_pages as plans_pages
from tests.webapp.conftest import PASSWORD
from webapp import plans

pytestmark = pytest.mark.db

MADE = datetime(2026, 11, 9, 12, 0, tzinfo=UTC)
"""When the themed station's audiences are made: 9 Nov in Johannesburg, the day before the window."""
WINDOW = {"starts": "2026-11-10", "ends": "2026-11-19"}
"""Every themed listener wrote 3 and 4 days before the tests' NOW (20 Nov): all of them responded in it."""
JARGON = ("p-value", "p value", "p_value", "confidence interval", "significan", "statistic", "null hypothesis")
on_demo = briefs_pages.signed_in  # the demo station (200 listeners, its credits), its producer signed in


def words(html: str) -> str:
    """The text a reader sees: tags dropped, entities decoded, white space collapsed."""
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html))).strip()


@pytest.fixture
def producer(client, app, monkeypatch):
    """The themed station (twelve listeners, its credits) and its producer, signed in; audiences are made at MADE."""
    monkeypatch.setattr(store, "utcnow", lambda: MADE)
    restored("themed-1", themed_station)
    create_user("thandi@jozi.fm", PASSWORD, companies=[1], name="Thandi Mokoena")
    client.post("/login", data={"email": "thandi@jozi.fm", "password": PASSWORD})
    return client


def everyone(holdout_percent: int = 50, **overrides) -> dict:
    """An audience of every themed listener, holding this share out."""
    return store.create_audience(1, "Everyone", EVERYONE_THEME, limit=1000, min_score=0,
                                 holdout_percent=holdout_percent, **overrides)


def page_of(audience: dict) -> str:
    return f"/stations/1/audiences/{audience['audience_id']}"


def test_a_campaign_recorded_from_the_page_is_kept_and_its_page_shows_the_results(producer):
    audience = everyone()
    form = {**WINDOW, "campaign_type": "", "channel_type": "2", "timeslot_id": "", "hoped_lift_points": "3.5"}
    answer = producer.post(f"{page_of(audience)}/campaign", data=form)
    assert answer.status_code == 303 and answer.headers["Location"].endswith(f"{page_of(audience)}#results-title")
    assert store.get_audience(1, audience["audience_id"])["campaign"] == {
        **WINDOW, "campaign_type": None, "channel_type": 2, "timeslot_id": None, "hoped_lift_points": 3.5}
    shown = producer.get(page_of(audience)).text
    assert "Campaign recorded" in words(shown)
    assert re.search(r'name="starts" value="2026-11-10"', shown) and re.search(r'value="2" selected', shown)
    assert "10 Nov 2026 to 19 Nov 2026" in words(shown)


def test_a_campaign_that_ends_before_it_starts_is_refused_in_words_and_nothing_is_recorded(producer):
    audience = everyone()
    answer = producer.post(f"{page_of(audience)}/campaign", data={"starts": "2026-11-19", "ends": "2026-11-10"})
    assert answer.status_code == 422
    said = words(answer.text)
    assert "Nothing was recorded" in said and "cannot end (2026-11-10) before it starts (2026-11-19)" in said
    assert 'data-testid="campaign-problem-ends"' in answer.text and 'aria-invalid="true"' in answer.text
    assert re.search(r'name="starts" value="2026-11-19"', answer.text), "what was typed is shown again"
    assert store.get_audience(1, audience["audience_id"])["campaign"]["starts"] is None


def test_a_campaign_may_start_on_the_day_the_audience_was_made_and_not_the_day_before(producer):
    audience = everyone()
    answer = producer.post(f"{page_of(audience)}/campaign", data={"starts": "2026-11-08", "ends": "2026-11-19"})
    assert answer.status_code == 422 and 'data-testid="campaign-problem-starts"' in answer.text
    assert "cannot start (2026-11-08) before its audience was made (2026-11-09)" in words(answer.text)
    assert store.get_audience(1, audience["audience_id"])["campaign"]["starts"] is None
    answer = producer.post(f"{page_of(audience)}/campaign", data={"starts": "2026-11-09", "ends": "2026-11-19"})
    assert answer.status_code == 303 and store.get_audience(1, audience["audience_id"])["campaign"]["starts"] == (
        "2026-11-09")


def test_a_campaign_without_its_first_day_is_refused_beside_the_field(producer):
    audience = everyone()
    answer = producer.post(f"{page_of(audience)}/campaign", data={"starts": "", "hoped_lift_points": "3"})
    assert answer.status_code == 422 and 'data-testid="campaign-problem-starts"' in answer.text
    assert "Give the campaign's first day" in words(answer.text)


def test_before_a_campaign_is_recorded_the_results_say_none_is_and_show_no_counts(producer):
    shown = producer.get(page_of(everyone())).text
    said = words(shown)
    assert NOT_RECORDED in said and "No campaign recorded yet: nothing is counted." in said
    assert 'data-testid="results-arms"' not in shown and "Target (contacted)" not in said
    assert "responded" not in said.lower()


def test_the_results_say_from_when_they_count(producer):
    audience = everyone(campaign={"starts": "2026-11-09", "ends": "2026-11-19"})
    counted = re.search(r'data-testid="results-counted-from">([^<]+)<', producer.get(page_of(audience)).text)
    assert unescape(counted.group(1)) == ("Counted from when the audience was made, 9 Nov 2026 at 14:00: what "
                                          "members did before is not a response.")


def test_a_hoped_for_lift_that_is_not_a_number_is_refused_beside_its_field(producer):
    audience = everyone()
    answer = producer.post(f"{page_of(audience)}/campaign", data={"hoped_lift_points": "lots"})
    assert answer.status_code == 422 and 'data-testid="campaign-problem-hoped_lift_points"' in answer.text
    assert "Not a valid number" in words(answer.text)


def test_the_results_say_what_the_api_answers_for_the_same_audience(producer):
    audience = everyone(campaign=WINDOW)
    found = audience_results(1, audience["audience_id"])
    key = {"X-API-Key": create_key([1], name="test")[1]}
    api = producer.get(f"/api/v1/audiences/1/{audience['audience_id']}/results", headers=key).get_json()
    assert api["verdict"] == found["verdict"] and api["arms"] == found["arms"]
    shown = producer.get(page_of(audience)).text
    verdict = re.search(r'data-testid="results-verdict">([^<]+)<', shown).group(1)
    assert unescape(verdict) == found["verdict"]
    rows = re.findall(r'data-arm="(\w+)">.*?arm-members">([^<]+)<.*?arm-responded">([^<]+)<.*?arm-share">([^<]+)<',
                      shown, re.DOTALL)
    assert {arm: (int(m), int(r)) for arm, m, r, _ in rows} == {
        arm: (found["arms"][arm]["members"], found["arms"][arm]["responded"]) for arm in ("target", "holdout")}
    assert {arm: share for arm, _, _, share in rows} == {
        arm: f"{100 * found['arms'][arm]['rate']:.1f}%" for arm in ("target", "holdout")}


def test_the_range_is_said_in_words_without_statistics_jargon(producer):
    audience = everyone(campaign=WINDOW)
    low, high = audience_results(1, audience["audience_id"])["lift"]["interval"]
    said = words(producer.get(page_of(audience)).text)
    assert "We are 95% sure the difference lies between" in said
    assert f"{100 * abs(low):.1f}" in said and f"{100 * abs(high):.1f}" in said
    assert "listeners are needed in the target" in said
    assert not [term for term in JARGON if term in said.lower()]


def test_the_chart_draws_both_groups_day_by_day_with_the_numbers_in_a_table(producer):
    audience = everyone(campaign=WINDOW)
    daily = audience_results(1, audience["audience_id"])["daily"]
    shown = producer.get(page_of(audience)).text
    svg = re.search(r"<svg class=\"arms-svg\".*?</svg>", shown, re.DOTALL).group(0)
    assert 'role="img"' in svg and 'aria-label="Share of the target and of the holdout' in svg
    assert svg.count("<polyline") == 2 and svg.count("<circle") == 2 * len(daily) == 20
    table = re.search(r'data-testid="results-chart-table">.*?</details>', shown, re.DOTALL).group(0)
    assert table.count("<tr>") == len(daily) + 1
    day = next(d for d in daily if d["target"]["responded"])
    assert f"{100 * day['target']['rate']:.1f}% ({day['target']['responded']} of {day['target']['members']})" in table


def test_an_audience_without_a_holdout_says_why_there_is_nothing_to_compare(producer):
    audience = everyone(holdout_percent=0, campaign=WINDOW)
    shown = producer.get(page_of(audience)).text
    assert NO_HOLDOUT in words(shown)
    assert 'data-arm="holdout"' not in shown and 'data-testid="results-chart"' not in shown


def test_a_campaign_still_to_come_says_when_it_starts(producer):
    audience = everyone(campaign={"starts": "2027-01-10", "ends": "2027-01-20"})
    said = words(producer.get(page_of(audience)).text)
    assert "The campaign starts on 2027-01-10: nothing to compare yet." in said
    assert "has not started" in said and "no day counted yet" in said


def made_from_the_plan(client) -> tuple[str, str]:
    """A plan saved on the demo station, and an audience made from it through its "Make an audience" link; the
    plan's path and the audience's id."""
    path = plans_pages.saved(client)
    link = re.search(r'href="([^"]+)" data-testid="plan-audience"', client.get(path).text).group(1)
    form = client.get(unescape(link)).text
    plan_id = re.search(r'name="plan_id" value="([0-9a-f]+)"', form).group(1)
    assert path.endswith(plan_id)
    made = client.post("/stations/1/audiences", data={"audience_name": "From the plan", "theme": "gospel lovers",
                                                      "holdout_percent": "10", "plan_id": plan_id})
    assert made.status_code == 303, words(made.text)
    return path, made.headers["Location"].rsplit("/", 1)[1]


def test_a_plan_s_audience_carries_the_plan_and_is_listed_on_its_page_with_its_verdict(on_demo):
    path, audience_id = made_from_the_plan(on_demo)
    assert store.get_audience(1, audience_id)["plan_id"] == path.rsplit("/", 1)[1]
    page = on_demo.get(path).text
    listed = re.search(r'data-testid="plan-audience-made" data-audience="([^"]+)">.*?</li>', page, re.DOTALL)
    assert listed.group(1) == audience_id and f"/stations/1/audiences/{audience_id}" in listed.group(0)
    assert unescape(audience_results(1, audience_id)["verdict"]) in unescape(listed.group(0))


def test_a_plan_without_audiences_says_none_yet(on_demo):
    assert 'data-testid="plan-audiences-none"' in on_demo.get(plans_pages.saved(on_demo)).text


def test_the_plan_s_pdf_holds_a_page_of_results_per_audience_made_from_it(on_demo, monkeypatch):
    path, audience_id = made_from_the_plan(on_demo)
    drawn = []

    def kept_html(*args, **kwargs) -> str:
        drawn.append(render_template(*args, **kwargs))
        return drawn[-1]

    monkeypatch.setattr(plans, "render_template", kept_html)
    answer = on_demo.get(f"{path}.pdf")
    assert answer.status_code == 200 and answer.mimetype == "application/pdf" and len(answer.data) > 4000
    html = words(drawn[-1])
    assert "Campaign results: From the plan" in html and NOT_RECORDED in html and "responded" not in html
    audience = store.get_audience(1, audience_id)
    made_on = made_day(datetime.fromisoformat(audience["created_at"]), "Africa/Johannesburg")
    store.record_campaign(1, audience_id, {"starts": made_on.isoformat()})
    answer = on_demo.get(f"{path}.pdf")
    found, html = audience_results(1, audience_id), words(drawn[-1])
    assert "Campaign results: From the plan" in html and found["verdict"] in html
    assert found["window"]["counted_words"] in html
    target = found["arms"]["target"]
    assert f"The target, whom the campaign could contact: {target['members']} members" in html
    assert "Campaign results: From the plan" in plans_pages.pdf_text(answer.data)
    assert not [term for term in JARGON if term in html.lower()]
