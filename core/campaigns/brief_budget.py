"""Budget and goal of a brief: amounts are read by price-parser, and only in a sentence about budget or spend, the one
nearest those words (a prize is no budget); the goal is the most specific one the brief names.

Separate from the brief's dates (core.campaigns.brief_facts), which read the calendar and the station's zone and
only need to know where amounts stand, so as not to read them as dates.
"""
from __future__ import annotations

import re

from price_parser import Price

from core.search.words import GOAL_PATTERNS

MONEY = re.compile(r"(?<![\w$€£])(?P<cur>R|ZAR|US\$|\$|€|£)\s?(?P<num>\d[\d\s,.]*\d|\d)\s?(?P<mult>k|m|mil|million|"
                   r"thousand)?\b|\b(?P<num2>\d[\d\s,.]*\d|\d)\s?(?P<mult2>k|m|million|thousand)?\s?(?P<cur2>"
                   r"(?i:rand|zar))\b")
MULTIPLIERS = {"k": 1_000, "thousand": 1_000, "m": 1_000_000, "mil": 1_000_000, "million": 1_000_000}
CURRENCIES = {"R": "ZAR", "ZAR": "ZAR", "RAND": "ZAR", "$": "USD", "US$": "USD", "€": "EUR", "£": "GBP"}
BUDGET_CUES = re.compile(r"budget|spend|spending|invest|allocat|airtime|media buy", re.IGNORECASE)
SENTENCE = re.compile(r"(?:[^.;!?\n]|\.(?!\s|$))+")  # "R1.5 million" is one sentence


def find_budget(brief: str) -> dict | None:
    """{"amount", "currency", "words"}: in the first sentence about budget or spend, the amount nearest those words
    (None when no such sentence names an amount)."""
    for sentence in SENTENCE.finditer(brief):
        cues = [c.start() for c in BUDGET_CUES.finditer(sentence.group())]
        amounts = [m for m in MONEY.finditer(sentence.group()) if _amount(m)]
        if cues and amounts:
            m = min(amounts, key=lambda a: min(abs(a.start() - c) for c in cues))  # a prize beside it is no budget
            marker = (m["cur"] or m["cur2"] or "R").upper()
            return {"amount": _amount(m), "currency": CURRENCIES.get(marker, "ZAR"), "words": m.group().strip()}
    return None


def _amount(m) -> int | float | None:
    price = Price.fromstring(m["num"] or m["num2"])
    if price.amount is None:
        return None
    value = float(price.amount) * MULTIPLIERS.get((m["mult"] or m["mult2"] or "").casefold(), 1)
    return int(value) if value == int(value) else round(value, 2)


def find_goal(brief: str) -> dict | None:
    """{"value", "words"}: of the goals the brief names, the most specific (foot traffic before sales: "sell tickets"
    is about attendance), None when it names none."""
    for goal, pattern in GOAL_PATTERNS.items():
        found = re.search(pattern, brief, re.IGNORECASE)
        if found:
            return {"value": goal, "words": found.group()}
    return None
