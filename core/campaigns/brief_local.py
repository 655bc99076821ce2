"""The `local` provider's reading of a brief: offline, deterministic, and conservative (a criterion the advertiser did
not ask for narrows their audience wrongly, which is worse than one left for them to add).

The audience's criteria are read strictly by the one reader of the station's words (core.search.understanding,
which search and audience themes read leniently); dates by core.campaigns.brief_facts, budget and goal by
core.campaigns.brief_budget; what the brief asks of its audience that no filter holds (owning, doing, unknown
interests and places) is unmapped here.
"""
from __future__ import annotations

import re
from datetime import datetime

from core.campaigns import brief_budget, brief_facts
from core.search import words as w
from core.search.understanding import overlaps, read_criteria
from core.search.vocabulary import Vocabulary

MODEL = "brief-rules-1"
FAN_WORDS = re.compile(r"\b(?P<what>[A-Za-z][\w'-]*)\s+(?:fans|lovers|supporters|enthusiasts)\b")
NOT_A_TOPIC = {"our", "the", "their", "your", "biggest", "loyal", "top", "true", "real", "hard", "die", "super", "new",
               "most", "all", "radio", "station", "its", "his", "her", "diehard", "keen", "avid", "big"}
PLACE = re.compile(r"\b(?:in|around|near|across)\s+(?P<place>[A-Z][a-z]+(?:\s[A-Z][a-z]+)?)")
NOT_A_PLACE = set("january february march april may june july august september october november december monday "
                  "tuesday wednesday thursday friday saturday sunday the our their this that".split())


def read_brief(vocab: Vocabulary, brief: str, now: datetime) -> dict:
    """{"items": [{field, values, words, span}], "dates", "questions", "budget", "goal", "unmapped": [{words,
    reason}]}."""
    items, unmapped = read_criteria(vocab, brief)
    taken = [i["span"] for i in items]
    dates, questions = brief_facts.read_dates(brief, now, vocab.timezone, taken, vocab.country)
    budget = brief_budget.find_budget(brief)
    goal = brief_budget.find_goal(brief)
    unmapped += _unmapped(brief, taken + [u["span"] for u in unmapped])
    return {"items": items, "dates": dates, "questions": questions, "budget": budget, "goal": goal,
            "unmapped": [{"words": u["words"], "reason": u["reason"]} for u in unmapped]}


def _unmapped(brief: str, taken: list) -> list[dict]:
    """What the brief asks of its audience that no filter holds: owning, doing, unknown interests and places."""
    found = []
    for pattern, reason in w.UNMAPPED_PATTERNS.items():
        found += [(m.start(), m.end(), reason) for m in re.finditer(pattern, brief, re.IGNORECASE)]
    for m in FAN_WORDS.finditer(brief):
        if m["what"].casefold() not in NOT_A_TOPIC:
            found.append((m.start(), m.end(), f"No interest of this station is called {m['what']}."))
    for m in PLACE.finditer(brief):
        if m["place"].split()[0].casefold() not in NOT_A_PLACE:
            found.append((m.start("place"), m.end(), f"{m['place']} is not a place this station's listeners give."))
    out, seen = [], list(taken)
    for start, end, reason in sorted(found):
        if not overlaps((start, end), seen):
            seen.append((start, end))
            out.append({"words": brief[start:end].strip(), "reason": reason, "span": (start, end)})
    return out
