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


SALUTE = re.compile(r"(?im)^[^\w\n]*(?P<hi>" + "|".join(sorted(map(re.escape, w.SALUTATIONS), key=len, reverse=True))
                    + r")\b(?P<to>[ \t]+[^\W\d][^,.!?:;\n\d]{0,30})?[ \t]*(?:[,.!?:;\n]|$)")
"""A greeting that opens the brief or a line of it, with whom it greets in three words at most ("Hi guys,")."""
DESTINATION = re.compile(r"\b(?:(?P<to>to|towards|into|heading|going|travelling|traveling|bound)|in|around|near|"
                         r"across|from|at|within|throughout|of)\b", re.IGNORECASE)
"""The words that say what a place is to the audience: where it goes (to, heading, ...), or where it is."""


def read_brief(vocab: Vocabulary, brief: str, now: datetime) -> dict:
    """{"items": [{field, values, words, span}], "dates", "questions", "budget", "goal", "unmapped": [{words,
    reason}]}. A greeting is read as nothing (it addresses the brief's reader); a place the audience goes to is no
    criterion."""
    read_as = _greeting_blanked(brief)
    items, unmapped = read_criteria(vocab, read_as)
    items, unmapped = _destinations(brief, items, unmapped)
    taken = [i["span"] for i in items]
    dates, questions = brief_facts.read_dates(read_as, now, vocab.timezone, taken, vocab.country)
    budget, asked = brief_budget.read_budget(brief, taken)
    goal = brief_budget.find_goal(brief)
    unmapped += _unmapped(brief, taken + [u["span"] for u in unmapped])
    return {"items": items, "dates": dates, "questions": questions + asked, "budget": budget, "goal": goal,
            "unmapped": [{"words": u["words"], "reason": u["reason"]} for u in unmapped]}


def _greeting_blanked(brief: str) -> str:
    """The brief with its greetings blanked (positions kept), unless the greeting's word begins a daypart's name
    ("Morning drive listeners,")."""
    chars = list(brief)
    for m in SALUTE.finditer(brief):
        said = " ".join(brief[m.start("hi"):m.end()].casefold().split())
        if len((m["to"] or "").split()) > 3 or any(said.startswith(p) and len(p) > len(m["hi"]) for phrases in
                                                  w.DAYPART_WORDS.values() for p in phrases):
            continue
        chars[m.start("hi"):m.end()] = " " * (m.end() - m.start("hi"))
    return "".join(chars)


def _destinations(brief: str, items: list[dict], unmapped: list[dict]) -> tuple[list[dict], list[dict]]:
    """Places the audience is going to ("heading home to EC & Limpopo": the last place word before them in their
    sentence says so) are unmapped with the reason; only where the audience is is a criterion."""
    kept = []
    for item in items:
        before = re.split(r"[.;!?\n]", brief[:item["span"][0]])[-1]
        said = list(DESTINATION.finditer(before))
        if item["field"] == "location" and said and said[-1]["to"]:
            unmapped.append({"words": item["words"], "span": item["span"], "reason": f"{item['words']} is a place "
                             "the audience is going to, not where it is: no place filter says where listeners go."})
        else:
            kept.append(item)
    return kept, unmapped


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
