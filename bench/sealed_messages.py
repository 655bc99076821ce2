"""What sealing interaction messages costs: `python -m bench.sealed_messages [--sizes 20000 100000]`.

On an embedded database of its own (DATA_DIR bench/data/sealed-messages, wiped first), for each size: that many
listeners' interaction batches (20 interactions each, 16 of them with a message: the generated station sends one
with 85% of its interactions not by voice), written
1,000 to a write as an import writes them, then every message read back as the embedding and the language inference
read them (`core.listeners.events.message_batches`). The baseline in the same run writes and reads the same batches
plain, under another station. Then one listener's history (the listener page) with 1, 10 and 50 batches, each in a
group of its own as daily imports make them, sealed and plain, median of 5; and the sealing half of an erasure of a
listener whose group holds 249 others (`core.listeners.sealed_messages.erase`). "Cold" reads the history with no
content key in memory, as a fresh process does; the others are a process that read it before.
"""
from __future__ import annotations

import argparse
import shutil
import statistics
import time
from pathlib import Path

DATA = Path("bench/data/sealed-messages")
SEALED, PLAIN, WRITE, REPEATS = 1, 2, 1000, 5
NOW_MS = 1_790_000_000_000


def timed_s(work) -> tuple[float, object]:
    started = time.perf_counter()
    result = work()
    return time.perf_counter() - started, result


def batches(company_id: int, originators: list[str], import_id: str = "bench") -> list[dict]:
    from core.listeners.events import batch_document

    messages = [f"Please play Jerusalema for my gogo, listener {{}} number {k}" if k % 5 else None
                for k in range(20)]
    return [batch_document(company_id, o, import_id, [NOW_MS - k * 3_600_000 for k in range(20)], [2] * 20,
                           ["song_request"] * 20, [None] * 20, [m and m.format(o) for m in messages],
                           [f"{import_id}:{o}:{k}" for k in range(20)]) for o in originators]


def write(company_id: int, originators: list[str], sealed: bool) -> None:
    from core.db.quirks import insert_all
    from core.listeners.events import write_batches
    from core.listeners.models import InteractionBatch

    for start in range(0, len(originators), WRITE):
        docs = batches(company_id, originators[start:start + WRITE])
        write_batches(docs) if sealed else insert_all(InteractionBatch._get_collection(), docs)


def history_ms(company_id: int, originator: str, cold: bool = False) -> float:
    """Median milliseconds to read a listener's history; `cold`: no content key in memory, as in a fresh process."""
    from core.listeners.events import listener_history
    from core.listeners.sealed_messages import GROUPS

    def read():
        if cold:
            GROUPS.forget()
        return timed_s(lambda: listener_history(company_id, originator))[0] * 1000

    return statistics.median(read() for _ in range(REPEATS))


def measure(size: int) -> dict:
    from core.db.quirks import insert_all
    from core.listeners import sealed_messages
    from core.listeners.events import message_batches, write_batches
    from core.listeners.models import InteractionBatch, MessageKey

    InteractionBatch._get_collection().delete_many({})
    MessageKey._get_collection().delete_many({})
    originators = [f"2783{i:07d}" for i in range(size)]
    row = {"listeners": f"{size:,}"}
    row["write plain, s"], _ = timed_s(lambda: write(PLAIN, originators, sealed=False))
    row["write sealed, s"], _ = timed_s(lambda: write(SEALED, originators, sealed=True))
    row["read all plain, s"], plain = timed_s(lambda: message_batches(PLAIN, None))
    row["read all sealed, s"], opened = timed_s(lambda: message_batches(SEALED, None))
    assert [d["messages"] for d in opened] == [d["messages"] for d in plain]
    for count in (1, 10, 50):
        reader = f"2784{count:07d}"
        for day in range(count):  # a write each: a group each
            write_batches(batches(SEALED, [reader], f"day{day}"))
            insert_all(InteractionBatch._get_collection(), batches(PLAIN, [reader], f"day{day}"))
        row[f"history of {count} plain, ms"] = history_ms(PLAIN, reader)
        row[f"history of {count} sealed, ms"] = history_ms(SEALED, reader)
        row[f"history of {count} sealed cold, ms"] = history_ms(SEALED, reader, cold=True)
    row["erase one (249 others in its group), s"], _ = timed_s(lambda: sealed_messages.erase(SEALED, originators[0]))
    return {name: value if isinstance(value, str) else f"{value:.2f}" if value < 100 else f"{value:.0f}"
            for name, value in row.items()}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.sealed_messages", description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[20_000, 100_000])
    args = parser.parse_args(argv)
    from bench.station import markdown
    from core.config import Settings
    from core.db.embedded import stop
    from core.service import startup

    shutil.rmtree(DATA, ignore_errors=True)
    startup.start(Settings(data_dir=DATA, database_name="bench_sealed_messages", auto_embed=False))
    try:
        rows = [measure(size) for size in args.sizes]
    finally:
        startup.stop()
        stop(DATA)
    print("the plain baseline writes and reads the same batches unsealed; history: median of "
          f"{REPEATS}, each batch in a group of its own\n")
    print(markdown(rows))


if __name__ == "__main__":
    main()
