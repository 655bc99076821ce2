"""One demographic field inferred: the look-alikes' vote, what the listener's messages say, one posterior, and a
confidence calibrated on the station's own declared listeners.

The vote, with a fifth of the station's own mix of values blended in (a vote of a few look-alikes is never the
whole truth), is the prior; each message token (core.ai.language) multiplies in how often listeners who declared
each value write it (naive Bayes). Those rates are learned from half of a study sample of the panel's declared
listeners; the other half is guessed exactly as a listener would be, leaving themselves out of the vote, and the
guesses' posteriors against their declared values calibrate the confidence (core.calibration). Gender and age
group have no message tokens: their posterior is the vote alone.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from core.ai import memo
from core.ai.language import latest_messages, message_tokens
from core.ai.lookalikes import Voters, Votes, similarities, vote, vote_rows
from core.ai.panel import Panel, blocks
from core.ai.rates import Rates, learn_rates
from core.calibration import Calibration, calibrate
from core.listeners.fields import AGE_GROUPS, GENDERS

TOKENS = {"language": ("lang:",), "location": ("lang:", "place:")}
"""Which message tokens speak to which field."""
SMOOTH = 0.2
STUDY = 8000
FIELDS = ("gender", "age_group", "language", "location")
ALLOWED = {"gender": GENDERS, "age_group": AGE_GROUPS}


@dataclass(frozen=True)
class FieldModel:
    """What one field's guesses need: its voters, token rates and calibration."""

    field: str
    matrix: np.ndarray  # the panel's feature rows (shared, not copied)
    voters: Voters
    rates: Rates | None
    calibration: Calibration


@dataclass(frozen=True)
class Guess:
    """One listener's guess for one field."""

    code: int
    score: float
    votes: Votes
    tokens: list[str]


@dataclass(frozen=True)
class Study:
    """The panel rows studied, their message tokens, and which half teaches token rates (the other calibrates)."""

    rows: np.ndarray
    tokens: list[list[str]]
    teaches: np.ndarray


def relevant(tokens: list[str], field: str) -> list[str]:
    """The tokens that speak to a field."""
    prefixes = TOKENS.get(field, ())
    return [t for t in tokens if t.startswith(prefixes)] if prefixes else []


def guess(model: FieldModel, target: np.ndarray, own: int, tokens: list[str]) -> Guess | None:
    """The guess for one listener (feature row `target`, panel row `own` or -1), None without any evidence."""
    if not len(model.voters):
        return None
    tokens = relevant(tokens, model.field) if model.rates else []
    votes = vote(similarities(model.matrix, target[None, :], model.voters, np.array([own])), model.voters)
    if votes.weight[0] <= 0 and not tokens:
        return None
    post = posteriors(model, votes, [tokens])[0]
    return Guess(int(post.argmax()), float(post.max()), votes, tokens)


def posteriors(model: FieldModel, votes: Votes, token_lists: list[list[str]]) -> np.ndarray:
    """Posterior of every value for each voted listener (m x values)."""
    base = model.voters.base_rates
    prior = np.where(votes.weight[:, None] > 0, (1 - SMOOTH) * votes.shares + SMOOTH * base, base)
    log_post = np.log(np.clip(prior, 1e-12, None))
    if model.rates is not None:
        log_post += np.array([model.rates.log_likelihood(t) for t in token_lists]).reshape(log_post.shape)
    log_post -= log_post.max(axis=1, keepdims=True)
    post = np.exp(log_post)
    return post / post.sum(axis=1, keepdims=True)


def field_model(panel: Panel, field: str) -> FieldModel:
    """The model of one field of the snapshot, built with the others once per panel."""
    return memo.remembered("fields", panel.company_id, panel.key, lambda: build_models(panel))[field]


def build_models(panel: Panel) -> dict[str, FieldModel]:
    """Every field's model from one study of the panel; the study's message tokens are dropped afterwards."""
    study = build_study(panel)
    return {field: build_field_model(panel, field, study) for field in FIELDS if field in panel.codes}


def allowed_voters(voters: Voters) -> Voters:
    """The voters whose value is one inference may give (a fixed list for gender and age group)."""
    allowed = ALLOWED.get(voters.field)
    if allowed is None:
        return voters
    keep = np.isin(np.asarray(voters.labels + [""], dtype=object)[voters.codes], allowed)
    return Voters(voters.field, voters.rows[keep], voters.codes[keep], voters.labels)


def build_study(panel: Panel, size: int = STUDY) -> Study:
    """About `size` panel listeners who declared a demographic, in evenly spaced blocks of the panel (each one
    range of the index to read messages from), halves alternating."""
    declared = np.zeros(len(panel), dtype=bool)
    for field in FIELDS:
        if field in panel.codes:
            declared |= panel.codes[field] >= 0
    places, seen = tuple(panel.labels.get("location", [])), {}
    rows, tokens = [], []
    for block in blocks(len(panel), size):
        chosen = block.start + np.flatnonzero(declared[block])
        messages = latest_messages(panel.company_id, panel.originators[chosen])
        rows.append(chosen)
        tokens += [message_tokens(messages.get(o, []), places, seen) for o in panel.originators[chosen].tolist()]
    rows = np.concatenate(rows) if rows else np.zeros(0, dtype=np.int64)
    return Study(rows, tokens, np.arange(len(rows)) % 2 == 0)


def build_field_model(panel: Panel, field: str, study: Study) -> FieldModel:
    """Token rates from the teaching half of the study, calibration from the other half."""
    voters = allowed_voters(panel.voters(field))
    codes = panel.codes[field][study.rows]
    rates = None
    if field in TOKENS:
        teach = np.flatnonzero(study.teaches & (codes >= 0))
        rates = learn_rates(codes[teach], [relevant(study.tokens[i], field) for i in teach], voters.labels,
                            TOKENS[field])
    model = FieldModel(field, panel.matrix, voters, rates, Calibration(np.array([]), np.array([]), 0))
    checked = np.flatnonzero(~study.teaches & (codes >= 0))
    return _calibrated(model, panel, study, checked) if len(voters) and len(checked) else model


def _calibrated(model: FieldModel, panel: Panel, study: Study, checked: np.ndarray) -> FieldModel:
    """The model with its calibration: the checked listeners guessed, leaving themselves out."""
    rows = study.rows[checked]
    token_lists = [relevant(study.tokens[i], model.field) if model.rates else [] for i in checked]
    votes = vote_rows(panel.matrix, rows, model.voters)
    evident = (votes.weight > 0) | np.array([bool(t) for t in token_lists], dtype=bool)
    post = posteriors(model, votes, token_lists)
    correct = post.argmax(axis=1) == panel.codes[model.field][rows]
    return replace(model, calibration=calibrate(post.max(axis=1)[evident], correct[evident]))
