"""A station's vocabularies: every value a brief may be mapped to, and the phrases that name each one.

Both providers read the same Vocabulary: the local one matches the brief's words against its phrases, the openai one
is given its values as the enums of its schema, and every answer is checked against it. A value the station does not
hold is never offered, so a brief can only ever be mapped to this station's own values.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

from core.clock import utcnow, zone_of
from core.listeners import snapshot
from core.listeners.fields import AGE_GROUPS, GENDERS, LSM_LEVELS
from core.places.gazetteer import gazetteer
from core.places.placing import placing
from core.search import words as w
from core.search.kept import KeptPerStation
from core.search.texts import LABEL_WORDS
from core.segmentation.behaviour import DAYPARTS
from core.segmentation.rules import LABELS, SEGMENTS
from core.stations import defaults
from core.stations.companies import get_company
from core.stations.shows import show_titles

WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
OPEN_FIELDS = ("location", "language", "employment_status", "tags", "inferred_interests", "inferred_location",
               "inferred_language")
"""Filters whose values are the station's own (read from its snapshot); the others have fixed lists."""
SNAPSHOT_NAMES = {"campaign_type": "campaign_types"}


@dataclass(frozen=True)
class Term:
    """A phrase (normalised words) and the filter values it sets; `needs` names the context it must have: an
    interest cue ("soccer fans"), a channel cue ("on the app"), a capital letter (places: "George", not "george") or,
    for people, no possessive before it ("their mothers" are not the audience)."""

    phrase: str
    sets: tuple[tuple[str, tuple], ...]
    needs: str | None = None


@dataclass
class Vocabulary:
    """What a brief of this station can be mapped to."""

    company_id: int
    timezone: str
    country: str = defaults.COUNTRY  # its public holidays are dates a brief may name
    values: dict[str, list] = field(default_factory=dict)  # filter name -> the station's values
    shows: dict[int, str] = field(default_factory=dict)
    channels: dict[int, str] = field(default_factory=dict)
    terms: list[Term] = field(default_factory=list)

    @functools.cached_property
    def own_words(self) -> frozenset[str]:
        """Every word of the station's values and of the service's labels, as a listener's text writes them: what
        a listener's text holds because of what they did, not because they wrote it."""
        names = [str(v) for values in self.values.values() for v in values]
        names += [*self.shows.values(), *self.channels.values(), *LABELS.values()]
        return frozenset(WORD.findall(" ".join(names).replace("_", " ").casefold())) | LABEL_WORDS

    def holds(self, name: str, value) -> object | None:
        """The station's own spelling of `value` for filter `name` (case-insensitive), None when it has no such."""
        if name == "channel_type":
            return value if value in self.channels else None
        if name == "timeslot_id":
            return value if value in self.shows else None
        if isinstance(value, bool):
            return value
        wanted = str(value).casefold()
        return next((v for v in self.values.get(name, []) if str(v).casefold() == wanted), None)


def normalise(text: str) -> str:
    """Lower-cased words separated by single spaces: how phrases and the brief's words are compared."""
    return " ".join(WORD.findall(text.casefold()))


_vocabularies: KeptPerStation[Vocabulary] = KeptPerStation()


def vocabulary_of(sel) -> Vocabulary:
    """The vocabulary of a selection's station, built once per snapshot, schedule and channel names (a search asks
    for it every time)."""
    company, snap = sel.company, sel.snap
    shows, channels = show_titles(company.company_id), company.channel_names()
    key = (len(snap), company.timezone, tuple(sorted(shows.items())), tuple(sorted(channels.items())))
    return _vocabularies.get(company.company_id, (snap,), key, lambda: build_vocabulary(
        company.company_id, zone_of(company.timezone).key, snap.vocab, shows, channels,
        company.country or defaults.COUNTRY))


def station_vocabulary(company_id: int) -> Vocabulary:
    """The vocabulary of a station, from its snapshot, its schedule and its channel names (CompanyNotFound)."""
    company = get_company(company_id)
    snap_vocab = snapshot.current(company_id).vocab
    return build_vocabulary(company_id, zone_of(company.timezone).key, snap_vocab, show_titles(company_id),
                            company.channel_names(), company.country or defaults.COUNTRY)


def build_vocabulary(company_id: int, timezone: str, snap_vocab: dict, shows: dict[int, str],
                     channels: dict[int, str], country: str = defaults.COUNTRY) -> Vocabulary:
    """The vocabulary from what the station holds (a pure function, for tests without a database)."""
    values = {"segment": list(SEGMENTS), "gender": list(GENDERS), "age_group": list(AGE_GROUPS),
              "peak_time_of_day": list(DAYPARTS), "inferred_lsm": list(LSM_LEVELS),
              "campaign_type": [str(v) for v in snap_vocab.get("campaign_types", [])]}
    for name in OPEN_FIELDS:
        values[name] = sorted({str(v) for v in snap_vocab.get(name, []) if v})
    vocab = Vocabulary(company_id, timezone, country, values, dict(shows), dict(channels))
    vocab.terms = _terms(vocab)
    return vocab


