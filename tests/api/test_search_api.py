"""GET search: ranked by meaning with the offline model, filters applied before ranking, scores as (1 + cos) / 2, the
contract's bounds and defaults, tenancy and erasure (GET similar: tests/api/test_intelligence_api.py)."""
from __future__ import annotations

from datetime import timedelta

import pytest

from core import personal
from core.clock import utcnow
from core.search import progress, vectors
from core.search.models import EmbeddingCounter, ListenerEmbedding
from core.segmentation.runs import segment_company
from core.service.worker import Worker
from tests.conftest import restored
from tests.factories import make_listener
from tests.memory import NOW, event

pytestmark = pytest.mark.db

SEARCH = "/api/v1/segments/1/search"
GOSPEL = ["Please play Rebecca Malope, praise and worship this Sunday", "Amen, the gospel choir blessed Mzansi"]
SOCCER = ["Kaizer Chiefs will beat Pirates in the derby", "What a goal! Soccer talk is the best show in Mzansi"]
MONEY = ["How do I save money for my small business?", "Interest rates and the stock market explained for Mzansi"]
EVERYONE = "Mzansi"  # a word all twelve wrote


def person(originator: str, messages: list[str], days_ago: float = 3, **declared) -> None:
    make_listener(1, originator, [event(days_ago + i, message=m) for i, m in enumerate(messages)]
                  + [event(days_ago + 10 + i) for i in range(6)], **declared)


def twelve_listeners(tagged: bool = False) -> list[str]:
    """Four listeners of each of three themes, segmented (`tagged`: each carries its theme as a tag); their
    originators, gospel first."""
    tags = (lambda theme: {"tags": [theme]}) if tagged else (lambda theme: {})
    for n in range(4):
        person(f"2782100000{n}", GOSPEL, location="Durban" if n % 2 else "Soweto", gender="female", **tags("gospel"))
        person(f"2782200000{n}", SOCCER, location="Soweto", gender="male", **tags("soccer"))
        person(f"2782300000{n}", MONEY, location="Sandton", gender="male" if n % 2 else "female", **tags("business"))
    segment_company(1, NOW)
    return [f"278{theme}00000{n}" for theme in (21, 22, 23) for n in range(4)]


@pytest.fixture
def station(app):
    """Twelve listeners of three themes, segmented and embedded."""
    restored("twelve", lambda: vectors.refresh_embeddings(1, None) if twelve_listeners() else None)
    return 1


def found(client, key, **params) -> list[dict]:
    answer = client.get(SEARCH, query_string=params, headers=key)
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()["results"]


def test_a_plain_language_query_ranks_the_listeners_of_its_theme_first(client, station, key_for):
    results = found(client, key_for(1), q="gospel music and church worship", min_score=0, limit=4)
    assert {r["originator"][:5] for r in results} == {"27821"}
    scores = [r["score"] for r in results]
    assert scores == sorted(scores, reverse=True) and all(0 <= s <= 1 for s in scores)


def test_each_result_says_what_made_it_match(client, station, key_for):
    top = found(client, key_for(1), q="soccer fans", min_score=0, limit=1)[0]
    assert any("Soccer" in part or "soccer" in part for part in top["matched"])


def test_filters_narrow_the_candidates_before_ranking_so_the_limit_is_still_filled(client, station, key_for):
    results = found(client, key_for(1), q=EVERYONE, min_score=0, limit=4, gender="male")
    assert len(results) == 4
    assert all(r["gender"] == "male" for r in results)


@pytest.mark.parametrize("gender", ["male", "Male", "MALE"])
def test_the_shared_filters_read_their_values_as_on_every_other_route(client, station, key_for, gender):
    results = found(client, key_for(1), q=EVERYONE, min_score=0, gender=gender)
    listed = client.get("/api/v1/segments/1/filter", query_string={"gender": gender}, headers=key_for(1))
    assert listed.status_code == 200 and len(results) == listed.get_json()["total"] == 6


def test_any_shared_filter_narrows_a_search(client, station, key_for):  # not only the five the contract lists
    results = found(client, key_for(1), q=EVERYONE, min_score=0, tags="soccer", location="soweto")
    assert results == []  # no listener is tagged: the filter applies, it is not ignored
    assert len(found(client, key_for(1), q=EVERYONE, min_score=0, profile_complete="false")) == 12


def test_location_is_a_partial_case_insensitive_match(client, station, key_for):
    results = found(client, key_for(1), q=EVERYONE, min_score=0, location="sandt")
    assert {r["location"] for r in results} == {"Sandton"} and len(results) == 4


def test_location_naming_a_province_takes_its_cities_and_townships_and_says_which(client, station, key_for):
    answer = client.get(SEARCH, query_string={"q": "men", "location": "GP"}, headers=key_for(1))
    body = answer.get_json()  # the men: four soccer fans in Soweto, two of the money listeners in Sandton
    assert {r["location"] for r in body["results"]} == {"Soweto", "Sandton"} and len(body["results"]) == 6
    assert body["location"]["place"] == "Gauteng" and body["location"]["level"] == "province"
    assert body["location"]["values"] == ["Sandton", "Soweto"]


