"""The labelled set of bench.search_quality (bench/search_queries.json) and the known answer of each query, evaluated
on the station's snapshot: shared filter parameters (core.explore.filters), words in the listeners' latest messages,
a file of the generator's truth (bench/other_station: who asked for what, who lives in which province), or any/all
of those.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

LABELLED = Path(__file__).resolve().with_name("search_queries.json")


@dataclass(frozen=True)
class Query:
    """One labelled query: its text, kind, language, whether it is held out, and its answer's definition."""

    id: str
    q: str
    kind: str
    language: str
    held_out: bool
    answer: dict


def labelled_set(path: Path = LABELLED) -> tuple[list[Query], dict, list[dict]]:
    """The queries, the named themes and the custom segments' themes of the labelled set."""
    data = json.loads(path.read_text())
    queries = [Query(q["id"], q["q"], q["kind"], q["language"], bool(q["held_out"]), q["answer"])
               for q in data["queries"]]
    return queries, data["themes"], data["segments"]


class Truth:
    """Who answers a definition, as a boolean per snapshot row."""

    def __init__(self, snap, tz: str, messages: dict[str, list[str]], themes: dict, events=None,
                 base: Path | None = None):
        self.snap, self.tz, self.themes, self.events, self.base = snap, tz, themes, events, base
        self.texts = [" | ".join(messages.get(str(o), ())).casefold() for o in snap.originators.tolist()]

    def mask(self, answer: dict) -> np.ndarray:
        """The listeners who hold the answer."""
        from core.explore.filters import parse_filters

        if "filters" in answer:
            return parse_filters(answer["filters"]).mask(self.snap, self.tz)
        if "messages" in answer:
            pattern = re.compile("|".join(f"(?:{p})" for p in answer["messages"]), re.IGNORECASE)
            return np.fromiter((bool(pattern.search(t)) for t in self.texts), dtype=bool, count=len(self.texts))
        if "theme" in answer:
            return self.mask(self.themes[answer["theme"]])
        if "interactions" in answer:
            return self.interacted(answer["interactions"])
        if "originators_file" in answer:
            return self.listed(answer["originators_file"])
        if answer.get("nobody"):
            return np.zeros(len(self.snap), dtype=bool)
        parts = [self.mask(part) for part in answer.get("all") or answer.get("any")]
        return np.logical_and.reduce(parts) if "all" in answer else np.logical_or.reduce(parts)

    def listed(self, name: str) -> np.ndarray:
        """The listeners a truth file names, one originator a line (its path relative to the station's folder)."""
        who = set((self.base / name).read_text().split())
        return np.fromiter((str(o) in who for o in self.snap.originators.tolist()), dtype=bool, count=len(self.snap))

    def interacted(self, wanted: dict) -> np.ndarray:
        """The listeners with one interaction that is all of `wanted` at once (the station's interactions)."""
        return interacted_mask(self.snap, self.events, wanted)


def interacted_mask(snap, events, wanted: dict) -> np.ndarray:
    """The listeners with one interaction that is all of `wanted` at once ({"channel": 2, "campaign": "competition",
    "timeslot": 15}), read from their interactions directly (not from the code measured)."""
    hit = np.ones(len(events.ts), dtype=bool)
    if "channel" in wanted:
        hit &= events.channel == wanted["channel"]
    if "timeslot" in wanted:
        hit &= events.timeslot == wanted["timeslot"]
    if "campaign" in wanted:
        names = np.array(events.campaign_vocab + [""], dtype=object)
        hit &= names[events.campaign] == wanted["campaign"]
    who = set(np.asarray(events.originators, dtype=object)[np.unique(events.row[hit])].tolist())
    return np.fromiter((str(o) in who for o in snap.originators.tolist()), dtype=bool, count=len(snap))


def precision(returned: np.ndarray, relevant: np.ndarray) -> float:
    """The share of returned rows that are relevant (0 for an empty answer: nothing right was found)."""
    return float(relevant[returned].mean()) if len(returned) else 0.0


def recall(returned: np.ndarray, relevant: np.ndarray, limit: int) -> float:
    """Relevant rows returned, of at most `limit` relevant ones (an answer of `limit` cannot hold more)."""
    wanted = min(limit, int(relevant.sum()))
    return float(relevant[returned].sum()) / wanted if wanted else 1.0


def ndcg(returned: np.ndarray, relevant: np.ndarray, k: int = 10) -> float:
    """nDCG@k with binary relevance, in the order returned."""
    gains = relevant[returned[:k]].astype(float)
    ideal = min(k, int(relevant.sum()))
    if not ideal:
        return 1.0 if not len(returned) else 0.0
    discounts = 1.0 / np.log2(np.arange(2, k + 2))
    return float((gains * discounts[:len(gains)]).sum() / discounts[:ideal].sum())