def _terms(vocab: Vocabulary) -> list[Term]:
    out = _segment_terms() + _people_terms(vocab) + _place_terms(vocab) + _schedule_terms(vocab)
    out += _interest_terms(vocab) + _taking_part_terms(vocab)
    out += _related_terms(vocab, {t.phrase for t in out})
    return [t for t in out if t.phrase]


def _one(phrase: str, name: str, values: tuple, needs: str | None = None) -> Term:
    return Term(normalise(phrase), ((name, tuple(values)),), needs)


def _segment_terms() -> list[Term]:
    return [_one(phrase, "segment", (key,)) for key in SEGMENTS
            for phrase in (LABELS[key], *w.SEGMENT_WORDS.get(key, ()))]


def _people_terms(vocab: Vocabulary) -> list[Term]:
    out = [_one(p, "gender", (g,), "person") for g, phrases in w.GENDER_WORDS.items() for p in phrases]
    out += [_one(p, "age_group", groups, "person") for groups, phrases in w.AGE_WORDS.items() for p in phrases]
    out += [_one(p, "age_group", _born(*years, utcnow().year), "person") for years, phrases in w.GENERATIONS.items()
            for p in phrases if _born(*years, utcnow().year)]
    for status, phrases in w.EMPLOYMENT_WORDS.items():
        held = vocab.holds("employment_status", status)
        if held is not None:
            out += [_one(p, "employment_status", (held,), "person") for p in phrases]
        elif status in w.EMPLOYMENT_FALLBACK:  # unless the station holds the word itself ("students" a tag)
            out += [_one(p, "age_group", w.EMPLOYMENT_FALLBACK[status], "person") for p in phrases
                    if normalise(p) not in _own_names(vocab)]
    for (status, name, values), phrases in w.ROLE_WORDS.items():
        held = vocab.holds("employment_status", status)
        if held is not None:
            out += [Term(normalise(p), (("employment_status", (held,)), (name, values)), "person") for p in phrases]
    return out


def _own_names(vocab: Vocabulary) -> set[str]:
    """The station's own tags and interests as phrases: a word it holds as such is read as that value, not guessed
    to be something else."""
    return {normalise(str(v).replace("_", " ")) for name in ("tags", "inferred_interests")
            for v in vocab.values.get(name, [])}


def _born(first: int, last: int, year: int) -> tuple[str, ...]:
    """The age groups that at least half lie within the ages of people born from `first` to `last` (words.GENERATIONS)
    in `year`; "65+" counts as 65 to 74."""
    low, high, out = year - last, year - first, []
    for group in AGE_GROUPS:
        bounds = [int(n) for n in re.findall(r"\d+", group)]
        g_low, g_high = bounds[0], bounds[1] if len(bounds) > 1 else bounds[0] + 9
        if min(g_high, high) - max(g_low, low) + 1 >= (g_high - g_low + 1) / 2:
            out.append(group)
    return tuple(out)


def _aliased(vocab: Vocabulary, name: str, aliases: dict, needs: str | None = None) -> list[Term]:
    """The station's own values of a filter, and the other names of those it holds."""
    out = [_one(v, name, (v,), needs) for v in vocab.values.get(name, [])]
    for value, phrases in aliases.items():
        held = vocab.holds(name, value)
        if held is not None:
            out += [_one(p, name, (held,), needs) for p in phrases]
    return out


def _place_terms(vocab: Vocabulary) -> list[Term]:
    """Every name of every place that holds one of the station's locations, naming all the locations in it
    ("Gauteng", "GP": Johannesburg, Soweto, Gauteng...; core.places); a location the gazetteer does not know, as
    written. A one-word place needs its capital letter where the text is read strictly. The country is no criterion:
    "across South Africa" speaks of every listener, not of those who declared a place in it."""
    placed, atlas = placing(vocab.values.get("location", [])), gazetteer()
    places = [_one(v, "location", (v,)) for v in placed.unknown()]
    for key, values in placed.areas().items():
        if atlas.area(key).level != "country":
            places += [_one(name, "location", values) for name in atlas.names_of(key)]
    places = [Term(t.phrase, t.sets, "capital" if " " not in t.phrase else None) for t in places if t.phrase]
    return places + _aliased(vocab, "language", w.LANGUAGE_WORDS)


