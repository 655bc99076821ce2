"""The embedded database: one SecantusDB server process per DATA_DIR, shared by the server and every CLI command.

SecantusDB is only ever run as a separate process (its licence forbids importing it here). The first process that
needs it starts it and records pid and port in DATA_DIR; the others read the record and connect. A record whose
process is gone or whose port does not answer is stale and replaced. A file lock serialises the check-and-start so
that two commands started together never launch two servers on one data directory.
"""
from __future__ import annotations

import fcntl
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

RECORD = "secantus.json"
START_TIMEOUT_S = 60
_started: list[subprocess.Popen] = []  # servers outlive this process on purpose; keep their handles referenced


class EmbeddedDatabaseError(RuntimeError):
    """The embedded database could not be started or reached."""


def server_command() -> str:
    """The secantusd-py launcher of this virtual environment, else the one on PATH."""
    beside = Path(sys.executable).with_name("secantusd-py")
    if beside.exists():
        return str(beside)
    found = shutil.which("secantusd-py")
    if not found:
        raise EmbeddedDatabaseError("secantusd-py is not installed: run `make install`")
    return found


def free_port() -> int:
    """A loopback port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def port_answers(port: int, timeout: float = 0.5) -> bool:
    """True when something accepts TCP connections on the loopback port."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout):
            return True
    except OSError:
        return False


def pid_alive(pid: int) -> bool:
    """True when the process exists (and is not a zombie we could reap)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        done, _ = os.waitpid(pid, os.WNOHANG)
        return done == 0
    except ChildProcessError:
        return True


@contextmanager
def _locked(data_dir: Path):
    data_dir.mkdir(parents=True, exist_ok=True)
    with open(data_dir / "secantus.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def read_record(data_dir: Path) -> dict | None:
    """The recorded server if it is alive and answering, else None."""
    try:
        record = json.loads((data_dir / RECORD).read_text())
    except (OSError, ValueError):
        return None
    if pid_alive(record.get("pid", -1)) and port_answers(record.get("port", 0)):
        return record
    return None


def uri_for(record: dict) -> str:
    """The MongoDB URI of a recorded server."""
    return f"mongodb://127.0.0.1:{record['port']}/?directConnection=true"


def ensure_running(data_dir: Path) -> str:
    """Connect to the recorded server of data_dir, starting one if there is none; returns its URI."""
    data_dir = Path(data_dir).resolve()
    with _locked(data_dir):
        record = read_record(data_dir)
        if record is None:
            record = _start(data_dir)
    return uri_for(record)


def _start(data_dir: Path) -> dict:
    port = free_port()
    with open(data_dir / "secantus.log", "ab") as log:  # the child keeps its own copy of the descriptor
        proc = subprocess.Popen(
            [server_command(), "--host", "127.0.0.1", "--port", str(port),
             "--storage-path", str(data_dir / "db"), "--log-level", "WARNING"],
            stdout=log, stderr=log, stdin=subprocess.DEVNULL, start_new_session=True,
        )
    deadline = time.monotonic() + START_TIMEOUT_S
    while not port_answers(port):
        if proc.poll() is not None:
            raise EmbeddedDatabaseError(f"secantusd-py exited with {proc.returncode}; see {data_dir / 'secantus.log'}")
        if time.monotonic() > deadline:
            proc.kill()
            raise EmbeddedDatabaseError("secantusd-py did not start listening in time")
        time.sleep(0.1)
    _started.append(proc)
    record = {"pid": proc.pid, "port": port, "started_at": time.time()}
    (data_dir / RECORD).write_text(json.dumps(record))
    return record


def stop(data_dir: Path, timeout: float = 60) -> bool:
    """Stop the recorded server cleanly (SIGTERM, then SIGKILL after `timeout`); True if one was running.

    SecantusDB closes WiredTiger on SIGTERM, which takes from a fraction of a second to tens of seconds on a busy
    machine, so the wait is generous before the kill.
    """
    data_dir = Path(data_dir).resolve()
    with _locked(data_dir):
        record = read_record(data_dir)
        (data_dir / RECORD).unlink(missing_ok=True)
    if record is None:
        return False
    pid = record["pid"]
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    while pid_alive(pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    if pid_alive(pid):
        os.kill(pid, signal.SIGKILL)
        while pid_alive(pid):
            time.sleep(0.05)
    return True
