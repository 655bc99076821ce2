"""Several hosts, no shared disk (issue 27, item 2): network namespaces make a database host (SecantusDB on its own
address), two web hosts (gunicorn with gunicorn.conf.py) and two worker hosts (`flask --app wsgi worker`), each with
its own DATA_DIR and MONGODB_URI at the database host. A live batch answered by A is visible on B within a second; an
import on A is searchable on B once a worker embedded it; the daily run happens once though every host is up; a worker
killed mid-job leaves its lease (JOB_LEASE_S) to run out and the other worker finishes the job; a host whose index
files are gone rebuilds them from MongoDB."""
from __future__ import annotations

import json
import os
import shutil
import signal
import statistics
from datetime import timedelta

import pytest

from bench import netns
from core.clock import utcnow
from tests import plain_http

pytestmark = [pytest.mark.db, pytest.mark.served]

LISTENERS = 200
LEASE_S = 5.0
IMPORTED = 12
TUNE = "Play maskandi by Phuzekhemisi for the cane cutters of Nkandla"


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """The five hosts (bench.netns.start_service), torn down whatever happens."""
    reason = netns.why_not_permitted()
    if reason:
        pytest.skip(f"no network namespaces here, so no hosts to build: {reason}")
    tmp = tmp_path_factory.mktemp("multihost")
    net, started = netns.Network(), None
    try:
        started = netns.start_service(net, tmp, LISTENERS, JOB_LEASE_S=str(LEASE_S), AUTO_EMBED="true")
        yield started
    finally:
        if started is not None:
            started["db"].client.close()
        net.close()


def test_a_worker_killed_mid_job_leaves_its_lease_to_run_out_and_the_other_worker_finishes_the_job(cluster):
    jobs = cluster["db"]["jobs"]
    running = netns.wait_until(lambda: jobs.find_one({"kind": "embed", "state": "running"}), 180,
                               "a worker to start the catch-up embedding")
    holder = next(name for name, proc in cluster["workers"].items() if f":{proc.pid}:" in running["owner"])
    os.killpg(cluster["workers"][holder].pid, signal.SIGKILL)
    assert jobs.find_one({"_id": running["_id"]})["state"] == "running", "the job was still under way"
    done = netns.wait_until(lambda: jobs.find_one({"_id": running["_id"], "state": "done"}), 180,
                            "the other worker to finish the killed worker's job")
    other = next(proc for name, proc in cluster["workers"].items() if name != holder)
    assert f":{other.pid}:" in done["owner"] and done["attempts"] == running["attempts"] + 1
    assert done["started_at"] >= running["lease_until"], "taken over only once the lease had run out"


def test_a_live_batch_answered_by_web_host_a_is_visible_on_web_host_b_within_a_second(cluster):
    assert netns.get(cluster, "b", "/api/v1/segments/1/filter", page_size=1).status_code == 200  # B caches the station
    latencies = [netns.visibility_latency(cluster, f"27999{n:05d}") for n in range(5)]
    print(f"\nlive batch on A visible on B after {', '.join(f'{s * 1000:.0f}' for s in latencies)} ms")
    assert statistics.median(latencies) < 1.0 and max(latencies) < 2.0


def test_an_import_on_web_host_a_is_searchable_on_web_host_b_once_a_worker_embedded_it(cluster):
    originators = [f"27888{n:05d}" for n in range(IMPORTED)]
    when = (utcnow() - timedelta(hours=2)).isoformat()
    rows = "\n".join(json.dumps({"company_id": 1, "originator": o, "timestamp": when, "channel_type": 2,
                                 "campaign_type": "song_request", "message": TUNE}) for o in originators)
    upload = plain_http.post(f"{cluster['a']}/api/v1/imports/1/interactions", headers=cluster["headers"],
                             timeout=60, files={"file": ("tunes.jsonl", rows.encode(), "application/x-ndjson")})
    assert upload.status_code == 202, upload.text

    def found_on_b():
        answer = netns.get(cluster, "b", "/api/v1/segments/1/search", q="maskandi for cane cutters", min_score=0,
                     limit=50).json()
        return set(originators) <= {row["originator"] for row in answer.get("results", [])}

    netns.wait_until(found_on_b, 120, "web host B to find the imported listeners")


def test_the_daily_run_happens_once_though_every_host_is_up(cluster):
    # both workers have been through their first round by now (one took a job after it, the other took that job
    # over), and the daily run is the first thing of a round
    assert cluster["db"]["segment_runs"].count_documents({"kind": "full"}) == 2  # the seed's and the daily one


def test_a_web_host_whose_index_files_are_gone_rebuilds_them_from_mongodb(cluster):
    folder = cluster["tmp"] / "web-b" / "vectors"
    before = netns.wait_until(lambda: stations_indexed(folder), 30, "B's index files")
    host = cluster["hosts"]["web-b"]
    gunicorn = host.processes[0]
    os.killpg(gunicorn.pid, signal.SIGTERM)
    gunicorn.wait(timeout=60)
    shutil.rmtree(folder)
    host.processes.remove(gunicorn)
    netns.start_web(host, cluster["env"]["web-b"], cluster["tmp"] / "web-b-again.log")
    netns.wait_until(lambda: netns.ready(cluster["b"]), 180, "web host B to be ready again")
    assert stations_indexed(folder) == before

    def every_listener_indexed():
        answer = netns.get(cluster, "b", "/api/v1/segments/1/search", q=TUNE, min_score=0).json()
        return answer["indexed"] == answer["candidates"] > LISTENERS

    netns.wait_until(every_listener_indexed, 60, "B to search every listener")


def stations_indexed(folder) -> set[str]:
    """The stations that have an index file in the folder (a file's name also says its model and version)."""
    return {path.name.split("-")[1] for path in folder.glob("company-*.faiss")}
