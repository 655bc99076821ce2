"""Access log lines name a request's route pattern and a keyed hash of its path, never the path, the query or the
referer, which may hold a listener's number, name or a search's words (issue 48, item 6)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from core.db.embedded import free_port
from tests.cli.test_serve_outages import ROOT, env_of, get, wait_for

pytestmark = [pytest.mark.db, pytest.mark.served]

GUNICORN = str(Path(sys.executable).with_name("gunicorn"))
NUMBER, NAME = "27829990001", "Qwertyuiop"


@pytest.fixture(scope="module")
def served(tmp_path_factory, mongodb_uri):
    """gunicorn with the project's configuration and its access log on, as `serve` starts it; yields (url, log)."""
    folder = tmp_path_factory.mktemp("access")
    data_dir, port, log = folder / "data", free_port(), folder / "access.log"
    env = {**env_of(data_dir), "MONGODB_URI": mongodb_uri, "MONGODB_DATABASE": "lss_access_log",
           "KEY_VAULT_SHARES_BACKUPS": "yes"}  # the suite's server is not DATA_DIR's: production to the service
    proc = subprocess.Popen([GUNICORN, "--config", str(ROOT / "gunicorn.conf.py"), "--workers", "1",
                             "--bind", f"127.0.0.1:{port}", "--access-logfile", str(log), "wsgi:app"], cwd=ROOT,
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    wait_for(lambda: (r := get(f"{url}/health/live")) is not None and r.status_code == 200, 120, "gunicorn")
    yield url, log
    os.killpg(proc.pid, signal.SIGTERM)
    proc.wait(timeout=60)


def logged(log: Path, marker: str) -> str:
    """The log's text once the line of the request with this marker in its path has been written."""
    wait_for(lambda: log.exists() and marker in log.read_text(), 10, "the access log line")
    return log.read_text()


def test_a_request_naming_a_listener_is_logged_by_its_route_and_a_keyed_hash(served):
    url, log = served
    get(f"{url}/api/v1/listeners/1/{NUMBER}", headers={"Referer": f"{url}/listeners/{NUMBER}"})
    get(f"{url}/api/v1/segments/1/search?q=Zanele+{NAME}")
    text = logged(log, '"GET /api/v1/segments/<company:company_id>/search" 401')
    assert NUMBER not in text and NAME not in text and "Zanele" not in text
    assert '"GET /api/v1/listeners/<company:company_id>/<originator>" 401' in text


def test_two_requests_for_one_subject_share_their_subject_and_another_has_another(served):
    url, log = served
    for number in (NUMBER, NUMBER, "27829990002"):
        get(f"{url}/api/v1/segments/2/search?q={number}")
    wait_for(lambda: log.read_text().count("/search") == 4, 10, "three more access log lines")
    lines = [line for line in log.read_text().splitlines() if "/search" in line][1:]
    subjects = [line.split("subject=")[1].split()[0] for line in lines]
    assert subjects[0] == subjects[1] != subjects[2] and len(subjects[0]) == 13
