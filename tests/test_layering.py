"""The house layout: core by capability in layers that import only downwards, no import circles, no imports hidden
in functions, edges that never talk to the database, page modules that never import each other."""
from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

from core import LAYERS

ROOT = Path(__file__).resolve().parents[1]

LEVEL = {unit: level for level, units in enumerate(LAYERS) for unit in units}
PAGE_HELPERS = {"webapp.helpers", "webapp.labels", "webapp.errors", "webapp.throttle", "webapp.charts", "webapp.asking",
                "webapp.recommendations", "webapp.limits"}


def modules(package: str) -> dict[str, Path]:
    """Dotted module name -> file, for every module of a package."""
    found = {}
    for path in (ROOT / package).rglob("*.py"):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


@functools.cache
def parsed(path: Path) -> ast.Module:
    """A file's syntax tree, parsed once for the module's 250 checks."""
    return ast.parse(path.read_text())


@functools.cache
def imports_of(path: Path, top_level_only: bool = False) -> frozenset[str]:
    """Dotted names a file imports: modules, and for `from X import y` also X.y (which may be a module)."""
    tree = parsed(path)
    nodes = tree.body if top_level_only else ast.walk(tree)
    names = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            submodules = {f"{node.module}.{alias.name}" for alias in node.names} & set(ALL)
            names.update(submodules or {node.module})
    return frozenset(names)


def unit_of(name: str) -> str | None:
    """The layered unit (package or top-level module of core) a dotted name belongs to."""
    parts = name.split(".")
    return ".".join(parts[:2]) if parts[0] == "core" and len(parts) > 1 else None


ALL = {**modules("core"), **modules("api"), **modules("webapp"), **modules("cli")}


def test_every_package_and_module_of_core_takes_its_place_in_the_layers():
    units = {unit_of(name) for name in modules("core")} - {None}
    assert units - set(LEVEL) == set(), "add the new package to LAYERS, at the level of what it may import"


@pytest.mark.parametrize("name", sorted(n for n in modules("core") if unit_of(n)))
def test_core_imports_only_downwards(name):
    here = unit_of(name)
    upward = sorted(target for target in imports_of(ALL[name]) if unit_of(target) in LEVEL
                    and unit_of(target) != here and LEVEL[unit_of(target)] >= LEVEL[here])
    assert upward == [], f"{name} ({here}, layer {LEVEL[here]}) imports a unit at its own layer or above"


def test_core_keeps_at_most_eight_modules_at_its_top():
    top = sorted(path.name for path in (ROOT / "core").glob("*.py") if path.name != "__init__.py")
    assert len(top) <= 8, f"core's top is a table of contents, not a drawer: {top}"


@pytest.mark.parametrize("package", ["core", "api", "webapp", "cli"])
def test_no_module_passes_300_lines(package):
    long = {name: n for name, path in modules(package).items() if (n := len(path.read_text().splitlines())) > 300}
    assert long == {}, "split the module along the ideas it holds"


def test_core_packages_say_what_they_own():
    for init in (ROOT / "core").glob("*/__init__.py"):
        assert ast.get_docstring(ast.parse(init.read_text())), f"{init.parent.name} needs a docstring"


def _graph() -> dict[str, set[str]]:
    return {name: {t for t in imports_of(path, top_level_only=True) if t in ALL and t != name}
            for name, path in ALL.items()}


def test_no_import_circles():
    graph, circles = _graph(), []
    state: dict[str, int] = {}

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        for target in graph[node]:
            if state.get(target) == 1:
                circles.append(trail[trail.index(target):] + [target])
            elif target not in state:
                visit(target, trail + [target])
        state[node] = 2

    for start in sorted(graph):
        if start not in state:
            visit(start, [start])
    assert circles == []


def test_no_import_hidden_in_a_function_without_a_comment_saying_why():
    hidden = []
    for name, path in ALL.items():
        lines = path.read_text().splitlines()
        tree = parsed(path)
        top = {id(node) for node in tree.body}
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)) and id(node) not in top \
                    and not _in_type_checking(tree, node) and "#" not in lines[node.lineno - 1]:
                hidden.append(f"{name}:{node.lineno}")
    assert hidden == []


def _in_type_checking(tree: ast.Module, node: ast.AST) -> bool:
    return any(isinstance(n, ast.If) and "TYPE_CHECKING" in ast.unparse(n.test) and node in ast.walk(n)
               for n in tree.body)


@pytest.mark.parametrize("forbidden", ["flask", "flask_login", "flask_wtf", "flask_smorest", "marshmallow", "werkzeug",
                                       "webapp", "api", "cli", "secantus"])
def test_core_imports_nothing_of_the_web_or_the_embedded_server(forbidden):
    offenders = [n for n, path in modules("core").items()
                 if any(i == forbidden or i.startswith(forbidden + ".") for i in imports_of(path))]
    assert offenders == []


@pytest.mark.parametrize("package", ["api", "webapp", "cli"])
@pytest.mark.parametrize("forbidden", ["mongoengine", "pymongo", "gridfs", "bson"])
def test_edges_never_talk_to_the_database_directly(package, forbidden):
    offenders = [n for n, path in modules(package).items()
                 if any(i == forbidden or i.startswith(forbidden + ".") for i in imports_of(path))
                 or any(i.split(".")[-1] == "models" and i.startswith("core.") for i in imports_of(path))]
    assert offenders == []


def test_page_modules_never_import_each_other():
    pages = {n for n in modules("webapp") if n not in PAGE_HELPERS | {"webapp", "webapp.pages"}}
    offenders = {n: sorted(imports_of(ALL[n]) & (pages - {n})) for n in pages}
    assert {n: found for n, found in offenders.items() if found} == {}


def test_nothing_imports_the_embedded_server_as_a_library():
    for package in ("core", "api", "webapp", "cli", "bench"):
        for path in modules(package).values():
            assert not any(n == "secantus" or n.startswith("secantus.") for n in imports_of(path))


PERSONAL_PUBLIC = {"core.personal", "core.personal.registry"}
"""What tests outside tests/core/personal may import of the personal-data package: its public names (core/personal/
__init__.py) and the registry. Sealing internals are imported by the package's own tests only."""
PERSONAL_INTERNALS_ALLOWED: dict[str, str] = {}
"""Test files outside tests/core/personal still allowed an internal, each with why."""


def test_sealing_internals_are_imported_by_the_personal_packages_own_tests_only():
    own, offenders = ROOT / "tests" / "core" / "personal", {}
    for path in (ROOT / "tests").rglob("*.py"):
        name = str(path.relative_to(ROOT))
        if own in path.parents or name in PERSONAL_INTERNALS_ALLOWED:
            continue
        internal = sorted(i for i in imports_of(path) if unit_of(i) == "core.personal" and i not in PERSONAL_PUBLIC)
        if internal:
            offenders[name] = internal
    assert offenders == {}, "use core.personal's public names (core/personal/__init__.py) or core.personal.registry"
