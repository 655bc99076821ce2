"""Search's own `location` parameter: a part of the station's declared locations, or a place they lie in."""
from __future__ import annotations

import numpy as np

from core.explore.operations import Selection
from core.places.placing import Inside, placing


def with_location(sel: Selection, location: str | None) -> tuple[Selection, dict | None]:
    """Search's `location`: a partial, case-insensitive match on the declared location (the contract's rule for
    search), or a place it lies in at any level (core.places: "Gauteng" takes Soweto); with which values it took."""
    if not location or not location.strip():
        return sel, None
    vocab = [str(v) for v in sel.snap.vocab.get("location", [])] if len(sel.snap) else []
    inside = placing(vocab).inside(location.strip())
    needle = location.strip().casefold()
    taken = {v for v in vocab if needle in v.casefold()} | set(inside.values)
    read = Inside(inside.name, inside.place, tuple(v for v in vocab if v in taken)).as_dict()
    if not len(sel.snap):
        return sel, read
    codes = [i for i, value in enumerate(vocab) if value in taken]
    return Selection(sel.company, sel.snap, sel.mask & np.isin(sel.snap.cols["location"], codes)), read
