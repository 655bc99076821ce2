"""Parse-brief: an advertiser's free-text brief as targeting criteria mapped to the shared filter set, with the words
each came from, the campaign's dates, budget and goal, and what no filter can express.

Either provider reads the brief (`local` by default, `openai` when configured); both answers are shaped here alike:
every value is checked against the station's own vocabulary and the filters are parsed by the one filter type, so
whatever a brief says (or makes a model say), the answer can only hold this station's values of the shared filters.
"""
from __future__ import annotations

import re
from datetime import date, datetime

from core.campaigns import brief_local, brief_openai
from core.campaigns.brief_questions import refused_past
from core.clock import utcnow, zone_of
from core.config import active
from core.credits import charges
from core.errors import ValidationFailed
from core.explore.filters import parse_filters
from core.explore.spec import SPEC, included
from core.search.queries import FILLER
from core.search.vocabulary import Vocabulary, station_vocabulary
from core.text.storable import storable

OPERATION = "parse_brief"
MAX_BRIEF = 5000
REPEATED = ("strings", "ints", "all_of")
"""Filter kinds that take several values; the others take one."""
FACTS = ("dates", "budget", "goal")


def check_brief(brief, loc: tuple = ("body", "brief")) -> str:
    """The brief without surrounding blanks: 422 when it is blank, longer than MAX_BRIEF characters or not text the
    database can keep (it is stored with every answer)."""
    text = storable(brief.strip(), list(loc)) if isinstance(brief, str) else ""
    if not text:
        raise ValidationFailed.one(list(loc), "Write the brief: it may not be blank.")
    if len(text) > MAX_BRIEF:
        raise ValidationFailed.one(list(loc), f"A brief has at most {MAX_BRIEF} characters.")
    return text


def parse_brief(company_id: int, brief: str) -> dict:
    """The brief's criteria, filters, dates, budget, goal and unmapped asks; charged (402 short, 403 paused,
    refunded when the provider fails)."""
    text = check_brief(brief)
    vocab = station_vocabulary(company_id)  # an unknown company is a 404 before any charge
    with charges.charge(company_id, OPERATION) as bill:
        parsed = read(vocab, text)
        bill.record(provider=parsed["provider"], model=parsed["model"], tokens_in=parsed["tokens_in"],
                    tokens_out=parsed["tokens_out"])
    return {"company_id": company_id, "brief": text, **parsed, "cost": bill.cost, "balance": bill.balance,
            "cached": False}


def read(vocab: Vocabulary, brief: str, now: datetime | None = None, today: date | None = None) -> dict:
    """The configured provider's reading of the brief, shaped and checked: {criteria, filters, dates, questions,
    budget, goal, unmapped, unused, provider, model, tokens_in, tokens_out}. Dates wholly before the station's today
    are refused: no dates, and a question saying so (core.campaigns.brief_questions); `today` is the station's, read
    from `now` when not given."""
    settings, now = active(), now or utcnow()
    if settings.ai_provider == "openai":
        raw = brief_openai.read_brief(vocab, brief, now, settings)
    else:
        raw = {**brief_local.read_brief(vocab, brief, now), "provider": "local", "model": brief_local.MODEL,
               "tokens_in": 0, "tokens_out": 0}
    today = today or now.astimezone(zone_of(vocab.timezone)).date()
    dates, questions = refused_past(raw.get("dates"), raw.get("questions", []), today)
    found = shaped(vocab, {**raw, "dates": dates})
    found["questions"] = questions
    return {**found, "unused": unused(brief, found), "provider": raw["provider"], "model": raw["model"],
            "tokens_in": raw["tokens_in"], "tokens_out": raw["tokens_out"]}


def unused(brief: str, found: dict) -> list[str]:
    """The brief's words that no criterion, date, budget, goal or unmapped ask was read from, as phrases in their
    order ("furniture store", "Black Friday deals"): every word of a brief is either used or said to be unused, so
    an advertiser sees what the plan does not act on. Words that only frame a request are neither."""
    said = [item["words"] for item in [*found["criteria"], *found["unmapped"], *found["questions"]]
            if item.get("words")]
    covered = [m.span() for words in said for m in re.finditer(re.escape(words), brief, re.IGNORECASE)]
    phrases, run = [], []
    for m in re.finditer(r"[^\W_][\w'&-]*", brief):
        inside = any(start <= m.start() < end for start, end in covered)
        if inside or m.group().casefold() in FILLER or m.group().casefold() in FRAMING or m.group().isdigit():
            run = _flushed(phrases, run)
        else:
            run.append(m.group())
    _flushed(phrases, run)
    return list(dict.fromkeys(phrases))


