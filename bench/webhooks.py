"""Segment events to other systems: `python -m bench.webhooks [--listeners 100000] [--moved 0.1]`.

On a fresh embedded database of its own (DATA_DIR bench/data/webhooks) a station of `listeners` listener documents
(a location and an age group each) gets one endpoint subscribed to both segment events and sharing two fields.
1. Queuing: a run that moved `moved` of the listeners (its segment changes written as a run writes them, under one
   run_id) is handed to the after-run callback (core.webhooks.producers.after_run), which reads the moves, the
   shared fields and queues two events per move; the segmentation run itself is bench.run's figure, not this one.
2. Delivery: a worker's job delivers every queued event to a loopback receiver (ThreadingHTTPServer answering 200),
   in signed batches; events per second.
3. A receiver down for 10 minutes: 1,000 events queued while it answers 500, the queue's jobs claimed and finished
   on a simulated clock (each retry when its backoff says), the receiver back after 10 simulated minutes; every
   event must arrive (counted by id) and the simulated minutes until the last one are reported.
Figures go to measured/webhooks.json.
"""
from __future__ import annotations

import argparse
import json
import shutil
import threading
import time
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

COMPANY = 1
FOLDER = Path("bench/data/webhooks")
DOWN = timedelta(minutes=10)
AREAS = ("Soweto", "Durban", "Polokwane", "Gqeberha", "Bloemfontein")


class Receiver(ThreadingHTTPServer):
    """A loopback receiver: answers 200 (or 500 while `down`) and keeps the ids of the events it took."""

    daemon_threads = True

    def __init__(self):
        super().__init__(("127.0.0.1", 0), _Handler)
        self.down, self.taken, self.posts, self.lock = False, [], 0, threading.Lock()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/hook"


