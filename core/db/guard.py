"""The guard of a child process: runs the command as its own child and makes sure it never outlives the service.

usage: python guard.py PARENT_PID KILL_AFTER_S COMMAND...   (run as a script, never imported)

The guard asks the kernel for SIGTERM when its parent dies (Linux; elsewhere it notices by polling its parent pid),
and the command for SIGKILL when the guard dies, so that even `kill -9` of the whole service leaves nothing behind.
On SIGTERM or SIGINT, or when the parent is gone, it stops the command with SIGTERM, repeated every few seconds until
the command exits: one SIGTERM can be lost by SecantusDB (core.db.quirks, "stop-hangs-after-a-closed-connection").
A command still there KILL_AFTER_S seconds after the first SIGTERM is killed: a clean close is worth a wait, but not
forever, and a database left running with nobody to stop it holds its port and storage from the next start (the
storage is journaled, so the next start recovers what a kill interrupted).
It exits with the command, so a dead command is a dead guard, and whoever watches the guard sees it.
"""
import ctypes
import os
import signal
import subprocess
import sys
import time

PR_SET_PDEATHSIG = 1
TERM_AGAIN_S = 2.0


def die_with_parent(sig: int) -> None:
    """Ask the kernel to send `sig` to this process when its parent ends (a no-op where prctl does not exist)."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, sig)
    except (AttributeError, OSError):
        pass


def main(argv: list[str]) -> int:
    parent, kill_after, command = int(argv[1]), float(argv[2]), argv[3:]
    die_with_parent(signal.SIGTERM)
    if os.getppid() != parent:  # the parent died before the kernel was asked to tell
        return 0
    # preexec_fn is safe here: the guard has a single thread
    child = subprocess.Popen(command, preexec_fn=lambda: die_with_parent(signal.SIGKILL))
    stopping: list[float] = []
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stopping.append(time.monotonic()))
    signalled = 0.0
    while child.poll() is None:
        if not stopping and os.getppid() != parent:
            stopping.append(time.monotonic())
        if stopping and time.monotonic() - stopping[0] >= kill_after:
            child.kill()
        elif stopping and time.monotonic() - signalled >= TERM_AGAIN_S:
            child.send_signal(signal.SIGTERM)
            signalled = time.monotonic()
        time.sleep(0.05)
    return child.returncode or 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
