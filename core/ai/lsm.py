"""The Living Standards Measure (LSM 1..10), estimated: no listener declares it, so it is read off what they do
declare, income bracket, education and employment, by a rough rule (the SAARF LSM rose with household income, at
about R1,500 a month for LSM 1 to over R23,000 for LSM 10).

A listener who declared any of the three is placed by their own answers; anyone else by the similarity-weighted
mean of the look-alikes who declared any. With no declared LSM anywhere, no guess can be checked against a known
answer, so the confidence (the share of look-alikes whose own level is the one given) is held at CAP at most, below
the promotion threshold, and the evidence says why.
"""
from __future__ import annotations

import re

import numpy as np

from core.ai import memo
from core.ai.lookalikes import Voters, similarities, vote
from core.ai.panel import Panel
from core.listeners.fields import LSM_LEVELS

CAP = 0.6
INCOME_BOUNDS = (1500, 2000, 2500, 3300, 4500, 7000, 11000, 16000, 23000)
"""Monthly household income (rand) above which each next LSM level starts."""
EDUCATION = (("postgrad", 1.5), ("honours", 1.5), ("master", 1.5), ("degree", 1.0), ("diploma", 0.5),
             ("certificate", 0.5), ("no matric", -1.0), ("none", -1.0), ("primary", -1.0), ("matric", 0.0))
EMPLOYMENT = (("unemployed", -1.0), ("student", -0.5), ("part", -0.5), ("retired", 0.0), ("self", 0.5),
              ("employed", 0.5))
"""Steps up or down the scale by keywords of the declared value, the first that matches wins."""
FIELDS = ("income_bracket", "education", "employment_status")


def income_of(label: str) -> float | None:
    """A typical monthly income of a bracket ("Under R5k" 2,500; "R5k-R10k" 7,500; "R40k+" 50,000)."""
    amounts = [float(n.replace(",", "")) * (1000 if k else 1)
               for n, k in re.findall(r"(\d[\d,]*(?:\.\d+)?)\s*([kK])?", label)]
    if not amounts:
        return None
    lowered = label.lower()
    if len(amounts) >= 2:
        return sum(amounts[:2]) / 2
    if any(word in lowered for word in ("under", "below", "less", "<")):
        return amounts[0] / 2
    if any(word in lowered for word in ("+", "over", "above", "more")):
        return amounts[0] * 1.25
    return amounts[0]


def _step(label: str | None, table) -> float | None:
    lowered = (label or "").lower()
    return next((step for word, step in table if word in lowered), None)


def level_of(income: str | None, education: str | None, employment: str | None) -> float | None:
    """A point on the LSM scale (1..10, not rounded) from declared answers, None when none of them says anything."""
    money = income_of(income) if income else None
    school, work = _step(education, EDUCATION), _step(employment, EMPLOYMENT)
    if money is None and school is None and work is None:
        return None
    if money is not None:
        level = 1 + np.searchsorted(INCOME_BOUNDS, money) + 0.5 * (school or 0) + 0.5 * (work or 0)
    else:
        level = 5.5 + 1.5 * (school or 0) + 1.0 * (work or 0)
    return float(np.clip(level, 1, 10))


def lsm_voters(panel: Panel) -> Voters:
    """The panel's listeners who declared income, education or employment, each voting for their own level; built
    once per panel."""
    return memo.remembered("lsm", panel.company_id, panel.key, lambda: _voters(panel))


def _voters(panel: Panel) -> Voters:
    fields = [f for f in FIELDS if f in panel.codes]
    labels = {f: panel.labels[f] + [None] for f in fields}  # code -1 reads as None
    combos = np.stack([panel.codes[f] for f in fields], axis=1) if fields else np.zeros((len(panel), 0), int)
    levels: dict[tuple, float | None] = {}
    for combo in map(tuple, combos.tolist()):
        if combo not in levels:
            answers = dict(zip(fields, (labels[f][code] for f, code in zip(fields, combo))))
            levels[combo] = level_of(*(answers.get(f) for f in FIELDS))
    own = [levels[combo] for combo in map(tuple, combos.tolist())]
    rows = np.array([row for row, level in enumerate(own) if level is not None], dtype=np.int64)
    codes = np.array([_rounded(level) - 1 for level in own if level is not None], dtype=np.int64)
    return Voters("lsm", rows, codes, list(LSM_LEVELS))


def estimate(panel: Panel, target: np.ndarray, own: int, declared: dict) -> dict | None:
    """The listener's LSM with its capped confidence and evidence, None without any evidence."""
    mine = level_of(*(declared.get(f) for f in FIELDS))
    if mine is not None:
        return _answer(mine, CAP, "from this listener's own declared income, education or employment")
    voters = lsm_voters(panel)
    votes = vote(similarities(panel.matrix, target[None, :], voters, np.array([own])), voters)
    if votes.weight[0] <= 0:
        return None
    mean = float(votes.shares[0] @ np.arange(1, 11))
    agree = float(votes.shares[0][_rounded(mean) - 1])
    heads = int(votes.counts[0].sum())
    return _answer(mean, min(agree, CAP), f"from the declared income, education or employment of the {heads} "
                                          "listeners most like this one")


def _rounded(level: float) -> int:
    """The nearest level, halves up (8.5 is LSM 9), within 1..10."""
    return int(np.clip(np.floor(level + 0.5), 1, 10))


def _answer(level: float, confidence: float, source: str) -> dict:
    value = LSM_LEVELS[_rounded(level) - 1]
    return {"value": value, "confidence": round(confidence, 2),
            "evidence": f"Estimated as {value} {source}; no listener declares an LSM, so this cannot be checked "
                        "against known answers and stays below the promotion threshold."}