def _flushed(phrases: list[str], run: list[str]) -> list[str]:
    if run:
        phrases.append(" ".join(run))
    return []


FRAMING = frozenset("""we us i our client brand campaign campaigns advert adverts ad ads advertise advertising promote
promoting promotion want wants would like need needs looking aim aims goal reach reaching target targeting run runs
running please help get make sure can could should will budget spend spending between during over next this week
weeks month months year day days plan planning message messages send""".split())
"""Words that frame a brief rather than ask anything of its audience: never listed as unused."""


def shaped(vocab: Vocabulary, raw: dict) -> dict:
    """Criteria whose values the station holds, merged into filters that parse_filters takes as they are; the rest
    unmapped with the reason (a one-value filter named with two values is neither guessed: both are unmapped)."""
    accepted, unmapped = [], list(raw["unmapped"])
    for item in raw["items"]:
        name, words = item["field"], item["words"]
        values = [vocab.holds(included(name), v) for v in item["values"]] if name in SPEC else [None]
        if not values or None in values:
            unmapped.append({"words": words or ", ".join(map(str, item["values"])),
                             "reason": f"Not a value of this station's {included(name).replace('_', ' ')} filter."})
        elif {"field": name, "values": values, "words": words} not in accepted:
            accepted.append({"field": name, "values": values, "words": words})
    accepted = _ages_by_number(accepted)
    torn = _torn(accepted)
    unmapped += [{"words": e["words"], "reason": f"The {e['field'].replace('_', ' ')} filter takes one value; the "
                  "brief names more than one."} for e in accepted if e["field"] in torn]
    criteria = [e for e in accepted if e["field"] not in torn]
    filters: dict = {}
    for entry in criteria:
        if SPEC[entry["field"]][0] in REPEATED:
            held = filters.setdefault(entry["field"], [])
            held += [v for v in entry["values"] if v not in held]
        else:
            filters[entry["field"]] = entry["values"][0]
    parse_filters(filters)  # every value is the station's own: a failure here is a bug, not the client's input
    criteria += [{"field": name, "values": _fact_values(name, raw[name]), "words": raw[name]["words"]}
                 for name in FACTS if raw.get(name)]
    return {"criteria": criteria, "filters": filters, "dates": raw.get("dates"), "budget": raw.get("budget"),
            "goal": raw.get("goal"), "unmapped": _unique(unmapped)}


def _ages_by_number(entries: list[dict]) -> list[dict]:
    """The ages a brief gives by number rule over its age words where they meet ("young drivers aged 18-24" is
    18-24, not all that "young" means: core.search.words.YOUNG)."""
    numbered = {v for e in entries if e["field"] == "age_group" and re.search(r"\d", e["words"] or "")
                for v in e["values"]}
    return [e for e in entries if not (e["field"] == "age_group" and numbered and set(e["values"]) & numbered
                                       and not re.search(r"\d", e["words"] or ""))]


def _torn(entries: list[dict]) -> set[str]:
    """One-value filters that the entries give more than one value."""
    values: dict[str, set] = {}
    for entry in entries:
        if SPEC[entry["field"]][0] not in REPEATED:
            values.setdefault(entry["field"], set()).update(map(str, entry["values"]))
    return {name for name, held in values.items() if len(held) > 1}


def _fact_values(name: str, fact: dict) -> list:
    if name == "dates":
        return [fact["start"], fact["end"]]
    if name == "budget":
        return [fact["amount"], fact["currency"]]
    return [fact["value"]]


def _unique(unmapped: list[dict]) -> list[dict]:
    seen, out = set(), []
    for item in unmapped:
        if item["words"] not in seen:
            seen.add(item["words"])
            out.append(item)
    return out

