"""A station's own names for its tags: sentence case by default, the station's name where it gave one, a blank name
giving the default back, and a name that cannot be kept (past 60 characters, or not storable) refused whole before
anything is written (in memory: the station's document fails the test when reached)."""
from __future__ import annotations

import pytest

from core.errors import ValidationFailed
from core.stations import labels
from core.stations.labels import MAX_LABEL, default_label, label_of, set_tag_labels, tag_labels
from tests.factories import make_company


@pytest.mark.parametrize(("tag", "label"), [("music_lover", "Music lover"), ("vip", "Vip"), ("VIP", "VIP"),
                                            ("Breakfast-Club", "Breakfast-Club"), ("non_binary", "Non-binary")])
def test_a_tag_without_a_name_is_written_in_sentence_case_unless_given_in_capitals(tag, label):
    assert default_label(tag) == label


def test_the_station_s_name_wins_over_the_default():
    assert label_of("vip", {"vip": "VIP circle"}) == "VIP circle"
    assert label_of("music_lover", {"vip": "VIP circle"}) == "Music lover"


@pytest.mark.db
def test_names_are_kept_per_station_and_a_blank_one_gives_the_default_back(app):
    make_company(1)
    make_company(2)
    set_tag_labels(1, {"vip": "VIP circle", "breakfast.club": "Breakfast Club members"})
    assert tag_labels(1) == {"vip": "VIP circle", "breakfast.club": "Breakfast Club members"}
    assert tag_labels(2) == {}
    set_tag_labels(1, {"vip": "  ", "breakfast.club": "Breakfast  Club"})
    assert tag_labels(1) == {"breakfast.club": "Breakfast Club"}


@pytest.mark.db
def test_a_name_equal_to_the_default_is_not_kept(app):
    make_company(1)
    assert set_tag_labels(1, {"music_lover": "Music lover"}) == {}


@pytest.fixture
def unreachable_station(monkeypatch):
    """The station's document fails the test when reached: a refusal then is one that changed nothing."""
    def reached(*_args, **_kwargs):
        raise AssertionError("the station was reached by names it should have refused")

    for name in ("ensure_company", "_rewrite"):
        monkeypatch.setattr(labels, name, reached)


@pytest.mark.parametrize("bad", ["x" * 61, "bad\x00name", "\ud800"])
def test_a_name_that_cannot_be_kept_is_refused_whole_before_anything_is_written(unreachable_station, bad):
    with pytest.raises(ValidationFailed) as refused:
        set_tag_labels(1, {"gospel": "Gospel lovers", "vip": bad})
    assert refused.value.items[0]["loc"] == ["body", "labels", "vip"]


@pytest.mark.db
def test_a_name_of_exactly_the_longest_length_is_kept(app):
    make_company(1)
    assert set_tag_labels(1, {"vip": "x" * MAX_LABEL}) == {"vip": "x" * MAX_LABEL}
