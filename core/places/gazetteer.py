"""The gazetteer: every place it knows, with the areas it lies in, and the place a name names.

Read once per process from data/za.json (derived by bench/places_data.py from GeoNames, SimpleMaps and ISO 3166-2;
nothing is downloaded). A metro named after its city (City of Johannesburg, eThekwini for Durban, Tshwane for
Pretoria) is that city: the town is not kept apart, so "Joburg" takes Soweto and Sandton, which lie in it.
"""
from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path

from core.places.names import fold

DATA = Path(__file__).resolve().parent / "data"
LEVELS = ("country", "province", "metro", "district", "town or suburb")
"""The levels of the hierarchy, largest first: where a name names places at two levels, the larger one is meant."""


@dataclass(frozen=True)
class Place:
    """A place: its key, its name, its level and the keys of the areas it lies in (nearest first)."""

    key: str
    name: str
    level: str
    within: tuple[str, ...]
    population: int = 0

    def holds(self, other: Place) -> bool:
        """Whether `other` is this place or lies in it."""
        return other.key == self.key or self.key in other.within


@dataclass(frozen=True)
class Gazetteer:
    """The places of a country by key, and by each of their folded names the places it names, most likely first."""

    version: str
    places: dict[str, Place]
    named: dict[str, tuple[str, ...]]
    names: dict[str, tuple[str, ...]]

    def read(self, name: str) -> Place | None:
        """The place a name (or "suburb, city" written with commas) names, None when the gazetteer knows none."""
        keys = self.named.get(fold(name))
        if keys:
            return self.places[keys[0]]
        parts = [p for p in str(name).split(",") if p.strip()]
        return self._of_parts(parts) if len(parts) > 1 else None

    def _of_parts(self, parts: list[str]) -> Place | None:
        """The most precise of the parts, when each other part is an area it lies in ("Soweto, Gauteng")."""
        read = [self.read(p) for p in parts]
        if any(p is None for p in read):
            return None
        inner = min(read, key=lambda p: -len(p.within))
        return inner if all(p.holds(inner) for p in read) else None

    def area(self, key: str) -> Place:
        """The place of a key."""
        return self.places[key]

    def names_of(self, key: str) -> tuple[str, ...]:
        """The names that name this place (not those that name a larger place first), as the sources write them."""
        return self.names.get(key, ())


@functools.cache
def gazetteer() -> Gazetteer:
    """South Africa's gazetteer, read once per process."""
    raw = (DATA / "za.json").read_text(encoding="utf-8")
    return build(json.loads(raw), version=str(hash(raw)))


def build(data: dict, version: str = "") -> Gazetteer:
    """The gazetteer of the derived data (a pure function, for tests of data built in memory)."""
    country = data["country"]
    places = {f"country:{country['code']}": (Place(f"country:{country['code']}", country["name"], "country", ()),
                                              country["names"])}
    for code, province in data["provinces"].items():
        places[code] = (Place(code, province["name"], "province", (f"country:{country['code']}",)), province["names"])
    cities = _cities(data)
    for name, district in data["districts"].items():
        city = cities.get(name)
        names = [*district["names"], *(city["names"] if city else ())]
        level = "metro" if district["metro"] else "district"
        shown, people = (city["name"], city["population"]) if city else (name, 0)
        places[f"district:{name}"] = (Place(f"district:{name}", shown, level, _up(places, district["province"]),
                                            people), names)
    for i, town in enumerate(data["towns"]):
        if town["district"] in cities and cities[town["district"]] is town:
            continue
        area = f"district:{town['district']}" if town["district"] else town["province"]
        places[f"town:{i}"] = (Place(f"town:{i}", town["name"], "town or suburb", _up(places, area),
                                     town["population"]), town["names"])
    named = _named(places)
    return Gazetteer(version, {k: p for k, (p, _) in places.items()}, named, _names(places, named))


def _up(places: dict, key: str) -> tuple[str, ...]:
    """An area's key and the keys of the areas it lies in."""
    return (key, *places[key][0].within)


def _cities(data: dict) -> dict[str, dict]:
    """Metro -> the town it is named after (a name of the town is the metro's short name), if any."""
    out = {}
    for name, district in data["districts"].items():
        if not district["metro"]:
            continue
        short = {fold(n) for n in district["names"]}
        towns = [t for t in data["towns"] if t["district"] == name and short & {fold(n) for n in t["names"]}]
        if towns:
            out[name] = max(towns, key=lambda t: t["population"])
    return out


def _named(places: dict) -> dict[str, tuple[str, ...]]:
    """Folded name -> the keys of the places it names: the larger level first, then the more populous."""
    out: dict[str, set[str]] = {}
    for key, (place, names) in places.items():
        for name in {place.name, *names}:
            if fold(name):
                out.setdefault(fold(name), set()).add(key)
    rank = {key: (LEVELS.index(p.level), -p.population, key) for key, (p, _) in places.items()}
    return {name: tuple(sorted(keys, key=rank.__getitem__)) for name, keys in out.items()}


def _names(places: dict, named: dict[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
    """Key -> the names, as written, that name that place first."""
    out: dict[str, set[str]] = {}
    for key, (place, names) in places.items():
        out[key] = {name for name in {place.name, *names} if fold(name) and named[fold(name)][0] == key}
    return {key: tuple(sorted(names)) for key, names in out.items()}
