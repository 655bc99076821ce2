"""One embedded database per DATA_DIR: started by the first user, shared by the rest, replaced when stale."""
from __future__ import annotations

import json
import os
import signal
import time

import pymongo
import pytest

from core.db import embedded as embedded_db

pytestmark = pytest.mark.db


def answers(uri: str) -> bool:
    with pymongo.MongoClient(uri, serverSelectionTimeoutMS=5000) as client:
        return client.admin.command("ping")["ok"] == 1.0


@pytest.fixture
def data_dir(tmp_path):
    yield tmp_path
    embedded_db.stop(tmp_path)


def test_first_user_starts_it_and_records_pid_and_port(data_dir):
    uri = embedded_db.ensure_running(data_dir)
    record = json.loads((data_dir / "secantus.json").read_text())
    assert str(record["port"]) in uri
    assert answers(uri)


def test_later_users_connect_to_the_same_server(data_dir):
    assert embedded_db.ensure_running(data_dir) == embedded_db.ensure_running(data_dir)


def test_data_survives_a_restart(data_dir):
    uri = embedded_db.ensure_running(data_dir)
    with pymongo.MongoClient(uri) as client:
        client.kept.things.insert_one({"x": 1})
    embedded_db.stop(data_dir)
    with pymongo.MongoClient(embedded_db.ensure_running(data_dir)) as client:
        assert client.kept.things.count_documents({"x": 1}) == 1


def test_a_stale_record_is_detected_and_replaced(data_dir):
    embedded_db.ensure_running(data_dir)
    record = json.loads((data_dir / "secantus.json").read_text())
    os.kill(record["pid"], signal.SIGKILL)
    deadline = time.monotonic() + 10
    while embedded_db.pid_alive(record["pid"]) and time.monotonic() < deadline:
        time.sleep(0.05)
    uri = embedded_db.ensure_running(data_dir)
    replaced = json.loads((data_dir / "secantus.json").read_text())
    assert replaced["pid"] != record["pid"]
    assert answers(uri)


def test_stop_ends_the_process_and_removes_the_record(data_dir):
    embedded_db.ensure_running(data_dir)
    pid = json.loads((data_dir / "secantus.json").read_text())["pid"]
    assert embedded_db.stop(data_dir) is True
    assert not embedded_db.pid_alive(pid)
    assert not (data_dir / "secantus.json").exists()


def test_a_server_whose_starter_just_ended_is_not_adopted_on_its_way_out(data_dir):
    """One command after another: the first's server is being stopped by its guard while it still answers."""
    import subprocess
    import sys

    started = subprocess.run([sys.executable, "-c", "import sys; from core.db import embedded; "
                              "embedded.ensure_running(sys.argv[1])", str(data_dir)],
                             cwd=embedded_db.GUARD.parents[2], capture_output=True, text=True, timeout=120)
    assert started.returncode == 0, started.stderr
    first = json.loads((data_dir / "secantus.json").read_text())
    uri = embedded_db.ensure_running(data_dir)
    assert not embedded_db.pid_alive(first["pid"])  # the first server has ended by now, whatever it was doing
    assert json.loads((data_dir / "secantus.json").read_text())["pid"] != first["pid"]
    assert answers(uri)
