"""What inference learned of a large station, copied (core.ai.learned): the next process opens the copy rather than
reading the panel and learning again, and answers exactly as the process that learned; a copy learned at another
fingerprint, too old, or made before an erasure is never opened."""
from __future__ import annotations

import numpy as np
import pytest

from core.ai import learned, memo
from core.ai.local import infer_listener
from core.listeners import snapshot, station_copies
from core.privacy.erasure import erase_listener
from tests.conftest import seeded

pytestmark = pytest.mark.db


@pytest.fixture
def station(app, monkeypatch):
    """The demo station (200 listeners), a copy being worth it from one listener; nothing learned in this process."""
    seeded(200)
    monkeypatch.setattr(learned, "WORTH_FROM", 1)
    memo.forget()
    yield snapshot.current(1)
    memo.forget()


def listeners(snap, n: int = 5) -> list[str]:
    return [str(o) for o in snap.originators[: n * 7 : 7]]


def copies() -> list[dict]:
    return list(station_copies.files().find({"metadata.kind": learned.KIND}))


def learning_refused(monkeypatch) -> None:
    def refused(*args, **kwargs):
        raise AssertionError("the process learned again rather than opening the copy")

    monkeypatch.setattr(learned, "build_panel", refused)
    monkeypatch.setattr(learned, "build_models", refused)


def test_the_next_process_opens_the_copy_and_answers_as_the_one_that_learned(station, monkeypatch):
    first = {o: infer_listener(1, o) for o in listeners(station)}
    assert len(copies()) == 1
    memo.forget()  # a new process
    learning_refused(monkeypatch)
    assert {o: infer_listener(1, o) for o in listeners(station)} == first


def test_a_copy_learned_at_another_fingerprint_or_too_long_ago_is_learned_again(station, monkeypatch):
    panel = learned.current_panel(station)
    memo.forget()
    monkeypatch.setattr(learned, "fingerprint", lambda snap: (0,) * 8)
    again = learned.current_panel(station)
    assert again.key[0] == (0,) * 8 and np.array_equal(again.originators, panel.originators)
    memo.forget()
    monkeypatch.setattr(memo, "MAX_AGE_S", 0)
    learning_refused(monkeypatch)
    with pytest.raises(AssertionError, match="learned again"):
        learned.current_panel(station)


def test_an_erasure_destroys_the_copy_and_nothing_learned_names_the_erased_listener(station):
    panel = learned.current_panel(station)
    erased = str(panel.originators[3])
    erase_listener(1, erased, "test-secret")
    assert copies() == []
    memo.forget()
    assert learned.current_panel(snapshot.current(1)).row_of(erased) == -1


def test_a_server_s_parent_opens_every_copy_before_it_forks_and_learns_nothing(station, monkeypatch):
    first = {o: infer_listener(1, o) for o in listeners(station)}
    memo.forget()
    learning_refused(monkeypatch)
    assert learned.open_every_copy() == 1
    assert {o: infer_listener(1, o) for o in listeners(station)} == first
