"""Write demo stations of several sizes as import files: `python -m bench.generate --sizes 10000 100000`.

Each size gets a folder `<out>/<size>/` with channels.jsonl, shows.jsonl, profiles.jsonl, interactions.jsonl and
meta.json (seed, now, row counts). Rows are streamed to disk; a size whose files all exist is skipped. Files are
written under a temporary name and renamed when complete, so an interrupted run never leaves a file that looks done.
"""
from __future__ import annotations

import argparse
import json
import time
from datetime import datetime
from pathlib import Path

from core.demo.station import generate_station
from core.ingest.importer import KINDS

DEFAULT_OUT = Path(__file__).resolve().parent / "data"
DEFAULT_NOW = "2026-11-20T12:00:00+00:00"  # fixed, so that every machine benchmarks the same rows
DEFAULT_SEED = 7
COMPANY_ID = 1


def folder_of(out: Path, size: int) -> Path:
    """Where the files of one size live."""
    return Path(out) / str(size)


def is_generated(out: Path, size: int) -> bool:
    """True when every file of this size is complete."""
    folder = folder_of(out, size)
    return all((folder / name).exists() for name in [f"{kind}.jsonl" for kind in KINDS] + ["meta.json"])


def _write_rows(path: Path, rows) -> int:
    """Stream rows to a JSON Lines file; returns how many were written."""
    partial = path.with_suffix(".jsonl.partial")
    count = 0
    with open(partial, "w", encoding="utf-8", buffering=1 << 20) as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False, separators=(",", ":")))
            handle.write("\n")
            count += 1
    partial.rename(path)
    return count


def generate(size: int, out: Path = DEFAULT_OUT, seed: int = DEFAULT_SEED, now: str = DEFAULT_NOW,
             echo=print) -> Path:
    """Write the files of one size (unless they all exist); returns its folder."""
    folder = folder_of(out, size)
    if is_generated(out, size):
        echo(f"{size:>9,} listeners: already in {folder}")
        return folder
    folder.mkdir(parents=True, exist_ok=True)
    station = generate_station(COMPANY_ID, size, seed, datetime.fromisoformat(now))
    meta = {"listeners": size, "seed": seed, "now": station.now.isoformat(), "company_id": COMPANY_ID, "rows": {}}
    for kind in KINDS:
        started = time.perf_counter()
        meta["rows"][kind] = _write_rows(folder / f"{kind}.jsonl", getattr(station, kind)())
        echo(f"{size:>9,} listeners: {meta['rows'][kind]:>11,} {kind} in {time.perf_counter() - started:6.1f}s")
    (folder / "meta.json").write_text(json.dumps(meta, indent=2))
    return folder


def main(argv: list[str] | None = None) -> None:
    """Command line entry point."""
    parser = argparse.ArgumentParser(prog="python -m bench.generate", description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--now", default=DEFAULT_NOW, help="reference time, ISO 8601 (no offset means UTC)")
    args = parser.parse_args(argv)
    for size in args.sizes:
        generate(size, args.out, args.seed, args.now)


if __name__ == "__main__":
    main()
