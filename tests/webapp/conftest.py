"""Dashboard fixtures: accounts, stored segmentation runs, a live server and a headless Chromium."""
from __future__ import annotations

import re
import threading
from datetime import timedelta
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from core.access.models import User
from core.access.users import create_user
from core.demo.seed import seed_demo
from core.search.vectors import refresh_embeddings
from core.segmentation.models import SegmentRun
from core.segmentation.rules import SEGMENTS
from core.segmentation.runs import segment_company
from tests.conftest import empty_database, kept, restored
from tests.factories import Stored, make_company, stored_listeners
from tests.memory import NOW

SCREENSHOTS = Path(__file__).resolve().parents[2] / "screenshots"
PASSWORD = "on-air-2026"

JOZI_COUNTS = {"new_listener": 860, "super_fan": 1420, "show_loyalist": 2310, "competition_chaser": 1750,
               "occasional_engager": 3380, "at_risk": 1640, "dormant": 1120}
"""Station 1: 12,480 listeners."""

JOZI_TAGS = {
    "vip": {"super_fan": 310, "show_loyalist": 120, "occasional_engager": 40, "at_risk": 12},
    "breakfast-club": {"super_fan": 260, "show_loyalist": 540, "occasional_engager": 210, "at_risk": 96, "dormant": 30},
    "prize-winner": {"competition_chaser": 380, "super_fan": 45, "dormant": 22},
    "newsletter": {"new_listener": 120, "super_fan": 300, "show_loyalist": 410, "occasional_engager": 520,
                   "at_risk": 160, "dormant": 210},
}

JOZI_MATRIX = {
    "super_fan": {"at_risk": 120, "occasional_engager": 64, "show_loyalist": 18},
    "occasional_engager": {"show_loyalist": 96, "super_fan": 41, "at_risk": 77, "dormant": 12},
    "at_risk": {"dormant": 75, "occasional_engager": 38},
    "show_loyalist": {"at_risk": 22, "super_fan": 30},
    "new_listener": {"occasional_engager": 210, "competition_chaser": 58, "super_fan": 14},
    "competition_chaser": {"occasional_engager": 19, "dormant": 9},
    "dormant": {"occasional_engager": 11},
    "unsegmented": {"new_listener": 860},
}

JOZI_HIGHLIGHTS = [
    "210 new listeners are now occasional engagers, 48% of them Drive Time listeners",
    "120 super fans are now at risk, most of them Breakfast Show listeners",
    "96 occasional engagers are now show loyalists, most of them Drive Time listeners",
]

COAST_COUNTS = {"new_listener": 97, "super_fan": 404, "show_loyalist": 733, "competition_chaser": 918,
                "occasional_engager": 1650, "at_risk": 611, "dormant": 897}
"""Station 2: 5,310 listeners."""

AVERAGES = {
    "new_listener": (2.1, 4.2, 4.2, 1.3, 0.22), "super_fan": (1.8, 17.6, 44.0, 2.7, 0.18),
    "show_loyalist": (4.6, 6.1, 19.3, 1.4, 0.12), "competition_chaser": (9.3, 3.8, 9.6, 1.2, 0.86),
    "occasional_engager": (12.4, 2.7, 6.3, 1.2, 0.24), "at_risk": (41.7, 0.6, 5.8, 1.1, 0.31),
    "dormant": (148.2, 0.0, 0.4, 0.2, 0.28),
}
HABITS = {
    "super_fan": ("WhatsApp", 64.2, "breakfast", 52.8, "Breakfast Show", 71.5),
    "show_loyalist": ("SMS", 48.9, "drive", 61.0, "Drive Time", 66.3),
    "at_risk": ("SMS", 57.1, "breakfast", 44.6, "Breakfast Show", 58.0),
}


