"""The order `make test` hands files to its workers in (tests/conftest.py): the long waits first."""
from __future__ import annotations

from pathlib import Path

from tests.conftest import _longest_first


class _Test:
    def __init__(self, path: str, name: str, served: bool = False, fixtures: tuple = ()):
        self.path, self.name, self.served, self.fixturenames = Path(path), name, served, list(fixtures)

    def get_closest_marker(self, name: str):
        return object() if name == "served" and self.served else None


def test_served_files_come_first_then_browser_files_then_the_rest_by_their_number_of_tests():
    items = [_Test("a.py", "a1"), _Test("b.py", "b1"), _Test("b.py", "b2"),
             _Test("page.py", "p1", fixtures=("app", "browser")), _Test("page.py", "p2"),
             _Test("serve.py", "s1", served=True), _Test("serve.py", "s2", served=True)]

    ordered = [item.name for item in _longest_first(items)]

    assert ordered == ["s1", "s2", "p1", "p2", "b1", "b2", "a1"]


def test_each_file_keeps_its_tests_together_and_in_their_own_order():
    items = [_Test("a.py", "a2"), _Test("b.py", "b1"), _Test("a.py", "a1"), _Test("b.py", "b3"), _Test("a.py", "a3")]

    assert [item.name for item in _longest_first(items)] == ["a2", "a1", "a3", "b1", "b3"]
