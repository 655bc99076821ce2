"""Credits as money: held as whole hundredths so that every sum is exact, shown as the numbers people typed."""
from __future__ import annotations

import math

MAX_LOAD = 1_000_000
"""The most credits one load may add: a typo of a few zeros should not need a second load to undo."""
SLACK = 1e-6
"""How far from a whole hundredth a float may be and still count as one (0.57 arrives as 0.5700000000000001)."""


def hundredths(value: float) -> int:
    """A price or an amount as whole hundredths; ValueError when it is not a real number with at most 2 decimals."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError("Must be a number.")
    if isinstance(value, int):
        return value * 100
    scaled = value * 100
    if not math.isfinite(scaled):
        raise ValueError("Too large a number.")
    if abs(scaled - round(scaled)) > SLACK:
        raise ValueError("Credits have at most 2 decimals.")
    return round(scaled)


def load_amount(value) -> int:
    """What an admin may load, as hundredths: a number above 0, at most MAX_LOAD, with at most 2 decimals."""
    amount = hundredths(value)
    if amount <= 0:
        raise ValueError("Load more than 0 credits.")
    if amount > MAX_LOAD * 100:
        raise ValueError(f"Load at most {MAX_LOAD:,} credits at a time.")
    return amount


def as_credits(amount: int) -> int | float:
    """Hundredths as the number a client reads: 1050 -> 10.5, 1000 -> 10 (a whole number stays whole)."""
    return amount // 100 if amount % 100 == 0 else round(amount / 100, 2)


def phrase(amount: int) -> str:
    """Hundredths in a sentence: "1 credit", "5 credits", "0.25 credits", "1,000 credits"."""
    whole, cents = divmod(abs(amount), 100)
    number = f"{'-' if amount < 0 else ''}{whole:,}" + (f".{cents:02d}" if cents else "")
    return f"{number} {'credit' if amount == 100 else 'credits'}"
