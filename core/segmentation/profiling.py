"""One listener snapshot from listener documents and their interactions: declared, behavioural, segment, RFM."""
from __future__ import annotations

from datetime import UTC, datetime

import numpy as np

from core.churn.explain import LEVELS, level_codes
from core.churn.model import Scoring
from core.churn.store import interactions, probabilities
from core.listeners.declared import declared
from core.listeners.events import Events
from core.listeners.snapshot import Snapshot, concat
from core.segmentation import rules
from core.segmentation.behaviour import DAYPARTS, profile
from core.stations import defaults
from core.stations.models import Company

RULE_INPUTS = ("since_first_days", "recency_days", "n_total", "n_30", "n_prev30", "n_90", "channels_30",
               "competition_share", "top_show_share_90", "active_weeks_90")


def _align(listeners: Snapshot, events: Events) -> tuple[Snapshot, Events]:
    """Put listeners and interactions in one row order (a listener seen only in interactions gets empty columns)."""
    order = {originator: i for i, originator in enumerate(listeners.originators.tolist())}
    unknown = [originator for originator in dict.fromkeys(events.originators) if originator not in order]
    if unknown:
        order.update((originator, len(order)) for originator in unknown)
        listeners = concat([listeners, declared(listeners.company_id, [{"originator": o} for o in unknown])])
    position = np.array([order[o] for o in events.originators] + [0], dtype=np.int32)
    aligned = Events(listeners.originators.tolist(), position[events.row] if len(events) else events.row,
                     events.ts, events.channel, events.campaign, events.campaign_vocab, events.timeslot)
    return listeners, aligned


def profile_listeners(company: Company, listeners: Snapshot, events: Events, now: datetime,
                      timeslots: list[int], churn: Scoring | None = None) -> Snapshot:
    """Every column of the snapshot for these listeners (their declared columns, core.listeners.declared) as of `now`
    (a pure function: nothing is read or written).

    `timeslots` are the station's show ids, so that a show nobody listened to still has its column; `churn` is the
    station's churn scoring (core.churn), None before one was learned (the column is then empty).
    """
    listeners, events = _align(listeners, events)
    cols, vocab = dict(listeners.cols), dict(listeners.vocab)
    cols["churn"] = probabilities(churn, interactions(events, company.timezone), now)
    vocab["churn_level"] = list(LEVELS)
    cols["churn_level"] = (level_codes(cols["churn"]) if churn is not None
                           else np.full(len(listeners), -1)).astype(np.int16)  # nothing learned yet: absent
    behaviour = profile(events, now, company.timezone, company.country or defaults.COUNTRY,
                        timeslots, sorted(company.channel_names()))
    for name, value in behaviour.items():
        if isinstance(value, tuple):
            vocab[name], cols[name] = value
        else:
            cols[name] = value
    vocab["peak_time_of_day"] = list(DAYPARTS)
    vocab["segment"] = vocab["first_segment"] = list(rules.SEGMENTS)
    thresholds = rules.thresholds_for(company.thresholds)
    cols["segment"] = rules.assign({k: cols[k] for k in RULE_INPUTS}, thresholds).astype(np.int16)
    cols["rfm_recency"], cols["rfm_frequency"], cols["rfm_engagement"] = rules.rfm_scores(cols)
    cols["as_of"] = np.full(len(listeners), int(now.astimezone(UTC).timestamp()), dtype=np.int64)
    return Snapshot(company.company_id, cols, vocab, {})
