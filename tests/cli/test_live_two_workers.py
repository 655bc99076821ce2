"""The served service (gunicorn, two workers): once a live POST is answered, both workers, each with its own cached
snapshot, answer with the new segment; and requests racing for one paid AI answer over both workers pay for it
once."""
from __future__ import annotations

import os
import re
import signal
import subprocess
import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest

from core.clock import utcnow
from core.db.embedded import free_port
from tests import plain_http
from tests.cli.test_serve_outages import FLASK, ROOT, env_of, get, wait_for
from webapp.limits import MAX_REQUEST_LINE

pytestmark = [pytest.mark.db, pytest.mark.served]

REQUESTS, MAX_REQUESTS = 10, 400
"""GETs before and after the POST: at least REQUESTS, and more until both workers have answered some (the log says
which one did; on a busy machine one worker can take 40 in a row), at most MAX_REQUESTS. What is checked is that
both workers answered, each answer asserted; a longer minimum only repeated those answers (40 took ~10 s)."""


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """The demo service with two workers, its access log naming the worker (pid) that answered each request."""
    tmp_path = tmp_path_factory.mktemp("served")
    data_dir, port = tmp_path / "data", free_port()
    log_path = tmp_path / "serve.log"
    env = {**env_of(data_dir), "GUNICORN_CMD_ARGS": "--access-logformat 'answered-by %(p)s %(r)s %(s)s'"}
    with open(log_path, "wb") as log:
        proc = subprocess.Popen([FLASK, "--app", "wsgi", "serve", "--port", str(port), "--workers", "2",
                                 "--demo-listeners", "300"], cwd=ROOT, env=env, stdout=log,
                                stderr=subprocess.STDOUT, start_new_session=True)
        base = f"http://127.0.0.1:{port}"
        try:
            wait_for(lambda: (r := get(f"{base}/health")) is not None and r.status_code == 200, 180, "the service")
            yield {"base": base, "log": log_path, "data_dir": data_dir,
                   "key": {"X-API-Key": (data_dir / "demo-api-key").read_text().strip()}}
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=60)


def answered_by(log_path) -> tuple[set[str], set[str]]:
    """The worker pids that answered GETs before the live POST, and those that answered GETs after it."""
    text = log_path.read_text(errors="replace")
    before, _, after = text.partition("POST /api/v1/interactions/1")
    pids = re.compile(r"answered-by <(\d+)> GET ")
    return set(pids.findall(before)), set(pids.findall(after))


def a_dormant_listener(base: str, key: dict) -> str:
    """A dormant demo listener whose history is not mostly competitions, so one song request makes it occasional."""
    found = plain_http.get(f"{base}/api/v1/segments/1/filter?segment=dormant&page_size=50", headers=key, timeout=30)
    for row in found.json()["listeners"]:
        profile = plain_http.get(f"{base}/api/v1/listeners/1/{row['originator']}", headers=key, timeout=30).json()
        if profile["profile"]["competition_share"] < 0.5:
            return row["originator"]
    pytest.fail("the demo station has no dormant listener to wake")


def test_a_live_event_is_current_in_both_workers_as_soon_as_it_is_answered(served):
    base, key = served["base"], served["key"]
    originator = a_dormant_listener(base, key)
    until_both_answered(served["log"], 0, lambda: plain_http.get(  # both workers read and cache the company's snapshot
        f"{base}/api/v1/segments/1/filter?segment=occasional_engager", headers=key, timeout=30))
    row = {"company_id": 1, "originator": originator, "timestamp": (utcnow() - timedelta(hours=3)).isoformat(),
           "channel_type": 2, "campaign_type": "song_request"}
    answer = plain_http.post(f"{base}/api/v1/interactions/1", json=[row], headers=key, timeout=60).json()
    assert answer["listeners"] == [{"originator": originator, "segment": "occasional_engager"}]

    def current_everywhere():
        profile = plain_http.get(f"{base}/api/v1/listeners/1/{originator}", headers=key, timeout=30).json()
        assert profile["segment"]["key"] == "occasional_engager"
        found = plain_http.get(f"{base}/api/v1/segments/1/filter?originator={originator}", headers=key,
                               timeout=30).json()
        assert [r["segment"] for r in found["listeners"]] == ["occasional_engager"]

    until_both_answered(served["log"], 1, current_everywhere)
    before, after = answered_by(served["log"])
    assert len(before) == 2, "both workers cached the snapshot before the event"
    assert after == before, "both workers answered after the event"


def until_both_answered(log_path, part: int, request) -> None:
    """Make the request REQUESTS times, then again until both workers have answered in this part of the log (0:
    before the live POST, 1: after it), MAX_REQUESTS times at most."""
    for made in range(1, MAX_REQUESTS + 1):
        request()
        if made >= REQUESTS and len(answered_by(log_path)[part]) == 2:
            return


RACERS = 8


def racing_profiles(base: str, key: dict, originator: str) -> list[int]:
    """RACERS requests for one listener's AI profile sent at once; their statuses."""
    start = threading.Barrier(RACERS)

    def ask(_):
        start.wait()
        return plain_http.get(f"{base}/api/v1/ai/listeners/1/{originator}", headers=key, timeout=120).status_code

    with ThreadPoolExecutor(RACERS) as pool:
        return list(pool.map(ask, range(RACERS)))


def workers_for(log_path, path: str) -> set[str]:
    """The worker pids that answered requests for this path."""
    return set(re.findall(r"answered-by <(\d+)> GET " + re.escape(path) + r" ", log_path.read_text(errors="replace")))


def test_eight_requests_racing_over_both_workers_for_one_ai_profile_are_charged_once(served):
    base, key = served["base"], served["key"]
    listeners = plain_http.get(f"{base}/api/v1/segments/1/filter?page_size=20", headers=key, timeout=30).json()
    for row in listeners["listeners"]:  # until both workers took part in one race (one may take all 8 requests)
        originator = row["originator"]
        assert racing_profiles(base, key, originator) == [200] * RACERS
        usage = plain_http.get(f"{base}/api/v1/agent/1/credits/usage?limit=1000", headers=key, timeout=30).json()
        kinds = [e["kind"] for e in usage["usage"] if e["subject"] == originator]
        assert (kinds.count("spend"), kinds.count("cached")) == (1, RACERS - 1)
        if len(workers_for(served["log"], f"/api/v1/ai/listeners/1/{originator}")) == 2:
            break
    else:
        pytest.fail("no race was answered by both workers")
    check = subprocess.run([FLASK, "--app", "wsgi", "credits", "check"], cwd=ROOT, env=env_of(served["data_dir"]),
                           capture_output=True, text=True, timeout=120)
    assert check.returncode == 0, check.stdout + check.stderr


def test_gunicorn_answers_a_filter_of_many_values_and_a_line_beyond_the_limit_in_json(served):
    base, key = served["base"], served["key"]
    many = "&".join(f"location=Place%20number%20{n}" for n in range(400))
    answer = plain_http.get(f"{base}/api/v1/segments/1/aggregate?{many}", headers=key, timeout=30)
    assert answer.status_code == 200, answer.text[:200]
    beyond = plain_http.get(f"{base}/api/v1/segments/1/filter?location={'x' * MAX_REQUEST_LINE}", headers=key,
                            timeout=30)
    assert beyond.status_code == 414
    assert beyond.headers["content-type"].startswith("application/json") and beyond.json()["detail"]
