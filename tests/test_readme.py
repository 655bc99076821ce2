"""The README is the user's manual: its links lead to files of the repository and its examples to a listener that
`make run`'s demo station really has."""
from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from core.access.models import User
from core.demo.people import originators_of
from core.demo.station import generate_station

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
MANUAL = [ROOT / "README.md", *sorted((ROOT / "docs").glob("**/*.md"))]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def links(document: Path) -> list[str]:
    """The targets of a Markdown document's inline links, outside code blocks."""
    text = re.sub(r"```.*?```", "", document.read_text(encoding="utf-8"), flags=re.DOTALL)
    return LINK.findall(text)


@pytest.mark.parametrize("document", MANUAL, ids=lambda path: str(path.relative_to(ROOT)))
def test_every_link_of_the_manual_leads_to_a_file_of_the_repository(document):
    for target in links(document):
        path = (document.parent / target.split("#")[0]).resolve()
        assert path.is_relative_to(ROOT) and path.is_file(), f"{target} in {document.name} is not a repository file"


def test_the_readme_links_to_the_segment_rules_in_the_repository():
    assert "docs/segments.md" in links(ROOT / "README.md")


def test_the_readmes_example_listener_is_in_the_demo_station_that_make_run_seeds():
    company, size, seed = re.search(r"demo station \(company (\d+), ([\d,]+) listeners, seed (\d+)\)", README).groups()
    examples = set(re.findall(rf"/api/v1/listeners/{company}/([^/?\s\"]+)", README))
    assert len(examples) == 1, "every example names the same listener"
    example = examples.pop()
    listeners = int(size.replace(",", ""))
    assert example in originators_of(int(seed), np.arange(listeners))
    station = generate_station(int(company), listeners, int(seed), datetime(2026, 11, 22, tzinfo=UTC))
    profile = next((row for row in station.profiles() if row["originator"] == example), None)
    assert profile and profile.get("name"), "the example listener has a profile to show"


@pytest.mark.db
def test_the_first_screen_says_how_to_become_an_admin_with_a_command_that_makes_one(runner):
    first_screen = "\n".join(README.splitlines()[:24])
    command = re.search(r"`\.venv/bin/flask --app wsgi (users create [^`]+--admin)`", first_screen)
    assert command and "ADMIN_KEY" in first_screen
    args = command.group(1).replace("'…'", "a-long-pass-phrase").split()
    result = runner.invoke(args=args)
    assert result.exit_code == 0, result.output
    assert User.objects.get(email="you@station.fm").admin is True
