"""The briefs page over HTTP: reading a brief (paid) into criteria with the words they came from, dates, budget and
goal and what could not be mapped; its filters as chips that can be changed, removed and added to for free; the
recommendation for the brief within those filters (paid, then cached and free), with its figures, the audience's
profile and which filters overrode the brief; refusals in plain words with their status; tenancy and CSRF."""
from __future__ import annotations

import re
from datetime import date
from html import unescape

import pytest
from werkzeug.datastructures import MultiDict

from core.access.users import create_user
from core.campaigns import recommend as recommend_module
from core.credits.ledger import account, set_paused
from core.demo.seed import DEMO_CREDITS
from tests.conftest import seeded
from tests.factories import make_company
from tests.webapp.conftest import PASSWORD

pytestmark = pytest.mark.db

HTMX = {"HX-Request": "true"}
BRIEFS = "/stations/1/briefs"
BRIEF = ("A gospel concert in Durban, on air 1-14 December 2027. We want super fans and show loyalists, women, who "
         "reply on WhatsApp in the morning. Budget R50,000; goal: sell 2,000 tickets.")

WIDE = "Reach super fans and show loyalists, women mostly. Budget R20 000 to sell concert tickets."
"""A brief that leaves listeners of the demo station to recommend for."""


def words(html: str) -> str:
    """The text a reader sees: tags dropped, entities decoded, white space collapsed."""
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html))).strip()


def chips_of(html: str) -> list[tuple[str, str]]:
    """(filter, value) of every chip, in order."""
    return re.findall(r'data-testid="brief-chip" data-filter="(\w+)" data-value="([^"]*)"', html)


@pytest.fixture
def signed_in(client, app):
    """The demo station (1, 200 listeners, its demo credits), station 2 without credits, and a producer of both,
    signed in."""
    seeded(200)
    make_company(2, name="Coast Radio")
    create_user("thandi@jozi.fm", PASSWORD, companies=[1, 2], name="Thandi Mokoena")
    client.post("/login", data={"email": "thandi@jozi.fm", "password": PASSWORD})
    return client


def read(client, brief: str = BRIEF, company_id: int = 1, **headers):
    return client.post(f"/stations/{company_id}/briefs/read", data={"brief": brief}, headers=headers)


def test_the_page_has_the_box_for_the_brief_and_the_price_of_reading_it(signed_in):
    response = signed_in.get(BRIEFS)
    assert response.status_code == 200
    assert 'name="brief"' in response.text and "Read the brief · 1 credit" in words(response.text)


def test_the_navigation_links_to_briefs(signed_in):
    assert f'href="{BRIEFS}"' in signed_in.get("/stations/1/").text


def test_reading_shows_the_criteria_with_their_words_and_the_facts_and_what_it_cost(signed_in):
    response = read(signed_in, **HTMX)
    assert response.status_code == 200 and "<html" not in response.text
    text = words(response.text)
    fields = re.findall(r'data-testid="brief-criterion" data-field="(\w+)"', response.text)
    assert {"segment", "gender"} <= set(fields)
    assert "Super fans" in text or "Super fan" in text
    facts = dict(re.findall(r'data-fact="(\w+)"><dt>\w+</dt><dd><span>([^<]+)</span>', response.text))
    assert facts["budget"] == "ZAR 50,000" and re.fullmatch(r"1 Dec \d{4} to 14 Dec \d{4}", facts["dates"])
    assert "Reading it cost 1 credit" in text and f"Balance {DEMO_CREDITS - 1} credits" in text


def test_the_filters_come_back_as_chips_each_one_editable(signed_in):
    html = read(signed_in, **HTMX).text
    found = chips_of(html)
    assert ("segment", "super_fan") in found and ("gender", "female") in found
    assert re.search(r'<select id="chip-\w+" name="segment">', html)  # a segment chip offers the other segments


