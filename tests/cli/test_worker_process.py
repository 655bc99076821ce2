"""The two process kinds as production runs them: `gunicorn wsgi:app` answers requests and does no background work;
`flask --app wsgi worker` does it. A CLI import leaves its embedding to the worker (and ends without a traceback);
until a worker has run, search says how many listeners it covers; once one has, it covers them all. SIGTERM stops a
worker cleanly."""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from core.db.embedded import free_port
from tests import plain_http
from tests.cli.test_serve_outages import FLASK, ROOT, env_of, get, wait_for
from tests.memory import NOW

pytestmark = [pytest.mark.db, pytest.mark.served]

GUNICORN = str(Path(sys.executable).with_name("gunicorn"))
LISTENERS = 30


def interactions(path: Path) -> Path:
    rows = [{"company_id": 1, "originator": f"2782{n:07d}", "channel_type": 2, "campaign_type": "song_request",
             "timestamp": NOW.replace(day=1 + n % 20).isoformat(), "message": f"Play some gospel for my mother {n}"}
            for n in range(LISTENERS)]
    path.write_text("\n".join(json.dumps(row) for row in rows) + "\n")
    return path


def flask(data_dir: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**env_of(data_dir), "AUTO_EMBED": "true"}
    return subprocess.run([FLASK, "--app", "wsgi", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)


@pytest.fixture(scope="module")
def web(tmp_path_factory):
    """A station imported by the CLI, then `gunicorn wsgi:app` with two workers on its DATA_DIR (no worker process
    yet); an API key."""
    tmp_path = tmp_path_factory.mktemp("web")
    data_dir, port = tmp_path / "data", free_port()
    imported = flask(data_dir, "import", "interactions", str(interactions(tmp_path / "rows.jsonl")))
    assert imported.returncode == 0 and "Traceback" not in imported.stdout + imported.stderr, imported.stderr
    key = flask(data_dir, "keys", "create", "--company", "1").stdout.strip().splitlines()[-1]
    env = {**env_of(data_dir), "AUTO_EMBED": "true", "ADMIN_KEY": "ops-key"}
    log = tmp_path / "access.log"
    proc = subprocess.Popen([GUNICORN, "--workers", "2", "--bind", f"127.0.0.1:{port}", "--access-logfile", str(log),
                             "--access-logformat", "answered-by %(p)s %(r)s", "wsgi:app"], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    wait_for(lambda: (r := get(f"{base}/health")) is not None and r.status_code == 200, 120, "gunicorn")
    yield {"base": base, "data_dir": data_dir, "headers": {"X-API-Key": key}, "env": env, "log": log}
    os.killpg(proc.pid, signal.SIGTERM)
    proc.wait(timeout=60)


def covered(web: dict) -> tuple[int, int]:
    answer = plain_http.get(f"{web['base']}/api/v1/segments/1/search",
                            params={"q": "songs for my mother", "min_score": 0}, headers=web["headers"],
                            timeout=60).json()
    return answer["indexed"], answer["candidates"]


def test_gunicorn_alone_embeds_nothing_and_says_so_then_a_worker_makes_everyone_searchable(web):
    assert covered(web) == (0, LISTENERS)
    worker = subprocess.Popen([FLASK, "--app", "wsgi", "worker"], cwd=ROOT, env=web["env"], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        wait_for(lambda: covered(web) == (LISTENERS, LISTENERS), 180, "the worker to embed every listener")
    finally:
        worker.send_signal(signal.SIGTERM)
        output, _ = worker.communicate(timeout=60)
    assert worker.returncode == 0 and "stopped: " in output and "Traceback" not in output, output


def test_every_web_worker_holds_what_the_worker_embedded_before_anyone_searches_again(web):
    embedded = flask(web["data_dir"], "embed", "--company", "1")  # nothing left to embed after the test above
    assert embedded.returncode == 0, embedded.stderr

    def indexed_here() -> int:
        return plain_http.get(f"{web['base']}/health", timeout=30).json()["vectors"]["indexed_here"]

    wait_for(lambda: all(indexed_here() == LISTENERS for _ in range(10)), 60,
             "every web worker to catch up on its own (core.search.following)")
    assert len(answered_by(web["log"], "/health")) == 2


def test_metrics_of_any_web_worker_count_the_requests_of_every_worker_of_the_host(web):
    sent = 0
    while sent < 40 or (len(answered_by(web["log"])) < 2 and sent < 400):  # until both workers answered some
        assert plain_http.get(f"{web['base']}/health/live", timeout=30).status_code == 200
        sent += 1
    assert len(answered_by(web["log"])) == 2
    text = plain_http.get(f"{web['base']}/metrics", headers={"X-Admin-Key": "ops-key"}, timeout=30).text
    counts = [float(line.rsplit(" ", 1)[1]) for line in text.splitlines()
              if line.startswith("lss_request_seconds_count{") and 'route="/health/live"' in line]
    assert sum(counts) == sent


def answered_by(log: Path, path: str = "/health/live") -> set[str]:
    """The pids of the web workers that answered `path`."""
    return set(re.findall(rf"answered-by <?(\d+)>? GET {re.escape(path)} ", log.read_text(errors="replace")))
