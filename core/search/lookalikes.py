"""Look-alikes: the listeners who behave most like one listener, scored by what such scores were worth on the
station (docs/decisions.md §5).

Alike is judged by behaviour, not by the listener's text: the shares of their interactions per show, channel and
campaign type and their tags and interests (core.search.behaviour_vectors), one unit row per listener built from the
snapshot's columns and kept per snapshot version in the process, so that a request is one product of a row with the
station's matrix. The score is the share of look-alikes with that similarity who shared the listener's main traits
on the station's own data (core.search.lookalike_calibration); each result keeps the raw `similarity`,
(1 + cosine) / 2. A listener without interactions behaves like nobody: no look-alikes, and the answer says why.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from core.calibration import Calibration
from core.errors import ListenerNotFound
from core.explore.filters import ListenerFilter
from core.explore.operations import Selection, select
from core.explore.records import records
from core.listeners import snapshot
from core.listeners.snapshot import Snapshot
from core.search import lookalike_calibration as fits
from core.search.behaviour_vectors import LIKED, active, behaviour_rows, group_values
from core.search.kept import KeptPerStation
from core.search.lookalike_calibration import MAIN, Traits, traits_of
from core.stations.models import Company
from core.stations.shows import show_titles

SIMILAR_LIMIT = (1, 1000)
MODEL = "behaviour-1"
"""The representation look-alikes are measured by; a fit is kept per station and model."""
MAP_SECONDS = 60
NO_INTERACTIONS = "no_interactions"
LABELS = {"timeslot": "shows", "channel": "channels", "campaign": "takes part in", "tags": "tags",
          "inferred_interests": "interests"}


@dataclass(frozen=True)
class Behaviour:
    """A station's listeners as look-alikes read them: one unit row each, who has interactions, and their traits."""

    matrix: np.ndarray
    active: np.ndarray
    traits: Traits


def similar_listeners(company_id: int, originator: str, exclude_segment: str | None = None,
                      min_score: float = 0.75, limit: int = 20) -> dict:
    """Listeners ranked by how alike they behave to this one, best first; never the listener itself."""
    sel = select(company_id, ListenerFilter())
    seed = sel.snap.row_of(originator) if len(sel.snap) else None
    if seed is None or not sel.mask[seed]:
        raise ListenerNotFound.of(originator)
    behaviour = behaviour_of(sel.snap)
    mask = sel.mask.copy()
    mask[seed] = False
    if exclude_segment:
        mask &= sel.snap.labels("segment") != exclude_segment
    answer = {"company_id": company_id, "originator": originator, "exclude_segment": exclude_segment,
              "min_score": min_score, "limit": limit, "model": MODEL, "candidates": int(mask.sum()),
              "indexed": int((mask & behaviour.active).sum()), "seconds_left": None}
    if not behaviour.active[seed]:
        return {**answer, "calibrated": False, "total": 0, "best_score": None, "reason": NO_INTERACTIONS,
                "results": []}
    calibration = calibration_for(sel, behaviour)
    rows, scores, similarity, best = ranked(behaviour, seed, mask & behaviour.active, calibration, min_score, limit)
    return {**answer, "calibrated": calibration is not None, "total": len(rows), "best_score": best,
            "reason": None, "results": results(sel, behaviour.traits, seed, rows, scores, similarity)}


_behaviours: KeptPerStation[Behaviour] = KeptPerStation()


def behaviour_of(snap: Snapshot) -> Behaviour:
    """The station's Behaviour, built again when its snapshot moved (a run, a live batch); not kept for a snapshot
    that is not this process's current copy."""
    version = snapshot.version(snap.company_id, snap)

    def build() -> Behaviour:
        return Behaviour(behaviour_rows(snap), active(snap), traits_of(snap))

    return build() if version is None else _behaviours.get(snap.company_id, (snap,), version, build)


_fits: KeptPerStation[Calibration] = KeptPerStation()