def test_what_the_brief_excludes_comes_back_as_an_exclusion_chip_and_the_plan_says_not(signed_in):
    brief = "Reach women, exclude super fans. Budget R20 000 to sell concert tickets."
    html = read(signed_in, brief, **HTMX).text
    assert ("exclude_segment", "super_fan") in chips_of(html)
    assert re.search(r'class="chip-name">Segment \(excluded\)</label>\s*<select id="chip-\w+" name="exclude_segment">',
                     html)
    form = MultiDict([*chips_of(html), ("brief", brief)])
    applied = re.search(r'data-testid="reco-filters">.*?</p>', signed_in.post(f"{BRIEFS}/recommend", data=form,
                                                                               headers=HTMX).text, re.S).group()
    assert "Segment: not Super fans" in words(applied)


def test_removing_a_chip_gives_the_chips_back_without_it_for_free(signed_in):
    html = read(signed_in, **HTMX).text
    found = chips_of(html)
    balance = account(1)["balance"]
    index = found.index(("gender", "female"))
    form = {"brief": BRIEF, "remove": str(index)}
    response = signed_in.post(f"{BRIEFS}/filters", data=MultiDict([*found, *form.items()]), headers=HTMX)
    assert response.status_code == 200
    assert chips_of(response.text) == [pair for i, pair in enumerate(found) if i != index]
    assert account(1)["balance"] == balance


def test_a_filter_can_be_added_and_a_bad_value_is_said(signed_in):
    response = signed_in.post(f"{BRIEFS}/filters", data={"brief": BRIEF, "add_field": "opt_in", "add_value": "true"},
                              headers=HTMX)
    assert chips_of(response.text) == [("opt_in", "true")]
    response = signed_in.post(f"{BRIEFS}/filters", data={"brief": BRIEF, "add_field": "peak_hour",
                                                         "add_value": "25"}, headers=HTMX)
    assert "Peak hour: Must be between 0 and 23." in words(response.text)


def test_recommend_shows_the_plan_with_figures_the_profile_and_what_it_cost_then_is_free(signed_in):
    found = chips_of(read(signed_in, WIDE, **HTMX).text)
    form = MultiDict([*found, ("brief", WIDE)])
    response = signed_in.post(f"{BRIEFS}/recommend", data=form, headers=HTMX)
    assert response.status_code == 200
    text = words(response.text)
    assert "it cost 5 credits" in text and f"Balance {DEMO_CREDITS - 6} credits" in text
    figures = re.findall(r'data-testid="reco-figure" data-figure="([^"]+)">From the data: ([^<]+)<', response.text)
    assert figures and all(name not in said and not re.search(r"\b\w+\.\w+ =", said) for name, said in figures)
    assert any(said.endswith("of the audience") and not said[0].isdigit() for _, said in figures)
    size = int(re.search(r'data-testid="reco-size">([\d,]+)<', response.text).group(1).replace(",", ""))
    assert 0 < size < 200 and "Gender: Female" in text
    again = words(signed_in.post(f"{BRIEFS}/recommend", data=form, headers=HTMX).text)
    assert "Cached" in again and "this answer was free" in again
    assert account(1)["balance"] == DEMO_CREDITS - 6


def test_a_changed_value_overrides_the_brief_and_the_page_says_so(signed_in):
    found = chips_of(read(signed_in, **HTMX).text)
    changed = [("gender", "male") if pair == ("gender", "female") else pair for pair in found]
    response = signed_in.post(f"{BRIEFS}/recommend", data=MultiDict([*changed, ("brief", BRIEF)]), headers=HTMX)
    overridden = re.search(r'data-testid="reco-overridden">.*?</div>', response.text, re.S).group()
    assert "Gender: the brief said Female, you gave Male." in words(overridden)


def test_a_removed_chip_the_brief_still_names_is_said_to_still_apply(signed_in):
    found = chips_of(read(signed_in, **HTMX).text)
    kept = [pair for pair in found if pair[0] != "gender"]
    response = signed_in.post(f"{BRIEFS}/recommend", data=MultiDict([*kept, ("brief", BRIEF)]), headers=HTMX)
    assert "Still applied from the brief's own words: Gender" in words(response.text)


def test_a_blank_brief_is_refused_with_422_and_nothing_is_charged(signed_in):
    response = read(signed_in, "   ")
    assert response.status_code == 422 and "Write the brief" in words(response.text)
    assert account(1)["balance"] == DEMO_CREDITS


