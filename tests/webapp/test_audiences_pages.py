"""Audience pages over HTTP: the list, the create form prefilled from a search or an explorer view, the paid preview
(queries, members with score and matching query, the price) before saving, saving with the previewed queries, the
detail with enriched members, the CSV export, refresh with what changed, delete behind a confirmation; refusals said
in plain words with their status; tenancy and CSRF."""
from __future__ import annotations

import csv
import io
import re
from datetime import timedelta
from html import unescape

import pytest

from core.access.users import create_user
from core.audiences import store
from core.credits.ledger import account, load, set_paused
from core.errors import ProviderUnavailable
from core.search import vectors
from core.segmentation.runs import segment_company
from tests.conftest import kept
from tests.factories import make_company, make_listener
from tests.memory import NOW, event
from tests.themes import split_both_ways
from tests.webapp.conftest import PASSWORD

pytestmark = pytest.mark.db

HTMX = {"HX-Request": "true"}
AUDIENCES = "/stations/1/audiences"
GOSPEL = ["Please play Rebecca Malope, praise and worship this Sunday", "Amen, the gospel choir was a blessing"]
SOCCER = ["Kaizer Chiefs will beat Pirates in the derby", "What a goal! Soccer talk is the best show"]
THEME = {"theme": "gospel music and church worship", "min_score": "0.5", "limit": "4"}


def words(html: str) -> str:
    """The text a reader sees: tags dropped, entities decoded, white space collapsed."""
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html))).strip()


def person(originator: str, messages: list[str], **declared) -> None:
    make_listener(1, originator, [event(3 + i, message=m) for i, m in enumerate(messages)]
                  + [event(13 + i) for i in range(6)], **declared)


@pytest.fixture
@kept
def station(app):
    """Station 1: four gospel lovers (two of them reachable, two in Durban) and four soccer fans, segmented and
    embedded, with 20 credits; station 2 has no credits."""
    make_company(1, name="Jozi FM")
    make_company(2, name="Coast Radio")
    for n in range(4):
        person(f"2782100000{n}", GOSPEL, gender="female", location="Durban" if n % 2 else "Soweto",
               opt_in=n < 2, permission=n < 2)
        person(f"2782200000{n}", SOCCER, gender="male", location="Soweto")
    segment_company(1, NOW)
    vectors.refresh_embeddings(1)
    load(1, 20)
    return 1


@pytest.fixture
def signed_in(client, station):
    """A producer of stations 1 and 2, signed in."""
    create_user("thandi@jozi.fm", PASSWORD, companies=[1, 2], name="Thandi Mokoena")
    client.post("/login", data={"email": "thandi@jozi.fm", "password": PASSWORD})
    return client


def saved(name: str = "Sunday gospel", **overrides) -> dict:
    settings = {"theme": THEME["theme"], "min_score": 0.5, "limit": 4, **overrides}
    return store.create_audience(1, name, **settings)


def test_the_list_says_there_are_none_yet_and_links_to_the_form(signed_in):
    response = signed_in.get(AUDIENCES)
    assert response.status_code == 200
    assert "No audiences yet" in words(response.text)
    assert f'href="{AUDIENCES}/new"' in response.text


def test_the_list_shows_name_theme_members_reachable_status_and_expiry(signed_in):
    made = saved()
    row = re.search(rf'data-audience="{made["audience_id"]}">(.*?)</tr>', signed_in.get(AUDIENCES).text, re.S).group(1)
    expires = re.search(r"\d+ \w{3} \d{4}", words(row)).group()
    assert words(row) == f"Sunday gospel {THEME['theme']} 4 2 Active {expires}"


def test_an_audience_past_its_expiry_is_listed_as_expired(signed_in, monkeypatch):
    saved()
    real = store.utcnow
    monkeypatch.setattr(store, "utcnow", lambda: real() + timedelta(days=31))
    html = signed_in.get(AUDIENCES).text
    assert re.search(r'data-testid="audience-status">Expired<', html)


def test_the_form_is_prefilled_with_a_theme_and_filters_from_the_query_string(signed_in):
    html = signed_in.get(f"{AUDIENCES}/new?theme=gospel+lovers&gender=female&location=Durban").text
    assert 'name="theme" value="gospel lovers"' in html
    assert '<input type="hidden" name="gender" value="female">' in html
    assert '<input type="hidden" name="location" value="Durban">' in html
    assert "Preview · 2 credits" in words(html)


