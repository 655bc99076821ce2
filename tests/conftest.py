"""Test fixtures: one real SecantusDB process for the session, a clean database for every test."""
from __future__ import annotations

import functools
import shutil
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest
from bson.codec_options import CodecOptions
from bson.raw_bson import RawBSONDocument
from pymongo import monitoring
from pymongo.errors import BulkWriteError

from core.db.embedded import free_port, launch, terminate, uri_of_port

ROOT = Path(__file__).resolve().parents[1]
T = TypeVar("T")


def pytest_collection_modifyitems(config, items):
    """A test that reaches the database must say so with @pytest.mark.db, so that `-m 'not db'` is the fast suite."""
    unmarked = [item.nodeid for item in items
                if "mongodb_uri" in item.fixturenames and item.get_closest_marker("db") is None]
    if unmarked and not config.getoption("collectonly"):
        raise pytest.UsageError("these tests use the database but are not marked db: " + ", ".join(unmarked[:10]))
    items[:] = _longest_first(items)


_FAILED: list[str] = []


def pytest_runtest_logreport(report):
    """Kept for `pytest_unconfigure`; on the controller this sees every xdist worker's reports too."""
    if report.failed:
        crash = getattr(report.longrepr, "reprcrash", None)
        reason = crash.message.splitlines()[0][:300] if crash is not None and crash.message else ""
        _FAILED.append(f"{report.nodeid} ({report.when}, {report.duration:.1f} s): {reason}")


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config):
    """The failed tests again, after pytest's last line: CI keeps only the tail of the output, and a red run that
    does not say which test failed cannot be fixed from that tail."""
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if _FAILED and reporter is not None and not hasattr(config, "workerinput"):
        for failure in _FAILED:
            reporter.write_line(f"failed: {failure}")


def _longest_first(items: list) -> list:
    """The files that run the service as processes of their own first, the browser's files next, then the rest by
    their number of tests, each file's tests in their own order. `make test` gives each worker a whole file at a
    time, in this order (`--dist loadfile --no-loadscope-reorder`): a served file is minutes of one worker waiting on
    its processes, and left to the end (xdist's own order puts files of few tests last) it ran alone while the
    other workers sat idle."""
    files: dict = {}
    for item in items:
        files.setdefault(item.path, []).append(item)

    def rank(tests: list) -> tuple[int, int]:
        kind = (0 if tests[0].get_closest_marker("served") else
                1 if any("browser" in test.fixturenames for test in tests) else 2)
        return kind, -len(tests)

    return [item for tests in sorted(files.values(), key=rank) for item in tests]


@pytest.fixture(scope="session")
def mongodb_uri(tmp_path_factory):
    """A SecantusDB server process on a free loopback port, stopped after the session (and with it, if killed)."""
    port, storage = free_port(), tmp_path_factory.mktemp("secantus")
    proc = launch(storage / "db", port, storage / "secantus.log")
    yield uri_of_port(port)
    terminate(proc.pid, timeout=30)
    proc.wait(timeout=30)  # reaped, so that the interpreter does not warn about a child still running
    shutil.rmtree(storage, ignore_errors=True)


@pytest.fixture(scope="session", autouse=True)
def _quick_password_hashing():
    """Passwords hashed with 1,000 PBKDF2 rounds in this process rather than the service's 240,000: each account
    made and each sign-in of the suite would otherwise spend 0.15 s of CPU on it (minutes in all), and no test is
    about the cost of a hash. An unknown email still costs the same work as a wrong password."""
    from core.access import users

    kept_rounds, kept_unknown = users.PBKDF2_ROUNDS, users.UNKNOWN_ACCOUNT_HASH
    users.PBKDF2_ROUNDS = 1_000
    users.UNKNOWN_ACCOUNT_HASH = users._stored_form(bytes(16), bytes(32))
    yield
    users.PBKDF2_ROUNDS, users.UNKNOWN_ACCOUNT_HASH = kept_rounds, kept_unknown


@pytest.fixture(scope="session")
def test_env(mongodb_uri, tmp_path_factory):
    """The environment the app reads in tests. The session's server is not DATA_DIR's embedded one, so the service
    takes it for a production database: its key vault is a collection of the same database, which it allows only when
    told (the tests of where keys live start services of their own)."""
    return {"MONGODB_URI": mongodb_uri, "MONGODB_DATABASE": "lss_test", "SECRET_KEY": "test-secret",
            "KEY_VAULT_SHARES_BACKUPS": "yes",
            "ADMIN_KEY": "test-admin-key", "DATA_DIR": str(tmp_path_factory.mktemp("data")),
            "AUTO_EMBED": "false",  # embedding every run's listeners would slow every test; search tests turn it on
            "WEBHOOK_ALLOW_HOSTS": "127.0.0.1"}  # webhook tests deliver to loopback receivers


@pytest.fixture(scope="session")
def _app(test_env):
    from webapp import create_app

    return create_app({"ENV": test_env, "TESTING": True, "WTF_CSRF_ENABLED": False})


