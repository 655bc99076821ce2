"""Latency of the overview and explorer endpoints, through the real app and HTTP layer (Flask test client)."""
from __future__ import annotations

import statistics
import time

import numpy as np

from bench.station import client as station_client

FIVE_FILTERS = ("segment=super_fan&segment=show_loyalist&segment=occasional_engager&gender=female"
                "&has_channel=2&peak_time_of_day=breakfast&peak_time_of_day=drive&opt_in=true")
REPEAT = 7


def _rss_mb() -> float:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * 4096 / 2**20





def _median_ms(ctx, path: str) -> float:
    client, headers = station_client(ctx)
    client.get(path, headers=headers)  # first call loads the snapshot into this process; not counted
    timings = []
    for _ in range(REPEAT):
        started = time.perf_counter()
        response = client.get(path, headers=headers)
        timings.append(time.perf_counter() - started)
        assert response.status_code == 200, response.get_data(as_text=True)[:300]
    return statistics.median(timings) * 1000


def bench_overview(ctx) -> dict:
    """The four overview endpoints (precomputed rollups): the slowest median."""
    base = f"/api/v1/segments/{ctx.company_id}"
    slowest = max(_median_ms(ctx, base + suffix) for suffix in ("/summary", "", "/insights", "/tags"))
    return {"overview ms": f"{slowest:.0f}"}


def bench_explorer(ctx) -> dict:
    """Median latency of a filter page, a listener (the middle one by number), a five-filter aggregate,
    completeness and cross-channel."""
    from core.listeners import snapshot

    base = f"/api/v1/segments/{ctx.company_id}"
    originators = np.sort(snapshot.current(ctx.company_id).originators)
    listener = f"/api/v1/listeners/{ctx.company_id}/{originators[len(originators) // 2]}"
    return {
        "filter page ms": f"{_median_ms(ctx, f'{base}/filter?segment=occasional_engager&page=3'):.0f}",
        "listener ms": f"{_median_ms(ctx, listener):.1f}",
        "aggregate 5 filters ms": f"{_median_ms(ctx, f'{base}/aggregate?{FIVE_FILTERS}'):.0f}",
        "completeness ms": f"{_median_ms(ctx, f'{base}/completeness?gender=female'):.0f}",
        "cross-channel ms": f"{_median_ms(ctx, f'{base}/cross-channel'):.0f}",
    }


def bench_export(ctx) -> dict:
    """CSV export of every listener: time to first byte, total time, and how much memory grew while streaming."""
    client, headers = station_client(ctx)
    baseline, peak = _rss_mb(), 0.0
    started = time.perf_counter()
    response = client.get(f"/api/v1/segments/{ctx.company_id}/export?format=csv", headers=headers, buffered=False)
    chunks = iter(response.response)
    first = next(chunks)
    first_byte = time.perf_counter() - started
    size, rows = len(first), first.count(b"\n")
    for n, chunk in enumerate(chunks):
        size += len(chunk)
        rows += chunk.count(b"\n")
        if n % 20 == 0:
            peak = max(peak, _rss_mb() - baseline)
    total = time.perf_counter() - started
    response.close()
    return {"export first byte s": f"{first_byte:.2f}", "export s": f"{total:.1f}",
            "export rows": f"{rows - 1:,}", "export MB": f"{size / 2**20:.0f}", "export RSS growth MB": f"{peak:.0f}"}
