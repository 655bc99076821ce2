"""Live interactions: a batch of 100 events for 100 distinct listeners through the real app, and how soon another
process (its own snapshot cache) counts them."""
from __future__ import annotations

import statistics
import time
from datetime import timedelta

from bench.station import client as station_client

BATCHES = 7
BATCH = 100
SUSTAINED_S = 60
SUSTAINED_EVERY_S = BATCH / 200  # 200 events a second
WINDOW_S = 10


def _batch(ctx, round_: int) -> list[dict]:
    """100 interactions, one each for 100 listeners of the dataset (the next 100 every round, from the first again
    after the last), new every round (distinct timestamps)."""
    from core.clock import utcnow
    from core.listeners import snapshot

    everyone = snapshot.current(ctx.company_id).originators
    originators = everyone.take(range(round_ * BATCH, (round_ + 1) * BATCH), mode="wrap").tolist()
    when = (utcnow() - timedelta(seconds=round_ + 60)).isoformat()
    return [{"company_id": ctx.company_id, "originator": o, "timestamp": when, "channel_type": 2,
             "campaign_type": "song_request"} for o in originators]


def _other_process_counts(ctx) -> float:
    """Seconds for a process whose cache holds the company's file (and no delta) to answer a filtered count."""
    from core.listeners import snapshot, snapshot_files

    client, headers = station_client(ctx)
    with snapshot._cache_lock:
        cached = snapshot._cache[ctx.company_id]
    stale = snapshot_files.load(cached.file_id)
    with snapshot._cache_lock:
        snapshot._cache[ctx.company_id] = snapshot._Cached(cached.file_id, -1, -1, stale)
    started = time.perf_counter()
    response = client.get(f"/api/v1/segments/{ctx.company_id}/filter?segment=occasional_engager&page_size=1",
                          headers=headers)
    assert response.status_code == 200, response.get_data(as_text=True)[:300]
    return time.perf_counter() - started


def bench_live(ctx) -> dict:
    """Median answer of a 100-event live batch (stored and re-segmented), and the time another process takes to
    bring its counts up to date with every delta written since the file (worst case: all of them)."""
    client, headers = station_client(ctx)
    client.get(f"/api/v1/segments/{ctx.company_id}/summary", headers=headers)
    timings = []
    for round_ in range(BATCHES):
        batch = _batch(ctx, round_)
        started = time.perf_counter()
        response = client.post(f"/api/v1/interactions/{ctx.company_id}", json=batch, headers=headers)
        timings.append(time.perf_counter() - started)
        assert response.status_code == 200, response.get_data(as_text=True)[:300]
    catch_up = _other_process_counts(ctx)
    return {"live batch 100 ms": f"{statistics.median(timings) * 1000:.0f}",
            f"other process current after {BATCHES} deltas ms": f"{catch_up * 1000:.0f}"}


def bench_live_sustained(ctx) -> dict:
    """200 events a second for a minute (a batch of 100 every half second, sent late when the one before took longer):
    the median answer in the first and in the last ten seconds, the rate reached, and how long another process then
    takes to apply every delta written since the file."""
    client, headers = station_client(ctx)
    started, answers = time.perf_counter(), []
    for round_ in range(int(SUSTAINED_S / SUSTAINED_EVERY_S)):
        time.sleep(max(0.0, started + round_ * SUSTAINED_EVERY_S - time.perf_counter()))
        batch = _batch(ctx, BATCHES + round_)
        sent = time.perf_counter()
        response = client.post(f"/api/v1/interactions/{ctx.company_id}", json=batch, headers=headers)
        answers.append((sent - started, time.perf_counter() - sent))
        assert response.status_code == 200, response.get_data(as_text=True)[:300]
    elapsed = time.perf_counter() - started
    catch_up = _other_process_counts(ctx)
    first = [took for at, took in answers if at < WINDOW_S]
    last = [took for at, took in answers if at >= answers[-1][0] - WINDOW_S]
    return {"sustained first 10 s ms": f"{statistics.median(first) * 1000:.0f}",
            "sustained last 10 s ms": f"{statistics.median(last) * 1000:.0f}",
            "sustained events/s": f"{len(answers) * BATCH / elapsed:.0f}",
            f"other process current after {BATCHES + len(answers)} deltas ms": f"{catch_up * 1000:.0f}"}
