"""Write Mokgosi FM as import files: `python -m bench.other_station.generate --out bench/data/other --size 20000`.

The folder gets channels.jsonl, shows.jsonl, profiles.jsonl, interactions.jsonl (ingest.md, company_id 2),
meta.json (size, seed, now, the station's name and zone, row counts) and truth/: what the generator knows and the
rows only show (README.md). The same (size, seed, now) always give the same files; listener i is the same at any size.
"""
from __future__ import annotations

import argparse
import json
import re
from collections import defaultdict
from datetime import datetime
from pathlib import Path

import numpy as np

from bench.other_station import catalogue as cat
from bench.other_station import places as pl
from bench.other_station import words as w
from bench.other_station.calendar import Calendar
from bench.other_station.history import Event, events_of
from bench.other_station.people import person, profile_row

DEFAULT_OUT = Path("bench/data/other")
DEFAULT_SIZE, DEFAULT_SEED = 20_000, 2027
DEFAULT_NOW = "2026-09-30T16:00:00+00:00"  # fixed, and not the demo's
KINDS = ("channels", "shows", "profiles", "interactions")


def channel_rows():
    """The station's six channels, with their own numbers and names."""
    for channel_type, name in cat.CHANNELS.items():
        yield {"company_id": cat.COMPANY_ID, "channel_type": channel_type, "name": name}


def show_rows():
    """The week's shows (some hours have none)."""
    for slot, (title, days, start, end, _) in cat.SHOWS.items():
        yield {"company_id": cat.COMPANY_ID, "timeslot_id": slot, "title": title, "days": list(days),
               "start": start, "end": end}


def interaction_row(originator: str, e: Event, rank: int, seed: int, index: int, named: bool) -> dict:
    """One interaction in the import format; the show is named on some rows and left to the schedule on others."""
    stamp = np.datetime64(int(e.t + cat.OFFSET_HOURS * 3600), "s").astype(str) + cat.OFFSET
    row = {"company_id": cat.COMPANY_ID, "originator": originator, "timestamp": stamp, "channel_type": e.channel,
           "campaign_type": e.kind, "interaction_id": f"mk{seed}-{index}-{rank}"}
    if named and e.slot is not None:
        row["timeslot_id"] = e.slot
    if e.message is not None:
        row["message"] = e.message
    return row


class Writer:
    """JSON Lines files written under a temporary name and renamed when complete."""

    def __init__(self, folder: Path):
        self.folder, self.handles, self.counts = folder, {}, defaultdict(int)

    def write(self, kind: str, row: dict) -> None:
        if kind not in self.handles:
            self.handles[kind] = open(self.folder / f"{kind}.jsonl.partial", "w", encoding="utf-8")
        self.handles[kind].write(json.dumps(row, ensure_ascii=False, separators=(",", ":")) + "\n")
        self.counts[kind] += 1

    def close(self) -> dict:
        for kind, handle in self.handles.items():
            handle.close()
            (self.folder / f"{kind}.jsonl.partial").rename(self.folder / f"{kind}.jsonl")
        return dict(self.counts)


def slug(name: str) -> str:
    """A file name's part for a province or a key."""
    return re.sub(r"[^a-z0-9]+", "-", name.casefold()).strip("-")


def write_truth(folder: Path, truth: dict[str, set[str]]) -> dict[str, int]:
    """truth/<key>.txt (one originator a line, sorted) and truth/places.json; returns each key's count."""
    (folder / "truth").mkdir(exist_ok=True)
    for key, who in truth.items():
        (folder / "truth" / f"{key}.txt").write_text("".join(f"{o}\n" for o in sorted(who)))
    (folder / "truth" / "places.json").write_text(json.dumps(pl.written_places(), indent=1, ensure_ascii=False))
    return {key: len(who) for key, who in sorted(truth.items())}


def empty_truth() -> dict[str, set[str]]:
    """Every key a query may name, empty until someone holds it (an empty file is an answer too)."""
    keys = [f"taste-{t}" for t in w.MESSAGE_TASTES] + [f"theme-{t}" for t in w.THEMES]
    keys += [f"held-{t}" for t in cat.TASTES]
    keys += [f"province-{slug(p)}" for p in sorted({p for p in pl.written_places().values() if p})]
    return {key: set() for key in keys}


def _listener(writer: Writer, truth: dict, seed: int, index: int, cal: Calendar) -> None:
    p = person(seed, index)
    profile = profile_row(p, np.random.default_rng([seed, index, 65]))
    if profile is not None:
        writer.write("profiles", profile)
        if "location" in profile and (province := pl.province_of(profile["location"])):
            truth[f"province-{slug(province)}"].add(p.originator)
        for taste in p.tastes:
            if cat.TASTES[taste][0] in profile.get("tags", ()):
                truth[f"held-{taste}"].add(p.originator)
    rng = np.random.default_rng([seed, index, 66])
    for rank, e in enumerate(events_of(p, cal, rng)):
        writer.write("interactions", interaction_row(p.originator, e, rank, seed, index, rng.random() < 0.7))
        for key in e.said | ({f"held-{cat.SHOWS[p.fav][4]}"} if e.at_show and cat.SHOWS[p.fav][4] else set()):
            truth[key].add(p.originator)


def generate(out: Path = DEFAULT_OUT, size: int = DEFAULT_SIZE, seed: int = DEFAULT_SEED, now: str = DEFAULT_NOW,
             echo=print) -> Path:
    """Write the station's files and truth into `out`; returns `out`."""
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "meta.json").unlink(missing_ok=True)  # written last: a folder with it is complete
    moment = datetime.fromisoformat(now)
    writer, truth, cal = Writer(folder), empty_truth(), Calendar(moment)
    for row in channel_rows():
        writer.write("channels", row)
    for row in show_rows():
        writer.write("shows", row)
    for index in range(size):
        _listener(writer, truth, seed, index, cal)
    meta = {"station": cat.STATION_NAME, "company_id": cat.COMPANY_ID, "timezone": cat.TIMEZONE,
            "listeners": size, "seed": seed, "now": moment.isoformat(), "rows": writer.close(),
            "truth": write_truth(folder, truth)}
    (folder / "meta.json").write_text(json.dumps(meta, indent=2))
    echo(f"{size:,} listeners of {cat.STATION_NAME} (seed {seed}) in {folder}: {meta['rows']}")
    return folder


def is_generated(folder: Path, size: int, seed: int) -> bool:
    """True when `folder` holds a complete station of this size and seed."""
    meta = Path(folder) / "meta.json"
    return meta.exists() and (lambda m: m["listeners"] == size and m["seed"] == seed)(json.loads(meta.read_text()))


def main(argv: list[str] | None = None) -> None:
    """Command line entry point."""
    parser = argparse.ArgumentParser(prog="python -m bench.other_station.generate",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--size", type=int, default=DEFAULT_SIZE)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--now", default=DEFAULT_NOW, help="reference time, ISO 8601 with an offset")
    args = parser.parse_args(argv)
    generate(args.out, args.size, args.seed, args.now)


if __name__ == "__main__":
    main()
