"""Hosts made of Linux network namespaces, for the multi-host test and bench.multihost: each host is a namespace with
one veth into a bridge of the root namespace, an address in a private /24 of its own (10.27.N.0/24, N free on this
machine), and nothing shared with the others but the network and, since namespaces share the file system, only the
folders each process is given. The root namespace holds the bridge's address (.1), so the test reaches every host.

Every name carries the pid of the process that made it (`lss<pid>-web-a`, bridge `lsb<pid>`), so a run killed before
its clean-up leaves nothing that the next run cannot recognise as dead and remove. Only addresses of these hosts are
ever sent traffic.

`start_service` puts the service on such hosts as production runs it (a database host, web hosts with gunicorn.conf.py,
worker hosts), and `visibility_latency` times what the test asserts and the benchmark reports.
"""
from __future__ import annotations

import base64
import fcntl
import os
import re
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

import httpx
import pymongo

from core.clock import utcnow
from core.db.embedded import pid_alive, uri_of_port

PREFIX = "10.27"
LOCK = Path("/tmp/lss-netns.lock")  # serialises the choice of a free /24 between runs started together


def ip(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    """`ip ARGS`, its output as text."""
    return subprocess.run(["ip", *args], capture_output=True, text=True, check=check, timeout=30)


def why_not_permitted() -> str | None:
    """Why network namespaces cannot be made here (None when they can): not root, no `ip`, or the kernel refuses."""
    probe = f"lss{os.getpid()}-probe"
    try:
        made = ip("netns", "add", probe, check=False)
    except FileNotFoundError:
        return "the `ip` command (iproute2) is not installed"
    if made.returncode:
        return f"`ip netns add` is not permitted here: {made.stderr.strip() or made.returncode}"
    ip("netns", "del", probe, check=False)
    return None


def remove_dead_runs() -> None:
    """Delete the namespaces and bridges of earlier runs whose process is gone."""
    for line in ip("netns", "list").stdout.splitlines():
        found = re.match(r"lss(\d+)-\S+", line)
        if found and not pid_alive(int(found.group(1))):
            ip("netns", "del", found.group(0), check=False)
    for found in re.finditer(r"^\d+: (lsb(\d+))[:@]", ip("-o", "link", "show").stdout, flags=re.MULTILINE):
        if not pid_alive(int(found.group(2))):
            ip("link", "del", found.group(1), check=False)


def _free_subnet() -> int:
    """A third octet N such that no address of this machine is in 10.27.N.0/24."""
    used = set(re.findall(rf"inet {re.escape(PREFIX)}\.(\d+)\.", ip("-o", "addr", "show").stdout))
    return next(n for n in range(1, 255) if str(n) not in used)


@dataclass
class Host:
    """A namespace, its address, and the processes started in it."""

    name: str
    netns: str
    address: str
    processes: list[subprocess.Popen] = field(default_factory=list)

    def start(self, command: list[str], env: dict, log: Path, cwd: Path | None = None) -> subprocess.Popen:
        """The command inside this host, in a process group of its own (so that a kill reaches its children), its
        output appended to `log`."""
        with open(log, "ab") as out:
            proc = subprocess.Popen(["ip", "netns", "exec", self.netns, *command], env=env, cwd=cwd, stdout=out,
                                    stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True)
        self.processes.append(proc)
        return proc


class Network:
    """A bridge and the hosts plugged into it; `close` removes every namespace, link and process it made."""

    def __init__(self):
        self.tag = str(os.getpid())
        self.bridge = f"lsb{self.tag}"
        self.hosts: list[Host] = []
        remove_dead_runs()
        LOCK.touch(exist_ok=True)
        with open(LOCK) as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            self.subnet = f"{PREFIX}.{_free_subnet()}"
            ip("link", "add", self.bridge, "type", "bridge")
            ip("addr", "add", f"{self.subnet}.1/24", "dev", self.bridge)
        ip("link", "set", self.bridge, "up")

    def add_host(self, name: str) -> Host:
        """A new namespace `name` on the bridge, with the next address of the subnet."""
        number = len(self.hosts) + 2
        host = Host(name, f"lss{self.tag}-{name}", f"{self.subnet}.{number}")
        outside, inside = f"lsv{self.tag}{number}", f"lsp{self.tag}{number}"
        ip("netns", "add", host.netns)
        self.hosts.append(host)
        ip("link", "add", outside, "type", "veth", "peer", "name", inside)
        ip("link", "set", inside, "netns", host.netns)
        ip("link", "set", outside, "master", self.bridge, "up")
        for args in (("link", "set", "lo", "up"), ("link", "set", inside, "name", "eth0"),
                     ("addr", "add", f"{host.address}/24", "dev", "eth0"), ("link", "set", "eth0", "up")):
            ip("-n", host.netns, *args)
        return host

    def close(self) -> None:
        """Stop every process (SIGTERM, then SIGKILL after 20 s), then delete the namespaces and the bridge."""
        running = [proc for host in self.hosts for proc in host.processes if proc.poll() is None]
        for proc in running:
            _signal_group(proc, signal.SIGTERM)
        deadline = time.monotonic() + 20
        for proc in running:
            try:
                proc.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                _signal_group(proc, signal.SIGKILL)
                proc.wait(timeout=10)
        for host in self.hosts:
            ip("netns", "del", host.netns, check=False)
        ip("link", "del", self.bridge, check=False)

    def __enter__(self) -> Network:
        return self

    def __exit__(self, *_exc) -> None:
        self.close()


def _signal_group(proc: subprocess.Popen, sig: int) -> None:
    try:
        os.killpg(proc.pid, sig)
    except ProcessLookupError:
        pass


# The service on such hosts: a database host running SecantusDB on its address, web hosts running gunicorn with the
# project's gunicorn.conf.py, worker hosts running `flask --app wsgi worker`, each with its own DATA_DIR.

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
DB_PORT, KEY_VAULT_PORT, WEB_PORT = 27017, 27018, 8000
ADMIN_KEY = "multihost-admin-key"
HTTP = httpx.Client(verify=False, limits=httpx.Limits(max_keepalive_connections=0))
"""The hosts' plain http, from one client: `httpx.get` makes a client per call, and each reads every certificate
authority the system trusts (0.18 s of CPU), which a loop waiting for a host paid ten times a second."""
MASTER_KEY = base64.b64encode(os.urandom(96)).decode()  # one master key for every host, as a cluster is configured


def service_env(data_dir: Path, uri: str, vault_uri: str, **settings: str) -> dict:
    """The environment of one process of the service: its own DATA_DIR, the shared database, key vault and master
    key, and `settings`."""
    env = {k: v for k, v in os.environ.items() if k not in ("MONGODB_URI", "MONGODB_DATABASE", "KEY_VAULT_URI",
                                                             "PROMETHEUS_MULTIPROC_DIR")}
    return {**env, "DATA_DIR": str(data_dir), "MONGODB_URI": uri, "KEY_VAULT_URI": vault_uri,
            "SECRET_KEY": "multihost-secret",
            "MASTER_KEY": MASTER_KEY, "ADMIN_KEY": ADMIN_KEY, "DAILY_PURGE": "false", "DB_TIMEOUT_MS": "2000",
            **settings}


def wait_until(check, seconds: float, what: str):
    """Poll `check` every 50 ms until it returns something true; TimeoutError naming `what` after `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.05)
    raise TimeoutError(f"timed out after {seconds:.0f}s waiting for {what}")


def answers(address: str, port: int) -> bool:
    """True when something accepts TCP connections there."""
    try:
        with socket.create_connection((address, port), timeout=0.5):
            return True
    except OSError:
        return False


def start_database(host: Host, folder: Path, port: int = DB_PORT) -> str:
    """SecantusDB listening on the host's address and port, its files in `folder`; its URI once it answers."""
    folder.mkdir(parents=True, exist_ok=True)
    proc = host.start([str(BIN / "secantusd-py"), "--host", host.address, "--port", str(port),
                       "--storage-path", str(folder / "db"), "--log-level", "WARNING"], dict(os.environ),
                      folder / "secantus.log")
    wait_until(lambda: answers(host.address, port) or proc.poll() is not None, 60, "the database host")
    if proc.poll() is not None:
        raise RuntimeError(f"secantusd-py ended with {proc.returncode}: see {folder / 'secantus.log'}")
    return uri_of_port(port, host.address)


def flask(env: dict, *args: str) -> subprocess.Popen:
    """`flask --app wsgi ARGS` from this (root) namespace, which reaches every host; read it with `output`."""
    return subprocess.Popen([str(BIN / "flask"), "--app", "wsgi", *args], cwd=ROOT, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def output(command: subprocess.Popen, timeout: float = 300) -> str:
    """What the command printed on its standard output once it ended; RuntimeError when it failed."""
    printed, logged = command.communicate(timeout=timeout)
    if command.returncode:
        raise RuntimeError(f"{' '.join(command.args[3:])} failed: {printed[-2000:]}{logged[-2000:]}")
    return printed


def start_web(host: Host, env: dict, log: Path) -> str:
    """gunicorn with the project's gunicorn.conf.py on the host's address; its base URL (not waited for)."""
    host.start([str(BIN / "gunicorn"), "--config", str(ROOT / "gunicorn.conf.py"), "--workers", "1", "--threads", "4",
                "--bind", f"{host.address}:{WEB_PORT}", "--timeout", "120", "wsgi:app"], env, log, cwd=ROOT)
    return f"http://{host.address}:{WEB_PORT}"


def start_worker(host: Host, env: dict, log: Path) -> subprocess.Popen:
    """`flask --app wsgi worker` on the host."""
    return host.start([str(BIN / "flask"), "--app", "wsgi", "worker"], env, log, cwd=ROOT)


def ready(base: str) -> bool:
    """True once the web host answers /health/ready with 200 (database reached, every index loaded)."""
    try:
        return HTTP.get(f"{base}/health/ready", timeout=10).status_code == 200
    except httpx.TransportError:
        return False


def start_service(net: Network, tmp: Path, listeners: int, workers: int = 2, **settings: str) -> dict:
    """A database host, web hosts A and B and `workers` worker hosts on `net`, every process with `settings`; the
    demo station seeded as of two days ago (its daily run is due when the workers start), with the web hosts starting
    meanwhile. The workers start once both web hosts are ready, and the service is returned then: the web hosts' base
    URLs ("a", "b"), the API key's "headers", the database ("db", pymongo), the "hosts", each process's "env" and the
    "workers" by host name."""
    db_host = net.add_host("db")
    names = ["web-a", "web-b", *(f"worker-{n}" for n in "ab"[:workers])]
    hosts = {name: net.add_host(name) for name in names}
    uri = start_database(db_host, tmp / "db")
    vault_uri = start_database(db_host, tmp / "key-vault", KEY_VAULT_PORT)  # a deployment of its own, as asked
    env = {name: service_env(tmp / name, uri, vault_uri, **settings) for name in [*names, "cli"]}
    bases = {name: start_web(hosts[name], env[name], tmp / f"{name}.log") for name in ("web-a", "web-b")}
    output(flask(env["cli"], "demo", "--listeners", str(listeners), "--now",
                 (utcnow() - timedelta(days=2)).isoformat()))
    making_key = flask(env["cli"], "keys", "create", "--company", "1")
    key = output(making_key).strip().splitlines()[-1]
    for base in bases.values():
        wait_until(lambda base=base: ready(base), 180, f"{base} to be ready")
    # the workers last: their first jobs (the daily run, then the catch-up embedding) start as the caller gets the
    # service, not while a loaded machine is still starting the web hosts
    started = {name: start_worker(hosts[name], env[name], tmp / f"{name}.log") for name in names[2:]}
    db = pymongo.MongoClient(uri, serverSelectionTimeoutMS=5000)["listeners"]
    return {"a": bases["web-a"], "b": bases["web-b"], "headers": {"X-API-Key": key}, "db": db, "tmp": tmp,
            "hosts": hosts, "env": env, "workers": started}


def get(service: dict, host: str, path: str, **params) -> httpx.Response:
    """A GET of the station's API on web host "a" or "b"."""
    return HTTP.get(f"{service[host]}{path}", params=params, headers=service["headers"], timeout=60)


def visibility_latency(service: dict, originator: str) -> float:
    """Seconds from web host A's answer to a live batch of a new listener to web host B's first answer that knows
    the listener (B asked every 50 ms)."""
    if get(service, "b", f"/api/v1/listeners/1/{originator}").status_code != 404:
        raise ValueError(f"{originator} is not a new listener")
    row = {"company_id": 1, "originator": originator, "timestamp": (utcnow() - timedelta(minutes=5)).isoformat(),
           "channel_type": 2, "campaign_type": "song_request"}
    answer = HTTP.post(f"{service['a']}/api/v1/interactions/1", json=[row], headers=service["headers"], timeout=60)
    answer.raise_for_status()
    answered = time.monotonic()
    wait_until(lambda: get(service, "b", f"/api/v1/listeners/1/{originator}").status_code == 200, 10,
               "web host B to know the listener")
    return time.monotonic() - answered
