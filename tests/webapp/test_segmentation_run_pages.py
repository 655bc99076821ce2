"""Starting a segmentation from the overview: CSRF-protected, one at a time, its progress served to any worker."""
from __future__ import annotations

import threading
from datetime import UTC, datetime

import pytest

from core.db.leases import release, try_lease
from core.segmentation.models import SegmentRun
from core.segmentation.requested import SegmentJob
from core.segmentation.runs import resegment_listeners
from tests.memory import NOW
from tests.webapp import test_explorer_pages as shared

crowd, signed_in, AYANDA = shared.crowd, shared.signed_in, shared.AYANDA  # the fixtures of the explorer's page tests

pytestmark = pytest.mark.db

RUN = "/stations/1/segmentation"


def test_the_overview_says_when_the_last_run_finished(signed_in):
    html = signed_in.get("/stations/1/").text
    assert 'data-testid="last-run"' in html and "Last full run finished" in html


def test_a_producer_starts_a_run_and_its_panel_polls_while_it_runs(signed_in):
    answer = signed_in.post(RUN, headers={"HX-Request": "true"})
    assert answer.status_code == 200 and 'data-testid="run-panel"' in answer.text
    assert SegmentJob.objects(company_id=1).count() == 1
    for worker in [t for t in threading.enumerate() if t.name == "segment-1"]:
        worker.join()  # the next test empties the database


def test_a_click_while_a_run_holds_the_station_starts_no_other(signed_in):
    from datetime import timedelta

    token = try_lease("dashboard-run:1", timedelta(minutes=5))
    try:
        signed_in.post(RUN, headers={"HX-Request": "true"})
        assert SegmentJob.objects(company_id=1).count() == 0
    finally:
        release("dashboard-run:1", token)


def test_a_running_job_makes_the_panel_poll(signed_in):
    SegmentJob(company_id=1, state="running", steps=["reading listeners and interactions"]).save()
    html = signed_in.get(RUN).text
    assert 'hx-trigger="every 1s"' in html and 'aria-busy="true"' in html and "Reading listeners" in html


def test_starting_a_run_without_the_csrf_token_is_refused(signed_in, csrf_enabled):
    assert signed_in.post(RUN).status_code == 400
    assert SegmentJob.objects(company_id=1).count() == 0


def test_a_producer_of_station_1_cannot_start_a_run_of_station_2(signed_in):
    assert signed_in.post("/stations/2/segmentation").status_code == 403
    assert SegmentJob.objects(company_id=2).count() == 0


def test_the_overview_names_the_last_full_run_not_a_later_import(signed_in):
    resegment_listeners(1, [AYANDA], now=NOW)  # an import's partial run, after the crowd's full run
    SegmentRun.objects(company_id=1, kind="full").update(set__finished_at=datetime(2026, 11, 20, 0, 5, tzinfo=UTC))
    SegmentRun.objects(company_id=1, kind="import").update(set__finished_at=datetime(2026, 11, 20, 9, 0, tzinfo=UTC))
    html = signed_in.get("/stations/1/").text
    assert "Last full run finished 20 Nov 2026, 02:05 SAST" in html


def test_the_overview_says_how_its_two_times_and_its_two_buttons_differ(client, auth, producer):
    auth.login(producer)
    html = " ".join(client.get("/stations/1/").text.split())
    assert "kept up to date as interactions arrive" in html  # the segments' time: live runs included
    assert "A full run reads every listener's whole history again" in html.replace("&#39;", "'")
    assert "Reload figures" in html and "nothing is recomputed" in html
