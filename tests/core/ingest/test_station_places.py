"""The imports page's places (core.ingest.places): the station's locations on the map, and those the gazetteer does
not know, kept as written and listed with their listeners. No database."""
from __future__ import annotations

import numpy as np

from core.ingest.places import places_of
from tests.memory import snapshot_of

PEOPLE = [{"originator": "a", "location": "Soweto"}, {"originator": "b", "location": "Soweto"},
          {"originator": "c", "location": "Joburg CBD"}, {"originator": "d", "location": "kwaMashu Hostel 7"},
          {"originator": "e", "location": "Joburg CBD"}, {"originator": "f"}]


def test_values_the_gazetteer_does_not_know_are_listed_as_written_with_their_listeners_most_first():
    found = places_of(snapshot_of(PEOPLE))
    assert found["unknown"] == [{"value": "Joburg CBD", "listeners": 2}, {"value": "kwaMashu Hostel 7", "listeners": 1}]
    assert found["unknown_listeners"] == 3


def test_values_the_gazetteer_knows_are_listed_with_the_areas_they_lie_in():
    found = places_of(snapshot_of(PEOPLE))
    assert found["placed"] == [{"value": "Soweto", "listeners": 2, "place": "Soweto", "level": "town or suburb",
                                "within": ["Johannesburg", "Gauteng", "South Africa"]}]
    assert found["placed_listeners"] == 2


def test_erased_listeners_are_not_counted():
    snap = snapshot_of(PEOPLE)
    snap.cols["erased"] = np.array([o == "c" for o in snap.originators])
    assert places_of(snap)["unknown"][0] == {"value": "Joburg CBD", "listeners": 1}


def test_a_station_without_locations_lists_nothing():
    found = places_of(snapshot_of([{"originator": "x"}]))
    assert found["placed"] == [] and found["unknown"] == []
