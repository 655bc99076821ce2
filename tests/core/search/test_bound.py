"""Conditions named together hold together (core.search.bound), on a station built in memory: asks about
interactions named next to each other are met by the same interactions, others on their own; among exact matches the
score says how strongly (how many matching interactions, how recent)."""
from __future__ import annotations

import numpy as np
import pytest

from core.explore.operations import Selection
from core.search import bound
from core.search.queries import understand
from core.search.vocabulary import build_vocabulary
from core.stations.models import Company
from tests.memory import event, events_of, snapshot_of

TZ = "Africa/Johannesburg"
SMS, WHATSAPP = 1, 2
GOSPEL_HOUR = 15

HISTORIES = {
    # a competition entry by SMS and a WhatsApp message that is no competition entry: not a WhatsApp entrant
    "apart": [event(2, channel=SMS, campaign="competition"), event(3, channel=WHATSAPP, campaign="song_request")],
    "one_entry": [event(4, channel=WHATSAPP, campaign="competition")],
    "frequent": [event(d, channel=WHATSAPP, campaign="competition") for d in (1, 2, 3, 5, 8, 13)],
    "dormant": [event(209, channel=WHATSAPP, campaign="competition")],
    "requests_in_show": [event(1, campaign="song_request", timeslot=GOSPEL_HOUR)],
    "requests_elsewhere": [event(1, campaign="song_request"), event(2, campaign="shoutout", timeslot=GOSPEL_HOUR)],
}


@pytest.fixture(scope="module")
def station():
    people = [{"originator": o, "tags": ["gospel"], "events": e} for o, e in HISTORIES.items()]
    snap = snapshot_of(people, timezone=TZ)
    vocab = build_vocabulary(1, TZ, snap.vocab, {GOSPEL_HOUR: "Gospel Hour"}, {SMS: "SMS", WHATSAPP: "WhatsApp"})
    return snap, vocab, events_of(HISTORIES)


def answered(station, query: str) -> tuple[list[str], np.ndarray]:
    """The listeners who meet the query, strongest first, and their scores."""
    snap, vocab, events = station
    understood = understand(vocab, query)
    sel = Selection(Company(company_id=1, timezone=TZ), snap, understood.mask(snap, TZ))
    if understood.bound:
        sel = bound.narrowed(sel, understood.bound_facets(), events)
    rows, scores = bound.ranked_exact(sel, understood.loose_facets())
    return snap.originators[rows].tolist(), scores


def test_a_competition_entry_on_whatsapp_is_one_interaction(station):
    who, _ = answered(station, "gospel fans who enter competitions on WhatsApp")
    assert "apart" not in who
    assert set(who) == {"one_entry", "frequent", "dormant"}


def test_song_requests_during_a_show_are_requests_made_in_it(station):
    who, _ = answered(station, "song requests during Gospel Hour")
    assert who == ["requests_in_show"]


def test_asks_joined_by_and_stay_apart(station):
    understood = understand(station[1], "competition entrants and WhatsApp users")
    assert understood.bound == ()
    assert "apart" in answered(station, "competition entrants and WhatsApp users")[0]


def test_asks_of_the_same_kind_are_never_bound(station):
    assert understand(station[1], "on SMS or WhatsApp").bound == ()


def test_sms_on_weekends_binds_the_channel_to_the_day(station):
    understood = understand(station[1], "SMS on weekends")
    assert [f.field for group in understood.bound_facets() for f in group] == ["has_channel", "weekday_pattern"]


def test_the_recent_frequent_matcher_ranks_above_the_dormant_one(station):
    who, scores = answered(station, "gospel fans who enter competitions on WhatsApp")
    assert who[0] == "frequent" and who[-1] == "dormant"
    assert len(set(scores.tolist())) == len(scores)
    assert scores.min() >= bound.EXACT_FLOOR > 0.68 and scores.max() < 1


def test_understood_says_which_criteria_are_bound(station):
    criteria = understand(station[1], "gospel fans who enter competitions on WhatsApp").as_dict()["criteria"]
    assert [(c["field"], c["bound"]) for c in criteria] == [("tags", None), ("campaign_type", 0),
                                                            ("has_channel", 0)]
