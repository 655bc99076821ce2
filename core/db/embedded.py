"""The embedded database: one SecantusDB server process per DATA_DIR, shared by the server and every CLI command.

SecantusDB is only ever run as a separate process (its licence forbids importing it here). The first process that
needs it starts it and records pid and port in DATA_DIR; the others read the record and connect. A record whose
process is gone or whose port does not answer is stale and replaced. A file lock serialises the check-and-start so
that two commands started together never launch two servers on one data directory.

Three promises keep a running service whole when the database is not:
- the port is stable per DATA_DIR (kept in `secantus.port`), so a restarted server answers where every client
  already looks, and their drivers reconnect by themselves;
- the server never outlives the process that started it: it runs under a guard (core/db/guard.py) that stops it
  when its parent ends, however it ends; the recorded pid is the guard's, which lives exactly as long as the server;
- `Supervisor` restarts a server that died, within about a second, for as long as the service runs.

The key vault has a server of its own on the same terms, in DATA_DIR/keys (its storage DATA_DIR/keys/db), so that a
backup of the data's files (DATA_DIR/db) never holds the keys that erasure destroys
(core.personal.vault_connection); `stop` stops it with the data's.
"""
from __future__ import annotations

import fcntl
import json
import logging
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, nullcontext
from pathlib import Path

from core.clock import utcnow
from core.db import quirks

RECORD = "secantus.json"
PORT_FILE = "secantus.port"
STORAGE = "db"
LOG = "secantus.log"
KEYS = "keys"  # the key vault's server, a folder of DATA_DIR with the same record, port, lock, log and storage
START_TIMEOUT_S = 60
GUARD = Path(__file__).with_name("guard.py")
KILL_AFTER_S = 45  # the guard's wait for a clean close before it kills; under `terminate`'s, so the guard ends first
logger = logging.getLogger(__name__)
_started: list[subprocess.Popen] = []  # keep the handles referenced, so that Python never reaps a running server
_launchers: dict[int, ThreadPoolExecutor] = {}  # per process id: the thread every server of that process starts from
_launchers_lock = threading.Lock()


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
def locked(data_dir: Path):
    """Hold DATA_DIR's lock: nobody else starts, stops or swaps its server meanwhile. The kernel releases it when
    the holder dies, so a crash never leaves a stale lock behind."""
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
    if not pid_alive(record.get("owner", os.getpid())):  # its starter is gone, so its guard is stopping it
        _wait_gone(record.get("pid", -1), KILL_AFTER_S + 5)
        return None
    if pid_alive(record.get("pid", -1)) and port_answers(record.get("port", 0)):
        return record
    return None


def _wait_gone(pid: int, timeout_s: float) -> None:
    """Wait for a server on its way out to end: one that still answers for a moment must not be adopted."""
    deadline = time.monotonic() + timeout_s
    while pid_alive(pid) and time.monotonic() < deadline:
        time.sleep(0.1)


def uri_for(record: dict) -> str:
    """The MongoDB URI of a recorded server."""
    return uri_of_port(record["port"])


def uri_of_port(port: int, host: str = "127.0.0.1") -> str:
    """The MongoDB URI of a server this service started, on a port of this host (loopback unless said)."""
    return f"mongodb://{host}:{port}/?{quirks.EMBEDDED_URI_OPTIONS}"


def ensure_running(data_dir: Path) -> str:
    """Connect to the recorded server of data_dir, starting one if there is none; returns its URI."""
    data_dir = Path(data_dir).resolve()
    with locked(data_dir):
        record = read_record(data_dir) or start_locked(data_dir)
    return uri_for(record)


def stable_port(data_dir: Path) -> int:
    """DATA_DIR's port: the one it had before when it is free, else a new one, remembered from now on."""
    try:
        port = int((data_dir / PORT_FILE).read_text())
    except (OSError, ValueError):
        port = 0
    if not port or port_answers(port):
        port = free_port()
        (data_dir / PORT_FILE).write_text(str(port))
    return port


def start_locked(data_dir: Path) -> dict:
    """Start DATA_DIR's server on its stable port and record it (the caller holds `locked(data_dir)`)."""
    port = stable_port(data_dir)
    proc = launch(data_dir / STORAGE, port, data_dir / LOG)
    record = {"pid": proc.pid, "port": port, "started_at": utcnow().timestamp(), "owner": os.getpid()}
    (data_dir / RECORD).write_text(json.dumps(record))
    return record


def guarded(command: list[str]) -> list[str]:
    """The command, run under core/db/guard.py so that it never outlives this process."""
    return [sys.executable, str(GUARD), str(os.getpid()), str(KILL_AFTER_S), *command]


