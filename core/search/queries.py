"""A search query (or an audience's theme) understood in the station's own words: the asks it makes of a listener,
each met exactly, and the free text left over, which only meaning can rank.

"gospel lovers who enter competitions on WhatsApp" is three asks: tag gospel, a competition entry, WhatsApp used; its
free text is empty, so every listener who meets the three is an answer. The phrases come from the one reader of the
station's words (core.search.understanding, read leniently: a query speaks only of listeners). One ask may name
several things ("gospel" can be a tag and an interest), or several values joined by "or": any of them will do; the
asks together must all hold, and what a query excludes ("not in Durban") must not hold. A channel asked for is one
the listener used, not only their main one ("on WhatsApp" means on it at all), and one excluded is one never used.
Words a producer wants read as text instead (`as_text`) are left to the free text.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from core.explore.filters import parse_filters
from core.explore.spec import EXCLUSIONS, SPEC
from core.listeners.snapshot import Snapshot
from core.search.bound import Facet, bindings, described, facet_of
from core.search.glosses import glossed
from core.search.understanding import read_criteria
from core.search.vocabulary import WORD, Vocabulary
from core.segmentation.rules import LABELS

FILLER = frozenset("""a an the and or who whom that which with of on in at to for from by into about as is are was were
be been do does did have has had their them they his her its our your my listeners listener people persons person
fans fan lovers lover users user followers crowd audience those these any all some everyone anyone someone
supporters supporter heads enthusiasts want wants wanting during over when while
ask asks asking asked complain complains complaining complained complaint complaints talking talked wrote write
writes writing written mention mentions mentioned mentioning say says saying said tell tells telling told
hear hears hearing heard send sends sending sent
province provinces region regions area areas metro district town towns city cities suburb suburbs township townships
speakers speaking speak listen listens listening tune tunes tuned like likes love loves enjoy enjoys use uses using
used enter enters entered entering via through also only just show shows station radio
abantu abalaleli abaphulaphuli abathandi abathanda abakhuluma abathetha abasebenzisa ababhalisa base ba wa ya ku
kwi e kanye futhi
batho bamameli ba ratang rata ba bua ka le tse
abalandeli abathandayo balandeli bomculo womculo we
mense luisteraars aanhangers ondersteuners liefhebbers wat wie praat hou van die in op en met ook
mmino umculo musiek
""".split())
"""Words that only frame a query ("listeners who ... on ...", "complaining about ...", "who asked for ...";
in isiZulu and isiXhosa "abalaleli base", in Sesotho
"batho ba", in Afrikaans "mense wat"): left alone, they are no free text to rank by."""
ALTERNATIVE = re.compile(r"\s*(?:,\s*(?:or\s+)?|/\s*|or\s+)", re.IGNORECASE)
"""What joins two values of which either will do: "isiZulu or English", "gospel, jazz or soul", "SMS/WhatsApp"."""


@dataclass(frozen=True)
class Ask:
    """What one stretch of the query asks of a listener: `criteria` (filter, values) of which any kept one holds
    and every excluded one holds too."""

    words: str
    criteria: tuple[tuple[str, tuple], ...]
    labels: tuple[tuple[str, ...], ...] = ()  # each criterion's values as the station names them
    span: tuple[int, int] = (0, 0)  # where in the query its words are

    def mask(self, snap: Snapshot, tz: str | None) -> np.ndarray:
        """The listeners who meet this ask."""
        kept = [c for c in self.criteria if c[0] not in EXCLUSIONS]
        mask = np.zeros(len(snap), dtype=bool) if kept else np.ones(len(snap), dtype=bool)
        for name, values in kept:
            mask |= _criterion_mask(name, values, snap, tz)
        for name, values in (c for c in self.criteria if c[0] in EXCLUSIONS):
            mask &= _criterion_mask(name, values, snap, tz)
        return mask


@dataclass(frozen=True)
class Understood:
    """The query's asks, its free text (what meaning ranks by; empty when every word was understood) and what it
    negated that no filter can say."""

    query: str
    asks: tuple[Ask, ...]
    free_text: str
    unmapped: tuple[dict, ...] = ()
    rest: str = ""  # the query without its understood stretches, framing words kept: what meaning reads best
    bound: tuple[tuple[int, ...], ...] = ()  # asks (by position) met by the same interactions (core.search.bound)

    def bound_facets(self) -> list[tuple[Facet, ...]]:
        """The asks of each bound group, as asks about interactions."""
        return [tuple(facet_of(self.asks[i].criteria) for i in group) for group in self.bound]

    def loose_facets(self) -> list[Facet]:
        """The asks about interactions bound to no other."""
        bound = {i for group in self.bound for i in group}
        return [f for i, ask in enumerate(self.asks) if i not in bound and (f := facet_of(ask.criteria))]

    @property
    def ranked_text(self) -> str:
        """What meaning ranks by: the rest of the query when it has free text, else the whole query (which orders
        the listeners who meet it), with the English of the themes it names in the station's other languages."""
        return glossed(self.rest if self.free_text else self.query)

    def mask(self, snap: Snapshot, tz: str | None) -> np.ndarray:
        """The listeners who meet every ask, each on its own: bound asks are met by the same interactions only
        among these (core.search.bound reads them)."""
        mask = np.ones(len(snap), dtype=bool)
        for ask in self.asks:
            mask &= ask.mask(snap, tz)
        return mask

    def _described(self, group: tuple[int, ...]) -> str:
        """A bound group in words ("competition · on WhatsApp"): each ask's filter, values and labels."""
        parts = []
        for i in group:
            facet = facet_of(self.asks[i].criteria)
            parts.append((facet.field, facet.values, tuple(v for labels in self.asks[i].labels for v in labels)))
        return described(parts)

    def as_dict(self) -> dict:
        """How the query was understood, as answers carry it; criteria of the same `bound` number must hold on
        the same interactions (None: on their own)."""
        group_of = {i: n for n, group in enumerate(self.bound) for i in group}
        return {"criteria": [{"words": ask.words, "field": name, "values": list(values), "labels": list(labels),
                              "bound": group_of.get(i)}
                             for i, ask in enumerate(self.asks)
                             for (name, values), labels in zip(ask.criteria, ask.labels)],
                "bound": [{"words": [self.asks[i].words for i in group], "label": self._described(group)}
                          for group in self.bound],
                "free_text": self.free_text, "unmapped": [dict(u) for u in self.unmapped]}