def _segment_entry(key: str, count: int, total: int) -> dict:
    recency, n30, n90, channels, comp = AVERAGES[key]
    entry = {"count": count, "percentage": round(100.0 * count / total, 1),
             "averages": {"recency_days": recency, "interactions_30d": n30, "interactions_90d": n90,
                          "channels": channels, "competition_share": comp, "rfm_recency": 3.0,
                          "rfm_frequency": 3.0, "rfm_engagement": 3.0}}
    if key in HABITS:
        channel, c_share, daypart, d_share, show, s_share = HABITS[key]
        entry["habits"] = {"top_channel": {"value": 2, "name": channel, "share": c_share},
                           "top_daypart": {"value": daypart, "name": daypart, "share": d_share},
                           "top_show": {"value": 1, "name": show, "share": s_share}}
    return entry


def store_segment_run(company_id: int, counts: dict, tags: dict | None = None, matrix: dict | None = None,
                      highlights: list | None = None, now=NOW, previous_at=None,
                      run_id: str | None = None) -> SegmentRun:
    """A finished SegmentRun holding these rollups and movements, as core.segmentation.overview reads them.

    STAND-IN for a real segmentation run (core.segmentation.segment_company), which was not written yet when these
    tests were: it stores the run document directly so that the pages have numbers. It may later be replaced by
    importing listeners with tests.factories and calling segment_company.
    """
    total = sum(counts.values())
    matrix = matrix or {}
    moved = sum(n for src, row in matrix.items() if src in SEGMENTS for n in row.values())
    return SegmentRun(
        company_id=company_id, run_id=run_id or f"run-{company_id}-{now:%Y%m%d%H%M}", kind="full", now=now,
        started_at=now, finished_at=now + timedelta(seconds=4), listeners=total,
        rollup={"total": total, "segments": {k: _segment_entry(k, counts.get(k, 0), total) for k in SEGMENTS},
                "tags": tags or {}},
        movements={"previous_at": previous_at.isoformat() if previous_at else None, "moved": moved, "matrix": matrix,
                   "highlights": highlights or []},
    ).save()


def two_stations() -> dict[int, str]:
    """Two segmented stations: 1 Jozi FM (with movements since yesterday) and 2 Coast Radio (its first run)."""
    make_company(1, name="Jozi FM")
    make_company(2, name="Coast Radio")
    store_segment_run(1, JOZI_COUNTS, JOZI_TAGS, JOZI_MATRIX, JOZI_HIGHLIGHTS, previous_at=NOW - timedelta(days=1))
    store_segment_run(2, COAST_COUNTS, {"vip": {"super_fan": 77}}, {"unsegmented": COAST_COUNTS})
    return {1: "Jozi FM", 2: "Coast Radio"}


@pytest.fixture
def stations(app):
    """Two segmented stations: 1 Jozi FM (with movements since yesterday) and 2 Coast Radio (its first run)."""
    return two_stations()


@pytest.fixture
def producer(stations):
    """A producer of station 1 only."""
    create_user("thandi@jozi.fm", PASSWORD, companies=[1], name="Thandi Mokoena")
    return "thandi@jozi.fm"


@pytest.fixture
@kept
def kept_producer(app):
    """What `producer` makes (the two `stations`, a producer of station 1), built once per process and restored
    for later tests (a `kept` image): the account keeps its id, so `signed_in_as` can reuse its sign-in."""
    two_stations()
    create_user("thandi@jozi.fm", PASSWORD, companies=[1], name="Thandi Mokoena")
    return "thandi@jozi.fm"


@pytest.fixture
def manager(stations):
    """A user of both stations."""
    create_user("sam@group.fm", PASSWORD, companies=[1, 2], name="Sam Naidoo")
    return "sam@group.fm"


@pytest.fixture
def csrf_enabled(app, monkeypatch):
    """The app with CSRF protection on, as in production (the session app turns it off for brevity)."""
    monkeypatch.setitem(app.config, "WTF_CSRF_ENABLED", True)
    return app


