"""Alert rules on history points built in memory: each kind at its boundary, compared exactly, nothing said where
the history does not reach, the period a rule fires once in, and every problem of a rule named."""
from __future__ import annotations

from datetime import date, timedelta

import pytest

from core.alerts.rules import checked_rule, described, holds, period_of, reading
from core.config import Settings
from core.errors import ValidationFailed

DAY = date(2026, 11, 20)


def point(days_before: int, total: int = 0, new: int = 0, **segments) -> dict:
    return {"date": (DAY - timedelta(days=days_before)).isoformat(), "total": total, "segments": segments,
            "new": new, "lost": 0}


def rule(kind: str, metric: str = "at_risk", threshold: float | None = 10) -> dict:
    return {"kind": kind, "metric": metric, "threshold": threshold}


def fires(kind: str, points: list[dict], metric: str = "at_risk", threshold: float | None = 10) -> bool:
    found = rule(kind, metric, threshold)
    return holds(found, reading(found, sorted(points, key=lambda p: p["date"]), DAY))


def test_at_risk_growing_by_exactly_10_percent_week_on_week_fires():
    assert fires("grows_by", [point(7, at_risk=1000), point(0, at_risk=1100)])


def test_at_risk_growing_by_9_9_percent_week_on_week_does_not_fire():
    assert not fires("grows_by", [point(7, at_risk=1000), point(0, at_risk=1099)])


def test_a_fall_of_exactly_10_percent_fires_and_one_of_9_9_does_not():
    assert fires("falls_by", [point(7, super_fan=1000), point(0, super_fan=900)], "super_fan")
    assert not fires("falls_by", [point(7, super_fan=1000), point(0, super_fan=901)], "super_fan")


def test_a_growth_rule_does_not_fire_on_a_fall():
    assert not fires("grows_by", [point(7, at_risk=1000), point(0, at_risk=500)])


def test_growth_from_nothing_never_fires():
    assert not fires("grows_by", [point(7, at_risk=0), point(0, at_risk=500)])


def test_super_fans_at_999_are_below_1000_and_at_1000_are_not():
    assert fires("below", [point(0, super_fan=999)], "super_fan", 1000)
    assert not fires("below", [point(0, super_fan=1000)], "super_fan", 1000)


def test_rising_above_is_strictly_over_the_count():
    assert fires("above", [point(0, total=1001)], "total", 1000)
    assert not fires("above", [point(0, total=1000)], "total", 1000)


def test_the_total_grows_week_on_week_from_the_latest_point_of_each_day():
    assert fires("grows_by", [point(8, total=10), point(7, total=100), point(1, total=105), point(0, total=110)],
                 "total")


def test_new_listeners_grow_week_on_week_by_the_7_days_to_the_day_against_the_7_before():
    points = [point(10, new=6), point(8, new=4), point(3, new=5), point(0, new=6)]
    assert fires("grows_by", points, "new", 10)
    assert not fires("grows_by", points, "new", 10.1)


def test_new_listeners_under_last_month_s_weekly_mean_fire_and_at_the_mean_do_not():
    month = [point(d, new=10) for d in (8, 15, 22, 29)]  # 40 in the 4 weeks before: a mean of 10 a week
    assert fires("under_monthly_mean", [*month, point(0, new=9)], "new", 0)
    assert not fires("under_monthly_mean", [*month, point(0, new=10)], "new", 0)


def test_under_the_mean_by_a_percentage_is_by_at_least_that_much():
    month = [point(d, new=10) for d in (8, 15, 22, 29)]
    assert fires("under_monthly_mean", [*month, point(0, new=8)], "new", 20)
    assert not fires("under_monthly_mean", [*month, point(0, new=9)], "new", 20)


def test_a_size_under_its_mean_is_against_the_sizes_of_the_4_weeks_before():
    weeks = [point(7 * k, super_fan=n) for k, n in ((1, 1000), (2, 1100), (3, 1200), (4, 1300))]  # mean 1,150
    assert fires("under_monthly_mean", [*weeks, point(0, super_fan=1149)], "super_fan", 0)
    assert not fires("under_monthly_mean", [*weeks, point(0, super_fan=1150)], "super_fan", 0)


def test_nothing_fires_where_the_history_does_not_reach_back_a_week():
    assert reading(rule("grows_by"), [point(0, at_risk=5000)], DAY) is None
    assert not fires("grows_by", [point(0, at_risk=5000)])


def test_a_size_older_than_a_week_says_nothing_of_today():
    assert not fires("below", [point(9, super_fan=1)], "super_fan", 1000)


def test_a_rule_fires_once_in_the_station_s_iso_week():
    assert period_of(date(2026, 11, 16)) == period_of(date(2026, 11, 22)) == "2026-W47"
    assert period_of(date(2026, 11, 23)) == "2026-W48"


@pytest.mark.parametrize(("made", "words"), [
    (rule("grows_by", "at_risk", 10), "At risk grows by 10% week on week"),
    (rule("below", "super_fan", 1000), "Super fans falls below 1,000"),
    (rule("under_monthly_mean", "new", 0), "New listeners this week under last month's weekly mean"),
    (rule("under_monthly_mean", "super_fan", 20), "Super fans under last month's weekly mean by 20% or more"),
])
def test_a_rule_reads_as_a_producer_would_say_it(made, words):
    assert described(made) == words


def test_every_problem_of_a_rule_is_named_at_once():
    with pytest.raises(ValidationFailed) as raised:
        checked_rule("grows", "fans", "ten", True, {"to": ["not-an-address"]})
    assert {item["loc"][1] for item in raised.value.items} == {"kind", "metric", "threshold", "email"}


@pytest.mark.parametrize("threshold", [-1, 100_000_001, True])
def test_a_threshold_is_a_number_from_0_to_100_million(threshold):
    with pytest.raises(ValidationFailed, match="threshold"):
        checked_rule("grows_by", "at_risk", threshold, True)


def test_e_mail_delivery_needs_an_address_and_gives_the_rule_its_ways():
    with pytest.raises(ValidationFailed, match="email"):
        checked_rule("below", "super_fan", 1000, False, {"to": []})
    both = checked_rule("below", "super_fan", 1000, True, {"to": ["B@x.fm", "a@x.fm", "b@x.fm"], "at_once": True})
    assert (both["delivery"], both["recipients"], both["email_now"]) == (["email", "webhook"], ["a@x.fm", "b@x.fm"],
                                                                        True)


def test_the_smtp_settings_are_read_from_the_environment_and_the_password_never_shown():
    settings = Settings.from_env({"SMTP_HOST": "mail.jozi.fm", "SMTP_PORT": "2525", "SMTP_USER": "alerts",
                                  "SMTP_PASSWORD": "s3cret", "SMTP_FROM": "alerts@jozi.fm", "SMTP_STARTTLS": "false"})
    assert (settings.smtp_host, settings.smtp_port, settings.smtp_user, settings.smtp_from) == (
        "mail.jozi.fm", 2525, "alerts", "alerts@jozi.fm")
    assert settings.smtp_starttls is False and "s3cret" not in repr(settings)
    assert Settings.from_env({}).smtp_host is None  # no host: no mail is sent
    with pytest.raises(ValueError, match="SMTP_PORT"):
        Settings.from_env({"SMTP_PORT": "twenty-five"})
