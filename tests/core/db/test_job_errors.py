"""A job record keeps no listener's value (issue 48, item 3): a failure is stored, and logged, as its exception's type
and words with every number (in any phone number's spelling) and every e-mail address replaced, no traceback of
words; ordinary words of a failure stay as they were."""
from __future__ import annotations

import logging

import pytest

from core.db import queue
from core.errors import ListenerNotFound
from core.service.worker import Worker

SAID = "could not reach zq.probe77@example.org on 082 999 0001"


@pytest.mark.parametrize(("text", "kept"), [
    ("Listener +27829990001 not found", "Listener <number> not found"),
    ("Listener 27829990001 not found", "Listener <number> not found"),
    ("call 0829990001 back", "call <number> back"),
    ("call 082 999 0001 back", "call <number> back"),
    ("call +27 82 999 0001 back", "call <number> back"),
    ("call +27 (0)82-999-0001 back", "call <number> back"),
    ("call 082.999.0001 back", "call <number> back"),
    ("duplicate interaction 27780000006-49", "duplicate interaction <number>"),
    ("mail zq.probe77@example.org now", "mail <e-mail> now"),
    ("Mail: Zanele.Q+radio@mail.example.co.za", "Mail: <e-mail>"),
    ("Listener zq.probe77@ex… not found", "Listener <e-mail>… not found"),
])
def test_a_number_in_any_spelling_and_an_e_mail_address_are_replaced(text, kept):
    assert queue.without_values(text) == kept


@pytest.mark.parametrize("text", ["timed out after 120 s", "HTTP 503", "HTTP 503 Service Unavailable",
                                  "row 12 of 345 has no date", "attempt 3 of 5", "no listener given", ""])
def test_ordinary_words_of_a_failure_stay_as_they_were(text):
    assert queue.without_values(text) == text


def test_a_failure_is_kept_as_its_type_and_its_words_without_values():
    assert queue.failure_of(ListenerNotFound.of("27829990001")) == "ListenerNotFound: Listener <number> not found"
    assert queue.failure_of(TimeoutError("timed out after 120 s")) == "TimeoutError: timed out after 120 s"


def test_a_long_failure_is_cut_after_its_values_are_replaced():
    kept = queue.failure_of(RuntimeError("x" * 495 + " 0829990001"))
    assert len(kept) == queue.KEEP_ERROR and "0829" not in kept


@pytest.fixture
def failing(app):
    """A worker, and a kind `boom` whose job fails with words that name a listener."""
    def boom(payload):
        raise RuntimeError(SAID)

    queue.register("boom", queue.Kind(run=boom, attempts=2))
    yield Worker(app.config["SETTINGS"], poll_s=0.05, daily_every_s=3600)
    queue._kinds.pop("boom", None)


def stored_errors() -> list[str]:
    return [job.get("error") for job in queue.Job._get_collection().find({"kind": "boom"})]


@pytest.mark.db
def test_a_failed_jobs_record_keeps_no_number_or_e_mail(failing):
    queue.enqueue("boom", "x", {})
    assert failing.work_once()
    assert stored_errors() == ["RuntimeError: could not reach <e-mail> on <number>"]


@pytest.mark.db
def test_a_failed_jobs_log_line_names_the_failure_without_its_values_or_a_traceback(failing, caplog):
    queue.enqueue("boom", "x", {})
    with caplog.at_level(logging.INFO, logger="core.service.worker"):
        failing.work_once()
    failed = [record for record in caplog.records if "failed" in record.getMessage()]
    assert len(failed) == 1 and failed[0].exc_info is None
    line = failed[0].getMessage()
    assert "RuntimeError: could not reach <e-mail> on <number>" in line and "boom" in line
    assert "999" not in caplog.text and "example.org" not in caplog.text


@pytest.mark.db
def test_an_error_given_to_finish_directly_is_kept_without_values(app):
    queue.enqueue("boom", "x", {})
    queue.finish(queue.claim("w"), f"RuntimeError: {SAID}")
    assert stored_errors() == ["RuntimeError: could not reach <e-mail> on <number>"]
