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


PLATFORM = {"AUTH_URL": "https://auth.example.com", "PLATFORM_URL": "https://platform.example.com",
            "PLATFORM_CLIENT_ID": "lss", "PLATFORM_CLIENT_SECRET": "s3cret-of-the-client"}


def test_the_platform_waits_5_seconds_and_reads_stations_from_company_id_by_default():
    settings = Settings.from_env({})
    assert (settings.platform_timeout_s, settings.platform_company_field) == (5.0, "company_id")
    assert not settings.platform_configured


def test_the_platform_settings_are_read_from_the_environment():
    settings = Settings.from_env({**PLATFORM, "PLATFORM_COMPANY_FIELD": "station_id", "PLATFORM_TIMEOUT_S": "2.5"})
    assert (settings.platform_client_id, settings.platform_client_secret) == ("lss", "s3cret-of-the-client")
    assert (settings.platform_company_field, settings.platform_timeout_s) == ("station_id", 2.5)
    assert settings.platform_configured


@pytest.mark.parametrize("missing", sorted(PLATFORM))
def test_platform_users_sign_in_only_when_both_urls_and_the_client_id_and_secret_are_set(missing):
    assert not Settings.from_env({k: v for k, v in PLATFORM.items() if k != missing}).platform_configured


@pytest.mark.parametrize("value", ["0", "-1", "soon", "nan", "inf"])
def test_a_platform_timeout_that_is_not_a_positive_number_of_seconds_fails_at_start_up(value):
    with pytest.raises(ValueError, match="PLATFORM_TIMEOUT_S"):
        Settings.from_env({"PLATFORM_TIMEOUT_S": value})


def test_the_client_secret_is_not_in_the_settings_repr():
    assert "s3cret-of-the-client" not in repr(Settings.from_env(PLATFORM))


def test_no_proxy_is_trusted_unless_trusted_proxies_says_how_many():
    assert Settings.from_env({}).trusted_proxies == 0
    assert Settings.from_env({"TRUSTED_PROXIES": "2"}).trusted_proxies == 2


@pytest.mark.parametrize("value", ["-1", "one", "1.5"])
def test_a_trusted_proxies_setting_that_is_not_a_count_fails_at_start_up(value):
    with pytest.raises(ValueError, match="TRUSTED_PROXIES"):
        Settings.from_env({"TRUSTED_PROXIES": value})


def test_a_job_s_lease_stands_2_minutes_by_default_and_job_lease_s_changes_it():
    assert Settings.from_env({}).job_lease_s == 120.0
    assert Settings.from_env({"JOB_LEASE_S": "4.5"}).job_lease_s == 4.5


def test_a_job_lease_that_is_not_a_number_of_seconds_fails_at_start_up():
    with pytest.raises(ValueError, match="JOB_LEASE_S"):
        Settings.from_env({"JOB_LEASE_S": "two minutes"})
