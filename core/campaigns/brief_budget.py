"""Budget and goal of a brief. Amounts are read by price-parser. In a sentence about budget or spend, the amount
nearest those words is the budget (a prize beside it is none); elsewhere an amount in a currency is the budget only
when it stands alone as an amount of money (after nothing but punctuation or a word of having, before nothing but
punctuation, a preposition or a word that frames the campaign): "R60 000 for the campaign" is, "win R5000", "tickets
R150" and "a R100 000 cash giveaway" are the price or prize of something. Never guessed: a range ("R30-40k") is a
question with its bounds; an amount per week or month is its product with the count the brief gives ("R25k per week
x 4 weeks"), or a question; two different standalone amounts are a question with both.

The goal is the one named after a word that names the goal ("Goal: sales"), else the most specific one the brief
names; a goal word inside a price ("tickets R150") names no goal. Separate from the brief's dates
(core.campaigns.brief_facts), which only need to know where amounts stand, so as not to read them as dates.
"""
from __future__ import annotations

import re

from price_parser import Price

from core.campaigns.brief_calendar import COUNTS
from core.search.words import GOAL_PATTERNS

NUM = r"\d[\d\s,.]*\d|\d"
MULT = r"(?i:k|m|mil|million|thousand)"
MONEY = re.compile(r"(?<![\w$€£])(?P<cur>R|ZAR|US\$|\$|€|£)\s?(?P<num>" + NUM + r")\s?(?P<mult>" + MULT + r")?\b|\b"
                   r"(?P<num2>" + NUM + r")\s?(?P<mult2>" + MULT + r")?\s?(?P<cur2>(?i:rand|zar))\b")
RANGE = re.compile(r"(?<![\w$€£])(?P<cur>R|ZAR|US\$|\$|€|£)\s?(?P<num>\d[\d\s,.]*?\d|\d)\s?(?P<mult>" + MULT
                   + r")?\s*(?:-|–|(?i:to|and))\s*(?:(?P=cur)\s?)?(?P<num2>" + NUM + r")\s?(?P<mult2>" + MULT + r")?\b")
"""Two amounts of one currency as a range: "R30-40k", "R30 000 to R40 000", "between R30k and R40k"."""
PER = re.compile(r"\s*(?:per|a|an|/|every|each)\s*(?P<unit>day|week|month)\b(?:\s*(?:x|×|times|for|over)\s*(?:the\s+"
                 r"(?:next\s+)?)?(?P<count>\d+|" + "|".join(COUNTS[2:]) + r")\s*(?P<unit2>days?|weeks?|months?)\b)?",
                 re.IGNORECASE)
"""An amount per period, and how many periods the brief gives: "R25k per week x 4 weeks", "R10k a month for three
months"."""
MULTIPLIERS = {"k": 1_000, "thousand": 1_000, "m": 1_000_000, "mil": 1_000_000, "million": 1_000_000}
CURRENCIES = {"R": "ZAR", "ZAR": "ZAR", "RAND": "ZAR", "$": "USD", "US$": "USD", "€": "EUR", "£": "GBP"}
BUDGET_CUES = re.compile(r"budget|spend|spending|invest|allocat|airtime|media buy", re.IGNORECASE)
SENTENCE = re.compile(r"(?:[^.;!?\n]|\.(?!\s|$))+")  # "R1.5 million" is one sentence
ALONE_BEFORE = re.compile(r"(?:^|[,:;(–-]|\b(?:have|has|got|of|is|are|be|with|about|around|roughly|approximately|"
                          r"approx|total|totalling|max|maximum|under|below|between|or)\b)\s*$", re.IGNORECASE)
"""What an amount of money standing alone may follow: nothing but punctuation, or a word of having or being."""
ALONE_AFTER = re.compile(r"\s*(?:$|[.;:,!?)–-]|(?:for|on|over|in|across|and|or|to|from|per|including|incl|excl|"
                         r"excluding|vat|total|all|max|maximum|campaign|budget|spend|airtime)\b)", re.IGNORECASE)
"""What may follow an amount standing alone: no noun whose price or prize it would be."""
PRIZE = re.compile(r"\b(?:win|wins|won|winning|worth|prizes?|vouchers?|price[sd]?|costs?|costing|tickets?|fees?|save"
                   r"|saving|off)\W*$", re.IGNORECASE)
