"""Test fixtures: one real SecantusDB process for the session, a clean database for every test."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from core.db.embedded import free_port, launch, terminate, uri_of_port

ROOT = Path(__file__).resolve().parents[1]


def pytest_collection_modifyitems(config, items):
    """A test that reaches the database must say so with @pytest.mark.db, so that `-m 'not db'` is the fast suite."""
    unmarked = [item.nodeid for item in items
                if "mongodb_uri" in item.fixturenames and item.get_closest_marker("db") is None]
    if unmarked and not config.getoption("collectonly"):
        raise pytest.UsageError("these tests use the database but are not marked db: " + ", ".join(unmarked[:10]))


@pytest.fixture(scope="session")
def mongodb_uri(tmp_path_factory):
    """A SecantusDB server process on a free loopback port, stopped after the session (and with it, if killed)."""
    port, storage = free_port(), tmp_path_factory.mktemp("secantus")
    proc = launch(storage / "db", port, storage / "secantus.log")
    yield uri_of_port(port)
    terminate(proc.pid, timeout=30)
    proc.wait(timeout=30)  # reaped, so that the interpreter does not warn about a child still running
    shutil.rmtree(storage, ignore_errors=True)


@pytest.fixture(scope="session")
def test_env(mongodb_uri, tmp_path_factory):
    """The environment the app reads in tests."""
    return {"MONGODB_URI": mongodb_uri, "MONGODB_DATABASE": "lss_test", "SECRET_KEY": "test-secret",
            "ADMIN_KEY": "test-admin-key", "DATA_DIR": str(tmp_path_factory.mktemp("data")),
            "AUTO_EMBED": "false"}  # embedding every run's listeners would slow every test; search tests turn it on


@pytest.fixture(scope="session")
def _app(test_env):
    from webapp import create_app

    return create_app({"ENV": test_env, "TESTING": True, "WTF_CSRF_ENABLED": False})


def empty_database() -> None:
    """Every collection emptied and every cached snapshot forgotten (for fixtures that start from nothing)."""
    from core.db.connection import get_db

    db = get_db()
    for name in db.list_collection_names():
        if not name.startswith("system."):
            db[name].delete_many({})
    from core.listeners import snapshot
    from core.search import vectors

    snapshot.clear_cache()
    vectors.forget_indexes()


@pytest.fixture
def app(_app):
    """The app over an emptied database."""
    empty_database()
    yield _app


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


@pytest.fixture
def reconciled(app):
    """After the test, `flask --app wsgi credits check` finds every balance equal to its ledger's sum (for the
    tests that race for credits: whatever they did, money must still add up)."""
    yield
    result = app.test_cli_runner().invoke(args=["credits", "check"])
    assert result.exit_code == 0, result.output


@pytest.fixture
def own_database(_app, tmp_path):
    """Core started on an embedded database of its own (DATA_DIR = tmp_path), for tests that stop, kill or rewrite
    it; the session's connection is restored afterwards."""
    from core import startup
    from core.config import Settings
    from core.db import embedded

    settings = Settings.from_env({"DATA_DIR": str(tmp_path), "SECRET_KEY": "test-secret", "DAILY_PURGE": "true",
                                  "AUTO_EMBED": "false"})
    startup.start(settings)
    yield settings
    embedded.stop(tmp_path)
    startup.start(_app.config["SETTINGS"])
