"""The console holds our lines at the process's level and libraries' from WARNING only: bm25s sets its own logger to
DEBUG when imported, and its lines (like any library's) must not fill the console."""
from __future__ import annotations

import io
import json
import logging

import bm25s  # noqa: F401 - imported as the search does, which sets its logger to DEBUG

from core import logs


def console(monkeypatch, level: int = logging.DEBUG) -> io.StringIO:
    """A freshly configured console (the root's handlers restored after the test) writing into a buffer."""
    root = logging.getLogger()
    monkeypatch.setattr(root, "handlers", [])
    monkeypatch.setattr(root, "level", root.level)
    logs.configure(level)
    stream = io.StringIO()
    root.handlers[0].setStream(stream)
    return stream


def test_a_library_s_debug_and_info_lines_are_off_by_default_and_ours_pass(monkeypatch):
    stream = console(monkeypatch)
    assert logging.getLogger("bm25s").getEffectiveLevel() == logging.DEBUG  # as bm25s leaves it
    logging.getLogger("bm25s").debug("tokenizing 5000 documents")
    logging.getLogger("pymongo.command").info("command started")
    logging.getLogger("core.search.lexical").debug("our own detail")
    logging.getLogger("bm25s").warning("a library's warning")
    said = [json.loads(line)["message"] for line in stream.getvalue().splitlines()]
    assert said == ["our own detail", "a library's warning"]


def test_libraries_lines_can_be_let_through_at_a_lower_level_when_asked():
    quiet = logs.LibrariesQuiet(logging.DEBUG)
    record = logging.LogRecord("bm25s", logging.DEBUG, __file__, 1, "x", None, None)
    assert quiet.filter(record) and not logs.LibrariesQuiet().filter(record)
