"""The multi-host figures (issue 27): `python -m bench.multihost [--batches 20] [--listeners 200]`, as root.

On the hosts the multi-host test builds (bench.netns: a database host, web hosts A and B, one worker host, each with
its own DATA_DIR, in network namespaces of this machine), how long after web host A answers a live batch web host B
knows the listener (the batches one at a time, each a new listener, B asked every 50 ms), and how long after A
accepted an import of new listeners with messages B's search finds them all (the worker embeds them meanwhile, after
the station's catch-up embedding it queued at start). The machine's load average at the start is kept beside them:
other work on the machine's two cores slows every host alike. Prints the figures and writes measured/multihost.json.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from datetime import timedelta
from pathlib import Path

from bench import netns
from core import measured
from core.clock import utcnow

MESSAGE = "Play maskandi by Phuzekhemisi for the cane cutters of Nkandla"


def import_to_searchable(service: dict, listeners: int) -> float:
    """Seconds from A's acceptance of an interactions file of `listeners` new listeners to B finding them all."""
    originators = [f"27888{n:05d}" for n in range(listeners)]
    when = (utcnow() - timedelta(hours=2)).isoformat()
    rows = "\n".join(json.dumps({"company_id": 1, "originator": o, "timestamp": when, "channel_type": 2,
                                 "campaign_type": "song_request", "message": MESSAGE}) for o in originators)
    netns.HTTP.post(f"{service['a']}/api/v1/imports/1/interactions", headers=service["headers"], timeout=60,
                    files={"file": ("tunes.jsonl", rows.encode(), "application/x-ndjson")}).raise_for_status()
    accepted = time.monotonic()

    def found_on_b() -> bool:
        answer = netns.get(service, "b", "/api/v1/segments/1/search", q="maskandi for cane cutters", min_score=0,
                           limit=listeners + 10).json()
        return set(originators) <= {row["originator"] for row in answer.get("results", [])}

    netns.wait_until(found_on_b, 300, "web host B to find the imported listeners")
    return time.monotonic() - accepted


def measure(batches: int, listeners: int, imported: int) -> dict:
    """Build the hosts, measure, tear them down; the figures."""
    reason = netns.why_not_permitted()
    if reason:
        raise SystemExit(f"cannot build hosts here: {reason}")
    started, load = time.monotonic(), os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="multihost-") as tmp, netns.Network() as net:
        service = netns.start_service(net, Path(tmp), listeners, workers=1, AUTO_EMBED="true")
        setup_s = time.monotonic() - started
        try:
            netns.get(service, "b", "/api/v1/segments/1/filter", page_size=1).raise_for_status()  # B caches it
            latencies = [netns.visibility_latency(service, f"27999{n:05d}") for n in range(batches)]
            searchable_s = import_to_searchable(service, imported)
        finally:
            service["db"].client.close()
    ms = sorted(round(s * 1000) for s in latencies)
    return {"measured_at": utcnow().isoformat(timespec="seconds"), "listeners": listeners,
            "hosts": "database, web A, web B, worker (network namespaces of one 2-core machine)",
            "live batches": batches, "visible on B ms (median)": statistics.median(ms),
            "visible on B ms (max)": ms[-1], "visible on B ms (all)": ms,
            "imported listeners": imported, "import searchable on B s": round(searchable_s, 1),
            "setup s": round(setup_s, 1), "load average at start (2 cores)": round(load, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batches", type=int, default=20)
    parser.add_argument("--listeners", type=int, default=200)
    parser.add_argument("--imported", type=int, default=50)
    args = parser.parse_args()
    figures = measure(args.batches, args.listeners, args.imported)
    for name, value in figures.items():
        print(f"{name:>28}: {value}")
    print(f"\nwritten to {measured.write('multihost', figures)}")


if __name__ == "__main__":
    main()
