"""Reading the next batch of a long read while the caller works on the last one.

A process that reads every stored text of a large station (a server's parent before it forks, at 1,000,000
listeners) spent as long waiting on the database as it did tokenising: 79 s and 62 s of CPU. The wait is a socket's,
which lets go of the GIL, so a thread that reads ahead overlaps the two. One batch ahead at most, so that memory
stays bounded by two batches.
"""
from __future__ import annotations

import itertools
import queue
import threading
from collections.abc import Iterable, Iterator

_END = object()


def batches(documents: Iterable[dict], size: int) -> Iterator[list[dict]]:
    """The documents in lists of `size`, the next list read in a thread while the caller works on this one. An error
    of the read is raised here, at the batch it stopped; a caller that stops early ends the thread before this
    returns (nothing keeps reading behind it, nothing is left running across a fork)."""
    handed: queue.Queue = queue.Queue()
    room, stopped = threading.Semaphore(1), threading.Event()  # room: batches the reader may read ahead
    reader = threading.Thread(target=_read, args=(iter(documents), size, handed, room, stopped), daemon=True,
                              name="read-ahead")
    reader.start()
    try:
        while (batch := handed.get()) is not _END:
            room.release()
            if isinstance(batch, BaseException):
                raise batch
            yield batch
    finally:
        stopped.set()
        reader.join()


def _read(documents: Iterator[dict], size: int, handed: queue.Queue, room: threading.Semaphore,
          stopped: threading.Event) -> None:
    try:
        while True:
            while not room.acquire(timeout=0.05):
                if stopped.is_set():
                    return
            if stopped.is_set() or not (batch := list(itertools.islice(documents, size))):
                break
            handed.put(batch)
    except BaseException as failed:  # noqa: BLE001 - handed to the caller's thread, raised there
        handed.put(failed)
        return
    handed.put(_END)
