"""`flask --app wsgi encrypt`: what stations stored before sealing is sealed in place, station by station, and a run
cut short goes on where it stopped."""
from __future__ import annotations

import io

import bson
import numpy as np
import pytest

from core.clock import utcnow
from core.db.connection import get_db
from core.ingest import reports
from core.listeners import snapshot, snapshot_files
from core.privacy import encrypt
from core.segmentation.runs import segment_company
from core.stations.companies import bump_version
from core.stations.models import Company
from tests.factories import make_listener, plain_snapshot_file
from tests.memory import NOW, event

pytestmark = pytest.mark.db
BAD_ROWS = [{"line": 2, "reason": "email is not an e-mail address, got 'nomvula.dlamini@example'"}]


@pytest.fixture
def stations(app):
    """Two stations whose snapshots were written before sealing; the second also has a plain delta on its file."""
    for company_id, name in ((1, "Nomvula Dlamini"), (2, "Pieter van Wyk")):
        make_listener(company_id, f"2782987654{company_id}", [event(1)], name=name, location="Bloemfontein")
        segment_company(company_id, NOW)
        plain_snapshot_file(company_id)
    changed = snapshot.current(2).take(np.array([0]))
    buffer = io.BytesIO()
    np.savez(buffer, **changed.cols)
    get_db().snapshot_deltas.insert_one({"company_id": 2, "base": Company.objects.get(company_id=2).snapshot_file,
                                         "seq": bump_version(2), "data": buffer.getvalue(), "meta": changed.meta,
                                         "vocab": {k: list(v) for k, v in changed.vocab.items()}})
    get_db().import_reports.insert_one({"company_ids": [1], "kind": "profiles", "error_count": 1, "errors": BAD_ROWS})
    snapshot.clear_cache()


def everything_in_gridfs_and_deltas() -> bytes:
    db = get_db()
    return b"".join([*(bytes(c["data"]) for c in db[f"{snapshot_files.BUCKET}.chunks"].find()),
                     *(str(f.get("metadata")).encode() for f in db[f"{snapshot_files.BUCKET}.files"].find()),
                     *(str(d).encode() for d in db.snapshot_deltas.find())]).lower()


def test_every_plain_station_is_sealed_and_reads_the_same(stations, runner):
    before = {c: snapshot.current(c).cols["name"].tolist() for c in (1, 2)}
    assert b"bloemfontein" in everything_in_gridfs_and_deltas()
    result = runner.invoke(args=["encrypt"])
    assert result.exit_code == 0, result.output
    assert "Sealed 2 stations; 0 were sealed already." in result.output
    stored = everything_in_gridfs_and_deltas()
    assert [v for v in (b"bloemfontein", b"nomvula", b"pieter") if v in stored] == []
    assert not snapshot_files.stored_plain(1) and not snapshot_files.stored_plain(2)
    report = get_db().import_reports.find_one()
    assert b"nomvula" not in bson.encode(report).lower() and reports.opened_errors(report) == BAD_ROWS
    snapshot.clear_cache()
    assert {c: snapshot.current(c).cols["name"].tolist() for c in (1, 2)} == before


def test_a_run_cut_short_goes_on_where_it_stopped(stations, monkeypatch):
    published = snapshot.publish

    def dies_at_the_second_station(snap):
        if snap.company_id == 2:
            raise KeyboardInterrupt("killed")
        return published(snap)

    monkeypatch.setattr(snapshot, "publish", dies_at_the_second_station)
    with pytest.raises(KeyboardInterrupt):
        encrypt.encrypt_stations()
    assert not snapshot_files.stored_plain(1) and snapshot_files.stored_plain(2)
    monkeypatch.setattr(snapshot, "publish", published)
    assert encrypt.encrypt_stations() == {"sealed": [2], "already": [1]}
    assert encrypt.encrypt_stations() == {"sealed": [], "already": [1, 2]}


def test_ai_profiles_and_promotions_kept_before_sealing_move_into_the_listener_s_sealed_fields(stations):
    from core.ai.profile import fresh_profile
    from core.ai.promote import promotion_history

    made_at = utcnow().replace(microsecond=0)
    guess = {"value": "Bloemfontein", "confidence": 0.8, "evidence": "said 'Bloemfontein traffic'"}
    get_db().ai_profiles.insert_one({"company_id": 1, "originator": "27829876541", "values": {
        "inferred_location": guess}, "provider": "local", "model": "m", "tokens_in": 0, "tokens_out": 0,
        "made_at": made_at})
    get_db().demographic_promotions.insert_one({"company_id": 1, "originator": "27829876541", "field": "location",
                                                "value": "Bloemfontein", "confidence": 0.8, "at": made_at})
    encrypt.encrypt_stations()
    assert get_db().ai_profiles.count_documents({}) == get_db().demographic_promotions.count_documents({}) == 0
    assert fresh_profile(1, "27829876541")["values"] == {"inferred_location": guess}
    assert [(h["field"], h["value"]) for h in promotion_history(1, "27829876541")] == [("location", "Bloemfontein")]
    assert b"bloemfontein" not in b"".join(bson.encode(doc) for doc in get_db().listeners.find()).lower()