def understand(vocab: Vocabulary, query: str, as_text: tuple[str, ...] = ()) -> Understood:
    """The asks and the free text of a query; a stretch whose words are in `as_text` stays text."""
    items, unmapped = read_criteria(vocab, query, lenient=True)
    kept_as_text = {" ".join(WORD.findall(words.casefold())) for words in as_text}
    by_span: dict[tuple, list] = {}
    for item in items:
        if " ".join(WORD.findall(item["words"].casefold())) not in kept_as_text:
            by_span.setdefault(tuple(item["span"]), []).append(item)
    asks = tuple(_ask(vocab, group) for group in _alternatives(query, sorted(by_span.items())))
    spans = list(by_span) + [tuple(u["span"]) for u in unmapped]
    bound = bindings(query, [ask.span for ask in asks], [facet_of(ask.criteria) for ask in asks])
    return Understood(query, asks, _free_text(query, spans),
                      tuple({"words": u["words"], "reason": u["reason"]} for u in unmapped), _rest(query, spans),
                      bound)


def _alternatives(query: str, stretches: list[tuple[tuple, list]]) -> list[list[dict]]:
    """The items of each ask: a stretch joined to the one before by "or" (or a comma or a slash before it) naming
    the same filters is one more alternative of that ask ("isiZulu or English speakers")."""
    out: list[list[dict]] = []
    previous_end, previous_fields = None, None
    for (start, end), items in stretches:
        fields = {item["field"] for item in items}
        if out and fields == previous_fields and ALTERNATIVE.fullmatch(query[previous_end:start]):
            out[-1] += items
        else:
            out.append(list(items))
        previous_end, previous_fields = end, fields
    return out


def _ask(vocab: Vocabulary, items: list[dict]) -> Ask:
    """The ask of one stretch of words: its criteria, and their values as the station names them."""
    criteria = tuple(_criteria(item) for item in items)
    span = (min(item["span"][0] for item in items), max(item["span"][1] for item in items))
    return Ask(items[0]["words"], criteria, tuple(_labels(vocab, name, values) for name, values in criteria), span)


def _criteria(item: dict) -> tuple[str, tuple]:
    """An item's (filter, values); a channel asked for is any use of it (has_channel), and one excluded is never
    used (exclude_has_channel): "on WhatsApp" and "not on WhatsApp" never both hold."""
    renamed = {"channel_type": "has_channel", "exclude_channel_type": "exclude_has_channel"}
    return renamed.get(item["field"], item["field"]), tuple(item["values"])


def _labels(vocab: Vocabulary, name: str, values: tuple) -> tuple[str, ...]:
    """The values as the station names them: show titles, channel names, segment labels, the rest as they are."""
    plain = EXCLUSIONS.get(name, name)
    if plain == "timeslot_id":
        return tuple(vocab.shows.get(v, f"show {v}") for v in values)
    if plain in ("has_channel", "channel_type"):
        return tuple(vocab.channels.get(v, f"channel {v}") for v in values)
    if plain == "segment":
        return tuple(LABELS.get(v, v) for v in values)
    return tuple(str(v).replace("_", " ") if plain == "campaign_type" else str(v) for v in values)


def _criterion_mask(name: str, values: tuple, snap: Snapshot, tz: str | None) -> np.ndarray:
    """Who meets one criterion; a one-value filter (has_channel) given several values is any of them, its exclusion
    none of them."""
    kind = SPEC[name][0]
    if kind == "int":
        masks = [parse_filters({name: value}).mask(snap, tz) for value in values]
        join = np.logical_and if name in EXCLUSIONS else np.logical_or
        return join.reduce(masks) if masks else np.ones(len(snap), dtype=bool)
    value = list(values) if kind in ("strings", "ints", "all_of") else values[0]
    return parse_filters({name: value}).mask(snap, tz)


def _rest(query: str, spans: list[tuple]) -> str:
    """The query with its understood stretches taken out."""
    kept, at = [], 0
    for start, end in sorted(spans):
        kept.append(query[at:start])
        at = max(at, end)
    return " ".join(" ".join([*kept, query[at:]]).split())


FREE_WORD = re.compile(r"[^\W_]+(?:[-'’][^\W_]+)*")
"""A free word, hyphenated ones whole ("K-pop" is not "pop")."""


def _free_text(query: str, spans: list[tuple]) -> str:
    """The query's words outside the understood stretches, without the words that only frame it; a hyphenated
    word stays whole when none of it was understood ("K-pop"), else its other parts stand alone ("be-gospel")."""
    kept = []
    for whole in FREE_WORD.finditer(query):
        parts = [m for m in WORD.finditer(whole.group())
                 if not any(start <= whole.start() + m.start() < end for start, end in spans)]
        words = [m.group() for m in parts if m.group().casefold() not in FILLER and not m.group().isdigit()]
        kept.extend([whole.group()] if words and len(parts) == len(WORD.findall(whole.group())) == len(words)
                    else words)
    return " ".join(kept)
