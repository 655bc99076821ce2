"""The house layout: core knows nothing of the web; api and webapp never talk to the database themselves."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def imported_modules(package: str) -> dict[str, set[str]]:
    """Every module imported by each file of a package (top-level names and full dotted names)."""
    found = {}
    for path in (ROOT / package).rglob("*.py"):
        names = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module:
                names.add(node.module)
        found[str(path.relative_to(ROOT))] = names
    return found


@pytest.mark.parametrize("forbidden", ["flask", "flask_login", "flask_wtf", "flask_smorest", "marshmallow", "werkzeug",
                                       "webapp", "api", "secantus"])
def test_core_imports_nothing_of_the_web_or_the_embedded_server(forbidden):
    offenders = [f for f, names in imported_modules("core").items()
                 if any(n == forbidden or n.startswith(forbidden + ".") for n in names)]
    assert offenders == []


@pytest.mark.parametrize("package", ["api", "webapp"])
@pytest.mark.parametrize("forbidden", ["mongoengine", "pymongo", "gridfs", "core.models"])
def test_edges_never_talk_to_the_database_directly(package, forbidden):
    offenders = [f for f, names in imported_modules(package).items()
                 if any(n == forbidden or n.startswith(forbidden + ".") for n in names)]
    assert offenders == []


def test_nothing_imports_the_embedded_server_as_a_library():
    for package in ("core", "api", "webapp", "bench"):
        for names in imported_modules(package).values():
            assert not any(n == "secantus" or n.startswith("secantus.") for n in names)