def test_location_naming_a_place_where_the_station_has_nobody_finds_nobody_and_says_so(client, station, key_for):
    answer = client.get(SEARCH, query_string={"q": "men", "location": "Limpopo"}, headers=key_for(1))
    body = answer.get_json()
    assert body["results"] == [] and body["location"]["values"] == []
    assert "none of the station's locations lies in it" in body["location"]["said"]


def test_a_province_in_the_query_is_read_as_the_station_s_places_in_it(client, station, key_for):
    answer = client.get(SEARCH, query_string={"q": "listeners in Gauteng", "min_score": 0}, headers=key_for(1))
    body = answer.get_json()
    place = next(c for c in body["understood"]["criteria"] if c["field"] == "location")
    assert place["words"] == "Gauteng" and place["labels"] == ["Sandton", "Soweto"]
    assert {r["location"] for r in body["results"]} == {"Soweto", "Sandton"}


def test_min_score_cuts_results_and_no_score_reaches_one(client, station, key_for):
    everyone = found(client, key_for(1), q=EVERYONE, min_score=0, limit=1000)
    assert len(everyone) == 12 and all(0.7 <= r["score"] < 1 for r in everyone)
    assert found(client, key_for(1), q=EVERYONE, min_score=1) == []


@pytest.mark.parametrize("params", [{"q": ""}, {"q": "   "}, {"q": "x", "limit": 0}, {"q": "x", "limit": 1001},
                                    {"q": "x", "min_score": 1.01}, {"q": "x", "min_score": -0.01},
                                    {"q": "x", "min_score": "nan"}, {"q": "x", "segment": "fans"},
                                    {"q": "x", "gender": "robot"}, {"q": "x", "peak_hour": 24},
                                    {"q": "x", "qq": "y"}, {}])
def test_invalid_searches_are_422(client, station, key_for, params):
    assert client.get(SEARCH, query_string=params, headers=key_for(1)).status_code == 422


def test_limit_defaults_to_100_and_1000_is_allowed(client, station, key_for):
    body = client.get(SEARCH, query_string={"q": "radio"}, headers=key_for(1)).get_json()
    assert (body["limit"], body["min_score"]) == (100, 0.68)
    assert client.get(SEARCH, query_string={"q": "radio", "limit": 1000}, headers=key_for(1)).status_code == 200


def test_another_company_key_reads_nothing(client, station, key_for):
    assert client.get(SEARCH, query_string={"q": "gospel"}, headers=key_for(2)).status_code == 403


def test_an_erased_listener_is_never_returned_and_its_vector_is_gone(client, station, key_for):
    gone = "27821000001"
    assert client.delete(f"/api/v1/listeners/1/{gone}", headers=key_for(1)).status_code == 200
    results = found(client, key_for(1), q="gospel music and church worship", min_score=0, limit=1000)
    assert gone not in {r["originator"] for r in results}
    assert ListenerEmbedding.objects(company_id=1, originator=personal.key_of(1, gone)).count() == 0


def test_a_run_queues_the_embedding_of_the_listeners_it_touched_and_a_worker_embeds_them(app, station, monkeypatch):
    monkeypatch.setattr(vectors, "active", lambda: type("S", (), {"auto_embed": True})())
    person("27824000000", GOSPEL)
    segment_company(1, NOW)
    stored_as = personal.key_of(1, "27824000000")
    assert ListenerEmbedding.objects(company_id=1, originator=stored_as).count() == 0  # nothing on the request
    assert Worker(app.config["SETTINGS"]).work_until_idle() == 1
    assert ListenerEmbedding.objects(company_id=1, originator=stored_as).count() == 1


def test_an_empty_answer_says_how_close_the_best_candidate_came(client, station, key_for):
    body = client.get(SEARCH, query_string={"q": "money and business", "min_score": 1}, headers=key_for(1)).get_json()
    assert body["results"] == [] and 0.5 < body["best_score"] < 1
    everyone = client.get(SEARCH, query_string={"q": "money and business", "min_score": 0}, headers=key_for(1))
    assert everyone.get_json()["results"][0]["score"] == body["best_score"]


# the query understood in the station's own words

GOSPEL_FANS = {f"2782100000{n}" for n in range(4)}


def answered(client, key, **params) -> dict:
    answer = client.get(SEARCH, query_string=params, headers=key)
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def criteria(body: dict) -> list[tuple]:
    return [(c["words"], c["field"], c["values"]) for c in body["understood"]["criteria"]]


@pytest.fixture
def tagged_station(app):
    """The twelve listeners, each tagged with its theme, all embedded."""
    restored("twelve-tagged", lambda: vectors.refresh_embeddings(1, None) if twelve_listeners(tagged=True) else None)
    return 1


