"""A web process's stations kept caught up in the background: every few seconds, the vector and lexical index of
each station whose vectors moved (a worker embedded an import, a live batch, a run) are read and tokenised off the
request threads, so that a producer's search finds them current rather than doing that work first.

A request still catches up what the follower has not reached yet (what was written in the last EVERY_S): results
are never older than MongoDB's, only faster to come.
"""
from __future__ import annotations

import logging
import os
import threading

from core.db import connection
from core.search import process_indexes

log = logging.getLogger(__name__)

EVERY_S = 5.0
"""Seconds between two looks at the stations' counters (one query for all of them)."""
_follower: tuple[int, threading.Thread] | None = None
"""The process that started the follower, and its thread (a forked child inherits neither the thread nor its work)."""


def start_following(every: float = EVERY_S, stop: threading.Event | None = None) -> threading.Thread | None:
    """Start this process's follower, a daemon thread that ends with the process or when `stop` is set; None when
    one already runs in this process."""
    global _follower
    if _follower is not None and _follower[0] == os.getpid() and _follower[1].is_alive():
        return None
    thread = threading.Thread(target=_follow, args=(every, stop or threading.Event()), name="index-follower",
                              daemon=True)
    thread.start()
    _follower = (os.getpid(), thread)
    return thread


def _follow(every: float, stop: threading.Event) -> None:
    """Catch up what moved, every `every` seconds, until stopped. A failure is logged and tried again at the next
    look: a follower that ended on one would leave every later search to catch up on its request thread."""
    while not stop.wait(every):
        try:
            process_indexes.load_every_index()
        except connection.UNAVAILABLE:
            log.debug("the database did not answer the index follower; it looks again in %s s", every)
        except Exception:  # noqa: BLE001 - see the docstring: the loop must outlive any one failure
            log.exception("catching up the station indexes failed; the follower looks again in %s s", every)
