"""Every page of the dashboard, at a phone's size and at a laptop's, in headless Chromium: it fits the screen, its
title shows, its controls neither overlap nor are too small to touch, axe-core finds no serious or critical WCAG
violation, and the browser logs no failed request and no console error. A screenshot of each page at each size is
saved under screenshots/ (git-ignored), so that the whole dashboard can be looked at in one folder."""
from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from tests.webapp.conftest import MISSING_LISTENER, SCREENSHOTS, SIZES

pytestmark = pytest.mark.db

PAGES = ("login", "stations", "overview", "explorer", "listener", "glossary", "error", "segment", "search", "audiences",
         "audience-new", "briefs", "campaigns", "tags")

CONTROLS = """() => {
  // What a person taps: links, buttons, fields, and a box or radio button by its label. Links inside running text
  // (a <p>) are left out, as WCAG 2.5.8 leaves out targets in a sentence. A control counts where it can be seen:
  // its box cut by the boxes that scroll or clip it (a list that scrolls, a table in its own box).
  const all = [...document.querySelectorAll("*")];
  const seen = (el) => {
    let box = el.getBoundingClientRect();
    let [left, top, right, bottom] = [box.left, box.top, box.right, box.bottom];
    for (let up = el.parentElement; up; up = up.parentElement) {
      const style = getComputedStyle(up);
      if (style.overflowX !== "visible" || style.overflowY !== "visible") {
        const clip = up.getBoundingClientRect();
        [left, top, right, bottom] = [Math.max(left, clip.left), Math.max(top, clip.top),
                                      Math.min(right, clip.right), Math.min(bottom, clip.bottom)];
      }
    }
    return {x: left + scrollX, y: top + scrollY, w: right - left, h: bottom - top, height: box.height};
  };
  return [...document.querySelectorAll("a[href], button, input:not([type=hidden]), select, textarea, summary")]
    .filter((el) => !el.closest("p"))
    .map((el) => (el.matches("input[type=checkbox], input[type=radio]") && el.closest("label")) || el)
    .filter((el) => el.checkVisibility({checkOpacity: true, checkVisibilityCSS: true}))
    .map((el) => {
      const name = (el.getAttribute("aria-label") || el.textContent || el.name || "").trim().replace(/\\s+/g, " ");
      return {name: `<${el.tagName.toLowerCase()}> ${name.slice(0, 40)}`, index: all.indexOf(el), ...seen(el)};
    })
    .filter((c) => c.w > 0 && c.h > 0 && c.y + c.h > 0);
}"""
"""Every visible control of the page with its box in page coordinates."""

OVERLAPS = """(controls) => {
  // Pairs of controls whose boxes overlap (a control inside another, like a label's own box, does not count).
  const all = document.querySelectorAll("*");
  const found = [];
  controls.forEach((a, i) => controls.slice(i + 1).forEach((b) => {
    const width = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
    const height = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
    const nested = all[a.index].contains(all[b.index]) || all[b.index].contains(all[a.index]);
    if (width > 1 && height > 1 && !nested) found.push(`${a.name} / ${b.name}`);
  }));
  return found;
}"""


def overlaps(tab, controls: list[dict]) -> list[str]:
    """Pairs of controls whose boxes overlap (a control inside another, like a label's own box, does not count)."""
    return tab.evaluate(OVERLAPS, controls)


ORDER = [(name, size) for name in PAGES for size in SIZES]
"""The order the tests ask for the pages in (their parameters'): while one page is checked the next one loads."""


@pytest.fixture(scope="module")
def loaded(browser, dashboard):
    """Each page at each size, loaded once for the module's three checks (each only reads it), with what the
    browser logged while it loaded: a failed request, a response of 400 or more, a console error, a script error.
    A page is asked for only once it has loaded and the network has been idle; the next page of ORDER starts
    loading then, in a tab of its own, while the tests check this one."""
    tabs, ready, expected = {}, set(), dashboard["url"] + MISSING_LISTENER  # the error page is the 404 it shows

    def listen(tab, problems: list[str]) -> None:
        tab.on("console", lambda message: problems.append(f"console: {message.text}")
               if message.type == "error" and message.location.get("url") != expected else None)
        tab.on("pageerror", lambda error: problems.append(f"script error: {error}"))
        tab.on("requestfailed", lambda request: problems.append(f"failed: {request.url}"))
        tab.on("response", lambda response: problems.append(f"{response.status}: {response.url}")
               if response.status >= 400 and response.url != expected else None)

    def start(name: str, size: str) -> None:
        """A signed-in tab (but for the login page) at this size, told to load the page without waiting for it."""
        context = browser.new_context(base_url=dashboard["url"], viewport=SIZES[size],
                                      storage_state=None if name == "login" else dashboard["state"])
        context.set_default_timeout(10_000)
        tab, problems = context.new_page(), []
        listen(tab, problems)
        # Set from a timer, so that the evaluation has returned before the navigation replaces its document.
        tab.evaluate("url => { setTimeout(() => { location.href = url; }); }",
                     dashboard["url"] + dashboard["paths"][name])
        tabs[name, size] = tab, problems

    def load(name: str, size: str):
        if (name, size) not in tabs:
            start(name, size)
        tab, problems = tabs[name, size]
        if (name, size) not in ready:
            tab.wait_for_function("location.href !== 'about:blank'")
            tab.wait_for_load_state("load")
            tab.wait_for_load_state("networkidle")
            ready.add((name, size))
            following = ORDER[ORDER.index((name, size)) + 1:][:1]
            if following and following[0] not in tabs:
                start(*following[0])
        return tab, problems

    yield load
    for tab, _ in tabs.values():
        tab.context.close()


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("name", PAGES)
def test_every_page_fits_the_screen_with_its_title_and_controls_apart(loaded, name, size):
    tab, _ = loaded(name, size)
    SCREENSHOTS.mkdir(exist_ok=True)
    tab.screenshot(path=str(SCREENSHOTS / f"page-{name}-{size}.png"), full_page=True)
    assert tab.evaluate("document.documentElement.scrollWidth <= innerWidth"), "the page scrolls sideways"
    expect(tab.locator("h1")).to_be_visible()
    expect(tab.locator("h1")).to_be_in_viewport()
    controls = tab.evaluate(CONTROLS)
    overlapping = overlaps(tab, controls)
    assert not overlapping, "overlapping controls:\n" + "\n".join(overlapping)
    if size == "phone":
        small = [f"{c['name']} ({c['height']:.0f} px)" for c in controls if c["height"] < 44]
        assert not small, "controls under 44 px:\n" + "\n".join(small)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("name", PAGES)
def test_every_page_has_no_serious_accessibility_violation(loaded, name, size):
    tab, _ = loaded(name, size)
    violations = Axe().run(tab).response["violations"]
    serious = [f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes'][:5]]}"
               for v in violations if v["impact"] in ("serious", "critical")]
    assert not serious, "\n".join(serious)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("name", PAGES)
def test_every_page_loads_without_a_failed_request_or_a_console_error(loaded, name, size):
    _, problems = loaded(name, size)
    assert problems == []
