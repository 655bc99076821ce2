"""What /metrics says to the people on call, in Prometheus' text format.

Two kinds of figure:
- what a web process measures as it answers: request latency by route, method and status. Under gunicorn every
  worker of a host writes to one folder (PROMETHEUS_MULTIPROC_DIR, set by gunicorn.conf.py under DATA_DIR), so a
  scrape of any worker answers for all of them; without it (one process) the process's own figures;
- what the database says at the moment of the scrape, the same from every host: jobs waiting and recently done or
  failed per kind with their durations, leases held, credits spent per station, vectors stored and indexed here.
"""
from __future__ import annotations

import os
from datetime import timedelta

from prometheus_client import REGISTRY, CollectorRegistry, Histogram, generate_latest, multiprocess
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.exposition import CONTENT_TYPE_LATEST

from core.clock import utcnow
from core.credits.ledger import entries
from core.db import queue
from core.db.connection import get_db
from core.search import vectors

REQUEST_SECONDS = Histogram("lss_request_seconds", "Time to answer a request, by route, method and status",
                            ["route", "method", "status"],
                            buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30))
RECENT = timedelta(days=1)
"""The window of the jobs' figures: what workers did in the last day."""


def observe_request(route: str, method: str, status: int, seconds: float) -> None:
    """Count one answered request."""
    REQUEST_SECONDS.labels(route, method, str(status)).observe(seconds)


def exposition() -> tuple[bytes, str]:
    """The scrape's body and content type."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        web = CollectorRegistry()
        multiprocess.MultiProcessCollector(web)
    else:
        web = REGISTRY
    stored = CollectorRegistry()
    stored.register(StoredFigures())
    return generate_latest(web) + generate_latest(stored), CONTENT_TYPE_LATEST


class StoredFigures:
    """The figures read from the database at each scrape."""

    def collect(self):
        yield self._queue()
        yield from self._jobs()
        yield self._leases()
        yield self._credits()
        yield from self._vectors()

    def _queue(self) -> GaugeMetricFamily:
        family = GaugeMetricFamily("lss_queue_depth", "Background jobs waiting, by kind", labels=["kind"])
        for kind, waiting in sorted(queue.depth().items()):
            family.add_metric([kind], waiting)
        return family

    def _jobs(self):
        count = GaugeMetricFamily("lss_jobs_recent", "Background jobs finished in the last day, by kind and state",
                                  labels=["kind", "state"])
        took = GaugeMetricFamily("lss_job_seconds_recent", "Seconds background jobs of the last day took (mean and "
                                 "max), by kind", labels=["kind", "stat"])
        rows = queue.Job._get_collection().aggregate([
            {"$match": {"finished_at": {"$gte": utcnow() - RECENT}}},
            {"$project": {"kind": 1, "state": 1, "ms": {"$subtract": ["$finished_at", "$started_at"]}}},
            {"$group": {"_id": {"kind": "$kind", "state": "$state"}, "n": {"$sum": 1}, "mean": {"$avg": "$ms"},
                        "max": {"$max": "$ms"}}}])
        for row in rows:
            kind, state = row["_id"]["kind"], row["_id"]["state"]
            count.add_metric([kind, state], row["n"])
            if state == "done" and row["mean"] is not None:
                took.add_metric([kind, "mean"], row["mean"] / 1000)
                took.add_metric([kind, "max"], row["max"] / 1000)
        yield count
        yield took

    def _leases(self) -> GaugeMetricFamily:
        family = GaugeMetricFamily("lss_leases_held", "Leases held now, by what they guard (the part of the name "
                                   "before its first colon) and holder", labels=["lease", "holder"])
        held: dict[tuple[str, str], int] = {}
        for lock in get_db()["locks"].find({"until": {"$gte": utcnow()}}, {"_id": 1}):
            key = (str(lock["_id"]).split(":", 1)[0], "-")
            held[key] = held.get(key, 0) + 1
        for job in queue.Job._get_collection().find({"state": "running"}, {"kind": 1, "owner": 1}):
            key = (f"job {job['kind']}", job.get("owner") or "-")
            held[key] = held.get(key, 0) + 1
        for (name, holder), n in sorted(held.items()):
            family.add_metric([name, holder], n)
        return family

    def _credits(self) -> CounterMetricFamily:
        family = CounterMetricFamily("lss_credits_spent", "Credits spent on AI answers, net of refunds, by station",
                                     labels=["company_id"])
        for row in entries().aggregate([{"$match": {"kind": {"$in": ["spend", "refund"]}}},
                                        {"$group": {"_id": "$company_id", "amount": {"$sum": "$amount"}}},
                                        {"$sort": {"_id": 1}}]):
            family.add_metric([str(row["_id"])], -row["amount"] / 100)
        return family

    def _vectors(self):
        found = vectors.status()
        for name, what in (("stored", "Vectors stored in the database (every station)"),
                           ("indexed_here", "Vectors in this process's indexes"),
                           ("index_files", "Index files under DATA_DIR/vectors on this host")):
            family = GaugeMetricFamily(f"lss_vectors_{name}", what, labels=["model"])
            family.add_metric([found["model"]], found[name])
            yield family