def _schedule_terms(vocab: Vocabulary) -> list[Term]:
    out = [_one(p, "peak_time_of_day", (part,)) for part, phrases in w.DAYPART_WORDS.items() for p in phrases]
    for timeslot, title in vocab.shows.items():
        out.append(_one(title, "timeslot_id", (timeslot,)))
        if normalise(title).startswith("the "):
            out.append(_one(title[4:], "timeslot_id", (timeslot,)))
    for channel, name in vocab.channels.items():
        out.append(_one(name, "channel_type", (channel,), "channel" if normalise(name) in w.PLAIN_CHANNEL_WORDS
                        else None))
        out += [_one(p, "channel_type", (channel,), "channel" if p in w.PLAIN_CHANNEL_WORDS else None)
                for p in w.CHANNEL_WORDS.get(channel, ())]
    out += [_one(p, "weekday_pattern", (flag,)) for flag, phrases in w.WEEKDAY_WORDS.items() for p in phrases]
    return out + _show_word_terms(vocab, {t.phrase for t in out})


def _show_word_terms(vocab: Vocabulary, taken: set[str]) -> list[Term]:
    """"gospel show" for the shows with "gospel" in their title (any of them), unless the phrase already names
    something else ("breakfast show" is the daypart)."""
    shows_of: dict[str, list[int]] = {}
    for timeslot, title in vocab.shows.items():
        for word in set(normalise(title).split()) - {"the", "a", "and", "with", "of", "on"}:
            if len(word) > 2:
                shows_of.setdefault(word, []).append(timeslot)
    return [_one(f"{word} {kind}", "timeslot_id", tuple(sorted(slots))) for word, slots in shows_of.items()
            for kind in w.SHOW_WORDS if f"{word} {kind}" not in taken and normalise(f"{word} {kind}") not in taken]


def _interest_terms(vocab: Vocabulary) -> list[Term]:
    tags = _aliased(vocab, "tags", w.INTEREST_WORDS, "interest")
    tags += [_one(v.replace("_", " "), "tags", (v,), "interest") for v in vocab.values["tags"] if "_" in v]
    known = {v.casefold() for v in vocab.values["tags"]}
    inferred = [v for v in vocab.values["inferred_interests"] if v.casefold() not in known]
    return tags + [_one(v, "inferred_interests", (v,), "interest") for v in inferred]


def _related_terms(vocab: Vocabulary, taken: set[str]) -> list[Term]:
    """The free words of each taste (words.RELATED) that name nothing else, each naming every tag, interest and show
    of that taste the station holds ("yanos" amapiano); a kind's words also name its broader taste's (words.BROADER),
    but only where a text is read leniently ("football" the `sport` tag and Sports Saturday in a search)."""
    out = []
    for concept, (names, phrases) in w.RELATED.items():
        own = _taste_sets(vocab, names)
        broader = _taste_sets(vocab, w.RELATED[w.BROADER[concept]][0]) if concept in w.BROADER else ()
        for sets, needs in ((own, "interest"), (broader, "broader")):
            if sets:
                out += [Term(normalise(p), sets, needs) for p in dict.fromkeys(phrases) if normalise(p) not in taken]
    return out


def _taste_sets(vocab: Vocabulary, names: tuple) -> tuple:
    """The tags, interests and shows of the station whose words are the taste's."""
    sets = [(name, tuple(v for v in vocab.values.get(name, []) if _keys(v) & set(names)))
            for name in ("tags", "inferred_interests")]
    sets.append(("timeslot_id", tuple(sorted(t for t, title in vocab.shows.items() if _keys(title) & set(names)))))
    return tuple((name, values) for name, values in sets if values)


def _keys(value: str) -> set[str]:
    """The words of a value, singular ("Sports Saturday", "hip_hop": sport, saturday | hip, hop, hiphop)."""
    words = normalise(str(value).replace("_", " ").replace("&", " ")).split()
    return {word[:-1] if len(word) > 4 and word.endswith("s") else word for word in words} | {"".join(words)}


def _taking_part_terms(vocab: Vocabulary) -> list[Term]:
    out = [_one(p, "campaign_type", (vocab.holds("campaign_type", kind),)) for kind, phrases in
           w.CAMPAIGN_WORDS.items() if vocab.holds("campaign_type", kind) is not None for p in phrases]
    listed = {kind.casefold() for kind in w.CAMPAIGN_WORDS} | {"competition"}
    out += [_one(kind.replace("_", " "), "campaign_type", (kind,)) for kind in vocab.values["campaign_type"]
            if kind.casefold() not in listed]  # the station's own kinds by their own names ("dedications")
    for flag, table in ((True, w.PERMISSION_WORDS), (False, w.REFUSAL_WORDS)):
        out += [Term(normalise(p), tuple((name, (flag,)) for name in names)) for names, phrases in table.items()
                for p in phrases]
    return out
