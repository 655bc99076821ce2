"""A station's location values placed on the map, and the values that lie in a place someone names.

The values are placed once per distinct set of them (the station's snapshot vocabulary) and kept, keyed by the values
and the gazetteer's version: a filter or a search then reads a few hundred values, never its listeners.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

from core.places.gazetteer import Place, gazetteer
from core.text.wording import join_words

KEPT = 64  # distinct vocabularies kept per process: a few per station (its current and previous snapshots)


@dataclass(frozen=True)
class Inside:
    """The place a name names (None when the gazetteer knows no such place) and the station's values in it."""

    name: str
    place: Place | None
    values: tuple[str, ...]

    def said(self) -> str:
        """Which of the station's locations the name took, in words ("Gauteng (province): Johannesburg, Soweto and
        Gauteng"), or that it took none and why."""
        place, values = self.place, join_words(list(self.values))
        if place is None:
            if self.values:
                return f"“{self.name}” is no place the gazetteer knows: taken as written, {values}."
            return f"“{self.name}” is neither a place the gazetteer knows nor one of the station's locations."
        where = f"{place.name} ({place.level}{_in(place)})"
        if not self.values:
            return f"{where}: none of the station's locations lies in it."
        return f"{where}: {values}."

    def as_dict(self) -> dict:
        """The reading as an answer carries it: the place, its level, the station's values taken, in words too."""
        place = self.place
        return {"asked": self.name, "place": place.name if place else None, "level": place.level if place else None,
                "values": list(self.values), "said": self.said()}


def _in(place: Place) -> str:
    """ ", in Gauteng" for a place below a province: the area a reader knows it by."""
    provinces = [gazetteer().area(k).name for k in place.within if gazetteer().area(k).level == "province"]
    return f", {provinces[0]}" if provinces and place.level != "province" else ""


@dataclass(frozen=True)
class Placing:
    """Each of a station's location values with its place, None for a value the gazetteer does not know."""

    places: dict[str, Place | None]

    def inside(self, name: str) -> Inside:
        """The station's values that lie in the place `name` names, at any level ("Gauteng": Johannesburg, Soweto,
        Gauteng...); a value spelt as `name` counts whether or not the gazetteer knows it."""
        place = gazetteer().read(name)
        wanted = str(name).strip().casefold()
        inside = set(self.within(place)) if place is not None else set()
        return Inside(str(name), place, tuple(v for v in self.places if v in inside or v.strip().casefold() == wanted))

    def within(self, place: Place) -> tuple[str, ...]:
        """The station's values that lie in a place of the gazetteer (or are it)."""
        return tuple(v for v, p in self.places.items() if p is not None and place.holds(p))

    def areas(self) -> dict[str, tuple[str, ...]]:
        """Every place that holds one of the values (key -> those values): the values' places and all their areas."""
        out: dict[str, list[str]] = {}
        for value, place in self.places.items():
            for key in (place.key, *place.within) if place is not None else ():
                out.setdefault(key, []).append(value)
        return {key: tuple(values) for key, values in out.items()}

    def unknown(self) -> tuple[str, ...]:
        """The values the gazetteer does not know, kept as written."""
        return tuple(v for v, p in self.places.items() if p is None)

    def hierarchy(self, value: str) -> tuple[Place, ...]:
        """A value's place and the areas it lies in, smallest first (empty when it is not known)."""
        place = self.places.get(value)
        return () if place is None else (place, *(gazetteer().area(k) for k in place.within))


def placing(values) -> Placing:
    """The places of a station's location values (any iterable of them; blanks skipped)."""
    return _placing(tuple(sorted({str(v) for v in values if v and str(v).strip()})), gazetteer().version)


@functools.lru_cache(maxsize=KEPT)
def _placing(values: tuple[str, ...], _version: str) -> Placing:
    atlas = gazetteer()
    return Placing({value: atlas.read(value) for value in values})


def in_place_words(words: str, values) -> str:
    """A place criterion as a producer reads it: the place the words name and the station's values it took
    ("Gauteng: Gauteng, Johannesburg and Soweto"); values the words name as written, joined by "or"."""
    values, place = [str(v) for v in values], gazetteer().read(words)
    if place is None or [v.casefold() for v in values] == [place.name.casefold()]:
        return " or ".join(values)
    return f"{place.name}: {', '.join(values)}"