def test_not_enough_credits_is_said_where_the_answer_would_be(signed_in):
    response = read(signed_in, company_id=2, **HTMX)
    assert response.status_code == 200
    assert "Not enough credits: this costs 1 credit and the balance is 0 credits" in words(response.text)
    assert read(signed_in, company_id=2).status_code == 402


def test_paused_ai_is_said_on_the_recommendation_with_403_without_scripts(signed_in):
    set_paused(1, True, "budget review")
    response = signed_in.post(f"{BRIEFS}/recommend", data={"brief": BRIEF, "segment": "super_fan"})
    assert response.status_code == 403 and "<html" in response.text
    assert "budget review" in words(response.text) and 'data-testid="reco-problem"' in response.text


def test_a_bad_sample_size_is_refused_before_anything_is_charged(signed_in):
    response = signed_in.post(f"{BRIEFS}/recommend", data={"brief": BRIEF, "sample_size": "0"}, headers=HTMX)
    assert "Nothing was charged. Sample size: Must be between 1 and 1000." in words(response.text)
    assert account(1)["balance"] == DEMO_CREDITS


def test_another_station_is_refused(signed_in):
    create_user("other@coast.fm", PASSWORD, companies=[2])
    signed_in.post("/logout")
    signed_in.post("/login", data={"email": "other@coast.fm", "password": PASSWORD})
    assert read(signed_in).status_code == 403
    assert account(1)["balance"] == DEMO_CREDITS


def test_reading_needs_the_csrf_token(signed_in, csrf_enabled):
    assert read(signed_in).status_code == 400
    assert account(1)["balance"] == DEMO_CREDITS


def test_the_words_of_a_brief_the_plan_does_not_act_on_are_listed(signed_in):
    response = read(signed_in, "Women in Durban for a furniture store's Black Friday deals", **HTMX)
    unused = re.search(r'data-testid="brief-unused">(.*?)</p>', response.text, re.DOTALL).group(1)
    assert "furniture store" in unused and "Black Friday deals" in unused


def recommended_on(client, monkeypatch, today: date, brief: str, dates: str = "") -> str:
    """The recommendation's HTML for the brief, made as if the station's today were `today`, with the reading of its
    dates picked (`dates`, "start/end") when given."""
    monkeypatch.setattr(recommend_module, "station_today", lambda tz, now=None: today)
    form = MultiDict([*chips_of(read(client, brief, **HTMX).text), ("brief", brief), *([("dates", dates)] if dates
                                                                                         else [])])
    return client.post(f"{BRIEFS}/recommend", data=form, headers=HTMX).text


def test_a_recommendation_uses_the_brief_s_dates_and_says_what_its_budget_needs(signed_in, monkeypatch):
    html = recommended_on(signed_in, monkeypatch, date(2026, 11, 19),
                          f"{WIDE} Runs 20-30 November 2026 with a budget of R50k.")
    dates = re.search(r'data-testid="reco-dates"[^>]*>([^<]+)<', html).group(1)
    assert "20 Nov 2026 to 30 Nov 2026" in dates and "11 days" in dates
    assert 'data-testid="reco-airing"' in html
    budget = words(re.search(r'data-testid="reco-budget">([^<]+)<', html).group(1))
    assert "no price per spot" in budget and "rate_card" not in budget and ".." not in budget


def test_a_run_that_has_started_is_said_to_have_started_with_the_days_left(signed_in, monkeypatch):
    html = recommended_on(signed_in, monkeypatch, date(2026, 11, 28), f"{WIDE} Runs 20-30 November.",
                          "2026-11-20/2026-11-30")  # a run that has started is asked: picked as written
    dates = words(re.search(r'data-testid="reco-dates" data-state="started"[^>]*>([^<]+)<', html).group(1))
    assert "20 Nov 2026 to 30 Nov 2026: it started on 20 Nov 2026, so 3 of its 11 days are left" in dates


def test_a_budget_the_audience_cannot_carry_is_said_with_its_cost_per_listener_and_how_to_widen(signed_in,
                                                                                                monkeypatch):
    html = recommended_on(signed_in, monkeypatch, date(2026, 11, 19), f"{WIDE} Runs 1-14 December.")
    thin = words(re.search(r'data-testid="reco-thin">(.*?)</div>', html, re.DOTALL).group(1))
    assert "too thin for its budget: R20,000 over" in thin and "per listener reached" in thin
    assert "To widen it" in thin and "Without the segment filter" in thin


