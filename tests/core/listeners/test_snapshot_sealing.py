"""Snapshot files and their deltas are sealed under a key per file: nothing in them is stored plain, and once a newer
file replaces one, a copy of the old one (a backup) is unreadable."""
from __future__ import annotations

import gridfs
import numpy as np
import pytest

from core import personal
from core.db.connection import get_db
from core.listeners import snapshot, snapshot_files
from core.segmentation.runs import segment_company
from core.stations.models import Company
from tests.factories import make_listener, plain_snapshot_file
from tests.memory import NOW, event

pytestmark = pytest.mark.db

PLAIN = ("Nomvula Dlamini", "nomvula.d@example.org", "27829876543", "Bloemfontein", "isiXhosa")


@pytest.fixture
def station(app):
    make_listener(1, "27829876543", [event(1), event(3, channel=2)], name="Nomvula Dlamini",
                  email="nomvula.d@example.org", location="Bloemfontein", language="isiXhosa")
    make_listener(1, "27820000001", [event(2)], name="Someone Else")
    segment_company(1, NOW)
    return Company.objects.get(company_id=1).snapshot_file


def stored_file(file_id) -> tuple[bytes, dict]:
    """A copy of one snapshot file as stored: its bytes and the metadata beside them (what a backup holds)."""
    stream = gridfs.GridFSBucket(get_db(), snapshot_files.BUCKET).open_download_stream(file_id)
    return stream.read(), stream.metadata


def plain_in(blob: bytes) -> list[str]:
    return [value for value in PLAIN if value.lower().encode() in blob.lower()]


def stored_deltas() -> list[dict]:
    return list(get_db().snapshot_deltas.find({"company_id": 1}))


def a_live_change(originator: str = "27829876543") -> snapshot.Snapshot:
    """A delta written on the current file: the listener's row with a new name, as a live batch writes."""
    current = snapshot.current(1)
    fresh = current.take(np.array([current.row_of(originator)]))
    fresh.cols["name"] = np.array([b"nomvula d. khumalo"])  # text columns hold lower-cased bytes
    return snapshot.append_delta(current, fresh)


def test_a_published_file_holds_nothing_plain_and_reads_back(station):
    data, metadata = stored_file(station)
    assert plain_in(data + str(metadata).encode()) == []
    snapshot.clear_cache()
    snap = snapshot.current(1)
    row = snap.row_of("27829876543")
    assert (snap.cols["name"][row], snap.labels("location")[row]) == (b"nomvula dlamini", "Bloemfontein")


def test_a_delta_holds_nothing_plain_and_another_process_reads_it(station):
    a_live_change()
    (delta,) = stored_deltas()
    assert plain_in(delta["data"] + str({k: v for k, v in delta.items() if k != "data"}).encode()) == []
    assert b"khumalo" not in delta["data"].lower()
    snapshot.clear_cache()  # another process: the file, then the delta on it
    snap = snapshot.current(1)
    assert snap.cols["name"][snap.row_of("27829876543")] == b"nomvula d. khumalo"


def test_once_a_newer_file_is_published_a_copy_of_the_old_one_and_its_deltas_reads_nothing(station):
    a_live_change()
    backup = stored_file(station), stored_deltas()
    segment_company(1, NOW)
    (file_data, metadata), (delta,) = backup
    assert Company.objects.get(company_id=1).snapshot_file != station
    with pytest.raises(LookupError):
        snapshot_files.read(file_data, metadata)
    with pytest.raises(LookupError):
        snapshot_files.read(delta["data"], delta)
    current = snapshot_files.load(Company.objects.get(company_id=1).snapshot_file)  # the new file still reads
    assert current.cols["name"][current.row_of("27829876543")] == b"nomvula dlamini"
    assert personal.keys_named("snapshot:1:") == 1


def test_a_file_written_before_sealing_still_reads_and_the_next_publish_seals_it(station):
    plain_snapshot_file(1)
    assert snapshot_files.stored_plain(1)
    assert snapshot.current(1).labels("location")[snapshot.current(1).row_of("27829876543")] == "Bloemfontein"
    segment_company(1, NOW)
    data, metadata = stored_file(Company.objects.get(company_id=1).snapshot_file)
    assert plain_in(data + str(metadata).encode()) == []
    assert get_db()[f"{snapshot_files.BUCKET}.files"].count_documents({}) == 1
    assert not snapshot_files.stored_plain(1)


def test_a_reader_whose_file_is_replaced_while_it_reads_gets_the_newer_one(station, monkeypatch):
    real_load, published = snapshot_files.load, []

    def load_after_a_newer_file_is_published(file_id):
        if not published:  # another process publishes and prunes between this reader's two reads
            published.append(snapshot.publish(real_load(file_id)))
        return real_load(file_id)

    monkeypatch.setattr(snapshot_files, "load", load_after_a_newer_file_is_published)
    snapshot.clear_cache()
    snap = snapshot.current(1)
    assert published and snapshot.version(1, snap)[0] == published[0] != station
    assert snap.cols["name"][snap.row_of("27829876543")] == b"nomvula dlamini"


def test_a_prune_cut_short_has_already_made_the_old_file_unreadable(station, monkeypatch):
    def cut_short(self, file_id):
        raise OSError("the process died here")

    newer = snapshot_files.save(snapshot.current(1))
    monkeypatch.setattr(gridfs.GridFSBucket, "delete", cut_short)
    with pytest.raises(OSError):
        snapshot_files.prune(1, keep=newer)
    data, metadata = stored_file(station)  # still there: the next prune deletes it
    with pytest.raises(LookupError):
        snapshot_files.read(data, metadata)
    assert snapshot_files.load(newer).row_of("27829876543") is not None