def test_a_filter_chip_links_to_the_form_without_that_filter(signed_in):
    html = signed_in.get(f"{AUDIENCES}/new?theme=gospel&gender=female&location=Durban").text
    chip = re.search(r'<a class="chip" href="([^"]+)"[^>]*data-filter="gender"', html).group(1)
    assert unescape(chip) == f"{AUDIENCES}/new?theme=gospel&location=Durban"


def test_the_preview_shows_the_queries_each_member_with_score_and_query_and_what_it_cost(signed_in):
    response = signed_in.post(f"{AUDIENCES}/preview", data=THEME, headers=HTMX)
    assert response.status_code == 200 and "<html" not in response.text
    text = words(response.text)
    assert "4 listeners found" in text and "This preview cost 2 credits" in text and "Balance 18 credits" in text
    originators = re.findall(r'data-testid="preview-member" data-originator="(\d+)"', response.text)
    assert {o[:5] for o in originators} == {"27821"}
    queries = re.findall(r'name="queries" value="([^"]+)"', response.text)
    assert queries and all(unescape(q) in text for q in queries)
    member_queries = [unescape(q) for q in re.findall(r'data-testid="member-query">“([^”]+)”', response.text)]
    assert len(member_queries) == len(originators) and set(member_queries) <= {unescape(q) for q in queries}
    assert "Save audience · 2 credits" in text


def test_the_preview_keeps_to_the_filters(signed_in):
    response = signed_in.post(f"{AUDIENCES}/preview", data={**THEME, "location": "Durban"}, headers=HTMX)
    originators = re.findall(r'data-testid="preview-member" data-originator="(\d+)"', response.text)
    assert sorted(originators) == ["27821000001", "27821000003"]


def test_without_scripts_the_preview_is_the_form_page_with_the_preview_in_it(signed_in):
    response = signed_in.post(f"{AUDIENCES}/preview", data={**THEME, "audience_name": "Sunday gospel"})
    assert response.status_code == 200 and "<html" in response.text
    assert 'name="audience_name" value="Sunday gospel"' in response.text and "4 listeners found" in words(response.text)


def test_saving_after_a_preview_reuses_its_queries_and_opens_the_audience(signed_in):
    preview = signed_in.post(f"{AUDIENCES}/preview", data=THEME, headers=HTMX).text
    queries = [unescape(q) for q in re.findall(r'name="queries" value="([^"]+)"', preview)]
    previewed = unescape(re.search(r'name="previewed" value="([^"]*)"', preview).group(1))
    response = signed_in.post(AUDIENCES, data={**THEME, "audience_name": "Sunday gospel", "queries": queries,
                                               "previewed": previewed})
    assert response.status_code == 303
    made = store.list_audiences(1)["audiences"][0]
    assert [q["query"] for q in made["queries"]] == queries and made["provider"] == "given"
    assert response.headers["Location"].endswith(f"{AUDIENCES}/{made['audience_id']}")
    page = signed_in.get(response.headers["Location"]).text
    assert "Audience “Sunday gospel” saved with 4 members; it cost 2 credits." in words(page)
    assert "Made by The searches of its preview" in words(page) and "Given provider" not in words(page)
    assert account(1)["balance"] == 16


def test_saving_after_the_theme_changed_makes_new_queries(signed_in):
    preview = signed_in.post(f"{AUDIENCES}/preview", data=THEME, headers=HTMX).text
    previewed = unescape(re.search(r'name="previewed" value="([^"]*)"', preview).group(1))
    signed_in.post(AUDIENCES, data={**THEME, "theme": "soccer fans", "audience_name": "Soccer", "queries": ["gospel"],
                                    "previewed": previewed})
    made = store.list_audiences(1)["audiences"][0]
    assert made["provider"] != "given" and "gospel" not in [q["query"] for q in made["queries"]]


def test_a_taken_name_is_said_beside_the_name_field_with_409_and_nothing_is_charged(signed_in):
    saved()
    balance = account(1)["balance"]
    response = signed_in.post(AUDIENCES, data={**THEME, "audience_name": "sunday GOSPEL"})
    assert response.status_code == 409
    problem = re.search(r'data-testid="problem-audience_name">([^<]+)<', response.text)
    assert problem and "already has an audience named" in unescape(problem.group(1))
    assert account(1)["balance"] == balance


@pytest.mark.parametrize("field, value, message", [("limit", "5001", "between 1 and 5000"),
                                                   ("limit", "many", "Not a valid integer"),
                                                   ("min_score", "1.5", "between 0 and 1"),
                                                   ("expiry_days", "0", "between 1 and 365"),
                                                   ("holdout_percent", "51", "between 0 and 50"),
                                                   ("holdout_percent", "-1", "between 0 and 50")])