class _Writes(monitoring.CommandListener):
    """The collections this process's clients may have put documents in since the database was last emptied:
    emptying every one of the service's 40-odd collections before each test costs a round trip each (a tenth of a
    second a test on the embedded database, minutes in all), and a test writes to a few. A command this does not
    know to add no document, or to add them to one collection, counts as a write to all of them. It also keeps the
    collections changed in any way since an image was laid down (`changed`), so that `restored` lays down again only
    those."""

    CHANGE_NONE = frozenset({"find", "getMore", "count", "distinct", "listCollections", "listIndexes", "ping", "hello",
                             "isMaster", "ismaster", "endSessions", "killCursors", "createIndexes", "create",
                             "dropIndexes", "buildInfo", "commitTransaction", "abortTransaction", "dbStats",
                             "collStats", "serverStatus", "saslStart", "saslContinue", "explain"})
    """Commands that leave every document as it was (a transaction's writes are seen as they are sent)."""
    WRITES = frozenset({"insert", "update", "findAndModify", "findandmodify"})
    SYSTEM = frozenset({"admin", "config", "local"})

    def __init__(self) -> None:
        self.written: set[tuple[str, str]] = set()
        self.everything = True  # until the first emptying: whatever was there before this process
        self.changed: set[tuple[str, str]] | None = None
        """The collections whose documents were added to, changed or deleted since `unchanged_from_now`; None when
        that cannot be told (a command this does not know, or no `unchanged_from_now` yet)."""
        self.before_image: set[str] | None = None
        """What the test's own thread wrote to before its image was laid (None when not watched): `restored` lays its
        image over it, so a fixture that writes before the image's fixture has run loses its writes."""
        self._watched_thread: int | None = None

    def started(self, event) -> None:
        name, command = event.command_name, event.command
        target = command.get(name)
        reads = name == "aggregate" and isinstance(target, str) and not any(
            "$out" in stage or "$merge" in stage for stage in command.get("pipeline", []))
        if reads or name in self.CHANGE_NONE or event.database_name in self.SYSTEM:
            return
        one = (event.database_name, target) if name in self.WRITES | {"delete"} and isinstance(target, str) else None
        if self.before_image is not None and threading.get_ident() == self._watched_thread:
            self.before_image.add(f"{one[1]}" if one else name)
        if self.changed is not None:
            if one:
                self.changed.add(one)
            else:
                self.changed = None
        if name == "delete":  # adds no document to empty
            return
        if one:
            self.written.add(one)
        else:
            self.everything = True

    def succeeded(self, event) -> None:
        pass

    def failed(self, event) -> None:
        pass

    def emptied(self) -> None:
        self.written.clear()
        self.everything = False

    def unchanged_from_now(self) -> None:
        self.changed = set()

    def watch_before_image(self) -> None:
        self.before_image, self._watched_thread = set(), threading.get_ident()

    def image_laid(self) -> None:
        """Fails the test's set-up if it wrote before its image was laid (see `before_image`)."""
        written, self.before_image = self.before_image, None
        assert not written, (f"a fixture wrote to {', '.join(sorted(written))} before the test's image was laid, "
                             "which lays it over those writes: ask for the image's fixture first")


_WRITES = _Writes()
_LAID: list[str | None] = [None]
"""The image `restored` last laid down; the database holds it but for the collections in `_WRITES.changed`."""
monitoring.register(_WRITES)  # before any client is made: only clients made afterwards are watched


def empty_database() -> None:
    """Every collection emptied and every cached snapshot forgotten (for fixtures that start from nothing)."""
    from core.db.connection import get_db

    db = get_db()
    _LAID[0] = None
    names = (db.list_collection_names() if _WRITES.everything
             else sorted(collection for database, collection in _WRITES.written if database == db.name))
    _WRITES.emptied()  # before the deletes: a thread's write meanwhile is then emptied by the next call
    for name in names:
        if not name.startswith("system."):
            _emptied(db[name])
    _forget_caches()


def _emptied(collection) -> None:
    """Delete every document. A multi-document delete is not a retryable write, and a loaded run sometimes has the
    connection pool cleared under it (another thread's timeout: `_OperationCancelled`); it is then tried again once,
    so that the next tests do not start on what this one left."""
    from pymongo.errors import AutoReconnect

    from core.db.connection import wait_until_answering

    try:
        collection.delete_many({})
    except AutoReconnect:
        wait_until_answering()
        collection.delete_many({})


def _forget_caches() -> None:
    """Every snapshot and index this process holds, and the index files it shares under DATA_DIR: a database
    restored to an earlier state (as a backup would be) must not meet what was built from a later one."""
    from core.config import active
    from core.listeners import finding, snapshot
    from core.search import process_indexes

    snapshot.clear_cache()
    finding.forget()
    process_indexes.forget_indexes()
    shutil.rmtree(Path(active().data_dir) / "vectors", ignore_errors=True)


