"""What a brief's dates and budget make of a plan: the run as a range of days, the airings of the audience's shows
inside it, and the budget spread over those airings when the station keeps a rate card (else what it would need).

A run that has started when the plan is made is still the whole run, and the plan says so: only the days left can
still air, so the airings (and the budget's spots) are counted over those; a run that has ended is said to have
ended, with nothing left to air. "Today" is the station's, from the one clock.

A station's rate card is `Company.rate_card`: {"show:<timeslot_id>": price of one spot in that show,
"channel:<channel_type>": price of one message on that channel}, in the brief's currency; set by an operator on the
station's document, as the segment thresholds are. The spread is plain arithmetic over figures the plan already
shows: the audience's shows, best first, each given spots in turn until the budget or the airings run out. Whether
the audience can carry the budget at all is core.campaigns.reach's.

The public holidays of the station's country (the `holidays` package) that fall in the days left are counted, and
each show's airings on them are said apart: a show may not air as usual on Christmas Day, and listening differs.
"""
from __future__ import annotations

from datetime import date, timedelta

import holidays as holiday_calendars

from core.campaigns.reach import carried, money
from core.clock import station_today
from core.stations.models import Company, Show
from core.text.wording import agree, day_words, join_words, number, plural

DAY_NAMES = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
SHOWS = 3  # the audience's shows a plan schedules, most listened first
SPOTS_PER_AIRING = 2
WEEKEND = frozenset({6, 7})


def schedule(company: Company, dates: dict | None, budget: dict | None, audience: dict,
             today: date | None = None, shows: list[Show] | None = None) -> dict:
    """{"dates", "airings", "holidays", "budget", "reach"}: each None (airings empty) when the brief gave nothing to
    work from; `today` is the station's today (the plan's day of making); `shows`, the station's shows, are read from
    its stored ones when not given."""
    span, today = _span(dates), today or station_today(company.timezone)
    left = _left(span, today)
    days_off = {d: n for d, n in public_holidays(company.country, left).items() if d in _run_days(left)} if left else {}
    airings = _airings(company.company_id, left, audience, shows, days_off) if left else []
    spread = _budget(company, budget, airings, audience, span is not None and left is None)
    return {"dates": _dates(span, today), "airings": airings, "holidays": _holidays(days_off, airings),
            "budget": spread, "reach": carried(budget, audience, _dates(span, today))}


def public_holidays(country: str | None, span: tuple) -> dict[date, str]:
    """The country's public holidays within the span, by day (a day observed for a Sunday's holiday included)."""
    calendar = holiday_calendars.country_holidays(country or "ZA", years=range(span[0].year, span[1].year + 1))
    return {day: name for day, name in sorted(calendar.items()) if span[0] <= day <= span[1]}


def _holidays(days_off: dict[date, str], airings: list[dict]) -> dict | None:
    """The public holidays in the days left and the airings on them, in words: "25 Dec (Christmas Day) and 1 Jan
    (New Year's Day) fall in the window: 3 airings fall on them (2 of The Drive and 1 of Kasi Classics)"."""
    if not days_off:
        return None
    named = join_words([f"{d.day} {d:%b} ({name})" for d, name in days_off.items()])
    on = [a for a in airings if a["on_holidays"]]
    count = sum(a["on_holidays"] for a in on)
    each = join_words([f"{number(a['on_holidays'])} of {a['title']}" for a in on])
    them = agree(len(days_off), "it", "them")
    said = (f"{plural(count, 'airing')} {agree(count, 'falls', 'fall')} on {them} ({each})" if on else
            f"none of the audience's shows airs on {them}")
    return {"days": [{"date": d.isoformat(), "name": name} for d, name in days_off.items()], "airings": count,
            "words": f"{named} {agree(len(days_off), 'falls', 'fall')} in the window: {said}"}


def _span(dates: dict | None) -> tuple | None:
    """(first day, last day, the ISO weekdays it runs on or None for every day)."""
    if not dates or not dates.get("start") or not dates.get("end"):
        return None
    start, end = date.fromisoformat(dates["start"][:10]), date.fromisoformat(dates["end"][:10])
    return (start, end, frozenset(dates["weekdays"]) if dates.get("weekdays") else None) if start <= end else None


def _left(span: tuple | None, today: date) -> tuple | None:
    """The days of the run still to come, today included; None when it has ended (or there is no run)."""
    if span is None or span[1] < today:
        return None
    return max(span[0], today), span[1], span[2]


