"""AI benchmarks. In `bench.run`: the AI listener profile through the API with the local provider, uncached (a new
inference: look-alike vote, message language, charge, cache, re-profile of the listener) and cached, median of
REPEAT listeners each; the first inference of a process (which builds the station's look-alike panel and its
calibration) is reported apart. Alone, on a database a `bench.run` left: `python -m bench.ai --size 100000`.
"""
from __future__ import annotations

import argparse
import statistics
import time

from bench.station import client as station_client

REPEAT = 15


def bench_ai_profile(ctx) -> dict:
    """Median milliseconds of GET /api/v1/ai/listeners/{company}/{originator}, new and cached."""
    from core.ai.models import AiProfile
    from core.credits.ledger import load
    from core.listeners import snapshot

    client, headers = station_client(ctx)
    AiProfile.objects(company_id=ctx.company_id).delete()  # every listener asked is new to the cache
    load(ctx.company_id, 1000, note="bench")
    people = snapshot.current(ctx.company_id).originators
    chosen = [str(o) for o in people[:: max(1, len(people) // (REPEAT + 1))][: REPEAT + 1]]
    url = f"/api/v1/ai/listeners/{ctx.company_id}/" + "{}"
    first = _timed(client, headers, url.format(chosen[0]))
    new = [_timed(client, headers, url.format(o)) for o in chosen[1:]]
    cached = [_timed(client, headers, url.format(o)) for o in chosen[1:]]
    return {"AI profile first of a process ms": f"{first:.0f}", "AI profile new ms": f"{statistics.median(new):.0f}",
            "AI profile cached ms": f"{statistics.median(cached):.1f}"}


def _timed(client, headers, path: str) -> float:
    started = time.perf_counter()
    answer = client.get(path, headers=headers)
    elapsed = (time.perf_counter() - started) * 1000
    assert answer.status_code == 200, answer.get_data(as_text=True)[:300]
    return elapsed


def main(argv: list[str] | None = None) -> None:
    """Run on the database that `python -m bench.run --sizes N` left under bench/data/run-N."""
    from bench.station import existing_station, markdown

    parser = argparse.ArgumentParser(prog="python -m bench.ai", description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=100_000)
    args = parser.parse_args(argv)
    print(markdown([{"size": f"{args.size:,}", **bench_ai_profile(existing_station(args.size))}]))


if __name__ == "__main__":
    main()
