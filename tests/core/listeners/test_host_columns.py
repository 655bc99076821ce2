"""The snapshot's columns that name nobody, shared by the processes of a host as maps of one copy on its disk."""
from __future__ import annotations

import shutil
from pathlib import Path

import gridfs
import numpy as np
import pytest

from core.config import active
from core.db.connection import get_db
from core.listeners import snapshot, snapshot_files
from core.listeners.host_columns import PERSONAL
from tests.conftest import seeded

pytestmark = pytest.mark.db
SHARED = ("segment", "tags", "n_30", "last_ts", "churn")


def _cold() -> snapshot.Snapshot:
    """The station's snapshot as a process that has not read it yet reads it."""
    snapshot.clear_cache()
    return snapshot.current(1)


def _in_memory() -> snapshot.Snapshot:
    """The station's snapshot read whole from its file in MongoDB, nothing from the host's disk."""
    file_id = get_db().companies.find_one({"company_id": 1})["snapshot_file"]
    stream = gridfs.GridFSBucket(get_db(), snapshot_files.BUCKET).open_download_stream(file_id)
    return snapshot_files.read(stream.read(), stream.metadata)


def _copies() -> list:
    return sorted((active().data_dir / "snapshots").glob("company-1-*"))


def test_a_second_process_maps_the_copy_the_first_wrote_and_reads_the_same_values(app):
    seeded(200)
    first = _cold()
    [copy] = _copies()
    written = {name: (copy / f"{name}.npy").stat().st_mtime_ns for name in SHARED}
    second = _cold()
    whole = _in_memory()
    for name in SHARED:
        assert Path(first.cols[name].filename) == Path(second.cols[name].filename) == (copy / f"{name}.npy").resolve()
        assert (copy / f"{name}.npy").stat().st_mtime_ns == written[name]  # mapped, not written again
        np.testing.assert_array_equal(second.cols[name], whole.cols[name])
    assert whole.cols.keys() == second.cols.keys()


def test_the_host_copy_holds_no_number_name_or_email(app):
    seeded(200)
    snap = _cold()
    [copy] = _copies()
    on_disk = b"".join(path.read_bytes() for path in copy.iterdir())
    assert {name for name in PERSONAL if name in snap.cols} >= {"originator", "name", "email"}
    for name in ("originator", "name", "email"):
        assert not isinstance(snap.cols[name], np.memmap)
        assert not (copy / f"{name}.npy").exists()
    values = [v for name in ("originator", "name", "email") for v in snap.cols[name].tolist()[:50] if v]
    assert len(values) > 60
    for value in values:
        text = value.decode() if isinstance(value, bytes) else value
        assert text.encode() not in on_disk and text.encode("utf-32-le") not in on_disk


def test_rows_written_in_place_by_one_process_are_its_own(app):
    seeded(200)
    first = _cold()
    fresh = first.take(np.array([0]))
    fresh.cols["n_30"] = fresh.cols["n_30"] + 5
    before = int(first.cols["n_30"][0])
    assert snapshot.splice_in_place(first, fresh) is first and int(first.cols["n_30"][0]) == before + 5
    assert int(_cold().cols["n_30"][0]) == before == int(_in_memory().cols["n_30"][0])


def test_a_copy_that_does_not_match_its_file_is_written_again(app):
    seeded(200)
    _cold()
    [copy] = _copies()
    np.save(copy / "segment.npy", np.zeros(3, dtype=np.int16))  # as a torn or foreign copy would read
    snap = _cold()
    np.testing.assert_array_equal(snap.cols["segment"], _in_memory().cols["segment"])
    assert np.load(copy / "segment.npy").shape == (len(snap),)


def test_the_copy_of_an_older_file_is_removed_once_the_new_one_is_read(app):
    seeded(200)
    _cold()
    [old] = _copies()
    snapshot.publish(snapshot.current(1).take(np.arange(150)))
    assert len(_cold()) == 150
    [new] = _copies()
    assert new != old and not old.exists()


def test_a_host_whose_disk_takes_no_copy_still_reads_every_column(app):
    seeded(200)
    folder = active().data_dir / "snapshots"
    shutil.rmtree(folder, ignore_errors=True)
    folder.write_text("not a folder")
    try:
        snap = _cold()
        whole = _in_memory()
        for name in whole.cols:
            np.testing.assert_array_equal(snap.cols[name], whole.cols[name])
            assert not isinstance(snap.cols[name], np.memmap)
    finally:
        folder.unlink()
