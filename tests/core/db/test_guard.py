"""The guard of the embedded database: whatever happens to the service, the guarded command does not outlive it."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from core.db.embedded import GUARD, pid_alive

STUBBORN = "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); print(flush=True); time.sleep(600)"
SERVICE = """
import subprocess, sys
guard = subprocess.Popen([sys.executable, {guard!r}, str(__import__('os').getpid()), {kill_after!r},
                          sys.executable, '-c', {command!r}], stdout=subprocess.PIPE, start_new_session=True)
guard.stdout.readline()  # the command is running
print(guard.pid, flush=True)
__import__('time').sleep(600)
"""


def guarded_by_a_service(command: str, kill_after: float) -> tuple[subprocess.Popen, int]:
    """A service process that runs `command` under the guard; returns it and the guard's pid once both run."""
    code = SERVICE.format(guard=str(GUARD), kill_after=str(kill_after), command=command)
    service = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    return service, int(service.stdout.readline())


def stopped(service: subprocess.Popen) -> None:
    """Kill the service the way `kill -9` would, leaving the guard to notice."""
    service.kill()
    service.wait()
    service.stdout.close()


def gone_within(pid: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while pid_alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not pid_alive(pid)


def test_a_command_deaf_to_sigterm_is_killed_after_the_grace_once_the_service_is_killed():
    service, guard = guarded_by_a_service(STUBBORN, kill_after=1.0)
    stopped(service)
    assert gone_within(guard, 15)


def test_the_guard_waits_out_the_grace_before_killing():
    service, guard = guarded_by_a_service(STUBBORN, kill_after=30.0)
    stopped(service)
    try:
        assert not gone_within(guard, 3)  # still closing cleanly, by its own lights
    finally:
        os.kill(guard, signal.SIGKILL)  # the command dies with its guard


def test_a_command_that_stops_on_sigterm_ends_with_the_service_at_once():
    service, guard = guarded_by_a_service("import time; print(flush=True); time.sleep(600)", kill_after=30.0)
    stopped(service)
    assert gone_within(guard, 5)
