"""The blind brief set (bench/briefs_blind.json, issue 64) is whole: 40 briefs, 20 written awkwardly, each expecting
every field the benchmark judges. Not that the reader passes it: those figures are measured (bench.briefs_blind)."""
from __future__ import annotations

from datetime import date

from bench.briefs_blind import load_briefs
from bench.briefs_blind_judge import FIELDS


def test_the_file_holds_40_briefs_with_unique_ids_and_a_today():
    data = load_briefs()
    assert len(data["briefs"]) == 40
    assert len({case["id"] for case in data["briefs"]}) == 40
    assert date.fromisoformat(data["today"]) == date(2026, 12, 1)


def test_half_the_briefs_are_awkward():
    flags = [case["awkward"] for case in load_briefs()["briefs"]]
    assert all(isinstance(flag, bool) for flag in flags)
    assert flags.count(True) == 20


def test_every_expectation_has_the_known_fields_and_nothing_else():
    for case in load_briefs()["briefs"]:
        assert set(case["expect"]) == set(FIELDS), case["id"]
        assert isinstance(case["brief"], str) and case["brief"].strip(), case["id"]


def test_every_expected_window_is_a_window_a_question_or_a_refusal():
    for case in load_briefs()["briefs"]:
        dates = case["expect"]["dates"]
        if dates is None:
            continue
        if "question" in dates:
            assert dates["readings"], case["id"]
        elif "refused" not in dates:
            windows = [dates, *dates.get("also_accept", [])]
            assert all(date.fromisoformat(w["starts"]) <= date.fromisoformat(w["ends"]) for w in windows), case["id"]
