"""What a brief's dates and budget make of a plan: the run as a range of days, the airings of the audience's shows
inside it, and the budget spread over those airings when the station keeps a rate card (else what it would need).

A station's rate card is `Company.rate_card`: {"show:<timeslot_id>": price of one spot in that show,
"channel:<channel_type>": price of one message on that channel}, in the brief's currency; set by an operator on the
station's document, as the segment thresholds are. The spread is plain arithmetic over figures the plan already
shows: the audience's shows, best first, each given spots in turn until the budget or the airings run out.
"""
from __future__ import annotations

from datetime import date, timedelta

from core.stations.models import Company, Show
from core.text.wording import join_words, number, plural

DAY_NAMES = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
SHOWS = 3  # the audience's shows a plan schedules, most listened first
SPOTS_PER_AIRING = 2


def schedule(company: Company, dates: dict | None, budget: dict | None, audience: dict) -> dict:
    """{"dates", "airings", "budget"}: each None when the brief gave nothing to work from."""
    span = _span(dates)
    airings = _airings(company.company_id, span, audience) if span else []
    return {"dates": _dates(span), "airings": airings, "budget": _budget(company, budget, airings, audience)}


def _span(dates: dict | None) -> tuple[date, date] | None:
    if not dates or not dates.get("start") or not dates.get("end"):
        return None
    start, end = date.fromisoformat(dates["start"][:10]), date.fromisoformat(dates["end"][:10])
    return (start, end) if start <= end else None


def _dates(span: tuple[date, date] | None) -> dict | None:
    if span is None:
        return None
    days = [span[0] + timedelta(days=n) for n in range((span[1] - span[0]).days + 1)]
    weekend = sum(d.isoweekday() >= 6 for d in days)
    return {"start": span[0].isoformat(), "end": span[1].isoformat(), "days": len(days), "weekend_days": weekend,
            "words": f"{plural(len(days), 'day')}: {plural(len(days) - weekend, 'weekday')} and "
                     f"{plural(weekend, 'weekend day')}"}


def _airings(company_id: int, span: tuple[date, date], audience: dict) -> list[dict]:
    """The audience's most listened shows with how often each airs within the run."""
    wanted = [e for e in audience.get("shows", []) if str(e["value"]).isdigit()][:SHOWS]
    shows = {s.timeslot_id: s for s in Show.objects(company_id=company_id,
                                                    timeslot_id__in=[int(e["value"]) for e in wanted])}
    out = []
    for entry in wanted:
        show = shows.get(int(entry["value"]))
        if show is None:
            continue
        airs = sum(1 for n in range((span[1] - span[0]).days + 1)
                   if (span[0] + timedelta(days=n)).isoweekday() in set(show.days))
        out.append({"timeslot_id": show.timeslot_id, "title": show.title, "listeners": entry["count"],
                    "airings": airs, "when": f"{join_words([DAY_NAMES[d - 1] for d in sorted(show.days)])} "
                                             f"{show.start}-{show.end}"})
    return out


def _budget(company: Company, budget: dict | None, airings: list[dict], audience: dict) -> dict | None:
    """The budget spread over the airings by the rate card: spots per show, what is spent, what one reachable
    listener costs; without a rate card (or a price for these shows), what the plan would need."""
    if not budget or not budget.get("amount"):
        return None
    amount, currency = float(budget["amount"]), budget.get("currency") or ""
    card = getattr(company, "rate_card", None) or {}
    priced = [(a, float(card[f"show:{a['timeslot_id']}"])) for a in airings if card.get(f"show:{a['timeslot_id']}")]
    base = {"amount": amount, "currency": currency}
    if not priced:
        titles = join_words([a["title"] for a in airings]) or "the audience's shows"
        return {**base, "spots": [], "spent": 0, "per_reachable": None,
                "words": f"Budget {currency} {number(amount)} read, not spread: the station has no rate card for "
                         f"{titles}. Add a price per spot (Company.rate_card) and the plan allocates it."}
    left, spots = amount, {a["timeslot_id"]: 0 for a, _ in priced}
    while True:
        placed = False
        for show, price in priced:
            if price <= left and spots[show["timeslot_id"]] < show["airings"] * SPOTS_PER_AIRING:
                spots[show["timeslot_id"]] += 1
                left -= price
                placed = True
        if not placed:
            break
    spent = amount - left
    reachable = audience.get("reachable") or 0
    rows = [{"title": a["title"], "spots": spots[a["timeslot_id"]], "price": price,
             "cost": spots[a["timeslot_id"]] * price} for a, price in priced]
    per = round(spent / reachable, 2) if reachable else None
    return {**base, "spots": rows, "spent": spent, "per_reachable": per,
            "words": f"{currency} {number(spent)} of {currency} {number(amount)} buys "
                     f"{join_words([plural(r['spots'], 'spot') + ' in ' + r['title'] for r in rows])}"
                     + (f"; {currency} {number(per)} per reachable listener" if per is not None else "")}
