"""A tag is a station's free text and may hold a number ("call 082 999 0001"): a run's rollup counts tags by their
keyed hashes, the overview names them from the sealed snapshot, and a tag only an erased listener had is counted
and named nowhere any more (issue 48)."""
from __future__ import annotations

import bson
import pytest

from core.privacy.encrypt import encrypt_stations
from core.privacy.erasure import erase_listener
from core.segmentation.models import SegmentRun
from core.segmentation.overview import segment_tags
from core.segmentation.runs import segment_company
from tests.factories import make_listener
from tests.memory import NOW, event

pytestmark = pytest.mark.db

PERSONAL_TAG = "call 082 999 0001"


@pytest.fixture
def station(app):
    make_listener(1, "27829990001", [event(1)], tags=[PERSONAL_TAG, "vip"])
    make_listener(1, "27829990002", [event(2)], tags=["vip"])
    segment_company(1, NOW)
    return 1


def runs_as_stored() -> bytes:
    return b"".join(bson.encode(doc) for doc in SegmentRun._get_collection().find())


def test_a_run_counts_tags_without_their_words_and_the_overview_names_them(station):
    assert b"082 999 0001" not in runs_as_stored() and b"vip" not in runs_as_stored()
    assert {t["tag"]: t["total"] for t in segment_tags(1)["tags"]} == {"vip": 2, PERSONAL_TAG: 1}


def test_a_tag_only_an_erased_listener_had_is_named_nowhere(station):
    erase_listener(1, "27829990001", "test-secret")
    assert {t["tag"]: t["total"] for t in segment_tags(1)["tags"]} == {"vip": 1}
    assert b"082 999 0001" not in runs_as_stored()


def test_encrypt_keys_the_tags_of_runs_stored_before_keys(station):
    run = SegmentRun._get_collection().find_one({"company_id": 1})
    plain = {"vip": {"dormant": 2}, PERSONAL_TAG: {"dormant": 1}}
    SegmentRun._get_collection().update_one({"_id": run["_id"]}, {"$set": {"rollup.tags": plain}})
    assert {t["tag"] for t in segment_tags(1)["tags"]} == {"vip", PERSONAL_TAG}  # read meanwhile
    encrypt_stations()
    assert b"082 999 0001" not in runs_as_stored()
    assert {t["tag"]: t["total"] for t in segment_tags(1)["tags"]} == {"vip": 2, PERSONAL_TAG: 1}