class Auth:
    """Signs in and out through the real forms of the test client."""

    def __init__(self, client):
        self.client = client

    def login(self, email: str, password: str = PASSWORD, **kwargs):
        return self.client.post("/login", data={"email": email, "password": password}, **kwargs)

    def logout(self):
        return self.client.post("/logout")


@pytest.fixture
def auth(client):
    return Auth(client)


@pytest.fixture(scope="session")
def _live_url(_app):
    """The session app served over HTTP on a free loopback port, in a daemon thread."""
    server = make_server("127.0.0.1", 0, _app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join(timeout=10)
    server.server_close()


@pytest.fixture
def live_url(app, _live_url):
    """The live server's URL, over a database emptied for this test (via `app`)."""
    return _live_url


@pytest.fixture(scope="session")
def browser():
    """Debian's chromium-headless-shell (Chromium's engine without its desktop, what Playwright itself runs
    headless) driven by Playwright, for the whole session."""
    from playwright.sync_api import expect, sync_playwright

    # A tab waits 10 s for an element (set_default_timeout below); an expectation waited only its default 5 s, too
    # short on a loaded CI machine for an answer that is slow the first time in a process (AI inference builds the
    # language detector, about 1 s idle and several under load).
    expect.set_options(timeout=10_000)
    playwright = sync_playwright().start()
    chromium = playwright.chromium.launch(executable_path="/usr/bin/chromium-headless-shell",
                                          args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"])
    yield chromium
    chromium.close()
    playwright.stop()


@pytest.fixture
def page(browser, live_url):
    """A fresh browser tab (own cookies) at laptop size, pointed at the live server."""
    context = browser.new_context(base_url=live_url, viewport={"width": 1366, "height": 900})
    context.set_default_timeout(10_000)
    tab = context.new_page()
    yield tab
    context.close()


CSP_REPORTER = """document.addEventListener("securitypolicyviolation", (event) => console.error(
`securitypolicyviolation: ${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`));"""


@pytest.fixture
def csp_violations(page):
    """Every Content-Security-Policy violation of the tab: Chromium's "Refused to ..." console errors and the page's
    securitypolicyviolation events (reported by a script the browser runs outside the policy)."""
    found = []
    page.add_init_script(CSP_REPORTER)
    page.on("console", lambda message: found.append(message.text)
            if "Refused to" in message.text or "securitypolicyviolation" in message.text else None)
    return found


@pytest.fixture
def screenshot():
    """Saves a full-page screenshot under screenshots/ (gitignored) for people to look at."""

    def shoot(tab, name: str) -> Path:
        SCREENSHOTS.mkdir(exist_ok=True)
        path = SCREENSHOTS / f"{name}.png"
        tab.screenshot(path=str(path), full_page=True)
        return path

    return shoot


@pytest.fixture
def sign_in(page):
    """Fills and sends the login form like a person would."""

    def fill(email: str, password: str = PASSWORD) -> None:
        page.goto("/login")
        page.get_by_label("Email").fill(email)
        page.get_by_label("Password").fill(password)
        page.get_by_role("button", name="Sign in").click()

    return fill


@pytest.fixture(scope="module")
def _sessions() -> dict:
    """The cookies a sign-in through the form gave, per account as stored (email, id, session version)."""
    return {}


@pytest.fixture
def signed_in_as(page, sign_in, _sessions):
    """Signs the tab in: through the form the first time in the module, afterwards with the cookies that sign-in
    gave, while the account is the same stored one (a `kept` image lays it down again with the same id and session
    version; any other account, or sessions ended since, signs in through the form again). With `land` the tab then
    shows the page the sign-in led to; without, it may be left blank, for tests that go to their page next."""

    def enter(email: str, password: str = PASSWORD, land: bool = False) -> None:
        user = User.objects(email=email).first()
        known = None if user is None else (email, str(user.id), user.session_version)
        if known in _sessions:
            cookies, landing = _sessions[known]
            page.context.add_cookies(cookies)
            if land:
                page.goto(landing)
            return
        sign_in(email, password)
        page.wait_for_url(re.compile(r".*/stations.*"))
        if known is not None:
            _sessions[known] = page.context.cookies(), page.url

    return enter


SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 800}}
"""The two sizes every page is checked at: a phone and a laptop."""
MISSING_LISTENER = "/stations/1/listeners/27899999999"
SEARCHED = "song+requests+for+gospel+music"
"""The search of the dashboard's `search` page (at a lowest score of 0.5, so that it finds listeners of the demo
station whatever the embedding model)."""
LONG_STATION = "Coast Radio: the Eastern Cape's home of amapiano, gospel and late-night talk"
"""A station name too long for any label it appears in."""


