"""How bench.briefs_blind judges one field of one reading against the blind set's expectation: right, asked where a
question or refusal was expected (right_ask), asked though the brief was clear (asked_clear), missed, or wrong.

The judge knows the demo station's shows' genres and, by the gazetteer of core.places, which places lie in which; it
knows nothing of the reader's rules, so that it measures them rather than repeats them."""
from __future__ import annotations

import re

from core.demo import catalogue as cat
from core.places.gazetteer import gazetteer
from core.places.names import fold
from core.stations.defaults import CHANNELS

FIELDS = ("gender", "age_years", "places", "languages", "channels", "segments", "interests", "dates", "budget",
          "goal")
OUTCOMES = ("right", "right_ask", "asked_clear", "missed", "wrong")
FILTERS = {"gender": ("gender",), "age_years": ("age_group",), "places": ("location",), "languages": ("language",),
           "channels": ("channel_type",), "segments": ("segment",),
           "interests": ("tags", "timeslot_id", "inferred_interests")}
"""The reader's filters that answer each field of the set (the others are listed as read beyond the ten fields)."""
REASON_FIELDS = (("place", "places"), ("location", "places"), ("language", "languages"), ("interest", "interests"),
                 ("tags", "interests"), ("show", "interests"), ("channel", "channels"), ("segment", "segments"),
                 ("gender", "gender"), ("age", "age_years"), ("date", "dates"), ("budget", "budget"),
                 ("amount", "budget"), ("goal", "goal"))
"""The field an unmapped ask is about, by the first of these words its reason holds (none: it is about no field)."""
WORD = re.compile(r"[a-z0-9]+")


def tokens(text) -> set[str]:
    """A text's words, folded, each also without a plural s ("books" is "book")."""
    words = WORD.findall(str(text).casefold().replace("_", " "))
    return set(words) | {w[:-1] for w in words if len(w) > 3 and w.endswith("s")}


def linked(words: str, expected: str) -> bool:
    """Whether an ask's words name the expected value: a word of one begins one of the other ("Alex", "Alexandra")."""
    mine, theirs = WORD.findall(str(words).casefold()), WORD.findall(str(expected).casefold())
    return any(min(len(a), len(b)) >= 3 and (a.startswith(b) or b.startswith(a)) for a in mine for b in theirs)


def asks(answer: dict) -> list[tuple[str, str]]:
    """Every (field, words) the reader asked about or refused with a reason: its questions and its unmapped asks."""
    out = [(_field_of_question(q["field"]), q.get("words") or "") for q in answer.get("questions", [])]
    for item in answer.get("unmapped", []):
        reason = item.get("reason", "").casefold()
        field = next((f for word, f in REASON_FIELDS if re.search(rf"\b{word}", reason)), None)
        if field:
            out.append((field, item.get("words") or ""))
    return out


def _field_of_question(name: str) -> str:
    return next((field for field, filters in FILTERS.items() if name in filters), name)


def read_values(field: str, answer: dict) -> list:
    """What the reader read for a field, in the set's terms (channel names, age groups, station values)."""
    filters = answer["filters"]
    if field in ("dates", "budget", "goal"):
        return [answer[field]] if answer.get(field) else []
    values = [v for name in FILTERS[field] for v in _listed(filters.get(name), name)]
    if field == "channels":
        return [CHANNELS.get(int(v), str(v)).casefold() for v in values]
    return values


def _listed(value, name: str) -> list:
    if value is None:
        return []
    values = value if isinstance(value, list) else [value]
    return [("show", v) for v in values] if name == "timeslot_id" else values


def extras(answer: dict) -> dict:
    """The filters read beyond the ten fields (employment, dayparts, exclusions ...), for reading."""
    taken = {name for names in FILTERS.values() for name in names}
    return {name: value for name, value in answer["filters"].items() if name not in taken}


def age_groups(years) -> set[str]:
    """The station's age groups that a [low, high] range of years covers (high None: open-ended)."""
    low, high = years[0], years[1] if years[1] is not None else 200
    out = set()
    for group in cat.AGE_GROUPS:
        bounds = [int(n) for n in re.findall(r"\d+", group)]
        g_low, g_high = bounds[0], bounds[1] if len(bounds) > 1 else 200
        if g_low <= high and g_high >= low:
            out.add(group)
    return out