def calibration_for(sel: Selection, behaviour: Behaviour) -> Calibration | None:
    """The station's look-alike calibration: the stored fit while it stands (asked of the database at most every
    MAP_SECONDS), else fitted now on every listener with interactions; None when the station is too small to measure
    (scores are then the raw similarity, and answers say so)."""
    company_id = sel.company.company_id
    version = snapshot.version(company_id, sel.snap)
    file = version[0] if version is not None else None

    def stored_or_fitted() -> Calibration:
        fitted = fits.kept(company_id, MODEL, file) if file is not None else None
        return fitted if fitted is not None else fits.fit(company_id, MODEL, file, behaviour.matrix, behaviour.traits,
                                                          np.flatnonzero(sel.mask & behaviour.active))

    fitted = _fits.get(company_id, (behaviour,), (file, int(time.monotonic() // MAP_SECONDS)), stored_or_fitted)
    return fitted if fitted.trusted else None


def ranked(behaviour: Behaviour, seed: int, mask: np.ndarray, calibration: Calibration | None, min_score: float,
           limit: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, float | None]:
    """The `limit` rows of `mask` most alike the seed whose score is at least `min_score`, best first: their rows,
    scores and raw similarities, and the best score among all of them (what a lower min_score would show)."""
    rows = np.flatnonzero(mask)
    similarity = (1 + (behaviour.matrix @ behaviour.matrix[seed])[rows]) / 2
    scores = similarity if calibration is None else calibration.confidences(similarity)
    best = round(float(scores.max()), 4) if len(scores) else None
    keep = np.flatnonzero(scores >= min_score)
    if len(keep) > limit:
        keep = keep[np.argpartition(-similarity[keep], limit - 1)[:limit]]
    keep = keep[np.argsort(-similarity[keep], kind="stable")]
    return rows[keep], scores[keep], similarity[keep], best


def results(sel: Selection, traits: Traits, seed: int, rows: np.ndarray, scores: np.ndarray,
            similarity: np.ndarray) -> list[dict]:
    """Each look-alike's record, score, raw similarity and the seed's main traits they share (`matched`)."""
    if not len(rows):
        return []
    names = trait_names(sel.snap, sel.company)
    found = []
    for row, listed, score, sim in zip(rows.tolist(), records(sel.company.company_id, sel.snap, rows,
                                                              sel.company.timezone), scores, similarity):
        both = shared(traits, seed, row, names)
        found.append({**listed, "score": round(float(score), 4), "similarity": round(float(sim), 4), "shared": both,
                      "matched": [f"{part['trait']}: {', '.join(part['values'])}" for part in both]})
    return found


def trait_names(snap: Snapshot, company: Company) -> dict[str, list[tuple[str, str]]]:
    """(label, readable name) of every value a trait is read from: per MAIN group, and the tags and interests."""
    titles, channels = show_titles(company.company_id), company.channel_names()
    readable = {"timeslot": lambda v: titles.get(int(v), f"show {v}"),
                "channel": lambda v: channels.get(int(v), f"channel {v}"),
                "campaign": lambda v: str(v).replace("_", " ")}
    names = {group: [(LABELS[group], readable[group](v)) for v in group_values(snap, group)] for group in MAIN}
    names["liked"] = [(LABELS[name], str(v)) for name in LIKED if name in snap.cols for v in snap.vocab.get(name, [])]
    return names


def shared(traits: Traits, seed: int, row: int, names: dict[str, list[tuple[str, str]]]) -> list[dict]:
    """The seed's main show, channel and campaign type that this listener holds too, and the tags and interests
    both have, in that order: [{"trait": "shows", "values": ["Gospel Sunday"]}, ...] (tags as imported)."""
    pairs = [names[group][value] for group, value, held in zip(MAIN, traits.main[seed].tolist(), traits.held)
             if value >= 0 and held[row, value]]
    pairs += [names["liked"][i] for i in np.flatnonzero(traits.liked[seed] & traits.liked[row]).tolist()]
    grouped: dict[str, list[str]] = {}
    for label, name in pairs:
        grouped.setdefault(label, []).append(name)
    return [{"trait": label, "values": values} for label, values in grouped.items()]
