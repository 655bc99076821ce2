"""What hostile requests cost the served service (issue 47): `python -m bench.hostile [--code DIR]`.

gunicorn is started as `make run` starts it (gunicorn.conf.py, one worker of four threads) from this checkout, or from
the checkout `--code` names (an older commit, for the figures before), over an empty station of a database of its own.

- **Request lines**: the seconds until a request line of 1, 8 and 16 MB (no key needed: `/health/live?x=...`) is
  answered, and the status. A raw socket sends the line while another thread reads the answer, so the time is the
  server's, not the sending's; a server that reads the whole line first answers only once it has all of it.
- **Workbooks**: the web worker's peak resident memory (VmHWM) before and after a preview of each hostile workbook
  (tests/workbooks.py: 512 MiB of spaces deflated to 524 KB, two cells at A1 and XFD1048576, a billion laughs, an
  external entity), the status answered, and whether the worker lived.
- **What the bounds cost** (this checkout only): a plain workbook of `--rows` rows of six columns (an interactions
  file; Excel's most is 1,048,575 under a header) read whole by core.ingest.workbook (checked, then read in a process
  of its own) against python-calamine read in this process, as the service read workbooks before: seconds, and the
  peak memory of this process and of the reader.

Figures go to measured/hostile.json (the `--code` run's under "before").
"""
from __future__ import annotations

import argparse
import io
import json
import os
import resource
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx

from bench.station import close, fresh_database, markdown
from tests import workbooks

ROOT = Path(__file__).resolve().parents[1]
LINES_MB = (1, 8, 16)
WAIT_S = 300


def _station(data: Path) -> tuple[object, str]:
    """An empty database with station 1 and an API key for it."""
    from core.access.api_keys import create_key
    from core.stations.companies import ensure_company

    settings = fresh_database(0, data)
    ensure_company(1)
    return settings, create_key([1], name="bench")[1]


def _served(code: Path, settings, port: int) -> subprocess.Popen:
    env = {**os.environ, "DATA_DIR": str(settings.data_dir), "MONGODB_DATABASE": settings.database_name,
           "AUTO_EMBED": "false", "SECRET_KEY": "bench", "PYTHONPATH": str(code)}
    gunicorn = str(Path(sys.executable).with_name("gunicorn"))
    proc = subprocess.Popen([gunicorn, "--config", str(code / "gunicorn.conf.py"), "--workers", "1", "--threads", "4",
                             "--bind", f"127.0.0.1:{port}", "--timeout", "600", "wsgi:app"], cwd=code, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health/live", timeout=2).status_code == 200:
                return proc
        except httpx.TransportError:
            time.sleep(0.2)
    raise RuntimeError("gunicorn did not start")


def _refused_line(port: int, megabytes: int) -> tuple[float, str]:
    """Seconds until a line of `megabytes` MB is answered, and the status line (or what happened instead)."""
    line = b"GET /health/live?x=" + b"a" * (megabytes << 20) + b" HTTP/1.1\r\nHost: x\r\n\r\n"
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT_S) as sock:
        sender = threading.Thread(target=_send, args=(sock, line), daemon=True)
        started = time.perf_counter()
        sender.start()
        try:
            first = sock.recv(256)
        except OSError as exc:
            return time.perf_counter() - started, type(exc).__name__
        took = time.perf_counter() - started
    return took, first.split(b"\r\n", 1)[0].decode(errors="replace") or "closed without an answer"


def _send(sock: socket.socket, data: bytes) -> None:
    try:
        sock.sendall(data)
    except OSError:
        pass  # refused before it was all sent


def _worker(master: int) -> int:
    return int(Path(f"/proc/{master}/task/{master}/children").read_text().split()[0])