class Places:
    """Which places lie in which, by the gazetteer (core.places): the judge's map, not the reader's rules."""

    def __init__(self):
        self.atlas = gazetteer()

    def contains(self, area: str, value: str) -> bool:
        """Whether the station's value is the expected place or lies in it."""
        if fold(area) == fold(value):
            return True
        outer, inner = self.atlas.read(area), self.atlas.read(str(value))
        return bool(outer and inner and outer.holds(inner))

    def is_country(self, name: str) -> bool:
        """Whether the name is the country's: every listener of the station, so no place read is that place."""
        place = self.atlas.read(name)
        return bool(place and place.level == "country")


class Judge:
    """Judges a field of a reading; `shows` maps the station's timeslot ids to their titles."""

    def __init__(self, shows: dict[int, str]):
        self.places = Places()
        genres = {show[0]: show[5] for show in cat.SHOWS}
        self.show_words = {sid: tokens(title) | tokens(genres.get(sid, "")) | tokens(cat.GENRE_TAGS.get(
            genres.get(sid), "")) for sid, title in shows.items()}

    def field(self, field: str, expected, answer: dict) -> tuple[str, list]:
        """The outcome of one field and what was read for it."""
        got = read_values(field, answer)
        asked = [words for f, words in asks(answer) if f == field]
        if field in ("dates", "budget", "goal"):
            return _one(expected, got, asked, lambda v: self.same_fact(field, expected, v)), got
        if expected is None:
            return ("wrong" if got else "asked_clear" if asked else "right"), got
        if field == "age_years":
            return _groups(age_groups(expected), set(got), asked), got
        if field == "places":
            expected = [e for e in expected if got or not self.places.is_country(e)] or None
            if expected is None:
                return ("asked_clear" if asked else "right"), got
        match = {"places": self.places.contains, "interests": self.interest}.get(field, _same)
        return _many(expected, got, asked, match), got

    def interest(self, expected: str, value) -> bool:
        """Whether a read tag or show is the expected interest (a show by its title or genre)."""
        names = self.show_words.get(value[1], set()) if isinstance(value, tuple) else tokens(value)
        return bool(tokens(expected) & names)

    @staticmethod
    def same_fact(field: str, expected, value: dict) -> bool:
        """Whether the read dates, budget or goal is the expected one (dates: or one of its also_accept)."""
        if field == "dates":
            windows = [expected, *expected.get("also_accept", [])]
            return any(value["start"] == w.get("starts") and value["end"] == w.get("ends") for w in windows)
        if field == "budget":
            return float(value["amount"]) == float(expected)
        return value["value"] == expected


def _same(expected, value) -> bool:
    return str(expected).casefold() == str(value).casefold()


def _one(expected, got: list, asked: list, same) -> str:
    """A one-value field: a question or refusal expected is right when asked; a plain value when read alike."""
    if expected is None:
        return "wrong" if got else "asked_clear" if asked else "right"
    if isinstance(expected, dict) and ("question" in expected or "refused" in expected):
        return "wrong" if got else "right_ask" if asked else "missed"
    if got:
        return "right" if same(got[0]) else "wrong"
    return "asked_clear" if asked else "missed"


def _groups(expected: set, got: set, asked: list) -> str:
    if got - expected:
        return "wrong"
    if got == expected:
        return "right"
    return "asked_clear" if asked else "missed"


def _many(expected: list, got: list, asked: list, match) -> str:
    """A field of several values: wrong when a read value is none of the expected, right when each expected is read,
    asked when each one not read was asked about by name, else missed."""
    if any(not any(match(e, v) for e in expected) for v in got):
        return "wrong"
    uncovered = [e for e in expected if not any(match(e, v) for v in got)]
    if not uncovered:
        return "right"
    return "asked_clear" if all(any(linked(words, e) for words in asked) for e in uncovered) else "missed"