@pytest.fixture
def half_embedded(app):
    """The twelve tagged listeners, only half of them embedded yet: two of each theme."""
    everyone = twelve_listeners(tagged=True)
    vectors.refresh_embeddings(1, [o for o in everyone if o[-1] in "01"])
    return 1


def test_a_query_met_exactly_scores_how_strongly_each_result_meets_it_and_says_how_it_was_understood(client, station,
                                                                                                    key_for):
    body = answered(client, key_for(1), q="women in Durban")
    assert criteria(body) == [("women", "gender", ["female"]), ("Durban", "location", ["Durban"])]
    assert body["understood"]["free_text"] == "" and body["calibrated"] is True
    assert {r["originator"] for r in body["results"]} == {"27821000001", "27821000003"}
    scores = [r["score"] for r in body["results"]]
    assert all(0.7 <= s < 1 for s in scores) and scores == sorted(scores, reverse=True)
    assert body["best_score"] == scores[0]


def test_words_given_as_text_are_read_as_free_text_and_are_no_longer_a_criterion(client, station, key_for):
    body = answered(client, key_for(1), q="women in Durban", as_text="Durban", min_score=0)
    assert criteria(body) == [("women", "gender", ["female"])]
    assert body["understood"]["free_text"] == "Durban"  # held by the women whose text says Durban
    assert {(r["gender"], r["location"]) for r in body["results"]} == {("female", "Durban")} and body["total"] == 2


def test_as_text_may_be_repeated_to_read_several_criteria_as_text(client, station, key_for):
    body = answered(client, key_for(1), q="women in Durban", as_text=["women", "Durban"], min_score=0)
    assert criteria(body) == [] and body["understood"]["free_text"] == "women Durban"
    assert body["candidates"] == 12


def test_a_tag_alone_finds_exactly_its_listeners_at_the_defaults(client, tagged_station, key_for):
    body = answered(client, key_for(1), q="gospel")
    assert criteria(body) == [("gospel", "tags", ["gospel"])]
    assert {r["originator"] for r in body["results"]} == GOSPEL_FANS and body["total"] == 4
    assert all(0.7 <= r["score"] < 1 and r["similarity"] is not None for r in body["results"])


def test_while_a_station_is_being_embedded_the_answer_says_how_many_candidates_are_indexed(client, half_embedded,
                                                                                           key_for):
    free_text = answered(client, key_for(1), q=f"listeners who wrote {EVERYONE}", min_score=0)
    assert (free_text["candidates"], free_text["indexed"]) == (12, 6)
    assert all(r["similarity"] is not None for r in free_text["results"]) and len(free_text["results"]) == 6
    exact = answered(client, key_for(1), q="gospel")
    assert (exact["candidates"], exact["indexed"]) == (4, 2)


def test_while_the_rest_is_being_embedded_the_answer_says_about_how_long_it_has_left(client, half_embedded, key_for):
    model = vectors.embedder().name
    assert answered(client, key_for(1), q="talk about the weather", min_score=0)["seconds_left"] is None
    run = progress.begin(1, model, 6)
    progress.advance(1, model, run, 2)
    EmbeddingCounter._get_collection().update_one(  # two of six written in the first minute
        {"company_id": 1, "model": model}, {"$set": {f"runs.{run}.started_at": utcnow() - timedelta(minutes=1)}})
    assert 115 <= answered(client, key_for(1), q="talk about the weather", min_score=0)["seconds_left"] <= 125
    progress.end(1, model, run)
    assert answered(client, key_for(1), q="talk about the weather", min_score=0)["seconds_left"] is None


def test_a_query_met_exactly_returns_the_listeners_not_embedded_yet_never_nobody(client, half_embedded, key_for):
    results = answered(client, key_for(1), q="gospel")["results"]
    assert {r["originator"] for r in results} == GOSPEL_FANS
    assert all(0.7 <= r["score"] < 1 for r in results)
    assert sorted(r["similarity"] is None for r in results) == [False, False, True, True]


def test_an_unknown_parameter_beside_as_text_is_still_422(client, station, key_for):
    answer = client.get(SEARCH, query_string={"q": "gospel", "as_text": "gospel", "qq": "y"}, headers=key_for(1))
    assert answer.status_code == 422
    misspelt = client.get(SEARCH, query_string={"q": "gospel", "as_txt": "gospel"}, headers=key_for(1))
    assert misspelt.status_code == 422 and "as_text" in misspelt.get_data(as_text=True)


@pytest.mark.parametrize("values, status", [([f"word{n}" for n in range(10)], 200),
                                            ([f"word{n}" for n in range(11)], 422), ([""], 422)])
def test_as_text_takes_up_to_ten_words_none_empty(client, station, key_for, values, status):
    answer = client.get(SEARCH, query_string={"q": "gospel", "as_text": values}, headers=key_for(1))
    assert answer.status_code == status
