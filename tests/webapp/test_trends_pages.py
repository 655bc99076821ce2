"""Issue 28, item 2, over HTTP: the trends of the overview and of a segment page, each chart's table saying the
chart's numbers, weekly or monthly over a chosen span, the flows between segments in words and as a matrix, a station
without history told how it gets one, and a producer of one station never reading another's trends."""
from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest

from core.clock import station_today
from core.history.models import HistoryPoint
from core.segmentation.rules import SEGMENTS
from core.stations.companies import get_company

pytestmark = pytest.mark.db

WEEKS = 12
MOVES = {"super_fan": {"at_risk": 7}, "new": {"new_listener": 5}, "at_risk": {"dormant": 2}}


def week_counts(i: int, scale: int = 1) -> dict[str, int]:
    """Week i's listeners per segment (super fans grow by 10 a week, at risk by 3)."""
    base = {"new_listener": 20, "super_fan": 100 + 10 * i, "show_loyalist": 60, "competition_chaser": 30,
            "occasional_engager": 80, "at_risk": 40 + 3 * i, "dormant": 50}
    return {key: n * scale for key, n in base.items()}


def store_history(company_id: int, weeks: int = WEEKS, scale: int = 1) -> list[str]:
    """`weeks` rebuilt weekly points ending last Sunday in the station's calendar, as a rebuild stores them (moves,
    new and lost in each); their dates, oldest first."""
    today = station_today(get_company(company_id).timezone)
    last = today - timedelta(days=today.isoweekday() % 7 or 7)
    dates = []
    for i in range(weeks):
        day = last - timedelta(weeks=weeks - 1 - i)
        counts = week_counts(i, scale)
        HistoryPoint(company_id=company_id, date=day.isoformat(), source="rebuilt", total=sum(counts.values()),
                     as_of=datetime(day.year, day.month, day.day, tzinfo=UTC), segments=counts,
                     moves={k: {t: n * scale for t, n in row.items()} for k, row in MOVES.items()},
                     new=(5 + i) * scale, lost=2 * scale).save()
        dates.append(day.isoformat())
    return dates


@pytest.fixture
def history(stations):
    """Jozi FM (1) with 12 weeks of history, Coast Radio (2) with ten times its numbers."""
    store_history(2, scale=10)
    return store_history(1)


@pytest.fixture
def signed_in(client, producer):
    client.post("/login", data={"email": producer, "password": "on-air-2026"})
    return client


def chart_of(html: str, chart_id: str) -> str:
    start = html.index(f'data-testid="trend-{chart_id}"')
    return html[start:html.index("</figure>", start)]


def series(chart: str, label: str) -> list[str]:
    """The values a row of a chart draws, oldest first."""
    row = chart[chart.index(f'data-label="{label}"'):]
    row = row[:row.index("</svg>")]
    return re.findall(r'data-testid="trend-point" data-value="([^"]*)"', row)


def table(chart: str) -> list[list[str]]:
    """The rows of the table behind a chart (latest first): its cells."""
    body = chart[chart.index("<tbody>"):chart.index("</tbody>")]
    return [re.findall(r'<td class="num">([^<]*)</td>', row) for row in body.split("</tr>") if "<td" in row]


def test_the_overview_draws_each_segment_s_size_week_by_week(signed_in, history):
    chart = chart_of(signed_in.get("/stations/1/").text, "sizes")
    assert series(chart, "Super fans") == [f"{100 + 10 * i:,}" for i in range(WEEKS)]
    assert series(chart, "Dormant") == ["50"] * WEEKS


def test_each_chart_s_table_says_the_numbers_its_columns_draw(signed_in, history):
    html = signed_in.get("/stations/1/").text
    for chart_id in ("sizes", "new-lost", "at-risk"):
        chart = chart_of(html, chart_id)
        labels = re.findall(r'data-testid="trend-row" data-label="([^"]+)"', chart)
        drawn = [series(chart, label) for label in labels]
        assert [list(row) for row in zip(*drawn)][::-1] == table(chart)


def test_new_and_lost_listeners_are_counted_per_week(signed_in, history):
    chart = chart_of(signed_in.get("/stations/1/").text, "new-lost")
    assert series(chart, "New") == [str(5 + i) for i in range(WEEKS)]
    assert series(chart, "Lost") == ["2"] * WEEKS


def test_the_at_risk_share_is_at_risk_over_all_listeners(signed_in, history):
    chart = chart_of(signed_in.get("/stations/1/").text, "at-risk")
    first, last = week_counts(0), week_counts(WEEKS - 1)
    assert series(chart, "At risk")[0] == f"{100 * first['at_risk'] / sum(first.values()):.1f}%"
    assert series(chart, "At risk")[-1] == f"{100 * last['at_risk'] / sum(last.values()):.1f}%"


