"""A process that must not start says why in one sentence, exits non-zero and shows no traceback (issue 48, items 5
and 7): a master key that is not one (MASTER_KEY, or DATA_DIR/master.key), and a production database whose key
vault would live in its own backups. `--help` of every command needs neither a master key nor a database."""
from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from core.db.embedded import free_port

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
SHORT_KEY = base64.b64encode(os.urandom(95)).decode()
EVERY_HELP = """
import json, sys
from click.testing import CliRunner
from flask.cli import cli

runner, asked = CliRunner(), [[]]
top = runner.invoke(cli, ["--app", "wsgi", "--help"])
import wsgi  # loaded by the call above, inside its click context: the app was not started

def walk(group, path):
    for name, command in group.commands.items():
        asked.append([*path, name])
        if hasattr(command, "commands"):
            walk(command, [*path, name])

walk(wsgi.app.cli, [])
answers = {" ".join(path): runner.invoke(cli, ["--app", "wsgi", *path, "--help"]) for path in asked}
print(json.dumps({name: [r.exit_code, "Usage:" in r.output, "Traceback" in r.output]
                  for name, r in answers.items()}))
"""


def env_of(data_dir: Path, **settings: str) -> dict:
    """A process's environment with nothing of the suite's database or keys, and these settings."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MONGODB_", "KEY_VAULT_", "MASTER_KEY"))}
    return {**env, "DATA_DIR": str(data_dir), "SECRET_KEY": "refusal-secret", "AUTO_EMBED": "false", **settings}


def run(env: dict, *command: str) -> subprocess.CompletedProcess:
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)


def said(result: subprocess.CompletedProcess) -> list[str]:
    """Every line the process wrote, on either stream."""
    return [line for line in (result.stdout + result.stderr).splitlines() if line.strip()]


def bad_key_file(data_dir: Path, kind: str) -> None:
    data_dir.mkdir(parents=True)
    if kind == "short":
        (data_dir / "master.key").write_bytes(os.urandom(10))
    else:
        (data_dir / "master.key").mkdir()


@pytest.mark.parametrize(("settings", "key_file", "sentence"), [
    ({"MASTER_KEY": "garbage!"}, None, "Error: MASTER_KEY is not base64: "),
    ({"MASTER_KEY": SHORT_KEY}, None, "Error: MASTER_KEY holds 95 bytes where a master key is 96: "),
    ({}, "short", "holds 10 bytes where a master key is 96: "),
    ({}, "unreadable", "cannot be read or written (Is a directory); "),
])
def test_a_master_key_that_is_not_one_stops_a_command_with_one_sentence(tmp_path, settings, key_file, sentence):
    data_dir = tmp_path / "data"
    if key_file:
        bad_key_file(data_dir, key_file)
    result = run(env_of(data_dir, **settings), str(BIN / "flask"), "--app", "wsgi", "credits", "check")
    assert result.returncode == 1
    assert len(said(result)) == 1 and sentence in said(result)[0], said(result)
    assert not (data_dir / "secantus.json").exists(), "no database was started"


def test_a_master_key_that_is_not_one_stops_gunicorn_with_one_sentence(tmp_path):
    result = run(env_of(tmp_path / "data", MASTER_KEY="garbage!"), str(BIN / "gunicorn"), "--config",
                 str(ROOT / "gunicorn.conf.py"), "--bind", f"127.0.0.1:{free_port()}", "wsgi:app")
    assert result.returncode != 0
    assert "Error: MASTER_KEY is not base64: " in result.stderr and "Traceback" not in result.stderr, result.stderr


def test_help_of_every_command_works_without_a_master_key_or_a_database(tmp_path):
    env = env_of(tmp_path / "data", MASTER_KEY="garbage!", MONGODB_URI=f"mongodb://127.0.0.1:{free_port()}/")
    top = run(env, str(BIN / "flask"), "--app", "wsgi", "--help")
    assert top.returncode == 0 and "serve" in top.stdout and "encrypt" in top.stdout, top.stderr
    answers = json.loads(run(env, sys.executable, "-c", EVERY_HELP).stdout)
    assert {"serve", "worker", "encrypt", "purge", "keys create"} <= set(answers)
    assert {name: answer for name, answer in answers.items() if answer != [0, True, False]} == {}
    assert not (tmp_path / "data").exists() or not any((tmp_path / "data").iterdir())


@pytest.mark.db
def test_a_production_database_without_a_key_vault_of_its_own_is_refused_naming_key_vault_uri(mongodb_uri,
                                                                                                tmp_path):
    env = env_of(tmp_path / "data", MONGODB_URI=mongodb_uri, MONGODB_DATABASE="lss_refusals")
    result = run(env, str(BIN / "flask"), "--app", "wsgi", "credits", "check")
    assert result.returncode == 1
    assert len(said(result)) == 1 and said(result)[0].startswith("Error: KEY_VAULT_URI is not set, "), said(result)


@pytest.mark.db
def test_gunicorn_on_a_production_database_without_a_key_vault_of_its_own_is_refused(mongodb_uri, tmp_path):
    env = env_of(tmp_path / "data", MONGODB_URI=mongodb_uri, MONGODB_DATABASE="lss_refusals")
    result = run(env, str(BIN / "gunicorn"), "--config", str(ROOT / "gunicorn.conf.py"), "--bind",
                 f"127.0.0.1:{free_port()}", "wsgi:app")
    assert result.returncode != 0
    assert "Error: KEY_VAULT_URI is not set, " in result.stderr and "Traceback" not in result.stderr, result.stderr


@pytest.mark.db
def test_a_production_database_starts_when_the_operator_says_the_vault_may_share_its_backups(mongodb_uri, tmp_path):
    env = env_of(tmp_path / "data", MONGODB_URI=mongodb_uri, MONGODB_DATABASE="lss_refusals",
                 KEY_VAULT_SHARES_BACKUPS="yes")
    result = run(env, str(BIN / "flask"), "--app", "wsgi", "credits", "check")
    assert result.returncode == 0 and "agree with their ledgers" in result.stdout, said(result)
