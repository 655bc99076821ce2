"""One clock (issue 50, item 3): every "now" of the service comes from `core.clock.utcnow`, so that a run with an
earlier `now` and a test with a fixed one see the same time everywhere. Monotonic timers measure durations, not the
time of day, and stay free. And one zone rule: every zone comes from `core.clock.zone_of`, so that a station without
a zone, or with one nobody knows, reads in the one default zone on every page and in every rule."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("core", "api", "webapp", "cli")
CLOCKS = {("datetime", "now"), ("datetime", "utcnow"), ("datetime", "today"), ("date", "today"), ("time", "time")}


def reads_of_the_clock(source: str) -> list[int]:
    """The lines of `source` that read the time of day other than through core.clock."""
    return [node.lineno for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name) and (node.func.value.id, node.func.attr) in CLOCKS]


def test_the_scan_finds_each_way_of_reading_the_time_of_day():
    source = "a = datetime.now(UTC)\nb = time.time()\nc = date.today()\nd = time.monotonic()\ne = utcnow()\n"
    assert reads_of_the_clock(source) == [1, 2, 3]


def test_every_now_of_the_service_comes_from_core_clock():
    paths = [path for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))
             if path != ROOT / "core" / "clock.py"]
    found = [f"{path.relative_to(ROOT)}:{line}" for path in paths for line in reads_of_the_clock(path.read_text())]
    assert found == []


def zones_built(source: str) -> list[int]:
    """The lines of `source` that build a zone other than through core.clock.zone_of: a call of ZoneInfo (or
    zoneinfo.ZoneInfo) and any import of zoneinfo."""
    lines = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and (isinstance(node.func, ast.Name) and node.func.id == "ZoneInfo"
                                           or isinstance(node.func, ast.Attribute) and node.func.attr == "ZoneInfo"):
            lines.add(node.lineno)
        elif isinstance(node, ast.ImportFrom) and node.module == "zoneinfo":
            lines.add(node.lineno)
        elif isinstance(node, ast.Import) and any(alias.name == "zoneinfo" for alias in node.names):
            lines.add(node.lineno)
    return sorted(lines)


def test_the_scan_finds_each_way_of_building_a_zone():
    source = ("from zoneinfo import ZoneInfo\nimport zoneinfo\na = ZoneInfo('UTC')\nb = zoneinfo.ZoneInfo(tz)\n"
              "c = zone_of(tz)\nd = datetime.now(UTC)\n")
    assert zones_built(source) == [1, 2, 3, 4]


def test_every_zone_of_the_service_comes_from_core_clock():
    paths = [path for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))
             if path != ROOT / "core" / "clock.py"]
    found = [f"{path.relative_to(ROOT)}:{line}" for path in paths for line in zones_built(path.read_text())]
    assert found == []