def _peak_mb(pid: int) -> float:
    """The process's peak resident memory; NaN once it has died (a zombie has none)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return float("nan")
    return int(status.split("VmHWM:")[1].split()[0]) / 1024 if "VmHWM:" in status else float("nan")


def _previewed(port: int, key: str, name: str, body: bytes, master: int) -> list:
    """[workbook, size, status, worker peak MB before, after, the worker lived]."""
    worker = _worker(master)
    before = _peak_mb(worker)
    try:
        answer = httpx.post(f"http://127.0.0.1:{port}/api/v1/imports/1/channels/preview", headers={"X-API-Key": key},
                            files={"file": ("channels.xlsx", io.BytesIO(body))}, timeout=WAIT_S)
        status = str(answer.status_code)
    except httpx.TransportError as exc:
        status = type(exc).__name__
    after = _peak_mb(worker)
    lived = after == after  # NaN when it died
    return [name, f"{len(body):,} B", status, f"{before:.0f}", f"{after:.0f}", "yes" if lived else "no (restarted)"]


LINE_COLUMNS = ["request line", "answered after s", "answer"]
WORKBOOK_COLUMNS = ["workbook", "size", "status", "worker peak MB before", "after", "worker lived"]
COST_COLUMNS = ["rows", "workbook MB", "read by", "s", "peak MB of the process reading", "reader's peak MB"]


def served_figures(code: Path, data: Path) -> dict:
    """The request lines' and the hostile workbooks' tables of the service served from `code`."""
    settings, key = _station(data)
    port = _free_port()
    server = _served(code, settings, port)
    try:
        lines = [[f"{mb} MB", f"{seconds:.2f}", said] for mb in LINES_MB for seconds, said in [_refused_line(port, mb)]]
        hostile = {"inflating (512 MiB)": workbooks.inflating(512), **{
            name: make() for name, make in workbooks.HOSTILE.items() if name != "inflating"}}
        rows = []
        for name, body in hostile.items():
            rows.append(_previewed(port, key, name, body, server.pid))
            if rows[-1][-1] != "yes":
                time.sleep(5)  # the master starts a new worker
        return {"request lines": _records(LINE_COLUMNS, lines), "workbooks": _records(WORKBOOK_COLUMNS, rows)}
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=60)
        close(settings)


def read_cost(rows: int, data: Path) -> list[dict]:
    """A plain workbook of `rows` rows read whole by the service and by python-calamine in the process that reads,
    each in a fresh process of its own (so that its peak memory is its own)."""
    path = _plain_workbook(rows, data)
    figures = []
    for name, how in (("core.ingest.workbook (checked, own process)", "bounded"),
                      ("python-calamine in this process (before)", "in-process")):
        said = subprocess.run([sys.executable, "-m", "bench.hostile", "--read", how, str(path)], cwd=ROOT,
                              capture_output=True, text=True, check=True).stdout.split()
        count, took, own, reader = int(said[0]), float(said[1]), float(said[2]), float(said[3])
        figures.append([f"{count:,}", f"{path.stat().st_size / 2**20:.1f}", name, f"{took:.1f}", f"{own:.0f}",
                        f"{reader:.0f}" if how == "bounded" else ""])
    return _records(COST_COLUMNS, figures)


def _timed_read(how: str, path: Path) -> None:
    """Read the workbook one way; print the rows, seconds, this process's and its children's peak MB."""
    started = time.perf_counter()
    count = (_read_bounded if how == "bounded" else _read_in_process)(path)
    took = time.perf_counter() - started
    own, children = (resource.getrusage(kind).ru_maxrss / 1024
                     for kind in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    print(count, f"{took:.2f}", f"{own:.0f}", f"{children:.0f}")


def _plain_workbook(rows: int, data: Path) -> Path:
    """An interactions workbook of `rows` rows (made once per size, with xlsxwriter's constant memory)."""
    import xlsxwriter

    path = data / f"plain-{rows}.xlsx"
    if not path.exists():
        data.mkdir(parents=True, exist_ok=True)
        book = xlsxwriter.Workbook(str(path), {"constant_memory": True})
        sheet = book.add_worksheet("Interactions")
        sheet.write_row(0, 0, ["interaction_id", "originator", "timestamp", "channel_type", "campaign_type", "message"])
        for n in range(1, rows + 1):
            sheet.write_row(n, 0, [f"i-{n}", f"2782{n % 10_000_000:07d}", f"2026-11-{1 + n % 28:02d}T0{n % 10}:15:00",
                                   1 + n % 7, ("song_request", "competition", "shoutout")[n % 3],
                                   ("Play some gospel please", "", "Sawubona!")[n % 3]])
        book.close()
    return path


def _read_bounded(path: Path) -> int:
    from core.ingest.workbook import read_workbook

    return sum(1 for _ in read_workbook(path)[2])


def _read_in_process(path: Path) -> int:
    from python_calamine import CalamineWorkbook

    book = CalamineWorkbook.from_path(str(path))
    try:
        return sum(1 for _ in book.get_sheet_by_name(book.sheet_names[0]).iter_rows())
    finally:
        book.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--code", type=Path, default=None, help="also serve this checkout (an older commit)")
    parser.add_argument("--rows", type=int, default=1_048_575, help="rows of the plain workbook read for its cost")
    parser.add_argument("--data", type=Path, default=ROOT / "bench" / "data" / "hostile")
    parser.add_argument("--read", nargs=2, metavar=("HOW", "FILE"), help=argparse.SUPPRESS)  # one timed read
    args = parser.parse_args()
    if args.read:
        return _timed_read(args.read[0], Path(args.read[1]))
    found = {"measured_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
             "cost": read_cost(args.rows, args.data)}  # first: a process keeps the peak of the one that started it
    found["now"] = served_figures(ROOT, args.data)
    if args.code:
        found["before"] = served_figures(args.code.resolve(), args.data)
    for when in ("now", "before"):
        for name, records in found.get(when, {}).items():
            print(f"\n{name} ({when}):\n{markdown(records)}")
    print(f"\nreading a plain workbook:\n{markdown(found['cost'])}")
    (ROOT / "measured" / "hostile.json").write_text(json.dumps(found, indent=1, sort_keys=True) + "\n")


def _records(columns: list[str], rows: list[list]) -> list[dict]:
    return [dict(zip(columns, row)) for row in rows]


def _free_port() -> int:
    from core.db.embedded import free_port

    return free_port()


if __name__ == "__main__":
    main()