def _dashboard_station() -> None:
    seed_demo(1, 400, 7, NOW)
    segment_company(1, NOW + timedelta(days=3))
    refresh_embeddings(1)  # AUTO_EMBED is off in tests: the search page and the look-alikes need the vectors
    make_company(2, name=LONG_STATION)
    create_user("sam@group.fm", PASSWORD, companies=[1, 2], name="Sam Naidoo")


@pytest.fixture(scope="module")
def dashboard(_app, _live_url, browser):
    """The demo station (1), segmented twice so that the overview shows movements, an empty station (2) with a long
    name, a manager of both and that manager's signed-in browser state; made once per module, for tests that only
    read. Its `paths` name a page of each kind."""
    restored("dashboard", _dashboard_station)
    context = browser.new_context(base_url=_live_url)
    tab = context.new_page()
    tab.goto("/login")
    tab.get_by_label("Email").fill("sam@group.fm")
    tab.get_by_label("Password").fill(PASSWORD)
    tab.get_by_role("button", name="Sign in").click()
    tab.wait_for_url("**/stations")
    state = context.storage_state()
    context.close()
    listener = Stored(next(doc for doc in stored_listeners(1) if doc.get("name")))
    paths = {"login": "/login", "stations": "/stations", "overview": "/stations/1/",
             "explorer": "/stations/1/explorer", "listener": f"/stations/1/listeners/{listener.originator}",
             "glossary": "/glossary", "error": MISSING_LISTENER, "segment": "/stations/1/segments/super_fan",
             "search": f"/stations/1/search?q={SEARCHED}&min_score=0.5", "audiences": "/stations/1/audiences",
             "audience-new": f"/stations/1/audiences/new?theme={SEARCHED}&gender=female",
             "briefs": "/stations/1/briefs", "campaigns": "/stations/1/campaigns", "tags": "/stations/1/tags"}
    yield {"url": _live_url, "state": state, "paths": paths}
    empty_database()


def signed_in_tab(browser, dashboard: dict, name: str, size: str = "laptop", on_tab=None, scripts: bool = True):
    """A page of `dashboard` (by its name in `paths`, or a path) loaded in a tab of its own at one of SIZES, signed
    in except for the login page; `on_tab` is called before the page loads."""
    context = browser.new_context(base_url=dashboard["url"], viewport=SIZES[size], java_script_enabled=scripts,
                                  storage_state=None if name == "login" else dashboard["state"])
    context.set_default_timeout(10_000)
    tab = context.new_page()
    if on_tab:
        on_tab(tab)
    tab.goto(dashboard["paths"].get(name, name))
    tab.wait_for_load_state("load")
    return tab


@pytest.fixture
def open_tab(browser, dashboard):
    """Opens a page of `dashboard` (by its name in `paths`, or a path) in a fresh tab at one of SIZES, signed in
    except for the login page; `on_tab` is called before the page loads, `scripts=False` turns JavaScript off."""
    tabs = []

    def open_page(name: str, size: str = "laptop", on_tab=None, scripts: bool = True):
        tabs.append(signed_in_tab(browser, dashboard, name, size, on_tab, scripts))
        return tabs[-1]

    yield open_page
    for tab in tabs:
        tab.context.close()
