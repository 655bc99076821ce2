"""Parse-brief and recommend benchmarks: quality on the 36 briefs of tests/data/briefs.json (the share of expected
criteria found, the share of returned criteria that were not expected) and, on the station a `bench.run` left,
parse-brief median ms and recommend uncached and cached ms through the API with the local provider.

Alone, on a database a `bench.run` left: `python -m bench.briefs --size 100000`; with `--demo`, on a demo station of
that size made for the run in a temporary folder. A criterion is a (field, value)
pair: each value of a filter, the dates as start/end, the budget as amount and currency, the goal.
"""
from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from pathlib import Path

BRIEFS = Path(__file__).resolve().parents[1] / "tests" / "data" / "briefs.json"
REPEAT = 15


def load_briefs() -> dict:
    """The briefs with their expected criteria, and the reference time their dates are relative to."""
    return json.loads(BRIEFS.read_text())


def pairs(criteria: list[dict]) -> set[tuple[str, str]]:
    """Criteria as comparable (field, value) pairs."""
    out = set()
    for c in criteria:
        values = c["values"]
        if c["field"] == "dates":
            out.add(("dates", f"{values[0]}/{values[1]}"))
        elif c["field"] == "budget":
            out.add(("budget", f"{float(values[0]):g} {values[1]}"))
        else:
            out.update((c["field"], str(v).casefold()) for v in values)
    return out


def score(read: Callable[[str], dict], briefs: list[dict]) -> dict:
    """Found and invented shares over the briefs, and each brief's misses and inventions (for reading)."""
    expected_n = found_n = returned_n = invented_n = unmapped_n = unmapped_found = 0
    details = []
    for case in briefs:
        parsed = read(case["brief"])
        expected, returned = pairs(case["expected"]), pairs(parsed["criteria"])
        said = [u["words"].casefold() for u in parsed["unmapped"]]
        caught = [u for u in case["unmapped"] if any(u.casefold() in s or s in u.casefold() for s in said)]
        expected_n, found_n = expected_n + len(expected), found_n + len(expected & returned)
        returned_n, invented_n = returned_n + len(returned), invented_n + len(returned - expected)
        unmapped_n, unmapped_found = unmapped_n + len(case["unmapped"]), unmapped_found + len(caught)
        details.append({"id": case["id"], "missed": sorted(expected - returned),
                        "invented": sorted(returned - expected)})
    return {"briefs": len(briefs), "expected": expected_n, "found": found_n, "returned": returned_n,
            "invented": invented_n, "found_share": round(found_n / max(1, expected_n), 3),
            "invented_share": round(invented_n / max(1, returned_n), 3),
            "unmapped_share": round(unmapped_found / max(1, unmapped_n), 3), "details": details}


def quality(company_id: int, part: str = "briefs") -> dict:
    """The score of the local provider on the briefs (or the held-out ones), with the station's vocabulary, at the
    briefs' reference time."""
    from datetime import datetime

    from core.campaigns.brief import read
    from core.search.vocabulary import station_vocabulary

    data = load_briefs()
    vocab, now = station_vocabulary(company_id), datetime.fromisoformat(data["reference_time"])
    return score(lambda text: read(vocab, text, now), data[part])


def bench_briefs(ctx) -> dict:
    """Quality on the 36 briefs, and median ms of parse-brief and recommend (uncached, cached) through the API."""
    from bench.station import client as station_client
    from core.campaigns.models import CachedRecommendation
    from core.credits.ledger import load

    client, headers = station_client(ctx)
    load(ctx.company_id, 5 * 3 * REPEAT + 2 * REPEAT + 100, note="bench")
    CachedRecommendation.objects(company_id=ctx.company_id).delete()
    briefs = [case["brief"] for case in load_briefs()["briefs"]][:REPEAT]
    root = f"/api/v1/agent/{ctx.company_id}"
    parse = [_timed(client, headers, f"{root}/parse-brief", {"brief": b}) for b in briefs]
    fresh = [_timed(client, headers, f"{root}/recommend", {"brief": b}) for b in briefs]
    cached = [_timed(client, headers, f"{root}/recommend", {"brief": b}) for b in briefs]
    found, held_out = quality(ctx.company_id), quality(ctx.company_id, "held_out")
    return {"briefs found share": f"{found['found_share']:.3f}", "briefs invented share":
            f"{found['invented_share']:.3f}", "held-out found / invented": f"{held_out['found_share']:.3f} / "
            f"{held_out['invented_share']:.3f}", "parse-brief ms": f"{statistics.median(parse):.0f}",
            "recommend uncached ms": f"{statistics.median(fresh):.0f}",
            "recommend cached ms": f"{statistics.median(cached):.1f}"}


def _timed(client, headers, path: str, body: dict) -> float:
    started = time.perf_counter()
    answer = client.post(path, headers=headers, json=body)
    elapsed = (time.perf_counter() - started) * 1000
    assert answer.status_code == 200, answer.get_data(as_text=True)[:300]
    return elapsed


def demo_station(size: int, folder: Path):
    """A demo station of `size` listeners on an embedded database under `folder` (when no `bench.run` station is
    free to measure on): the context that bench_briefs needs."""
    from types import SimpleNamespace

    from core.config import Settings
    from core.demo.seed import seed_demo
    from core.service import startup

    settings = Settings(data_dir=folder, database_name="bench_briefs", auto_embed=False)
    startup.start(settings)
    seed_demo(1, size, seed=7)
    return SimpleNamespace(company_id=1, settings=settings, found={})


def main(argv: list[str] | None = None) -> None:
    """Run on the database that `python -m bench.run --sizes N` left under bench/data/run-N, or with --demo on a demo
    station of that size made in a temporary folder (and removed after)."""
    from bench.station import existing_station, markdown

    parser = argparse.ArgumentParser(prog="python -m bench.briefs", description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--demo", action="store_true", help="measure on a demo station made for the run")
    args = parser.parse_args(argv)
    if not args.demo:
        print(markdown([{"size": f"{args.size:,}", **bench_briefs(existing_station(args.size))}]))
        return
    import shutil
    import tempfile

    from core.db import embedded

    folder = Path(tempfile.mkdtemp(prefix="bench-briefs-"))
    try:
        print(markdown([{"size": f"{args.size:,} (demo)", **bench_briefs(demo_station(args.size, folder))}]))
    finally:
        embedded.stop(folder)
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