class _Handler(BaseHTTPRequestHandler):
    def do_POST(self):  # noqa: N802 - the standard library's name
        body = self.rfile.read(int(self.headers["Content-Length"]))
        server: Receiver = self.server
        with server.lock:
            server.posts += 1
            if not server.down:
                server.taken.extend(e["id"] for e in json.loads(body)["events"])
        self.send_response(500 if server.down else 200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


def open_station(listeners: int) -> None:
    """A database of its own with `listeners` listener documents."""
    from core.config import Settings
    from core.listeners import sealed_writes
    from core.service import startup
    from core.stations.companies import ensure_company

    shutil.rmtree(FOLDER, ignore_errors=True)
    startup.start(Settings(data_dir=FOLDER.resolve(), database_name="bench_webhooks", auto_embed=False,
                           webhook_allow_hosts=("127.0.0.1",)))
    ensure_company(COMPANY)
    docs = [{"company_id": COMPANY, "originator": f"2782{n:07d}", "location": AREAS[n % len(AREAS)],
             "age_group": "25-34", "name": f"Listener {n}"} for n in range(listeners)]
    for start in range(0, listeners, 2000):
        sealed_writes.insert(COMPANY, docs[start:start + 2000])


def a_run_that_moved(listeners: int, share: float):
    """A full run's document and its segment changes, as core.segmentation.runs writes them."""
    from core.clock import utcnow
    from core.segmentation.models import SegmentChange, SegmentRun

    run = SegmentRun(company_id=COMPANY, run_id="bench-run", kind="full", now=utcnow(), listeners=listeners).save()
    step = round(1 / share)
    docs = [{"company_id": COMPANY, "originator": f"2782{n:07d}", "from_segment": "loyal", "to_segment": "at_risk",
             "at": run.now, "run_id": run.run_id} for n in range(0, listeners, step)]
    for start in range(0, len(docs), 5000):
        SegmentChange._get_collection().insert_many(docs[start:start + 5000], ordered=False)
    return run, len(docs)


def measure_queuing(listeners: int, share: float, receiver: Receiver) -> tuple[dict, dict]:
    """Seconds the after-run callback takes to queue a run's moves; and the endpoint."""
    from core.webhooks.endpoints import add_endpoint
    from core.webhooks.models import WebhookEndpoint
    from core.webhooks.producers import after_run

    made = add_endpoint(COMPANY, receiver.url, "bench-secret-of-some-length",
                        ["listener.entered_segment", "listener.left_segment"], ["location", "age_group"])
    run, moved = a_run_that_moved(listeners, share)
    started = time.perf_counter()
    queued = after_run(run)
    seconds = time.perf_counter() - started
    endpoint = WebhookEndpoint._get_collection().find_one({"webhook_id": made["webhook_id"]})
    return {"listeners": listeners, "moved": moved, "events queued": queued, "queue s": round(seconds, 2),
            "events queued/s": round(queued / seconds)}, endpoint


def measure_delivery(endpoint: dict, receiver: Receiver, queued: int) -> dict:
    """Events per second a worker's job delivers to the loopback receiver."""
    from core.webhooks.delivery import BATCH, deliver_job

    started = time.perf_counter()
    delivered = deliver_job({"webhook_id": endpoint["webhook_id"]})
    seconds = time.perf_counter() - started
    assert delivered == queued == len(set(receiver.taken)), (delivered, queued, len(set(receiver.taken)))
    return {"events delivered": delivered, "batch": BATCH, "posts": receiver.posts, "deliver s": round(seconds, 2),
            "events delivered/s": round(delivered / seconds)}


def measure_outage(receiver: Receiver, events: int = 1000) -> dict:
    """A receiver down for DOWN on a simulated clock: every event arrives once it is back, none lost."""
    from core.db import queue
    from core.webhooks.delivery import DeliveryFailed, deliver_job
    from core.webhooks.endpoints import add_endpoint
    from core.webhooks.events import DELIVER_JOB, Event, queue_events

    receiver.down, receiver.taken, receiver.posts = True, [], 0
    add_endpoint(COMPANY, receiver.url, "bench-secret-of-some-length", ["alert.fired"])
    queue_events(COMPANY, [Event("alert.fired", {"n": n}) for n in range(events)])
    start = now = datetime.now(UTC)
    attempts = 0
    while (job := queue.claim("bench", [DELIVER_JOB], now=now + timedelta(days=2))) is not None:
        now = max(now, job["run_after"].replace(tzinfo=UTC))  # the simulated clock moves to when the job was due
        receiver.down = now - start < DOWN
        attempts += 1
        try:
            deliver_job(job["payload"])
            queue.finish(job, now=now)
        except DeliveryFailed as failure:
            queue.finish(job, str(failure), now=now)
    arrived = len(set(receiver.taken))
    return {"events": events, "down minutes": DOWN.total_seconds() / 60, "attempts": attempts,
            "arrived": arrived, "lost": events - arrived,
            "all arrived after simulated minutes": round((now - start).total_seconds() / 60, 1)}


def main(argv: list[str] | None = None) -> None:
    """Command line entry point."""
    from bench.station import markdown
    from core import measured
    from core.db import embedded

    parser = argparse.ArgumentParser(prog="python -m bench.webhooks", description=__doc__.splitlines()[0])
    parser.add_argument("--listeners", type=int, default=100_000)
    parser.add_argument("--moved", type=float, default=0.1)
    args = parser.parse_args(argv)
    receiver = Receiver()
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    try:
        open_station(args.listeners)
        queuing, endpoint = measure_queuing(args.listeners, args.moved, receiver)
        delivery = measure_delivery(endpoint, receiver, queuing["events queued"])
        outage = measure_outage(receiver)
    finally:
        receiver.shutdown()
        receiver.server_close()
        embedded.stop(FOLDER.resolve())
    figures = {"measured_at": datetime.now(UTC).isoformat(timespec="seconds"), "queuing": queuing,
               "delivery": delivery, "outage": outage}
    print("\n\n".join(markdown([row]) for row in (queuing, delivery, outage)))
    name = "webhooks" if args.listeners == 100_000 else f"webhooks-{args.listeners}"
    print(f"\nwritten to {measured.write(name, figures)}")


if __name__ == "__main__":
    main()
