"""The `local` provider's listener inference: offline, deterministic, grounded in the station's own data.

Gender, age group, language and location come from the listener's look-alikes among the listeners who declared
them (core.ai.lookalikes, core.ai.panel, over core.search.behaviour_vectors) and, for language and location, from
the listener's own messages (core.ai.language), with a confidence calibrated on the station's declared listeners
(core.ai.demographics, core.calibration): 0.70 or more means such guesses were right at least 70% of the time on
this station. The LSM is estimated from declared income, education and employment (core.ai.lsm), interests from
the listener's shows, campaign types and message themes (core.ai.interests).

Mobile numbers are not used: South African mobile prefixes (082, 072, 060, ...) name the network that first issued
the number, not a place, and numbers move between networks, so they say nothing about where a listener lives.
"""
from __future__ import annotations

import numpy as np

from core.ai.demographics import field_model, guess
from core.ai.evidence import enough_evidence, evidence
from core.ai.interests import interests
from core.ai.language import message_tokens, newest
from core.ai.learned import current_panel
from core.ai.lsm import FIELDS as LSM_FIELDS
from core.ai.lsm import estimate
from core.ai.panel import Panel, history_interactions
from core.errors import ListenerNotFound
from core.listeners import snapshot
from core.listeners.events import listener_history
from core.listeners.snapshot import Snapshot
from core.search.behaviour_vectors import feature_rows
from core.stations.shows import show_titles

PROVIDER, MODEL = "local", "lookalike-knn-1"
DEMOGRAPHICS = {"inferred_gender": "gender", "inferred_age_group": "age_group", "inferred_language": "language",
                "inferred_location": "location"}


def infer_listener(company_id: int, originator: str) -> dict:
    """Inferred demographics and interests of one listener, each with a confidence and its evidence."""
    snap = snapshot.current(company_id)
    row = _row(snap, originator)
    panel = current_panel(snap)
    history = listener_history(company_id, originator)
    target = feature_rows(history_interactions(history), 1, panel.vocab)[0]
    messages = newest([(t, m) for t, m in zip(history.ms.tolist(), history.message) if m])
    tokens = message_tokens(messages, tuple(panel.labels.get("location", [])))
    own = panel.row_of(originator)
    values = {name: demographic(panel, field, target, own, tokens, len(messages))
              for name, field in DEMOGRAPHICS.items()}
    values["inferred_lsm"] = estimate(panel, target, own, {f: _declared(snap, f, row) for f in LSM_FIELDS})
    values["inferred_interests"] = interests(history, show_titles(company_id), messages)
    return {"values": values, "provider": PROVIDER, "model": MODEL, "tokens_in": 0, "tokens_out": 0}


def demographic(panel: Panel, field: str, target: np.ndarray, own: int, tokens: list[str],
                messages: int) -> dict | None:
    """One inferred demographic as {"value", "confidence", "evidence"}, None without any evidence; the confidence
    None below the evidence a confidence needs (core.ai.evidence.enough_evidence)."""
    if field not in panel.codes:
        return None
    model = field_model(panel, field)
    found = guess(model, target, own, tokens)
    if found is None:
        return None
    value = model.voters.labels[found.code]
    confidence = model.calibration.confidence(found.score) if enough_evidence(field, found, value) else None
    return {"value": value, "confidence": confidence, "evidence": evidence(model, found, confidence, messages)}


def _row(snap: Snapshot, originator: str) -> int:
    """The listener's snapshot row; ListenerNotFound when unknown or erased (an erased listener's row is kept under
    a pseudonym for analytics, and is nobody's to infer)."""
    row = snap.row_of(originator)
    if row is None or ("erased" in snap.cols and snap.cols["erased"][row]):
        raise ListenerNotFound.of(originator)
    return row


def _declared(snap: Snapshot, field: str, row: int) -> str | None:
    if field not in snap.cols or snap.cols[field][row] < 0:
        return None
    return str(snap.vocab[field][snap.cols[field][row]])
