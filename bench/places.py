"""How many of the demo station's listeners a place named at each level takes, through the shared filter, search's
reading of a query, search's `location` parameter and a brief's strict reading (docs/decisions.md §5b).

    .venv/bin/python -m bench.places --listeners 400 20000

It uses only what every version of the code has (parse_filters, build_vocabulary, read_criteria, and search's
`location`, core.search.search._with_location before the gazetteer), so that the same script measures the older code:
`PYTHONPATH=/path/to/older/checkout .venv/bin/python bench/places.py`.
"""
from __future__ import annotations

import argparse
from collections import Counter
from datetime import UTC, datetime

import numpy as np

from core.demo.station import generate_station
from core.explore.filters import parse_filters
from core.explore.operations import Selection
from core.listeners.snapshot_rows import Snapshot
from core.search import search
from core.search.understanding import read_criteria
from core.search.vocabulary import build_vocabulary
from core.stations.models import Company

NAMES = ("Gauteng", "KZN", "Joburg", "Eastern Cape", "Soweto", "Limpopo")
NOW = datetime(2026, 11, 20, 12, tzinfo=UTC)


def demo_locations(listeners: int, seed: int = 7) -> Snapshot:
    """The demo station's declared locations as a snapshot's column (the rest is not needed here)."""
    held = [row.get("location") for row in generate_station(1, listeners, seed, NOW).profiles()]
    vocab = sorted({v for v in held if v})
    code = {v: i for i, v in enumerate(vocab)}
    cols = {"originator": np.array([str(i) for i in range(len(held))]),
            "location": np.array([code.get(v, -1) for v in held], dtype=np.int32)}
    return Snapshot(1, cols, {"location": vocab})


def taken(snap: Snapshot, values) -> int:
    codes = [i for i, v in enumerate(snap.vocab["location"]) if v in set(values)]
    return int(np.isin(snap.cols["location"], codes).sum())


def measure(snap: Snapshot) -> list[dict]:
    """Per name: listeners taken by the filter, the query "listeners in NAME", the `location` parameter, a brief."""
    vocab = build_vocabulary(1, "Africa/Johannesburg", snap.vocab, {}, {})
    everyone = Selection(Company(company_id=1), snap, np.ones(len(snap), dtype=bool))
    out = []
    for name in NAMES:
        read = getattr(search, "with_location", getattr(search, "_with_location", None))(everyone, name)
        located = read[0] if isinstance(read, tuple) else read
        query = [i for i in read_criteria(vocab, f"listeners in {name}", lenient=True)[0] if i["field"] == "location"]
        brief = [i for i in read_criteria(vocab, f"Young people in {name} who love amapiano")[0]
                 if i["field"] == "location"]
        out.append({"name": name, "filter": int(parse_filters({"location": [name]}).mask(snap).sum()),
                    "query": taken(snap, {v for i in query for v in i["values"]}),
                    "location": int(located.mask.sum()),
                    "brief": taken(snap, {v for i in brief for v in i["values"]})})
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--listeners", type=int, nargs="+", default=[400, 20000])
    for size in parser.parse_args().listeners:
        snap = demo_locations(size)
        held = Counter(snap.vocab["location"][c] for c in snap.cols["location"].tolist() if c >= 0)
        print(f"\n{size:,} listeners, {sum(held.values()):,} with a location: {dict(held.most_common())}")
        print(f"{'name':<14}{'filter':>8}{'query':>8}{'location=':>11}{'brief':>8}")
        for row in measure(snap):
            print(f"{row['name']:<14}{row['filter']:>8}{row['query']:>8}{row['location']:>11}{row['brief']:>8}")


if __name__ == "__main__":
    main()