def readings_of(html: str) -> list[str]:
    """The values of the dates' readings the recommend form offers."""
    return re.findall(r'name="dates" value="([^"]+)" data-testid="brief-reading"', html)


def test_dates_read_two_ways_are_asked_with_each_reading_to_pick_and_no_dates_shown(signed_in):
    html = read(signed_in, f"{WIDE} On air from 01/02 to 03/02.", **HTMX).text
    question = words(re.search(r'data-testid="brief-questions">(.*?)</div>', html, re.DOTALL).group(1))
    assert "01/02 to 03/02" in question and "a day then a month, or as a month then a day" in question
    assert readings_of(html) == ["2027-02-01/2027-02-03", "2027-01-02/2027-03-02"]
    assert 'data-fact="dates"' not in html and 'data-testid="brief-reading-none"' in html


def test_dates_wholly_in_the_past_are_refused_in_words_on_the_page(signed_in):
    html = read(signed_in, f"{WIDE} Runs 1-14 December 2025.", **HTMX).text
    question = words(re.search(r'data-testid="brief-questions">(.*?)</div>', html, re.DOTALL).group(1))
    assert "wholly in the past" in question and "a plan cannot air in it" in question
    assert readings_of(html) == [] and 'data-fact="dates"' not in html


def test_the_reading_picked_is_the_run_the_plan_is_made_for(signed_in, monkeypatch):
    monkeypatch.setattr(recommend_module, "station_today", lambda tz, now=None: date(2026, 12, 1))
    brief = f"{WIDE} On air from 01/02 to 03/02."
    form = MultiDict([*chips_of(read(signed_in, brief, **HTMX).text), ("brief", brief),
                      ("dates", "2027-02-01/2027-02-03")])
    html = signed_in.post(f"{BRIEFS}/recommend", data=form, headers=HTMX).text
    dates = words(re.search(r'data-testid="reco-dates"[^>]*>([^<]+)<', html).group(1))
    assert "1 Feb 2027 to 3 Feb 2027" in dates and 'data-testid="reco-questions"' not in html


def test_without_a_reading_picked_the_recommendation_says_the_dates_are_still_open(signed_in, monkeypatch):
    html = recommended_on(signed_in, monkeypatch, date(2026, 12, 1), f"{WIDE} On air 5 to 2 November.")
    still = words(re.search(r'data-testid="reco-questions">(.*?)</div>', html, re.DOTALL).group(1))
    assert "the plan has no dates" in still and "5 to 2 November" in still
    assert 'data-testid="reco-dates"' not in html


def test_a_picked_reading_in_the_past_is_refused_and_nothing_is_charged(signed_in, monkeypatch):
    monkeypatch.setattr(recommend_module, "station_today", lambda tz, now=None: date(2026, 12, 1))
    form = MultiDict([("brief", WIDE), ("dates", "2026-11-02/2026-11-05")])
    html = signed_in.post(f"{BRIEFS}/recommend", data=form, headers=HTMX).text
    problem = words(re.search(r'data-testid="reco-problem">([^<]+)<', html).group(1))
    assert problem.startswith("Nothing was charged.") and "wholly in the past" in problem
    assert account(1)["balance"] == DEMO_CREDITS


def test_a_plan_over_public_holidays_says_which_airings_fall_on_them(signed_in, monkeypatch):
    html = recommended_on(signed_in, monkeypatch, date(2026, 12, 1), f"{WIDE} From 20 December to 5 January.")
    said = words(re.search(r'data-testid="reco-holidays">([^<]+)<', html).group(1))
    assert said.startswith("25 Dec (Christmas Day), 26 Dec (Day of Goodwill) and 1 Jan (New Year's Day) fall in "
                           "the window")


def test_a_run_of_two_weekends_is_shown_as_both_weekends_alone(signed_in):
    html = read(signed_in, f"{WIDE} On air this weekend and next.", **HTMX).text
    fact = words(re.search(r'data-fact="dates">(.*?)</div>', html, re.DOTALL).group(1))
    assert "weekends only" in fact and "this weekend and next" in fact
