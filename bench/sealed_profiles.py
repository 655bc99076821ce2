"""What sealing listeners' personal fields costs: `python -m bench.sealed_profiles [--sizes 20000 100000]`.

On an embedded database of its own (DATA_DIR bench/data/sealed-profiles, wiped first), for each size: that many
listeners with declared fields (name, e-mail, number, gender, age group, location, language, two tags), written 1,000
to a write as the profiles import writes new listeners, then every listener read back as a segmentation run reads
them (`core.listeners.declared.read_listeners`). The baseline in the same run writes and reads the same documents
plain, under another station. Then one listener read as the listener page reads it (`find_listener`), sealed and
plain, median of 20 ("cold": no content key in memory, as a fresh process); one write of a field as a promotion makes
it (`sealed_writes.edit`) against a plain `$set`; and the sealing half of an erasure of a listener whose group holds
249 others (`sealed_writes.erase`).
"""
from __future__ import annotations

import argparse
import shutil
import statistics
import time
from pathlib import Path

DATA = Path("bench/data/sealed-profiles")
SEALED, PLAIN, WRITE, REPEATS = 1, 2, 1000, 20
PLACES = ("Soweto", "Umlazi", "Bloemfontein", "Polokwane", "Gqeberha")


def timed_s(work) -> tuple[float, object]:
    started = time.perf_counter()
    result = work()
    return time.perf_counter() - started, result


def listeners(company_id: int, originators: list[str]) -> list[dict]:
    from core.clock import utcnow

    return [{"company_id": company_id, "originator": o, "name": f"Listener {o[-5:]} Mokoena",
             "email": f"listener{o[-5:]}@example.org", "mobile_number": f"+{o}", "gender": ("female", "male")[i % 2],
             "age_group": "25-34", "location": PLACES[i % len(PLACES)], "language": "isiZulu",
             "tags": ["gospel", "morning"], "inferred": {}, "opt_in": True, "created_at": utcnow()}
            for i, o in enumerate(originators)]


def write(company_id: int, originators: list[str], sealed: bool) -> None:
    from core.db.quirks import insert_all
    from core.listeners import sealed_writes
    from core.listeners.models import Listener

    for start in range(0, len(originators), WRITE):
        docs = listeners(company_id, originators[start:start + WRITE])
        if sealed:
            sealed_writes.insert(company_id, docs)
        else:
            insert_all(Listener._get_collection(), docs)


def median_ms(work, cold: bool = False) -> float:
    from core.listeners.sealed_profiles import GROUPS

    def once():
        if cold:
            GROUPS.forget()
        return timed_s(work)[0] * 1000

    return statistics.median(once() for _ in range(REPEATS))


def measure(size: int) -> dict:
    from core.explore.listener import find_listener
    from core.listeners import sealed_writes
    from core.listeners.declared import read_listeners
    from core.listeners.models import Listener, ProfileKey

    Listener._get_collection().delete_many({})
    ProfileKey._get_collection().delete_many({})
    from core.stations.models import Company

    originators = [f"2783{i:07d}" for i in range(size)]
    Company._get_collection().update_one({"company_id": PLAIN}, {"$set": {"originators_keyed": False}}, upsert=True)
    row = {"listeners": f"{size:,}"}
    row["write plain, s"], _ = timed_s(lambda: write(PLAIN, originators, sealed=False))
    row["write sealed, s"], _ = timed_s(lambda: write(SEALED, originators, sealed=True))
    row["read all plain, s"], plain = timed_s(lambda: read_listeners(PLAIN))
    row["read all sealed, s"], opened = timed_s(lambda: read_listeners(SEALED))
    assert [(d["name"], d["tags"]) for d in opened] == [(d["name"], d["tags"]) for d in plain]
    one = originators[size // 2]
    row["page read plain, ms"] = median_ms(lambda: find_listener(PLAIN, one))
    row["page read sealed, ms"] = median_ms(lambda: find_listener(SEALED, one))
    row["page read sealed cold, ms"] = median_ms(lambda: find_listener(SEALED, one), cold=True)
    collection = Listener._get_collection()
    row["one field plain, ms"] = median_ms(lambda: collection.update_one(
        {"company_id": PLAIN, "originator": one}, {"$set": {"education": "Matric"}}))
    row["one field sealed, ms"] = median_ms(lambda: sealed_writes.edit(
        SEALED, {one: lambda _: {"education": "Matric"}}))
    row["erase one (249 others in its group), s"], _ = timed_s(lambda: sealed_writes.erase(SEALED, originators[0]))
    return {name: value if isinstance(value, str) else f"{value:.2f}" if value < 100 else f"{value:.0f}"
            for name, value in row.items()}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.sealed_profiles", description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[20_000, 100_000])
    args = parser.parse_args(argv)
    from bench.station import markdown
    from core.config import Settings
    from core.db.embedded import stop
    from core.service import startup

    shutil.rmtree(DATA, ignore_errors=True)
    startup.start(Settings(data_dir=DATA, database_name="bench_sealed_profiles", auto_embed=False))
    try:
        rows = [measure(size) for size in args.sizes]
    finally:
        startup.stop()
        stop(DATA)
    print(f"the plain baseline writes and reads the same documents unsealed; page reads and field writes: median of "
          f"{REPEATS}\n")
    print(markdown(rows))


if __name__ == "__main__":
    main()
