"""`serve` on the embedded database (issue 48, item 5): the key vault's server in DATA_DIR/keys is started and
watched by `serve` itself, its web workers read what its keys sealed, and stopping the service stops it with the
data's server."""
from __future__ import annotations

import json
import os
import signal
import subprocess

import pymongo
import pytest

from core.db.embedded import KEYS, RECORD, free_port, pid_alive, uri_of_port
from tests.cli.test_serve_outages import FLASK, ROOT, env_of, get, wait_for

pytestmark = [pytest.mark.db, pytest.mark.served]


def test_serve_owns_the_key_server_its_workers_read_from_and_stops_it_with_the_data_s(tmp_path):
    data_dir, port = tmp_path / "data", free_port()
    proc = subprocess.Popen([FLASK, "--app", "wsgi", "serve", "--port", str(port), "--workers", "1",
                             "--demo-listeners", "40"], cwd=ROOT, env=env_of(data_dir), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        base = f"http://127.0.0.1:{port}"
        wait_for(lambda: (r := get(f"{base}/health")) is not None and r.status_code == 200, 300, "the service")
        key = {"X-API-Key": (data_dir / "demo-api-key").read_text().strip()}
        page = get(f"{base}/api/v1/segments/1/filter", params={"page_size": 1}, headers=key)
        assert page.status_code == 200 and page.json()["total"] == 40, page.text  # read from sealed snapshot files
        records = [json.loads((folder / RECORD).read_text()) for folder in (data_dir, data_dir / KEYS)]
        assert [record["owner"] for record in records] == [proc.pid, proc.pid]
        with pymongo.MongoClient(uri_of_port(records[0]["port"])) as data:
            assert "key_vault" not in data["listeners"].list_collection_names()
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=120)
        wait_for(lambda: not any(pid_alive(record["pid"]) for record in records), 60, "both servers to stop")
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=30)
