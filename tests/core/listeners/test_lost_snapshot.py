"""A backup of the data restored from before a later run names a snapshot file whose key the live vault has since
destroyed: that snapshot is lost, and being derived data it is rebuilt by a full run of the station, whoever meets it
first (a reader, a run, a live batch, an erasure), once, under the station's segment lease."""
from __future__ import annotations

import threading

import pytest

from core.access.api_keys import create_key
from core.clock import utcnow
from core.db.connection import get_db
from core.db.leases import lease
from core.explore.listener import get_listener
from core.listeners import finding, snapshot
from core.personal import VAULT_COLLECTION
from core.privacy.erasure import erase_listener
from core.segmentation import runs
from core.segmentation.live import reprofile_listeners
from core.segmentation.models import SegmentRun
from core.segmentation.runs import resegment_listeners, segment_company
from core.stations.models import Company
from tests.factories import make_listener
from tests.memory import event

pytestmark = pytest.mark.db

FAN, NEWBIE, GONE, QUIET = "27820000001", "27820000002", "27820000003", "27820000004"
EVERYONE = {FAN, NEWBIE, GONE, QUIET}


def a_station() -> None:
    """Four listeners of unlike habits, their interactions dated from the real now, which a rebuild profiles as of."""
    now = utcnow()
    make_listener(1, FAN, [event(d, channel=1 + d % 2, now=now) for d in range(1, 15)], name="Sipho Ndlovu")
    make_listener(1, NEWBIE, [event(2, now=now)], name="Lerato Mokoena")
    make_listener(1, GONE, [event(120, now=now)], name="Thandeka Zungu")
    make_listener(1, QUIET, [], name="Nomvula Dlamini")


def backup() -> dict[str, list[dict]]:
    """Every document of the data database, as a backup holds it (the key vault is kept apart, and not in it)."""
    db = get_db()
    return {name: list(db[name].find()) for name in db.list_collection_names()
            if name != VAULT_COLLECTION and not name.startswith("system.")}


def restore(copy: dict[str, list[dict]]) -> None:
    """The data database put back as `copy` holds it, read by a service started afresh, beside the live vault."""
    db = get_db()
    for name in db.list_collection_names():
        if name != VAULT_COLLECTION and not name.startswith("system."):
            db[name].delete_many({})
            if copy.get(name):
                db[name].insert_many(copy[name])
    snapshot.clear_cache()
    finding.forget()


def segments() -> dict[str, str]:
    """Each listener's segment in the station's current snapshot."""
    snap = snapshot.current(1)
    return dict(zip(snap.originators.tolist(), snap.labels("segment").tolist(), strict=True))


@pytest.fixture
def restored(app):
    """The station segmented, backed up, segmented again (the backed-up file's key destroyed), then restored."""
    a_station()
    segment_company(1)
    reprofile_listeners(1, [NEWBIE])  # a delta on the file, sealed under its key too
    copy = backup()
    segment_company(1)
    restore(copy)
    return copy


def full_runs() -> int:
    return SegmentRun.objects(company_id=1, kind="full").count()


def test_a_restored_snapshot_whose_key_was_destroyed_is_lost_not_merely_unreadable(restored):
    with pytest.raises(snapshot.SnapshotLost) as lost:
        snapshot.current(1, rebuild=False)
    assert lost.value.status == 503 and "rebuilt after a restore" in lost.value.detail


def test_a_reader_of_a_restored_station_gets_it_rebuilt_by_one_full_run(restored):
    before = full_runs()
    listener = get_listener(1, FAN)
    assert listener["segment"] is not None and full_runs() == before + 1
    rebuilt = segments()
    assert set(rebuilt) == EVERYONE
    again = segment_company(1)
    assert segments() == rebuilt and again.changed == 0  # the rebuild is what a full run makes


def test_the_rebuild_starts_afresh_as_a_station_first_run_does(restored):
    get_listener(1, FAN)
    rebuild = SegmentRun.objects(company_id=1, kind="full").order_by("-started_at").first()
    assert rebuild.changed == 0 and rebuild.movements["first_assignments"] == len(EVERYONE)


def test_a_daily_run_of_a_restored_station_rebuilds_it(restored):
    run = segment_company(1)
    assert run.listeners == len(EVERYONE) and set(segments()) == EVERYONE


def test_a_run_of_a_few_listeners_on_a_lost_snapshot_profiles_them_all(restored):
    run = resegment_listeners(1, [NEWBIE])
    assert run.profiled == run.listeners == len(EVERYONE) and set(segments()) == EVERYONE


def test_a_live_batch_holding_the_lease_rebuilds_in_place_rather_than_waiting_for_itself(restored):
    assert reprofile_listeners(1, [NEWBIE]) == {NEWBIE: segments()[NEWBIE]}
    assert set(segments()) == EVERYONE


def test_an_erasure_on_a_restored_station_works_and_leaves_the_others_segments_alone(restored):
    expected = {**segments()}  # the rebuild, made by this first reader
    erase_listener(1, GONE, "test-secret")
    after = segments()
    assert GONE not in after and len(after) == len(EVERYONE)
    assert {o: s for o, s in after.items() if o in EVERYONE} == {o: s for o, s in expected.items() if o != GONE}


def test_two_readers_at_once_rebuild_it_once(restored):
    before, read, failed = full_runs(), [], []

    def reader() -> None:
        try:
            read.append(snapshot.version(1, snapshot.current(1)))
        except Exception as error:  # noqa: BLE001 - the test reports it
            failed.append(error)

    threads = [threading.Thread(target=reader) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failed == [] and full_runs() == before + 1
    assert read[0][0] == read[1][0] == Company.objects.get(company_id=1).snapshot_file


def test_a_reader_that_cannot_wait_for_the_rebuild_gets_a_503_saying_so(restored, client, monkeypatch):
    monkeypatch.setattr(runs, "REBUILD_WAIT_S", 0.5)
    _, token = create_key([1], name="test")
    with lease("segment:1"):  # another process's run holds the station
        answer = client.get(f"/api/v1/listeners/1/{FAN}", headers={"X-API-Key": token})
    assert answer.status_code == 503 and answer.headers["Retry-After"] == "60"
    assert "rebuilt after a restore" in answer.get_json()["detail"]
