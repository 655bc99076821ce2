"""The README is the first hour and docs/ the manual: the README says what the service is in its first line, gives the
two commands first and fits on a few screens; every link of the manual leads to a file of the repository (and to a
heading of it, when it names one); its examples name a listener that `make run`'s demo station really has; and the
architecture page's picture of the layers is drawn from core.LAYERS."""
from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

import core
from core.access.models import User
from core.demo.people import originators_of
from core.demo.station import generate_station

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
PAGES = sorted((ROOT / "docs").glob("**/*.md"))
MANUAL = [ROOT / "README.md", *PAGES]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCED = re.compile(r"^```.*?^```", flags=re.DOTALL | re.MULTILINE)
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", flags=re.MULTILINE)
COMMANDS = "\n".join([
    "```",
    "make run     # set up, start the embedded database, seed a demo station, serve dashboard + API; prints URL, login,"
    " API key",
    "make test    # set up (packages, Chromium, database process) and run every test, browser tests included",
    "```"])
LAYERS_BLOCK = re.compile(r"<!-- layers: drawn from core\.LAYERS, checked by tests/test_readme\.py -->\n(.*?)\n"
                          r"<!-- /layers -->", flags=re.DOTALL)


def outside_code(text: str) -> str:
    """A Markdown text without its fenced code blocks, where a link or a heading is only an example."""
    return FENCED.sub("", text)


def links(document: Path) -> list[str]:
    """The targets of a Markdown document's inline links, outside code blocks."""
    return LINK.findall(outside_code(document.read_text(encoding="utf-8")))


def slug(heading: str) -> str:
    """The anchor GitHub makes of a heading: lower case, punctuation dropped (`, *, §, :, ...), spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(document: Path) -> set[str]:
    """Every anchor of a Markdown document's headings; a repeated one gets -1, -2, ... as on GitHub."""
    seen: dict[str, int] = {}
    found = set()
    for heading in HEADING.findall(outside_code(document.read_text(encoding="utf-8"))):
        base = slug(heading)
        found.add(f"{base}-{seen[base]}" if base in seen else base)
        seen[base] = seen.get(base, 0) + 1
    return found


def layers_picture(layers: tuple[tuple[str, ...], ...]) -> str:
    """The layers of core as docs/architecture.md draws them: a line per layer, the top one first, its units without
    their `core.` prefix, two spaces apart."""
    lines = ["  ".join(unit.removeprefix("core.") for unit in layer) for layer in reversed(layers)]
    return "```\n" + "\n".join(lines) + "\n```"


def test_the_first_line_of_the_readme_says_what_the_service_is():
    name, _, what = README.splitlines()[0].removeprefix("# ").partition(": ")
    assert name == "Listener Segmentation Service"
    assert "radio station" in what and "listeners" in what, "the first line says what the service does, for whom"


def test_the_two_commands_come_first_after_the_intro_and_are_targets_of_the_makefile():
    intro, block, _ = README.partition(COMMANDS)
    assert block, "the README holds the two commands exactly"
    assert "```" not in intro and "\n#" not in intro, "nothing but the intro comes before them"
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^run:", makefile, re.MULTILINE) and re.search(r"^test:", makefile, re.MULTILINE)


def test_the_readme_is_at_most_250_lines():
    assert len(README.splitlines()) <= 250


@pytest.mark.parametrize("document", MANUAL, ids=lambda path: str(path.relative_to(ROOT)))
def test_every_link_of_the_manual_leads_to_a_file_and_heading_of_the_repository(document):
    for target in links(document):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):
            continue  # an address outside the repository
        file, _, anchor = target.partition("#")
        path = (document.parent / file).resolve() if file else document
        assert path.is_relative_to(ROOT) and path.is_file(), f"{target} in {document.name} is not a repository file"
        if anchor and path.suffix == ".md":
            assert anchor in anchors(path), f"{target} in {document.name}: no such heading in {path.name}"


def test_the_slug_of_a_heading_is_githubs():
    assert slug("What `make run` shows") == "what-make-run-shows"
    assert slug("Sizing per 100,000 listeners") == "sizing-per-100000-listeners"
    assert slug("§9 Smaller decisions of the manual") == "9-smaller-decisions-of-the-manual"
    assert slug("Webhooks: segment events to other systems") == "webhooks-segment-events-to-other-systems"


def test_the_readme_maps_every_page_of_the_manual():
    mapped = {(ROOT / target.split("#")[0]).resolve() for target in links(ROOT / "README.md")}
    assert [page.name for page in PAGES if page.resolve() not in mapped] == []


def test_the_readme_links_to_the_segment_rules_in_the_repository():
    assert "docs/segments.md" in links(ROOT / "README.md")


def test_the_manuals_example_listener_is_in_the_demo_station_that_make_run_seeds():
    company, size, seed = re.search(r"demo station \(company (\d+), ([\d,]+) listeners, seed (\d+)\)", README).groups()
    manual = "\n".join(document.read_text(encoding="utf-8") for document in MANUAL)
    examples = set(re.findall(rf"(?:/api/v1(?:/\w+)?/listeners/{company}/|/stations/{company}/listeners/)"
                              r"([^/?\s\"`)]+)", manual))
    assert len(examples) == 1, f"every example names the same listener: {examples}"
    example = examples.pop()
    listeners = int(size.replace(",", ""))
    assert example in originators_of(int(seed), np.arange(listeners))
    station = generate_station(int(company), listeners, int(seed), datetime(2026, 11, 22, tzinfo=UTC))
    profile = next((row for row in station.profiles() if row["originator"] == example), None)
    assert profile and profile.get("name"), "the example listener has a profile to show"


def test_the_architecture_pages_picture_of_the_layers_is_drawn_from_core_layers():
    block = LAYERS_BLOCK.search((ROOT / "docs" / "architecture.md").read_text(encoding="utf-8"))
    assert block, "docs/architecture.md holds the layers between its two markers"
    assert block.group(1) == layers_picture(core.LAYERS)


@pytest.mark.db
def test_the_first_screen_says_how_to_become_an_admin_with_a_command_that_makes_one(runner):
    first_screen = "\n".join(README.splitlines()[:24])
    command = re.search(r"`\.venv/bin/flask --app wsgi (users create [^`]+--admin)`", first_screen)
    assert command and "ADMIN_KEY" in first_screen
    args = command.group(1).replace("'…'", "a-long-pass-phrase").split()
    result = runner.invoke(args=args)
    assert result.exit_code == 0, result.output
    assert User.objects.get(email="you@station.fm").admin is True
