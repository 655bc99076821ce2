"""A station whose listeners talk about three themes (gospel, soccer, money), segmented and embedded, for the tests of
custom segments and audiences: `themed_station(company_id)`; originators say their theme (`of_theme`)."""
from __future__ import annotations

from types import SimpleNamespace

from core.audiences import store
from core.audiences.arms import arms_of
from core.credits.ledger import load
from core.search import vectors
from core.segmentation.runs import segment_company
from tests.factories import make_listener
from tests.memory import NOW, event

GOSPEL = ["Please play Rebecca Malope, praise and worship this Sunday", "Amen, the gospel choir was a blessing"]
SOCCER = ["Kaizer Chiefs will beat Pirates in the derby", "What a goal! Soccer talk is the best show"]
MONEY = ["How do I save money for my small business?", "Interest rates and the stock market explained"]
THEMES = {"gospel": (1, GOSPEL), "soccer": (2, SOCCER), "money": (3, MONEY)}
GOSPEL_THEME = "gospel music and church worship"
EVERYONE_THEME = "WhatsApp users"
"""A theme every listener of a themed station meets (each wrote on WhatsApp)."""
CREDITS = 100
REACHABLE = ((True, True), (True, False), (True, True), (None, None))
"""opt_in and permission of the listeners numbered 0 to 3 of each theme: 0 and 2 may be contacted."""


def originator(company_id: int, theme: str, n: int) -> str:
    """`27811000002`: company 1, theme 1 (gospel), listener 2."""
    return f"278{company_id}{THEMES[theme][0]}00000{n}"


def of_theme(company_id: int, theme: str, count: int = 4) -> set[str]:
    return {originator(company_id, theme, n) for n in range(count)}


def history(messages: list[str], days_ago: float = 3) -> list[dict]:
    """The interactions of a listener who wrote these messages lately, with some more interactions before."""
    return ([event(days_ago + i, channel=2, message=m) for i, m in enumerate(messages)]
            + [event(days_ago + 10 + i) for i in range(6)])


def person(company_id: int, who: str, messages: list[str], days_ago: float = 3, **declared) -> None:
    """A listener who wrote these messages lately, with some more interactions before."""
    make_listener(company_id, who, history(messages, days_ago), **declared)


def themed_people(company_id: int = 1) -> list[dict]:
    """The listeners of `themed_station`, four of each theme, as tests.memory.snapshot_of takes them: each a listener
    document (originator and declared fields) with its `events`."""
    people = []
    for theme, (_, messages) in THEMES.items():
        for n, (opt_in, permission) in enumerate(REACHABLE):
            declared = {"location": "Durban" if n % 2 else "Soweto",
                        "gender": {"gospel": "female", "soccer": "male"}.get(theme, "male" if n % 2 else "female")}
            if opt_in is not None:
                declared.update(opt_in=opt_in, permission=permission)
            people.append({"originator": originator(company_id, theme, n), **declared, "events": history(messages)})
    return people


def themed_station(company_id: int = 1, credits: float = CREDITS) -> int:
    """Four listeners of each theme, segmented as of NOW, embedded, and the credits loaded."""
    for listener in themed_people(company_id):
        declared = {k: v for k, v in listener.items() if k not in ("originator", "events")}
        make_listener(company_id, listener["originator"], listener["events"], **declared)
    segment_company(company_id, NOW)
    vectors.refresh_embeddings(company_id)
    if credits:
        load(company_id, credits)
    return company_id


def split_both_ways(monkeypatch, originators: set[str], percent: int = 50) -> str:
    """Make the next audience's id one under which these listeners fall in both arms at `percent` (found by the rule
    itself, so that a test of what happens to each arm never depends on a random id that holds out nobody)."""
    ordered = sorted(originators)
    chosen = next(f"split-{n}" for n in range(10_000) if len(set(arms_of(f"split-{n}", percent, ordered))) == 2)
    monkeypatch.setattr(store, "secrets", SimpleNamespace(token_urlsafe=lambda _size: chosen))
    return chosen
