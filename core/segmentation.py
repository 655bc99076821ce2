"""Segmentation runs (placeholder: the engine lands next)."""
from __future__ import annotations

from datetime import datetime


def segment_company(company_id: int, now: datetime | None = None, progress=None):
    """Profile and segment every listener of the company as of `now`; returns the SegmentRun."""
    raise NotImplementedError


def resegment_listeners(company_id: int, originators, now: datetime | None = None, progress=None):
    """Re-profile and re-segment only these listeners as of `now` (after an import or an erasure)."""
    return None
