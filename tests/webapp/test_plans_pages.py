"""Saved plans over HTTP: a recommendation saved, listed on the briefs page, reopened for free, turned into an
audience's form with its filters, and downloaded as a PDF that holds the plan's figures in words."""
from __future__ import annotations

import re
import zlib
from datetime import date

import pytest
from werkzeug.datastructures import MultiDict

from core.campaigns import recommend as recommend_module
from core.credits.ledger import account
from tests.webapp import test_briefs_pages as shared
from tests.webapp.test_briefs_pages import BRIEFS, HTMX, WIDE, chips_of, read

pytestmark = pytest.mark.db
signed_in = shared.signed_in  # the briefs pages' fixture: the demo station, its producer signed in


def recommended(client, brief: str = f"{WIDE} Runs 20-30 November 2026.", dates: str = "") -> str:
    """The recommendation for the brief, with the reading of its dates picked (`dates`, "start/end") when given: a
    run that has started is asked (from today, or as written)."""
    form = MultiDict([*chips_of(read(client, brief, **HTMX).text), ("brief", brief), *([("dates", dates)] if dates
                                                                                         else [])])
    return client.post(f"{BRIEFS}/recommend", data=form, headers=HTMX).text


def saved(client, *brief: str, dates: str = "") -> str:
    key = re.search(r'name="key" value="([0-9a-f]+)"', recommended(client, *brief, dates=dates)).group(1)
    answer = client.post("/stations/1/plans", data={"key": key})
    assert answer.status_code == 303
    return answer.headers["Location"]


def pdf_text(data: bytes) -> str:
    """The text drawn in a PDF's pages (its content streams, inflated)."""
    streams = re.findall(rb"stream\r?\n(.*?)\r?\nendstream", data, re.DOTALL)
    out = []
    for stream in streams:
        try:
            out.append(zlib.decompress(stream).decode("latin-1"))
        except zlib.error:
            out.append(stream.decode("latin-1"))
    return " ".join(re.findall(r"\((.*?)\)\s*Tj", " ".join(out)))


def test_a_saved_plan_is_listed_and_reopens_for_free_as_it_was_shown(signed_in):
    path = saved(signed_in)
    balance = account(1)["balance"]
    page = signed_in.get(path)
    assert page.status_code == 200 and 'data-testid="plan-saved"' in page.text
    assert 'data-testid="reco-summary"' in page.text
    assert account(1)["balance"] == balance
    listed = signed_in.get(BRIEFS).text
    assert 'data-testid="saved-plan"' in listed and path in listed


def test_a_plan_becomes_an_audience_form_with_its_filters_in_one_click(signed_in):
    page = signed_in.get(saved(signed_in)).text
    url = re.search(r'href="([^"]+)" data-testid="plan-audience"', page).group(1).replace("&amp;", "&")
    form = signed_in.get(url)
    assert form.status_code == 200 and "/audiences/new?" in url and "gender=" in url
    assert re.search(r'name="holdout_percent" value="10"', form.text), "a plan's audience proposes a 10% holdout"


def test_the_pdf_holds_the_plan_s_figures_in_words(signed_in, monkeypatch):
    monkeypatch.setattr(recommend_module, "station_today", lambda tz, now=None: date(2026, 11, 28))
    path = saved(signed_in)
    page = signed_in.get(path).text
    answer = signed_in.get(f"{path}.pdf")
    assert answer.status_code == 200 and answer.mimetype == "application/pdf" and answer.data.startswith(b"%PDF")
    text = pdf_text(answer.data)
    summary = re.search(r'data-testid="reco-summary">([^<]+)<', page).group(1).split(",")[0]
    assert summary in text and "of the audience" in text
    assert not re.search(r"\b(segment|channel|show)\.\w+\b", text)  # no figure key reaches the advertiser


def test_the_pdf_states_the_targeting_the_reach_the_dates_and_the_budget_in_words(signed_in, monkeypatch):
    monkeypatch.setattr(recommend_module, "station_today", lambda tz, now=None: date(2026, 11, 28))
    text = pdf_text(signed_in.get(f"{saved(signed_in, dates='2026-11-20/2026-11-30')}.pdf").data)
    assert "Whom the plan is for" in text and "Gender: Female" in text
    assert "Segment: Super fans or Show loyalists" in text  # values of one filter are either-or, never "every one"
    assert re.search(r"\d+ listeners match; \d+ of them can be messaged directly", text)
    assert "20 Nov 2026 to 30 Nov 2026: it started on 20 Nov 2026, so 3 of its 11 days are left" in text
    assert "Budget of R20,000 read" in text and "too thin for its budget" in text
    assert "rate_card" not in text and "Company." not in text and not re.search(r"\d{3} \d{3} \d{4}", text)


def test_a_saved_plan_and_its_pdf_name_the_public_holidays_in_its_run(signed_in, monkeypatch):
    monkeypatch.setattr(recommend_module, "station_today", lambda tz, now=None: date(2026, 12, 1))
    path = saved(signed_in, f"{WIDE} From 20 December to 5 January.")
    page = shared.words(re.search(r'data-testid="reco-holidays">([^<]+)<', signed_in.get(path).text).group(1))
    assert page.startswith("25 Dec (Christmas Day), 26 Dec (Day of Goodwill) and 1 Jan (New Year's Day) fall in")
    text = pdf_text(signed_in.get(f"{path}.pdf").data)
    assert "Public holidays:" in text and "Christmas Day" in text and "New Year's Day" in text


def test_an_unknown_plan_is_404_and_a_plan_no_longer_cached_cannot_be_saved(signed_in):
    assert signed_in.get("/stations/1/plans/nope").status_code == 404
    assert signed_in.get("/stations/1/plans/nope.pdf").status_code == 404
    assert signed_in.post("/stations/1/plans", data={"key": "0" * 64}).status_code == 404
