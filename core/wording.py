"""How the service writes numbers and sentences, in one tested place: percentages, plurals and lists."""
from __future__ import annotations


def percentage(part: float, whole: float) -> float:
    """part of whole as a percentage 0..100 with one decimal; 0.0 of nothing."""
    return round(100.0 * float(part) / float(whole), 1) if whole else 0.0


def percent(share: float) -> str:
    """A share 0..1 in words: 0.7 -> '70%' (whole percent, as sentences use it)."""
    return f"{round(100 * float(share))}%"
