"""Values kept per station (core.search.kept): made again when the objects they came from are other objects, even
at a freed object's address, or when the key moves; made once otherwise."""
from __future__ import annotations

from core.search.kept import KeptPerStation


class Source:
    """Stands for a snapshot or an index: an object with an identity and nothing else."""


def test_the_same_objects_under_the_same_key_make_the_value_once():
    kept, made = KeptPerStation(), []
    source = Source()
    for _ in range(3):
        value = kept.get(1, (source,), ("v", 1), lambda: made.append(1) or len(made))
    assert (value, len(made)) == (1, 1)


def test_a_new_key_or_another_station_makes_it_again():
    kept, source = KeptPerStation(), Source()
    assert kept.get(1, (source,), 1, lambda: "first") == "first"
    assert kept.get(1, (source,), 2, lambda: "moved") == "moved"
    assert kept.get(2, (source,), 2, lambda: "other station") == "other station"
    assert kept.get(1, (source,), 2, lambda: "not made") == "moved"


def test_an_object_made_where_a_freed_one_was_is_not_taken_for_it():
    kept = KeptPerStation()
    for _ in range(100):  # CPython usually gives the next object of a size the address just freed
        old = Source()
        kept.get(1, (old,), 7, lambda: "old's")
        address = id(old)
        del old
        new = Source()
        if id(new) == address:
            break
    assert id(new) == address, "no address was reused: the case this guards against did not arise"
    assert kept.get(1, (new,), 7, lambda: "new's") == "new's"


def test_every_source_must_be_the_same():
    kept, snap, index = KeptPerStation(), Source(), Source()
    kept.get(1, (snap, index), 0, lambda: "pair")
    assert kept.get(1, (snap, Source()), 0, lambda: "another index") == "another index"
