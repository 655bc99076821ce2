"""CLI commands for accounts, keys and segmentation."""
from __future__ import annotations

import pytest

from core.access.api_keys import authenticate
from core.access.users import verify_login
from core.segmentation.overview import latest_run
from core.segmentation.runs import segment_company
from tests.factories import make_listener
from tests.memory import NOW, event

pytestmark = pytest.mark.db


def test_keys_create_prints_the_token_alone_on_the_last_line(runner):
    result = runner.invoke(args=["keys", "create", "--company", "1", "--company", "2", "--name", "crm"])
    assert result.exit_code == 0, result.output
    token = result.output.strip().splitlines()[-1]
    assert authenticate(token).companies == frozenset({1, 2})


def test_keys_create_all(runner):
    token = runner.invoke(args=["keys", "create", "--all"]).output.strip().splitlines()[-1]
    assert authenticate(token).all_companies


def test_keys_create_needs_a_scope(runner):
    assert runner.invoke(args=["keys", "create"]).exit_code != 0


def test_keys_list_shows_prefixes_never_tokens_and_revoke_disables(runner):
    token = runner.invoke(args=["keys", "create", "--company", "1"]).output.strip().splitlines()[-1]
    listing = runner.invoke(args=["keys", "list"]).output
    assert token[:10] in listing and token not in listing
    assert runner.invoke(args=["keys", "revoke", token[:10]]).exit_code == 0
    assert "revoked" in runner.invoke(args=["keys", "list"]).output


def test_users_create_hashes_the_password(runner):
    result = runner.invoke(args=["users", "create", "--email", "P@Station.fm", "--password", "long-enough",
                                 "--company", "1"])
    assert result.exit_code == 0, result.output
    user = verify_login("p@station.fm", "long-enough")
    assert user is not None and user.companies == [1] and "long-enough" not in user.password_hash
    assert verify_login("p@station.fm", "wrong-password") is None


def test_users_create_refuses_a_duplicate_email(runner):
    args = ["users", "create", "--email", "a@b.fm", "--password", "long-enough", "--company", "1"]
    runner.invoke(args=args)
    result = runner.invoke(args=args)
    assert result.exit_code != 0 and "already exists" in result.output


def test_segment_command_prints_progress_and_the_distribution(runner):
    make_listener(1, "a", [event(1)])
    result = runner.invoke(args=["segment", "--company", "1", "--now", NOW.isoformat()])
    assert result.exit_code == 0, result.output
    assert "reading listeners" in result.output
    assert "new_listener" in result.output and "1 listeners" in result.output


def test_segment_command_rejects_a_bad_time(runner):
    result = runner.invoke(args=["segment", "--company", "1", "--now", "tomorrow"])
    assert result.exit_code != 0 and "ISO 8601" in result.output


def test_segment_all_segments_every_station(runner):
    make_listener(1, "a", [event(1)])
    make_listener(2, "b", [event(100)])
    result = runner.invoke(args=["segment", "--all", "--now", NOW.isoformat()])
    assert result.exit_code == 0, result.output
    assert "Station 1" in result.output and "Station 2" in result.output
    assert [latest_run(company_id, kind="full").listeners for company_id in (1, 2)] == [1, 1]


@pytest.mark.parametrize("args", [[], ["--company", "1", "--all"]])
def test_segment_needs_either_one_station_or_all(runner, args):
    result = runner.invoke(args=["segment", *args])
    assert result.exit_code != 0 and "--company or --all" in result.output


def test_history_rebuilds_a_station_s_13_months_and_needs_a_station(runner):
    make_listener(1, "27820000001", [event(3), event(40)])
    segment_company(1, NOW)
    result = runner.invoke(args=["history", "--company", "1", "--now", NOW.isoformat()])
    assert result.exit_code == 0 and "Station 1: 57 weeks rebuilt" in result.output
    assert runner.invoke(args=["history"]).exit_code == 2
