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


BARE = re.compile(r"(?<![\w$€£.,])(?P<num>\d[\d\s,.]*\d|\d)(?:\s?(?P<mult>k|m|mil|million|thousand)\b|(?![\w%])"
                  r"(?=\s*(?:$|[.;:,!?)]|(?:for|on|over|in|across|and|to|from|per|including|excl|incl)\b)))")
"""An amount without a currency ("20k", "20 thousand", "20 000"): a budget only right beside the budget words, and a
plain figure only when no noun follows it ("a budget for 3 weeks" names no amount) and it is at least LEAST."""
LEAST = 100
BESIDE = re.compile(r"[\s:,(-]*(?:[A-Za-z]+[\s:,-]+){0,3}")
"""What may stand between the budget words and a bare amount: "budget 20k", "budget of about 20 000", "spend 20
thousand on airtime" (three words at most, no figures)."""


def find_budget(brief: str) -> dict | None:
    """{"amount", "currency", "words"}: in the first sentence about budget or spend, the amount nearest those words
    (None when no such sentence names an amount). An amount with a currency may stand anywhere in the sentence; one
    without ("20k", "20 thousand") only beside the budget words, and is read in the station's rand."""
    for sentence in SENTENCE.finditer(brief):
        said = sentence.group()
        cues = list(BUDGET_CUES.finditer(said))
        amounts = [m for m in MONEY.finditer(said) if _amount(m)]
        taken = [(m.start(), m.end()) for m in amounts]
        amounts += [m for m in BARE.finditer(said) if (_amount(m) or 0) >= (1 if m["mult"] else LEAST)
                    and _beside(said, m, cues)
                    and not any(a <= m.start() < b for a, b in taken)]
        if cues and amounts:
            m = min(amounts, key=lambda a: min(_gap(a, c) for c in cues))  # a prize beside it is no budget
            marker = (_group(m, "cur") or _group(m, "cur2") or "R").upper()
            return {"amount": _amount(m), "currency": CURRENCIES.get(marker, "ZAR"), "words": m.group().strip()}
    return None


def _gap(m, cue) -> tuple[int, int]:
    """How far an amount stands from the budget words, the one after them first on a tie ("R5000, budget 20k")."""
    return (m.start() - cue.end(), 0) if m.start() >= cue.end() else (cue.start() - m.end(), 1)


def _beside(said: str, m, cues: list) -> bool:
    """Whether a bare amount stands right after the budget words, or right before them ("20k budget")."""
    after = any(c.end() <= m.start() and BESIDE.fullmatch(said[c.end():m.start()]) for c in cues)
    return after or any(m.end() <= c.start() and not said[m.end():c.start()].strip() for c in cues)


def _group(m, name: str) -> str | None:
    return m.groupdict().get(name)


def _amount(m) -> int | float | None:
    price = Price.fromstring(_group(m, "num") or _group(m, "num2"))
    if price.amount is None:
        return None
    value = float(price.amount) * MULTIPLIERS.get((_group(m, "mult") or _group(m, "mult2") or "").casefold(), 1)
    return int(value) if value == int(value) else round(value, 2)


def find_goal(brief: str) -> dict | None:
    """{"value", "words"}: of the goals the brief names, the most specific (foot traffic before sales: "sell tickets"
    is about attendance), None when it names none."""
    for goal, pattern in GOAL_PATTERNS.items():
        found = re.search(pattern, brief, re.IGNORECASE)
        if found:
            return {"value": goal, "words": found.group()}
    return None
