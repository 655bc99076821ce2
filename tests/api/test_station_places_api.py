"""GET /api/v1/imports/{id}/places: the station's declared locations on the map, and those the gazetteer does not
know, kept as written; the same answer as the imports page's Places card. Tenancy as on every route."""
from __future__ import annotations

import pytest

from core.segmentation.runs import segment_company
from tests.factories import make_listener
from tests.memory import NOW, event

pytestmark = pytest.mark.db


@pytest.fixture
def located(app):
    for n, place in enumerate(["Soweto", "Soweto", "Joburg CBD", "Durban"]):
        make_listener(1, f"2782000000{n}", [event(3)], location=place)
    make_listener(2, "27830000000", [event(3)], location="Elsewhere Heights")
    segment_company(1, NOW)
    segment_company(2, NOW)


def test_the_places_list_what_the_gazetteer_does_not_know_as_written(client, located, key_for):
    answer = client.get("/api/v1/imports/1/places", headers=key_for(1))
    body = answer.get_json()
    assert answer.status_code == 200
    assert body["unknown"] == [{"value": "Joburg CBD", "listeners": 1}]
    assert [(p["value"], p["listeners"], p["within"][-2]) for p in body["placed"]] == [
        ("Soweto", 2, "Gauteng"), ("Durban", 1, "KwaZulu-Natal")]


def test_another_station_s_places_are_neither_shown_nor_reachable(client, located, key_for):
    assert client.get("/api/v1/imports/2/places", headers=key_for(1)).status_code == 403
    body = client.get("/api/v1/imports/1/places", headers=key_for(1)).get_json()
    assert "Elsewhere Heights" not in str(body)


def test_the_filter_takes_a_province_on_this_station_only(client, located, key_for):
    answer = client.get("/api/v1/segments/1/filter", query_string={"location": "KZN"}, headers=key_for(1))
    assert answer.status_code == 200 and answer.get_json()["total"] == 1