def _run_days(span: tuple) -> list[date]:
    """The days of a span the run is on the air: all of them, or only its weekdays ("this weekend and next")."""
    days = [span[0] + timedelta(days=n) for n in range((span[1] - span[0]).days + 1)]
    return [d for d in days if span[2] is None or d.isoweekday() in span[2]]


def _dates(span: tuple | None, today: date) -> dict | None:
    """The run in days, and whether it has started or ended by today: "state" is "ahead", "started" or "ended"."""
    if span is None:
        return None
    days, weekend = _days(span)
    base = {"start": span[0].isoformat(), "end": span[1].isoformat(), "days": days, "weekend_days": weekend,
            **({"weekdays": sorted(span[2])} if span[2] else {})}
    if span[1] < today:
        return {**base, "state": "ended", "days_left": 0,
                "words": f"it ended on {day_words(span[1])}, before this plan was made: none of its "
                         f"{plural(days, 'day')} is left to air; ask the advertiser for new dates"}
    if span[0] < today:
        left, left_weekend = _days((today, span[1], span[2]))
        return {**base, "state": "started", "days_left": left,
                "words": f"it started on {day_words(span[0])}, so {number(left)} of its {plural(days, 'day')} "
                         f"{agree(left, 'is', 'are')} left to air ({date_span(today, span[1])}): "
                         f"{plural(left - left_weekend, 'weekday')} and {plural(left_weekend, 'weekend day')}"}
    only = " (weekends only)" if span[2] == WEEKEND else ""
    return {**base, "state": "ahead", "days_left": days,
            "words": f"{plural(days, 'day')}{only}: {plural(days - weekend, 'weekday')} and "
                     f"{plural(weekend, 'weekend day')}"}


def _days(span: tuple) -> tuple[int, int]:
    """The days of a run and how many of them fall on a weekend."""
    days = _run_days(span)
    return len(days), sum(d.isoweekday() >= 6 for d in days)


def date_span(start: date, end: date) -> str:
    """"28 Nov 2026 to 30 Nov 2026", or the one day."""
    return day_words(start) if start == end else f"{day_words(start)} to {day_words(end)}"


def _airings(company_id: int, span: tuple, audience: dict, given: list[Show] | None,
             days_off: dict[date, str]) -> list[dict]:
    """The audience's most listened shows with how often each airs within the run, and how often on a public
    holiday."""
    wanted = [e for e in audience.get("shows", []) if str(e["value"]).isdigit()][:SHOWS]
    ids = [int(e["value"]) for e in wanted]
    found = (Show.objects(company_id=company_id, timeslot_id__in=ids) if given is None else
             [s for s in given if s.company_id == company_id and s.timeslot_id in ids])
    shows = {s.timeslot_id: s for s in found}
    out = []
    for entry in wanted:
        show = shows.get(int(entry["value"]))
        if show is None:
            continue
        airs = [day for day in _run_days(span) if day.isoweekday() in set(show.days)]
        when = f"{join_words([DAY_NAMES[d - 1] for d in sorted(show.days)])} {show.start}-{show.end}"
        out.append({"timeslot_id": show.timeslot_id, "title": show.title, "listeners": entry["count"],
                    "airings": len(airs), "on_holidays": sum(day in days_off for day in airs), "when": when})
    return out


def _budget(company: Company, budget: dict | None, airings: list[dict], audience: dict,
            ended: bool = False) -> dict | None:
    """The budget spread over the airings by the rate card: spots per show, what is spent, what one reachable
    listener costs; without a rate card (or a price for these shows), what the plan would need, in a producer's
    words (never the setting's name)."""
    if not budget or not budget.get("amount"):
        return None
    amount, currency = float(budget["amount"]), budget.get("currency") or ""
    card = getattr(company, "rate_card", None) or {}
    priced = [(a, float(card[f"show:{a['timeslot_id']}"])) for a in airings if card.get(f"show:{a['timeslot_id']}")]
    base = {"amount": amount, "currency": currency}
    if not priced:
        titles = join_words([a["title"] for a in airings]) or "the audience's shows"
        why = ("the run has ended, so no airing is left to spend it on" if ended else
               f"the station has no price per spot for {titles} yet; once the station's rate card holds them, the "
               "plan spreads the budget over their airings")
        return {**base, "spots": [], "spent": 0, "per_reachable": None,
                "words": f"Budget of {money(amount, currency)} read, not spread over airings: {why}"}
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
            "words": f"{money(spent, currency)} of {money(amount, currency)} buys "
                     f"{join_words([plural(r['spots'], 'spot') + ' in ' + r['title'] for r in rows])}"
                     + (f"; {money(per, currency)} per reachable listener" if per is not None else "")}