"""Words right before an amount that make it a prize or a price, in a sentence about budget too."""


BARE = re.compile(r"(?<![\w$€£.,])(?P<num>\d[\d\s,.]*\d|\d)(?:\s?(?P<mult>k|m|mil|million|thousand)\b|(?![\w%])"
                  r"(?=\s*(?:$|[.;:,!?)]|(?:for|on|over|in|across|and|to|from|per|including|excl|incl)\b)))")
"""An amount without a currency ("20k", "20 thousand", "20 000"): a budget only right beside the budget words, and a
plain figure only when no noun follows it ("a budget for 3 weeks" names no amount) and it is at least LEAST."""
LEAST = 100
BESIDE = re.compile(r"[\s:,(-]*(?:[A-Za-z]+[\s:,-]+){0,3}")
"""What may stand between the budget words and a bare amount: "budget 20k", "budget of about 20 000", "spend 20
thousand on airtime" (three words at most, no figures)."""


def find_budget(brief: str, taken: list | None = None) -> dict | None:
    """{"amount", "currency", "words"} of the brief's budget, None when it names none or asks (read_budget)."""
    return read_budget(brief, taken)[0]


def read_budget(brief: str, taken: list | None = None) -> tuple[dict | None, list[dict]]:
    """The brief's budget and the questions it raises, outside the `taken` spans (an income bracket "R20k-R40k"): in
    the first sentence about budget or spend, the amount nearest those words; else the one amount in a currency
    that stands alone."""
    taken, alone = taken or [], []
    for sentence in SENTENCE.finditer(brief):
        said, cues = sentence.group(), list(BUDGET_CUES.finditer(sentence.group()))
        amounts = [m for m in _amounts(said, cues) if not any(a < m["end"] + sentence.start() and
                                                              m["start"] + sentence.start() < b for a, b in taken)]
        if cues and (cued := [m for m in amounts if not PRIZE.search(said[:m["start"]])]):
            return _decided(min(cued, key=lambda m: min(_gap(m, c) for c in cues)))  # a prize beside it is none
        alone += [m for m in amounts if m["currency_said"] and _alone(said, m)]
    values = list(dict.fromkeys((m["low"], m["high"], m["per"], m["currency"]) for m in alone))
    if len(values) == 1:
        return _decided(alone[0])
    if values:
        words = " … ".join(dict.fromkeys(m["words"] for m in alone))
        return None, [_question(words, [_reading(m["low"] if m["low"] == m["high"] else m["high"], m["currency"],
                                                 m["words"]) for m in alone if m["per"] is None],
                                f"\"{words}\" names more than one amount.")]
    return None, []


def _amounts(said: str, cues: list) -> list[dict]:
    """Every amount of the sentence: ranges first, then amounts in a currency, then bare ones beside the budget
    words; each {"start", "end", "low", "high", "per", "currency", "currency_said", "words"}."""
    out = [_mention(said, m, _value(m["num"], m["mult"] or m["mult2"]), _value(m["num2"], m["mult2"]))
           for m in RANGE.finditer(said)]
    out += [_mention(said, m, value, value) for m in MONEY.finditer(said)
            if (value := _value(m["num"] or m["num2"], m["mult"] or m["mult2"])) is not None
            and not _inside(m, out)]
    out += [_mention(said, m, value, value) for m in BARE.finditer(said)
            if (value := _value(m["num"], m["mult"]) or 0) >= (1 if m["mult"] else LEAST)
            and _beside(said, m, cues) and not _inside(m, out)]
    return [m for m in out if m["low"] is not None and m["high"] is not None and m["low"] <= m["high"]]


def _mention(said: str, m, low, high) -> dict:
    marker = (m.groupdict().get("cur") or m.groupdict().get("cur2") or "").upper()
    per = PER.match(said, m.end())
    found = {"start": m.start(), "end": per.end() if per else m.end(), "low": low, "high": high, "per": None,
             "currency": CURRENCIES.get(marker or "R", "ZAR"), "currency_said": bool(marker)}
    if per:
        count = per["count"] and (int(per["count"]) if per["count"].isdigit() else COUNTS.index(per["count"].lower()))
        same = per["unit2"] and per["unit2"].lower().rstrip("s") == per["unit"].lower()
        found.update(low=low * count, high=high * count) if count and same else found.update(per=per["unit"].lower())
    return {**found, "words": said[found["start"]:found["end"]].strip()}


