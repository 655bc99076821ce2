"""The explanations of the dashboard's filters and measures, and the glossary that gathers them."""
from __future__ import annotations

from core.explore.glossary import METRICS, TEXTS, glossary
from core.explore.spec import HELP, SPEC
from core.segmentation.rules import RULE_ORDER, SEGMENTS


def one_line(text: str) -> bool:
    return text.endswith(".") and "\n" not in text and len(text) <= 240


def test_every_filter_of_the_spec_has_one_line_of_help():
    assert set(HELP) == set(SPEC)
    assert all(one_line(text) for text in HELP.values())


def test_every_measure_has_a_title_and_one_line():
    assert all(title and one_line(text) for title, text in METRICS.values())


def test_pages_find_every_explanation_by_kind_and_key():
    assert set(TEXTS["segment"]) == set(SEGMENTS)
    assert set(TEXTS["filter"]) == set(SPEC) and all(one_line(text) for text in TEXTS["filter"].values())
    assert {"recency", "frequency", "engagement"} <= set(TEXTS["metric"])


def test_the_glossary_lists_segments_in_the_order_their_rules_are_tried():
    assert [row["key"] for row in glossary(str.upper)["segments"]] == list(RULE_ORDER)


def test_the_glossary_lists_filters_by_the_title_the_page_gives_them():
    filters = glossary(lambda name: f"Title of {name}")["filters"]
    assert {row["key"] for row in filters} == set(SPEC)
    assert [row["title"] for row in filters] == sorted(f"Title of {name}" for name in SPEC)
