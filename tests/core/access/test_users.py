"""Local accounts: an unknown email costs what a wrong password costs, and signing out ends every session."""
from __future__ import annotations

import hashlib

import pytest

from core.access import users
from core.access.users import create_user, end_sessions, session_user, verify_login

pytestmark = pytest.mark.db

PASSWORD = "on-air-2026"


@pytest.fixture
def hashing(monkeypatch):
    """The PBKDF2 rounds each sign-in check computes, one entry per hash."""
    rounds = []
    real = hashlib.pbkdf2_hmac

    def spy(name, password, salt, iterations, *args):
        rounds.append(iterations)
        return real(name, password, salt, iterations, *args)

    monkeypatch.setattr(users.hashlib, "pbkdf2_hmac", spy)
    return rounds


@pytest.fixture
def thandi(app):
    return create_user("thandi@jozi.fm", PASSWORD, companies=[1])


def test_an_unknown_email_is_checked_with_the_same_pbkdf2_work_as_a_wrong_password(thandi, hashing):
    assert verify_login("thandi@jozi.fm", "not-the-password") is None
    wrong_password = list(hashing)
    hashing.clear()
    assert verify_login("nobody@jozi.fm", "not-the-password") is None
    assert hashing == wrong_password == [users.PBKDF2_ROUNDS]  # what the suite hashes with (tests/conftest.py)


def test_the_right_password_signs_in_whatever_the_case_and_spaces_of_the_email(thandi):
    assert verify_login("  Thandi@Jozi.FM ", PASSWORD).id == thandi.id


def test_a_session_is_valid_for_the_version_it_was_signed_in_under(thandi):
    assert session_user(str(thandi.id), 0).id == thandi.id
    assert session_user(str(thandi.id), 1) is None


def test_ending_the_sessions_refuses_every_older_one(thandi):
    end_sessions(str(thandi.id))
    assert session_user(str(thandi.id), 0) is None
    assert session_user(str(thandi.id), 1).id == thandi.id


def test_a_removed_account_has_no_session(thandi):
    thandi.delete()
    assert session_user(str(thandi.id), 0) is None
