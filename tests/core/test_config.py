"""Settings of the sign-in throttle and of the cookies, read from the environment and checked at start-up."""
from __future__ import annotations

import pytest

from core.config import Settings


def test_failed_sign_ins_are_limited_to_5_a_minute_per_account_and_20_per_address_by_default():
    settings = Settings.from_env({})
    assert (settings.login_limit_account, settings.login_limit_address) == ("5/minute", "20/minute")


def test_the_limits_of_failed_sign_ins_are_read_from_the_environment():
    settings = Settings.from_env({"LOGIN_LIMIT_ACCOUNT": "3/hour", "LOGIN_LIMIT_ADDRESS": "10/minute;100/day"})
    assert (settings.login_limit_account, settings.login_limit_address) == ("3/hour", "10/minute;100/day")


@pytest.mark.parametrize("name", ["LOGIN_LIMIT_ACCOUNT", "LOGIN_LIMIT_ADDRESS"])
def test_a_limit_that_is_not_a_rate_fails_at_start_up(name):
    with pytest.raises(ValueError, match=name):
        Settings.from_env({name: "five a minute"})


@pytest.mark.parametrize("value, secure", [(None, False), ("false", False), ("true", True)])
def test_cookies_are_secure_when_cookie_secure_says_so(value, secure):
    assert Settings.from_env({} if value is None else {"COOKIE_SECURE": value}).cookie_secure is secure


def test_the_server_segments_every_station_daily_at_its_midnight_by_default():
    settings = Settings.from_env({})
    assert (settings.daily_segmentation, settings.segment_at) == (True, "00:00")


def test_daily_segmentation_and_its_time_are_read_from_the_environment():
    settings = Settings.from_env({"DAILY_SEGMENTATION": "false", "SEGMENT_AT": "3:30"})
    assert (settings.daily_segmentation, settings.segment_at) == (False, "03:30")


@pytest.mark.parametrize("env", [{"SEGMENT_AT": "midnight"}, {"DAILY_SEGMENTATION": "sometimes"}])
def test_a_daily_segmentation_setting_that_cannot_be_read_fails_at_start_up(env):
    with pytest.raises(ValueError, match=next(iter(env))):
        Settings.from_env(env)
