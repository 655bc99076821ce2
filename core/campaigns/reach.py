"""Whether a plan's audience can carry its budget: a plan that reaches 6 listeners for R20,000 is no normal plan, and
it says so, with the figure (what one listener reached costs) and how to widen it.

A listener reached is one the plan can message directly (opted in, with permission: the plan's expected reach). A
direct message costs cents and a spot reaches a show's listeners for a few rand each at most, so a budget of more
than CARRIED per listener reached is spent on too few people; the plan then names the filters whose removal would
reach the most more listeners (counted by core.campaigns.audience_profile.widening), a run longer than a few days
left, or the spend the audience does carry.
"""
from __future__ import annotations

from core.text.wording import plural

CARRIED = {"ZAR": 50.0, "USD": 3.0, "EUR": 3.0, "GBP": 2.5}
"""The most one listener reached may cost before a plan says its audience is too thin for its budget."""
SYMBOLS = {"ZAR": "R", "USD": "$", "EUR": "€", "GBP": "£"}
WIDEN = 3
SHORT_RUN = 7
"""Days left under which a plan proposes a longer run."""


def money(amount: float, currency: str) -> str:
    """An amount as people write it: "R20,000", "R48.75", "$3", "CHF 40" (cents only under a hundred)."""
    symbol, whole = SYMBOLS.get(currency), amount >= 100 or float(amount).is_integer()
    shown = f"{amount:,.0f}" if whole else f"{amount:,.2f}"
    return f"{symbol}{shown}" if symbol else f"{currency} {shown}".strip()


def carried(budget: dict | None, audience: dict, run: dict | None) -> dict | None:
    """None when the audience carries the budget (or there is no budget); else {"per_listener", "ceiling",
    "carries", "currency", "words", "widen": [{field, value, size, reachable, per_listener}], "longer"}."""
    if not budget or not budget.get("amount") or budget.get("currency") not in CARRIED:
        return None
    amount, currency = float(budget["amount"]), budget["currency"]
    ceiling, reached = CARRIED[currency], int(audience.get("reachable") or 0)
    per = round(amount / reached, 2) if reached else None
    if per is not None and per <= ceiling:
        return None
    widen = [{**e, "per_listener": round(amount / e["reachable"], 2)} for e in audience.get("widening", [])
             if e["reachable"] > reached][:WIDEN]
    days_left = (run or {}).get("days_left")
    longer = days_left is not None and days_left < SHORT_RUN
    return {"per_listener": per, "ceiling": ceiling, "carries": reached * ceiling, "currency": currency,
            "words": _words(amount, currency, reached, per, ceiling), "widen": widen, "longer": longer,
            "proposal": _proposal(widen, longer, days_left, reached * ceiling, currency)}


def _words(amount: float, currency: str, reached: int, per: float | None, ceiling: float) -> str:
    """The warning: the budget, the listeners reached, and what each costs against what a plan carries."""
    if per is None:
        return (f"This audience cannot carry a budget of {money(amount, currency)}: none of its listeners can be "
                "messaged directly")
    return (f"This audience is too thin for its budget: {money(amount, currency)} over "
            f"{plural(reached, 'listener')} reached is {money(per, currency)} per listener reached, where a plan "
            f"carries at most {money(ceiling, currency)} each")


def _proposal(widen: list[dict], longer: bool, days_left: int | None, carries: float, currency: str) -> str:
    """How to widen it, in one sentence: the filters to drop (the page names them), a longer run, or a smaller
    spend."""
    ways = []
    if widen:
        ways.append("drop or widen one of the filters below")
    if longer:
        ways.append(f"run longer than the {plural(days_left, 'day')} left" if days_left else "give new dates")
    ways.append(f"spend about {money(carries, currency)}" if carries else "reach listeners on air only")
    return "To widen it, " + (f"{', '.join(ways[:-1])} or {ways[-1]}" if len(ways) > 1 else ways[0])