def test_a_refused_value_is_said_beside_its_field_with_422(signed_in, field, value, message):
    response = signed_in.post(AUDIENCES, data={**THEME, "audience_name": "X", field: value})
    assert response.status_code == 422
    problem = re.search(rf'data-testid="problem-{field}">([^<]+)<', response.text)
    assert problem and message in problem.group(1)


def test_a_blank_theme_is_refused_in_the_preview_without_a_charge(signed_in):
    response = signed_in.post(f"{AUDIENCES}/preview", data={**THEME, "theme": " "}, headers=HTMX)
    assert response.status_code == 200 and "Nothing was previewed or charged" in words(response.text)
    assert account(1)["balance"] == 20


def test_a_filter_value_the_filter_type_refuses_is_named_and_nothing_is_charged(signed_in):
    response = signed_in.post(f"{AUDIENCES}/preview", data={**THEME, "gender": "robot"}, headers=HTMX)
    assert "Nothing was previewed or charged" in words(response.text) and "Gender: Must be one of" in response.text
    assert account(1)["balance"] == 20


def test_a_refused_filter_is_said_beside_the_filters_with_422(signed_in):
    response = signed_in.post(AUDIENCES, data={**THEME, "audience_name": "X", "gender": "robot"})
    assert response.status_code == 422
    assert re.search(r'data-testid="problem-filters">Gender: Must be one of', response.text)


def test_not_enough_credits_is_said_in_the_preview_and_on_the_page_with_402(signed_in):
    response = signed_in.post("/stations/2/audiences/preview", data=THEME, headers=HTMX)
    assert response.status_code == 200
    assert "Not enough credits: this costs 2 credits and the balance is 0 credits" in words(response.text)
    assert signed_in.post("/stations/2/audiences/preview", data=THEME).status_code == 402


def test_paused_ai_is_said_on_the_form_with_403(signed_in):
    set_paused(1, True, "budget review")
    response = signed_in.post(AUDIENCES, data={**THEME, "audience_name": "Paused"})
    assert response.status_code == 403 and "budget review" in words(response.text)
    assert 'data-testid="audience-problem"' in response.text


def test_a_provider_that_does_not_answer_is_said_and_nothing_is_charged(signed_in, monkeypatch):
    def down(*args, **kwargs):
        raise ProviderUnavailable("timed out")

    monkeypatch.setattr("core.audiences.custom.search_queries", down)
    response = signed_in.post(f"{AUDIENCES}/preview", data=THEME)
    assert response.status_code == 503
    assert "The AI service is not answering; nothing was charged" in words(response.text)
    assert account(1)["balance"] == 20


def test_the_detail_lists_members_with_their_profile_and_how_many_are_reachable(signed_in):
    made = saved()
    html = signed_in.get(f"{AUDIENCES}/{made['audience_id']}").text
    rows = re.findall(r'data-testid="member" data-originator="(\d+)" data-reachable="(\w+)"', html)
    assert dict(rows) == {"27821000000": "true", "27821000001": "true", "27821000002": "false",
                          "27821000003": "false"}
    text = words(html)
    assert "Reachable 2" in text and "Female" in text and "Durban" in text and "Refresh · 2 credits" in text


def test_the_csv_export_holds_every_member_with_formulas_neutralised(signed_in):
    made = saved(name="=HYPERLINK(1)")
    response = signed_in.get(f"{AUDIENCES}/{made['audience_id']}/export.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    assert 'filename="audience_hyperlink-1.csv"' in response.headers["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(response.text)))
    assert len(rows) == 4 and {r["reachable"] for r in rows} == {"true", "false"}
    assert all(r["originator"].startswith("27821") and float(r["score"]) >= 0.5 for r in rows)


def test_a_holdout_is_shown_per_member_and_kept_out_of_the_csv_export(signed_in, monkeypatch):
    split_both_ways(monkeypatch, {f"2782100000{n}" for n in range(4)})
    response = signed_in.post(AUDIENCES, data={**THEME, "audience_name": "Held", "holdout_percent": "50"})
    assert response.status_code == 303
    made = store.list_audiences(1)["audiences"][0]
    page = signed_in.get(response.headers["Location"]).text
    arms = dict(re.findall(r'data-originator="(\d+)" data-reachable="\w+" data-arm="(\w+)"', page))
    assert set(arms.values()) == {"target", "holdout"} and made["holdout_percent"] == 50
    assert f"Held out {made['holdout_count']} never contacted (50%)" in words(page)
    exported = signed_in.get(f"{AUDIENCES}/{made['audience_id']}/export.csv")
    rows = list(csv.DictReader(io.StringIO(exported.text)))
    assert {r["originator"] for r in rows} == {o for o, arm in arms.items() if arm == "target"}
    assert exported.headers["X-Held-Out"] == str(made["holdout_count"]) == str(list(arms.values()).count("holdout"))


