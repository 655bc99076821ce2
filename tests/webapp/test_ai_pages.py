"""AI in the dashboard over HTTP: the listener page's AI panel (the price before the click, the profile with its
confidences and cost after it, then cached and free; refusals said in plain words), promotion to declared, and the
AI insights page with how good the local AI measured; tenancy and CSRF."""
from __future__ import annotations

import re
from html import unescape

import pytest

from core.access.users import create_user
from core.ai import provider
from core.churn.models import ChurnModel
from core.credits.ledger import account, load, set_paused
from core.demo.seed import DEMO_CREDITS
from core.errors import ProviderUnavailable
from core.listeners import snapshot
from core.stations.companies import bump_version
from tests.conftest import seeded
from tests.factories import make_company, make_listener, set_fields, stored_listener
from tests.memory import event
from tests.webapp.conftest import PASSWORD
from webapp.ai import inference_quality

pytestmark = pytest.mark.db

HTMX = {"HX-Request": "true"}
INSIGHTS = "/stations/1/ai"


def words(html: str) -> str:
    """The text a reader sees: tags dropped, entities decoded, white space collapsed."""
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html))).strip()


@pytest.fixture
def demo(app):
    """The demo station (1, 200 listeners, its demo credits) and station 2 (Coast Radio, one listener, no credits);
    a listener of station 1."""
    seeded(200)
    make_company(2, name="Coast Radio")
    make_listener(2, "27830000001", [event(3)])
    return str(snapshot.current(1).originators[0])


@pytest.fixture
def signed_in(client, demo):
    """A producer of stations 1 and 2, signed in."""
    create_user("thandi@jozi.fm", PASSWORD, companies=[1, 2], name="Thandi Mokoena")
    client.post("/login", data={"email": "thandi@jozi.fm", "password": PASSWORD})
    return client


def panel(originator: str, company_id: int = 1) -> str:
    return f"/stations/{company_id}/listeners/{originator}/ai"


def test_the_listener_page_loads_the_ai_panel_with_htmx(signed_in, demo):
    html = signed_in.get(f"/stations/1/listeners/{demo}").text
    assert f'hx-get="{panel(demo)}" hx-trigger="load"' in html


def test_the_panel_shows_the_price_and_the_balance_before_the_click(signed_in, demo):
    response = signed_in.get(panel(demo), headers=HTMX)
    assert response.status_code == 200 and "<html" not in response.text
    text = words(response.text)
    assert "Infer with AI · 1 credit" in text and f"Balance {DEMO_CREDITS} credits" in text
    assert "HX-Request" in response.headers["Vary"]


def test_without_scripts_the_panel_is_a_page_of_its_own(signed_in, demo):
    response = signed_in.get(panel(demo))
    assert response.status_code == 200 and "<html" in response.text and "Infer with AI" in response.text


def test_inferring_shows_each_value_with_its_confidence_what_it_cost_and_the_balance_left(signed_in, demo):
    response = signed_in.post(panel(demo), headers=HTMX)
    assert response.status_code == 200
    text = words(response.text)
    assert "it cost 1 credit" in text and f"Balance {DEMO_CREDITS - 1} credits" in text
    assert len(re.findall(r'data-testid="ai-value"', response.text)) == 5
    assert re.search(r"\d+% sure", text) and "Interests" in text
    assert account(1)["balance"] == DEMO_CREDITS - 1


def test_asking_again_is_cached_and_free_and_the_panel_says_so_before_the_click(signed_in, demo):
    signed_in.post(panel(demo), headers=HTMX)
    before = words(signed_in.get(panel(demo), headers=HTMX).text)
    assert "Infer with AI · free" in before and "Cached on " in before
    again = words(signed_in.post(panel(demo), headers=HTMX).text)
    assert "Cached" in again and "this answer was free" in again
    assert account(1)["balance"] == DEMO_CREDITS - 1


def test_only_values_of_0_70_and_up_are_marked_promotable(signed_in, demo, monkeypatch):
    monkeypatch.setattr(provider.local, "infer_listener", lambda company_id, originator: answer(0.7, 0.69))
    html = signed_in.post(panel(demo), headers=HTMX).text
    promotable = re.findall(r'data-field="(\w+)" data-confidence="[\d.]+">(?:(?!</div>).)*?Promotable', html, re.S)
    assert promotable == ["inferred_gender"]
    assert 'data-testid="ai-promote"' in html


