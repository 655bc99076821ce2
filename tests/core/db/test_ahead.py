"""Batches of a long read, the next one read in a thread while the caller works on the last (core.db.ahead)."""
from __future__ import annotations

import threading
import time

import pytest

from core.db import ahead


def reading(count: int, read: list, fail_at: int | None = None):
    """`count` documents, noting each as it is read; failing at `fail_at` as a dropped connection would."""
    for n in range(count):
        if n == fail_at:
            raise ConnectionError("the database stopped answering")
        read.append(n)
        yield {"n": n}


def settled(read: list, expected: int) -> int:
    """How many were read once the reader has read `expected` (or 10 s passed) and then had a moment more."""
    deadline = time.monotonic() + 10
    while len(read) < expected and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(0.1)
    return len(read)


def readers() -> list[threading.Thread]:
    return [thread for thread in threading.enumerate() if thread.name == "read-ahead"]


def test_every_document_comes_once_in_order_in_batches_of_the_size():
    found = list(ahead.batches(reading(12, []), 5))
    assert [[doc["n"] for doc in batch] for batch in found] == [[0, 1, 2, 3, 4], [5, 6, 7, 8, 9], [10, 11]]
    assert list(ahead.batches(reading(0, []), 5)) == []
    assert not readers()


def test_the_next_batch_is_read_while_the_caller_works_and_no_further():
    read = []
    found = ahead.batches(reading(100, read), 10)
    try:
        next(found)  # the caller at work on its first batch
        assert settled(read, 20) == 20  # the next batch is read and waits for it; none after that
        next(found)
        assert settled(read, 30) == 30
    finally:
        found.close()
    assert not readers()


def test_an_error_of_the_read_is_raised_to_the_caller_after_the_batches_read_before_it():
    found = ahead.batches(reading(100, [], fail_at=23), 10)
    assert [len(next(found)) for _ in range(2)] == [10, 10]
    with pytest.raises(ConnectionError, match="stopped answering"):
        next(found)
    assert not readers()


def test_a_caller_that_fails_mid_read_leaves_no_thread_reading_behind_it():
    read = []
    with pytest.raises(KeyError):
        for batch in ahead.batches(reading(10_000, read), 10):
            raise KeyError(batch[0]["n"])
    assert not readers()
    assert len(read) <= 31