def _inside(m, mentions: list[dict]) -> bool:
    return any(x["start"] <= m.start() < x["end"] for x in mentions)


def _alone(said: str, m: dict) -> bool:
    """Whether an amount in a currency stands alone as the campaign's money, not as the price or prize of a thing."""
    return bool(ALONE_BEFORE.search(said[:m["start"]]) and ALONE_AFTER.match(said, m["end"]))


def _decided(m: dict) -> tuple[dict | None, list[dict]]:
    """The budget of an amount, or the question it raises: a range, or an amount per period with no count."""
    if m["per"]:
        return None, [_question(m["words"], [], f"\"{m['words']}\" is an amount per {m['per']}, and the brief does "
                                f"not say for how many: give the whole budget.")]
    if m["low"] != m["high"]:
        readings = [_reading(m["high"], m["currency"], f"up to {_said(m['high'], m['currency'])}"),
                    _reading(m["low"], m["currency"], _said(m["low"], m["currency"]))]
        return None, [_question(m["words"], readings, f"\"{m['words']}\" is a range, not one budget.")]
    return {"amount": m["low"], "currency": m["currency"], "words": m["words"]}, []


def _question(words: str, readings: list[dict], why: str) -> dict:
    ask = "Which do you mean?" if len(readings) > 1 else "Give the budget as one amount."
    return {"field": "budget", "words": words, "question": f"{why} {ask}", "readings": readings}


def _reading(amount, currency: str, words: str) -> dict:
    return {"amount": amount, "currency": currency, "words": words}


def _said(amount, currency: str) -> str:
    return f"{'R' if currency == 'ZAR' else currency + ' '}{amount:,}".replace(",", " ")


def _gap(m: dict, cue) -> tuple[int, int]:
    """How far an amount stands from the budget words, the one after them first on a tie ("R5000, budget 20k")."""
    return (m["start"] - cue.end(), 0) if m["start"] >= cue.end() else (cue.start() - m["end"], 1)


def _beside(said: str, m, cues: list) -> bool:
    """Whether a bare amount stands right after the budget words, or right before them ("20k budget")."""
    after = any(c.end() <= m.start() and BESIDE.fullmatch(said[c.end():m.start()]) for c in cues)
    return after or any(m.end() <= c.start() and not said[m.end():c.start()].strip() for c in cues)


def _value(num: str | None, mult: str | None) -> int | float | None:
    price = Price.fromstring(num or "")
    if price.amount is None:
        return None
    value = float(price.amount) * MULTIPLIERS.get((mult or "").casefold(), 1)
    return int(value) if value == int(value) else round(value, 2)


GOAL_CUE = re.compile(r"\b(?:goals?|aims?|objectives?|kpis?|purpose|we want to|looking to)\b\W*(?P<said>[^.;!?\n]*)",
                      re.IGNORECASE)
"""Words that name the goal: what follows them in their sentence is the brief's goal."""


def find_goal(brief: str) -> dict | None:
    """{"value", "words"}: the goal named after a word that names the goal ("Goal: sales"), else the most specific
    the brief names (foot traffic before sales: "sell tickets" is about attendance); a goal word in a price
    ("tickets R150") names none; None when it names none."""
    prices = [(m.start(), m.end()) for m in MONEY.finditer(brief)]
    for cue in GOAL_CUE.finditer(brief):
        if found := _goal_in(brief, cue.start("said"), cue.end("said"), prices):
            return found
    return _goal_in(brief, 0, len(brief), prices)


def _goal_in(brief: str, start: int, end: int, prices: list) -> dict | None:
    """The most specific goal named between start and end, outside the words of a price."""
    for goal, pattern in GOAL_PATTERNS.items():
        for found in re.compile(pattern, re.IGNORECASE).finditer(brief, start, end):
            if not any(a - 3 <= found.end() <= a or b <= found.start() <= b + 3 for a, b in prices):
                return {"value": goal, "words": found.group()}
    return None
