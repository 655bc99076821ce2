"""The overview and the explorer count the same listeners as soon as an import or an erasure has run."""
from __future__ import annotations

import pytest

from core.explore.filters import ListenerFilter
from core.explore.operations import aggregate
from core.ingest.importer import import_rows
from core.privacy.erasure import erase_listener
from core.segmentation.overview import station_summary
from core.segmentation.runs import segment_company
from tests.factories import make_listener
from tests.memory import NOW, event

pytestmark = pytest.mark.db


@pytest.fixture
def station(app):
    for i in range(3):
        make_listener(1, f"2782000000{i}", [event(2), event(5)])
    segment_company(1, NOW)


def explorer_total() -> int:
    return aggregate(1, ListenerFilter())["total"]


def test_after_an_erasure_the_overview_counts_what_the_explorer_finds(station):
    erase_listener(1, "27820000000", "test-secret")
    assert station_summary(1)["total_listeners"] == explorer_total() == 2


def test_after_an_import_the_overview_counts_what_the_explorer_finds(station):
    rows = [(1, {"company_id": 1, "originator": "27829999999", "name": "New"})]
    import_rows("profiles", rows, source="test")
    assert station_summary(1)["total_listeners"] == explorer_total() == 4