def test_without_a_promotable_value_there_is_no_promote_button(signed_in, demo, monkeypatch):
    monkeypatch.setattr(provider.local, "infer_listener", lambda company_id, originator: answer(0.5, 0.69))
    html = signed_in.post(panel(demo), headers=HTMX).text
    assert 'data-testid="ai-promote"' not in html and "No demographic reaches 0.70" in words(html)


def test_without_enough_credits_the_panel_says_so_and_charges_nothing(signed_in):
    response = signed_in.post(panel("27830000001", 2), headers=HTMX)
    assert response.status_code == 200  # htmx swaps only 2xx answers: the refusal is shown in the panel
    assert ("Not enough credits: this costs 1 credit and the balance is 0 credits. Ask an admin to load more."
            in words(response.text))
    assert signed_in.post(panel("27830000001", 2)).status_code == 402


def test_a_paused_station_says_so_before_the_paid_button_which_is_off_and_a_post_is_refused(signed_in, demo):
    set_paused(1, True, "budget review")
    html = signed_in.get(panel(demo), headers=HTMX).text
    assert ("AI usage is paused for this company: budget review. The paid buttons here are off while it is paused."
            in words(html))
    assert re.search(r'data-testid="ai-infer" disabled aria-disabled="true" aria-describedby="ai-paused-infer"', html)
    response = signed_in.post(panel(demo), headers=HTMX)
    assert "AI usage is paused for this company: budget review" in words(response.text)
    assert signed_in.post(panel(demo)).status_code == 403
    assert account(1)["balance"] == DEMO_CREDITS


def test_a_provider_that_does_not_answer_is_said_and_refunded(signed_in, demo, monkeypatch):
    def down(company_id, originator):
        raise ProviderUnavailable("timed out")

    monkeypatch.setattr(provider.local, "infer_listener", down)
    response = signed_in.post(panel(demo), headers=HTMX)
    assert "The AI service is not answering; nothing was charged." in words(response.text)
    assert signed_in.post(panel(demo)).status_code == 503
    assert account(1)["balance"] == DEMO_CREDITS


def test_an_unknown_listener_is_404_and_costs_nothing(signed_in):
    assert signed_in.post(panel("27899999999"), headers=HTMX).status_code == 404
    assert signed_in.get(panel("27899999999")).status_code == 404  # the panel's own page, an address one may type
    assert account(1)["balance"] == DEMO_CREDITS


def test_another_station_s_listener_is_403(client, demo):
    create_user("solo@coast.fm", PASSWORD, companies=[2])
    client.post("/login", data={"email": "solo@coast.fm", "password": PASSWORD})
    assert client.get(panel(demo)).status_code == 403
    assert client.post(panel(demo)).status_code == 403
    assert client.post(panel(demo) + "/promote").status_code == 403
    assert client.get(INSIGHTS).status_code == 403 and client.post(INSIGHTS).status_code == 403
    assert account(1)["balance"] == DEMO_CREDITS


def test_every_ai_post_needs_the_csrf_token(signed_in, demo, csrf_enabled):
    for url in (panel(demo), panel(demo) + "/promote", INSIGHTS):
        assert signed_in.post(url).status_code == 400
    assert account(1)["balance"] == DEMO_CREDITS


def test_promoting_copies_the_values_of_0_70_and_up_and_says_what_was_skipped(signed_in, demo):
    set_fields(
        1, demo, gender=None, age_group=None, language="English", location=None, inferred={
            "inferred_gender": {"value": "female", "confidence": 0.7},
            "inferred_age_group": {"value": "25-34", "confidence": 0.69},
            "inferred_language": {"value": "isiZulu", "confidence": 0.95}})
    response = signed_in.post(panel(demo) + "/promote")
    assert response.status_code == 303 and response.headers["Location"] == f"/stations/1/listeners/{demo}"
    text = words(signed_in.get(response.headers["Location"]).text)
    assert "Promoted to declared: gender Female (0.70)." in text
    assert "Not promoted, age group 25-34: confidence 0.69 is below 0.70." in text
    assert "Not promoted, language isiZulu: the listener declared this field" in text
    assert stored_listener(1, demo).gender == "female"
    assert "Promoted before: gender female (0.70" in words(signed_in.get(panel(demo), headers=HTMX).text)


def test_promoting_while_paused_is_refused_with_the_reason(signed_in, demo):
    set_paused(1, True, "budget review")
    response = signed_in.post(panel(demo) + "/promote")
    assert response.status_code == 403 and "budget review" in words(response.text)


