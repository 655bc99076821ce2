"""The explorer's form counts follow the filters, inferred filters offer choices, tables sort, views drill down."""
from __future__ import annotations

import re
from html import unescape

import pytest

from tests.webapp import test_explorer_pages as shared
from tests.webapp.test_explorer_pages import AYANDA, BONGI, CARL, DINEO, ESTHER, EXPLORER, FRANK, hrefs, listed

crowd, signed_in = shared.crowd, shared.signed_in  # the fixtures of the explorer's page tests

pytestmark = pytest.mark.db


def option_count(html: str, name: str, value: str) -> str:
    """The count the form shows beside one checkbox option."""
    found = re.search(rf'name="{name}" value="{value}"[^>]*>.*?option-count">([^<]+)<', html, re.S)
    return found.group(1)


def test_an_option_counts_the_listeners_it_would_match_under_the_other_filters(signed_in):
    html = signed_in.get(f"{EXPLORER}?gender=female").text
    assert option_count(html, "segment", "super_fan") == "2"
    assert option_count(html, "segment", "dormant") == "1"


def test_an_option_with_no_listener_under_the_other_filters_shows_0(signed_in):
    html = signed_in.get(f"{EXPLORER}?gender=female").text
    assert option_count(html, "segment", "occasional_engager") == "0"


def test_a_facets_own_filter_does_not_narrow_its_own_counts(signed_in):
    html = signed_in.get(f"{EXPLORER}?gender=female&segment=super_fan").text
    assert option_count(html, "gender", "female") == "2"
    assert option_count(html, "gender", "male") == "1"
    assert option_count(html, "segment", "super_fan") == "2"


def test_inferred_filters_offer_the_allowed_values_and_say_none_is_inferred_yet(signed_in):
    html = signed_in.get(EXPLORER).text
    assert 'data-testid="no-inference"' in html
    assert re.search(r'<option value="LSM 10"', html) or 'value="LSM 10"' in html
    assert 'name="inferred_gender"' in html and '<option value="female"' in html


def test_the_table_sorts_by_a_column_server_side(signed_in):
    html = signed_in.get(f"{EXPLORER}?sort=listener").text
    order = re.findall(r'data-testid="listener-row" data-originator="([^"]+)"', html)
    assert order == sorted([AYANDA, BONGI, CARL, DINEO, ESTHER, FRANK])
    html = signed_in.get(f"{EXPLORER}?sort=-listener").text
    assert re.findall(r'data-testid="listener-row" data-originator="([^"]+)"', html)[0] == FRANK


def test_the_sort_link_of_the_current_column_reverses_it(signed_in):
    html = signed_in.get(f"{EXPLORER}?sort=listener").text
    assert hrefs(html, "sort-listener") == [f"{EXPLORER}?sort=-listener"]
    assert 'aria-sort="ascending"' in html


def test_an_unknown_sort_is_explained(signed_in):
    html = signed_in.get(f"{EXPLORER}?sort=shoe_size").text
    assert 'data-param="sort"' in html


def test_a_chart_bar_opens_the_explorer_narrowed_to_it(signed_in):
    html = signed_in.get(f"{EXPLORER}?gender=female").text
    assert f"{EXPLORER}?gender=female&segment=dormant" in hrefs(html, "drill")


def test_a_heat_map_cell_opens_the_listeners_on_both_channels(signed_in):
    html = signed_in.get(EXPLORER).text
    assert f"{EXPLORER}?channel_pair=1,2".replace(",", "%2C") in hrefs(html, "heat-cell")
    narrowed = signed_in.get(f"{EXPLORER}?channel_pair=1,2").text
    assert listed(narrowed) == {AYANDA, BONGI, CARL}
    assert "Active on both" in unescape(narrowed)


def test_date_presets_count_days_back_from_the_stations_today(signed_in):
    html = signed_in.get(EXPLORER).text
    links = hrefs(html, "date-presets") or re.findall(r'class="date-preset[^"]*" href="([^"]+)"', html)
    assert len(links) == 3 and all("last_interaction_after=" in unescape(link) for link in links)