def launch(storage: Path, port: int, log_path: Path) -> subprocess.Popen:
    """A SecantusDB server on this storage and loopback port, guarded to die with this process; waits until it
    answers."""
    command = [server_command(), "--host", "127.0.0.1", "--port", str(port), "--storage-path", str(storage),
               "--log-level", "WARNING"]
    with open(log_path, "ab") as log:  # the child keeps its own copy of the descriptor
        proc = _popen_lasting(guarded(command), stdout=log, stderr=log, stdin=subprocess.DEVNULL,
                              start_new_session=True)
    deadline = time.monotonic() + START_TIMEOUT_S
    while not port_answers(port):
        if proc.poll() is not None:
            raise EmbeddedDatabaseError(f"secantusd-py exited with {proc.returncode}; see {log_path}")
        if time.monotonic() > deadline:
            proc.kill()
            raise EmbeddedDatabaseError("secantusd-py did not start listening in time")
        time.sleep(0.1)
    _started.append(proc)
    return proc


def keys_dir(data_dir: Path) -> Path:
    """The folder of DATA_DIR's key vault server."""
    return Path(data_dir).resolve() / KEYS


def _popen_lasting(*args, **kwargs) -> subprocess.Popen:
    """subprocess.Popen from a thread that lives as long as this process. The guard asks the kernel to stop the
    server when the thread that started it ends (PR_SET_PDEATHSIG is per thread), and a request's or a job's thread
    ends long before the process: a key server started by an import's first seal died with the import's thread."""
    with _launchers_lock:
        launcher = _launchers.get(os.getpid())  # a forked child has its own (its parent's thread is not in it)
        if launcher is None:
            launcher = _launchers[os.getpid()] = ThreadPoolExecutor(1, thread_name_prefix="embedded-launcher")
    return launcher.submit(subprocess.Popen, *args, **kwargs).result()


def stop(data_dir: Path, timeout: float = 60) -> bool:
    """Stop the recorded server cleanly (SIGTERM, then SIGKILL after `timeout`), and DATA_DIR's key vault server
    with it, both at once; True if the data's was running."""
    data_dir = Path(data_dir).resolve()
    keys = keys_dir(data_dir)
    with locked(data_dir), (locked(keys) if (keys / RECORD).exists() else nullcontext()):
        records = [_forgotten(folder) for folder in (data_dir, keys)]
        terminate_all([record["pid"] for record in records if record], timeout)
    return records[0] is not None


def stop_locked(data_dir: Path, timeout: float = 60) -> bool:
    """Stop DATA_DIR's server alone, for a caller that holds its lock; True if one was running.

    SecantusDB closes WiredTiger on SIGTERM, which takes from a fraction of a second to tens of seconds on a busy
    machine, so the wait is generous before the kill.
    """
    record = _forgotten(data_dir)
    if record is None:
        return False
    terminate(record["pid"], timeout)
    return True


def _forgotten(data_dir: Path) -> dict | None:
    """The folder's live record, if any, once its file is gone (the caller holds the folder's lock)."""
    record = read_record(data_dir)
    (data_dir / RECORD).unlink(missing_ok=True)
    return record


def terminate(pid: int, timeout: float = 60) -> None:
    """SIGTERM, then SIGKILL if the process is still there after `timeout` seconds; returns when it is gone.

    A guarded server (see core/db/guard.py) stops cleanly on SIGTERM, however long WiredTiger takes to close."""
    terminate_all([pid], timeout)


def terminate_all(pids: list[int], timeout: float = 60) -> None:
    """`terminate` for several processes, signalled together so that their closes overlap."""
    for pid in pids:
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
    deadline = time.monotonic() + timeout
    while any(pid_alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    for pid in pids:
        if pid_alive(pid):
            os.kill(pid, signal.SIGKILL)
            while pid_alive(pid):
                time.sleep(0.05)


class Supervisor(threading.Thread):
    """Restarts DATA_DIR's server whenever it is gone, for as long as this process runs.

    The server is started from this thread and dies with it (see the module docstring), so the thread never ends
    before the process does.
    """

    def __init__(self, data_dir: Path, interval: float = 1.0):
        super().__init__(name="database-supervisor", daemon=True)
        self.data_dir, self.interval, self.restarts = Path(data_dir).resolve(), interval, 0
        self._stopping = threading.Event()

    def run(self) -> None:
        while not self._stopping.wait(self.interval):
            if read_record(self.data_dir) is None:
                started = time.monotonic()
                logger.warning("the embedded database in %s is gone; starting it again", self.data_dir)
                try:
                    ensure_running(self.data_dir)
                    self.restarts += 1
                    logger.warning("the embedded database in %s answers again, started in %.1fs", self.data_dir,
                                   time.monotonic() - started)
                except EmbeddedDatabaseError as error:  # the next round tries again
                    logger.error("the embedded database in %s did not start: %s", self.data_dir, error)
                    continue

    def stop(self) -> None:
        """Stop watching; a server this thread restarted ends with it."""
        self._stopping.set()
