"""Custom segment and audience benchmarks, through the API with the local provider: a custom segment (limit 100) and
an audience creation (limit 500), median of the THEMES each, after a first call of the process reported apart (it
loads the model and embeds the station's vocabulary); then an audience of 5000 members (limit 5000, min_score 0, so
that it fills), its detail and the median of REFRESHES refreshes. Targets (issue 13): a custom segment or an audience
creation under 2 s, a refresh of 5000 members under 2 s.

Alone, on the station a `bench.run` left (embedded: `bench.search --embeddings`): `python -m bench.audiences --size
100000`.
"""
from __future__ import annotations

import argparse
import statistics
import time

from bench.station import client as station_client

THEMES = ("gospel lovers who enter competitions", "soccer fans who text in the morning",
          "young listeners who request amapiano songs", "people asking about jobs and money",
          "isiZulu speakers who love the breakfast show")
REFRESHES = 3
CREDITS = 1000


def bench_audiences(ctx) -> dict:
    """Milliseconds of custom segment, audience creation, and the detail and refresh of a 5000-member audience."""
    from core.audiences.models import Audience
    from core.credits.ledger import load

    client, headers = station_client(ctx)
    Audience.objects(company_id=ctx.company_id, name__startswith="bench ").delete()
    load(ctx.company_id, CREDITS, note="bench")
    segment_url, audiences_url = (f"/api/v1/ai/segments/{ctx.company_id}/custom-segment",
                                  f"/api/v1/audiences/{ctx.company_id}")
    first, _ = _timed(client.post, segment_url, headers, {"theme": "warm up: gospel and church"})
    segments = [_timed(client.post, segment_url, headers, {"theme": theme})[0] for theme in THEMES]
    creates = [_timed(client.post, audiences_url, headers, {"name": f"bench {n}", "theme": theme}, 201)
               for n, theme in enumerate(THEMES)]
    large_ms, large = _timed(client.post, audiences_url, headers,
                             {"name": "bench 5000", "theme": THEMES[0], "limit": 5000, "min_score": 0}, 201)
    url = f"{audiences_url}/{large['audience_id']}"
    detail_ms = statistics.median(_timed(client.get, url, headers)[0] for _ in range(REFRESHES))
    refreshes = [_timed(client.put, url + "/refresh", headers)[0] for _ in range(REFRESHES)]
    return {"custom segment first of a process ms": f"{first:.0f}",
            "custom segment ms": f"{statistics.median(segments):.0f}",
            "audience create ms": f"{statistics.median(ms for ms, _ in creates):.0f}",
            "members (limit 500)": f"{statistics.median(body['member_count'] for _, body in creates):.0f}",
            "create 5000 ms": f"{large_ms:.0f}", "5000 members": f"{large['member_count']:,}",
            "detail 5000 ms": f"{detail_ms:.0f}", "refresh 5000 ms": f"{statistics.median(refreshes):.0f}"}


def _timed(call, path: str, headers: dict, body: dict | None = None, status: int = 200) -> tuple[float, dict]:
    """Milliseconds of one request and its JSON answer."""
    started = time.perf_counter()
    answer = call(path, headers=headers, json=body) if body is not None else call(path, headers=headers)
    elapsed = (time.perf_counter() - started) * 1000
    assert answer.status_code == status, answer.get_data(as_text=True)[:300]
    return elapsed, answer.get_json()


def ensure_embedded(ctx) -> None:
    """Embed the station when its index does not cover its listeners yet (an hour at 100k on 2 cores: better left
    to `bench.search --embeddings`, which measures it)."""
    from core.listeners import snapshot
    from core.search import process_indexes, vectors

    listeners = len(snapshot.current(ctx.company_id))
    if len(process_indexes.current_index(ctx.company_id)) < 0.99 * listeners:
        print(f"embedding {listeners:,} listeners first ...", flush=True)
        vectors.refresh_embeddings(ctx.company_id)


def main(argv: list[str] | None = None) -> None:
    """Run on the station that `python -m bench.run --sizes N` left under bench/data/run-N."""
    from bench.station import existing_station, markdown

    parser = argparse.ArgumentParser(prog="python -m bench.audiences", description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=100_000)
    args = parser.parse_args(argv)
    ctx = existing_station(args.size)
    ensure_embedded(ctx)
    print(markdown([{"size": f"{args.size:,}", **bench_audiences(ctx)}]))


if __name__ == "__main__":
    main()
