"""A listener as one text to embed: what a producer would say of them (segment, shows, channels, dayparts, campaign
types, interests, declared and inferred demographics) and the words of their latest messages. Never a name, an
email or a number: the text holds nothing that identifies the person, and the messages go with erasure.
"""
from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from core.listeners.events import message_batches, timed_messages
from core.listeners.snapshot import Snapshot
from core.search.glosses import glossed
from core.segmentation.rules import LABELS
from core.stations.models import Company
from core.stations.shows import show_titles

MESSAGES = 2  # the latest messages of a listener that go into the text (the model pays per token)
MESSAGE_CHARS = 120
MESSAGES_LABEL = "messages: "
CATEGORIES = ("gender", "age_group", "language", "location", "inferred_gender", "inferred_age_group",
              "inferred_language", "inferred_location", "inferred_lsm")
DAYPART_WORDS = {"overnight": "overnight", "breakfast": "breakfast, mornings", "midmorning": "mid-morning",
                 "afternoon": "afternoon", "drive": "drive time, commute", "evening": "evening"}


def listener_texts(snap: Snapshot, rows: np.ndarray, company: Company, said: list[str | None] | None = None
                   ) -> list[str]:
    """The text of each of these snapshot rows, in their order; `said`: what each said, where already known (None:
    read from their interactions)."""
    said = said if said is not None else [None] * len(rows)
    unknown = [str(snap.originators[row]) for row, words in zip(rows, said) if words is None]
    if unknown:
        messages = latest_messages(company.company_id, unknown)
        said = [" | ".join(messages.get(str(snap.originators[row]), [])) if words is None else words
                for row, words in zip(rows, said)]
    return _texts(snap, rows, _names(snap, company), said)


def said_in(text: str) -> str:
    """The messages part of a listener's text: what they said, their latest messages joined by " | "."""
    head, label, said = text.partition(MESSAGES_LABEL)
    return said.strip() if label else ""


def lexical_document(text: str) -> str:
    """A listener's text as the lexical index reads it: their messages followed by the English of the themes they
    name in the station's other languages (core.search.glosses), so that "dankie vir die musiek" is found by
    "thanking the station for the music". Only the messages: the rest of the text is the service's own English."""
    head, label, said = text.partition(MESSAGES_LABEL)
    return head + label + glossed(said) if label else text


def phrases(text: str) -> tuple[list[str], str]:
    """A listener's text cut into what the model reads apart: each trait on its own ("shows: Gospel Sunday",
    "tags: gospel"), which recur across a station's listeners and are embedded once each, and what the listener
    said, which is theirs alone. A name holding ". " or ", " is only cut into two phrases, still read."""
    head = text.partition(MESSAGES_LABEL)[0]
    traits = []
    for part in head.rstrip(". ").split(". ") if head.strip() else []:
        name, colon, values = part.partition(": ")
        if colon:
            traits.extend(f"{name}: {value}" for value in values.split(", ") if value)
        else:
            traits.append(part)
    return traits, said_in(text)


def latest_messages(company_id: int, originators: Iterable[str] | None) -> dict[str, list[str]]:
    """Each listener's latest messages, newest first, from their interaction batches."""
    found: dict[str, list[tuple[int, str]]] = {}
    for doc in message_batches(company_id, originators):
        if any(doc.get("messages") or ()):
            found.setdefault(doc["originator"], []).extend(timed_messages(doc))
    return {o: [m[:MESSAGE_CHARS] for _, m in sorted(kept, reverse=True)[:MESSAGES]] for o, kept in found.items()}


def _names(snap: Snapshot, company: Company) -> dict[str, list[str]]:
    """Readable names of the multi-valued columns' values, in vocabulary order."""
    titles, channels = show_titles(company.company_id), company.channel_names()
    vocab = snap.vocab
    return {"timeslots": [titles.get(int(t), f"show {t}") for t in vocab.get("timeslots", [])],
            "channels": [channels.get(int(c), f"channel {c}") for c in vocab.get("channels", [])],
            "campaign_types": [str(c).replace("_", " ") for c in vocab.get("campaign_types", [])],
            "tags": [str(t) for t in vocab.get("tags", [])],
            "inferred_interests": [str(t) for t in vocab.get("inferred_interests", [])]}


MULTI = (("timeslots", "shows"), ("channels", "channels"), ("campaign_types", "takes part in"),
         ("inferred_interests", "interests"), ("tags", "tags"))
LABEL_WORDS = frozenset(" ".join(["segment", "listens", MESSAGES_LABEL, *(label for _, label in MULTI),
                                  *(n.replace("inferred_", "likely ").replace("_", " ") for n in CATEGORIES),
                                  *DAYPART_WORDS.values()]).replace(":", " ").replace(",", " ").split())
"""The service's own words in every listener's text (its labels, the dayparts' words): words of no listener."""


def _texts(snap: Snapshot, rows: np.ndarray, names: dict[str, list[str]], said: list[str]) -> list[str]:
    """Each row's text, its columns read for all the rows at once (row by row, 100 texts cost 10 ms)."""
    rows = np.asarray(rows, dtype=np.int64)
    members = {column: _members(snap, column, rows, names[column]) for column, _ in MULTI}
    values = {name: _values(snap, name, rows) for name in ("segment", "peak_time_of_day", *CATEGORIES)}
    return [_text(i, members, values, words) for i, words in enumerate(said)]


def _text(i: int, members: dict[str, list[list[str]]], values: dict[str, list], said: str) -> str:
    parts = [f"segment: {LABELS.get(values['segment'][i], '')}"]
    for column, label in MULTI:
        if members[column][i]:
            parts.append(f"{label}: {', '.join(members[column][i])}")
    daypart = values["peak_time_of_day"][i]
    if daypart:
        parts.append(f"listens: {DAYPART_WORDS.get(daypart, daypart)}")
    for name in CATEGORIES:
        value = values[name][i]
        if value:
            parts.append(f"{name.replace('inferred_', 'likely ').replace('_', ' ')}: {value}")
    if said:
        parts.append(MESSAGES_LABEL + said)
    return ". ".join(parts)


def _values(snap: Snapshot, name: str, rows: np.ndarray) -> list[str | None]:
    """A categorical column's value at each row (None when absent or not a column of this snapshot)."""
    if name not in snap.cols:
        return [None] * len(rows)
    vocab = snap.vocab[name]
    return [str(vocab[code]) if code >= 0 else None for code in snap.cols[name][rows].tolist()]


def _members(snap: Snapshot, name: str, rows: np.ndarray, labels: list[str]) -> list[list[str]]:
    """A multi-valued column's values at each row, by name."""
    out: list[list[str]] = [[] for _ in range(len(rows))]
    if name not in snap.cols or not labels:
        return out
    for i, j in zip(*(found.tolist() for found in np.nonzero(snap.cols[name][rows]))):
        out[i].append(labels[j])
    return out
