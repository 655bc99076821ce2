"""What sealing a snapshot file costs: `python -m bench.sealed_files [--sizes 100000 1000000]`.

On an embedded database of its own (DATA_DIR bench/data/sealed-files, wiped first): the demo station seeded at 2,000
listeners, its snapshot repeated to each size (the copies' numbers start with 9). For each size, milliseconds to write
the snapshot as a GridFS file and to read it back whole (no host maps), median of three. The baseline packs, writes,
reads and unpacks the same snapshot plain in the same run; the sealed figures are what `core.listeners.snapshot` does
(a data key made for the file, the bytes under AES-256-GCM, the content key sealed by libmongocrypt), and the cost of
destroying the key when a newer file replaces it.
"""
from __future__ import annotations

import argparse
import shutil
import statistics
import time
from pathlib import Path

import numpy as np

DATA = Path("bench/data/sealed-files")
COMPANY, SEEDED, REPEATS = 1, 2000, 3


def timed_ms(work) -> tuple[float, object]:
    started = time.perf_counter()
    result = work()
    return (time.perf_counter() - started) * 1000, result


def median_ms(work) -> float:
    return statistics.median(timed_ms(work)[0] for _ in range(REPEATS))


def repeated(snap, size: int):
    """The snapshot's rows repeated to `size`, each copy under numbers of its own."""
    from core.listeners.snapshot import Snapshot, concat

    copies = [snap] + [Snapshot(snap.company_id, {**snap.cols, "originator": np.array(
        [f"9{k:02d}{o[3:]}" for o in snap.originators.tolist()])}, snap.vocab, dict(snap.meta))
        for k in range(1, -(-size // len(snap)))]
    return concat(copies).take(np.arange(size))


def measure(seeded, size: int) -> dict:
    import gridfs

    from core.db.connection import get_db
    from core.listeners import snapshot_files
    from core.personal.vault_connection import key_vault

    snap = repeated(seeded, size)
    fs = gridfs.GridFSBucket(get_db(), "bench_plain")
    packed = snapshot_files.packed(snap)

    def plain_round_trip():
        file_id = fs.upload_from_stream("plain", snapshot_files.packed(snap))
        snapshot_files.unpacked(fs.open_download_stream(file_id).read())
        fs.delete(file_id)

    def sealed_write():
        return snapshot_files.save(snap)

    def sealed_read(file_id):
        stream = gridfs.GridFSBucket(get_db(), snapshot_files.BUCKET).open_download_stream(file_id)
        return snapshot_files.read(stream.read(), stream.metadata)

    row = {"listeners": f"{size:,}", "file MB": f"{len(packed) / 1e6:.1f}"}
    row["plain write+read, ms"] = f"{median_ms(plain_round_trip):.0f}"
    writes, reads, destroys = [], [], []
    for _ in range(REPEATS):
        ms, file_id = timed_ms(sealed_write)
        writes.append(ms)
        ms, read = timed_ms(lambda file_id=file_id: sealed_read(file_id))
        reads.append(ms)
        assert read.originators.tolist() == snap.originators.tolist()
        gridfs.GridFSBucket(get_db(), snapshot_files.BUCKET).delete(file_id)
        destroys.append(timed_ms(
            lambda file_id=file_id: key_vault().destroy([snapshot_files.key_name(COMPANY, file_id)]))[0])
    row["sealed write, ms"] = f"{statistics.median(writes):.0f}"
    row["sealed read, ms"] = f"{statistics.median(reads):.0f}"
    row["sealed write+read, ms"] = f"{statistics.median(writes) + statistics.median(reads):.0f}"
    row["destroy key, ms"] = f"{statistics.median(destroys):.1f}"
    return row


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.sealed_files", description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100_000, 1_000_000])
    args = parser.parse_args(argv)
    from bench.station import markdown
    from core.config import Settings
    from core.db.embedded import stop
    from core.demo.seed import seed_demo
    from core.listeners import snapshot
    from core.service import startup

    shutil.rmtree(DATA, ignore_errors=True)
    startup.start(Settings(data_dir=DATA, database_name="bench_sealed_files", auto_embed=False))
    try:
        seed_demo(COMPANY, SEEDED, seed=7)
        seeded = snapshot.current(COMPANY)
        rows = [measure(seeded, size) for size in args.sizes]
    finally:
        startup.stop()
        stop(DATA)
    print(f"median of {REPEATS}; the plain baseline packs, writes, reads and unpacks the same snapshot unsealed\n")
    print(markdown(rows))


if __name__ == "__main__":
    main()
