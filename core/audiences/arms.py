"""An audience's two arms (docs/decisions.md, "Campaign holdouts"): the target, whom a campaign may contact, and a
random holdout of `holdout_percent` that nobody contacts, so that the campaign's effect can be measured against it.

A listener's arm is a pure function of the audience and the listener: BLAKE2b keyed by the audience id over the
listener's number, read as a fraction of 2**64 and held out when below the percent. So the split is random (every
listener independently, with that chance), reproducible, and kept by every refresh with no arm stored: a listener
keeps their arm, and a new member is split by the same rule. Every reader of members (the detail, the pages, the
CSV export, the events to other systems) asks here, never decides for itself.
"""
from __future__ import annotations

import hashlib
from collections.abc import Iterable

TARGET, HOLDOUT = "target", "holdout"
HOLDOUT_LIMITS = (0, 50)
HOLDOUT_PERCENT = 0
"""No holdout unless one is asked for, so that clients from before holdouts see no change."""
PLAN_HOLDOUT_PERCENT = 10
"""What an audience made from a campaign plan proposes: enough to measure against, little enough to cost the
advertiser few listeners."""
_SCALE = 2 ** 64


def arms_of(audience_id: str, percent: int, originators: Iterable[str]) -> list[str]:
    """Each listener's arm in this audience, in order: "holdout" for about `percent` in 100 of them, else
    "target"."""
    key = str(audience_id).encode()[:64]  # BLAKE2b takes a key of at most 64 bytes; ids are 11
    threshold = int(percent or 0) * _SCALE // 100
    return [HOLDOUT if int.from_bytes(hashlib.blake2b(o.encode(), key=key, digest_size=8).digest(), "big")
            < threshold else TARGET for o in originators]


def split(audience: dict, members: list[dict]) -> dict:
    """The audience's members (dicts with an "originator") each with its "arm", and how many are in each:
    {"members", "holdout_percent", "target_count", "holdout_count"}."""
    percent = int(audience.get("holdout_percent") or 0)
    arms = arms_of(audience["audience_id"], percent, [m["originator"] for m in members])
    held = arms.count(HOLDOUT)
    return {"members": [{**m, "arm": arm} for m, arm in zip(members, arms, strict=True)],
            "holdout_percent": percent, "target_count": len(arms) - held, "holdout_count": held}


def contactable(audience: dict, originators: list[str]) -> tuple[list[str], int]:
    """The originators of the target arm, in order, and how many were held out: what any list of members that leaves
    the service (an export, a hand-off, an event) carries."""
    arms = arms_of(audience["audience_id"], int(audience.get("holdout_percent") or 0), originators)
    return [o for o, arm in zip(originators, arms, strict=True) if arm == TARGET], arms.count(HOLDOUT)
