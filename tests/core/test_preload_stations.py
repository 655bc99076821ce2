"""A preforking server's parent reads every station's indexes once, for its web workers to share, and hands them no
connection (core.service.startup.preload_stations, called by gunicorn.conf.py before the fork)."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from core.db import connection
from core.db.embedded import free_port, uri_of_port
from core.search import lexical_store, process_indexes, vectors
from core.search.models import ListenerEmbedding
from core.segmentation.runs import segment_company
from core.service import startup
from tests.factories import make_listener
from tests.memory import NOW, event

pytestmark = pytest.mark.db


@pytest.fixture
def session_connection(app):
    """The session's connection, made again after a test that closed or replaced it."""
    yield app.config["SETTINGS"]
    startup.start(app.config["SETTINGS"])


def test_a_worker_forked_after_the_preload_searches_by_words_without_reading_the_stored_texts(session_connection):
    for n, words in enumerate(["Play Jerusalema for my gogo", "Load shedding again", "Traffic on the N3"]):
        make_listener(1, f"2783000000{n}", [event(2, message=words)])
    segment_company(1, NOW)
    vectors.refresh_embeddings(1)
    process_indexes.forget_indexes()  # a server's parent that has read nothing yet

    assert startup.preload_stations(session_connection) == 1
    assert not connection.ping()  # no client crosses the fork

    startup.start(session_connection)  # the worker's own connection, as create_app makes it
    # a worker that read the texts now would find none
    ListenerEmbedding._get_collection().update_many({}, {"$unset": {"sealed_text": ""}})
    found = lexical_store.current_lexical(1, process_indexes.current_index(1))
    assert np.count_nonzero(found.shares("Jerusalema")) == 1
    assert found.said_of(np.arange(3)) != ["", "", ""]


def test_without_a_database_uri_the_parent_reads_nothing_and_starts_no_embedded_server(session_connection, tmp_path):
    alone = dataclasses.replace(session_connection, mongodb_uri=None, data_dir=tmp_path)
    assert startup.preload_stations(alone) == 0
    assert list(tmp_path.iterdir()) == []
    assert connection.ping()  # the process's connection is left as it was


def test_a_database_that_does_not_answer_leaves_each_worker_to_read_its_own(session_connection):
    silent = dataclasses.replace(session_connection, mongodb_uri=uri_of_port(free_port()), db_timeout_ms=200)
    assert startup.preload_stations(silent) == 0
    assert not connection.ping()