_IMAGES: dict[str, tuple[dict[str, list[RawBSONDocument]], object]] = {}
"""What `restored` built, per name: every collection's documents as raw BSON, and what the builder returned."""


def restored(name: str, build: Callable[[], T]) -> T:
    """The database exactly as `build()` leaves an empty one, and what it returned.

    The first test of a process to ask for `name` builds it; every later one gets the documents copied back from
    memory (a seeded demo takes seconds to import and segment, its copy a fraction of one). Each test still starts
    from that state whatever the one before it changed, so only builders that depend on nothing but the database
    and the fixed clock of tests/memory.py may be kept this way."""
    _WRITES.image_laid()
    db = _raw_database()
    if _LAID[0] == name and _WRITES.changed is not None:  # that image, changed in a few collections at most
        documents, result = _IMAGES[name]
        stale = sorted(collection for database, collection in _WRITES.changed if database == db.name)
        if stale:  # only those collections are laid down again
            _forget_caches()
            for collection in stale:
                db[collection].delete_many({})
                if documents.get(collection):
                    _insert_again(db[collection], documents[collection])
            _WRITES.unchanged_from_now()
        return result
    empty_database()
    if name in _IMAGES:
        documents, result = _IMAGES[name]
        for collection, docs in documents.items():
            _insert_again(db[collection], docs)
    else:
        result = build()
        documents = {collection: list(db[collection].find()) for collection in db.list_collection_names()
                     if not collection.startswith("system.")}
        _IMAGES[name] = ({collection: docs for collection, docs in documents.items() if docs}, result)
    _LAID[0] = name
    _WRITES.unchanged_from_now()
    return result


def _insert_again(collection, docs: list[RawBSONDocument]) -> None:
    """Insert an image's documents; a duplicate refused is accepted only if the collection then holds exactly the
    image's count (the embedded database, on a loaded machine, may apply a bulk insert it then reports failed and
    is retried: the documents are there, once)."""
    try:
        collection.insert_many(docs, ordered=False)
    except BulkWriteError as exc:
        duplicates_only = all(error.get("code") == 11000 for error in exc.details.get("writeErrors", []))
        if not duplicates_only or collection.count_documents({}) != len(docs):
            raise


def kept(build: Callable[..., T]) -> Callable[..., T]:
    """A fixture whose body only builds database state from an empty database (under `@pytest.fixture`): the first
    test of a process builds it, later ones get it `restored` (what the body returned, too)."""
    @functools.wraps(build)
    def body(*args, **kwargs) -> T:
        return restored(f"{build.__module__}.{build.__qualname__}", lambda: build(*args, **kwargs))
    body.lays_an_image = True  # so `app` leaves the emptying to `restored`
    return body


def _raw_database():
    from core.db.connection import get_db

    return get_db().with_options(codec_options=CodecOptions(document_class=RawBSONDocument))


def seeded(listeners: int = 200, seed: int = 7, company_id: int = 1, embedded: bool = False) -> None:
    """The demo station as `seed_demo` makes it as of tests/memory.py's NOW (and embedded, if asked), restored
    after its first build in this process."""
    from core.demo.seed import seed_demo
    from core.search.vectors import refresh_embeddings
    from tests.memory import NOW

    def build() -> None:
        seed_demo(company_id, listeners, seed=seed, now=NOW)
        if embedded:
            refresh_embeddings(company_id)

    restored(f"demo-{company_id}-{listeners}-{seed}-{'embedded' if embedded else 'plain'}", build)


@pytest.fixture
def app(_app, request):
    """The app over an emptied database, or over the image a fixture of the test lays down (which empties it,
    unless the database still holds exactly that image from the test before)."""
    if _lays_an_image(request):
        _WRITES.watch_before_image()
    else:
        _WRITES.before_image = None
        empty_database()
    yield _app


def _lays_an_image(request) -> bool:
    """True when one of the test's fixtures lays an image: it is `kept`, or its body calls `restored` or `seeded`.
    Those leave the database exactly as their image whatever it held, and lay down only what changed when it already
    holds that image; emptying it before them would make each test insert the whole image again."""
    fixtures = request.node._fixtureinfo.name2fixturedefs  # private, but the only way from a name to its function
    return any(getattr(defs[-1].func, "lays_an_image", False) or _calls_an_image(defs[-1].func)
               for defs in fixtures.values())


def _calls_an_image(func) -> bool:
    code = getattr(func, "__code__", None)
    return code is not None and not {"restored", "seeded"}.isdisjoint(code.co_names)


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
    from core.config import Settings
    from core.db import embedded
    from core.service import startup

    settings = Settings.from_env({"DATA_DIR": str(tmp_path), "SECRET_KEY": "test-secret", "DAILY_PURGE": "true",
                                  "AUTO_EMBED": "false"})
    startup.start(settings)
    yield settings
    embedded.stop(tmp_path)
    startup.start(_app.config["SETTINGS"])