def test_monthly_shows_each_month_s_last_week_and_adds_up_nothing_twice(signed_in, history):
    html = signed_in.get("/stations/1/?interval=month&weeks=13").text
    assert 'data-interval="month"' in html
    months = sorted({d[:7] for d in history})
    drawn = series(chart_of(html, "sizes"), "Super fans")
    assert len(drawn) == len(months) and drawn[-1] == f"{100 + 10 * (WEEKS - 1):,}"
    assert len(series(chart_of(html, "new-lost"), "New")) == WEEKS  # new and lost stay weekly


def test_the_flows_over_the_span_add_up_its_moves_in_words_and_in_the_matrix(signed_in, history):
    four = signed_in.get("/stations/1/?weeks=4").text
    moves = 4 * 7  # the weeks of the span after its first point, or five when today is the last Sunday's Monday
    sentences = re.findall(r"<li>(\d+ super fans became at risk)</li>", four)
    assert sentences and int(sentences[0].split()[0]) in (moves - 7, moves, moves + 7)
    matrix = four[four.index('data-testid="flow-matrix"'):]
    cell = re.search(r'aria-label="(\d+) moved from Super fans to At risk', matrix)
    assert cell and cell.group(1) == sentences[0].split()[0]
    whole = signed_in.get("/stations/1/?weeks=13").text
    assert f"{7 * (WEEKS - 1)} super fans became at risk" in whole
    assert f"{5 * (WEEKS - 1)} first-time listeners joined as new listeners" in whole


def test_each_column_and_flow_drills_into_the_explorer_on_that_segment(signed_in, history):
    html = signed_in.get("/stations/1/").text
    chart = chart_of(html, "sizes")
    row = chart[chart.index('data-label="At risk"'):]
    href = re.search(r'<a href="([^"]+)" class="trend-point"', row).group(1)
    assert href == "/stations/1/explorer?segment=at_risk"
    assert "listeners as they are today" in html
    matrix = html[html.index('data-testid="flow-matrix"'):]
    assert re.search(r'href="/stations/1/explorer\?segment=at_risk" data-testid="flow-drill"', matrix)


def test_reloading_the_figures_keeps_the_interval_and_span_chosen(signed_in, history):
    html = signed_in.get("/stations/1/?interval=month&weeks=13").text
    assert re.search(r'hx-get="/stations/1/\?interval=month&amp;weeks=13"', html)


def test_a_station_without_history_says_how_it_gets_one(signed_in, stations):
    html = signed_in.get("/stations/1/").text
    empty = html[html.index('data-testid="trends-empty"'):]
    assert "next full segmentation run" in empty and "flask --app wsgi history --company 1" in empty
    assert 'data-testid="trend-sizes"' not in html


@pytest.mark.parametrize(("query", "field"), [("interval=year", "interval"), ("weeks=5", "weeks"),
                                              ("weeks=many", "weeks")])
def test_an_interval_or_span_not_offered_is_a_clear_message(signed_in, history, query, field):
    answer = signed_in.get(f"/stations/1/?{query}")
    assert answer.status_code == 422 and f"query.{field}: " in answer.text


def test_a_producer_of_one_station_never_reads_another_s_trends(signed_in, history):
    assert signed_in.get("/stations/2/?interval=month").status_code == 403
    assert signed_in.get("/stations/2/segments/super_fan").status_code == 403
    mine = chart_of(signed_in.get("/stations/1/").text, "sizes")
    assert f"{1000 + 100 * (WEEKS - 1):,}" not in mine  # Coast Radio's super fans


def test_a_segment_page_draws_its_size_who_joined_and_left_and_its_share(signed_in, history):
    html = signed_in.get("/stations/1/segments/super_fan").text
    assert series(chart_of(html, "sizes"), "Super fans") == [f"{100 + 10 * i:,}" for i in range(WEEKS)]
    moved = chart_of(html, "new-lost")
    assert series(moved, "Joined") == ["0"] * WEEKS and series(moved, "Left") == ["7"] * WEEKS
    shares = chart_of(html, "at-risk")
    assert re.findall(r'data-testid="trend-row" data-label="([^"]+)"', shares) == ["Super fans", "At risk"]
    flows = html[html.index('data-testid="flow-table"'):]
    assert "Left for at risk" in flows and "/stations/1/explorer?segment=at_risk" in flows


def test_every_segment_page_has_its_trends(signed_in, history):
    for key in SEGMENTS:
        assert 'data-testid="trend-sizes"' in signed_in.get(f"/stations/1/segments/{key}").text
