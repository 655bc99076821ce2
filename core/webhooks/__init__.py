"""Segment events to other systems: a station's webhook endpoints, the events its runs, audiences and alerts
produce, and their signed, batched, retried delivery by the worker from a durable queue."""
