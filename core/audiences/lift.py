"""Did the campaign work: the target arm's response rate against the holdout's, with an honest interval, in words.

The statistics are statsmodels', not ours. The interval and the p-value are both Agresti and Caffo's for the
difference of two independent proportions: one more success and one more failure added to each arm, then Wald's
interval. It covers the true difference about as often as it says even for small arms and rates near 0, where plain
Wald's does not (tests/core/audiences/test_lift_simulation.py plants known lifts and counts). Because the two come
from the same statistic, the interval leaves out 0 exactly when the p-value is under 0.05, so the verdict and the
figures never disagree. How many listeners a lift needs is statsmodels' power of a two-sample test of proportions
(Cohen's h) at 80% power.

statsmodels is imported by the two functions that use it: it brings scipy.stats and pandas, over a second of every
process's start (each gunicorn worker, CLI command and served test), for an answer few processes ever give.
"""
from __future__ import annotations

import math
import warnings

import numpy as np

from core.text.wording import number

CONFIDENCE = 0.95
POWER = 0.8
"""The chance a campaign with the hoped-for lift is seen to have one: the usual planning figure."""
METHOD = "agresti-caffo"


def arm(members: int, responded: int) -> dict:
    """One arm's figures: how many members, how many responded, and the share (None of no members)."""
    return {"members": int(members), "responded": int(responded),
            "rate": round(responded / members, 6) if members else None}


def lift(target: dict, holdout: dict, method: str = METHOD) -> dict | None:
    """The target's rate less the holdout's (`absolute`, a share: 0.031 is 3.1 points), that difference over the
    holdout's rate (`relative`, None when no one in the holdout responded), its 95% `interval` and `p_value`; None
    when either arm has no members. `method`: statsmodels' name of another interval, for comparing (bench/)."""
    from statsmodels.stats.proportion import (  # late: see the module's docstring
        confint_proportions_2indep,
        test_proportions_2indep,
    )

    if not target["members"] or not holdout["members"]:
        return None
    counts = (target["responded"], target["members"], holdout["responded"], holdout["members"])
    with warnings.catch_warnings(), np.errstate(all="ignore"):  # a ratio of rates of 0 is not asked for here
        warnings.simplefilter("ignore", RuntimeWarning)
        low, high = confint_proportions_2indep(*counts, method=method, compare="diff", alpha=1 - CONFIDENCE)
        p_value = test_proportions_2indep(*counts, method=method, compare="diff").pvalue
    absolute = target["rate"] - holdout["rate"]
    return {"absolute": round(absolute, 6),
            "relative": round(absolute / holdout["rate"], 6) if holdout["rate"] else None,
            "interval": [round(float(low), 6), round(float(high), 6)], "p_value": round(float(p_value), 6),
            "significant": bool(low > 0 or high < 0)}


def needed(base_rate: float, hoped: float, holdout_share: float) -> dict:
    """How many listeners each arm needs for a lift of `hoped` (a share: 0.02 is 2 points) over `base_rate` to be
    seen at 95% confidence with 80% power, when the holdout is `holdout_share` of the members (0 < share < 1)."""
    from statsmodels.stats.power import NormalIndPower  # late: see the module's docstring
    from statsmodels.stats.proportion import proportion_effectsize  # late, as above

    base = min(max(base_rate, 0.0), 1.0 - hoped)
    effect = abs(proportion_effectsize(base + hoped, base))
    ratio = holdout_share / (1 - holdout_share)
    target = NormalIndPower().solve_power(effect_size=effect, alpha=1 - CONFIDENCE, power=POWER, ratio=ratio,
                                          alternative="two-sided")
    return {"target": math.ceil(target), "holdout": math.ceil(target * ratio), "lift": hoped, "power": POWER}


def verdict(found: dict | None, sizes: dict, target: dict, holdout: dict) -> str:
    """What the figures say, in words: how many points more (or fewer) responded and the range that is sure, or that
    it is too early to tell and how many listeners are needed, or that there is no telling the two apart."""
    if found is not None and found["significant"]:
        low, high = found["interval"]
        more = found["absolute"] > 0
        edges = (low, high) if more else (-high, -low)
        return (f"{points(abs(found['absolute']))} {'more' if more else 'fewer'} responded than the holdout, "
                f"between {points(edges[0], unit=False)} and {points(edges[1], unit=False)}.")
    if target["members"] < sizes["target"] or holdout["members"] < sizes["holdout"]:
        hoped = number(100 * sizes["lift"])
        return f"Too early to tell: {_need(sizes)} are needed to see {hoped} {'point' if hoped == '1' else 'points'}."
    low, high = found["interval"]
    return (f"No clear difference: the target responded between {_signed(low)} and {_signed(high)} against the "
            f"holdout, too close to none to call.")


def points(share: float, unit: bool = True) -> str:
    """A difference of shares in percentage points: 0.031 -> "3.1 points"."""
    value = f"{100 * share:.1f}"
    return f"{value} {'point' if value == '1.0' else 'points'}" if unit else value


def _signed(share: float) -> str:
    value = 100 * share
    return f"{'+' if value > 0 else '−' if value < 0 else ''}{abs(value):.1f} points"


def _need(sizes: dict) -> str:
    if sizes["target"] == sizes["holdout"]:
        return f"about {about(sizes['target'])} listeners per arm"
    return f"about {about(sizes['holdout'])} listeners in the holdout and {about(sizes['target'])} in the target"


def about(count: int) -> str:
    """A count needed, rounded up to two significant figures as people say it: 4,577 -> "4,600"."""
    step = 10 ** max(len(str(int(count))) - 2, 0)
    return number(-(-int(count) // step) * step)
