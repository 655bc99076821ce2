"""Interactions read back from their per-listener batches into flat numpy arrays, one entry per interaction.

Reading is the slow part of a segmentation run on the embedded database (~0.1 ms per batch document), so the read
asks only for the fields behaviour needs (never messages or keys) and converts times without Python datetimes.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable

import numpy as np
from bson.codec_options import CodecOptions, DatetimeConversion

from core.models import InteractionBatch

FIELDS = {"_id": 0, "originator": 1, "times": 1, "channels": 1, "campaigns": 1, "timeslots": 1}
IN_CHUNK = 1000
FULL_SCAN_ABOVE = 5000  # more listeners than this: one sequential scan beats index look-ups on the embedded DB


@dataclass
class Events:
    """Every interaction of some listeners; `row` maps each interaction to its listener in `originators`."""

    originators: list[str]
    row: np.ndarray  # int32, index into originators
    ts: np.ndarray  # int64, epoch seconds UTC
    channel: np.ndarray  # int16
    campaign: np.ndarray  # int16, index into campaign_vocab
    campaign_vocab: list[str]
    timeslot: np.ndarray  # int32, -1 when the interaction had no show

    def __len__(self) -> int:
        return len(self.ts)


def _collection():
    opts = CodecOptions(datetime_conversion=DatetimeConversion.DATETIME_MS)
    return InteractionBatch._get_collection().with_options(codec_options=opts)


def _batches(company_id: int, originators: Iterable[str] | None):
    """The batch documents of the company, or of some of its listeners."""
    col = _collection()
    if originators is None:
        yield from col.find({"company_id": company_id}, FIELDS, batch_size=2000)
        return
    wanted = sorted(set(originators))
    if len(wanted) > FULL_SCAN_ABOVE:
        keep = set(wanted)
        yield from (d for d in col.find({"company_id": company_id}, FIELDS, batch_size=2000) if d["originator"] in keep)
        return
    for start in range(0, len(wanted), IN_CHUNK):
        chunk = wanted[start:start + IN_CHUNK]
        yield from col.find({"company_id": company_id, "originator": {"$in": chunk}}, FIELDS)


def load_events(company_id: int, originators: Iterable[str] | None = None,
                progress: Callable[[int], None] | None = None) -> Events:
    """All interactions of the company (or of the given listeners), flattened."""
    index: dict[str, int] = {}
    rows, times, channels, campaigns, timeslots = [], [], [], [], []
    for n, doc in enumerate(_batches(company_id, originators), 1):
        r = index.setdefault(doc["originator"], len(index))
        count = len(doc["times"])
        rows.append((r, count))
        times.extend(doc["times"])
        channels.extend(doc["channels"])
        campaigns.extend(doc["campaigns"])
        timeslots.extend(doc["timeslots"])
        if progress and n % 5000 == 0:
            progress(5000)
    return _assemble(list(index), rows, times, channels, campaigns, timeslots)


def _assemble(originators, rows, times, channels, campaigns, timeslots) -> Events:
    counts = np.fromiter((c for _, c in rows), dtype=np.int64, count=len(rows))
    owners = np.fromiter((r for r, _ in rows), dtype=np.int32, count=len(rows))
    vocab, codes = np.unique(np.array(campaigns, dtype=object).astype(str), return_inverse=True) if campaigns else ([], [])
    return Events(
        originators=originators,
        row=np.repeat(owners, counts),
        ts=np.fromiter((int(t) // 1000 for t in times), dtype=np.int64, count=len(times)),
        channel=np.array(channels, dtype=np.int16),
        campaign=np.asarray(codes, dtype=np.int16),
        campaign_vocab=[str(v) for v in vocab],
        timeslot=np.array([-1 if t is None else t for t in timeslots], dtype=np.int32),
    )