def test_an_audience_without_a_holdout_exports_everyone_and_says_none_was_held_out(signed_in):
    made = saved()
    exported = signed_in.get(f"{AUDIENCES}/{made['audience_id']}/export.csv")
    assert exported.headers["X-Held-Out"] == "0" and len(list(csv.DictReader(io.StringIO(exported.text)))) == 4
    assert 'data-testid="audience-arms"' not in signed_in.get(f"{AUDIENCES}/{made['audience_id']}").text


def test_refresh_shows_who_joined_who_left_and_who_stayed(signed_in):
    made = saved()
    person("27821000009", GOSPEL, gender="female")
    segment_company(1, NOW)
    vectors.refresh_embeddings(1)
    path = f"{AUDIENCES}/{made['audience_id']}"
    posted = signed_in.post(f"{path}/refresh")
    assert posted.status_code == 303 and posted.headers["Location"].endswith(path)  # post/redirect/get
    response = signed_in.get(path)
    joined = re.search(r'data-testid="changes-joined">(\d+)<', response.text).group(1)
    stayed = re.search(r'data-testid="changes-stayed">(\d+)<', response.text).group(1)
    left = re.search(r'data-testid="changes-left">(\d+)<', response.text).group(1)
    assert int(joined) == int(left) and int(joined) + int(stayed) == 4
    assert "it cost 2 credits" in words(response.text)


def test_the_last_refresh_is_shown_again_on_a_later_visit_at_no_cost(signed_in):
    made = saved()
    path = f"{AUDIENCES}/{made['audience_id']}"
    assert 'data-testid="audience-changes"' not in signed_in.get(path).text  # never refreshed
    signed_in.post(f"{path}/refresh")
    balance = account(1)["balance"]
    signed_in.get(path)
    again = signed_in.get(path)
    assert 'data-testid="audience-changes"' in again.text and "it cost" not in words(again.text)
    assert account(1)["balance"] == balance


def test_a_refused_refresh_is_said_on_the_audience_page_with_its_status(signed_in):
    made = saved()
    set_paused(1, True, "budget review")
    response = signed_in.post(f"{AUDIENCES}/{made['audience_id']}/refresh")
    assert response.status_code == 403 and "budget review" in words(response.text)
    assert 'data-testid="members-table"' in response.text


def test_delete_asks_first_then_deletes_and_says_so(signed_in):
    made = saved()
    path = f"{AUDIENCES}/{made['audience_id']}"
    confirm = signed_in.get(f"{path}/delete")
    assert confirm.status_code == 200 and "cannot be undone" in words(confirm.text)
    assert store.list_audiences(1)["total"] == 1
    response = signed_in.post(f"{path}/delete", follow_redirects=True)
    assert "Audience “Sunday gospel” was deleted." in words(response.text)
    assert store.list_audiences(1)["total"] == 0
    assert signed_in.get(path).status_code == 404


def test_an_unknown_audience_is_a_404_page(signed_in):
    response = signed_in.get(f"{AUDIENCES}/nope")
    assert response.status_code == 404 and "<html" in response.text


def test_another_stations_audience_cannot_be_opened_by_its_id(signed_in):
    made = saved()
    assert signed_in.get(f"/stations/2/audiences/{made['audience_id']}").status_code == 404


def test_deleting_needs_the_csrf_token(signed_in, csrf_enabled):
    made = saved()
    assert signed_in.post(f"{AUDIENCES}/{made['audience_id']}/delete").status_code == 400
    assert store.list_audiences(1)["total"] == 1


def test_the_search_page_offers_to_save_its_query_and_filters_as_an_audience(signed_in):
    html = signed_in.get("/stations/1/search?q=gospel+choir&min_score=0.5&gender=female&location=Durban").text
    link = unescape(re.search(r'href="([^"]+)" data-testid="save-as-audience"', html).group(1))
    assert link == f"{AUDIENCES}/new?theme=gospel+choir&gender=female&location=Durban"


def test_the_explorer_offers_to_save_its_filters_as_an_audience(signed_in):
    html = signed_in.get("/stations/1/explorer?gender=female&location=Durban").text
    link = unescape(re.search(r'href="([^"]+)" data-testid="save-as-audience"', html).group(1))
    assert link == f"{AUDIENCES}/new?gender=female&location=Durban"


def test_the_navigation_links_to_audiences(signed_in):
    assert f'href="{AUDIENCES}"' in signed_in.get("/stations/1/").text
