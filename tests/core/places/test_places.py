"""Places as a map (docs/decisions.md §5b): a station's locations placed in South Africa's hierarchy from the
gazetteer shipped with the code, and the locations that lie in a place named at any level. No database."""
from __future__ import annotations

import pytest

from core.places.gazetteer import build, gazetteer
from core.places.placing import in_place_words, placing

STATION = ("Johannesburg", "Soweto", "Sandton", "Pretoria", "Gauteng", "Vereeniging", "Durban", "Pietermaritzburg",
           "Cape Town", "Gqeberha", "Mthatha", "Makhanda", "Joburg CBD", "kwaMashu Hostel 7")


def inside(name: str, values=STATION) -> set[str]:
    return set(placing(values).inside(name).values)


def test_a_province_takes_its_cities_townships_and_suburbs_and_its_own_name():
    assert inside("Gauteng") == {"Johannesburg", "Soweto", "Sandton", "Pretoria", "Gauteng", "Vereeniging"}


def test_a_province_takes_nothing_of_another_province():
    assert inside("Eastern Cape") == {"Gqeberha", "Mthatha", "Makhanda"}


@pytest.mark.parametrize("name", ["KZN", "ZA-KZN", "kwazulu natal", "KWAZULU-NATAL", " KwaZulu-Natal "])
def test_a_province_is_named_by_its_iso_code_and_however_it_is_cased_or_punctuated(name):
    assert inside(name) == {"Durban", "Pietermaritzburg"}


@pytest.mark.parametrize("name", ["Joburg", "eGoli", "Johannesburg", "City of Johannesburg Metropolitan Municipality"])
def test_a_city_by_any_of_its_names_takes_what_lies_in_its_metro(name):
    assert inside(name) == {"Johannesburg", "Soweto", "Sandton"}


def test_a_place_takes_what_lies_in_it_but_not_the_area_it_lies_in():
    assert inside("Soweto") == {"Soweto"}
    assert "Gauteng" not in inside("Joburg")


def test_an_old_name_reads_as_the_place_it_renamed():
    assert inside("Port Elizabeth") == {"Gqeberha"}
    assert inside("Grahamstown") == {"Makhanda"}


def test_a_value_the_gazetteer_does_not_know_stays_as_written_and_is_listed():
    placed = placing(STATION)
    assert set(placed.unknown()) == {"Joburg CBD", "kwaMashu Hostel 7"}
    assert inside("Joburg CBD") == {"Joburg CBD"}
    assert "Joburg CBD" not in inside("Gauteng")
    assert "is no place the gazetteer knows: taken as written, Joburg CBD" in placed.inside("Joburg CBD").said()


def test_a_place_where_the_station_has_nobody_matches_nobody_and_says_so():
    read = placing(STATION).inside("Limpopo")
    assert read.place.level == "province" and read.values == ()
    assert read.said() == "Limpopo (province): none of the station's locations lies in it."


def test_a_name_that_is_no_place_and_no_location_says_so():
    read = placing(STATION).inside("Atlantis Prime")
    assert read.place is None and read.values == ()
    assert "neither a place the gazetteer knows nor one of the station's locations" in read.said()


def test_what_a_place_took_is_said_with_its_level_and_province():
    said = placing(STATION).inside("Joburg").said()
    assert said == "Johannesburg (metro, Gauteng): Johannesburg, Sandton and Soweto."


def test_a_value_written_with_its_area_is_read_as_its_most_precise_part_when_they_agree():
    placed = placing(["Soweto, Gauteng", "Soweto, Western Cape"])
    assert placed.places["Soweto, Gauteng"].name == "Soweto"
    assert placed.places["Soweto, Western Cape"] is None


def test_a_value_is_placed_in_its_whole_hierarchy_up_to_the_country():
    chain = [p.name for p in placing(STATION).hierarchy("Soweto")]
    assert chain == ["Soweto", "Johannesburg", "Gauteng", "South Africa"]


def test_the_country_takes_every_location_the_gazetteer_knows():
    assert inside("South Africa") == set(STATION) - {"Joburg CBD", "kwaMashu Hostel 7"}


def test_the_shipped_gazetteer_knows_every_province_by_its_iso_code():
    assert {gazetteer().read(f"ZA-{c}").name for c in ("EC", "FS", "GP", "KZN", "LP", "MP", "NC", "NW", "WC")} == {
        "Eastern Cape", "Free State", "Gauteng", "KwaZulu-Natal", "Limpopo", "Mpumalanga", "Northern Cape",
        "North-West", "Western Cape"}


DATA = {"country": {"code": "ZZ", "name": "Testland", "names": ["Testland", "ZZ"]},
        "provinces": {"ZZ-N": {"name": "North", "names": ["North", "N"]}},
        "districts": {"City of Alpha Metropolitan Municipality": {"province": "ZZ-N", "metro": True,
                                                                  "names": ["Alpha", "City of Alpha"]},
                      "Beta District Municipality": {"province": "ZZ-N", "metro": False, "names": ["Beta"]}},
        "towns": [{"name": "Alphaville", "names": ["Alphaville", "Alpha"], "province": "ZZ-N",
                   "district": "City of Alpha Metropolitan Municipality", "population": 900},
                  {"name": "Gamma", "names": ["Gamma"], "province": "ZZ-N",
                   "district": "City of Alpha Metropolitan Municipality", "population": 90},
                  {"name": "Beta", "names": ["Beta"], "province": "ZZ-N", "district": "Beta District Municipality",
                   "population": 50},
                  {"name": "Delta", "names": ["Delta"], "province": "ZZ-N", "district": None, "population": 5}]}


def test_a_metro_named_after_its_city_is_that_city():
    atlas = build(DATA)
    city = atlas.read("Alphaville")
    assert city.level == "metro" and city.name == "Alphaville"
    assert city.holds(atlas.read("Gamma"))


def test_a_district_named_like_a_town_is_the_larger_area_but_not_a_city():
    atlas = build(DATA)
    assert atlas.read("Beta").level == "district"
    assert not atlas.read("Gamma").holds(atlas.read("Beta"))


def test_a_town_outside_any_known_district_lies_in_its_province():
    atlas = build(DATA)
    assert atlas.read("Delta").within == ("ZZ-N", "country:ZZ")


def test_a_place_criterion_reads_as_the_place_and_the_locations_it_took():
    assert in_place_words("gauteng", ["Gauteng", "Johannesburg", "Soweto"]) == "Gauteng: Gauteng, Johannesburg, Soweto"
    assert in_place_words("Durban", ["Durban"]) == "Durban"
    assert in_place_words("Joburg CBD", ["Joburg CBD"]) == "Joburg CBD"
