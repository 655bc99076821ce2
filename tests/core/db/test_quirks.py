"""The SecantusDB differences that core.db.quirks works around, reproduced, so that a release that fixes one shows."""
from __future__ import annotations

from datetime import UTC, datetime

import pytest

from core.db.connection import get_db
from core.db.quirks import is_secantus

pytestmark = pytest.mark.db


def test_a_stored_date_compared_with_now_is_wrong_on_secantus_only(app):
    db = get_db()
    db["quirk"].insert_one({"at": datetime(2000, 1, 1, tzinfo=UTC)})
    [row] = db["quirk"].aggregate([{"$project": {"past": {"$lt": ["$at", "$$NOW"]}}}])
    assert row["past"] is not is_secantus(db)