def test_the_insights_page_shows_the_price_and_how_good_the_ai_measured(signed_in):
    response = signed_in.get(INSIGHTS)
    assert response.status_code == 200
    text = words(response.text)
    assert "Get AI insights · 5 credits" in text and f"Balance {DEMO_CREDITS} credits" in text
    assert "A confidence of 0.70 means" in text
    assert len(re.findall(r'data-testid="ai-quality-row"', response.text)) == 4
    assert 'data-testid="churn-backtest"' in response.text
    assert f'href="{INSIGHTS}" aria-current="page"' in response.text  # the navigation's entry is on and current
    assert account(1)["balance"] == DEMO_CREDITS  # a look costs nothing


def test_getting_the_insights_shows_each_segment_and_costs_5_credits_once(signed_in):
    posted = signed_in.post(INSIGHTS)
    assert posted.status_code == 303 and posted.headers["Location"] == INSIGHTS  # post/redirect/get
    first = signed_in.get(INSIGHTS)
    text = words(first.text)
    assert "they cost 5 credits" in text and f"Balance {DEMO_CREDITS - 5} credits" in text
    assert len(re.findall(r'data-testid="ai-segment"', first.text)) == 7
    assert "What to do" in text and re.search(r"(High|Medium|Low) priority", text)
    signed_in.post(INSIGHTS)
    again = words(signed_in.get(INSIGHTS).text)
    assert "they were free" in again and f"Balance {DEMO_CREDITS - 5} credits" in again


def test_a_paid_answer_is_shown_again_on_a_later_visit_until_the_station_s_data_moves(signed_in):
    signed_in.post(INSIGHTS)
    signed_in.get(INSIGHTS)  # the visit that shows the receipt
    later = signed_in.get(INSIGHTS)
    assert 'data-testid="ai-shown-again"' in later.text and len(re.findall(r'data-testid="ai-segment"',
                                                                            later.text)) == 7
    assert account(1)["balance"] == DEMO_CREDITS - 5  # shown again for nothing
    bump_version(1)  # the station's data moved: the old answer is not shown as current
    assert 'data-testid="ai-segment"' not in signed_in.get(INSIGHTS).text


def test_insights_without_enough_credits_are_refused_with_the_price(signed_in):
    response = signed_in.post("/stations/2/ai")
    assert response.status_code == 402
    assert "Not enough credits: this costs 5 credits and the balance is 0 credits." in words(response.text)


def test_insights_of_a_paused_station_are_refused_with_the_reason(signed_in):
    set_paused(1, True, "budget review")
    page = signed_in.get(INSIGHTS).text
    assert 'id="ai-paused-note"' in page and 'aria-describedby="ai-paused-note"' in page
    response = signed_in.post(INSIGHTS)
    assert response.status_code == 403 and "budget review" in words(response.text)
    load(1, 1)
    assert account(1)["balance"] == DEMO_CREDITS + 1


def test_the_measured_quality_is_read_defensively():
    assert inference_quality(None) is None and inference_quality({"fields": []}) is None
    odd = inference_quality({"fields": {"gender": {"baseline": "n/a", "bands": {"<0.5": {"share": 0.4}}},
                                        "lsm": 3}})
    gender, lsm = odd["rows"]
    assert gender["field"] == "Gender" and gender["baseline"] is None
    assert [b["share"] for b in gender["bands"]] == [0.4, None, None]
    assert lsm["overall"] is None and odd["size"] is None


def answer(gender: float, age_group: float) -> dict:
    """A provider's answer with these confidences for gender and age group."""
    return {"values": {"inferred_gender": {"value": "female", "confidence": gender, "evidence": "Look-alikes."},
                       "inferred_age_group": {"value": "25-34", "confidence": age_group, "evidence": "Look-alikes."},
                       "inferred_language": None, "inferred_location": None, "inferred_lsm": None,
                       "inferred_interests": [{"value": "gospel", "confidence": 0.8, "evidence": "Shows."}]},
            "provider": "local", "model": "test", "tokens_in": 0, "tokens_out": 0}


def test_the_churn_check_says_when_it_was_made_on_a_random_sample_of_the_station(signed_in):
    assert "random sample" not in words(signed_in.get(INSIGHTS).text)  # 200 listeners: learned from all
    ChurnModel._get_collection().update_one({"company_id": 1}, {"$set": {"sampled_from": 81234}})
    text = words(signed_in.get(INSIGHTS).text)
    assert re.search(r"checked on [\d,]+ listeners, a random sample of the station's 81,234, as of", text)
